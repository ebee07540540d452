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

/// Parses with pest after the depth pre-scan; returns the root pair.
fn run<'s>(rule: Rule, text: &'s str, options: &ParseOptions) -> Result<P<'s>> {
    check_len(text.as_bytes(), options)?;
    prescan::check_depth(rule, text, options.max_depth)?;
    match HclParser::parse(rule, text) {
        Ok(mut pairs) => match pairs.next() {
            Some(p) => Ok(p),
            None => Err(Error::new("empty parse", Span::at(0, 0), text)),
        },
        Err(e) => Err(error::from_pest(e, rule, text)),
    }
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
pub(super) fn config_file<'i>(
    text: &str,
    source: Source<'i>,
    options: &ParseOptions,
) -> Result<Body<'i>> {
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
            None => return Err(Error::new("empty parse", Span::at(0, 0), text)),
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
    crate::parser::lower::structure::check_duplicates(&ctx, &items).ok()?;
    Some(Body {
        items: items.into_boxed_slice(),
        span: Span::at(0, text.len()),
    })
}

/// The standalone expression at `span` of `text` (the whole text for a
/// file), with spans and error positions in `text`.
pub(super) fn expr_file<'i>(text: &'i str, span: Span, options: &ParseOptions) -> Result<Expr<'i>> {
    let Some(piece) = text.get(span.range()) else {
        return Err(Error::new("expression out of range", span, text));
    };
    let root = match run(Rule::expr_file, piece, options) {
        Ok(root) => root,
        Err(e) if span.start() == 0 => return Err(e),
        Err(e) => {
            let at = Span::at(
                e.span().start() + span.start(),
                e.span().end() + span.start(),
            );
            return Err(Error::new(e.message(), at, text));
        }
    };
    let mut ctx = Ctx::new(text, Source::Str(text), options);
    ctx.base = span.start();
    expr::expr_file(&mut ctx, root)
}

/// A standalone template.
pub(super) fn template_file<'i>(src: &'i str, options: &ParseOptions) -> Result<Template<'i>> {
    let root = run(Rule::template_file, src, options)?;
    let mut ctx = Ctx::new(src, Source::Str(src), options);
    template::template_file(&mut ctx, root)
}
