//! Lowering of the structural language: bodies, attributes, blocks.

use super::{expr, template, Ctx, Rule, P};
use crate::ast::{Attribute, Block, BlockLabel, Body, Ident, StrLit, Structure};
use crate::span::Span;
use crate::Result;
use std::borrow::Cow;
use std::collections::HashSet;

/// `config_file`: the whole input is the body's span.
pub(super) fn config_file<'i>(ctx: &mut Ctx<'_, 'i>, root: P<'_>) -> Result<Body<'i>> {
    let span = ctx.span(&root);
    let mut body = Body {
        items: Vec::new(),
        span,
    };
    if let Some(b) = root.into_inner().find(|p| p.as_rule() == Rule::body) {
        // A piece of a file: repeated attributes are checked once, on the
        // joined items (see `parse_pieces`).
        body.items = if ctx.piece {
            collect(ctx, b)?
        } else {
            items(ctx, b)?
        };
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
            Rule::block => items.push(Structure::Block(block(ctx, p)?)),
            _ => {}
        }
    }
    Ok(items)
}

/// "Attribute redefined": each attribute name at most once per body.
pub(super) fn check_duplicates(ctx: &Ctx<'_, '_>, items: &[Structure<'_>]) -> Result<()> {
    let attrs = || {
        items.iter().filter_map(|s| match s {
            Structure::Attribute(a) => Some(a),
            Structure::Block(_) => None,
        })
    };
    let n = attrs().count();
    if n < 2 {
        return Ok(());
    }
    let redefined = |a: &Attribute<'_>, first: &Attribute<'_>| {
        let pos = first.name.span.start_pos(ctx.text);
        ctx.err(
            format!(
                "attribute `{}` redefined: it was already set at line {}, column {}; each attribute may be set only once",
                a.name.name, pos.line, pos.column
            ),
            a.name.span,
        )
    };
    if n <= 16 {
        for (i, a) in attrs().enumerate() {
            if let Some(first) = attrs().take(i).find(|b| b.name.name == a.name.name) {
                return Err(redefined(a, first));
            }
        }
    } else {
        let mut seen = HashSet::with_capacity(n);
        for a in attrs() {
            if !seen.insert(a.name.name) {
                if let Some(first) = attrs().find(|b| b.name.name == a.name.name) {
                    return Err(redefined(a, first));
                }
            }
        }
    }
    Ok(())
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
        span: Span::new(name.span.start, expr.span.end),
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
                let inner = Span::new(s.start + 1, s.end.saturating_sub(1));
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
        labels,
        body: Body {
            items,
            span: Span::new(open_brace.end, close_brace.start),
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

/// Identifier = ID_Start (ID_Continue | '-')*; the grammar accepts any
/// non-ASCII character, so they are checked here.
pub(super) fn check_ident(ctx: &Ctx<'_, '_>, name: &str, span: Span) -> Result<()> {
    if name.is_ascii() {
        return Ok(());
    }
    for (i, c) in name.char_indices() {
        let ok = if i == 0 {
            crate::ident::is_id_start(c)
        } else {
            crate::ident::is_id_continue(c)
        };
        if !ok {
            let at = span.start + i;
            return Err(ctx.err(
                format!(
                    "invalid character {:?} (U+{:04X}): this character is not used within the language",
                    c, c as u32
                ),
                Span::new(at, at + c.len_utf8()),
            ));
        }
    }
    Ok(())
}
