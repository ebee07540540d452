//! The `Value` built directly (`direct.rs`) against the one the visits
//! build, on the corpus, the conformance inputs and hand-picked cases:
//! the same result, numbers compared by their exact text, errors by
//! message, span and path.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use super::set_routes;
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
/// the visits), and, `builder`, a JSON text built while it is parsed
/// (`json_direct.rs`) or through its document.
fn read(
    src: &str,
    syntax: crate::de::Syntax,
    ctx: Option<&Context>,
    max_depth: usize,
    (direct, builder): (bool, bool),
) -> Vec<String> {
    set_routes(direct, builder);
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
    set_routes(true, true);
    out
}

fn check_in(src: &str, syntax: crate::de::Syntax, ctx: Option<&Context>, max_depth: usize) {
    let direct = read(src, syntax, ctx, max_depth, (true, true));
    let visited = read(src, syntax, ctx, max_depth, (false, false));
    assert_eq!(direct, visited, "the two routes differ on:\n{src}");
    if syntax == crate::de::Syntax::Json {
        let document = read(src, syntax, ctx, max_depth, (true, false));
        assert_eq!(
            direct, document,
            "built while parsed and from the document differ on:\n{src}"
        );
    }
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
    // Where the JSON builder stops (`json_direct.rs`), and what it takes.
    r#"{"a": "x", "b": ["${n}"], "c": {"d": "%{ if true }y%{ endif }"}}"#,
    r#"{"//": 1, "a": {"//": 2, "b": 3}, "//": {"x": 1, "x": 2}}"#,
    r#"{"//": "${missing}", "a": 1}"#,
    r#"{"\/\/": 1, "a": 2}"#,
    r#"{"a": {"b": {"c": 1, "c": 2}}}"#,
    r#"{"a": [{"x": 1, "x": 1}]}"#,
    r#"{"a": [[[[1]]]], "b": {"c": {"d": {"e": {}}}}}"#,
    r#"{"a": -0.0, "b": 1E5, "c": 123456789012345678901234567890, "d": -9223372036854775809, "e": 0.000, "f": 1e-400, "g": 1.0e400}"#,
    r#"{"a": 10.0, "b": 1e3, "c": 2.5e+2, "d": -0e5, "e": 0e5, "f": 1.5e-1, "g": 100e-2, "h": 1e18, "i": 1e19, "j": -9.223372036854775808e18, "k": 9.223372036854775808e18, "l": -1.0}"#,
    r#"{"a": 9223372036854775807, "b": -9223372036854775808, "c": 18446744073709551615, "d": 340282366920938463463374607431768211456}"#,
    r#"{"e\u0301": 1, "é": 2, "e\u0301x": {"\u00e9": "e\u0301"}}"#,
    r#"{"k": {"e\u0301": 1, "\u00e9": 2}}"#,
    r#"{"k": {"é": 1, "é": 2}, "é": "é"}"#,
    r#"{"k": {"é": 1}, "l": ["é", "x"], "m": "é"}"#,
    r#"{"a": "x", "b": "é", "c": "Å"}"#,
    r#"{"a\nb": "c\td", "u": "\ud83d\ude00", "lone": "\ud800", "q": "\"\\\/\b\f\r"}"#,
    r#"{"a": {}, "b": [], "c": [{}], "d": [[]]}"#,
    r#"[{"a": 1, "//": 2}, {"b": [2]}]"#,
    r#"[{"a": 1}, 2]"#,
    r#"{"a": 1,}"#,
    r#"{"a" 1}"#,
    r#"{"#,
    r#""#,
    r#"{"a": 01}"#,
    r#"{"a": [1, 2}"#,
    r#"{"a": 1} x"#,
    r#"  {"a": "\u00"}"#,
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

/// JSON nested at the depth limit and past it (the limit 128, and the
/// grammar's).
#[test]
fn direct_equals_visits_on_deep_json() {
    for n in [126, 127, 128, 129, 200] {
        let src = format!("{{\"a\": {}1{}}}", "[".repeat(n), "]".repeat(n));
        check_json(&src, None, 128);
        let src = format!("{{\"a\": {}1{}}}", "{\"b\": ".repeat(n), "}".repeat(n));
        check_json(&src, None, 128);
        check_json(&src, None, n);
    }
}

/// The JSON builder builds plain texts (the route the checks above
/// compare is taken) and gives up on the others.
#[test]
fn json_builder_takes_plain_texts() {
    use crate::de::json_direct::{options, value};
    let opts = |depth| options(hcl_grammar::ParseOptions::default(), depth);
    for src in [
        r#"{}"#,
        r#"{"a": 1, "b": [true, null, "x"], "c": {"d": -0, "e": 1.50, "f": 1e400}}"#,
        r#"{"//": 1, "a": {"//": 2}}"#,
        r#"{"k": {"e\u0301": 1}, "l": ["é"]}"#,
        r#"{"a": "${n}"}"#,
    ] {
        assert!(value(src, false, &opts(128)).is_some(), "{src}");
    }
    assert!(value(r#"{"a": [1]}"#, false, &opts(2)).is_some());
    for (src, templates, depth) in [
        (r#"{"a": [1]}"#, false, 1),
        (r#"{"a": 1}"#, false, 0),
        (r#"{"a": "${n}"}"#, true, 128),
        (r#"{"a": {"${n}": 1}}"#, true, 128),
        (r#"{"a": 1, "a": 2}"#, false, 128),
        (r#"{"k": {"e\u0301": 1, "\u00e9": 2}}"#, false, 128),
        (r#"{"a": 1e99999999999}"#, false, 128),
        (r#"[{"a": 1}]"#, false, 128),
        (r#"1"#, false, 128),
        (r#"{"a": 1,}"#, false, 128),
    ] {
        assert!(value(src, templates, &opts(depth)).is_none(), "{src}");
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

/// The conformance-json inputs changed a little (a character dropped,
/// one of JSON's or HCL's inserted, a piece repeated), a fixed
/// pseudo-random sequence: the routes agree on the errors and the
/// near-misses too, not only on valid files.
#[test]
fn direct_equals_visits_on_mutated_json() {
    const PIECES: &[&str] = &[
        "{",
        "}",
        "[",
        "]",
        ",",
        ":",
        "\"",
        "\\",
        "0",
        "-",
        "1e400",
        ".5",
        "${n}",
        "é",
        "e\u{301}",
        "\\u00e9",
        "\"//\"",
        "\"a\": 1, ",
        "null",
        " ",
    ];
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/conformance-json");
    let mut files = Vec::new();
    json_files_under(&dir, &mut files);
    files.retain(|f| f.to_string_lossy().ends_with(".hcl.json"));
    if files.is_empty() {
        hcl_test_support::not_run(format!(
            "direct_equals_visits_on_mutated_json: no inputs under {}",
            dir.display()
        ));
        return;
    }
    files.sort();
    let ctx = contexts().pop().expect("a context");
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n.max(1) as u64) as usize
    };
    for f in &files {
        let Ok(text) = std::fs::read_to_string(f) else {
            continue;
        };
        for _ in 0..12 {
            let chars: Vec<char> = text.chars().collect();
            let at = next(chars.len() + 1);
            let mut out: String = chars.iter().take(at).collect();
            match next(3) {
                0 => {}
                1 => out.push_str(PIECES.get(next(PIECES.len())).copied().unwrap_or("")),
                _ => {
                    let len = next(12);
                    out.extend(chars.iter().skip(at).take(len));
                }
            }
            let rest = if out.len() < text.len() && next(2) == 0 {
                at + 1
            } else {
                at
            };
            out.extend(chars.iter().skip(rest));
            check_json(&out, None, 128);
            check_json(&out, Some(&ctx), 4);
        }
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

/// The integers written with a fraction or an exponent that
/// `json::integral` reads are the values the general parser gives them
/// (`number_value` of `json::number`), and it reads every one of those
/// that is an `i64` other than a negative zero.
#[test]
fn integral_numbers_are_the_general_parsers() {
    use crate::body::json;
    let mut taken = 0;
    for mantissa in [
        "0",
        "1",
        "10",
        "1.0",
        "2.5",
        "0.001",
        "12.340",
        "9.223372036854775807",
        "9.223372036854775808",
        "18446744073709551615",
        "123456789012345678901234567890",
        "123456789012345678901234567890123456789",
        "340282366920938463463374607431768211455",
        "340282366920938463463374607431768211456",
        "170141183460469231731687303715884105728",
        "99999999999999999999999999999999",
        "1.000000000000000000000000000000000000000000000000000000000000",
    ] {
        for exp in [
            "", "e0", "e1", "E2", "e+3", "e-1", "e-3", "e18", "e19", "e-400", "e400", "e999",
        ] {
            for sign in ["", "-"] {
                let t = format!("{sign}{mantissa}{exp}");
                let general = json::number(&t).map(|n| super::number_value(&n));
                let fast = json::integral(&t);
                if let Some(int) = fast {
                    taken += 1;
                    let fast = crate::de::json_plain::int_value(int);
                    assert_eq!(general.as_ref().map(exact), Some(exact(&fast)), "{t}");
                    assert_eq!(
                        general.as_ref().map(|v| format!("{v:?}")),
                        Some(format!("{fast:?}")),
                        "{t}"
                    );
                } else if let Some(Value::Number(n)) = &general {
                    let int = n
                        .as_i128()
                        .filter(|_| n.is_integer() && !n.is_negative_zero());
                    assert!(int.is_none() || t.len() > 60, "{t} is {n:?}");
                }
            }
        }
    }
    assert!(taken > 50, "{taken}");
}
