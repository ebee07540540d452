//! Hostile input: deep nesting is an error, not a stack overflow, and
//! pathological inputs are rejected promptly. Each test runs in a thread
//! with the default 2 MiB stack, so that a debug build is checked as run.

#![allow(clippy::expect_used, clippy::unwrap_used)]

use hcl_grammar::{parse_body, parse_expr, parse_template, ParseOptions};
use std::time::{Duration, Instant};

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

fn assert_too_deep(result: Result<(), hcl_grammar::Error>, started: Instant) {
    let err = result.expect_err("deep nesting must be an error");
    assert!(
        err.message().contains("nesting too deep"),
        "unexpected message: {}",
        err.message()
    );
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "took {:?}",
        started.elapsed()
    );
}

fn expr_nested(open: &str, inner: &str, close: &str, n: usize) -> String {
    format!("{}{}{}", open.repeat(n), inner, close.repeat(n))
}

#[test]
fn deep_parentheses_are_an_error() {
    on_small_stack(|| {
        let src = expr_nested("(", "1", ")", DEEP);
        let t = Instant::now();
        assert_too_deep(parse_expr(&src).map(|_| ()), t);
    });
}

#[test]
fn deep_brackets_are_an_error() {
    on_small_stack(|| {
        let src = expr_nested("[", "1", "]", DEEP);
        let t = Instant::now();
        assert_too_deep(parse_expr(&src).map(|_| ()), t);
    });
}

#[test]
fn deep_braces_are_an_error() {
    on_small_stack(|| {
        let src = format!("a = {}", expr_nested("{a=", "1", "}", DEEP));
        let t = Instant::now();
        assert_too_deep(parse_body(&src).map(|_| ()), t);
    });
}

#[test]
fn deep_interpolations_are_an_error() {
    on_small_stack(|| {
        let src = expr_nested("\"${", "1", "}\"", DEEP);
        let t = Instant::now();
        assert_too_deep(parse_expr(&src).map(|_| ()), t);
    });
}

#[test]
fn deep_template_sequences_are_an_error() {
    on_small_stack(|| {
        let src = expr_nested("${", "1", "}", DEEP);
        let t = Instant::now();
        assert_too_deep(parse_template(&src).map(|_| ()), t);
    });
}

#[test]
fn deep_blocks_are_an_error() {
    on_small_stack(|| {
        let src = expr_nested("a {\n", "", "}\n", DEEP);
        let t = Instant::now();
        assert_too_deep(parse_body(&src).map(|_| ()), t);
    });
}

#[test]
fn deep_heredocs_are_an_error() {
    on_small_stack(|| {
        let src = expr_nested("<<EOT\n${", "1", "}\nEOT\n", DEEP);
        let t = Instant::now();
        assert_too_deep(parse_expr(&src).map(|_| ()), t);
    });
}

#[test]
fn long_conditional_chains_are_an_error() {
    on_small_stack(|| {
        let src = format!("{}0", "a ? b : ".repeat(DEEP));
        let t = Instant::now();
        assert_too_deep(parse_expr(&src).map(|_| ()), t);
    });
}

#[test]
fn long_operator_chains_are_an_error() {
    on_small_stack(|| {
        let src = format!("{}1", "1 + ".repeat(DEEP));
        let t = Instant::now();
        assert_too_deep(parse_expr(&src).map(|_| ()), t);
        let src = format!("{}x", "-".repeat(DEEP));
        let t = Instant::now();
        assert_too_deep(parse_expr(&src).map(|_| ()), t);
        let src = format!("x{}", ".a".repeat(DEEP));
        let t = Instant::now();
        assert_too_deep(parse_expr(&src).map(|_| ()), t);
    });
}

#[test]
fn deep_directives_are_an_error() {
    on_small_stack(|| {
        let src = expr_nested("%{ if true }", "x", "%{ endif }", DEEP);
        let t = Instant::now();
        assert_too_deep(parse_template(&src).map(|_| ()), t);
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
            if let Err(e) = parse_expr(&src) {
                panic!("{open}...{close} at depth {levels}: {e}");
            }
            let src = expr_nested(open, inner, close, levels + 1);
            assert!(parse_expr(&src).is_err(), "{open} at depth {}", levels + 1);
        }
        let blocks = expr_nested("a {\n", "", "}\n", DEPTH);
        if let Err(e) = parse_body(&blocks) {
            panic!("blocks at depth {DEPTH}: {e}");
        }
    });
}

#[test]
fn max_depth_is_configurable() {
    let options = ParseOptions { max_depth: 3 };
    assert!(hcl_grammar::parse_expr_with("[[[1]]]", &options).is_ok());
    assert!(hcl_grammar::parse_expr_with("[[[[1]]]]", &options).is_err());
}

#[test]
fn unclosed_nested_calls_fail_promptly() {
    on_small_stack(|| {
        for n in [10, 100, DEPTH - 1] {
            let src = format!("a = {}", "f(".repeat(n));
            let t = Instant::now();
            assert!(parse_body(&src).is_err());
            assert!(
                t.elapsed() < Duration::from_secs(10),
                "f( x{n}: {:?}",
                t.elapsed()
            );
        }
    });
}

#[test]
fn unclosed_nested_objects_fail_promptly() {
    on_small_stack(|| {
        for n in [10, 100, DEPTH - 1] {
            let src = format!("a = {}", "{a=".repeat(n));
            let t = Instant::now();
            assert!(parse_body(&src).is_err());
            assert!(
                t.elapsed() < Duration::from_secs(10),
                "{{a= x{n}: {:?}",
                t.elapsed()
            );
            let src = format!("a = {}", "[for x in ".repeat(n));
            let t = Instant::now();
            assert!(parse_body(&src).is_err());
            assert!(
                t.elapsed() < Duration::from_secs(10),
                "[for x{n}: {:?}",
                t.elapsed()
            );
        }
    });
}

#[test]
fn many_flat_items_parse_in_linear_time() {
    // 20,000 attributes and a 20,000-element tuple: no quadratic step.
    let body: String = (0..20_000).map(|i| format!("a{i} = {i}\n")).collect();
    let t = Instant::now();
    assert_eq!(parse_body(&body).map(|b| b.items.len()).ok(), Some(20_000));
    let tuple = format!("[{}]", "1, ".repeat(20_000));
    assert!(parse_expr(&tuple).is_ok());
    assert!(t.elapsed() < Duration::from_secs(30), "{:?}", t.elapsed());
}
