//! Hostile input: deep nesting is an error, not a stack overflow, and
//! pathological inputs are rejected within the parser's work budget. Each
//! test runs in a thread with the default 2 MiB stack, so that a debug
//! build is checked as run.
//!
//! Nothing here is timed. That parsing work is linear in the input is
//! checked by counting pest's calls in `tests/linear.rs` (the library sets
//! no call limit of its own); here, pathological inputs must end in an
//! ordinary syntax error with a position. Speed is measured by
//! `cargo bench --bench scaling`.

#![allow(clippy::expect_used, clippy::unwrap_used)]

use hcl_grammar::{parse_body, parse_expr, parse_template, ParseOptions};

const DEEP: usize = 100_000;
const DEPTH: usize = ParseOptions::DEFAULT_MAX_DEPTH;

/// Runs `f` in a thread with a 2 MiB stack (the default of spawned threads).
fn on_small_stack<F: FnOnce() + Send + 'static>(f: F) {
    let handle = std::thread::Builder::new()
        .stack_size(2 * 1024 * 1024)
        .spawn(f)
        .expect("spawn a test thread");
    assert!(handle.join().is_ok(), "the parser panicked or overflowed");
}

fn assert_too_deep(result: Result<(), hcl_grammar::Error>) {
    let err = result.expect_err("deep nesting must be an error");
    assert!(
        err.message().contains("nesting too deep"),
        "unexpected message: {}",
        err.message()
    );
    assert!(err.line() >= 1 && err.column() >= 1);
}

/// An ordinary syntax error with a position (not "input too complex",
/// which only a call limit set elsewhere in the process could cause).
fn assert_syntax_error_within_budget(result: Result<(), hcl_grammar::Error>, what: &str) {
    let err = result.expect_err(what);
    assert!(
        !err.message().contains("too complex"),
        "{what}: the parser exhausted its call budget: {}",
        err.message()
    );
    assert!(err.line() >= 1 && err.column() >= 1, "{what}: {err}");
}

fn expr_nested(open: &str, inner: &str, close: &str, n: usize) -> String {
    format!("{}{}{}", open.repeat(n), inner, close.repeat(n))
}

#[test]
fn deep_parentheses_are_an_error() {
    on_small_stack(|| {
        let src = expr_nested("(", "1", ")", DEEP);
        assert_too_deep(parse_expr(&src, &Default::default()).map(|_| ()));
    });
}

#[test]
fn deep_brackets_are_an_error() {
    on_small_stack(|| {
        let src = expr_nested("[", "1", "]", DEEP);
        assert_too_deep(parse_expr(&src, &Default::default()).map(|_| ()));
    });
}

#[test]
fn deep_braces_are_an_error() {
    on_small_stack(|| {
        let src = format!("a = {}", expr_nested("{a=", "1", "}", DEEP));
        assert_too_deep(parse_body(&src, &Default::default()).map(|_| ()));
    });
}

#[test]
fn deep_interpolations_are_an_error() {
    on_small_stack(|| {
        let src = expr_nested("\"${", "1", "}\"", DEEP);
        assert_too_deep(parse_expr(&src, &Default::default()).map(|_| ()));
    });
}

#[test]
fn deep_template_sequences_are_an_error() {
    on_small_stack(|| {
        let src = expr_nested("${", "1", "}", DEEP);
        assert_too_deep(parse_template(&src, &Default::default()).map(|_| ()));
    });
}

#[test]
fn deep_blocks_are_an_error() {
    on_small_stack(|| {
        let src = expr_nested("a {\n", "", "}\n", DEEP);
        assert_too_deep(parse_body(&src, &Default::default()).map(|_| ()));
    });
}

#[test]
fn deep_heredocs_are_an_error() {
    on_small_stack(|| {
        let src = expr_nested("<<EOT\n${", "1", "}\nEOT\n", DEEP);
        assert_too_deep(parse_expr(&src, &Default::default()).map(|_| ()));
    });
}

#[test]
fn long_conditional_chains_are_an_error() {
    on_small_stack(|| {
        let src = format!("{}0", "a ? b : ".repeat(DEEP));
        assert_too_deep(parse_expr(&src, &Default::default()).map(|_| ()));
    });
}

#[test]
fn long_operator_chains_are_an_error() {
    on_small_stack(|| {
        let src = format!("{}1", "1 + ".repeat(DEEP));
        assert_too_deep(parse_expr(&src, &Default::default()).map(|_| ()));
        let src = format!("{}x", "-".repeat(DEEP));
        assert_too_deep(parse_expr(&src, &Default::default()).map(|_| ()));
        let src = format!("x{}", ".a".repeat(DEEP));
        assert_too_deep(parse_expr(&src, &Default::default()).map(|_| ()));
    });
}

#[test]
fn deep_directives_are_an_error() {
    on_small_stack(|| {
        let src = expr_nested("%{ if true }", "x", "%{ endif }", DEEP);
        assert_too_deep(parse_template(&src, &Default::default()).map(|_| ()));
    });
}

#[test]
fn max_depth_itself_parses() {
    on_small_stack(|| {
        // `"${` is two levels: the string and the interpolation.
        for (open, inner, close, levels) in [
            ("(", "1", ")", DEPTH),
            ("[", "1", "]", DEPTH),
            ("{a=", "1", "}", DEPTH),
            ("\"${", "1", "}\"", DEPTH / 2),
            ("f(", "1", ")", DEPTH),
            ("x[", "1", "]", DEPTH),
        ] {
            let src = expr_nested(open, inner, close, levels);
            if let Err(e) = parse_expr(&src, &Default::default()) {
                panic!("{open}...{close} at depth {levels}: {e}");
            }
            let src = expr_nested(open, inner, close, levels + 1);
            assert!(
                parse_expr(&src, &Default::default()).is_err(),
                "{open} at depth {}",
                levels + 1
            );
        }
        let blocks = expr_nested("a {\n", "", "}\n", DEPTH);
        if let Err(e) = parse_body(&blocks, &Default::default()) {
            panic!("blocks at depth {DEPTH}: {e}");
        }
    });
}

#[test]
fn max_depth_is_configurable() {
    let options = ParseOptions::default().with_max_depth(3);
    assert!(parse_expr("[[[1]]]", &options).is_ok());
    assert!(parse_expr("[[[[1]]]]", &options).is_err());
}

#[test]
fn unclosed_nested_calls_fail_within_the_call_budget() {
    on_small_stack(|| {
        for n in [10, 100, DEPTH - 1] {
            let src = format!("a = {}", "f(".repeat(n));
            assert_syntax_error_within_budget(
                parse_body(&src, &Default::default()).map(|_| ()),
                &format!("f( x{n}"),
            );
        }
    });
}

#[test]
fn unclosed_nested_objects_fail_within_the_call_budget() {
    on_small_stack(|| {
        for n in [10, 100, DEPTH - 1] {
            let src = format!("a = {}", "{a=".repeat(n));
            assert_syntax_error_within_budget(
                parse_body(&src, &Default::default()).map(|_| ()),
                &format!("{{a= x{n}"),
            );
            let src = format!("a = {}", "[for x in ".repeat(n));
            assert_syntax_error_within_budget(
                parse_body(&src, &Default::default()).map(|_| ()),
                &format!("[for x{n}"),
            );
        }
    });
}

#[test]
fn many_flat_items_parse_within_the_call_budget() {
    // 20,000 attributes and a 20,000-element tuple parse (a parse over its
    // linear call budget would fail with "input too complex").
    let body: String = (0..20_000).map(|i| format!("a{i} = {i}\n")).collect();
    assert_eq!(
        parse_body(&body, &Default::default())
            .map(|b| b.items.len())
            .ok(),
        Some(20_000)
    );
    let tuple = format!("[{}]", "1, ".repeat(20_000));
    assert_eq!(
        parse_expr(&tuple, &Default::default())
            .err()
            .map(|e| e.to_string()),
        None,
        "a 20,000-element tuple"
    );
}

#[test]
fn input_longer_than_the_limit_is_an_error() {
    let options = ParseOptions::default().with_max_input_len(16);
    // At the limit: parses.
    let src = "a = 1\nb = 22222\n";
    assert_eq!(src.len(), 16);
    assert!(parse_body(src, &options).is_ok());
    // One byte more: an error at the first byte past the limit (line 3,
    // column 1), for every entry point.
    let src = "a = 1\nb = 22222\nc";
    for err in [
        parse_body(src, &options).map(drop),
        parse_body(src.as_bytes(), &options).map(drop),
        parse_expr(src, &options).map(drop),
        parse_expr(src.as_bytes(), &options).map(drop),
        parse_template(src, &options).map(drop),
        parse_template(src.as_bytes(), &options).map(drop),
        hcl_grammar::json::parse_json(src, &options).map(drop),
    ] {
        let err = err.expect_err("17 bytes over a 16-byte limit");
        assert!(
            err.message()
                .starts_with("input too large: more than 16 bytes"),
            "{err}"
        );
        assert_eq!((err.line(), err.column()), (3, 1), "{err}");
    }
    // Invalid UTF-8 past the limit does not matter: the size is checked
    // first.
    let mut bytes = src.as_bytes().to_vec();
    bytes.push(0xff);
    let err = parse_body(&bytes, &options).expect_err("too large");
    assert!(err.message().starts_with("input too large"), "{err}");
}

#[test]
fn the_default_input_limit_is_8_mib() {
    assert_eq!(ParseOptions::default().max_input_len(), 8 * 1024 * 1024);
    let src = " ".repeat(ParseOptions::DEFAULT_MAX_INPUT_LEN + 1);
    let err = parse_body(&src, &Default::default()).expect_err("over the default limit");
    assert!(err.message().starts_with("input too large"), "{err}");
}
