//! The examples of the HCL native syntax specification
//! (hcl-native-syntax-spec.md), section by section, as trees (Debug
//! snapshots, each reviewed against the spec's prose), plus the spec's
//! examples of syntax errors.

#![allow(clippy::expect_used, clippy::unwrap_used)]

use hcl_grammar::{parse_body, parse_expr, parse_template};
use insta::assert_debug_snapshot;

fn expr(src: &str) -> hcl_grammar::Expr<'_> {
    parse_expr(src, &Default::default()).unwrap_or_else(|e| panic!("{src:?}: {e}"))
}

// ## Structural Elements

#[test]
fn structure_attribute_and_block() {
    let src = "io_mode = \"async\"\n\nservice \"http\" \"web_proxy\" {\n  listen_addr = \"127.0.0.1:8080\"\n}\n";
    assert_debug_snapshot!(parse_body(src, &Default::default()).unwrap());
}

#[test]
fn structure_one_line_block() {
    assert_debug_snapshot!(
        parse_body("a \"b\" { c = 1 }\nempty {}\n", &Default::default()).unwrap()
    );
}

// ## Expressions: Collection Values

#[test]
fn collections_identifier_key_is_literal() {
    // `{foo = "baz"}` has an attribute literally named `foo`.
    assert_debug_snapshot!(expr("{foo = \"baz\"}"));
}

#[test]
fn collections_parenthesised_key_is_expression() {
    // `{(foo) = "baz"}` takes the name from the variable `foo`.
    assert_debug_snapshot!(expr("{(foo) = \"baz\"}"));
}

#[test]
fn collections_for_ambiguity() {
    // `[for, foo, baz]` and `{for: 1, baz: 2}` are syntax errors.
    assert!(parse_expr("[for, foo, baz]", &Default::default()).is_err());
    assert!(parse_expr("{for: 1, baz: 2}", &Default::default()).is_err());
    // Parentheses or reordering disambiguate.
    assert_debug_snapshot!("tuple_paren_for", expr("[(for), foo, baz]"));
    assert_debug_snapshot!("object_paren_for", expr("{(for): 1, baz: 2}"));
    assert_debug_snapshot!("object_for_second", expr("{baz: 2, for: 1}"));
}

// ## Functions and Function Calls

#[test]
fn function_call_with_expansion() {
    assert_debug_snapshot!(expr("f(a, b...)"));
}

// ## For Expressions

#[test]
fn for_expressions() {
    assert_debug_snapshot!("tuple_one_var", expr("[for v in [\"a\", \"b\"]: v]"));
    assert_debug_snapshot!("tuple_two_vars", expr("[for i, v in [\"a\", \"b\"]: i]"));
    assert_debug_snapshot!("object", expr("{for i, v in [\"a\", \"b\"]: v => i}"));
    assert_debug_snapshot!(
        "object_grouping",
        expr("{for i, v in [\"a\", \"a\", \"b\"]: v => i...}")
    );
    assert_debug_snapshot!(
        "tuple_if",
        expr("[for i, v in [\"a\", \"b\", \"c\"]: v if i < 2]")
    );
}

// ## Splat Operators

#[test]
fn splat_attribute_only_trailing_index_applies_to_result() {
    // `tuple.*.foo.bar[0]` is approximately `[for v in tuple: v.foo.bar][0]`.
    assert_debug_snapshot!(expr("tuple.*.foo.bar[0]"));
}

#[test]
fn splat_full_trailing_index_applies_to_each() {
    // `tuple[*].foo.bar[0]` is approximately `[for v in tuple: v.foo.bar[0]]`.
    assert_debug_snapshot!(expr("tuple[*].foo.bar[0]"));
}

// ## Operations

#[test]
fn operations_left_associative() {
    // `x / y * z` is `(x / y) * z`.
    assert_debug_snapshot!(expr("x / y * z"));
}

#[test]
fn operations_precedence_levels() {
    // Level 2 (`&&`) binds tighter than level 1 (`||`); unary first.
    assert_debug_snapshot!(expr("!a || b && c"));
}

#[test]
fn operations_unary_applies_to_the_term() {
    assert_debug_snapshot!(expr("-a.b + 1"));
}

// ## Conditional Operator

#[test]
fn conditional_nests_to_the_right() {
    assert_debug_snapshot!(expr("a ? b : c ? d : e"));
}

// ## Templates: Template Literals (strip markers)

#[test]
fn template_strip_markers() {
    // `hello ${~ "world" }` produces "helloworld".
    assert_debug_snapshot!(
        "interpolation",
        parse_template("hello ${~ \"world\" }", &Default::default()).unwrap()
    );
    // `%{ if true ~} hello %{~ endif }` produces "hello".
    assert_debug_snapshot!(
        "directive",
        parse_template("%{ if true ~} hello %{~ endif }", &Default::default()).unwrap()
    );
    // Stripping is syntactic: `${"hello" ~}${" world"}` keeps the space.
    assert_debug_snapshot!(
        "values_untouched",
        parse_template("${\"hello\" ~}${\" world\"}", &Default::default()).unwrap()
    );
}

// ## Template Interpolation Unwrapping

#[test]
fn unwrapping() {
    for (src, unwraps) in [
        ("${true}", true),
        ("${\"${true}\"}", true),
        ("hello ${true}", false),
        ("${\"\"}${true}", false),
        ("%{ for v in [true] }${v}%{ endfor }", false),
    ] {
        let t = parse_template(src, &Default::default()).unwrap();
        assert_eq!(t.is_unwrappable(), unwraps, "{src}");
    }
    assert_debug_snapshot!(parse_template("${\"${true}\"}", &Default::default()).unwrap());
}

// ## Template Expressions: heredocs

#[test]
fn heredoc_plain() {
    assert_debug_snapshot!(expr("<<EOT\nhello\n  world\nEOT\n"));
}

#[test]
fn heredoc_indented() {
    // `<<-`: the smallest indentation of the lines is removed.
    assert_debug_snapshot!(expr("<<-EOT\n    a\n      b\n    EOT\n"));
}

#[test]
fn quoted_template_escapes() {
    assert_debug_snapshot!(expr("\"a\\n\\t\\\"\\u00e9\\U0001F600 $${x} %%{y}\""));
}
