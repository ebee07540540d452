//! The expression language's shared lowering: operator precedence
//! ([`climb`]), keyword literals and object keys, and postfix steps (the
//! splat assembly of [`apply_postfixes`] and the `.name` / `.0` / `[key]`
//! builders), used by both routes.

use crate::ast::{
    BinaryExpr, BinaryOp, Expr, ExprKind, GetAttrExpr, Ident, IndexExpr, ObjectKey, SplatExpr,
};
use crate::parser::Ctx;
use crate::span::Span;
use crate::Result;

/// A name that is not a call: `true`, `false` and `null` are literals
/// (only there: `true(1)` is a call, and `{ true = 1 }` a key), anything
/// else a variable.
pub(in crate::parser) fn name_kind<'i>(name: &'i str, span: Span) -> ExprKind<'i> {
    match name {
        "true" => ExprKind::Bool(true),
        "false" => ExprKind::Bool(false),
        "null" => ExprKind::Null,
        _ => ExprKind::Variable(Ident { name, span }),
    }
}

/// An object element's key: a bare identifier (no parentheses, no
/// traversal) is a literal name, keywords included; `text` is the key's
/// source.
pub(in crate::parser) fn object_key<'i>(key: Expr<'i>, text: &'i str) -> ObjectKey<'i> {
    match key.kind {
        ExprKind::Variable(i) if i.span == key.span => ObjectKey::Ident(i),
        ExprKind::Bool(_) | ExprKind::Null => ObjectKey::Ident(Ident {
            name: text,
            span: key.span,
        }),
        _ => ObjectKey::Expr(key),
    }
}

/// Applies precedence (one table: [`BinaryOp::precedence`]; all levels
/// left-associative) to operands and the operators between them.
pub(in crate::parser) fn climb<'i>(
    operands: Vec<Expr<'i>>,
    ops: Vec<(BinaryOp, Span)>,
) -> Option<Expr<'i>> {
    let mut out: Vec<Expr<'i>> = Vec::with_capacity(operands.len());
    let mut stack: Vec<(BinaryOp, Span)> = Vec::with_capacity(ops.len());
    fn reduce<'i>(out: &mut Vec<Expr<'i>>, op: BinaryOp, op_span: Span) -> Option<()> {
        let rhs = out.pop()?;
        let lhs = out.pop()?;
        out.push(Expr {
            span: Span::at(lhs.span.start(), rhs.span.end()),
            kind: ExprKind::Binary(Box::new(BinaryExpr {
                op,
                lhs,
                rhs,
                op_span,
            })),
        });
        Some(())
    }
    let mut operands = operands.into_iter();
    out.push(operands.next()?);
    for ((op, op_span), rhs) in ops.into_iter().zip(operands) {
        while let Some(&(top, top_span)) = stack.last() {
            if top.precedence() >= op.precedence() {
                stack.pop();
                reduce(&mut out, top, top_span)?;
            } else {
                break;
            }
        }
        stack.push((op, op_span));
        out.push(rhs);
    }
    while let Some((op, s)) = stack.pop() {
        reduce(&mut out, op, s)?;
    }
    out.pop()
}

/// What a postfix step is, for the splat assembly below.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(in crate::parser) enum StepKind {
    /// `.name`
    GetAttr,
    /// `.0`
    Legacy,
    /// `.*`
    AttrSplat,
    /// `[*]`
    FullSplat,
    /// `[key]`
    Index,
}

/// One postfix step, from pest (a pair) or from the fast path: the splat
/// assembly below is shared by both.
pub(in crate::parser) trait Step<'i> {
    /// Which step it is.
    fn kind(&self) -> StepKind;
    /// Its span.
    fn span(&self, ctx: &Ctx<'_, 'i>) -> Span;
    /// A `.name`, `.0` or `[key]` step applied to `obj`.
    fn apply(self, ctx: &mut Ctx<'_, 'i>, obj: Expr<'i>) -> Result<Expr<'i>>;
}

/// Applies postfix operators as hclsyntax's parseExpressionTraversals: a
/// full splat `[*]` takes every following step (nested splats included),
/// an attribute-only splat `.*` takes only the following `.name`/`.0`
/// steps. Iterative, so that long chains cannot exhaust the stack.
pub(in crate::parser) fn apply_postfixes<'i, T: Step<'i>>(
    ctx: &mut Ctx<'_, 'i>,
    base: Expr<'i>,
    posts: Vec<T>,
) -> Result<Expr<'i>> {
    if posts.is_empty() {
        return Ok(base);
    }
    // Split at full splats: segments[0] applies to the base; each later
    // segment is the `each` of a full splat over everything before it.
    let mut segments: Vec<(Option<Span>, Vec<T>)> = vec![(None, Vec::new())];
    for p in posts {
        if p.kind() == StepKind::FullSplat {
            let marker = p.span(ctx);
            segments.push((Some(marker), Vec::new()));
        } else if let Some(last) = segments.last_mut() {
            last.1.push(p);
        }
    }
    // Build from the innermost (last) full splat outwards.
    let mut inner: Option<Expr<'i>> = None;
    let mut first: Option<Vec<T>> = None;
    while let Some((marker, steps)) = segments.pop() {
        match marker {
            Some(marker) => {
                let root = Expr {
                    kind: ExprKind::SplatItem,
                    span: marker,
                };
                let mut each = simple_steps(ctx, root, steps)?;
                if let Some(nested) = inner.take() {
                    each = wrap_full_splat(each, nested);
                }
                inner = Some(each);
            }
            None => first = Some(steps),
        }
    }
    let mut ret = simple_steps(ctx, base, first.unwrap_or_default())?;
    if let Some(each) = inner {
        ret = wrap_full_splat(ret, each);
    }
    Ok(ret)
}

/// `source[*]each`: `each` is rooted at the marker's `SplatItem`.
pub(in crate::parser) fn wrap_full_splat<'i>(source: Expr<'i>, each: Expr<'i>) -> Expr<'i> {
    let marker = splat_root(&each);
    splat_expr(source, marker, each, true)
}

/// The span of the `SplatItem` at the root of a splat's `each`.
fn splat_root(e: &Expr<'_>) -> Span {
    let mut cur = e;
    loop {
        cur = match &cur.kind {
            ExprKind::SplatItem => return cur.span,
            ExprKind::GetAttr(g) => &g.object,
            ExprKind::Index(i) => &i.collection,
            ExprKind::Splat(s) => &s.source,
            _ => return cur.span,
        };
    }
}

/// Steps without full splats: attribute access, indexes and
/// attribute-only splats.
fn simple_steps<'i, T: Step<'i>>(
    ctx: &mut Ctx<'_, 'i>,
    base: Expr<'i>,
    steps: Vec<T>,
) -> Result<Expr<'i>> {
    let mut ret = base;
    // The open attribute-only splat: (source, marker, each).
    let mut attr_splat: Option<(Expr<'i>, Span, Expr<'i>)> = None;
    for p in steps {
        let s = p.span(ctx);
        match p.kind() {
            StepKind::AttrSplat => {
                // As hclsyntax: no splat inside an attribute-only splat.
                if attr_splat.is_some() {
                    return Err(ctx.err(
                        "nested splat: a splat expression (`*`) cannot be used inside another attribute-only splat expression",
                        Span::at(s.end().saturating_sub(1), s.end()),
                    ));
                }
                let item = Expr {
                    kind: ExprKind::SplatItem,
                    span: s,
                };
                attr_splat = Some((ret, s, item));
                ret = Expr {
                    kind: ExprKind::Null,
                    span: s,
                };
            }
            StepKind::GetAttr | StepKind::Legacy => {
                let target = match attr_splat.as_mut() {
                    Some((_, _, each)) => each,
                    None => &mut ret,
                };
                let obj = std::mem::replace(
                    target,
                    Expr {
                        kind: ExprKind::Null,
                        span: s,
                    },
                );
                *target = p.apply(ctx, obj)?;
            }
            _ => {
                // An index ends an attribute-only splat: it applies to the
                // splat's result.
                if let Some((source, marker, each)) = attr_splat.take() {
                    ret = splat_expr(source, marker, each, false);
                }
                let obj = std::mem::replace(
                    &mut ret,
                    Expr {
                        kind: ExprKind::Null,
                        span: s,
                    },
                );
                ret = p.apply(ctx, obj)?;
            }
        }
    }
    if let Some((source, marker, each)) = attr_splat.take() {
        ret = splat_expr(source, marker, each, false);
    }
    Ok(ret)
}

/// A splat of `source` (its marker `[*]` or `.*` at `marker`, `full` for
/// `[*]`) whose steps made `each`.
fn splat_expr<'i>(source: Expr<'i>, marker: Span, each: Expr<'i>, full: bool) -> Expr<'i> {
    Expr {
        span: Span::at(source.span.start(), each.span.end().max(marker.end())),
        kind: ExprKind::Splat(Box::new(SplatExpr {
            source,
            each,
            full,
            marker,
        })),
    }
}

/// `obj.name`, the step spanning `step`. (These three builders are shared
/// by the pest lowering and the fast path.)
pub(in crate::parser) fn get_attr<'i>(obj: Expr<'i>, name: Ident<'i>, step: Span) -> Expr<'i> {
    Expr {
        span: Span::at(obj.span.start(), step.end()),
        kind: ExprKind::GetAttr(Box::new(GetAttrExpr { object: obj, name })),
    }
}

/// The legacy index `obj.0`: `number` is the token's text at `digits`.
pub(in crate::parser) fn legacy_index<'i>(
    obj: Expr<'i>,
    number: &'i str,
    digits: Span,
    step: Span,
) -> Expr<'i> {
    Expr {
        span: Span::at(obj.span.start(), step.end()),
        kind: ExprKind::Index(Box::new(IndexExpr {
            collection: obj,
            key: Expr {
                kind: ExprKind::Number(number),
                span: digits,
            },
            legacy: true,
            bracket: step,
        })),
    }
}

/// `obj[key]`, the brackets at `bracket`.
pub(in crate::parser) fn index<'i>(obj: Expr<'i>, key: Expr<'i>, bracket: Span) -> Expr<'i> {
    Expr {
        span: Span::at(obj.span.start(), bracket.end()),
        kind: ExprKind::Index(Box::new(IndexExpr {
            collection: obj,
            key,
            legacy: false,
            bracket,
        })),
    }
}
