//! `ParseOptions::with_span`: a piece of a larger text, parsed alone, with
//! every span and error position in the larger text. The expected result
//! of each case is the parse of the piece on its own, moved: the same tree
//! with every span shifted by the piece's offset, or the same error
//! message at the same place in the piece, two lines further down.

#![allow(clippy::unwrap_used)]

use hcl_grammar::json::parse_json;
use hcl_grammar::{parse_body, parse_expr, parse_template, ParseOptions, Result, Span};
use std::fmt::Debug;

/// Text around the piece that is not HCL or JSON (an unclosed brace and
/// quote, and invalid UTF-8 in the byte cases): a parse that read it would
/// fail.
const BEFORE: &str = "}\"\n# ${ {\n";
const AFTER: &str = "\n\"{ [";

/// `format!("{tree:?}")` with every `a..b` span moved back by `by`.
fn unshift(debug: &str, by: usize) -> String {
    let mut out = String::new();
    let mut rest = debug;
    while let Some(i) = rest.find("..") {
        let (head, tail) = rest.split_at(i);
        let digits_before = head.len() - head.trim_end_matches(|c: char| c.is_ascii_digit()).len();
        let tail = &tail[2..];
        let digits_after = tail.len() - tail.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        if digits_before == 0 || digits_after == 0 {
            out.push_str(head);
            out.push_str("..");
            rest = tail;
            continue;
        }
        let (keep, start) = head.split_at(head.len() - digits_before);
        let (end, after) = tail.split_at(digits_after);
        let start: usize = start.parse().unwrap();
        let end: usize = end.parse().unwrap();
        out.push_str(keep);
        out.push_str(&format!("{}..{}", start - by, end - by));
        rest = after;
    }
    out.push_str(rest);
    out
}

/// `message` with every "line N" moved up by the two lines of `BEFORE`.
fn lines_up(message: &str) -> String {
    let mut out = String::new();
    let mut rest = message;
    while let Some(i) = rest.find("line ") {
        let (head, tail) = rest.split_at(i + 5);
        out.push_str(head);
        let n = tail.len() - tail.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        let (digits, after) = tail.split_at(n);
        match digits.parse::<usize>() {
            Ok(line) => out.push_str(&(line - 2).to_string()),
            Err(_) => out.push_str(digits),
        }
        rest = after;
    }
    out.push_str(rest);
    out
}

/// The piece parsed inside the larger text equals the piece parsed alone.
fn same<T: Debug>(piece: &str, alone: Result<T>, inside: Result<T>, what: &str) {
    let by = BEFORE.len();
    let piece = &piece[..piece.len().min(80)];
    match (alone, inside) {
        (Ok(a), Ok(b)) => assert_eq!(
            format!("{a:?}"),
            unshift(&format!("{b:?}"), by),
            "{what}: {piece:?}"
        ),
        (Err(a), Err(b)) => {
            assert_eq!(a.message(), lines_up(b.message()), "{what}: {piece:?}");
            assert_eq!(
                (b.span().start(), b.span().end()),
                (a.span().start() + by, a.span().end() + by),
                "{what}: {piece:?}"
            );
            // BEFORE is two lines: the piece starts a line.
            assert_eq!(
                (b.line(), b.column()),
                (a.line() + 2, a.column()),
                "{what}: {piece:?}"
            );
            assert_eq!(b.source_line(), a.source_line(), "{what}: {piece:?}");
        }
        (a, b) => panic!("{what}: {piece:?}: alone {a:?}, inside {b:?}"),
    }
}

fn spanned(piece: &str) -> (String, ParseOptions) {
    let text = format!("{BEFORE}{piece}{AFTER}");
    let span = Span::new(BEFORE.len(), BEFORE.len() + piece.len());
    (text, ParseOptions::default().with_span(span))
}

const PIECES: &[&str] = &[
    "a = 1\n",
    "a = 1",
    "service \"web\" {\n  port = 80 # the port\n  tags = [\"a\", \"b\"]\n}\n",
    "x = <<EOT\nhello ${name}\nEOT\n",
    "x = <<-EOT\n    indented %{ if a }yes%{ else }no%{ endif }\n  EOT\n",
    "/* lead */ a = { for k, v in m : k => v... if v != null }\n",
    "a = var.list[*].id\nb = a ? b : c\n",
    "${x}",
    "\"quoted ${var.name}\"",
    "[1, 2, 3]",
    "f(a, b...)",
    "a = [\n",
    "a = 1\na = 2\n",
    "b {\n",
    "x = \"unterminated",
    "x = <<EOT\nno end\n",
    "1 +",
    "%{ for x in y }${x}",
    "a = 1 b = 2",
    "",
    "   \n  # only a comment\n",
];

#[test]
fn every_mode_reads_the_piece_alone() {
    let plain = ParseOptions::default();
    for piece in PIECES {
        let (text, options) = spanned(piece);
        same(
            piece,
            parse_body(*piece, &plain),
            parse_body(&text, &options),
            "body",
        );
        same(
            piece,
            parse_expr(*piece, &plain),
            parse_expr(&text, &options),
            "expr",
        );
        same(
            piece,
            parse_template(*piece, &plain),
            parse_template(&text, &options),
            "template",
        );
        // Bytes, with invalid UTF-8 outside the span.
        let mut bytes = b"\xff".to_vec();
        bytes.extend_from_slice(text.as_bytes());
        bytes.push(0xfe);
        let span = options.span().unwrap();
        let options =
            ParseOptions::default().with_span(Span::new(span.start() + 1, span.end() + 1));
        let body = parse_body(&bytes, &options);
        let alone = parse_body(*piece, &plain);
        assert_eq!(body.is_ok(), alone.is_ok(), "body bytes: {piece:?}");
        if let (Ok(b), Ok(a)) = (&body, &alone) {
            assert_eq!(
                format!("{a:?}"),
                unshift(&format!("{b:?}"), BEFORE.len() + 1)
            );
        }
        let expr = parse_expr(&bytes, &options);
        assert_eq!(
            expr.is_ok(),
            parse_expr(*piece, &plain).is_ok(),
            "expr bytes: {piece:?}"
        );
        let template = parse_template(&bytes, &options);
        assert_eq!(
            template.is_ok(),
            parse_template(*piece, &plain).is_ok(),
            "template bytes: {piece:?}"
        );
    }
}

#[test]
fn large_pieces_are_cut_as_whole_files_are() {
    // Longer than the chunk length: the pest route parses it in pieces.
    let mut piece = String::new();
    for i in 0..2000 {
        piece.push_str(&format!("block_{i} \"l\" {{\n  a = {i}\n}}\n"));
    }
    let (text, options) = spanned(&piece);
    let plain = ParseOptions::default();
    same(
        &piece,
        parse_body(piece.as_str(), &plain),
        parse_body(&text, &options),
        "large body",
    );
    same(
        &piece,
        hcl_grammar::__private::parse_body_pest(&piece, &plain),
        hcl_grammar::__private::parse_body_pest(&text, &options),
        "large body, pest route",
    );
    // A repeated attribute in the last piece, as the whole-file parse
    // reports it.
    piece.push_str("block_0 = 1\nblock_0 = 2\n");
    let (text, options) = spanned(&piece);
    same(
        &piece,
        parse_body(piece.as_str(), &plain),
        parse_body(&text, &options),
        "repeat",
    );
}

#[test]
fn json_reads_the_piece_alone() {
    let plain = ParseOptions::default();
    for piece in [
        r#"{"a": 1, "b": [true, null, "x${y}"]}"#,
        r#"{"a": }"#,
        "[1, 2",
        "",
        "\"\\u00e9\"",
        "1 2",
    ] {
        let (text, options) = spanned(piece);
        same(
            piece,
            parse_json(piece, &plain),
            parse_json(&text, &options),
            "json",
        );
    }
}

#[test]
fn limits_apply_to_the_span() {
    let text = format!("{BEFORE}[1, 2, 3, 4]{AFTER}");
    let span = Span::new(BEFORE.len(), BEFORE.len() + 12);
    let options = ParseOptions::default()
        .with_span(span)
        .with_max_input_len(12);
    assert!(parse_expr(&text, &options).is_ok());
    let options = options.with_max_input_len(8);
    let err = parse_expr(&text, &options).unwrap_err();
    assert!(
        err.message().starts_with("input too large"),
        "{}",
        err.message()
    );
    assert_eq!(err.span().start(), BEFORE.len() + 8);
    assert_eq!((err.line(), err.column()), (3, 9));

    // The nesting limit, found by the pre-scan of the piece.
    let piece = "[[[[1]]]]";
    let (text, options) = spanned(piece);
    let shallow = ParseOptions::default().with_max_depth(2);
    let err = parse_expr(&text, &options.with_max_depth(2));
    assert!(err
        .as_ref()
        .unwrap_err()
        .message()
        .starts_with("nesting too deep"));
    same(piece, parse_expr(piece, &shallow), err, "depth");
}

#[test]
fn a_span_outside_the_input_is_an_error() {
    for span in [Span::new(0, 100), Span::new(5, 3), Span::new(1, 2)] {
        let options = ParseOptions::default().with_span(span);
        let err = parse_expr("é = 1", &options).unwrap_err();
        assert!(
            err.message().starts_with("the span to parse"),
            "{}",
            err.message()
        );
        assert!(parse_body("é = 1", &options).is_err());
        assert!(parse_template("é = 1", &options).is_err());
        assert!(parse_json("\"é\"", &options).is_err());
    }
}

#[test]
fn invalid_utf8_inside_the_span_is_still_an_error() {
    // In a comment: accepted, as in a whole file.
    let mut bytes = b"\xff\n".to_vec();
    let start = bytes.len();
    let piece: &[u8] = b"a = 1 # \xff\nb = \"x\xfe\"\n";
    bytes.extend_from_slice(piece);
    let options = ParseOptions::default().with_span(Span::new(start, start + 10));
    assert!(parse_body(&bytes, &options).is_ok());
    // In a string: the error of the piece alone, one line down.
    let options = ParseOptions::default().with_span(Span::new(start, bytes.len()));
    let plain = ParseOptions::default();
    let alone = parse_body(piece, &plain).unwrap_err();
    let err = parse_body(&bytes, &options).unwrap_err();
    assert!(
        err.message().starts_with("invalid UTF-8"),
        "{}",
        err.message()
    );
    assert_eq!(err.message(), alone.message());
    assert_eq!(err.span().start(), alone.span().start() + start);
    assert_eq!(
        (err.line(), err.column()),
        (alone.line() + 1, alone.column())
    );
    assert_eq!((err.line(), err.column()), (3, 7));
    let alone = parse_expr(piece, &plain).unwrap_err();
    let err = parse_expr(&bytes, &options).unwrap_err();
    assert_eq!(err.message(), alone.message());
    assert_eq!(err.span().start(), alone.span().start() + start);
    assert_eq!(err.span().start(), start + 8);
}
