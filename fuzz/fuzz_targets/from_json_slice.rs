//! HCL's JSON syntax on any bytes: `hcl::from_json_slice` into
//! `hcl::Value`, with and without a context (strings literal, then
//! templates), and the schema API reading every property as an attribute
//! and evaluating it. Nothing may panic; every error has a position.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Err(e) = hcl::from_json_slice::<hcl::Value>(data) {
        assert!(e.line().is_some() && e.column().is_some(), "{e}");
    }
    let ctx = hcl::Context::with_stdlib();
    if let Err(e) = hcl::from_json_slice_with::<hcl::Value>(data, &ctx) {
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
