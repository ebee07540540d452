//! The pest route's expressions: from pest's pairs to the tree, through the
//! shared builders of `lower::expr`.

use super::structure::ident;
use super::{template, Rule, P};
use crate::ast::{
    BinaryOp, Conditional, Expr, ExprKind, ForExpr, FuncCall, Ident, ObjectItem, UnaryExpr, UnaryOp,
};
use crate::parser::lower::expr::{
    apply_postfixes, climb, get_attr, index, legacy_index, name_kind, object_key, Step, StepKind,
};
use crate::parser::lower::number;
use crate::parser::lower::structure::check_ident;
use crate::parser::Ctx;
use crate::span::Span;
use crate::Result;
use std::borrow::Cow;

/// `expr_file`: the one expression.
pub(super) fn expr_file<'i>(ctx: &mut Ctx<'_, 'i>, root: P<'_>) -> Result<Expr<'i>> {
    let span = ctx.span(&root);
    match root.into_inner().find(|p| p.as_rule() == Rule::expression) {
        Some(p) => expression(ctx, p),
        None => Err(ctx.err("expected an expression", span)),
    }
}

fn is_expression(r: Rule) -> bool {
    matches!(r, Rule::expression | Rule::expression_nl)
}

fn is_postfix(r: Rule) -> bool {
    matches!(
        r,
        Rule::get_attr | Rule::legacy_index | Rule::attr_splat | Rule::full_splat | Rule::index
    )
}

/// `expression` / `expression_nl`: an operation, then optionally the two
/// branches of a conditional.
pub(super) fn expression<'i>(ctx: &mut Ctx<'_, 'i>, pair: P<'_>) -> Result<Expr<'i>> {
    let span = ctx.span(&pair);
    let mut inner = pair.into_inner().peekable();
    let first = operand(ctx, &mut inner, span)?;
    // Fast path: a single term.
    let Some(next) = inner.next() else {
        return Ok(first);
    };
    // Operands and operators in source order; precedence climbing below.
    let mut operands: Vec<Expr<'i>> = vec![first];
    let mut ops: Vec<(BinaryOp, Span)> = Vec::new();
    let mut branches: Vec<Expr<'i>> = Vec::new();
    let mut next = Some(next);
    while let Some(p) = next.take() {
        if p.as_rule() == Rule::binary_op {
            let s = ctx.span(&p);
            ops.push((binary_op(ctx.str(s)), s));
            ctx.enter(1, s)?;
            operands.push(operand(ctx, &mut inner, span)?);
            next = inner.next();
        } else if is_expression(p.as_rule()) {
            // A conditional's branches nest one level deeper.
            ctx.enter(1, span)?;
            branches.push(expression(ctx, p)?);
            for q in inner.by_ref() {
                if is_expression(q.as_rule()) {
                    branches.push(expression(ctx, q)?);
                }
            }
            ctx.leave(1);
        }
    }
    ctx.leave(ops.len());
    let cond = match climb(operands, ops) {
        Some(e) => e,
        None => return Err(ctx.err("expected an expression", span)),
    };
    let mut branches = branches.into_iter();
    match (branches.next(), branches.next()) {
        (Some(then_expr), Some(else_expr)) => Ok(Expr {
            span: Span::at(cond.span.start(), else_expr.span.end()),
            kind: ExprKind::Conditional(Box::new(Conditional {
                cond,
                then_expr,
                else_expr,
            })),
        }),
        _ => Ok(cond),
    }
}

/// One operand: unary operators, a primary and its postfix operators.
fn operand<'p, 'i>(
    ctx: &mut Ctx<'_, 'i>,
    inner: &mut std::iter::Peekable<pest::iterators::Pairs<'p, Rule>>,
    span: Span,
) -> Result<Expr<'i>> {
    let mut unary: Vec<(UnaryOp, Span)> = Vec::new();
    while let Some(p) = inner.next_if(|p| p.as_rule() == Rule::unary_op) {
        let s = ctx.span(&p);
        let op = if ctx.text.as_bytes().get(s.start()) == Some(&b'!') {
            UnaryOp::Not
        } else {
            UnaryOp::Neg
        };
        unary.push((op, s));
    }
    let primary_pair = match inner.next() {
        Some(p) => p,
        None => return Err(ctx.err("expected an expression", span)),
    };
    let mut local = unary.len();
    ctx.enter(local, span)?;
    let mut operand = primary(ctx, primary_pair)?;
    // Plain steps are applied as they come; from the first splat on, the
    // rest goes through `apply_postfixes`.
    while let Some(p) = inner.next_if(|p| is_postfix(p.as_rule())) {
        let s = ctx.span(&p);
        local += 1;
        ctx.enter(1, s)?;
        match p.as_rule() {
            Rule::attr_splat | Rule::full_splat => {
                let mut rest = vec![p];
                while let Some(q) = inner.next_if(|q| is_postfix(q.as_rule())) {
                    rest.push(q);
                }
                local += rest.len() - 1;
                ctx.enter(rest.len() - 1, s)?;
                operand = apply_postfixes(ctx, operand, rest)?;
            }
            _ => operand = step(ctx, operand, p, s)?,
        }
    }
    for (op, op_span) in unary.into_iter().rev() {
        operand = Expr {
            span: Span::at(op_span.start(), operand.span.end()),
            kind: ExprKind::Unary(Box::new(UnaryExpr {
                op,
                operand,
                op_span,
            })),
        };
    }
    ctx.leave(local);
    Ok(operand)
}

fn binary_op(s: &str) -> BinaryOp {
    match s {
        "*" => BinaryOp::Mul,
        "/" => BinaryOp::Div,
        "%" => BinaryOp::Mod,
        "+" => BinaryOp::Add,
        "-" => BinaryOp::Sub,
        "<" => BinaryOp::Lt,
        "<=" => BinaryOp::Le,
        ">" => BinaryOp::Gt,
        ">=" => BinaryOp::Ge,
        "==" => BinaryOp::Eq,
        "!=" => BinaryOp::Ne,
        "&&" => BinaryOp::And,
        _ => BinaryOp::Or,
    }
}

/// The primary of an expression term.
fn primary<'i>(ctx: &mut Ctx<'_, 'i>, p: P<'_>) -> Result<Expr<'i>> {
    let span = ctx.span(&p);
    let kind = match p.as_rule() {
        Rule::simple_string => {
            let inner = Span::at(span.start() + 1, span.end().saturating_sub(1));
            ExprKind::String(crate::nfc::nfc(Cow::Borrowed(ctx.str(inner))))
        }
        Rule::quoted_template => return template::quoted_template(ctx, p),
        Rule::heredoc_template => return template::heredoc_template(ctx, p),
        Rule::name_expr | Rule::name_expr_ws => return name_expr(ctx, p),
        Rule::numeric_lit => number::numeric_lit(ctx, span),
        Rule::tuple => {
            ctx.enter(1, span)?;
            let mut items = Vec::new();
            for q in p.into_inner() {
                items.push(expression(ctx, q)?);
            }
            ctx.leave(1);
            ExprKind::Tuple(items.into_boxed_slice())
        }
        Rule::object => {
            ctx.enter(1, span)?;
            let mut items = Vec::new();
            for q in p.into_inner() {
                items.push(object_elem(ctx, q)?);
            }
            ctx.leave(1);
            ExprKind::Object(items.into_boxed_slice())
        }
        Rule::paren_expr => {
            ctx.enter(1, span)?;
            let inner = match p.into_inner().next() {
                Some(q) => expression(ctx, q)?,
                None => return Err(ctx.err("expected an expression after `(`", span)),
            };
            ctx.leave(1);
            ExprKind::Parens(Box::new(inner))
        }
        Rule::for_tuple_expr | Rule::for_object_expr => {
            ctx.enter(1, span)?;
            let f = for_expr(ctx, p, span)?;
            ctx.leave(1);
            ExprKind::For(Box::new(f))
        }
        _ => return Err(ctx.err("expected an expression", span)),
    };
    Ok(Expr { kind, span })
}

/// `name_expr`: a variable, `true`/`false`/`null`, or a function call.
fn name_expr<'i>(ctx: &mut Ctx<'_, 'i>, p: P<'_>) -> Result<Expr<'i>> {
    let span = ctx.span(&p);
    let mut inner = p.into_inner();
    let name_pair = match inner.next() {
        Some(n) => n,
        None => return Err(ctx.err("expected a name", span)),
    };
    let name_span = ctx.span(&name_pair);
    let name = ctx.str(name_span);
    match inner.next() {
        None => {
            if name.contains("::") {
                return Err(ctx.err(
                    format!("expected `(` after the namespaced function name `{name}`"),
                    Span::at(name_span.end(), name_span.end()),
                ));
            }
            check_ident(ctx, name, name_span)?;
            let kind = name_kind(name, name_span);
            Ok(Expr { kind, span })
        }
        Some(args) => {
            let mut off = name_span.start();
            for seg in name.split("::") {
                check_ident(ctx, seg, Span::at(off, off + seg.len()))?;
                off += seg.len() + 2;
            }
            let parens = ctx.span(&args);
            ctx.enter(1, span)?;
            let mut list = Vec::new();
            let mut expand_final = false;
            for a in args.into_inner() {
                match a.as_rule() {
                    Rule::ellipsis => expand_final = true,
                    _ => list.push(expression(ctx, a)?),
                }
            }
            ctx.leave(1);
            Ok(Expr {
                kind: ExprKind::Call(Box::new(FuncCall {
                    name: Ident {
                        name,
                        span: name_span,
                    },
                    args: list.into_boxed_slice(),
                    expand_final,
                    parens,
                })),
                span,
            })
        }
    }
}

/// `object_elem`: key and value. A key that is a bare identifier (no
/// parentheses, no traversal) is a literal name, keywords included.
fn object_elem<'i>(ctx: &mut Ctx<'_, 'i>, p: P<'_>) -> Result<ObjectItem<'i>> {
    let span = ctx.span(&p);
    let mut inner = p.into_inner();
    let (k, v) = match (inner.next(), inner.next()) {
        (Some(k), Some(v)) => (k, v),
        _ => return Err(ctx.err("expected `key = value`", span)),
    };
    let key = expression(ctx, k)?;
    let key_text = ctx.str(key.span);
    let key = object_key(key, key_text);
    let value = expression(ctx, v)?;
    Ok(ObjectItem { key, value })
}

/// What follows `for` (`for_intro` or `directive_for`): one or two
/// names and the collection. `span` is the whole construct's, for errors.
pub(super) fn for_head<'i>(
    ctx: &mut Ctx<'_, 'i>,
    p: P<'_>,
    span: Span,
) -> Result<(Option<Ident<'i>>, Ident<'i>, Expr<'i>)> {
    let mut names = Vec::new();
    let mut collection = None;
    for r in p.into_inner() {
        match r.as_rule() {
            Rule::identifier => names.push(ident(ctx, &r)?),
            _ => collection = Some(expression(ctx, r)?),
        }
    }
    let (key_var, value_var) = match (names.first(), names.get(1)) {
        (Some(&k), Some(&v)) => (Some(k), v),
        (Some(&v), None) => (None, v),
        _ => return Err(ctx.err("expected a variable name after `for`", span)),
    };
    match collection {
        Some(c) => Ok((key_var, value_var, c)),
        None => Err(ctx.err("expected a collection after `in`", span)),
    }
}

/// `for_tuple_expr` / `for_object_expr`.
fn for_expr<'i>(ctx: &mut Ctx<'_, 'i>, p: P<'_>, span: Span) -> Result<ForExpr<'i>> {
    let is_object = p.as_rule() == Rule::for_object_expr;
    let mut head = None;
    let mut intro = span;
    let mut exprs: Vec<Expr<'i>> = Vec::new();
    let mut grouping = false;
    let mut cond = None;
    for q in p.into_inner() {
        match q.as_rule() {
            Rule::for_intro => {
                intro = Span::at(span.start(), ctx.span(&q).end());
                head = Some(for_head(ctx, q, span)?);
            }
            Rule::ellipsis => grouping = true,
            Rule::for_cond => {
                if let Some(c) = q.into_inner().next() {
                    cond = Some(expression(ctx, c)?);
                }
            }
            _ => exprs.push(expression(ctx, q)?),
        }
    }
    let Some((key_var, value_var, collection)) = head else {
        return Err(ctx.err("expected a variable name after `for`", span));
    };
    let mut exprs = exprs.into_iter();
    let (key_expr, value_expr) = if is_object {
        match (exprs.next(), exprs.next()) {
            (Some(k), Some(v)) => (Some(k), v),
            _ => return Err(ctx.err("expected `key => value` in a `for` expression", span)),
        }
    } else {
        match exprs.next() {
            Some(v) => (None, v),
            None => return Err(ctx.err("expected an expression after `:`", span)),
        }
    };
    Ok(ForExpr {
        key_var,
        value_var,
        collection,
        key_expr,
        value_expr,
        grouping,
        cond,
        intro,
    })
}

impl<'i> Step<'i> for P<'_> {
    fn kind(&self) -> StepKind {
        match self.as_rule() {
            Rule::get_attr => StepKind::GetAttr,
            Rule::legacy_index => StepKind::Legacy,
            Rule::attr_splat => StepKind::AttrSplat,
            Rule::full_splat => StepKind::FullSplat,
            _ => StepKind::Index,
        }
    }

    fn span(&self, ctx: &Ctx<'_, 'i>) -> Span {
        ctx.span(self)
    }

    fn apply(self, ctx: &mut Ctx<'_, 'i>, obj: Expr<'i>) -> Result<Expr<'i>> {
        let s = ctx.span(&self);
        step(ctx, obj, self, s)
    }
}

/// One `.name`, `.0` or `[key]` step applied to `obj`.
fn step<'i>(ctx: &mut Ctx<'_, 'i>, obj: Expr<'i>, p: P<'_>, s: Span) -> Result<Expr<'i>> {
    match p.as_rule() {
        Rule::get_attr => {
            let text = ctx.str(s);
            // The name follows the last `.`, space, newline or comment.
            let skip = text
                .rfind(['.', ' ', '\t', '/', '\n', '\r'])
                .map_or(0, |k| k + 1);
            let name_span = Span::at(s.start() + skip, s.end());
            let name_text = ctx.str(name_span);
            check_ident(ctx, name_text, name_span)?;
            let name = Ident {
                name: name_text,
                span: name_span,
            };
            Ok(get_attr(obj, name, s))
        }
        Rule::legacy_index => {
            // The number token ends the pair; a separator before it ends
            // in a space, tab, newline or `/`, none of them number bytes.
            let text = ctx.str(s).as_bytes();
            let token_len = text
                .iter()
                .rev()
                .take_while(|b| b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'E' | b'+' | b'-'))
                .count()
                .min(s.len().saturating_sub(1));
            let digits = Span::at(s.end() - token_len, s.end());
            let number = ctx.str(digits);
            if let Some((a, b)) = number.split_once('.') {
                return Err(ctx.err(
                    format!(
                        "invalid legacy index syntax: chaining two indexes together is not \
                         permitted; use the proper index syntax instead, like [{a}][{b}]"
                    ),
                    digits,
                ));
            }
            Ok(legacy_index(obj, number, digits, s))
        }
        _ => {
            let key = match p.into_inner().next() {
                Some(k) => expression(ctx, k)?,
                None => return Err(ctx.err("expected an index expression after `[`", s)),
            };
            Ok(index(obj, key, s))
        }
    }
}
