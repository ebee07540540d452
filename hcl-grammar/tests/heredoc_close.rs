//! A heredoc's closing line may have any Unicode white space (not
//! newlines) around the marker, as the reference's scanner trims it: a
//! line `\fEOT` closes the heredoc. The expected values come from
//! `hcl-oracle body` (hashicorp/hcl 2.14.1); both routes must agree.

use hcl_grammar::__private::{parse_body_fast, parse_body_pest};
use hcl_grammar::{parse_body, ExprKind, ParseOptions, TemplatePart};

/// The heredoc's text (its single literal part) and the number of attributes.
fn heredoc_text(src: &str) -> (String, usize) {
    let options = ParseOptions::default();
    let body = parse_body(src, &options).unwrap_or_else(|e| panic!("{src:?}: {e}"));
    let pest = parse_body_pest(src, &options).unwrap_or_else(|e| panic!("{src:?}: {e}"));
    assert_eq!(body, pest, "{src:?}: the parse is the pest route's");
    if let Some(fast) = parse_body_fast(src, &options) {
        assert_eq!(fast, pest, "{src:?}: fast path and pest differ");
    }
    let Some(a) = body.attribute("a") else {
        panic!("{src:?}: no attribute a")
    };
    let ExprKind::Template(t) = &a.expr.kind else {
        panic!("{src:?}: not a heredoc: {:?}", a.expr.kind)
    };
    let text = t
        .template
        .parts
        .iter()
        .map(|p| match p {
            TemplatePart::Literal(l) => l.value.to_string(),
            other => panic!("{src:?}: not a literal: {other:?}"),
        })
        .collect();
    (text, body.attributes().count())
}

#[test]
fn unicode_blanks_around_the_closing_marker() {
    // hcl-oracle body: {"attributes":{"a":"hello\n","b":1},"blocks":[]}
    assert_eq!(
        heredoc_text("a = <<EOT\nhello\n\u{c}EOT\nb = 1\n"),
        ("hello\n".into(), 2)
    );
    // hcl-oracle body, for each of \v, U+00A0, U+2003, U+0085 before the
    // marker and U+00A0 after it: {"attributes":{"a":"hi\n","b":1},...}
    for blank in ["\u{b}", "\u{a0}", "\u{2003}", "\u{85}", ""] {
        let src = format!("a = <<EOT\nhi\n{blank}EOT\u{a0}\nb = 1\n");
        assert_eq!(heredoc_text(&src), ("hi\n".into(), 2), "{src:?}");
    }
    // hcl-oracle body: {"attributes":{"a":"hi\n"},"blocks":[]}
    assert_eq!(
        heredoc_text("a = <<-EOT\n  hi\n\u{c}EOT\n"),
        ("hi\n".into(), 1)
    );
    assert_eq!(
        heredoc_text("a = <<-EOT\n  hello\n \u{c}EOT\n"),
        ("hello\n".into(), 1)
    );
}
