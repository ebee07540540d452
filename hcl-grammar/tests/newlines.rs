//! Where newlines are ignored (inside parentheses, brackets and in
//! expression mode) they may stand anywhere between tokens, as in
//! hclsyntax, whose scanner drops them there: after the `.` of a step and
//! between a function's name and its `(`. Each input here is accepted by
//! the reference implementation (hcl 2.14.1) with the shape asserted.

#![allow(clippy::expect_used, clippy::unwrap_used)]

use hcl_grammar::ast::{Expr, ExprKind};
use hcl_grammar::{parse_body, parse_expr};

fn expr(src: &str) -> Expr<'_> {
    parse_expr(src, &Default::default()).unwrap_or_else(|e| panic!("{src:?}: {e}"))
}

fn attr_name<'a>(e: &'a Expr<'_>) -> &'a str {
    match &e.kind {
        ExprKind::GetAttr(g) => g.name.name,
        other => panic!("expected an attribute access, got {other:?}"),
    }
}

#[test]
fn newline_after_the_dot_of_an_attribute_access() {
    for src in [
        "a.\nb",
        "a.\r\nb",
        "a. # note\n  b",
        "a.// note\nb",
        "(a.\nb)",
        "[a.\nb]",
    ] {
        let e = expr(src);
        let e = match &e.kind {
            ExprKind::Parens(inner) => inner.as_ref(),
            ExprKind::Tuple(items) => items.first().expect("one element"),
            _ => &e,
        };
        assert_eq!(attr_name(e), "b", "{src:?}");
    }
    // In a body, inside brackets.
    let body = parse_body("x = [a.\nb]\n", &Default::default()).expect("accepted");
    assert_eq!(body.items.len(), 1);
}

#[test]
fn newline_after_the_dot_of_a_splat_and_a_legacy_index() {
    assert!(matches!(expr("a.\n*.c").kind, ExprKind::Splat(_)));
    match expr("a.\n0").kind {
        ExprKind::Index(i) => {
            assert!(i.legacy);
            assert!(matches!(i.key.kind, ExprKind::Number("0")));
        }
        other => panic!("expected a legacy index, got {other:?}"),
    }
}

#[test]
fn legacy_index_with_spaces_and_exponent() {
    // `l.0. 1` and `l.0 .1` are two indexes; `l.0e0` is the index `0e0`.
    for src in ["l.0. 1", "l.0 .1"] {
        match expr(src).kind {
            ExprKind::Index(i) => assert!(matches!(i.collection.kind, ExprKind::Index(_))),
            other => panic!("{src:?}: expected two indexes, got {other:?}"),
        }
    }
    match expr("l.0e0").kind {
        ExprKind::Index(i) => assert!(matches!(i.key.kind, ExprKind::Number("0e0"))),
        other => panic!("expected a legacy index, got {other:?}"),
    }
}

#[test]
fn newline_between_a_function_name_and_its_arguments() {
    for src in [
        "upper\n(\"x\")",
        "upper # note\n(\"x\")",
        "(upper\n(\"x\"))",
        "[upper\n(\"x\")]",
    ] {
        let e = expr(src);
        let e = match &e.kind {
            ExprKind::Parens(inner) => inner.as_ref(),
            ExprKind::Tuple(items) => items.first().expect("one element"),
            _ => &e,
        };
        assert!(matches!(e.kind, ExprKind::Call(_)), "{src:?}: {e:?}");
    }
}
