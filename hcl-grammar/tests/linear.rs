//! The grammar is linear by construction: no input makes pest backtrack
//! over the same text again and again. The library sets no call limit
//! (pest's is process-wide, and would change every other pest parser in a
//! user's program), so this test is what stands behind that claim.
//!
//! Nothing is timed: work is counted. pest counts its calls (rules,
//! sequences, repetitions, optionals, lookaheads) and gives up with "call
//! limit reached" past the limit set by `pest::set_call_limit`; this test
//! binary is its own process, so it may set that limit. For each hostile
//! shape, the exact number of calls a parse makes is found by bisecting
//! the limit, at one size and at twice that size: doubling the input must
//! at most double the work (plus a margin for constant costs). A quadratic
//! grammar would quadruple it; an exponential one would not finish.
//!
//! Shapes that nest are measured at half and at the whole of the default
//! depth limit (the pre-scan refuses deeper input before pest runs).

#![allow(clippy::expect_used, clippy::unwrap_used)]

use hcl_grammar::{ParseOptions, Result};
use std::num::NonZeroUsize;
use std::sync::Mutex;

/// pest's call limit is one setting for the whole process: one
/// measurement at a time.
static PEST_LIMIT: Mutex<()> = Mutex::new(());

/// Whole files in one piece, so that one pest parse does all the work.
fn whole() -> ParseOptions {
    ParseOptions::default().with_chunk_len(usize::MAX)
}

#[derive(Clone, Copy)]
enum Entry {
    Body,
    Expr,
    Template,
}

fn parse(entry: Entry, src: &str) -> Result<()> {
    let options = whole();
    match entry {
        // The pest route itself: the fast path would take many of these
        // shapes before pest ran.
        Entry::Body => hcl_grammar::__private::parse_body_pest(src, &options).map(|_| ()),
        Entry::Expr => hcl_grammar::__private::parse_expr_pest(src, &options).map(|_| ()),
        Entry::Template => hcl_grammar::__private::parse_template_pest(src, &options).map(|_| ()),
    }
}

fn gave_up(r: &Result<()>) -> bool {
    r.as_ref()
        .err()
        .is_some_and(|e| e.message().contains("call limit"))
}

/// The number of pest calls a parse of `src` makes (the smallest limit it
/// does not reach), and whether the parse succeeded.
fn calls(entry: Entry, src: &str) -> (usize, bool) {
    let _guard = PEST_LIMIT.lock().unwrap_or_else(|e| e.into_inner());
    let set = |n: usize| pest::set_call_limit(NonZeroUsize::new(n));
    // Grow the limit until the parse finishes, then bisect.
    let mut hi = 1024usize;
    loop {
        set(hi);
        if !gave_up(&parse(entry, src)) {
            break;
        }
        hi = hi.checked_mul(2).expect("a finite number of calls");
    }
    let mut lo = if hi == 1024 { 0 } else { hi / 2 };
    while lo + 1 < hi {
        let mid = lo + (hi - lo) / 2;
        set(mid);
        if gave_up(&parse(entry, src)) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    set(hi);
    let result = parse(entry, src);
    pest::set_call_limit(None);
    if let Err(e) = &result {
        assert!(
            !e.message().contains("too deep"),
            "the input was refused before or after pest ran: {}",
            e.message()
        );
    }
    (hi, result.is_ok())
}

/// Doubling `n` at most doubles the calls (10% and 2,000 calls of margin
/// for what every parse pays once).
fn assert_linear(what: &str, entry: Entry, n: usize, make: impl Fn(usize) -> String) {
    let (small, big) = (make(n), make(2 * n));
    let (c1, ok1) = calls(entry, &small);
    let (c2, ok2) = calls(entry, &big);
    assert_eq!(ok1, ok2, "{what}: the two sizes parse alike");
    let bound = c1 * 2 + c1 / 10 + 2_000;
    assert!(
        c2 <= bound,
        "{what}: {c1} pest calls at {} bytes, {c2} at {} bytes (more than twice)",
        small.len(),
        big.len()
    );
}

const HALF_DEPTH: usize = ParseOptions::DEFAULT_MAX_DEPTH / 2 - 1;

#[test]
fn flat_valid_input_is_linear() {
    assert_linear("attributes", Entry::Body, 200, |n| {
        (0..n)
            .map(|i| format!("a{i} = x.y[{i}] + f(1, \"s\")\n"))
            .collect()
    });
    assert_linear("blocks", Entry::Body, 150, |n| {
        "b \"l\" {\n  a = 1\n  c { d = [1, 2] }\n}\n".repeat(n)
    });
    assert_linear("tuple", Entry::Expr, 500, |n| {
        format!("[{}]", "1, ".repeat(n))
    });
    assert_linear("operators", Entry::Expr, 200, |n| {
        format!("[{}]", "1 + a * -b == c || d, ".repeat(n))
    });
    assert_linear("template", Entry::Template, 150, |n| {
        "text ${a} %{ if b }x%{ else }y%{ endif } $${z} ".repeat(n)
    });
}

#[test]
fn failing_flat_input_is_linear() {
    // Errors found at the very end, after long runs that a backtracking
    // grammar would parse again.
    assert_linear("unclosed tuple", Entry::Body, 500, |n| {
        format!("a = [{}", "1, ".repeat(n))
    });
    assert_linear("unclosed object", Entry::Body, 300, |n| {
        format!("a = {{{}", "k = 1, ".repeat(n))
    });
    assert_linear("unclosed string", Entry::Body, 2_000, |n| {
        format!("a = \"{}$", "x".repeat(n))
    });
    assert_linear("unclosed template", Entry::Body, 300, |n| {
        format!("a = \"{}", "x${y}".repeat(n))
    });
    assert_linear("unclosed heredoc", Entry::Body, 300, |n| {
        format!("a = <<EOT\n{}", "line ${x}\n".repeat(n))
    });
    assert_linear("blocks then an unclosed one", Entry::Body, 200, |n| {
        format!("{}b {{\n", "b { a = 1 }\n".repeat(n))
    });
    assert_linear("steps with comments", Entry::Body, 60, |n| {
        format!("a = x{} +", ". /* c */ b[0]".repeat(n))
    });
    assert_linear("operators then nothing", Entry::Body, 60, |n| {
        format!("a = {}", "1 + ".repeat(n))
    });
    assert_linear("for then nothing", Entry::Body, 500, |n| {
        format!("a = [for x in [{}] :", "1, ".repeat(n))
    });
}

#[test]
fn failing_nested_input_is_linear() {
    // Nesting up to the default depth limit, failing at the innermost
    // level: each level is parsed once, not once per failing alternative.
    // (what, entry, text before, one level, levels the pre-scan counts)
    let shapes: [(&str, Entry, &str, &str, usize); 9] = [
        ("calls", Entry::Body, "a = ", "f(", 1),
        ("objects", Entry::Body, "a = ", "{a=", 1),
        ("object keys", Entry::Body, "a = ", "{(", 2),
        ("for tuples", Entry::Body, "a = ", "[for x in ", 1),
        ("for objects", Entry::Body, "a = ", "{for k, v in ", 1),
        ("conditionals", Entry::Body, "a = ", "x ? ", 1),
        ("parentheses", Entry::Expr, "", "(", 1),
        ("indexes", Entry::Expr, "x", "[", 1),
        ("blocks", Entry::Body, "", "b {\n", 1),
    ];
    for (what, entry, head, open, levels) in shapes {
        assert_linear(what, entry, HALF_DEPTH / levels, |n| {
            format!("{head}{}1 1", open.repeat(n))
        });
    }
    assert_linear("interpolations", Entry::Expr, HALF_DEPTH / 2, |n| {
        format!("{}1 1", "\"${".repeat(n))
    });
    assert_linear("directives", Entry::Template, HALF_DEPTH / 2, |n| {
        format!("{}x", "%{ if a }${".repeat(n))
    });
}

#[test]
fn closed_nested_input_is_linear() {
    assert_linear("nested calls", Entry::Expr, HALF_DEPTH, |n| {
        format!("{}1{}", "f(".repeat(n), ")".repeat(n))
    });
    assert_linear("nested blocks", Entry::Body, HALF_DEPTH, |n| {
        format!("{}{}", "b {\n".repeat(n), "}\n".repeat(n))
    });
    assert_linear("nested conditionals", Entry::Expr, HALF_DEPTH, |n| {
        format!("{}1{}", "a ? ".repeat(n), " : 2".repeat(n))
    });
}
