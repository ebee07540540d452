//! The evaluator: its state, typed values and limits; one submodule per kind of expression.

mod call;
mod for_expr;
mod operators;
mod template;
mod traversal;

use super::context::{Context, EvalOptions};
use super::convert;
use crate::error::{Error, Result};
use crate::value::types::Type;
use crate::value::{Map, Value};
use crate::Number;
use hcl_grammar::{BinaryOp, Expr, ExprKind, ObjectKey, Span, UnaryOp};
use std::cell::{Cell, RefCell};

/// An evaluation error with the type of the value the reference returns
/// beside it: hcl evaluates on after an error and returns a placeholder
/// value (unknown, of the type the operation would have had; a tuple of
/// its elements' values; `cty.DynamicVal` for most failures). A
/// conditional unifies the types of both results even when one failed, so
/// that type decides whether `false ? <failing> : 1` is consistent.
///
/// Where the reference's value is partly known (a tuple or object
/// constructor's other elements, a `for` expression's other results, a
/// template's other parts, a conditional's taken result), it is kept too:
/// a `for` over it iterates it, a template includes it, a `for`
/// expression's failed key may still name an attribute.
pub(super) struct Failed {
    pub(super) err: Error,
    /// The reference's value: unknown of a type, or partly known (its
    /// failed parts [`Value::Unknown`]); `None`: unknown of any type.
    /// Boxed: an [`Outcome`] is moved on every evaluation, and stays the
    /// size of a [`TVal`].
    value: Option<Box<TVal>>,
}

impl From<Error> for Failed {
    fn from(err: Error) -> Failed {
        Failed::typed(err, None)
    }
}

impl Failed {
    /// An error whose value is unknown, of type `ty` (`None`: any type).
    pub(super) fn typed(err: Error, ty: Option<Type>) -> Failed {
        Failed {
            err,
            value: ty.map(|t| Box::new(TVal::unknown(t))),
        }
    }

    /// An error whose value is `partial`, which may be partly known (see
    /// [`Failed`]).
    pub(super) fn partial(err: Error, partial: TVal) -> Failed {
        Failed {
            err,
            value: Some(Box::new(partial)),
        }
    }

    /// The type of the reference's value, `None` when it is any type.
    pub(super) fn ty(&self) -> Option<Type> {
        self.value.as_ref().map(|v| v.ty())
    }

    /// The error and the reference's value.
    pub(super) fn into_value(self) -> (Error, TVal) {
        let v = match self.value {
            Some(v) => *v,
            None => TVal::unknown(Type::Any),
        };
        (self.err, v)
    }

    /// The reference's value when it is partly known.
    pub(super) fn into_partial(self) -> (Error, Option<TVal>) {
        match self.value {
            Some(v) if !v.is_unknown() => (self.err, Some(*v)),
            _ => (self.err, None),
        }
    }
}

/// The result of [`Evaluator::eval_failing`].
pub(super) type Outcome = std::result::Result<TVal, Failed>;

/// A value with its type, when the type is not the one its kind implies
/// (see the module docs).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct TVal {
    pub(crate) v: Value,
    pub(crate) t: Option<Box<Type>>,
    /// Only the type is known (see [`super::unknown`]); `v` is then null.
    pub(crate) unknown: bool,
}

impl TVal {
    pub(crate) fn plain(v: Value) -> TVal {
        if let Value::Unknown(t) = v {
            return TVal::unknown(*t);
        }
        TVal {
            v,
            t: None,
            unknown: false,
        }
    }

    fn typed(v: Value, t: Type) -> TVal {
        if let Value::Unknown(u) = v {
            return TVal::unknown(if t == Type::Any { *u } else { t });
        }
        // Drop the tag when it says nothing more than the value does.
        let implied = implied_by(&v, &t);
        TVal {
            v,
            t: if implied { None } else { Some(Box::new(t)) },
            unknown: false,
        }
    }

    /// The value's type.
    pub(crate) fn ty(&self) -> Type {
        match self.t.as_deref() {
            Some(t) => t.clone(),
            None => Type::of(&self.v),
        }
    }

    fn is_set(&self) -> bool {
        matches!(self.t.as_deref(), Some(Type::Set(_)))
    }

    fn is_map(&self) -> bool {
        matches!(self.t.as_deref(), Some(Type::Map(_)))
    }
}

/// Whether `t` is the type `v` implies ([`Type::of`]): a typed `null`
/// inside a tuple or object (`[false ? 1 : null]`) keeps its tag.
fn implied_by(v: &Value, t: &Type) -> bool {
    match (v, t) {
        (Value::Null, Type::Any)
        | (Value::Bool(_), Type::Bool)
        | (Value::Number(_), Type::Number)
        | (Value::String(_), Type::String) => true,
        (Value::Unknown(u), t) => **u == *t,
        (Value::Array(items), Type::Tuple(ts)) => {
            items.len() == ts.len() && items.iter().zip(ts).all(|(v, t)| implied_by(v, t))
        }
        (Value::Object(m), Type::Object(ts)) => {
            m.len() == ts.len()
                && m.iter()
                    .all(|(k, v)| ts.get(k).is_some_and(|t| implied_by(v, t)))
        }
        _ => false,
    }
}

/// The type of element `key` of a value of type `t`, if `t` is explicit.
fn child_type(t: Option<&Type>, key: Child<'_>) -> Option<Type> {
    let t = t?;
    let c = match (t, key) {
        (Type::List(e) | Type::Set(e) | Type::Map(e), _) => (**e).clone(),
        (Type::Tuple(ts), Child::Index(i)) => ts.get(i)?.clone(),
        (Type::Object(ts), Child::Key(k)) => ts.get(k)?.clone(),
        _ => return None,
    };
    Some(c)
}

#[derive(Clone, Copy)]
enum Child<'k> {
    Index(usize),
    Key(&'k str),
}

/// The state of one evaluation: the context, local variables of `for`
/// expressions and directives, the current splat element, and the
/// counters that enforce the limits.
pub(crate) struct Evaluator<'c, 'a> {
    ctx: &'c Context,
    opts: EvalOptions,
    depth: Cell<usize>,
    iterations: Cell<u64>,
    locals: RefCell<Vec<(&'a str, TVal)>>,
    splat_items: RefCell<Vec<TVal>>,
    /// Whether the template being built has an unknown part.
    template_unknown: Cell<bool>,
    /// Whether unknown values can occur (the context declares one, or a
    /// `for` condition is being checked): only then are known values
    /// searched for unknown elements, so evaluation without unknowns
    /// costs nothing more.
    unknowns: Cell<bool>,
}

impl<'c, 'a> Evaluator<'c, 'a> {
    pub(crate) fn new(ctx: &'c Context) -> Evaluator<'c, 'a> {
        Evaluator {
            ctx,
            opts: *ctx.options(),
            depth: Cell::new(0),
            iterations: Cell::new(0),
            locals: RefCell::new(Vec::new()),
            splat_items: RefCell::new(Vec::new()),
            template_unknown: Cell::new(false),
            unknowns: Cell::new(ctx.has_unknowns()),
        }
    }

    /// Whether `tv` is unknown or (when unknowns can occur) a known
    /// collection holding an unknown value somewhere inside: what
    /// operators and function arguments treat as unknown.
    pub(super) fn not_wholly_known(&self, tv: &TVal) -> bool {
        tv.is_unknown() || (self.unknowns.get() && !tv.v.is_wholly_known())
    }

    pub(crate) fn options(&self) -> &EvalOptions {
        &self.opts
    }

    /// Evaluates `expr`, guarding the nesting depth.
    pub(crate) fn eval(&self, expr: &'a Expr<'a>) -> Result<TVal> {
        self.eval_failing(expr).map_err(|f| f.err)
    }

    /// [`eval`](Evaluator::eval), an error carrying the type of the value
    /// the reference returns beside it (see [`Failed`]).
    pub(super) fn eval_failing(&self, expr: &'a Expr<'a>) -> Outcome {
        self.deeper(expr.span, || self.eval_inner(expr))
    }

    /// Runs `f` one expression level deeper, refusing past the depth limit
    /// (the guard of [`eval`](Evaluator::eval), for callers whose error
    /// type carries more than an [`Error`]).
    pub(super) fn deeper<T, E: From<Error>>(
        &self,
        span: Span,
        f: impl FnOnce() -> std::result::Result<T, E>,
    ) -> std::result::Result<T, E> {
        let d = self.depth.get() + 1;
        if d > self.opts.max_depth() {
            return Err(Error::eval(
                format!(
                    "the expression is nested too deeply to evaluate (limit: {} levels)",
                    self.opts.max_depth()
                ),
                span,
            )
            .into());
        }
        self.depth.set(d);
        let r = f();
        self.depth.set(d - 1);
        r
    }

    fn eval_inner(&self, expr: &'a Expr<'a>) -> Outcome {
        let span = expr.span;
        match &expr.kind {
            // The kinds whose failed value has a type of its own.
            ExprKind::Tuple(items) => self.tuple(items, span),
            ExprKind::Object(items) => self.object(items, span),
            ExprKind::Splat(s) => self.splat(s),
            ExprKind::Conditional(c) => self.conditional_failing(c),
            ExprKind::Parens(inner) => self.eval_failing(inner),
            ExprKind::Template(t) => self.template_failing(&t.template),
            ExprKind::For(f) => self.for_expr(f, span),
            ExprKind::Index(ix) => match self.fast_traversal(expr) {
                Some(v) => Ok(v),
                None => self.index(ix, span),
            },
            ExprKind::GetAttr(ga) => match self.fast_traversal(expr) {
                Some(v) => Ok(v),
                None => self.get_attr(ga),
            },
            ExprKind::Unary(u) => self.unary(u).map_err(|err| {
                let ty = match u.op {
                    UnaryOp::Neg => Type::Number,
                    UnaryOp::Not => Type::Bool,
                };
                Failed::typed(err, Some(ty))
            }),
            ExprKind::Binary(b) => self.binary(b).map_err(|err| {
                let ty = match b.op {
                    BinaryOp::Add
                    | BinaryOp::Sub
                    | BinaryOp::Mul
                    | BinaryOp::Div
                    | BinaryOp::Mod => Type::Number,
                    _ => Type::Bool,
                };
                Failed::typed(err, Some(ty))
            }),
            _ => self.eval_plain(expr).map_err(Failed::from),
        }
    }

    /// The kinds whose failed value is unknown of any type (hcl's
    /// `cty.DynamicVal`): literals, variables and calls.
    fn eval_plain(&self, expr: &'a Expr<'a>) -> Result<TVal> {
        let span = expr.span;
        match &expr.kind {
            ExprKind::Null => Ok(TVal::plain(Value::Null)),
            ExprKind::Bool(b) => Ok(TVal::plain(Value::Bool(*b))),
            ExprKind::Number(text) => Number::from_literal(text)
                .map(|n| TVal::plain(Value::Number(n)))
                .ok_or_else(|| Error::eval(format!("`{text}` is not a valid number"), span)),
            ExprKind::String(s) => {
                self.check_string_len(s.len(), span)?;
                Ok(TVal::plain(Value::String(s.to_string())))
            }
            ExprKind::Variable(ident) => self.variable(ident),
            ExprKind::Call(call) => self.call(call, span),
            ExprKind::SplatItem => {
                self.splat_items.borrow().last().cloned().ok_or_else(|| {
                    Error::eval("a splat element outside of a splat expression", span)
                })
            }
            // Handled by `eval_inner` before it comes here.
            ExprKind::Tuple(_)
            | ExprKind::Object(_)
            | ExprKind::Splat(_)
            | ExprKind::Conditional(_)
            | ExprKind::Parens(_)
            | ExprKind::Template(_)
            | ExprKind::For(_)
            | ExprKind::Index(_)
            | ExprKind::GetAttr(_)
            | ExprKind::Unary(_)
            | ExprKind::Binary(_) => self.eval_inner(expr).map_err(|f| f.err),
        }
    }

    // -- limits -------------------------------------------------------------

    fn check_string_len(&self, len: usize, span: Span) -> Result<()> {
        if len > self.opts.max_string_len() {
            return Err(Error::eval(
                format!(
                    "the string is longer than the limit of {} bytes",
                    self.opts.max_string_len()
                ),
                span,
            ));
        }
        Ok(())
    }

    fn check_collection_len(&self, len: usize, span: Span) -> Result<()> {
        if len > self.opts.max_collection_len() {
            return Err(Error::eval(
                format!(
                    "the collection has more than the limit of {} elements",
                    self.opts.max_collection_len()
                ),
                span,
            ));
        }
        Ok(())
    }

    fn count_iteration(&self, span: Span) -> Result<()> {
        let n = self.iterations.get() + 1;
        if n > self.opts.max_iterations() {
            return Err(Error::eval(
                format!(
                    "evaluation takes more than the limit of {} `for` iterations",
                    self.opts.max_iterations()
                ),
                span,
            ));
        }
        self.iterations.set(n);
        Ok(())
    }

    // -- collections --------------------------------------------------------

    /// A tuple. As the reference, every element is evaluated even after
    /// one fails: the failed tuple holds its elements' values, failed ones
    /// as the reference has them (see [`Failed`]).
    fn tuple(&self, items: &'a [Expr<'a>], span: Span) -> Outcome {
        self.check_collection_len(items.len(), span)?;
        let mut out = Vec::with_capacity(items.len());
        let mut types: Option<Vec<Type>> = None;
        let mut failed: Option<Error> = None;
        for (i, item) in items.iter().enumerate() {
            let tv = match self.eval_failing(item) {
                Ok(tv) => tv,
                Err(f) => {
                    let (err, tv) = f.into_value();
                    failed.get_or_insert(err);
                    tv
                }
            };
            // An unknown element stays in place (cty: a known tuple with an
            // unknown element).
            let tv = tv.into_held();
            if let Some(t) = tv.t {
                let ts = types.get_or_insert_with(|| out.iter().map(Type::of).collect());
                debug_assert_eq!(ts.len(), i);
                ts.push(*t);
            } else if let Some(ts) = types.as_mut() {
                ts.push(Type::of(&tv.v));
            }
            out.push(tv.v);
        }
        if let Some(err) = failed {
            let ts = types.unwrap_or_else(|| out.iter().map(Type::of).collect());
            return Err(Failed::partial(
                err,
                TVal::typed(Value::Array(out), Type::Tuple(ts)),
            ));
        }
        Ok(match types {
            Some(ts) => TVal::typed(Value::Array(out), Type::Tuple(ts)),
            None => TVal::plain(Value::Array(out)),
        })
    }

    /// An object. As the reference, every item is evaluated even after one
    /// fails: the failed object's type is that of its attributes' values,
    /// or any type if a key failed.
    fn object(&self, items: &'a [hcl_grammar::ObjectItem<'a>], span: Span) -> Outcome {
        self.check_collection_len(items.len(), span)?;
        let mut out = Map::with_capacity(items.len());
        let mut types: Option<Map<String, Type>> = None;
        // An unknown key makes the object unknown, of any type (cty: an
        // unknown attribute value leaves the object known).
        let mut unknown_key = false;
        let mut failed: Option<Error> = None;
        let mut fail = |err: Error| {
            failed.get_or_insert(err);
        };
        for item in items {
            let key = match self.object_key(item) {
                Ok(Some(k)) => k,
                Ok(None) => {
                    unknown_key = true;
                    if let Err(e) = self.eval(&item.value) {
                        fail(e);
                    }
                    continue;
                }
                Err(e) => {
                    fail(e);
                    unknown_key = true;
                    continue;
                }
            };
            let tv = match self.eval_failing(&item.value) {
                Ok(tv) => tv.into_held(),
                Err(f) => {
                    let (err, tv) = f.into_value();
                    let tv = tv.into_held();
                    fail(err);
                    tv
                }
            };
            if let Some(t) = tv.t {
                let ts = types.get_or_insert_with(|| {
                    out.iter()
                        .map(|(k, v)| (String::clone(k), Type::of(v)))
                        .collect()
                });
                ts.insert(key.clone(), *t);
            } else if let Some(ts) = types.as_mut() {
                ts.insert(key.clone(), Type::of(&tv.v));
            }
            out.insert(key, tv.v);
        }
        if let Some(err) = failed {
            if unknown_key {
                return Err(Failed::from(err));
            }
            let mut ts = types.unwrap_or_else(|| {
                out.iter()
                    .map(|(k, v)| (String::clone(k), Type::of(v)))
                    .collect()
            });
            ts.sort_keys();
            return Err(Failed::partial(
                err,
                TVal::typed(Value::Object(out), Type::Object(ts)),
            ));
        }
        if unknown_key {
            return Ok(TVal::unknown(Type::Any));
        }
        Ok(match types {
            Some(mut ts) => {
                ts.sort_keys();
                TVal::typed(Value::Object(out), Type::Object(ts))
            }
            None => TVal::plain(Value::Object(out)),
        })
    }

    /// An object item's key, `None` when it is unknown.
    fn object_key(&self, item: &'a hcl_grammar::ObjectItem<'a>) -> Result<Option<String>> {
        let e = match &item.key {
            ObjectKey::Ident(i) => return Ok(Some(i.name.to_owned())),
            ObjectKey::Expr(e) => e,
        };
        if is_multi_step_traversal(e) {
            return Err(Error::eval(
                "ambiguous object key: wrap it in parentheses if it is a reference, \
                 or in quotes if it is a literal name containing periods",
                e.span,
            ));
        }
        let k = self.eval(e)?;
        if k.is_unknown() {
            return Ok(None);
        }
        match &k.v {
            // The reference points at the value here.
            Value::Null => Err(Error::eval(
                "an object key must not be null",
                item.value.span,
            )),
            v => convert::primitive_to_string(v).map(Some).ok_or_else(|| {
                Error::eval(
                    format!(
                        "an object key must be a string, not {}",
                        k.ty().friendly_name()
                    ),
                    e.span,
                )
            }),
        }
    }
}

/// Whether `e` is a bare traversal of more than one step (`a.b`,
/// `a[0]`), which the reference refuses as an object key because it cannot
/// tell a reference from a dotted name.
fn is_multi_step_traversal(e: &Expr<'_>) -> bool {
    fn root_is_var(e: &Expr<'_>) -> bool {
        match &e.kind {
            ExprKind::Variable(_) => true,
            ExprKind::GetAttr(g) => root_is_var(&g.object),
            ExprKind::Index(ix) => {
                matches!(ix.key.kind, ExprKind::Number(_) | ExprKind::String(_))
                    && root_is_var(&ix.collection)
            }
            _ => false,
        }
    }
    matches!(e.kind, ExprKind::GetAttr(_) | ExprKind::Index(_)) && root_is_var(e)
}

/// A child value with its type tag, if its parent had an explicit type.
fn retag(v: Value, t: Option<Type>) -> TVal {
    match t {
        Some(t) => TVal::typed(v, t),
        None => TVal::plain(v),
    }
}

/// `"; did you mean `y`?"` when a name within edit distance 2 exists (as
/// the reference's suggestion rule), or an empty string.
pub(crate) fn did_you_mean<'n>(name: &str, candidates: impl Iterator<Item = &'n str>) -> String {
    let mut best: Option<(usize, &str)> = None;
    for c in candidates {
        let Some(d) = crate::error::edit_distance_within(name, c, 2) else {
            continue;
        };
        if best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, c));
        }
    }
    match best {
        Some((_, c)) => format!("; did you mean `{c}`?"),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggestions() {
        assert_eq!(
            did_you_mean("nmae", ["name", "other"].into_iter()),
            "; did you mean `name`?"
        );
        assert_eq!(did_you_mean("zzzz", ["name"].into_iter()), "");
    }
}
