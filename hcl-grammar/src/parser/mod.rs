//! The parsers of the native syntax, and the choice between them: the
//! hand-written fast path ([`fast`]), tried first, and the pest route
//! ([`pest`]: the grammar `hcl.pest`, the grammar's authority and the
//! source of every error), which runs wherever the fast path is not sure.
//! Both build the tree of [`crate::ast`] with the builders of [`lower`];
//! [`prescan`] walks the text first (nesting limit, pieces, comments);
//! byte input is checked here. Nothing from pest leaves this module.

mod fast;
mod lower;
mod pest;
mod prescan;

use crate::ast::{Body, Expr, Template};
use crate::error::Error;
use crate::span::Span;
use crate::{ParseOptions, Result};

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
    /// The offset in `text` of the piece pest parsed (see `pest::config_file`):
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

pub(crate) fn parse_body<'i>(src: &'i str, options: &ParseOptions) -> Result<Body<'i>> {
    let span = options.region(src)?;
    check_len(src, span, options)?;
    if let Some(body) = fast::parse_body(src, span, options) {
        return Ok(body);
    }
    pest::config_file(src, span, Source::Str(src), options)
}

/// [`parse_body`] by the pest route only.
pub(crate) fn parse_body_pest<'i>(src: &'i str, options: &ParseOptions) -> Result<Body<'i>> {
    let span = options.region(src)?;
    pest::config_file(src, span, Source::Str(src), options)
}

/// [`parse_body`] by the fast path only: `None` where it is not sure.
pub(crate) fn parse_body_fast<'i>(src: &'i str, options: &ParseOptions) -> Option<Body<'i>> {
    let span = options.region(src).ok()?;
    check_len(src, span, options).ok()?;
    fast::parse_body(src, span, options)
}

pub(crate) fn parse_expr<'i>(src: &'i str, options: &ParseOptions) -> Result<Expr<'i>> {
    if let Some(e) = parse_expr_fast(src, options) {
        return Ok(e);
    }
    parse_expr_pest(src, options)
}

/// [`parse_expr`] by the fast path only: `None` where it is not sure.
pub(crate) fn parse_expr_fast<'i>(src: &'i str, options: &ParseOptions) -> Option<Expr<'i>> {
    let span = options.region(src).ok()?;
    check_len(src, span, options).ok()?;
    fast::parse_expr(src, span, options)
}

/// [`parse_expr`] by the pest route only.
pub(crate) fn parse_expr_pest<'i>(src: &'i str, options: &ParseOptions) -> Result<Expr<'i>> {
    let span = options.region(src)?;
    pest::expr_file(src, span, Source::Str(src), options)
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
    let span = options.region(src).ok()?;
    check_len(src, span, options).ok()?;
    fast::parse_template(src, span, options)
}

/// [`parse_template`] by the pest route only.
pub(crate) fn parse_template_pest<'i>(
    src: &'i str,
    options: &ParseOptions,
) -> Result<Template<'i>> {
    let span = options.region(src)?;
    pest::template_file(src, span, Source::Str(src), options)
}

/// Byte input. Valid UTF-8 goes the string way. Otherwise, as the
/// reference does, invalid bytes are accepted inside comments only: a
/// same-length copy with each invalid byte replaced by a space is parsed
/// (by the pest route, the tree borrowing from the bytes), and every
/// invalid byte in the parsed span must lie inside a comment of that
/// parse. Bytes outside the span are not read.
pub(crate) fn parse_body_bytes<'i>(src: &'i [u8], options: &ParseOptions) -> Result<Body<'i>> {
    if let Ok(s) = std::str::from_utf8(src) {
        return parse_body(s, options);
    }
    too_large_bytes(src, options)?;
    let (text, bad) = sanitize(src);
    let span = options.region(&text)?;
    check_len(&text, span, options)?;
    let body = pest::config_file(&text, span, Source::Bytes(src), options)?;
    let comments = prescan::comment_ranges(text.get(span.range()).unwrap_or_default());
    for &b in bad.iter().filter(|&&b| span.start() <= b && b < span.end()) {
        let inside = comments
            .iter()
            .any(|r| r.start + span.start() <= b && b < r.end + span.start());
        if !inside {
            return Err(invalid_utf8(&text, b));
        }
    }
    Ok(body)
}

/// Byte input for an expression or template: invalid UTF-8 in the parsed
/// span is an error at its first byte; outside the span it is not read.
fn bytes_as<'i, T>(
    src: &'i [u8],
    options: &ParseOptions,
    on_str: impl FnOnce(&'i str, &ParseOptions) -> Result<T>,
    on_bytes: impl FnOnce(&str, Span, Source<'i>) -> Result<T>,
) -> Result<T> {
    if let Ok(s) = std::str::from_utf8(src) {
        return on_str(s, options);
    }
    too_large_bytes(src, options)?;
    let (text, bad) = sanitize(src);
    let span = options.region(&text)?;
    check_len(&text, span, options)?;
    match bad.iter().find(|&&b| span.start() <= b && b < span.end()) {
        Some(&b) => Err(invalid_utf8(&text, b)),
        None => on_bytes(&text, span, Source::Bytes(src)),
    }
}

pub(crate) fn parse_expr_bytes<'i>(src: &'i [u8], options: &ParseOptions) -> Result<Expr<'i>> {
    bytes_as(src, options, parse_expr, |text, span, source| {
        pest::expr_file(text, span, source, options)
    })
}

pub(crate) fn parse_template_bytes<'i>(
    src: &'i [u8],
    options: &ParseOptions,
) -> Result<Template<'i>> {
    bytes_as(src, options, parse_template, |text, span, source| {
        pest::template_file(text, span, source, options)
    })
}

/// The input-size limit, on the parsed span of `text`: an error at the
/// first byte past it.
#[inline]
fn check_len(text: &str, span: Span, options: &ParseOptions) -> Result<()> {
    if span.len() <= options.max_input_len {
        return Ok(());
    }
    let piece = text.get(span.range()).unwrap_or_default();
    Err(Error::too_large(piece.as_bytes(), options.max_input_len).shifted(span.start(), text))
}

/// The size limit on bytes that are not UTF-8, before they are copied
/// (with a span, the copy is of the whole input the caller holds).
fn too_large_bytes(src: &[u8], options: &ParseOptions) -> Result<()> {
    if options.span.is_none() && src.len() > options.max_input_len {
        return Err(Error::too_large(src, options.max_input_len));
    }
    Ok(())
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
