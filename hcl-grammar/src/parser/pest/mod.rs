//! The pest route: the grammar (`hcl.pest`, the authority on what parses),
//! its entry points, and the lowering of its pairs ([`structure`],
//! [`expr`], [`template`]) through the shared builders of
//! [`super::lower`]. Its errors are put in words by [`error`].

mod error;
mod expr;
mod structure;
mod template;

use super::{check_len, prescan, Ctx, Source};
use crate::ast::{Body, Expr, Template};
use crate::error::Error;
use crate::span::Span;
use crate::{ParseOptions, Result};
use ::pest::iterators::Pair;
use ::pest::Parser as _;
use pest_derive::Parser;

#[derive(Parser)]
#[grammar = "hcl.pest"]
struct HclParser;

/// A pair of the grammar.
type P<'s> = Pair<'s, Rule>;

impl<'s> Ctx<'s, '_> {
    /// The byte span of a pair.
    #[inline]
    fn span(&self, p: &P<'s>) -> Span {
        let s = p.as_span();
        Span::at(self.base + s.start(), self.base + s.end())
    }
}

/// Parses `text[span]` with pest after the depth pre-scan; returns the
/// root pair, its positions relative to the span's start. Errors are
/// positioned in `text`.
fn run<'s>(rule: Rule, text: &'s str, span: Span, options: &ParseOptions) -> Result<P<'s>> {
    check_len(text, span, options)?;
    let piece = text.get(span.range()).unwrap_or_default();
    let shift = |e: Error| match span.start() {
        0 => e,
        by => e.shifted(by, text),
    };
    prescan::check_depth(rule, piece, options.max_depth).map_err(shift)?;
    match HclParser::parse(rule, piece) {
        Ok(mut pairs) => match pairs.next() {
            Some(p) => Ok(p),
            None => Err(Error::new("empty parse", span, text)),
        },
        Err(e) => Err(shift(error::from_pest(e, rule, piece))),
    }
}

/// The config file at `span` of `text` (the whole text for a file). A
/// span longer than [`ParseOptions::chunk_len`] is parsed in pieces cut
/// between top-level items (found by the depth pre-scan), so that pest's
/// token queue, which is some 20 to 200 bytes per input byte, only ever
/// holds one piece: memory then grows with the tree alone, and the time
/// per byte stays that of a small file. Any failure in a piece (a syntax
/// error, a lowering error) parses the whole span again in one piece, so
/// errors are exactly those of a whole parse; attributes repeated across
/// pieces are checked on the joined items, as the whole parse would.
pub(super) fn config_file<'i>(
    text: &str,
    span: Span,
    source: Source<'i>,
    options: &ParseOptions,
) -> Result<Body<'i>> {
    check_len(text, span, options)?;
    let piece = text.get(span.range()).unwrap_or_default();
    let splits = prescan::check_depth_and_cut(piece, options.max_depth, options.chunk_len.max(1))
        .map_err(|e| e.shifted(span.start(), text))?;
    if !splits.is_empty() {
        if let Some(body) = parse_pieces(text, span, source, options, &splits) {
            return Ok(body);
        }
    }
    let root = run(Rule::config_file, text, span, options)?;
    let mut ctx = Ctx::new(text, source, options);
    ctx.base = span.start();
    structure::config_file(&mut ctx, root)
}

/// The pieces of `text[span]` between `splits` (relative to the span),
/// parsed one by one and joined; `None` on any failure.
fn parse_pieces<'i>(
    text: &str,
    span: Span,
    source: Source<'i>,
    options: &ParseOptions,
    splits: &[usize],
) -> Option<Body<'i>> {
    let mut items = Vec::new();
    let mut start = span.start();
    let ends = splits.iter().map(|&s| s + span.start());
    for end in ends.chain(std::iter::once(span.end())) {
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
    crate::parser::lower::structure::check_duplicates(&ctx, &items).ok()?;
    Some(Body {
        items: items.into_boxed_slice(),
        span,
    })
}

/// The standalone expression at `span` of `text` (the whole text for a
/// file), with spans and error positions in `text`.
pub(super) fn expr_file<'i>(
    text: &str,
    span: Span,
    source: Source<'i>,
    options: &ParseOptions,
) -> Result<Expr<'i>> {
    lower_at(
        Rule::expr_file,
        text,
        span,
        source,
        options,
        expr::expr_file,
    )
}

/// The standalone template at `span` of `text`.
pub(super) fn template_file<'i>(
    text: &str,
    span: Span,
    source: Source<'i>,
    options: &ParseOptions,
) -> Result<Template<'i>> {
    lower_at(
        Rule::template_file,
        text,
        span,
        source,
        options,
        template::template_file,
    )
}

/// `text[span]` parsed as `rule` and lowered by `lower`.
fn lower_at<'i, T>(
    rule: Rule,
    text: &str,
    span: Span,
    source: Source<'i>,
    options: &ParseOptions,
    lower: impl FnOnce(&mut Ctx<'_, 'i>, P<'_>) -> Result<T>,
) -> Result<T> {
    let root = run(rule, text, span, options)?;
    let mut ctx = Ctx::new(text, source, options);
    ctx.base = span.start();
    lower(&mut ctx, root)
}
