//! The pest route's templates: quoted templates, heredocs, standalone
//! templates and block labels, from pest's pairs to the flat tokens that
//! [`lower::template::finish`](crate::parser::lower::template::finish)
//! makes into the tree.

use super::{expr, Rule, P};
use crate::ast::{Expr, ExprKind, Heredoc, Interpolation, StrLit, Strip, Template, TemplateExpr};
use crate::parser::lower::string;
use crate::parser::lower::template::{finish, push_eol, push_raw_literal, quoted_kind, Tok};
use crate::parser::Ctx;
use crate::span::Span;
use crate::Result;
use std::borrow::Cow;

pub(super) fn quoted_template<'i>(ctx: &mut Ctx<'_, 'i>, p: P<'_>) -> Result<Expr<'i>> {
    let span = ctx.span(&p);
    if let Some(value) = single_literal(ctx, &p)? {
        return Ok(Expr {
            kind: ExprKind::String(value),
            span,
        });
    }
    let template = template_of(ctx, p, span, false)?;
    Ok(Expr {
        kind: quoted_kind(template),
        span,
    })
}

/// A quoted block label: a template without interpolations or directives,
/// decoded but not normalized (the reference keeps labels as written).
pub(super) fn string_lit<'i>(ctx: &mut Ctx<'_, 'i>, p: P<'_>) -> Result<StrLit<'i>> {
    let span = ctx.span(&p);
    let mut value: Cow<'i, str> = Cow::Borrowed("");
    for q in p.clone().into_inner() {
        let s = ctx.span(&q);
        if q.as_rule() != Rule::quoted_literal {
            return Err(ctx.err(
                "template sequences are not allowed in a block label: a label must be a literal string",
                s,
            ));
        }
        let piece = string::decode_quoted(ctx, ctx.str(s), s.start())?;
        value = if value.is_empty() {
            piece
        } else {
            Cow::Owned(value.into_owned() + &piece)
        };
    }
    Ok(StrLit { value, span })
}

/// Fast path: a quoted template that is empty or one literal token.
fn single_literal<'i>(ctx: &Ctx<'_, 'i>, p: &P<'_>) -> Result<Option<Cow<'i, str>>> {
    let mut inner = p.clone().into_inner();
    match (inner.next(), inner.next()) {
        (None, _) => Ok(Some(Cow::Borrowed(""))),
        (Some(q), None) if q.as_rule() == Rule::quoted_literal => {
            let s = ctx.span(&q);
            string::unescape_quoted(ctx, ctx.str(s), s.start()).map(Some)
        }
        _ => Ok(None),
    }
}

/// `heredoc_template`.
pub(super) fn heredoc_template<'i>(ctx: &mut Ctx<'_, 'i>, p: P<'_>) -> Result<Expr<'i>> {
    let span = ctx.span(&p);
    let mut inner = p.clone().into_inner();
    let (marker, indented, content_start) = match inner.next() {
        Some(open) => {
            let s = ctx.span(&open);
            let text = ctx.str(s);
            let indented = text.starts_with("<<-");
            let marker = text.get(if indented { 3 } else { 2 }..).unwrap_or_default();
            let nl = if ctx.text.as_bytes().get(s.end()) == Some(&b'\r') {
                2
            } else {
                1
            };
            (marker, indented, s.end() + nl)
        }
        None => return Err(ctx.err("expected a heredoc marker after `<<`", span)),
    };
    let content_end = p
        .clone()
        .into_inner()
        .find(|q| q.as_rule() == Rule::heredoc_eol)
        .map_or(content_start, |q| ctx.span(&q).end());
    let template = template_of(ctx, p, Span::at(content_start, content_end), indented)?;
    Ok(Expr {
        kind: ExprKind::Template(Box::new(TemplateExpr {
            template,
            heredoc: Some(Heredoc { marker, indented }),
        })),
        span,
    })
}

/// `template_file`: a standalone template.
pub(super) fn template_file<'i>(ctx: &mut Ctx<'_, 'i>, root: P<'_>) -> Result<Template<'i>> {
    let span = ctx.span(&root);
    template_of(ctx, root, span, false)
}

/// Tokens, strip markers, heredoc indentation, then nesting.
fn template_of<'i>(
    ctx: &mut Ctx<'_, 'i>,
    p: P<'_>,
    span: Span,
    indented: bool,
) -> Result<Template<'i>> {
    ctx.enter(1, span)?;
    let toks = tokens(ctx, p)?;
    let t = finish(ctx, toks, span, indented)?;
    ctx.leave(1);
    Ok(t)
}

fn tokens<'i>(ctx: &mut Ctx<'_, 'i>, p: P<'_>) -> Result<Vec<Tok<'i>>> {
    let mut toks: Vec<Tok<'i>> = Vec::new();
    for q in p.into_inner() {
        let s = ctx.span(&q);
        match q.as_rule() {
            Rule::quoted_literal => {
                let raw = ctx.str(s);
                let value = string::unescape_quoted(ctx, raw, s.start())?;
                toks.push(Tok::Lit(StrLit { value, span: s }));
            }
            Rule::template_literal | Rule::heredoc_literal => {
                push_raw_literal(&mut toks, ctx.str(s), s.start());
            }
            Rule::heredoc_eol => push_eol(ctx, &mut toks, s),
            Rule::template_interpolation => {
                let mut inner = q.into_inner();
                let (open, e, close) = match (inner.next(), inner.next(), inner.next()) {
                    (Some(o), Some(e), Some(c)) => (o, e, c),
                    _ => return Err(ctx.err("expected an expression after `${`", s)),
                };
                let strip = Strip {
                    left: ctx.str(ctx.span(&open)).ends_with('~'),
                    right: ctx.str(ctx.span(&close)).starts_with('~'),
                };
                let expr = expr::expression(ctx, e)?;
                toks.push(Tok::Interp(Interpolation {
                    expr,
                    strip,
                    span: s,
                }));
            }
            Rule::template_directive => toks.push(directive(ctx, q, s)?),
            _ => {}
        }
    }
    Ok(toks)
}

fn directive<'i>(ctx: &mut Ctx<'_, 'i>, q: P<'_>, span: Span) -> Result<Tok<'i>> {
    let mut strip = Strip::default();
    let mut body = None;
    for r in q.into_inner() {
        match r.as_rule() {
            Rule::directive_open => strip.left = ctx.str(ctx.span(&r)).ends_with('~'),
            Rule::seq_close => strip.right = ctx.str(ctx.span(&r)).starts_with('~'),
            _ => body = Some(r),
        }
    }
    let body = match body {
        Some(b) => b,
        None => {
            return Err(ctx.err(
                "expected `if`, `else`, `endif`, `for` or `endfor` after `%{`",
                span,
            ))
        }
    };
    Ok(match body.as_rule() {
        Rule::directive_if => {
            let cond = match body.into_inner().next() {
                Some(c) => expr::expression(ctx, c)?,
                None => return Err(ctx.err("expected a condition after `if`", span)),
            };
            Tok::If { cond, strip, span }
        }
        Rule::directive_else => Tok::Else { strip, span },
        Rule::directive_endif => Tok::EndIf { strip, span },
        Rule::directive_for => {
            let (key_var, value_var, collection) = expr::for_head(ctx, body, span)?;
            Tok::For {
                key_var,
                value_var,
                collection,
                strip,
                span,
            }
        }
        _ => Tok::EndFor { strip, span },
    })
}
