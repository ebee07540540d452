//! Hostile input through every entry point: the grammar (`parse_body`,
//! `parse_expr`, `parse_template` and their byte forms), the evaluator
//! (with the standard functions) and the deserializer (`from_str`,
//! `from_slice` into `hcl::Value` and into a typed struct, `from_files`
//! with the input as the second file).
//!
//! Every input is built here. Each must give a value or an `Error` whose
//! line and column are set, without panicking, overflowing the stack (each
//! test runs on a 2 MiB stack, the default of a spawned thread) or running
//! away with memory. Expected values and error positions come from the
//! reference implementation (hcl 2.14.1, asked through
//! `shared/oracle/bin/hcl-oracle`), quoted beside each assertion.
//!
//! There are no timing assertions (speed is measured in
//! `benches/scaling.rs`), but the suite is kept to a few seconds of a debug
//! build: the inputs are as large as the issue asks (100,000 levels,
//! 10 MB lines, a million attributes), and the limits must stop the rest
//! before it costs anything.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use hcl::eval::{eval_body_str, eval_expr_str, eval_template_str, EvalOptions};
use hcl::{Context, Error, Value};
use hcl_grammar as grammar;
use serde::Deserialize;
use std::sync::OnceLock;

/// The nesting depth the issue asks for: far beyond every limit.
const DEEP: usize = 100_000;

/// `n`, or `n / 100` in a debug build unless `HCL_HOSTILE_FULL` is set.
///
/// The volume tests (10 MB lines, a million attributes) take seconds in a
/// release build (`cargo test --release --test hostile`) but minutes in a
/// debug build, where pest runs some 30 times slower: the debug run of
/// `cargo test --workspace` checks the same shapes at a hundredth of the
/// size, and `HCL_HOSTILE_FULL=1` runs the full sizes.
fn volume(n: usize) -> usize {
    if cfg!(debug_assertions) && std::env::var_os("HCL_HOSTILE_FULL").is_none() {
        n / 100
    } else {
        n
    }
}

/// A context with the standard functions and the default limits.
fn stdlib() -> &'static Context {
    static CTX: OnceLock<Context> = OnceLock::new();
    CTX.get_or_init(Context::with_stdlib)
}

/// Runs `f` on a thread with a 2 MiB stack: what a program's spawned
/// threads get by default, and so what the limits must protect.
fn on_small_stack<F: FnOnce() + Send + 'static>(f: F) {
    let handle = std::thread::Builder::new()
        .name("hostile".into())
        .stack_size(2 << 20)
        .spawn(f)
        .expect("spawn a test thread");
    if let Err(panic) = handle.join() {
        std::panic::resume_unwind(panic);
    }
}

/// A typed target: nested blocks, an enum, options. Hostile bodies use
/// the attribute `a` and the block type `b`.
#[derive(Deserialize, Debug)]
#[allow(dead_code)]
struct Typed {
    a: Option<Value>,
    #[serde(default)]
    b: Vec<Nested>,
    mode: Option<Mode>,
}

#[derive(Deserialize, Debug)]
#[allow(dead_code)]
struct Nested {
    a: Option<Value>,
    #[serde(default)]
    b: Vec<Nested>,
}

#[derive(Deserialize, Debug)]
#[serde(rename_all = "lowercase")]
#[allow(dead_code)]
enum Mode {
    Fast,
    Tcp { port: u16 },
}

/// `e` says where: a line and a column, within the input.
fn assert_located(e: &Error, src: &[u8], what: &str) {
    let (line, column) = match (e.line(), e.column()) {
        (Some(l), Some(c)) => (l, c),
        _ => panic!("{what}: error without a position: {e}"),
    };
    let lines = src.iter().filter(|&&b| b == b'\n').count() + 1;
    assert!(
        line >= 1 && column >= 1 && line <= lines,
        "{what}: position {line}:{column} outside the input ({lines} lines): {e}"
    );
}

fn assert_grammar_located(e: &grammar::Error, src: &[u8], what: &str) {
    let lines = src.iter().filter(|&&b| b == b'\n').count() + 1;
    assert!(
        e.line() >= 1 && e.column() >= 1 && e.line() <= lines,
        "{what}: position {}:{} outside the input ({lines} lines): {e}",
        e.line(),
        e.column()
    );
}

fn short(src: &[u8]) -> String {
    let s = String::from_utf8_lossy(src.get(..60).unwrap_or(src));
    format!("{s:?} ({} bytes)", src.len())
}

/// Runs a config file through every body entry point. Returns the
/// evaluated body (with the standard functions); every error is checked
/// for a position, and a syntax error must be one for every entry point.
fn body(src: &str) -> Result<Value, Error> {
    body_bytes(src.as_bytes())
}

fn body_bytes(src: &[u8]) -> Result<Value, Error> {
    let what = short(src);
    let parsed = grammar::parse_body(src, &Default::default()).map(drop);
    if let Err(e) = &parsed {
        assert_grammar_located(e, src, &what);
    }
    let mut results: Vec<(&str, Result<(), Error>)> = vec![(
        "from_slice::<Value>",
        hcl::from_slice::<Value>(src).map(drop),
    )];
    let evaluated = match std::str::from_utf8(src) {
        Ok(text) => {
            results.push((
                "from_str_with::<Typed>",
                hcl::from_str_with::<Typed>(text, stdlib()).map(drop),
            ));
            // The second of several files: its errors name it.
            let mut files = hcl::schema::Sources::new();
            files.add("a.hcl", "").add("b.hcl", text);
            let merged = hcl::from_files_with::<Typed>(&files, stdlib()).map(drop);
            if let Err(e) = &merged {
                assert_eq!(e.file(), Some("b.hcl"), "from_files_with of {what}: {e}");
            }
            results.push(("from_files_with::<Typed>", merged));
            eval_body_str(text, stdlib())
        }
        // Invalid UTF-8 (accepted in comments only): the byte entry point.
        Err(_) => hcl::from_slice_with::<Value>(src, stdlib()),
    };
    results.push(("evaluation", evaluated.clone().map(drop)));
    for (entry, r) in &results {
        if let Err(e) = r {
            assert_located(e, src, &format!("{entry} of {what}"));
            if parsed.is_err() {
                assert!(e.is_syntax(), "{entry} of {what}: not a syntax error: {e}");
            }
        } else {
            assert!(parsed.is_ok(), "{entry} of {what}: accepted a syntax error");
        }
    }
    evaluated
}

/// Runs an expression through `parse_expr`, `eval_expr_str` and, as the
/// attribute `a`, through every body entry point. Returns the value of
/// `eval_expr_str` (with the standard functions).
fn expr(src: &str) -> Result<Value, Error> {
    let what = short(src.as_bytes());
    let parsed = grammar::parse_expr(src, &Default::default()).map(drop);
    if let Err(e) = &parsed {
        assert_grammar_located(e, src.as_bytes(), &what);
    }
    let value = eval_expr_str(src, stdlib());
    match &value {
        Err(e) => {
            assert_located(e, src.as_bytes(), &what);
            assert_eq!(parsed.is_err(), e.is_syntax(), "{what}: {e}");
        }
        Ok(_) => assert!(parsed.is_ok()),
    }
    // The same expression as an attribute (newlines inside it may then
    // end it early: only single-line expressions are compared).
    let attr = format!("a = {src}\n");
    let as_attr = body(&attr);
    if !src.contains('\n') {
        if let (Ok(v), Ok(Value::Object(o))) = (&value, &as_attr) {
            assert_eq!(
                o.get("a"),
                Some(v),
                "{what}: attribute and expression differ"
            );
        }
    }
    value
}

/// Runs a template through `parse_template` and `eval_template_str`.
fn template(src: &str) -> Result<Value, Error> {
    let what = short(src.as_bytes());
    let parsed = grammar::parse_template(src, &Default::default()).map(drop);
    if let Err(e) = &parsed {
        assert_grammar_located(e, src.as_bytes(), &what);
    }
    let value = eval_template_str(src, stdlib());
    if let Err(e) = &value {
        assert_located(e, src.as_bytes(), &what);
        assert_eq!(parsed.is_err(), e.is_syntax(), "{what}: {e}");
    }
    value
}

/// `r` is an error whose message contains `words`.
#[track_caller]
fn assert_err_contains(r: Result<Value, Error>, words: &str) -> Error {
    match r {
        Ok(v) => panic!("expected an error about {words:?}, got {}", short_value(&v)),
        Err(e) => {
            assert!(
                e.message().contains(words),
                "expected an error about {words:?}, got: {e}"
            );
            e
        }
    }
}

fn short_value(v: &Value) -> String {
    let s = v.to_string();
    s.chars().take(100).collect()
}

fn nested(open: &str, inner: &str, close: &str, n: usize) -> String {
    let mut s = String::with_capacity((open.len() + close.len()) * n + inner.len());
    for _ in 0..n {
        s.push_str(open);
    }
    s.push_str(inner);
    for _ in 0..n {
        s.push_str(close);
    }
    s
}

// ---------------------------------------------------------------------
// Deep nesting

/// Expression shapes nested `DEEP` times: each is a syntax error ("nesting
/// too deep") at a position, through every entry point.
#[test]
fn deep_expressions() {
    on_small_stack(|| {
        let shapes: &[(&str, &str, &str)] = &[
            ("(", "1", ")"),
            ("[", "1", "]"),
            ("{a=", "1", "}"),
            ("{", "1=1", "}"),
            ("f(", "1", ")"),
            ("x[", "0", "]"),
            ("\"${", "1", "}\""),
            ("\"%{if true}", "x", "%{endif}\""),
            ("[for x in ", "[1]", ": x]"),
            ("{for k, v in ", "{}", ": k => v}"),
            ("true ? ", "1", " : 2"),
        ];
        for (open, inner, close) in shapes {
            let src = nested(open, inner, close, DEEP);
            let e = assert_err_contains(expr(&src), "nesting too deep");
            assert!(e.is_syntax());
            // Unterminated too: only the openings.
            let src = nested(open, inner, "", DEEP);
            assert!(expr(&src).unwrap_err().is_syntax(), "{open}");
        }
        // Operator and traversal chains are nesting in the tree too. pest
        // reads them flat, so they cost a full parse: 10,000 is enough to
        // be far past the limit.
        for (open, inner, close) in [
            ("-", "1", ""),
            ("!", "true", ""),
            ("1 + ", "1", ""),
            ("", "x", ".a"),
            ("", "x", "[0]"),
            ("", "x", "[*]"),
            ("", "x", ".*.a"),
        ] {
            let src = nested(open, inner, close, 10_000);
            assert_err_contains(expr(&src), "nesting too deep");
        }
    });
}

#[test]
fn deep_heredocs() {
    on_small_stack(|| {
        let src = nested("<<EOT\n${", "1", "}\nEOT\n", DEEP);
        let e = assert_err_contains(expr(&src), "nesting too deep");
        assert!(e.is_syntax());
        let src = format!("a = {}", nested("<<-EOT\n  ${", "1", "}\n  EOT\n", DEEP));
        assert_err_contains(body(&src), "nesting too deep");
        // Unterminated: heredocs opened and never closed.
        let src = format!("a = {}", "<<EOT\n${".repeat(DEEP));
        assert!(body(&src).unwrap_err().is_syntax());
    });
}

#[test]
fn deep_blocks() {
    on_small_stack(|| {
        let src = nested("b {\n", "a = 1\n", "}\n", DEEP);
        assert_err_contains(body(&src), "nesting too deep");
        let src = nested("b \"l\" {\n", "", "}\n", DEEP);
        assert_err_contains(body(&src), "nesting too deep");
        // One-line blocks cannot hold blocks: still a syntax error.
        let src = nested("b { ", "", " }", DEEP);
        assert!(body(&src).unwrap_err().is_syntax());
        // Unterminated.
        assert!(body(&"b {\n".repeat(DEEP)).unwrap_err().is_syntax());
    });
}

#[test]
fn deep_templates() {
    on_small_stack(|| {
        for (open, inner, close) in [
            ("${", "1", "}"),
            ("%{ if true }", "x", "%{ endif }"),
            ("%{ for x in [1] }", "x", "%{ endfor }"),
            ("${\"", "x", "\"}"),
        ] {
            let src = nested(open, inner, close, DEEP);
            assert_err_contains(template(&src), "nesting too deep");
            assert!(template(&nested(open, inner, "", DEEP))
                .unwrap_err()
                .is_syntax());
        }
    });
}

/// At the grammar's limit, nesting parses, evaluates and deserializes
/// (or fails at the deserializer's own depth limit), and the deep value
/// goes through the functions that walk values.
#[test]
fn nesting_at_the_limit() {
    on_small_stack(|| {
        let max = grammar::ParseOptions::DEFAULT_MAX_DEPTH;
        for (open, inner, close) in [("[", "1", "]"), ("{a=", "1", "}"), ("(", "1", ")")] {
            let src = nested(open, inner, close, max);
            expr(&src).unwrap();
            let src = nested(open, inner, close, max - 4);
            for f in [
                "jsonencode",
                "flatten",
                "tostring",
                "length",
                "keys",
                "tolist",
            ] {
                let _ = expr(&format!("{f}({src})"));
            }
        }
        // Blocks at the limit into the recursive typed struct.
        let src = nested("b {\n", "a = 1\n", "}\n", max - 1);
        let typed: Result<Typed, Error> = hcl::from_str(&src);
        if let Err(e) = typed {
            assert_located(&e, src.as_bytes(), "deep blocks into Typed");
        }
        body(&src).unwrap();
    });
}

/// The limits are configurable: smaller ones stop earlier.
#[test]
fn limits_are_configurable() {
    on_small_stack(|| {
        let options = grammar::ParseOptions::default().with_max_depth(8);
        assert!(grammar::parse_expr(&nested("[", "1", "]", 8), &options).is_ok());
        let e = grammar::parse_expr(&nested("[", "1", "]", 9), &options).unwrap_err();
        assert_eq!((e.line(), e.column()), (1, 9));

        let ctx = Context::with_stdlib().with_options(
            EvalOptions::default()
                .with_max_collection_len(10)
                .with_max_string_len(10)
                .with_max_iterations(100)
                .with_max_depth(100),
        );
        assert!(eval_expr_str("range(10)", &ctx).is_ok());
        assert!(eval_expr_str("range(11)", &ctx).is_err());
        assert!(eval_expr_str("\"0123456789\"", &ctx).is_ok());
        assert!(eval_expr_str("\"${\"01234\"}${\"56789x\"}\"", &ctx).is_err());
        assert!(eval_expr_str("[for i in range(10): [for j in range(9): 1]]", &ctx).is_ok());
        let e = eval_expr_str("[for i in range(10): [for j in range(10): 1]]", &ctx).unwrap_err();
        assert!(e.line().is_some());

        let de = hcl::Deserializer::from_str("a = [[[1]]]\n").with_max_depth(3);
        assert!(Value::deserialize(de).is_err());
        let de = hcl::Deserializer::from_str("a = [[[1]]]\n").with_max_depth(5);
        assert!(Value::deserialize(de).is_ok());
    });
}

// ---------------------------------------------------------------------
// Unterminated everything

#[test]
fn unterminated_everything() {
    on_small_stack(|| {
        let bodies = [
            "a = \"abc",
            "a = \"abc\n",
            "a = \"${",
            "a = \"${1",
            "a = \"${1}",
            "a = \"%{",
            "a = \"%{ if true }",
            "a = \"%{ if true }x%{ else }",
            "a = \"%{ for x in [1] }",
            "a = [1, 2",
            "a = [1, 2,",
            "a = {b = 1",
            "a = {b = 1,",
            "a = {b =",
            "a = (1",
            "a = f(1,",
            "a = f(1",
            "a = f(",
            "a = x[",
            "a = x[0",
            "a = x.",
            "a = [for x in y",
            "a = [for x in y:",
            "a = [for x in y: x",
            "a = {for k, v in y: k =>",
            "a = <<EOT\nabc",
            "a = <<EOT\nabc\nEO",
            "a = <<-EOT\n  abc\n  ${",
            "a = <<",
            "a = <<EOT",
            "a = true ?",
            "a = true ? 1",
            "a = true ? 1 :",
            "a = 1 +",
            "a = -",
            "a = !",
            "a = ",
            "a =",
            "a",
            "b {",
            "b {\n",
            "b \"l",
            "b \"l\" {\n  a = 1\n",
            "b { a = 1",
            "/* comment",
            "a = 1 /* comment",
            "a = \"\\",
            "a = \"\\u12",
            "a = \"\\U0010",
            "a = 1e",
            "a = 1.",
            "a = 1e+",
            "a = \"$${",
            "a = \"%%{",
        ];
        for src in bodies {
            let e = body(src).expect_err(src);
            assert!(e.is_syntax(), "{src:?}: {e}");
        }
        let exprs = [
            "", "(", "[", "{", "\"", "<<EOT\n", "f(", "x[", "1 ?", "[for",
        ];
        for src in exprs {
            assert!(expr(src).unwrap_err().is_syntax(), "{src:?}");
        }
        let templates = [
            "${",
            "${1",
            "%{",
            "%{ if true }",
            "%{ if true }x%{ else }y",
            "%{ for x in [1] }x",
            "%{ endif }",
            "%{ endfor }",
            "%{ else }",
            "${\"",
        ];
        for src in templates {
            assert!(template(src).unwrap_err().is_syntax(), "{src:?}");
        }
    });
}

// ---------------------------------------------------------------------
// Bytes: NUL, invalid UTF-8, surrogates, BOM

#[test]
fn nul_bytes() {
    on_small_stack(|| {
        // Reference: `a = "x\0y"` is {"a": "x\u0000y"}.
        let v = body("a = \"x\0y\"\n").unwrap();
        assert_eq!(v.get("a"), Some(&Value::from("x\0y")));
        // Reference: a NUL in a heredoc is kept.
        let v = body("a = <<EOT\nx\0y\nEOT\n").unwrap();
        assert_eq!(v.get("a"), Some(&Value::from("x\0y\n")));
        // Reference: `"\u0000"` is a NUL.
        let v = body("a = \"\\u0000\"\n").unwrap();
        assert_eq!(v.get("a"), Some(&Value::from("\0")));
        // Reference: a NUL in a comment is ignored.
        let v = body("# c \0\na = 1\n").unwrap();
        assert_eq!(v.get("a"), Some(&Value::from(1)));
        // Reference: "Invalid character" at 1:2 (`a\0 = 1`) and 1:1 (`\0`).
        let e = body("a\0 = 1\n").unwrap_err();
        assert_eq!((e.line(), e.column()), (Some(1), Some(2)));
        let e = body("\0").unwrap_err();
        assert_eq!((e.line(), e.column()), (Some(1), Some(1)));
        // Many NULs.
        assert!(body(&"\0".repeat(1 << 16)).is_err());
        assert!(expr(&"\0".repeat(1 << 16)).is_err());
        let v = template(&"\0".repeat(1 << 16)).unwrap();
        assert_eq!(v.as_str().map(str::len), Some(1 << 16));
    });
}

#[test]
fn invalid_utf8() {
    on_small_stack(|| {
        // Reference: "Invalid character encoding" at 1:7.
        let e = body_bytes(b"a = \"x\xffy\"\n").unwrap_err();
        assert!(e.is_syntax());
        assert_eq!((e.line(), e.column()), (Some(1), Some(7)));
        // Reference: accepted inside a comment.
        let v = body_bytes(b"# \xff\na = 1\n").unwrap();
        assert_eq!(v.get("a"), Some(&Value::from(1)));
        let v = body_bytes(b"/* \xc0\xc1 \xed\xa0\x80 */ a = 1\n").unwrap();
        assert_eq!(v.get("a"), Some(&Value::from(1)));
        // Everywhere else: an error with a position.
        for src in [
            &b"\xff"[..],
            b"a\xff = 1\n",
            b"a = 1\n\xfe\xff",
            b"a = <<EOT\n\xff\nEOT\n",
            b"a = \"\xed\xa0\x80\"\n",     // an encoded surrogate
            b"a = \"\xf4\x90\x80\x80\"\n", // beyond U+10FFFF
            b"a = \"\xc0\x80\"\n",         // overlong NUL
            b"a = \"\xe2\x82\"\n",         // truncated sequence
        ] {
            assert!(body_bytes(src).unwrap_err().is_syntax(), "{}", short(src));
            assert!(grammar::parse_expr(src, &Default::default()).is_err());
            assert!(grammar::parse_template(src, &Default::default())
                .map(|_| ())
                .or_else(|e| {
                    assert_grammar_located(&e, src, "template bytes");
                    Ok::<(), ()>(())
                })
                .is_ok());
        }
        // A megabyte of invalid bytes, in a comment and outside.
        let mut src = b"# ".to_vec();
        src.extend_from_slice(&[0xffu8; 1 << 16]);
        src.extend_from_slice(b"\na = 1\n");
        assert_eq!(body_bytes(&src).unwrap().get("a"), Some(&Value::from(1)));
        let src = vec![0xffu8; 1 << 16];
        assert!(body_bytes(&src).is_err());
    });
}

#[test]
fn surrogate_and_out_of_range_escapes() {
    on_small_stack(|| {
        // Reference: "Invalid escape sequence" at 1:6 for each.
        for src in [
            "a = \"\\uD800\"\n",
            "a = \"\\uDFFF\"\n",
            "a = \"\\uDC00\\uD800\"\n",
            "a = \"\\U0000D800\"\n",
            "a = \"\\U00110000\"\n",
            "a = \"\\UFFFFFFFF\"\n",
        ] {
            let e = body(src).unwrap_err();
            assert!(e.is_syntax(), "{src:?}: {e}");
            assert_eq!((e.line(), e.column()), (Some(1), Some(6)), "{src:?}: {e}");
        }
        // In a template and a heredoc too.
        assert!(template("x${\"\\uD800\"}").is_err());
        assert!(body("a = <<EOT\n${\"\\uD800\"}\nEOT\n").is_err());
        // The highest scalar value is fine.
        let v = body("a = \"\\U0010FFFF\"\n").unwrap();
        assert_eq!(v.get("a"), Some(&Value::from("\u{10FFFF}")));
    });
}

#[test]
fn byte_order_marks() {
    on_small_stack(|| {
        // Reference: a leading BOM is skipped; a BOM alone is an empty body.
        let v = body("\u{FEFF}a = 1\n").unwrap();
        assert_eq!(v.get("a"), Some(&Value::from(1)));
        assert_eq!(body("\u{FEFF}").unwrap(), Value::Object(hcl::Map::new()));
        // Reference: a BOM elsewhere is "Invalid character" at 2:1.
        let e = body("a = 1\n\u{FEFF}b = 2\n").unwrap_err();
        assert_eq!((e.line(), e.column()), (Some(2), Some(1)));
        // Two BOMs: the second is an invalid character.
        assert!(body("\u{FEFF}\u{FEFF}a = 1\n").is_err());
        // In a string, a BOM is a character.
        let v = body("a = \"\u{FEFF}\"\n").unwrap();
        assert_eq!(v.get("a"), Some(&Value::from("\u{FEFF}")));
    });
}

// ---------------------------------------------------------------------
// Numbers

#[test]
fn huge_numbers() {
    on_small_stack(|| {
        // The reference reads 1e1000000 as an exact (big.Float) number; we
        // may give a value or an error, with a position.
        for src in [
            "1e1000000",
            "1e-1000000",
            "1e1000000 - 1e1000000",
            "-1e1000000",
            "1e99999999999999999999999",
            "1e-99999999999999999999999",
            "0e99999999999999999999999",
        ] {
            let _ = expr(src);
        }
        let digits = format!("1{}", "0".repeat(100_000));
        let _ = expr(&digits);
        let _ = expr(&format!("{digits} + 1"));
        let _ = expr(&format!("0.{}1", "0".repeat(100_000)));
        let _ = expr(&format!("{digits}.{digits}e-{digits}"));
        let _ = expr(&"9".repeat(100_000));
        // A huge number where a small one is needed.
        let _ = expr(&format!("range({digits})"));
        let _ = expr(&format!("[1][{digits}]"));
        let _ = expr(&format!("substr(\"abc\", {digits}, 1)"));
        let _ = expr(&format!("format(\"%{digits}d\", 1)"));
        let _ = expr("pow(10, 1000000)");
        let _ = expr("pow(2, 1e100)");
        let _ = expr("pow(0.5, 1e100)");
        let _ = expr("parseint(\"zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz\", 36)");
        let _ = expr(&format!("parseint(\"{}\", 2)", "1".repeat(100_000)));
        let _ = expr(&format!("tostring({digits})"));
        let _ = expr(&format!("floor({digits}.5)"));
        let _ = expr(&format!("log({digits}, 10)"));
        // Into typed numbers: an out-of-range error with a position.
        #[derive(Deserialize)]
        #[allow(dead_code)]
        struct N {
            a: i64,
        }
        let src = format!("a = {digits}\n");
        let e = hcl::from_str::<N>(&src)
            .err()
            .expect("out of range for i64");
        assert_located(&e, src.as_bytes(), "100,000 digits into i64");
    });
}

#[test]
fn division_by_zero_and_overflow() {
    on_small_stack(|| {
        // Reference: `5 % 0` is 5.
        assert_eq!(expr("5 % 0").unwrap(), Value::from(5));
        // Reference: `1 / 0` is +Inf (`"${1 / 0}"` is "+Inf"), with the
        // sign of both operands; `0 / 0` fails ("can't divide zero by
        // zero"), with a position.
        for (src, want) in [
            ("1 / 0", "+Inf"),
            ("-1 / 0", "-Inf"),
            ("1 / -0", "-Inf"),
            ("1e400 / 0", "+Inf"),
            ("5 % 0.0 / 0", "+Inf"),
        ] {
            assert_eq!(expr(src).unwrap().to_string(), want, "{src}");
        }
        let e = expr("0 / 0").unwrap_err();
        assert!(e.is_eval() && e.line() == Some(1), "{e}");
        // Reference: exact results past every fixed width.
        let exact = [
            ("9223372036854775807 + 1", "9223372036854775808"),
            ("-9223372036854775808 - 1", "-9223372036854775809"),
            ("-(-9223372036854775808)", "9223372036854775808"),
            ("18446744073709551615 + 1", "18446744073709551616"),
            ("9223372036854775807 * 2", "18446744073709551614"),
            ("-9223372036854775808 / -1", "9223372036854775808"),
            ("-9223372036854775808 % -1", "0"),
        ];
        for (src, want) in exact {
            assert_eq!(expr(src).unwrap().to_string(), want, "{src}");
        }
        // Beyond 96 bits (Decimal) and beyond f64: a value or an error.
        let max_dec = "79228162514264337593543950335";
        for op in ["+", "-", "*", "/", "%"] {
            for (a, b) in [
                (max_dec, max_dec),
                (max_dec, "-1"),
                (&format!("-{max_dec}")[..], max_dec),
                ("1e308", "1e308"),
                ("-1e308", "1e308"),
                ("1e-300", "1e300"),
                ("1e300", "1e-300"),
                ("170141183460469231731687303715884105727", "2"),
                (
                    "340282366920938463463374607431768211455",
                    "340282366920938463463374607431768211455",
                ),
            ] {
                let _ = expr(&format!("{a} {op} {b}"));
                let _ = expr(&format!("{a} {op} {b} {op} {b} {op} {b}"));
            }
        }
        for op in ["==", "!=", "<", ">", "<=", ">="] {
            let _ = expr(&format!("1e308 * 10 {op} 1e308"));
        }
        let _ = expr("-(1e308 * 10)");
        let _ = expr("max(1e308 * 10, 1)");
        let _ = expr("sum([1e308, 1e308, 1e308])");
        let _ = expr("abs(-9223372036854775808)");
        let _ = expr("ceil(1e308 * 10)");
        let _ = expr("signum(-1e308 * 10)");
        // Reference: 79228162514264337593543950335² exactly.
        let v = expr(&format!("{max_dec} * {max_dec}")).unwrap();
        assert!(v.as_number().is_some());
    });
}

// ---------------------------------------------------------------------
// Size

/// 10 MB, past the default input limit (8 MiB): an error with a position
/// from every entry point, before any parsing.
#[test]
fn ten_megabytes_are_past_the_input_limit() {
    on_small_stack(|| {
        let n = 10 << 20;
        let src = format!("a = \"{}\"\n", "x".repeat(n));
        let e = body(&src).unwrap_err();
        assert!(e.is_syntax(), "{e}");
        assert!(e.message().contains("input too large"), "{e}");
        assert_eq!(e.line(), Some(1));
        let e = expr(&format!("\"{}\"", "x".repeat(n))).unwrap_err();
        assert!(e.message().contains("input too large"), "{e}");
        let e = template(&"x".repeat(n)).unwrap_err();
        assert!(e.message().contains("input too large"), "{e}");
    });
}

/// Lines just under the default input limit (8 MiB): a string, a comment,
/// an identifier, a list, a template, an operator chain.
#[test]
fn eight_megabyte_lines() {
    on_small_stack(|| {
        let n = volume(grammar::ParseOptions::DEFAULT_MAX_INPUT_LEN - 64);
        let x = "x".repeat(n);
        let v = body(&format!("a = \"{x}\"\n")).unwrap();
        assert_eq!(v.get("a").and_then(Value::as_str).map(str::len), Some(n));
        let v = body(&format!("# {x}\na = 1\n")).unwrap();
        assert_eq!(v.get("a"), Some(&Value::from(1)));
        let v = body(&format!("{x} = 1\n")).unwrap();
        assert_eq!(v.get(&x[..]), Some(&Value::from(1)));
        // An unknown 10 MB variable and function: "did you mean" must not
        // be quadratic.
        assert!(body(&format!("a = {x}\n")).unwrap_err().is_eval());
        assert!(body(&format!("a = {x}(1)\n")).unwrap_err().is_eval());
        // (Two names of half the size: the input holds both.)
        let half = x.get(..n / 2 - 16).unwrap_or_default();
        let y = format!("{}y", &half[1..]);
        let e = expr(&format!("{{{half} = 1}}.{y}")).unwrap_err();
        assert!(
            e.message().contains("did you mean"),
            "{}",
            short_value(&Value::from(e.message()))
        );
        // Escapes: every one decoded.
        let v = body(&format!("a = \"{}\"\n", "\\n".repeat(n / 2))).unwrap();
        assert_eq!(
            v.get("a").and_then(Value::as_str).map(str::len),
            Some(n / 2)
        );
        // A list of 5 million numbers: beyond the collection limit.
        let list = format!("a = [{}1]\n", "1,".repeat(n / 2));
        let _ = body(&list);
        // `1+1+...`: the operator chain is nesting, past the limit.
        assert_err_contains(body(&format!("a = {}1\n", "1+".repeat(n / 2))), "nesting");
        // A string with 1 million interpolations: past the string limit?
        let t = format!(
            "a = \"{}\"\n",
            "${\"abcdefghijklmnopqrstuvwxyz\"}".repeat(n / 32)
        );
        let _ = body(&t);
        let _ = template(&x);
        let _ = expr(&format!("\"{x}\""));
    });
}

#[test]
fn a_million_attributes() {
    on_small_stack(|| {
        // Four-letter names and one-digit values, so that a million
        // attributes (7 MB) fit the default input limit (8 MiB).
        let name = |i: usize| -> String {
            let letters = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
            (0..4)
                .map(|k| char::from(letters[(i / 52usize.pow(k)) % 52]))
                .collect()
        };
        let mut src = String::with_capacity(8 << 20);
        let n = volume(1_000_000);
        for i in 0..n {
            src.push_str(&format!("{}={}\n", name(i), i % 10));
        }
        let v = body(&src).unwrap();
        let o = v.as_object().unwrap();
        assert_eq!(o.len(), n);
        assert_eq!(o.get(&name(n - 1)[..]), Some(&Value::from((n - 1) % 10)));
        // A duplicate at the end: reference "Attribute redefined".
        src.push_str(&format!("{} = 1\n", name(0)));
        let e = body(&src).unwrap_err();
        assert_eq!(e.line(), Some(n + 1));
        // A million blocks.
        let blocks = "b{a=1}\n".repeat(n);
        let v = body(&blocks).unwrap();
        assert_eq!(v.get("b").and_then(Value::as_array).map(Vec::len), Some(n));
    });
}

// ---------------------------------------------------------------------
// Runaway evaluation

/// A context with the standard functions and small limits: the shapes
/// below stop at the first limit they reach, after work proportional to
/// it, so small limits keep the debug run short. The default limits stop
/// them at the same point, after more work (seconds in a debug build).
fn small() -> &'static Context {
    static CTX: OnceLock<Context> = OnceLock::new();
    CTX.get_or_init(|| {
        Context::with_stdlib().with_options(
            EvalOptions::default()
                .with_max_collection_len(10_000)
                .with_max_string_len(100_000)
                .with_max_iterations(100_000),
        )
    })
}

/// `src` fails in `ctx` with an evaluation error at a position.
#[track_caller]
fn eval_fails(ctx: &Context, src: &str) -> Error {
    let e = match eval_expr_str(src, ctx) {
        Ok(v) => panic!("{src}: expected an error, got {}", short_value(&v)),
        Err(e) => e,
    };
    assert!(e.is_eval(), "{src}: {e}");
    assert_located(&e, src.as_bytes(), src);
    e
}

#[test]
fn huge_ranges_and_for_expressions() {
    on_small_stack(|| {
        // With the default limits: `range` refuses more than 1024 values
        // (as the reference), before building anything.
        for src in [
            "[for i in range(1e9): i]",
            "{for i in range(1e9): i => i}",
            "range(1e9)",
            "range(0, 1e18, 1)",
            "range(-1e9)",
            "length(range(1e9))",
            "setproduct(range(1000), range(1000), range(1000))",
        ] {
            assert!(expr(src).unwrap_err().is_eval(), "{src}");
        }
        let templates = [
            "%{ for i in range(1e9) }x%{ endfor }",
            "%{ for i in range(1000) }%{ for j in range(1000) }%{ for k in range(1000) }x%{ endfor }%{ endfor }%{ endfor }",
            "%{ for i in range(1000) }%{ for j in range(1000) }${i}${j}%{ endfor }%{ endfor }",
        ];
        assert!(template(templates[0]).unwrap_err().is_eval());
        // Nested loops multiply: each limit stops them.
        for src in [
            "[for i in range(1000): [for j in range(1000): [for k in range(1000): 1]]]",
            "[for i in range(1000): [for j in range(1000): 1]]",
            "{for i in range(1000): i => [for j in range(1000): j]}",
            "[for i in range(1000): i if length([for j in range(1000): j]) < 0]",
            "flatten([for i in range(1000): range(1000)])",
            "length(setproduct(range(1000), range(1000)))",
            "concat(range(1000), range(1000), range(1000), range(1000), range(1000), range(1000), range(1000), range(1000), range(1000), range(1000), range(1000))",
            "zipmap([for i in range(1000): [for j in range(1000): j]], range(1000))",
        ] {
            eval_fails(small(), src);
        }
        for src in &templates[1..] {
            let e = eval_template_str(src, small()).unwrap_err();
            assert!(e.is_eval() && e.line().is_some(), "{src}: {e}");
        }
    });
}

#[test]
fn string_functions_asked_for_gigabytes() {
    on_small_stack(|| {
        // With the default limits (16 MiB strings): refused before the
        // result is built.
        for src in [
            r#"format("%1000000000d", 1)"#,
            r#"format("%-1000000000s", "x")"#,
            r#"format("%.1000000000f", 1)"#,
            r#"format("%.1000000000e", 1)"#,
            r#"formatlist("%100000000s", range(100))"#,
            r#"indent(1000000000, "a\nb")"#,
            r#"replace(format("%1000000s", ""), " ", format("%100s", ""))"#,
            r#""${format("%10000000s", "")}${format("%10000000s", "")}""#,
        ] {
            assert!(expr(src).unwrap_err().is_eval(), "{src}");
        }
        // Results that grow with their input: the string limit.
        for src in [
            r#"join(",", flatten([for i in range(1000): range(1000)]))"#,
            r#"join("", [for i in range(1000): format("%1000s", "")])"#,
            r#"indent(1000, join("\n", range(1000)))"#,
            r#"strrev(format("%200000s", ""))"#,
            r#"title(format("%200000s", ""))"#,
            r#"upper(format("%200000s", ""))"#,
            r#"jsonencode([for i in range(1000): format("%1000s", "")])"#,
            r#"base64encode(format("%200000s", ""))"#,
            r#"join("", [for i in range(1000): join("", [for j in range(1000): "xx"])])"#,
            r#"chunklist(flatten([for i in range(1000): range(1000)]), 1)"#,
            r#"formatlist("%1000s", range(1000))"#,
        ] {
            eval_fails(small(), src);
        }
    });
}
