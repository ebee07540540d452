//! The fast path's work is linear: bytes looked at are counted (nothing is
//! timed) at one size and at twice that size, for shapes that could make a
//! careless parser scan text again and again.

use super::Parser;
use crate::ParseOptions;
use crate::Span;

#[derive(Clone, Copy)]
enum Entry {
    Body,
    Expr,
    Template,
}

/// The bytes looked at while parsing `src`.
fn work(entry: Entry, src: &str) -> usize {
    let options = ParseOptions::default();
    let Some(mut p) = Parser::new(src, 0, &options) else {
        return 0;
    };
    match entry {
        Entry::Body => drop(p.config_file(Span::new(0, src.len()))),
        Entry::Expr => drop(p.expr_file()),
        Entry::Template => drop(p.template_file(Span::new(0, src.len()))),
    }
    p.work.get()
}

#[test]
fn doubling_the_input_at_most_doubles_the_work() {
    type Shape = (&'static str, Entry, fn(usize) -> String);
    let shapes: &[Shape] = &[
        ("attributes", Entry::Body, |n| "a1 = x.y[0] + 2\n".repeat(n)),
        ("blocks", Entry::Body, |n| "b \"l\" { c = 1 }\n".repeat(n)),
        ("tuple", Entry::Expr, |n| {
            format!("[{}]", "x + y, ".repeat(n))
        }),
        ("object", Entry::Expr, |n| {
            format!("{{{}}}", "k = v\n".repeat(n))
        }),
        ("args", Entry::Expr, |n| {
            format!("f({})", "a. /* c */ b, ".repeat(n))
        }),
        ("comments", Entry::Body, |n| "/* c */ # d\n// e\n".repeat(n)),
        ("unclosed comment", Entry::Body, |n| {
            format!("a = 1 /*{}", " *".repeat(n))
        }),
        ("string", Entry::Expr, |n| {
            format!("\"{}\"", "a\\n$${x}%".repeat(n))
        }),
        ("unclosed string", Entry::Expr, |n| {
            format!("\"{}", "a$".repeat(n))
        }),
        ("interpolations", Entry::Expr, |n| {
            format!("\"{}\"", "x${a}".repeat(n))
        }),
        ("heredoc", Entry::Body, |n| {
            format!("a = <<EOF\n{}EOF\n", "EO ${x} E\n".repeat(n))
        }),
        ("unclosed heredoc", Entry::Body, |n| {
            format!("a = <<EOFEOF\n{}", "EOFEO\n".repeat(n))
        }),
        ("template", Entry::Template, |n| {
            "%{ if a }x${b}%{ endif }\n".repeat(n)
        }),
        ("ellipsis", Entry::Expr, |n| {
            format!("f({}", "a. ".repeat(n))
        }),
        ("spaces", Entry::Body, |n| {
            format!("a = {}1\n", " ".repeat(n))
        }),
        ("newlines", Entry::Expr, |n| {
            format!("({}1)", "\n".repeat(n))
        }),
    ];
    for (name, entry, make) in shapes {
        let (a, b) = (work(*entry, &make(200)), work(*entry, &make(400)));
        assert!(a > 0, "{name}: no work counted");
        assert!(b <= 2 * a + 64, "{name}: work {a} at n, {b} at 2n");
    }
}
