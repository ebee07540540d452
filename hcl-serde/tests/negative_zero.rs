//! Negative zero as the reference keeps it (issue #22): `-0 % 2` is `-0`
//! (go-cty's `Modulo` subtracts a positive zero from `-0`), while `floor`,
//! `ceil` and `parseint` rebuild their result from an integer, which has
//! no sign (`floor(-0)` is `0`). Every expected value is the reference's
//! (`hcl-oracle body` and `hcl-oracle json-body`, with `--funcs stdlib`).

#![allow(clippy::expect_used)]

use hcl::{Context, Value};

/// `(expression, the reference's string for "${expression}")`.
const CASES: &[(&str, &str)] = &[
    ("-0 % 2", "-0"),
    ("-0 % 2.5", "-0"),
    ("-0.0 % 2", "-0"),
    ("-0 % 1e400", "-0"),
    ("-0 % 3 - 0", "-0"),
    ("-0 % 0", "-0"),
    ("-0 % -2", "0"),
    ("-2 % 2", "0"),
    ("0 % -2", "0"),
    ("0 * -1", "-0"),
    ("-0 + 0", "0"),
    ("floor(-0)", "0"),
    ("ceil(-0.0)", "0"),
    ("parseint(\"-0\", 10)", "0"),
    ("format(\"%f\", -0 % 2)", "-0.000000"),
];

fn attr(v: &Value) -> Option<&str> {
    match v {
        Value::Object(m) => m.get("a").and_then(Value::as_str),
        _ => None,
    }
}

#[test]
fn native_syntax() {
    let ctx = Context::with_stdlib();
    for (expr, want) in CASES {
        let src = format!("a = \"${{{expr}}}x\"\n");
        let v: Value = hcl::from_str_with(&src, &ctx).expect("evaluates");
        assert_eq!(attr(&v), Some(format!("{want}x").as_str()), "{expr}");
    }
}

#[test]
fn json_syntax() {
    let ctx = Context::with_stdlib();
    for (expr, want) in CASES {
        let src = format!("{{\"a\": \"${{{}}}x\"}}", expr.replace('"', "\\\""));
        let v: Value = hcl::from_json_str_with(&src, &ctx).expect("evaluates");
        assert_eq!(attr(&v), Some(format!("{want}x").as_str()), "{expr}");
    }
}
