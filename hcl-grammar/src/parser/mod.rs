//! The parsers: the hand-written fast path ([`fast`]), tried first, and
//! the pest parser with the lowering of its pairs into the tree of
//! [`crate::ast`], which runs wherever the fast path is not sure (and is
//! the grammar's authority and the source of every error). Nothing from
//! pest leaves this module.

mod error;
mod expr;
mod fast;
mod number;
mod prescan;
mod string;
mod structure;
mod template;

use crate::ast::{Body, Expr, Template};
use crate::error::Error;
use crate::span::Span;
use crate::{ParseOptions, Result};
use pest::iterators::Pair;
use pest::Parser as _;
use pest_derive::Parser;

#[derive(Parser)]
#[grammar = "hcl.pest"]
struct HclParser;

type P<'s> = Pair<'s, Rule>;

/// Where the tree borrows its text from.
#[derive(Clone, Copy)]
enum Source<'i> {
    /// A string: the one pest parsed.
    Str(&'i str),
    /// Bytes with invalid UTF-8 inside comments only: pest parsed a
    /// sanitised copy of the same length; every span the tree borrows lies
    /// in a valid region.
    Bytes(&'i [u8]),
}

/// The lowering context: the text pest parsed (for errors) and the source
/// the tree borrows from.
pub(crate) struct Ctx<'s, 'i> {
    /// The text pest parsed (same length and offsets as the source).
    text: &'s str,
    source: Source<'i>,
    /// Current depth of the tree being built.
    depth: usize,
    max_depth: usize,
    /// The offset in `text` of the piece pest parsed (see [`parse_config`]):
    /// pest's positions are relative to it.
    base: usize,
    /// Parsing one piece of a file: its top-level attributes are checked
    /// for repeats on the joined items instead.
    piece: bool,
}

impl<'s, 'i> Ctx<'s, 'i> {
    fn new(text: &'s str, source: Source<'i>, options: &ParseOptions) -> Self {
        Ctx {
            text,
            source,
            depth: 0,
            max_depth: options.max_depth,
            base: 0,
            piece: false,
        }
    }

    /// The byte span of a pair.
    #[inline]
    fn span(&self, p: &P<'s>) -> Span {
        let s = p.as_span();
        Span::new(self.base + s.start(), self.base + s.end())
    }

    /// The source text of `span`, borrowed from the input.
    #[inline]
    fn str(&self, span: Span) -> &'i str {
        match self.source {
            Source::Str(s) => s.get(span.range()).unwrap_or_default(),
            Source::Bytes(b) => b
                .get(span.range())
                .and_then(|b| std::str::from_utf8(b).ok())
                .unwrap_or_default(),
        }
    }

    /// A syntax error at `span`.
    #[cold]
    fn err(&self, message: impl Into<String>, span: Span) -> Error {
        Error::new(message, span, self.text)
    }

    /// Enters `n` levels of the tree; fails past `max_depth`.
    #[inline]
    fn enter(&mut self, n: usize, span: Span) -> Result<()> {
        self.depth = self.depth.saturating_add(n);
        if self.depth > self.max_depth {
            return Err(self.err(
                format!(
                    "nesting too deep: the syntax tree may be at most {} levels deep",
                    self.max_depth
                ),
                span,
            ));
        }
        Ok(())
    }

    #[inline]
    fn leave(&mut self, n: usize) {
        self.depth = self.depth.saturating_sub(n);
    }
}

/// Parses with pest after the depth pre-scan; returns the root pair.
fn run<'s>(rule: Rule, text: &'s str, options: &ParseOptions) -> Result<P<'s>> {
    check_len(text.as_bytes(), options)?;
    prescan::check_depth(rule, text, options.max_depth)?;
    match HclParser::parse(rule, text) {
        Ok(mut pairs) => match pairs.next() {
            Some(p) => Ok(p),
            None => Err(Error::new("empty parse", Span::new(0, 0), text)),
        },
        Err(e) => Err(error::from_pest(e, rule, text)),
    }
}

pub(crate) fn parse_body<'i>(src: &'i str, options: &ParseOptions) -> Result<Body<'i>> {
    check_len(src.as_bytes(), options)?;
    if let Some(body) = fast::parse_body(src, options) {
        return Ok(body);
    }
    parse_config(src, Source::Str(src), options)
}

/// [`parse_body`] by the pest route only.
pub(crate) fn parse_body_pest<'i>(src: &'i str, options: &ParseOptions) -> Result<Body<'i>> {
    parse_config(src, Source::Str(src), options)
}

/// [`parse_body`] by the fast path only: `None` where it is not sure.
pub(crate) fn parse_body_fast<'i>(src: &'i str, options: &ParseOptions) -> Option<Body<'i>> {
    check_len(src.as_bytes(), options).ok()?;
    fast::parse_body(src, options)
}

/// A config file. A file longer than [`ParseOptions::chunk_len`] is parsed
/// in pieces cut between top-level items (found by the depth pre-scan), so
/// that pest's token queue, which is some 20 to 200 bytes per input byte,
/// only ever holds one piece: memory then grows with the tree alone, and
/// the time per byte stays that of a small file. Any failure in a piece
/// (a syntax error, a lowering error) parses the
/// whole file again in one piece, so errors are exactly those of a
/// whole-file parse; attributes repeated across pieces are checked on the
/// joined items, as the whole-file parse would.
fn parse_config<'i>(text: &str, source: Source<'i>, options: &ParseOptions) -> Result<Body<'i>> {
    check_len(text.as_bytes(), options)?;
    let splits = prescan::check_depth_and_cut(text, options.max_depth, options.chunk_len.max(1))?;
    if !splits.is_empty() {
        if let Some(body) = parse_pieces(text, source, options, &splits) {
            return Ok(body);
        }
    }
    let root = match HclParser::parse(Rule::config_file, text) {
        Ok(mut pairs) => match pairs.next() {
            Some(p) => p,
            None => return Err(Error::new("empty parse", Span::new(0, 0), text)),
        },
        Err(e) => return Err(error::from_pest(e, Rule::config_file, text)),
    };
    let mut ctx = Ctx::new(text, source, options);
    structure::config_file(&mut ctx, root)
}

/// The pieces of `text` between `splits`, parsed one by one and joined;
/// `None` on any failure.
fn parse_pieces<'i>(
    text: &str,
    source: Source<'i>,
    options: &ParseOptions,
    splits: &[usize],
) -> Option<Body<'i>> {
    let mut items = Vec::new();
    let mut start = 0;
    for end in splits.iter().copied().chain(std::iter::once(text.len())) {
        let piece = text.get(start..end)?;
        let root = HclParser::parse(Rule::config_file, piece).ok()?.next()?;
        let mut ctx = Ctx::new(text, source, options);
        ctx.base = start;
        ctx.piece = true;
        let body = structure::config_file(&mut ctx, root).ok()?;
        items.extend(body.items);
        start = end;
    }
    let ctx = Ctx::new(text, source, options);
    structure::check_duplicates(&ctx, &items).ok()?;
    Some(Body {
        items,
        span: Span::new(0, text.len()),
    })
}

pub(crate) fn parse_expr<'i>(src: &'i str, options: &ParseOptions) -> Result<Expr<'i>> {
    if let Some(e) = parse_expr_fast(src, options) {
        return Ok(e);
    }
    parse_expr_pest(src, options)
}

/// [`parse_expr`] by the fast path only: `None` where it is not sure.
pub(crate) fn parse_expr_fast<'i>(src: &'i str, options: &ParseOptions) -> Option<Expr<'i>> {
    check_len(src.as_bytes(), options).ok()?;
    fast::parse_expr_at(src, Span::new(0, src.len()), options)
}

/// [`parse_expr`] by the pest route only.
pub(crate) fn parse_expr_pest<'i>(src: &'i str, options: &ParseOptions) -> Result<Expr<'i>> {
    let root = run(Rule::expr_file, src, options)?;
    let mut ctx = Ctx::new(src, Source::Str(src), options);
    expr::expr_file(&mut ctx, root)
}

/// The expression at `span` of `text`, parsed alone, with spans (and
/// error positions) in `text`: for the JSON syntax, whose string values
/// are HCL templates.
pub(crate) fn parse_expr_at<'i>(
    text: &'i str,
    span: Span,
    options: &ParseOptions,
) -> Result<Expr<'i>> {
    if let Some(e) = parse_expr_at_fast(text, span, options) {
        return Ok(e);
    }
    parse_expr_at_pest(text, span, options)
}

/// [`parse_expr_at`] by the fast path only: `None` where it is not sure.
pub(crate) fn parse_expr_at_fast<'i>(
    text: &'i str,
    span: Span,
    options: &ParseOptions,
) -> Option<Expr<'i>> {
    let piece = text.get(span.range())?;
    check_len(piece.as_bytes(), options).ok()?;
    fast::parse_expr_at(text, span, options)
}

/// [`parse_expr_at`] by the pest route only.
pub(crate) fn parse_expr_at_pest<'i>(
    text: &'i str,
    span: Span,
    options: &ParseOptions,
) -> Result<Expr<'i>> {
    let Some(piece) = text.get(span.range()) else {
        return Err(Error::new("expression out of range", span, text));
    };
    let root = match run(Rule::expr_file, piece, options) {
        Ok(root) => root,
        Err(e) => {
            let at = Span::new(e.span().start + span.start, e.span().end + span.start);
            return Err(Error::new(e.message(), at, text));
        }
    };
    let mut ctx = Ctx::new(text, Source::Str(text), options);
    ctx.base = span.start;
    expr::expr_file(&mut ctx, root)
}

pub(crate) fn parse_template<'i>(src: &'i str, options: &ParseOptions) -> Result<Template<'i>> {
    if let Some(t) = parse_template_fast(src, options) {
        return Ok(t);
    }
    parse_template_pest(src, options)
}

/// [`parse_template`] by the fast path only: `None` where it is not sure.
pub(crate) fn parse_template_fast<'i>(
    src: &'i str,
    options: &ParseOptions,
) -> Option<Template<'i>> {
    check_len(src.as_bytes(), options).ok()?;
    fast::parse_template(src, options)
}

/// [`parse_template`] by the pest route only.
pub(crate) fn parse_template_pest<'i>(
    src: &'i str,
    options: &ParseOptions,
) -> Result<Template<'i>> {
    let root = run(Rule::template_file, src, options)?;
    let mut ctx = Ctx::new(src, Source::Str(src), options);
    template::template_file(&mut ctx, root)
}

/// Byte input. Valid UTF-8 goes the string way. Otherwise, as the
/// reference does, invalid bytes are accepted inside comments only: a
/// same-length copy with each invalid byte replaced by a space is parsed,
/// and every invalid byte must lie inside a comment of that parse.
pub(crate) fn parse_body_bytes<'i>(src: &'i [u8], options: &ParseOptions) -> Result<Body<'i>> {
    check_len(src, options)?;
    match std::str::from_utf8(src) {
        Ok(s) => parse_body(s, options),
        Err(_) => {
            let (text, bad) = sanitize(src);
            let body = parse_config(&text, Source::Bytes(src), options)?;
            let comments = prescan::comment_ranges(&text);
            for &b in &bad {
                let inside = comments.iter().any(|r| r.start <= b && b < r.end);
                if !inside {
                    return Err(invalid_utf8(&text, b));
                }
            }
            Ok(body)
        }
    }
}

pub(crate) fn parse_expr_bytes<'i>(src: &'i [u8], options: &ParseOptions) -> Result<Expr<'i>> {
    check_len(src, options)?;
    match std::str::from_utf8(src) {
        Ok(s) => parse_expr(s, options),
        Err(e) => {
            let (text, _) = sanitize(src);
            Err(invalid_utf8(&text, e.valid_up_to()))
        }
    }
}

pub(crate) fn parse_template_bytes<'i>(
    src: &'i [u8],
    options: &ParseOptions,
) -> Result<Template<'i>> {
    check_len(src, options)?;
    match std::str::from_utf8(src) {
        Ok(s) => parse_template(s, options),
        Err(e) => {
            let (text, _) = sanitize(src);
            Err(invalid_utf8(&text, e.valid_up_to()))
        }
    }
}

/// The input-size limit: an error at the first byte past it.
#[inline]
fn check_len(src: &[u8], options: &ParseOptions) -> Result<()> {
    if src.len() <= options.max_input_len {
        return Ok(());
    }
    Err(Error::too_large(src, options.max_input_len))
}

#[cold]
fn invalid_utf8(text: &str, at: usize) -> Error {
    Error::new(
        "invalid UTF-8: the input must be UTF-8 text",
        Span::new(at, at.saturating_add(1)),
        text,
    )
}

/// A same-length UTF-8 copy of `src` with every byte of an invalid
/// sequence replaced by a space, and the offsets of those bytes.
fn sanitize(src: &[u8]) -> (String, Vec<usize>) {
    let mut out = String::with_capacity(src.len());
    let mut bad = Vec::new();
    let mut rest = src;
    let mut offset = 0;
    loop {
        match std::str::from_utf8(rest) {
            Ok(s) => {
                out.push_str(s);
                break;
            }
            Err(e) => {
                let good = e.valid_up_to();
                let (valid, after) = rest.split_at(good);
                out.push_str(std::str::from_utf8(valid).unwrap_or_default());
                let n = e.error_len().unwrap_or(after.len()).max(1);
                for i in 0..n {
                    out.push(' ');
                    bad.push(offset + good + i);
                }
                offset += good + n;
                rest = after.get(n..).unwrap_or_default();
            }
        }
    }
    (out, bad)
}
