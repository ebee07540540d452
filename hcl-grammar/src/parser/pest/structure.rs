//! The pest route's structural language: bodies, attributes, blocks.

use super::{expr, template, Rule, P};
use crate::ast::{Attribute, Block, BlockLabel, Body, Ident, StrLit, Structure};
use crate::parser::lower::structure::{check_duplicates, check_ident};
use crate::parser::Ctx;
use crate::span::Span;
use crate::Result;
use std::borrow::Cow;

/// `config_file`: the whole input is the body's span.
pub(super) fn config_file<'i>(ctx: &mut Ctx<'_, 'i>, root: P<'_>) -> Result<Body<'i>> {
    let span = ctx.span(&root);
    let mut body = Body {
        items: Box::default(),
        span,
    };
    if let Some(b) = root.into_inner().find(|p| p.as_rule() == Rule::body) {
        // A piece of a file: repeated attributes are checked once, on the
        // joined items (see `parse_pieces`).
        body.items = if ctx.piece {
            collect(ctx, b)?
        } else {
            items(ctx, b)?
        }
        .into_boxed_slice();
    }
    Ok(body)
}

/// The attributes and blocks of a `body` or `block_body` pair, with
/// repeated attribute names rejected.
fn items<'i>(ctx: &mut Ctx<'_, 'i>, pair: P<'_>) -> Result<Vec<Structure<'i>>> {
    let items = collect(ctx, pair)?;
    check_duplicates(ctx, &items)?;
    Ok(items)
}

/// The attributes and blocks of a body pair, unchecked.
fn collect<'i>(ctx: &mut Ctx<'_, 'i>, pair: P<'_>) -> Result<Vec<Structure<'i>>> {
    let mut items = Vec::new();
    for p in pair.into_inner() {
        match p.as_rule() {
            Rule::attribute => items.push(Structure::Attribute(attribute(ctx, p)?)),
            Rule::block => items.push(Structure::Block(Box::new(block(ctx, p)?))),
            _ => {}
        }
    }
    Ok(items)
}

/// `attribute`: identifier, expression.
pub(super) fn attribute<'i>(ctx: &mut Ctx<'_, 'i>, pair: P<'_>) -> Result<Attribute<'i>> {
    let span = ctx.span(&pair);
    let mut inner = pair.into_inner();
    let name = match inner.next() {
        Some(p) => ident(ctx, &p)?,
        None => return Err(ctx.err("expected an attribute name", span)),
    };
    let expr = match inner.next() {
        Some(p) => expr::expression(ctx, p)?,
        None => return Err(ctx.err("expected an expression after `=`", span)),
    };
    Ok(Attribute {
        span: Span::at(name.span.start(), expr.span.end()),
        name,
        expr,
    })
}

/// `block`: type, labels, `{`, body, `}`.
fn block<'i>(ctx: &mut Ctx<'_, 'i>, pair: P<'_>) -> Result<Block<'i>> {
    let span = ctx.span(&pair);
    ctx.enter(1, span)?;
    let mut ident_ = None;
    let mut labels = Vec::new();
    let mut open_brace = Span::default();
    let mut close_brace = Span::default();
    let mut body_pair = None;
    for p in pair.into_inner() {
        match p.as_rule() {
            Rule::identifier if ident_.is_none() => ident_ = Some(ident(ctx, &p)?),
            Rule::identifier => labels.push(BlockLabel::Ident(ident(ctx, &p)?)),
            Rule::simple_string => {
                let s = ctx.span(&p);
                let inner = Span::at(s.start() + 1, s.end().saturating_sub(1));
                labels.push(BlockLabel::String(StrLit {
                    // Labels are not normalized (as in the reference).
                    value: Cow::Borrowed(ctx.str(inner)),
                    span: s,
                }));
            }
            Rule::quoted_template => labels.push(BlockLabel::String(template::string_lit(ctx, p)?)),
            Rule::block_open => open_brace = ctx.span(&p),
            Rule::block_body => body_pair = Some(p),
            Rule::block_close => close_brace = ctx.span(&p),
            _ => {}
        }
    }
    let ident_ = match ident_ {
        Some(i) => i,
        None => return Err(ctx.err("expected a block type", span)),
    };
    let items = match body_pair {
        Some(b) => items(ctx, b)?,
        None => Vec::new(),
    };
    ctx.leave(1);
    Ok(Block {
        ident: ident_,
        labels: labels.into_boxed_slice(),
        body: Body {
            items: items.into_boxed_slice(),
            span: Span::at(open_brace.end(), close_brace.start()),
        },
        open_brace,
        close_brace,
        span,
    })
}

/// An `identifier` pair, checked against UAX #31 when it is not ASCII.
pub(super) fn ident<'i>(ctx: &Ctx<'_, 'i>, p: &P<'_>) -> Result<Ident<'i>> {
    let span = ctx.span(p);
    let name = ctx.str(span);
    check_ident(ctx, name, span)?;
    Ok(Ident { name, span })
}
