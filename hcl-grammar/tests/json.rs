//! The JSON parser: the RFC's number grammar, escapes, positions of
//! syntax errors (lines and columns checked against the text by hand:
//! ours count a tab as one column, the reference two), repeated names.

#![allow(clippy::expect_used, clippy::unwrap_used)]

use hcl_grammar::json::{parse_json, JsonDocument, JsonKind, JsonValue};
use hcl_grammar::Span;

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
    let doc = parse_json(
        r#"["a\"b\u00e9\ud83d\ude00\/", "plain", "\ud800"]"#,
        &Default::default(),
    )
    .unwrap();
    let JsonKind::Array(array) = doc.root().kind else {
        panic!("not an array")
    };
    let items = doc.items(array);
    let text: Vec<_> = items.iter().map(|v| doc.string(v).unwrap()).collect();
    assert_eq!(text, ["a\"b\u{e9}\u{1F600}/", "plain", "\u{FFFD}"]);
    let borrowed: Vec<_> = items
        .iter()
        .map(|v| match v.kind {
            JsonKind::String(s) => doc.source_str(s, v.span),
            _ => panic!("not a string"),
        })
        .collect();
    assert_eq!(borrowed, [None, Some("plain"), None]);
    assert!(!doc.is_ascii());
}

#[test]
fn decoded_strings_are_kept_apart() {
    // Escaped strings among plain ones, names and values, an empty one.
    let doc = parse_json(
        r#"{"a\n": "x", "b": "\"", "c": ["", "\\", "d", "\u0065\u0066"], "\/": ""}"#,
        &Default::default(),
    )
    .unwrap();
    assert!(doc.is_ascii());
    assert_eq!(
        render(&doc, doc.root()),
        r#"{"a\n":"x","b":"\"","c":["","\\","d","ef"],"/":""}"#
    );
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
    let doc = parse_json(r#"{"b": 1, "a": 2, "b": 3}"#, &Default::default()).unwrap();
    let JsonKind::Object(object) = doc.root().kind else {
        panic!("not an object")
    };
    let props = doc.properties(object);
    let names: Vec<_> = props.iter().map(|p| doc.name(p)).collect();
    assert_eq!(names, ["b", "a", "b"]);
    assert_eq!(props[2].name_span, Span::new(17, 20));
}

/// The document written back as compact JSON, from its arenas.
fn render(doc: &JsonDocument<'_>, v: &JsonValue) -> String {
    match &v.kind {
        JsonKind::Null => "null".to_owned(),
        JsonKind::Bool(b) => b.to_string(),
        JsonKind::Number => doc.number(v).unwrap().to_owned(),
        JsonKind::String(_) => format!("{:?}", doc.string(v).unwrap()),
        JsonKind::Array(a) => {
            let items: Vec<_> = doc.items(*a).iter().map(|i| render(doc, i)).collect();
            format!("[{}]", items.join(","))
        }
        JsonKind::Object(o) => {
            let props: Vec<_> = doc
                .properties(*o)
                .iter()
                .map(|p| format!("{:?}:{}", doc.name(p), render(doc, &p.value)))
                .collect();
            format!("{{{}}}", props.join(","))
        }
    }
}

#[test]
fn nested_containers_keep_their_children() {
    let text = r#" {"a": [1, [2, [], {"b": [3, 4]}], {}], "c": {"d": {"e": [5]}, "f": 6},
        "g": [[[7]], [8, 9]], "a": null} "#;
    let doc = parse_json(text, &Default::default()).unwrap();
    assert_eq!(
        render(&doc, doc.root()),
        r#"{"a":[1,[2,[],{"b":[3,4]}],{}],"c":{"d":{"e":[5]},"f":6},"g":[[[7]],[8,9]],"a":null}"#
    );
    assert_eq!(doc.root().span, Span::new(1, text.len() - 1));
    let JsonKind::Object(o) = doc.root().kind else {
        panic!("not an object")
    };
    assert_eq!((o.len(), o.is_empty()), (4, false));
    // Each value's span is its own text.
    let JsonKind::Object(c) = doc.properties(o)[1].value.kind else {
        panic!("not an object")
    };
    let d = &doc.properties(c)[0].value;
    assert_eq!(&text[d.span.range()], r#"{"e": [5]}"#);
}

#[test]
fn the_root_keeps_the_properties_asked_for() {
    let mut doc = parse_json(
        r#"{"a": [1], "b": {"x": 2}, "a": 3, "c": [4]}"#,
        &Default::default(),
    )
    .unwrap();
    doc.retain_root_properties(|_, name| name != "a");
    assert_eq!(render(&doc, doc.root()), r#"{"b":{"x":2},"c":[4]}"#);
    doc.retain_root_properties(|_, _| false);
    assert_eq!(render(&doc, doc.root()), "{}");
    let mut doc = parse_json("[1]", &Default::default()).unwrap();
    doc.retain_root_properties(|_, _| false);
    assert_eq!(render(&doc, doc.root()), "[1]");
}

#[test]
fn deep_documents_keep_each_level_apart() {
    // Siblings before and after a nested container at every level, past
    // the levels whose lists the parser keeps inline.
    let mut text = String::from("0");
    for depth in 0..12 {
        text = if depth % 2 == 0 {
            format!(r#"{{"a{depth}":[{depth},"x"],"n":{text},"z{depth}":{{}}}}"#)
        } else {
            format!(r#"[{depth},{{"k":{depth}}},{text},[],"y{depth}"]"#)
        };
    }
    let doc = parse_json(&text, &Default::default()).unwrap();
    assert_eq!(render(&doc, doc.root()), text);
}
