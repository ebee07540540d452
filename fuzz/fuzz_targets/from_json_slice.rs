//! HCL's JSON syntax on any bytes: `hcl::from_json_slice` into
//! `hcl::Value`, with and without a context (strings literal, then
//! templates), and the schema API reading every property as an attribute
//! and evaluating it. Nothing may panic; every error has a position.
//!
//! Each read into a `Value` takes the three routes and compares them: the
//! value built while the text is parsed (the default), built from the
//! parsed document, and read through the visits. The same value (numbers
//! by their exact text), or errors with the same message.
#![no_main]

use libfuzzer_sys::fuzz_target;

/// Chooses the routes into a `Value` (`hcl::de::__set_routes`, which
/// exists only in a fuzzing build: elsewhere, as in CI's check that the
/// targets compile, every read takes the default route).
fn set_routes(direct: bool, builder: bool) {
    #[cfg(fuzzing)]
    hcl::de::__set_routes(direct, builder);
    #[cfg(not(fuzzing))]
    let _ = (direct, builder);
}

/// `from_json_slice` (or `_with`) of `data` into a `Value` on each route,
/// every result the same; the result.
fn read(data: &[u8], ctx: Option<&hcl::Context>) -> hcl::Result<hcl::Value> {
    let once = |direct: bool, builder: bool| {
        set_routes(direct, builder);
        let r = match ctx {
            Some(c) => hcl::from_json_slice_with::<hcl::Value>(data, c),
            None => hcl::from_json_slice::<hcl::Value>(data),
        };
        set_routes(true, true);
        r
    };
    let built = once(true, true);
    for (direct, builder) in [(true, false), (false, false)] {
        let other = once(direct, builder);
        match (&built, &other) {
            (Ok(a), Ok(b)) => assert_eq!(
                format!("{a:?}"),
                format!("{b:?}"),
                "routes differ ({direct}, {builder})"
            ),
            (Err(a), Err(b)) => assert_eq!(
                a.to_string(),
                b.to_string(),
                "errors differ ({direct}, {builder})"
            ),
            _ => panic!("one route failed: {built:?} / {other:?} ({direct}, {builder})"),
        }
    }
    built
}

fuzz_target!(|data: &[u8]| {
    if let Err(e) = read(data, None) {
        assert!(e.line().is_some() && e.column().is_some(), "{e}");
    }
    let ctx = hcl::Context::with_stdlib();
    if let Err(e) = read(data, Some(&ctx)) {
        assert!(e.line().is_some() && e.column().is_some(), "{e}");
    }
    let text = String::from_utf8_lossy(data);
    if let Ok(file) = hcl::schema::File::parse(&text, hcl::Syntax::Json) {
        if let Ok(attrs) = file.body().just_attributes() {
            for a in attrs {
                if let Err(e) = a.evaluate(Some(&ctx)) {
                    assert!(e.line().is_some(), "{e}");
                }
            }
        }
    };
});
