//! The JSON parser: the RFC's number grammar, escapes, positions of
//! syntax errors (lines and columns checked against the text by hand:
//! ours count a tab as one column, the reference two), repeated names.

#![allow(clippy::expect_used, clippy::unwrap_used)]

use hcl_grammar::json::{parse_json, JsonKind};
use hcl_grammar::Span;
use std::borrow::Cow;

#[test]
fn numbers_are_checked_by_the_rfc_grammar() {
    for ok in [
        "0",
        "-0",
        "1.5",
        "1e5",
        "1E+5",
        "-12.50e-3",
        "123456789012345678901234567890",
    ] {
        assert!(parse_json(ok, &Default::default()).is_ok(), "{ok}");
    }
    for bad in ["012", "+1", ".5", "1.", "1e5e5", "-", "1e", "--1", "1.e5"] {
        assert!(parse_json(bad, &Default::default()).is_err(), "{bad}");
    }
}

#[test]
fn strings_decode_escapes_and_borrow_otherwise() {
    let v = parse_json(
        r#"["a\"b\u00e9\ud83d\ude00\/", "plain", "\ud800"]"#,
        &Default::default(),
    )
    .unwrap();
    let JsonKind::Array(items) = v.kind else {
        panic!("not an array")
    };
    assert_eq!(
        items[0].kind,
        JsonKind::String("a\"b\u{e9}\u{1F600}/".into())
    );
    assert!(matches!(
        &items[1].kind,
        JsonKind::String(Cow::Borrowed("plain"))
    ));
    assert_eq!(items[2].kind, JsonKind::String("\u{FFFD}".into()));
}

#[test]
fn syntax_errors_have_positions() {
    for (src, line, col) in [
        // At the trailing comma itself (the reference: line 1, column 8).
        ("{\"a\": 1,}", 1, 8),
        ("[1, 2,]", 1, 6),
        ("{\n  \"a\": 'x'\n}", 2, 8),
        ("{\"a\": 1 // c\n}", 1, 9),
        ("{\"a\"\t: \"x\ty\"}", 1, 10),
        ("{a: 1}", 1, 2),
        ("[1, 2", 1, 1),
        ("", 1, 1),
        ("{} {}", 1, 4),
    ] {
        let e = parse_json(src, &Default::default()).unwrap_err();
        assert_eq!(
            (e.line(), e.column()),
            (line, col),
            "{src:?}: {}",
            e.message()
        );
    }
}

#[test]
fn repeated_names_are_kept_in_order() {
    let v = parse_json(r#"{"b": 1, "a": 2, "b": 3}"#, &Default::default()).unwrap();
    let JsonKind::Object(props) = v.kind else {
        panic!("not an object")
    };
    let names: Vec<_> = props.iter().map(|p| p.name.as_ref()).collect();
    assert_eq!(names, ["b", "a", "b"]);
    assert_eq!(props[2].name_span, Span::new(17, 20));
}
