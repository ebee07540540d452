//! Lowering of numeric literals.

use crate::ast::ExprKind;
use crate::parser::Ctx;
use crate::span::Span;

/// `numeric_lit`: kept as its source text, which the grammar has already
/// checked against `NumericLit`.
pub(in crate::parser) fn numeric_lit<'i>(ctx: &Ctx<'_, 'i>, span: Span) -> ExprKind<'i> {
    ExprKind::Number(ctx.str(span))
}
