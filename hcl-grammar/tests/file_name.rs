//! `ParseOptions::with_file_name`: every entry point's errors name the
//! file, at the same position as without it, and render it after `-->`.

#![allow(clippy::unwrap_used)]

use hcl_grammar::format::{format, FormatOptions};
use hcl_grammar::json::parse_json;
use hcl_grammar::{parse_body, parse_expr, parse_template, Error, ParseOptions};

fn check(named: Error, plain: Error, line_col: &str) {
    assert_eq!(named.file_name(), Some("app.hcl"));
    assert_eq!(plain.file_name(), None);
    assert_eq!(
        (named.line(), named.column()),
        (plain.line(), plain.column())
    );
    assert_eq!(named.message(), plain.message());
    let (named, plain) = (named.to_string(), plain.to_string());
    assert!(
        named.contains(&format!(" --> app.hcl:{line_col}\n")),
        "{named}"
    );
    assert!(plain.contains(&format!(" --> {line_col}\n")), "{plain}");
    assert_eq!(named.replace("app.hcl:", ""), plain);
}

#[test]
fn every_mode_names_the_file() {
    let named = ParseOptions::default().with_file_name("app.hcl");
    let plain = ParseOptions::default();

    let src = "a = 1\nb = [\n";
    check(
        parse_body(src, &named).unwrap_err(),
        parse_body(src, &plain).unwrap_err(),
        "2:5",
    );
    check(
        parse_body(src.as_bytes(), &named).unwrap_err(),
        parse_body(src.as_bytes(), &plain).unwrap_err(),
        "2:5",
    );
    check(
        parse_expr("1 +", &named).unwrap_err(),
        parse_expr("1 +", &plain).unwrap_err(),
        "1:4",
    );
    check(
        parse_template("${", &named).unwrap_err(),
        parse_template("${", &plain).unwrap_err(),
        "1:1",
    );
    check(
        parse_json("{\"a\": }", &named).unwrap_err(),
        parse_json("{\"a\": }", &plain).unwrap_err(),
        "1:7",
    );
    let fmt_named = FormatOptions::default().with_parse_options(named.clone());
    check(
        format(src, &fmt_named).unwrap_err(),
        format(src, &FormatOptions::default()).unwrap_err(),
        "2:5",
    );
}

#[test]
fn limits_name_the_file_too() {
    let named = ParseOptions::default()
        .with_file_name("app.hcl")
        .with_max_input_len(4);
    let err = parse_body("a = 1\n", &named).unwrap_err();
    assert_eq!(err.file_name(), Some("app.hcl"));
    assert!(err.message().starts_with("input too large"));
}
