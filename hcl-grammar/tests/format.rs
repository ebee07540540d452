//! The formatter and the token view, on small inputs, one rule each.
//!
//! Every expected output below is the reference formatter's
//! (`hcl-oracle fmt`, i.e. hashicorp/hcl 2.14.1 `hclwrite.Format` after a
//! successful `hclsyntax.ParseConfig`), copied byte for byte; the error
//! positions are the reference's first diagnostic's. The full suites are
//! in the conformance runner (`tests/conformance/fmt.rs`).

// Tests: a panic is the failure report.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use hcl_grammar::tokens::{lex, TokenKind as K};
use hcl_grammar::{format, FormatOptions};

/// `(name, input, the reference's output)`.
const CASES: &[(&str, &str, &str)] = &[
    (
        "align_attrs",
        "a=1\nlong_name=2\nbb = 3\n",
        "a         = 1\nlong_name = 2\nbb        = 3\n",
    ),
    (
        "align_broken_by_blank",
        "a = 1\nlong = 2\n\nb = 3\nxx = 4\n",
        "a    = 1\nlong = 2\n\nb  = 3\nxx = 4\n",
    ),
    (
        "align_nested_block",
        "b {\na = 1\nccc = \"x\"\n}\n",
        "b {\n  a   = 1\n  ccc = \"x\"\n}\n",
    ),
    (
        "blank_lines",
        "\n\na = 1\n\n\n\nb = 2\n\n",
        "\n\na = 1\n\n\n\nb = 2\n\n",
    ),
    (
        "bom",
        "\u{feff}a=1\n",
        "a = 1\n",
    ),
    (
        "close_two",
        "a = f({\nb = 1\n})\nc = 2\n",
        "a = f({\n  b = 1\n})\nc = 2\n",
    ),
    (
        "comment_block_closer",
        "b { # x\n  a = 1 # y\n} # z\n",
        "b {     # x\n  a = 1 # y\n}       # z\n",
    ),
    (
        "comment_own_line",
        "b {\n# c\n  a = 1\n    // d\n}\n",
        "b {\n  # c\n  a = 1\n  // d\n}\n",
    ),
    (
        "comments_trailing",
        "a = 1 # one\nlong_name = 2 // two\nc = 3 /* three */\n",
        "a         = 1 # one\nlong_name = 2 // two\nc         = 3 /* three */\n",
    ),
    (
        "crlf",
        "a=1\r\nb {\r\nc=2\r\n}\r\n",
        "a = 1\r\nb {\r\n  c = 2\r\n}\r\n",
    ),
    (
        "empty",
        "",
        "",
    ),
    (
        "for_exprs",
        "a = [for x in xs: x if x!=\"\"]\nb = {for k,v in m: k=>v...}\nc = [for x in [1]: x]\nd = [for x in -xs: x]\n",
        "a = [for x in xs : x if x != \"\"]\nb = { for k, v in m : k => v... }\nc = [for x in [1] : x]\nd = [for x in - xs : x]\n",
    ),
    (
        "heredoc",
        "a = <<EOT\n  keep  ${ x }\n    this\nEOT\nlong_name = 1\nb = <<-EOT\n    x\n    EOT\n",
        "a         = <<EOT\n  keep  ${x}\n    this\nEOT\nlong_name = 1\nb         = <<-EOT\n    x\n    EOT\n",
    ),
    (
        "interp_object",
        "a = \"${ {a=1} }\"\n",
        "a = \"${ { a = 1 } }\"\n",
    ),
    (
        "legacy_index",
        "a = b.0.c\nd = b . 1\n",
        "a = b.0.c\nd = b.1\n",
    ),
    (
        "list_of_objects",
        "a = [\n{\nx = 1\n},\n{\nyy = 2\n}\n]\n",
        "a = [\n  {\n    x = 1\n  },\n  {\n    yy = 2\n  }\n]\n",
    ),
    (
        "multiline_call",
        "a = f(\n1,\ng(\n2\n)\n)\n",
        "a = f(\n  1,\n  g(\n    2\n  )\n)\n",
    ),
    (
        "no_final_newline",
        "a = 1\nb=2",
        "a = 1\nb = 2",
    ),
    (
        "object_colons",
        "a = {\nx: 1,\nlong: 2\n}\n",
        "a = {\n  x : 1,\n  long : 2\n}\n",
    ),
    (
        "one_line_blocks",
        "b {}\nc { }\nd { a = 1 }\ne \"l1\" l2 {\n}\n",
        "b {}\nc {}\nd { a = 1 }\ne \"l1\" l2 {\n}\n",
    ),
    (
        "spacing_ops",
        "a = 1+2*3\nb = x==y&&!z\nc = -1\nd = a ? b : c\ne = f(1,2,3)\ng = [1,2,]\n",
        "a = 1 + 2 * 3\nb = x == y && !z\nc = -1\nd = a ? b : c\ne = f(1, 2, 3)\ng = [1, 2, ]\n",
    ),
    (
        "spacing_splat",
        "a = x[*].y\nb = x.*.y\nc = f(xs...)\nd = x[0]\n",
        "a = x[*].y\nb = x.*.y\nc = f(xs...)\nd = x[0]\n",
    ),
    (
        "tabs",
        "a\t=\t1\nb {\n\tc = \"\t\"\n}\n",
        "a = 1\nb {\n  c = \"\t\"\n}\n",
    ),
    (
        "template",
        "a = \"${ b }\"\nc = \"%{ if x }y%{ else }z%{ endif }\"\nd = \"${~ x ~}\"\ne = \"$${x} %%{y}\"\n",
        "a = \"${b}\"\nc = \"%{if x}y%{else}z%{endif}\"\nd = \"${~x~}\"\ne = \"$${x} %%{y}\"\n",
    ),
    (
        "trailing_spaces_eof",
        "a = 1\n   ",
        "a = 1\n   ",
    ),
    (
        "unicode_alignment",
        "x = 1\n\u{65e5}\u{672c} = 2\ne\u{301} = 3\n",
        "x  = 1\n\u{65e5}\u{672c} = 2\ne\u{301}  = 3\n",
    ),
];

#[test]
fn formats_like_the_reference() {
    for (name, src, expected) in CASES {
        let ours =
            format(src, &Default::default()).unwrap_or_else(|e| panic!("{name}: refused: {e}"));
        assert_eq!(&ours, expected, "{name}");
    }
}

#[test]
fn formatting_is_idempotent() {
    for (name, _, expected) in CASES {
        let again = format(expected, &Default::default())
            .unwrap_or_else(|e| panic!("{name}: refused: {e}"));
        assert_eq!(&again, expected, "{name}");
    }
}

#[test]
fn bytes_and_str_agree() {
    for (name, src, expected) in CASES {
        let ours =
            format(src.as_bytes(), &Default::default()).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(ours, expected.as_bytes(), "{name}");
    }
}

#[test]
fn invalid_utf8_in_a_comment_is_formatted() {
    // The reference accepts any bytes in comments; its output here is
    // `a  = 1 # \xff\xfe\nbb = 2 # x\n`.
    let src = b"a = 1 # \xff\xfe\nbb = 2 # x\n";
    let ours = format(src, &Default::default()).expect("formats");
    assert_eq!(ours, b"a  = 1 # \xff\xfe\nbb = 2 # x\n");
}

#[test]
fn syntax_errors_are_refused_with_their_position() {
    // (input, the reference's first error line and column)
    let cases = [
        ("a = \n", 1, 5),
        ("a = 1\nb = \n", 2, 5),
        ("a = \"x\ny\"\n", 1, 7),
        ("b {\n  a = 1\n", 1, 3),
        ("a = <<EOT\nx\nEOT", 3, 4),
    ];
    for (src, line, column) in cases {
        let err = format(src, &Default::default()).expect_err(src);
        assert_eq!((err.line(), err.column()), (line, column), "{src:?}: {err}");
        let err = format(src.as_bytes(), &Default::default()).expect_err(src);
        assert_eq!(err.line(), line, "{src:?}");
    }
}

#[test]
fn without_the_syntax_check_invalid_input_is_formatted_token_by_token() {
    let options = FormatOptions::default().with_check_syntax(false);
    assert!(format("b {\na=1\n", &Default::default()).is_err());
    // The rules still apply: indentation under the open brace, spaces
    // around `=`.
    assert_eq!(format("b {\na=1\n", &options).unwrap(), "b {\n  a = 1\n");
}

#[test]
fn only_whitespace_changes() {
    for (name, src, _) in CASES {
        let ours = format(src, &Default::default()).unwrap();
        let strip = |s: &str| -> String {
            s.chars()
                .filter(|c| !matches!(c, ' ' | '\t' | '\u{feff}'))
                .collect()
        };
        assert_eq!(strip(&ours), strip(src), "{name}");
    }
}

#[test]
fn tokens_cover_every_byte() {
    for (name, src, _) in CASES {
        let tokens = lex(src.as_bytes());
        let mut at = 0;
        for t in &tokens {
            assert_eq!(t.span.start(), at, "{name}: gap or overlap before {t:?}");
            assert!(t.span.end() > t.span.start(), "{name}: empty token {t:?}");
            at = t.span.end();
        }
        assert_eq!(at, src.len(), "{name}");
    }
}

fn kinds(src: &str) -> Vec<(K, &str)> {
    lex(src.as_bytes())
        .into_iter()
        .map(|t| (t.kind, &src[t.span.range()]))
        .collect()
}

#[test]
fn template_tokens_are_the_reference_scanners() {
    assert_eq!(
        kinds(r#""a${b}c%{~ if x ~}""#),
        [
            (K::OQuote, "\""),
            (K::QuotedLit, "a"),
            (K::TemplateInterp, "${"),
            (K::Ident, "b"),
            (K::TemplateSeqEnd, "}"),
            (K::QuotedLit, "c"),
            (K::TemplateControl, "%{~"),
            (K::Whitespace, " "),
            (K::Ident, "if"),
            (K::Whitespace, " "),
            (K::Ident, "x"),
            (K::Whitespace, " "),
            (K::TemplateSeqEnd, "~}"),
            (K::CQuote, "\""),
        ]
    );
    // A `}` closing a brace opened inside the interpolation is a brace.
    assert_eq!(
        kinds(r#""${ {a=1} }""#)
            .into_iter()
            .filter(|(k, _)| !k.is_trivia())
            .map(|(k, _)| k)
            .collect::<Vec<_>>(),
        [
            K::OQuote,
            K::TemplateInterp,
            K::OBrace,
            K::Ident,
            K::Equal,
            K::NumberLit,
            K::CBrace,
            K::TemplateSeqEnd,
            K::CQuote
        ]
    );
}

#[test]
fn heredoc_and_comment_tokens_are_the_reference_scanners() {
    assert_eq!(
        kinds("a = <<-EOT\n  x ${y}\n  EOT\n# c\n"),
        [
            (K::Ident, "a"),
            (K::Whitespace, " "),
            (K::Equal, "="),
            (K::Whitespace, " "),
            (K::OHeredoc, "<<-EOT\n"),
            (K::StringLit, "  x "),
            (K::TemplateInterp, "${"),
            (K::Ident, "y"),
            (K::TemplateSeqEnd, "}"),
            (K::StringLit, "\n"),
            (K::CHeredoc, "  EOT"),
            (K::Newline, "\n"),
            (K::Comment, "# c\n"),
        ]
    );
    assert_eq!(
        kinds("/* a */ // b\r\n"),
        [
            (K::Comment, "/* a */"),
            (K::Whitespace, " "),
            (K::Comment, "// b\r\n"),
        ]
    );
}

#[test]
fn operator_and_number_tokens_are_the_reference_scanners() {
    assert_eq!(
        kinds("1.5e+3 1. b-1 a...==>=!=&&||::=>"),
        [
            (K::NumberLit, "1.5e+3"),
            (K::Whitespace, " "),
            (K::NumberLit, "1"),
            (K::Dot, "."),
            (K::Whitespace, " "),
            (K::Ident, "b-1"),
            (K::Whitespace, " "),
            (K::Ident, "a"),
            (K::Ellipsis, "..."),
            (K::EqualOp, "=="),
            (K::GreaterThanEq, ">="),
            (K::NotEqual, "!="),
            (K::And, "&&"),
            (K::Or, "||"),
            (K::DoubleColon, "::"),
            (K::FatArrow, "=>"),
        ]
    );
}

#[test]
fn output_longer_than_the_limit_is_an_error_not_an_allocation() {
    // One long name, then many short attributes: aligning their `=` asks
    // for the long name's width in spaces on every line.
    let mut src = format!("o = {{\n{} = 1\n", "k".repeat(10_000));
    for _ in 0..10_000 {
        src.push_str("b = 1\n");
    }
    src.push_str("}\n");
    let options = FormatOptions::default().with_max_output_len(1_000_000);
    let err = format(&src, &options).unwrap_err();
    assert!(
        err.message().starts_with("formatted output too large"),
        "{err}"
    );
    // The error points at the token that passes the limit: line 1 is 6
    // bytes, every other line 10,007 (2 of indentation, 10,000 of name or
    // of `b` and spaces, `= 1\n`), so the 100th of them, line 101, passes
    // 1,000,000.
    assert_eq!(err.line(), 101);
    // Within the limit, the same shape formats.
    let roomy = FormatOptions::default().with_max_output_len(200_000_000);
    let out = format(&src, &roomy).unwrap();
    assert!(out.contains(&format!("\n  b{} = 1\n", " ".repeat(9_999))));
}

#[test]
fn unterminated_block_comments_stay_linear() {
    // Each `/*` without a `*/` after it falls back to `/` and `*`; the
    // search for `*/` is done once, not once per `/*`.
    let src = "/*".repeat(200_000);
    let options = FormatOptions::default().with_check_syntax(false);
    assert!(format(&src, &Default::default()).is_err());
    let out = format(&src, &options).unwrap();
    assert_eq!(out.matches('/').count(), 200_000);
}
