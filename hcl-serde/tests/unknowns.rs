//! Evaluation with unknown variables, against the reference.
//!
//! `unknowns/eval.cases` holds expressions over variables some of which are
//! unknown, each followed by what the reference implementation (hcl 2.14.1
//! with go-cty 1.12.1) gives for it: `want:` the value (an unknown value,
//! at any depth, written `{"$unknown": TYPE}` in go-cty's JSON type
//! encoding) or `error:` its summary. hcl-oracle cannot declare unknown
//! variables, so `unknowns/gen_cases.go` (built beside the oracle's function
//! table) runs the reference directly; the expectations are its output,
//! never ours.
//!
//! Where we are knowingly less precise than the reference, the case is in
//! [`LESS_REFINED`] with the result we give instead: a function called
//! with a known collection that holds an unknown value returns an unknown
//! value here, unless it only moves elements (`length`, `concat`,
//! `element`...: `stdlib::ALLOW_UNKNOWN_ELEMENTS`); go-cty passes such
//! arguments to every function, and some still give a known result.

// A malformed cases file is a bug of the test: panicking names it.
#![allow(clippy::expect_used, clippy::panic)]

use hcl::eval::{eval_expr_str, Type};
use hcl::{Context, Value};
use serde_json::Value as Json;
use std::fmt::Write as _;

/// Cases whose result is less refined than the reference's: name, the
/// reference's result (as recorded in the cases file) and ours.
const LESS_REFINED: &[(&str, &str, &str)] = &[
    // Our `merge` and `lookup` declare no result type for these arguments.
    (
        "merge",
        r#"{"$unknown":["object",{"a":"number","b":"string","c":"number"}]}"#,
        r#"{"$unknown":"dynamic"}"#,
    ),
    (
        "partial lookup",
        r#"{"$unknown":"number"}"#,
        r#"{"$unknown":"dynamic"}"#,
    ),
    // Functions that look at elements are not called with unknown ones.
    ("partial contains found", "true", r#"{"$unknown":"bool"}"#),
    (
        "partial toset",
        r#"["a",{"$unknown":"string"}]"#,
        r#"{"$unknown":["set","dynamic"]}"#,
    ),
    (
        "partial flatten",
        r#"[1,{"$unknown":"number"},2]"#,
        r#"{"$unknown":"dynamic"}"#,
    ),
];

struct Case<'t> {
    name: &'t str,
    vars: &'t str,
    expr: &'t str,
    expected: &'t str,
}

fn cases(text: &str) -> Vec<Case<'_>> {
    let mut out = Vec::new();
    let (mut vars, mut name, mut expr) = ("{}", "", "");
    for line in text.lines() {
        if let Some(v) = line.strip_prefix("vars: ") {
            vars = v;
        } else if let Some(n) = line.strip_prefix("## ") {
            name = n;
        } else if let Some(e) = line.strip_prefix("expr: ") {
            expr = e;
        } else if line.starts_with("want: ") || line.starts_with("error: ") {
            out.push(Case {
                name,
                vars,
                expr,
                expected: line,
            });
        }
    }
    out
}

/// go-cty's JSON type encoding to a [`Type`].
fn type_of(j: &Json) -> Type {
    match j {
        Json::String(s) => match s.as_str() {
            "string" => Type::String,
            "number" => Type::Number,
            "bool" => Type::Bool,
            "dynamic" => Type::Any,
            other => panic!("unknown type {other}"),
        },
        Json::Array(pair) => match (pair[0].as_str(), &pair[1]) {
            (Some("list"), e) => Type::list(type_of(e)),
            (Some("set"), e) => Type::set(type_of(e)),
            (Some("map"), e) => Type::map(type_of(e)),
            (Some("tuple"), Json::Array(ts)) => Type::Tuple(ts.iter().map(type_of).collect()),
            (Some("object"), Json::Object(m)) => {
                Type::Object(m.iter().map(|(k, t)| (k.clone(), type_of(t))).collect())
            }
            _ => panic!("bad type {j}"),
        },
        _ => panic!("bad type {j}"),
    }
}

/// A variable from the cases file: JSON, with `{"$unknown": T}` unknown.
fn value_of(j: &Json) -> Value {
    match j {
        Json::Null => Value::Null,
        Json::Bool(b) => Value::Bool(*b),
        Json::Number(n) => Value::from(n.as_i64().expect("integer variables")),
        Json::String(s) => Value::from(s.as_str()),
        Json::Array(a) => Value::Array(a.iter().map(value_of).collect()),
        Json::Object(m) => match m.get("$unknown") {
            Some(t) if m.len() == 1 => Value::unknown(type_of(t)),
            _ => Value::Object(m.iter().map(|(k, v)| (k.clone(), value_of(v))).collect()),
        },
    }
}

/// go-cty's JSON type encoding of a [`Type`] (object attributes sorted).
fn type_json(t: &Type, out: &mut String) {
    let pair = |kind: &str, inner: &Type, out: &mut String| {
        let _ = write!(out, "[\"{kind}\",");
        type_json(inner, out);
        out.push(']');
    };
    match t {
        Type::String => out.push_str("\"string\""),
        Type::Number => out.push_str("\"number\""),
        Type::Bool => out.push_str("\"bool\""),
        Type::Any => out.push_str("\"dynamic\""),
        Type::List(e) => pair("list", e, out),
        Type::Set(e) => pair("set", e, out),
        Type::Map(e) => pair("map", e, out),
        Type::Tuple(ts) => {
            out.push_str("[\"tuple\",[");
            for (i, t) in ts.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                type_json(t, out);
            }
            out.push_str("]]");
        }
        Type::Object(attrs) => {
            out.push_str("[\"object\",{");
            let mut keys: Vec<&String> = attrs.keys().collect();
            keys.sort();
            for (i, k) in keys.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                let _ = write!(out, "{}:", Json::from(k.as_str()));
                type_json(&attrs[k], out);
            }
            out.push_str("}]");
        }
    }
}

/// Our value in the generator's notation: compact JSON, keys sorted,
/// numbers as go-cty writes them, unknowns as `{"$unknown": T}`.
fn render(v: &Value, out: &mut String) {
    match v {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => out.push_str(&n.to_string()),
        Value::String(s) => out.push_str(&Json::from(s.as_str()).to_string()),
        Value::Array(a) => {
            out.push('[');
            for (i, e) in a.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                render(e, out);
            }
            out.push(']');
        }
        Value::Object(m) => {
            out.push('{');
            let mut keys: Vec<&String> = m.keys().collect();
            keys.sort();
            for (i, k) in keys.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                let _ = write!(out, "{}:", Json::from(k.as_str()));
                render(&m[k], out);
            }
            out.push('}');
        }
        Value::Unknown(t) => {
            out.push_str("{\"$unknown\":");
            type_json(t, out);
            out.push('}');
        }
    }
}

#[test]
fn unknowns_propagate_as_in_the_reference() {
    let text = include_str!("unknowns/eval.cases");
    let all = cases(text);
    assert!(all.len() > 100, "only {} cases", all.len());
    let mut failures = Vec::new();
    let mut deviations_seen = 0;
    for case in &all {
        let mut ctx = Context::with_stdlib();
        let vars: serde_json::Map<String, Json> =
            serde_json::from_str(case.vars).expect("vars are a JSON object");
        for (k, v) in &vars {
            ctx.declare_var(k.clone(), value_of(v));
        }
        let got = match eval_expr_str(case.expr, &ctx) {
            Ok(v) => {
                let mut s = String::from("want: ");
                render(&v, &mut s);
                s
            }
            Err(e) => format!("error: {e}"),
        };
        let expected = match LESS_REFINED.iter().find(|(n, _, _)| *n == case.name) {
            Some((_, reference, ours)) => {
                assert_eq!(
                    case.expected,
                    format!("want: {reference}"),
                    "{}: the reference's result changed",
                    case.name
                );
                deviations_seen += 1;
                format!("want: {ours}")
            }
            None => case.expected.to_owned(),
        };
        // Errors are compared by phase only: the wording is ours.
        let ok = if expected.starts_with("error: ") {
            got.starts_with("error: ")
        } else {
            got == expected
        };
        if !ok {
            failures.push(format!(
                "{} `{}`:\n  expected {expected}\n  got      {got}",
                case.name, case.expr
            ));
        }
    }
    assert_eq!(deviations_seen, LESS_REFINED.len());
    assert!(
        failures.is_empty(),
        "{} of {} cases differ:\n{}",
        failures.len(),
        all.len(),
        failures.join("\n")
    );
}
