//! The `Value` built directly (`direct.rs`) against the one the visits
//! build, on the corpus, the conformance inputs and hand-picked cases:
//! the same result, numbers compared by their exact text, errors by
//! message, span and path.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use super::ON;
use crate::de::{Deserializer, Options};
use crate::eval::{Context, Type};
use crate::{Number, Value};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// `v` with every number as its exact text, every unknown as its type.
fn exact(v: &Value) -> String {
    match v {
        Value::Number(n) => format!("N({})", n.to_exact_text()),
        Value::Array(a) => format!("[{}]", a.iter().map(exact).collect::<Vec<_>>().join(", ")),
        Value::Object(o) => format!(
            "{{{}}}",
            o.iter()
                .map(|(k, v)| format!("{k:?}: {}", exact(v)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        other => format!("{other:?}"),
    }
}

fn show<T>(r: &crate::Result<T>, f: impl Fn(&T) -> String) -> String {
    match r {
        Ok(v) => f(v),
        Err(e) => format!("error: {e} / {e:?}"),
    }
}

/// One read of `src` in `syntax` with the direct route on or off (for
/// the JSON syntax, `json_plain.rs`'s whole values and bodies against
/// the visits).
fn read(
    src: &str,
    syntax: crate::de::Syntax,
    ctx: Option<&Context>,
    max_depth: usize,
    direct: bool,
) -> Vec<String> {
    ON.set(direct);
    let de = || {
        Deserializer::from_str(src)
            .with_syntax(syntax)
            .with_options(&Options::new().with_max_depth(max_depth))
    };
    let mut out = Vec::new();
    let value = match ctx {
        Some(c) => Value::deserialize(de().with_context(c)),
        None => Value::deserialize(de()),
    };
    out.push(show(&value, exact));
    // `Value`s inside other targets: a map of values, optional ones.
    let map = match ctx {
        Some(c) => BTreeMap::<String, Option<Value>>::deserialize(de().with_context(c)),
        None => BTreeMap::<String, Option<Value>>::deserialize(de()),
    };
    out.push(show(&map, |m| {
        m.iter()
            .map(|(k, v)| format!("{k}={}", v.as_ref().map_or("none".into(), exact)))
            .collect::<Vec<_>>()
            .join(";")
    }));
    let dynamic = Value::deserialize(de().with_dynamic_blocks(true));
    out.push(show(&dynamic, exact));
    if syntax == crate::de::Syntax::Native {
        let number = Number::deserialize(de());
        out.push(show(&number, |n| n.to_exact_text()));
    }
    ON.set(true);
    out
}

fn check_in(src: &str, syntax: crate::de::Syntax, ctx: Option<&Context>, max_depth: usize) {
    let direct = read(src, syntax, ctx, max_depth, true);
    let visited = read(src, syntax, ctx, max_depth, false);
    assert_eq!(direct, visited, "the two routes differ on:\n{src}");
}

fn check(src: &str, ctx: Option<&Context>, max_depth: usize) {
    check_in(src, crate::de::Syntax::Native, ctx, max_depth);
}

fn check_json(src: &str, ctx: Option<&Context>, max_depth: usize) {
    check_in(src, crate::de::Syntax::Json, ctx, max_depth);
}

const JSON_CASES: &[&str] = &[
    r#"{"a": 1, "b": -0, "c": 0.1, "d": 1e400, "e": -1.5e-40, "f": 18446744073709551616, "g": 1.50, "h": 1e2}"#,
    r#"{"a": [1, [2, [3, [4, [5]]]]], "b": {"x": {"y": {"z": [1]}}}}"#,
    r#"{"a": {"$__hcl_private_Number": "1.5"}, "b": {"$__hcl_private_Unknown": "string"}}"#,
    r#"{"$__hcl_private_Number": "1.5"}"#,
    r#"{"$__hcl_private_Number": "x"}"#,
    r#"{"$__hcl_private_Unknown": "string"}"#,
    r#"{"a": "${n}", "b": "x-${id}", "c": ["${n}", 1], "d": {"k": "${obj}"}, "e": "%{ if true }y%{ endif }"}"#,
    r#"{"a": "${missing}", "b": 1}"#,
    r#"{"a": [1, "${missing}"]}"#,
    r#"{"a": 1, "a": 2}"#,
    r#"{"a": 1, "b": {"x": 1, "x": 2}}"#,
    r#"{"//": "c", "a": 1, "//": "d"}"#,
    r#"{"//": "c", "a": 1}"#,
    r#"{"é": 1, "é": 2, "b": {"é": 1, "é": 2}}"#,
    r#"{"é": "é", "k"": "\n"}"#,
    r#"{"${n}": 1, "b": {"${n}": 2}}"#,
    r#"[{"a": 1}, {"b": 2}]"#,
    r#"[{"a": 1}, {"a": 2}]"#,
    r#"[]"#,
    r#"{}"#,
    r#"1"#,
    r#"{"a": null, "b": true, "c": [null, false], "d": {}, "e": []}"#,
    r#"{"dynamic": {"x": {"for_each": [1, 2], "content": {"v": "${x.value}"}}}}"#,
];

fn contexts() -> Vec<Context> {
    let mut ctx = Context::with_stdlib();
    ctx.declare_var("id", Value::unknown(Type::String));
    ctx.declare_var("any", Value::unknown(Type::Any));
    ctx.declare_var("n", Value::from(2));
    ctx.declare_var(
        "obj",
        crate::value!({ a: 1, b: [true, null], c: { d: "x" } }),
    );
    vec![ctx]
}

const CASES: &[&str] = &[
    "a = 1\nb = -0\nc = 0.1\nd = 1e400\ne = -1.5e-40\nf = 18446744073709551616\ng = -9223372036854775809\nh = 340282366920938463463374607431768211456\n",
    "a = 0.1 + 0.2\nb = 1 / 3\nc = -0 * 1\nd = 1 / 0\ne = 2 * n\n",
    "a = [1, [2, [3, [4, [5]]]]]\nb = { x = { y = { z = [1] } } }\n",
    "a = { \"$__hcl_private_Number\" = \"1.5\" }\nb = { \"$__hcl_private_Unknown\" = \"string\" }\nc = { \"$__hcl_private_Unknown\" = [\"list\", \"number\"] }\n",
    "a = { \"$__hcl_private_Number\" = \"x\" }\nb = { \"$__hcl_private_Number\" = 1 }\nc = { (\"$__hcl_private_Number\") = \"2\" }\n",
    "a = id\nb = \"x-${id}\"\nc = [id, any]\nd = { k = id }\ne = any\nf = tolist([id])\ng = obj\nh = obj.c\n",
    "a = upper(\"x\")\nb = [for x in [1, 2] : x * 2]\nc = { for k, v in obj : k => v }\nd = merge({ \"$__hcl_private_Number\" = \"2\" })\n",
    "a = <<EOT\nhello\nEOT\nb = <<-EOT\n  ${n}\n  EOT\nc = \"\"\nd = \"\\u00e9 e\\u0301\"\n",
    "a = missing\n",
    "a = [1, missing]\n",
    "a = { b = [1, { c = missing }] }\n",
    "a = { x = 1, x = 2 }\n",
    "a = { (n) = 1 }\nb = { \"k\" = 1, k = 2 }\n",
    "service \"a\" { x = 1 }\nservice \"b\" { y = [2] }\nservice \"a\" { z = 3 }\n",
    "service \"a\" \"b\" { x = 1 }\nservice \"a\" { y = 2 }\n",
    "service { x = 1 }\nservice { x = 2 }\nother { }\nother \"l\" { }\n",
    "service \"a\" { x = 1 }\nservice = 2\n",
    "x = 1\nx { }\n",
    "block \"$__hcl_private_Number\" { }\nblock2 \"$__hcl_private_Unknown\" { }\n",
    "a \"b\" \"c\" \"d\" { e \"f\" { g = [[[[1]]]] } }\n",
    "a { b { c { d { e { f = { g = { h = 1 } } } } } } }\n",
    "a = null\nb = true\nc = [null, false]\nd = {}\ne = []\n",
    "s \"a\" { }\ns \"a\" { }\ns \"b\" \"c\" { }\ns \"b\" \"c\" { x = 1 }\ns \"b\" \"d\" { }\nt { }\nt { }\n",
    "s \"a\" { }\ns { }\n",
    "s { }\ns \"a\" { }\n",
    "s \"a\" \"b\" { }\ns \"a\" { }\n",
    "s = 1\ns { }\ns { }\n",
    "s { }\ns { }\ns = 1\n",
    "dynamic \"x\" {\n  for_each = [1, 2]\n  content { v = x.value }\n}\n",
    "a = 1.0\nb = 10.50\nc = 1e2\nd = 0x10\n",
];

fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            files_under(&p, out);
        } else if matches!(
            p.extension().and_then(|e| e.to_str()),
            Some("tf" | "hcl" | "nomad" | "hclexpr")
        ) {
            out.push(p);
        }
    }
}

/// Bodies and groups past the size up to which blocks are grouped by
/// comparison, with repeated types and labels at several levels.
fn generated() -> Vec<String> {
    let mut out = Vec::new();
    for n in [15, 16, 17, 18, 40] {
        let mut s = String::new();
        for i in 0..n {
            s.push_str(&format!("a{i} = {i}\n"));
            s.push_str(&format!(
                "svc \"l{}\" \"m{}\" {{ x = {i} }}\n",
                i % 5,
                i % 3
            ));
            s.push_str(&format!("t{} {{ y = [{i}] }}\n", i % 4));
            s.push_str(&format!("u \"k{i}\" {{ }}\n"));
            s.push_str(&format!("v {{ z = {i} }}\n"));
        }
        out.push(s.clone());
        s.push_str("svc \"l0\" { }\n");
        out.push(s.clone());
        s.push_str("a3 { }\n");
        out.push(s);
    }
    out
}

#[test]
fn direct_equals_visits_on_cases() {
    let ctxs = contexts();
    let generated = generated();
    for src in CASES
        .iter()
        .copied()
        .chain(generated.iter().map(String::as_str))
    {
        for depth in [1, 2, 3, 4, 6, 128] {
            check(src, None, depth);
            for c in &ctxs {
                check(src, Some(c), depth);
            }
        }
    }
}

#[test]
fn direct_equals_visits_on_json_cases() {
    let ctxs = contexts();
    for src in JSON_CASES {
        for depth in [0, 1, 2, 3, 6, 128] {
            check_json(src, None, depth);
            for c in &ctxs {
                check_json(src, Some(c), depth);
            }
        }
    }
}

#[test]
fn direct_equals_visits_on_shared_json_inputs() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/conformance-json");
    let mut files = Vec::new();
    json_files_under(&dir, &mut files);
    if files.is_empty() {
        hcl_test_support::not_run(format!(
            "direct_equals_visits_on_shared_json_inputs: no inputs under {}",
            dir.display()
        ));
        return;
    }
    let ctx = contexts().pop().expect("a context");
    for f in &files {
        let Ok(text) = std::fs::read_to_string(f) else {
            continue;
        };
        check_json(&text, None, 128);
        check_json(&text, Some(&ctx), 128);
        check_json(&text, None, 2);
    }
}

fn json_files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            json_files_under(&p, out);
        } else if p.to_string_lossy().ends_with(".json") {
            out.push(p);
        }
    }
}

#[test]
fn direct_equals_visits_on_shared_inputs() {
    let shared = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared");
    let mut files = Vec::new();
    for dir in ["corpus", "conformance", "conformance-ext"] {
        files_under(&shared.join(dir), &mut files);
    }
    if files.is_empty() {
        hcl_test_support::not_run(format!(
            "direct_equals_visits_on_shared_inputs: no inputs under {}",
            shared.display()
        ));
        return;
    }
    let ctx = contexts().pop().expect("a context");
    for f in &files {
        let Ok(text) = std::fs::read_to_string(f) else {
            continue;
        };
        let src = if f.extension().is_some_and(|e| e == "hclexpr") {
            format!("x = {text}\n")
        } else {
            text
        };
        check(&src, None, 128);
        check(&src, Some(&ctx), 128);
        check(&src, None, 3);
    }
}
