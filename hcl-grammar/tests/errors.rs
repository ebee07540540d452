//! Each kind of syntax error: its message and its position.
//!
//! Lines and columns are the reference implementation's (hcl 2.14.1, as
//! printed by `hcl-oracle body|expr|template FILE`) for the same input;
//! where our column differs from the reference's, only the line is
//! checked and the test says why. Messages are ours: the test checks the
//! words that say what went wrong.

#![allow(clippy::expect_used, clippy::unwrap_used)]

use hcl_grammar::{parse_body, parse_expr, parse_template, Error};

fn body_err(src: &str) -> Error {
    match parse_body(src, &Default::default()) {
        Ok(b) => panic!("expected an error for {src:?}, got {b:?}"),
        Err(e) => e,
    }
}

#[track_caller]
fn check(e: &Error, line: usize, column: Option<usize>, words: &[&str]) {
    assert_eq!(e.line(), line, "line of {e:?}");
    if let Some(c) = column {
        assert_eq!(e.column(), c, "column of {e:?}");
    }
    for w in words {
        assert!(e.message().contains(w), "{:?} lacks {w:?}", e.message());
    }
}

#[test]
fn block_without_brace() {
    // Reference: 1:12 "Invalid block definition".
    check(
        &body_err("service web\n"),
        1,
        Some(12),
        &["`{`", "found a newline"],
    );
}

#[test]
fn block_with_equals_after_labels() {
    // Reference: 1:7 "Invalid block definition".
    check(
        &body_err("a \"b\" = 1\n"),
        1,
        Some(7),
        &["`{`", "found `=`"],
    );
}

#[test]
fn attribute_redefined() {
    // Reference: 3:1 "Attribute redefined".
    check(
        &body_err("a = 1\nb = 2\na = 3\n"),
        3,
        Some(1),
        &["`a`", "redefined", "line 1"],
    );
}

#[test]
fn attribute_without_value() {
    // Reference: 1:4 "Invalid expression".
    check(&body_err("a =\n"), 1, Some(4), &["expected an expression"]);
}

#[test]
fn two_attributes_on_one_line() {
    // Reference: 1:7 "Missing newline after argument".
    check(
        &body_err("a = 1 b = 2\n"),
        1,
        Some(7),
        &["expected a newline", "`b`"],
    );
}

#[test]
fn unclosed_block_points_at_its_brace() {
    // Reference: 1:3 "Unclosed configuration block".
    check(&body_err("a {\n  b = 1\n"), 1, Some(3), &["unclosed block"]);
}

#[test]
fn unclosed_call_points_at_the_call() {
    // Reference: 1:5 "Unterminated function call".
    check(
        &body_err("a = f(1,\n  2\n"),
        1,
        Some(5),
        &["unclosed function call"],
    );
}

#[test]
fn unclosed_parenthesis_points_after_it() {
    // Reference: 2:1 "Unbalanced parentheses".
    check(
        &body_err("a = (1 + 2\nb = 3\n"),
        2,
        Some(1),
        &["expected `)`"],
    );
}

#[test]
fn unclosed_tuple_points_at_its_bracket() {
    // Reference: 1:5 "Unterminated tuple constructor expression".
    check(&body_err("a = [1, 2\n"), 1, Some(5), &["unclosed tuple"]);
}

#[test]
fn unclosed_object_at_end_of_input() {
    // Reference: 3:1 "Missing expression".
    check(
        &body_err("a = {\n  b = 1\n"),
        3,
        Some(1),
        &["unclosed object", "line 1"],
    );
}

#[test]
fn unclosed_interpolation_points_at_it() {
    // Reference: 1:6 "Unclosed template interpolation sequence".
    check(
        &body_err("a = \"${b\n"),
        1,
        Some(6),
        &["unclosed template sequence", "`${`"],
    );
}

#[test]
fn string_across_lines() {
    // Reference: 1:9 "Invalid multi-line string".
    check(
        &body_err("a = \"abc\nb = 1\n"),
        1,
        Some(9),
        &["unterminated string"],
    );
}

#[test]
fn invalid_escapes() {
    // Reference: 1:7 and 1:6 "Invalid escape sequence".
    check(
        &body_err("a = \"x\\qy\"\n"),
        1,
        Some(7),
        &["invalid escape sequence `\\q`"],
    );
    check(
        &body_err("a = \"\\u12\"\n"),
        1,
        Some(6),
        &["`\\u12`", "four hexadecimal digits"],
    );
    let e = parse_expr("\"\\ud800\"", &Default::default()).unwrap_err();
    check(
        &e,
        1,
        Some(2),
        &["`\\ud800`", "not a valid Unicode scalar value"],
    );
}

#[test]
fn stray_characters() {
    // Reference: 1:5, 1:6, 1:6 "Invalid character".
    check(&body_err("a = 'x'\n"), 1, Some(5), &["double quotes"]);
    check(&body_err("a = 1;\n"), 1, Some(6), &["`;`"]);
    check(
        &body_err("a = 1\rb = 2\n"),
        1,
        Some(6),
        &["carriage return"],
    );
    // Reference: 1:2 "Invalid character".
    check(&body_err("a\u{2603} = 1\n"), 1, Some(2), &["U+2603"]);
}

#[test]
fn interpolation_in_block_label() {
    // Reference: 1:4 "Invalid string literal".
    check(&body_err("a \"${b}\" {\n}\n"), 1, Some(4), &["block label"]);
}

#[test]
fn one_line_block_with_two_attributes() {
    // Reference: 1:10 "Invalid single-argument block definition".
    check(
        &body_err("a { b = 1, c = 2 }\n"),
        1,
        Some(10),
        &["expected `}`", "one line"],
    );
}

#[test]
fn missing_separators() {
    // Reference: 1:13 "Missing attribute separator", 1:8 "Missing item separator".
    check(
        &body_err("a = { b = 1 c = 2 }\n"),
        1,
        Some(13),
        &["a newline, `,` or `}`"],
    );
    check(&body_err("a = [1 2]\n"), 1, Some(8), &["`,` or `]`"]);
}

#[test]
fn for_expression_errors() {
    // Reference: 1:17 "Invalid 'for' expression".
    check(
        &body_err("a = [for x in y x]\n"),
        1,
        Some(17),
        &["expected `:`"],
    );
    // Reference: 1:21 (the space before `}`); we point at the `}` itself.
    check(
        &body_err("a = {for k, v in m: k}\n"),
        1,
        Some(22),
        &["expected `=>`"],
    );
}

#[test]
fn conditional_without_false_branch() {
    // Reference: 1:10 "Missing false expression in conditional".
    check(&body_err("a = b ? c\n"), 1, Some(10), &["expected `:`"]);
}

#[test]
fn misplaced_ellipsis() {
    // Reference: 1:7 "Missing item separator" (at the first `.`); we point
    // at the second.
    check(&body_err("a = [b...]\n"), 1, None, &["`...`"]);
}

#[test]
fn heredoc_errors() {
    // Reference: 3:1 "Unterminated template string".
    check(
        &body_err("a = <<EOT\nhello\n"),
        3,
        Some(1),
        &["unclosed heredoc"],
    );
    // Reference: 1:5 "Invalid expression".
    check(
        &body_err("a = <<EOT x\nhello\nEOT\n"),
        1,
        Some(5),
        &["invalid heredoc"],
    );
}

#[test]
fn directive_errors() {
    // Reference: 1:19 "Unexpected endfor directive".
    check(
        &body_err("a = \"%{ if true }x%{ endfor }\"\n"),
        1,
        Some(19),
        &["unexpected `%{ endfor }`", "`%{ endif }`"],
    );
    // Reference: 1:9 "Invalid template control keyword".
    check(
        &body_err("a = \"%{ while true }x\"\n"),
        1,
        Some(9),
        &["directive keyword", "`while`"],
    );
    // Reference: 1:19 "Unexpected end of template" (the end); we point at
    // the `%{ if` that is not closed.
    check(
        &body_err("a = \"%{ if true }x\"\n"),
        1,
        None,
        &["unclosed template directive"],
    );
    // Reference: 1:2 "Unexpected else directive".
    let e = parse_template("a%{ else }b", &Default::default()).unwrap_err();
    check(&e, 1, Some(2), &["unexpected `%{ else }`"]);
}

#[test]
fn nested_attribute_only_splat() {
    // Reference: 1:11 "Nested splat expression not allowed".
    check(&body_err("a = b.*.c.*.d\n"), 1, Some(11), &["nested splat"]);
}

#[test]
fn invalid_numbers() {
    // Reference: 1:5 "Invalid number literal", 1:6 "Missing newline after argument".
    check(
        &body_err("a = 1.2.3\n"),
        1,
        Some(5),
        &["invalid number literal"],
    );
    check(
        &body_err("a = 1abc\n"),
        1,
        Some(6),
        &["expected a newline", "`abc`"],
    );
}

#[test]
fn expression_mode_errors() {
    // Reference: 1:3 "Extra characters after expression", 1:1 "Missing expression".
    check(
        &parse_expr("1 2", &Default::default()).unwrap_err(),
        1,
        Some(3),
        &["expected the end of the input"],
    );
    check(
        &parse_expr("", &Default::default()).unwrap_err(),
        1,
        Some(1),
        &["expected an expression"],
    );
    // Newlines are ignored in expression mode: the error is at the next token.
    // Reference: 2:1 "Missing expression".
    check(
        &parse_expr("(1 +\n", &Default::default()).unwrap_err(),
        2,
        Some(1),
        &["expected an expression"],
    );
}

#[test]
fn template_mode_unclosed_interpolation() {
    // Reference: 1:1 "Unclosed template interpolation sequence"; we point
    // at the `${` itself.
    check(
        &parse_template("hello ${name", &Default::default()).unwrap_err(),
        1,
        Some(7),
        &["`${`"],
    );
}

#[test]
fn namespaced_name_needs_a_call() {
    // HCL 2.20+ only: the reference (2.14.1) has no namespaced functions.
    let e = body_err("a = provider::x::y\n");
    check(&e, 1, None, &["expected `(`", "provider::x::y"]);
}

#[test]
fn invalid_utf8_outside_comments() {
    let e = parse_body(b"a = \"\xff\"\n", &Default::default()).unwrap_err();
    check(&e, 1, Some(6), &["invalid UTF-8"]);
    // Reference: accepted inside comments (lexical/invalid_utf8_in_comment_accepted).
    let body = parse_body(b"# \xff\xfe\na = 1 // \xc0\n", &Default::default()).unwrap();
    assert_eq!(body.attributes().count(), 1);
}

#[test]
fn errors_render_with_the_source_line() {
    let e = body_err("a = 1\nb = (2\n");
    let shown = e.to_string();
    assert!(shown.contains("--> 3:1"), "{shown}");
    let e = body_err("a = 1\nb = [1 2]\n");
    let shown = e.to_string();
    assert!(shown.contains("2 | b = [1 2]"), "{shown}");
    assert!(shown.contains("^"), "{shown}");
}

#[test]
fn newline_after_dot_where_newlines_end_items() {
    // Reference: 1:7 and 1:12 "Invalid attribute name" ("An attribute name
    // is required after a dot."); inside brackets the same is accepted (see
    // tests/newlines.rs).
    check(&body_err("x = a.\nb\n"), 1, Some(7), &["a name", "newline"]);
    check(&body_err("x = a.\n*\n"), 1, Some(7), &["a name", "newline"]);
    check(&body_err("x = {k = a.\nb}\n"), 1, Some(12), &["a name"]);
}

#[test]
fn newline_between_function_name_and_parenthesis_in_a_body() {
    // Reference: 2:1 "Argument or block definition required": `x = upper`
    // ends at the newline, and `("x")` is not an item.
    check(
        &body_err("x = upper\n(\"x\")\n"),
        2,
        Some(1),
        &["attribute or block"],
    );
}

#[test]
fn chained_legacy_index() {
    // Reference: 1:7 (body) and 1:3 (expression) "Invalid legacy index
    // syntax": the scanner reads `0.1` as one number token.
    check(
        &body_err("x = a.0.1\n"),
        1,
        Some(7),
        &["legacy index", "[0][1]"],
    );
    for src in ["l.0.1", "l.0.1.0", "l.0.1 + 1", "l.0.1e0"] {
        let e = parse_expr(src, &Default::default()).expect_err(src);
        check(&e, 1, Some(3), &["legacy index"]);
    }
}

#[test]
fn a_long_line_renders_a_bounded_window_around_the_caret() {
    // A 200 KB one-line file with a stray `@` in the middle. Reference:
    // 1:100009 "Invalid character" (byte 100008).
    let src = format!("a = {} @ {}\n", "x".repeat(100_003), "y".repeat(100_000));
    let e = body_err(&src);
    check(&e, 1, Some(100_009), &[]);
    let shown = e.to_string();
    assert!(shown.len() < 1_000, "{} bytes", shown.len());
    let lines: Vec<&str> = shown.lines().collect();
    let (code, carets) = (lines[3], lines[4]);
    assert!(
        code.starts_with("1 | ...x") && code.ends_with("y..."),
        "{code}"
    );
    // The caret stands under the `@`.
    let at = carets.find('^').unwrap();
    assert_eq!(code.get(at..at + 1), Some("@"), "{shown}");
    // A short line is shown whole, with no marks.
    let shown = body_err("a = x @ y\n").to_string();
    assert!(shown.contains("1 | a = x @ y\n"), "{shown}");
    assert!(!shown.contains("..."), "{shown}");
}
