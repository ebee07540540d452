//! The evaluator: one method per kind of expression.

use super::context::{Context, EvalOptions};
use super::convert::{self, kind_of, quote};
use super::func::{FuncArgs, LazyArg};
use super::types::Type;
use super::unknown;
use crate::error::{Error, Result};
use crate::value::{Map, Value};
use crate::{Number, NumberError};
use hcl_grammar::{
    BinaryExpr, BinaryOp, Conditional, Expr, ExprKind, ForExpr, FuncCall, GetAttrExpr, Ident,
    IndexExpr, ObjectKey, Span, SplatExpr, Template, TemplateFor, TemplateIf, TemplatePart,
    UnaryExpr, UnaryOp,
};
use std::cell::{Cell, RefCell};

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
        TVal {
            v,
            t: None,
            unknown: false,
        }
    }

    fn typed(v: Value, t: Type) -> TVal {
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
    /// How many `for` conditions are being checked with unknown variables.
    unknown_scope: Cell<usize>,
    /// Whether the template being built has an unknown part.
    template_unknown: Cell<bool>,
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
            unknown_scope: Cell::new(0),
            template_unknown: Cell::new(false),
        }
    }

    pub(crate) fn options(&self) -> &EvalOptions {
        &self.opts
    }

    /// Evaluates `expr`, guarding the nesting depth.
    pub(crate) fn eval(&self, expr: &'a Expr<'a>) -> Result<TVal> {
        let d = self.depth.get() + 1;
        if d > self.opts.max_depth() {
            return Err(Error::eval(
                format!(
                    "the expression is nested too deeply to evaluate (limit: {} levels)",
                    self.opts.max_depth()
                ),
                expr.span,
            ));
        }
        self.depth.set(d);
        let r = self.eval_inner(expr);
        self.depth.set(d - 1);
        r
    }

    fn eval_inner(&self, expr: &'a Expr<'a>) -> Result<TVal> {
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
            ExprKind::Template(t) => self.template(&t.template),
            ExprKind::Tuple(items) => self.tuple(items, span),
            ExprKind::Object(items) => self.object(items, span),
            ExprKind::Variable(ident) => self.variable(ident),
            ExprKind::Call(call) => self.call(call, span),
            ExprKind::For(f) => self.for_expr(f, span),
            ExprKind::Index(ix) => match self.fast_traversal(expr) {
                Some(v) => Ok(v),
                None => self.index(ix, span),
            },
            ExprKind::GetAttr(ga) => match self.fast_traversal(expr) {
                Some(v) => Ok(v),
                None => self.get_attr(ga),
            },
            ExprKind::Splat(s) => self.splat(s),
            ExprKind::SplatItem => {
                self.splat_items.borrow().last().cloned().ok_or_else(|| {
                    Error::eval("a splat element outside of a splat expression", span)
                })
            }
            ExprKind::Unary(u) => self.unary(u),
            ExprKind::Binary(b) => self.binary(b),
            ExprKind::Conditional(c) => self.conditional(c),
            ExprKind::Parens(inner) => self.eval(inner),
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

    fn tuple(&self, items: &'a [Expr<'a>], span: Span) -> Result<TVal> {
        self.check_collection_len(items.len(), span)?;
        let mut out = Vec::with_capacity(items.len());
        let mut types: Option<Vec<Type>> = None;
        let mut unknown = false;
        for (i, item) in items.iter().enumerate() {
            let tv = self.eval(item)?;
            unknown |= tv.is_unknown();
            if let Some(t) = tv.t {
                let ts = types.get_or_insert_with(|| out.iter().map(Type::of).collect());
                debug_assert_eq!(ts.len(), i);
                ts.push(*t);
            } else if let Some(ts) = types.as_mut() {
                ts.push(Type::of(&tv.v));
            }
            out.push(tv.v);
        }
        Ok(match types {
            Some(ts) if unknown => TVal::unknown(Type::Tuple(ts)),
            Some(ts) => TVal::typed(Value::Array(out), Type::Tuple(ts)),
            None => TVal::plain(Value::Array(out)),
        })
    }

    fn object(&self, items: &'a [hcl_grammar::ObjectItem<'a>], span: Span) -> Result<TVal> {
        self.check_collection_len(items.len(), span)?;
        let mut out = Map::with_capacity(items.len());
        let mut types: Option<Map<String, Type>> = None;
        // An unknown key makes the object's type unknown too (`Some(Any)`).
        let mut unknown: Option<Type> = None;
        for item in items {
            let key = match &item.key {
                ObjectKey::Ident(i) => i.name.to_owned(),
                ObjectKey::Expr(e) => {
                    if is_multi_step_traversal(e) {
                        return Err(Error::eval(
                            "ambiguous object key: wrap it in parentheses if it is a reference, \
                             or in quotes if it is a literal name containing periods",
                            e.span,
                        ));
                    }
                    let k = self.eval(e)?;
                    if k.is_unknown() {
                        self.eval(&item.value)?;
                        unknown = Some(Type::Any);
                        continue;
                    }
                    match &k.v {
                        // The reference points at the value here.
                        Value::Null => {
                            return Err(Error::eval(
                                "an object key must not be null",
                                item.value.span,
                            ))
                        }
                        v => convert::primitive_to_string(v).ok_or_else(|| {
                            Error::eval(
                                format!(
                                    "an object key must be a string, not {}",
                                    k.ty().friendly_name()
                                ),
                                e.span,
                            )
                        })?,
                    }
                }
            };
            let tv = self.eval(&item.value)?;
            if tv.is_unknown() && unknown.is_none() {
                unknown = Some(Type::Object(Map::new()));
            }
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
        if let Some(u) = unknown {
            return Ok(TVal::unknown(match u {
                Type::Any => Type::Any,
                _ => {
                    let mut ts = types.unwrap_or_default();
                    ts.sort_keys();
                    Type::Object(ts)
                }
            }));
        }
        Ok(match types {
            Some(mut ts) => {
                ts.sort_keys();
                TVal::typed(Value::Object(out), Type::Object(ts))
            }
            None => TVal::plain(Value::Object(out)),
        })
    }

    // -- variables and traversals ------------------------------------------

    fn variable(&self, ident: &Ident<'a>) -> Result<TVal> {
        if let Some((_, v)) = self
            .locals
            .borrow()
            .iter()
            .rev()
            .find(|(n, _)| *n == ident.name)
        {
            return Ok(v.clone());
        }
        if !self.ctx.supports_vars() {
            return Err(Error::eval(
                format!("variables are not allowed here (found `{}`)", ident.name),
                ident.span,
            ));
        }
        match self.ctx.var(ident.name) {
            Some(v) => Ok(TVal::plain(v.clone())),
            None => {
                let locals = self.locals.borrow();
                let names = self.ctx.var_names().chain(locals.iter().map(|(n, _)| *n));
                Err(Error::eval(
                    format!(
                        "there is no variable named `{}`{}",
                        ident.name,
                        did_you_mean(ident.name, names)
                    ),
                    ident.span,
                ))
            }
        }
    }

    /// Resolves a traversal with literal steps from a variable (`a.b[0].c`,
    /// the reference's `ScopeTraversalExpr`) by reference, cloning only
    /// the result. `None` when the expression is not such a traversal or a
    /// step fails: the general path then evaluates it and reports the
    /// error.
    fn fast_traversal(&self, expr: &'a Expr<'a>) -> Option<TVal> {
        self.traverse_ref(expr, |v, t| retag(v.clone(), t))
    }

    /// Calls `f` with the value (and explicit type) a variable traversal
    /// refers to, without cloning it; `None` as for
    /// [`fast_traversal`](Evaluator::fast_traversal).
    fn traverse_ref<R>(
        &self,
        expr: &'a Expr<'a>,
        f: impl FnOnce(&Value, Option<Type>) -> R,
    ) -> Option<R> {
        let locals = self.locals.borrow();
        let (v, t) = self.resolve(expr, &locals)?;
        Some(f(v, t))
    }

    /// The recursion of [`traverse_ref`](Evaluator::traverse_ref); its depth
    /// is the expression's, which the parser bounds.
    fn resolve<'v>(
        &'v self,
        expr: &Expr<'_>,
        locals: &'v [(&'a str, TVal)],
    ) -> Option<(&'v Value, Option<Type>)> {
        match &expr.kind {
            ExprKind::Variable(id) => match locals.iter().rev().find(|(n, _)| *n == id.name) {
                Some((_, tv)) if tv.is_unknown() => None,
                Some((_, tv)) => Some((&tv.v, tv.t.as_deref().cloned())),
                None => Some((self.ctx.var(id.name)?, None)),
            },
            ExprKind::GetAttr(g) => {
                let (v, t) = self.resolve(&g.object, locals)?;
                match v {
                    Value::Object(m) => {
                        let name = g.name.name;
                        Some((m.get(name)?, child_type(t.as_ref(), Child::Key(name))))
                    }
                    _ => None,
                }
            }
            ExprKind::Index(ix) => {
                if !matches!(ix.key.kind, ExprKind::Number(_) | ExprKind::String(_)) {
                    return None;
                }
                let (v, t) = self.resolve(&ix.collection, locals)?;
                match v {
                    Value::Array(items) => {
                        if matches!(t, Some(Type::Set(_))) {
                            return None;
                        }
                        let i = match &ix.key.kind {
                            ExprKind::Number(n) => Number::from_literal(n)?,
                            ExprKind::String(s) => convert::parse_number(s)?,
                            _ => return None,
                        };
                        let i = usize::try_from(i.as_u64()?).ok()?;
                        Some((items.get(i)?, child_type(t.as_ref(), Child::Index(i))))
                    }
                    Value::Object(m) => {
                        let k: std::borrow::Cow<'_, str> = match &ix.key.kind {
                            ExprKind::String(s) => std::borrow::Cow::Borrowed(s.as_ref()),
                            ExprKind::Number(n) => Number::from_literal(n)?.to_string().into(),
                            _ => return None,
                        };
                        let ct = child_type(t.as_ref(), Child::Key(&k));
                        Some((m.get(k.as_ref())?, ct))
                    }
                    _ => None,
                }
            }
            _ => None,
        }
    }

    fn get_attr(&self, ga: &'a GetAttrExpr<'a>) -> Result<TVal> {
        let obj = self.eval(&ga.object)?;
        let name = ga.name.name;
        if obj.is_unknown() {
            return Ok(TVal::unknown(Type::Any));
        }
        // The reference points at the `.name` step: include the dot when
        // it directly precedes the name.
        let span = if ga.name.span.start > ga.object.span.end {
            Span::new(ga.name.span.start - 1, ga.name.span.end)
        } else {
            ga.name.span
        };
        match obj.v {
            Value::Object(mut m) => {
                let is_map = matches!(obj.t.as_deref(), Some(Type::Map(_)));
                match m.swap_remove(name) {
                    Some(v) => {
                        let t = child_type(obj.t.as_deref(), Child::Key(name));
                        Ok(retag(v, t))
                    }
                    None if is_map => Err(Error::eval(
                        format!("this map does not have an element with the key {}", quote(name)),
                        span,
                    )),
                    None => Err(Error::eval(
                        format!(
                            "this object does not have an attribute named `{name}`{}",
                            did_you_mean(name, m.keys().map(String::as_str))
                        ),
                        span,
                    )),
                }
            }
            Value::Null => Err(Error::eval(
                format!("cannot get attribute `{name}` of null: this value is null, so it has no attributes"),
                span,
            )),
            Value::Array(_) => Err(Error::eval(
                format!(
                    "cannot access attribute `{name}` on a {}: did you mean to use a splat (`[*].{name}`)?",
                    if obj.is_set() { "set" } else { "list" }
                ),
                span,
            )),
            ref v => Err(Error::eval(
                format!(
                    "cannot access attribute `{name}` on a primitive-typed value ({})",
                    kind_of(v)
                ),
                span,
            )),
        }
    }

    fn index(&self, ix: &'a IndexExpr<'a>, _span: Span) -> Result<TVal> {
        let coll = self.eval(&ix.collection)?;
        let key = self.eval(&ix.key)?;
        if unknown::any_unknown([&coll, &key]) {
            return Ok(TVal::unknown(Type::Any));
        }
        self.index_value(coll, &key.v, ix.bracket)
    }

    fn index_value(&self, coll: TVal, key: &Value, bracket: Span) -> Result<TVal> {
        if key.is_null() {
            return Err(Error::eval("cannot use a null value as an index", bracket));
        }
        let (is_set, is_map) = (coll.is_set(), coll.is_map());
        match coll.v {
            Value::Null => Err(Error::eval("cannot index a null value", bracket)),
            Value::Array(mut items) => {
                if is_set {
                    return Err(Error::eval(
                        "elements of a set are identified only by their value and have no index: \
                         convert the set to a list first (`tolist`)",
                        bracket,
                    ));
                }
                let n = match convert::to_number(key) {
                    Ok(n) => n,
                    Err(_) => {
                        return Err(Error::eval(
                            format!(
                                "a {} index must be a number, not {}",
                                seq_name(coll.t.as_deref()),
                                kind_of(key)
                            ),
                            bracket,
                        ))
                    }
                };
                if !n.is_integer() {
                    return Err(Error::eval(
                        format!("the index {n} is not a whole number"),
                        bracket,
                    ));
                }
                if n.is_negative() {
                    return Err(Error::eval(
                        format!(
                            "the index {n} is negative: a negative number is not a valid index"
                        ),
                        bracket,
                    ));
                }
                let len = items.len();
                match n.as_u64().and_then(|i| usize::try_from(i).ok()) {
                    Some(i) if i < len => {
                        let t = child_type(coll.t.as_deref(), Child::Index(i));
                        Ok(retag(items.swap_remove(i), t))
                    }
                    _ => Err(Error::eval(
                        format!(
                            "the index {n} is out of range for a {} of {len} element{}",
                            seq_name(coll.t.as_deref()),
                            if len == 1 { "" } else { "s" }
                        ),
                        bracket,
                    )),
                }
            }
            Value::Object(mut m) => {
                let Some(k) = convert::primitive_to_string(key) else {
                    return Err(Error::eval(
                        format!("an object key must be a string, not {}", kind_of(key)),
                        bracket,
                    ));
                };
                match m.swap_remove(k.as_str()) {
                    Some(v) => {
                        let t = child_type(coll.t.as_deref(), Child::Key(&k));
                        Ok(retag(v, t))
                    }
                    None => Err(Error::eval(
                        format!(
                            "the {} does not have an element with the key {}{}",
                            if is_map { "map" } else { "object" },
                            quote(&k),
                            did_you_mean(&k, m.keys().map(String::as_str))
                        ),
                        bracket,
                    )),
                }
            }
            ref v => Err(Error::eval(
                format!(
                    "a {} value cannot be indexed: it has no elements",
                    kind_of(v)
                ),
                bracket,
            )),
        }
    }

    fn splat(&self, s: &'a SplatExpr<'a>) -> Result<TVal> {
        let source = self.eval(&s.source)?;
        if source.is_unknown() {
            return Ok(TVal::unknown(Type::Any));
        }
        let (items, kind) =
            match source.v {
                Value::Null => {
                    if source.t.as_ref().is_some_and(|t| {
                        matches!(&**t, Type::List(_) | Type::Set(_) | Type::Tuple(_))
                    }) {
                        return Err(Error::eval(
                            "a splat expression cannot be applied to a null sequence",
                            s.source.span.to(s.marker),
                        ));
                    }
                    return Ok(TVal::plain(Value::Array(Vec::new())));
                }
                Value::Array(items) => {
                    let kind = match source.t.as_deref() {
                        Some(Type::List(_)) => SeqKind::List,
                        Some(Type::Set(_)) => SeqKind::Set,
                        _ => SeqKind::Tuple,
                    };
                    let elem_t = |i: usize| child_type(source.t.as_deref(), Child::Index(i));
                    let items: Vec<TVal> = items
                        .into_iter()
                        .enumerate()
                        .map(|(i, v)| retag(v, elem_t(i)))
                        .collect();
                    (items, kind)
                }
                v => (
                    vec![TVal {
                        v,
                        t: source.t,
                        unknown: false,
                    }],
                    SeqKind::Tuple,
                ),
            };
        let mut out = Vec::with_capacity(items.len());
        let mut types = Vec::with_capacity(items.len());
        for item in items {
            self.splat_items.borrow_mut().push(item);
            let r = self.eval(&s.each);
            self.splat_items.borrow_mut().pop();
            let r = r?;
            types.push(r.t.as_deref().cloned());
            out.push(r.v);
        }
        let any_typed = types.iter().any(Option::is_some);
        let tys = |out: &[Value]| -> Vec<Type> {
            types
                .iter()
                .zip(out)
                .map(|(t, v)| t.clone().unwrap_or_else(|| Type::of(v)))
                .collect()
        };
        Ok(match kind {
            SeqKind::Tuple if !any_typed => TVal::plain(Value::Array(out)),
            SeqKind::Tuple => {
                let ts = tys(&out);
                TVal::typed(Value::Array(out), Type::Tuple(ts))
            }
            // As the reference: a splat over a set yields a list.
            SeqKind::List | SeqKind::Set => {
                let t = convert::unify(&tys(&out)).unwrap_or(Type::Any);
                TVal::typed(Value::Array(out), Type::list(t))
            }
        })
    }

    // -- operators ---------------------------------------------------------

    fn unary(&self, u: &'a UnaryExpr<'a>) -> Result<TVal> {
        let v = self.eval(&u.operand)?;
        if v.is_unknown() {
            let to = match u.op {
                UnaryOp::Neg => Type::Number,
                UnaryOp::Not => Type::Bool,
            };
            unknown::check_convertible(&v.ty(), &to).map_err(|m| {
                Error::eval(
                    format!("unsuitable value for the operand: {m}"),
                    u.operand.span,
                )
            })?;
            return Ok(TVal::unknown(to));
        }
        match u.op {
            UnaryOp::Neg => {
                let n = operand_number(&v.v, u.operand.span, "operand")?;
                Ok(TVal::plain(Value::Number(n.neg())))
            }
            UnaryOp::Not => {
                let b = operand_bool(&v.v, u.operand.span, "operand")?;
                Ok(TVal::plain(Value::Bool(!b)))
            }
        }
    }

    fn binary(&self, b: &'a BinaryExpr<'a>) -> Result<TVal> {
        let lhs = self.eval(&b.lhs)?;
        let rhs = self.eval(&b.rhs)?;
        if unknown::any_unknown([&lhs, &rhs]) {
            return self.binary_unknown(b, &lhs, &rhs);
        }
        // A null operand: the reference points at the whole operation.
        let whole = b.lhs.span.to(b.rhs.span);
        let null = lhs.v.is_null() || rhs.v.is_null();
        let (ls, rs) = if null {
            (whole, whole)
        } else {
            (b.lhs.span, b.rhs.span)
        };
        let v = match b.op {
            BinaryOp::Eq => Value::Bool(values_equal(&lhs, &rhs)),
            BinaryOp::Ne => Value::Bool(!values_equal(&lhs, &rhs)),
            BinaryOp::And | BinaryOp::Or => {
                let l = operand_bool(&lhs.v, ls, "left operand")?;
                let r = operand_bool(&rhs.v, rs, "right operand")?;
                Value::Bool(if b.op == BinaryOp::And {
                    l && r
                } else {
                    l || r
                })
            }
            op => {
                let l = operand_number(&lhs.v, ls, "left operand")?;
                let r = operand_number(&rhs.v, rs, "right operand")?;
                let span = b.lhs.span.to(b.rhs.span);
                let arith = |res: std::result::Result<Number, NumberError>| {
                    res.map(Value::Number).map_err(|e| {
                        Error::eval(
                            format!("cannot compute `{l} {} {r}`: {e}", op.as_str()),
                            span,
                        )
                    })
                };
                match op {
                    BinaryOp::Add => arith(l.checked_add(&r))?,
                    BinaryOp::Sub => arith(l.checked_sub(&r))?,
                    BinaryOp::Mul => arith(l.checked_mul(&r))?,
                    BinaryOp::Div => arith(l.checked_div(&r))?,
                    BinaryOp::Mod => arith(l.checked_rem(&r))?,
                    BinaryOp::Lt => Value::Bool(l < r),
                    BinaryOp::Le => Value::Bool(l <= r),
                    BinaryOp::Gt => Value::Bool(l > r),
                    BinaryOp::Ge => Value::Bool(l >= r),
                    BinaryOp::Eq | BinaryOp::Ne | BinaryOp::And | BinaryOp::Or => Value::Null,
                }
            }
        };
        Ok(TVal::plain(v))
    }

    /// A binary operation with an unknown operand: the operands' types are
    /// checked, the result is unknown.
    fn binary_unknown(&self, b: &'a BinaryExpr<'a>, lhs: &TVal, rhs: &TVal) -> Result<TVal> {
        let (operand, result) = match b.op {
            BinaryOp::Eq | BinaryOp::Ne => return Ok(TVal::unknown(Type::Bool)),
            BinaryOp::And | BinaryOp::Or => (Type::Bool, Type::Bool),
            BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge => (Type::Number, Type::Bool),
            _ => (Type::Number, Type::Number),
        };
        for (v, e, which) in [
            (lhs, &b.lhs, "left operand"),
            (rhs, &b.rhs, "right operand"),
        ] {
            let checked = if v.is_unknown() {
                unknown::check_convertible(&v.ty(), &operand)
            } else if operand == Type::Bool {
                convert::to_bool(&v.v).map(|_| ())
            } else {
                convert::to_number(&v.v).map(|_| ())
            };
            checked.map_err(|m| {
                Error::eval(format!("unsuitable value for the {which}: {m}"), e.span)
            })?;
        }
        Ok(TVal::unknown(result))
    }

    fn conditional(&self, c: &'a Conditional<'a>) -> Result<TVal> {
        // As the reference: both results are evaluated (their types decide
        // the result type) but only the taken branch's error is reported.
        let t = self.eval(&c.then_expr);
        let f = self.eval(&c.else_expr);
        // Each branch's type: `None` for an untyped null; for a failed
        // branch, the type the reference gives its error value.
        let branch_type = |r: &Result<TVal>, e: &Expr<'_>| match r {
            Ok(v) if v.v.is_null() && v.t.is_none() && !v.is_unknown() => None,
            Ok(v) => Some(v.ty()),
            Err(err) => Some(match (&unparen(e).kind, err.value_type()) {
                (ExprKind::Conditional(_), Some(t)) => t.clone(),
                _ => static_type(e),
            }),
        };
        let (tt, ft) = (branch_type(&t, &c.then_expr), branch_type(&f, &c.else_expr));
        let result_type = match (tt, ft) {
            (None, Some(x)) | (Some(x), None) => Some(x),
            (None, None) => None,
            (Some(Type::Any), _) | (_, Some(Type::Any)) => None,
            (Some(tt), Some(ft)) => match convert::unify(&[tt.clone(), ft.clone()]) {
                Some(u) => Some(u),
                None => {
                    return Err(Error::eval(
                        format!(
                        "the true and false results of a conditional must have consistent types: \
                             the true result is {} and the false result is {}",
                        tt.friendly_name(),
                        ft.friendly_name()
                    ),
                        c.then_expr.span.to(c.else_expr.span),
                    ))
                }
            },
        };
        let hint = |e: Error| e.with_value_type(result_type.clone().unwrap_or(Type::Any));
        let cond = self.eval(&c.cond).map_err(hint)?;
        if cond.is_unknown() {
            return Ok(TVal::unknown(result_type.unwrap_or(Type::Any)));
        }
        let taken = match &cond.v {
            Value::Null => {
                return Err(hint(Error::eval(
                    "the condition is null: a condition must be either true or false",
                    c.cond.span,
                )))
            }
            v => convert::to_bool(v).map_err(|_| {
                hint(Error::eval(
                    format!(
                        "the condition must be a bool, not {}",
                        cond.ty().friendly_name()
                    ),
                    c.cond.span,
                ))
            })?,
        };
        let (r, span) = if taken {
            (t, c.then_expr.span)
        } else {
            (f, c.else_expr.span)
        };
        let r = r.map_err(hint)?;
        if r.is_unknown() {
            let t = match result_type {
                Some(rt) if rt != Type::Any => rt,
                _ => r.ty(),
            };
            return Ok(TVal::unknown(t));
        }
        match result_type {
            Some(rt) if rt != Type::Any => {
                let from = r.ty();
                if from == rt {
                    return Ok(r);
                }
                let (v, ty) = convert::convert_typed(r.v, &from, &rt).map_err(|m| {
                    Error::eval(
                        format!(
                            "the conditional's result cannot be converted to {}: {m}",
                            rt.friendly_name()
                        ),
                        span,
                    )
                    .with_value_type(rt.clone())
                })?;
                Ok(TVal::typed(v, ty))
            }
            _ => Ok(r),
        }
    }

    // -- for expressions -----------------------------------------------------

    /// The elements a `for` iterates over, in the reference's order:
    /// sequences by index, objects and maps by key, lexicographically.
    fn iteration_items(&self, coll: TVal, span: Span, what: &str) -> Result<Vec<(TVal, TVal)>> {
        let set = coll.is_set();
        match coll.v {
            Value::Null => Err(Error::eval(
                format!("a null value cannot be used as the collection in a {what}"),
                span,
            )),
            Value::Array(items) => Ok(items
                .into_iter()
                .enumerate()
                .map(|(i, v)| {
                    let t = child_type(coll.t.as_deref(), Child::Index(i));
                    let item = retag(v, t);
                    let key = if set {
                        item.clone()
                    } else {
                        TVal::plain(Value::from(i))
                    };
                    (key, item)
                })
                .collect()),
            Value::Object(m) => {
                let mut entries: Vec<(String, Value)> = m.into_iter().collect();
                entries.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
                Ok(entries
                    .into_iter()
                    .map(|(k, v)| {
                        let t = child_type(coll.t.as_deref(), Child::Key(&k));
                        (TVal::plain(Value::String(k)), retag(v, t))
                    })
                    .collect())
            }
            ref v => Err(Error::eval(
                format!(
                    "a value of type {} cannot be used as the collection in a {what}",
                    kind_of(v)
                ),
                span,
            )),
        }
    }

    fn with_locals<T>(
        &self,
        key_var: Option<&Ident<'a>>,
        value_var: &Ident<'a>,
        key: TVal,
        value: TVal,
        f: impl FnOnce() -> Result<T>,
    ) -> Result<T> {
        let pushed = {
            let mut locals = self.locals.borrow_mut();
            let mut n = 0;
            if let Some(k) = key_var {
                locals.push((k.name, key));
                n += 1;
            }
            locals.push((value_var.name, value));
            n + 1
        };
        let r = f();
        let mut locals = self.locals.borrow_mut();
        let keep = locals.len().saturating_sub(pushed);
        locals.truncate(keep);
        r
    }

    /// The reference's early check of a `for` expression's `if` clause,
    /// with the iteration variables unknown: it reports a clause of the
    /// wrong type even when the collection is empty.
    fn check_for_condition(&self, f: &'a ForExpr<'a>, cond: &'a Expr<'a>) -> Result<()> {
        let any = || TVal::unknown(Type::Any);
        self.unknown_scope.set(self.unknown_scope.get() + 1);
        let r = self.with_locals(f.key_var.as_ref(), &f.value_var, any(), any(), || {
            self.eval(cond)
        });
        self.unknown_scope.set(self.unknown_scope.get() - 1);
        let c = r?;
        if c.is_unknown() {
            return unknown::check_convertible(&c.ty(), &Type::Bool).map_err(|_| {
                Error::eval(
                    format!(
                        "the `if` condition of a `for` expression must be a bool, not {}",
                        c.ty().friendly_name()
                    ),
                    cond.span,
                )
            });
        }
        match &c.v {
            Value::Null => Err(Error::eval(
                "the `if` condition of a `for` expression must not be null",
                cond.span,
            )),
            v => convert::to_bool(v).map(|_| ()).map_err(|_| {
                Error::eval(
                    format!(
                        "the `if` condition of a `for` expression must be a bool, not {}",
                        c.ty().friendly_name()
                    ),
                    cond.span,
                )
            }),
        }
    }

    fn for_expr(&self, f: &'a ForExpr<'a>, span: Span) -> Result<TVal> {
        let coll = self.eval(&f.collection)?;
        if coll.is_unknown() {
            return Ok(TVal::unknown(Type::Any));
        }
        let items = self.iteration_items(coll, f.collection.span, "`for` expression")?;
        if let Some(cond) = &f.cond {
            self.check_for_condition(f, cond)?;
        }
        let mut tuple_out: Vec<Value> = Vec::new();
        let mut tuple_types: Option<Vec<Type>> = None;
        let mut obj_out: Map<String, Value> = Map::new();
        let mut groups: Map<String, Vec<Value>> = Map::new();
        for (key, value) in items {
            self.count_iteration(f.intro)?;
            self.with_locals(f.key_var.as_ref(), &f.value_var, key, value, || {
                if let Some(cond) = &f.cond {
                    let c = self.eval(cond)?;
                    let keep = match &c.v {
                        Value::Null => {
                            return Err(Error::eval(
                                "the `if` condition of a `for` expression must not be null",
                                cond.span,
                            ))
                        }
                        v => convert::to_bool(v).map_err(|_| {
                            Error::eval(
                                format!(
                                    "the `if` condition of a `for` expression must be a bool, not {}",
                                    c.ty().friendly_name()
                                ),
                                cond.span,
                            )
                        })?,
                    };
                    if !keep {
                        return Ok(());
                    }
                }
                match &f.key_expr {
                    None => {
                        let v = self.eval(&f.value_expr)?;
                        self.check_collection_len(tuple_out.len() + 1, span)?;
                        if let Some(t) = v.t {
                            tuple_types
                                .get_or_insert_with(|| tuple_out.iter().map(Type::of).collect())
                                .push(*t);
                        } else if let Some(ts) = tuple_types.as_mut() {
                            ts.push(Type::of(&v.v));
                        }
                        tuple_out.push(v.v);
                    }
                    Some(key_expr) => {
                        let k = self.eval(key_expr)?;
                        let k = match &k.v {
                            Value::Null => {
                                return Err(Error::eval(
                                    "the key of a `for` expression must not be null",
                                    key_expr.span,
                                ))
                            }
                            v => convert::primitive_to_string(v).ok_or_else(|| {
                                Error::eval(
                                    format!(
                                        "the key of a `for` expression must be a string, not {}",
                                        k.ty().friendly_name()
                                    ),
                                    key_expr.span,
                                )
                            })?,
                        };
                        let v = self.eval(&f.value_expr)?;
                        if f.grouping {
                            let n = groups.len();
                            let group = groups.entry(k).or_default();
                            if group.is_empty() {
                                self.check_collection_len(n + 1, span)?;
                            }
                            group.push(v.v);
                        } else {
                            if obj_out.contains_key(&k) {
                                return Err(Error::eval(
                                    format!(
                                        "two elements produce the key {} in this `for` expression; \
                                         if duplicates are expected, use `...` after the value expression \
                                         to group them by key",
                                        quote(&k)
                                    ),
                                    key_expr.span,
                                ));
                            }
                            self.check_collection_len(obj_out.len() + 1, span)?;
                            obj_out.insert(k, v.v);
                        }
                    }
                }
                Ok(())
            })?;
        }
        Ok(if f.key_expr.is_none() {
            match tuple_types {
                Some(ts) => TVal::typed(Value::Array(tuple_out), Type::Tuple(ts)),
                None => TVal::plain(Value::Array(tuple_out)),
            }
        } else if f.grouping {
            TVal::plain(Value::Object(
                groups
                    .into_iter()
                    .map(|(k, v)| (k, Value::Array(v)))
                    .collect(),
            ))
        } else {
            TVal::plain(Value::Object(obj_out))
        })
    }

    // -- function calls ------------------------------------------------------

    fn call(&self, call: &'a FuncCall<'a>, span: Span) -> Result<TVal> {
        let name = call.name.name;
        if !self.ctx.supports_funcs() {
            return Err(Error::eval(
                format!("functions are not allowed here (found a call to `{name}`)"),
                call.name.span,
            ));
        }
        let Some(def) = self.ctx.func(name) else {
            return Err(Error::eval(
                format!(
                    "there is no function named `{name}`{}",
                    did_you_mean(name, self.ctx.func_names())
                ),
                call.name.span,
            ));
        };
        // The order of the reference (hcl's FunctionCallExpr.Value), which
        // decides which error comes first: the expanded argument, the
        // argument count, each argument evaluated then converted to its
        // parameter's type, and only then the null checks.
        let fixed = if call.expand_final {
            call.args.len().saturating_sub(1)
        } else {
            call.args.len()
        };
        let mut expanded: Vec<TVal> = Vec::new();
        let mut expand_span = call.parens;
        if call.expand_final {
            if let Some(arg) = call.args.last() {
                expand_span = arg.span;
                let v = self.eval(arg)?;
                if v.is_unknown() {
                    // The reference cannot know the number of arguments.
                    return Ok(TVal::unknown(Type::Any));
                }
                match v.v {
                    Value::Array(items) => {
                        for (j, item) in items.into_iter().enumerate() {
                            expanded.push(retag(item, child_type(v.t.as_deref(), Child::Index(j))));
                        }
                    }
                    Value::Null => {
                        return Err(Error::eval(
                            "the expanding argument (marked with `...`) must not be null",
                            arg.span,
                        ))
                    }
                    ref other => {
                        return Err(Error::eval(
                            format!(
                                "the expanding argument (marked with `...`) must be a list, set or tuple, not {}",
                                kind_of(other)
                            ),
                            arg.span,
                        ))
                    }
                }
            }
        }
        let total = fixed + expanded.len();
        let call_span = call.name.span.to(call.parens).to(span);
        let arg_span = |i: usize| match call.args.get(i) {
            Some(arg) if i < fixed => start_span(arg),
            _ => expand_span,
        };
        let close_paren = Span::new(call.parens.end.saturating_sub(1), call.parens.end);
        def.check_count(total).map_err(|e| {
            let at = e.arg_index().map_or(close_paren, arg_span);
            Error::eval(format!("in the call to `{name}`: {}", e.message()), at)
        })?;
        let mut args = Vec::with_capacity(total);
        let mut types = Vec::with_capacity(total);
        let mut lazy: Vec<Option<LazyArg<'_>>> = Vec::new();
        let mut expanded = expanded.into_iter();
        // Arguments whose value is unknown: the call's result is unknown.
        let mut unknown_args = vec![false; total];
        // An unknown argument of unknown type: cty gives up on the result
        // type unless the function allows it.
        let mut dynamic_arg = false;
        for i in 0..total {
            let Some(p) = def.param_for(i) else { break };
            let tv = match call.args.get(i) {
                Some(arg) if i < fixed => {
                    if p.is_lazy() {
                        // With unknown variables in scope, an argument that
                        // evaluates to an unknown value makes the call
                        // unknown (`can(x.a)` while checking a `for`
                        // condition); its errors stay the function's.
                        if self.unknown_scope.get() > 0
                            && self.eval(arg).is_ok_and(|t| t.is_unknown())
                        {
                            if let Some(u) = unknown_args.get_mut(i) {
                                *u = true;
                            }
                        }
                        lazy.resize_with(i, || None);
                        lazy.push(Some(Box::new(move || {
                            self.eval(arg).map(|t| {
                                let ty = t.ty();
                                (t.v, ty)
                            })
                        })));
                        args.push(Value::Null);
                        types.push(Type::Any);
                        continue;
                    }
                    self.eval(arg)?
                }
                _ => expanded.next().unwrap_or_else(|| TVal::plain(Value::Null)),
            };
            if tv.is_unknown() {
                let from = tv.ty();
                unknown::check_convertible(&from, p.ty()).map_err(|m| {
                    Error::eval(
                        format!(
                            "invalid value for parameter `{}` of `{name}`: {m}",
                            p.name()
                        ),
                        arg_span(i),
                    )
                })?;
                if let Some(u) = unknown_args.get_mut(i) {
                    *u = true;
                }
                dynamic_arg |= from == Type::Any;
                args.push(Value::Null);
                types.push(if p.ty().has_any() {
                    from
                } else {
                    p.ty().clone()
                });
                continue;
            }
            if tv.v.is_null() {
                // A typed null keeps its type for the function
                // (`coalesce` and `merge` check it).
                args.push(Value::Null);
                types.push(if *p.ty() == Type::Any {
                    tv.ty()
                } else {
                    p.ty().clone()
                });
                continue;
            }
            let from = tv.ty();
            let (v, t) = convert::convert_typed(tv.v, &from, p.ty()).map_err(|m| {
                Error::eval(
                    format!(
                        "invalid value for parameter `{}` of `{name}`: {m}",
                        p.name()
                    ),
                    arg_span(i),
                )
            })?;
            args.push(v);
            types.push(t);
        }
        for (i, v) in args.iter().enumerate() {
            let is_lazy = lazy.get(i).is_some_and(Option::is_some)
                || unknown_args.get(i).copied().unwrap_or(false);
            match def.param_for(i) {
                Some(p) if v.is_null() && !p.is_nullable() && !is_lazy => {
                    return Err(Error::eval(
                        format!(
                            "invalid value for parameter `{}` of `{name}`: the argument must not be null",
                            p.name()
                        ),
                        arg_span(i),
                    ));
                }
                _ => {}
            }
        }
        lazy.resize_with(args.len(), || None);
        let declared = def.return_type_for(&types);
        if unknown_args.contains(&true) {
            if dynamic_arg && !def.allows_dynamic_type() {
                return Ok(TVal::unknown(Type::Any));
            }
            return Ok(TVal::unknown(declared));
        }
        let result_type = RefCell::new(None);
        let result = def.invoke(FuncArgs::new(
            args,
            types,
            lazy,
            name,
            self.opts,
            &result_type,
        ));
        let declared = result_type.into_inner().unwrap_or(declared);
        match result {
            Ok(v) => {
                match &v {
                    Value::Array(a) => self.check_collection_len(a.len(), call_span)?,
                    Value::Object(o) => self.check_collection_len(o.len(), call_span)?,
                    Value::String(s) => self.check_string_len(s.len(), call_span)?,
                    _ => {}
                }
                if declared == Type::Any {
                    return Ok(TVal::plain(v));
                }
                let (v, t) = convert::convert(v, &declared).map_err(|m| {
                    Error::eval(
                        format!("`{name}` returned a value that is not a {declared}: {m}"),
                        call_span,
                    )
                })?;
                Ok(TVal::typed(v, t))
            }
            Err(e) => {
                let idx = e.arg_index();
                match e.into_source() {
                    Ok(inner) => Err(inner),
                    Err(e) => {
                        let at = idx.map_or(call_span, arg_span);
                        Err(Error::eval(
                            format!("call to function `{name}` failed: {}", e.message()),
                            at,
                        ))
                    }
                }
            }
        }
    }

    // -- templates ---------------------------------------------------------

    /// Evaluates a template, applying the unwrapping rule.
    pub(crate) fn template(&self, t: &'a Template<'a>) -> Result<TVal> {
        if let [TemplatePart::Interpolation(i)] = t.parts.as_slice() {
            return self.eval(&i.expr);
        }
        let mut out = String::new();
        let outer = self.template_unknown.replace(false);
        let r = self.template_into(t, &mut out);
        let unknown = self.template_unknown.replace(outer);
        r?;
        Ok(if unknown {
            TVal::unknown(Type::String)
        } else {
            TVal::plain(Value::String(out))
        })
    }

    fn template_into(&self, t: &'a Template<'a>, out: &mut String) -> Result<()> {
        for part in &t.parts {
            match part {
                TemplatePart::Literal(l) => out.push_str(&l.value),
                TemplatePart::Interpolation(i) => {
                    // A variable traversal to a primitive is appended in
                    // place, without cloning.
                    if self.traverse_ref(&i.expr, |v, _| push_primitive(out, v)) == Some(true) {
                        self.check_string_len(out.len(), t.span)?;
                        continue;
                    }
                    let v = self.eval(&i.expr)?;
                    if v.is_unknown() {
                        unknown::check_convertible(&v.ty(), &Type::String).map_err(|_| {
                            Error::eval(
                                format!(
                                    "cannot include a {} in a string template: a string is required",
                                    v.ty().friendly_name()
                                ),
                                i.expr.span,
                            )
                        })?;
                        self.template_unknown.set(true);
                        continue;
                    }
                    match &v.v {
                        Value::String(s) => out.push_str(s),
                        Value::Number(n) => {
                            use std::fmt::Write;
                            let _ = write!(out, "{n}");
                        }
                        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
                        Value::Null => {
                            return Err(Error::eval(
                                "cannot include a null value in a string template",
                                i.expr.span,
                            ))
                        }
                        _ => {
                            return Err(Error::eval(
                                format!(
                                "cannot include a {} in a string template: a string is required",
                                v.ty().friendly_name()
                            ),
                                i.expr.span,
                            ))
                        }
                    }
                }
                TemplatePart::If(d) => self.template_if(d, out)?,
                TemplatePart::For(d) => self.template_for(d, out)?,
            }
            self.check_string_len(out.len(), t.span)?;
        }
        Ok(())
    }

    fn template_if(&self, d: &'a TemplateIf<'a>, out: &mut String) -> Result<()> {
        let c = self.eval(&d.cond)?;
        if c.is_unknown() {
            self.template_unknown.set(true);
            return Ok(());
        }
        let b = match &c.v {
            Value::Null => {
                return Err(Error::eval(
                    "the condition of an `if` directive must not be null",
                    d.cond.span,
                ))
            }
            v => convert::to_bool(v).map_err(|_| {
                Error::eval(
                    format!(
                        "the condition of an `if` directive must be a bool, not {}",
                        c.ty().friendly_name()
                    ),
                    d.cond.span,
                )
            })?,
        };
        self.nested(d.if_span, || {
            if b {
                self.template_into(&d.then_template, out)
            } else if let Some(e) = &d.else_template {
                self.template_into(e, out)
            } else {
                Ok(())
            }
        })
    }

    fn template_for(&self, d: &'a TemplateFor<'a>, out: &mut String) -> Result<()> {
        let coll = self.eval(&d.collection)?;
        if coll.is_unknown() {
            self.template_unknown.set(true);
            return Ok(());
        }
        let items = self.iteration_items(coll, d.collection.span, "`for` directive")?;
        self.nested(d.for_span, || {
            for (key, value) in items {
                self.count_iteration(d.for_span)?;
                self.with_locals(d.key_var.as_ref(), &d.value_var, key, value, || {
                    self.template_into(&d.body, out)
                })?;
            }
            Ok(())
        })
    }

    /// Runs `f` one nesting level deeper (template directives recurse
    /// without going through [`eval`](Evaluator::eval)).
    fn nested<T>(&self, span: Span, f: impl FnOnce() -> Result<T>) -> Result<T> {
        let d = self.depth.get() + 1;
        if d > self.opts.max_depth() {
            return Err(Error::eval(
                format!(
                    "the template is nested too deeply to evaluate (limit: {} levels)",
                    self.opts.max_depth()
                ),
                span,
            ));
        }
        self.depth.set(d);
        let r = f();
        self.depth.set(d - 1);
        r
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum SeqKind {
    List,
    Set,
    Tuple,
}

fn seq_name(t: Option<&Type>) -> &'static str {
    match t {
        Some(Type::List(_)) => "list",
        _ => "tuple",
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

/// `e` without enclosing parentheses.
fn unparen<'e, 'i>(e: &'e Expr<'i>) -> &'e Expr<'i> {
    match &e.kind {
        ExprKind::Parens(inner) => unparen(inner),
        _ => e,
    }
}

/// The type of the value the reference gives an expression whose
/// evaluation failed (hcl returns an unknown value of the operation's
/// result type): it still takes part in a conditional's type unification.
fn static_type(e: &Expr<'_>) -> Type {
    match &e.kind {
        ExprKind::Bool(_) => Type::Bool,
        ExprKind::Number(_) => Type::Number,
        ExprKind::String(_) => Type::String,
        ExprKind::Template(t) => match t.template.parts.as_slice() {
            [TemplatePart::Interpolation(i)] => static_type(&i.expr),
            _ => Type::String,
        },
        ExprKind::Tuple(items) => Type::Tuple(items.iter().map(static_type).collect()),
        // An object with literal keys: its attribute types (a failed
        // attribute is unknown of its own type in the reference).
        ExprKind::Object(items) => {
            let mut attrs = Map::with_capacity(items.len());
            for item in items {
                let key = match &item.key {
                    ObjectKey::Ident(i) => i.name.to_owned(),
                    ObjectKey::Expr(Expr {
                        kind: ExprKind::String(s),
                        ..
                    }) => s.to_string(),
                    ObjectKey::Expr(_) => return Type::Any,
                };
                attrs.insert(key, static_type(&item.value));
            }
            attrs.sort_keys();
            Type::Object(attrs)
        }
        ExprKind::Unary(u) => match u.op {
            UnaryOp::Neg => Type::Number,
            UnaryOp::Not => Type::Bool,
        },
        ExprKind::Binary(b) => match b.op {
            BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul | BinaryOp::Div | BinaryOp::Mod => {
                Type::Number
            }
            _ => Type::Bool,
        },
        ExprKind::Conditional(c) => {
            let (t, f) = (static_type(&c.then_expr), static_type(&c.else_expr));
            if t == Type::Any || f == Type::Any {
                Type::Any
            } else {
                convert::unify(&[t, f]).unwrap_or(Type::Any)
            }
        }
        ExprKind::Parens(inner) => static_type(inner),
        _ => Type::Any,
    }
}

/// Appends a string, number or bool to a template's output; `false` (and
/// nothing appended) for any other value.
fn push_primitive(out: &mut String, v: &Value) -> bool {
    match v {
        Value::String(s) => out.push_str(s),
        Value::Number(n) => {
            use std::fmt::Write;
            let _ = write!(out, "{n}");
        }
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        _ => return false,
    }
    true
}

/// Where the reference's diagnostics about a function argument point
/// (hcl's `Expression.StartRange`): for a quoted string, its content, not
/// its opening quote (so `abs("x")` points at `x`); through parentheses.
fn start_span(e: &Expr<'_>) -> Span {
    match &e.kind {
        ExprKind::String(_) => {
            let s = e.span;
            // An empty string's (absent) content is after its closing quote.
            let at = if s.end.saturating_sub(s.start) <= 2 {
                s.end
            } else {
                s.start + 1
            };
            Span::new(at, s.end.max(at))
        }
        ExprKind::Parens(inner) => start_span(inner),
        ExprKind::Template(t) if t.heredoc.is_none() && !t.template.is_unwrappable() => {
            match t.template.parts.first() {
                Some(TemplatePart::Literal(l)) => l.span,
                Some(TemplatePart::Interpolation(i)) => start_span(&i.expr),
                _ => e.span,
            }
        }
        _ => e.span,
    }
}

/// A child value with its type tag, if its parent had an explicit type.
fn retag(v: Value, t: Option<Type>) -> TVal {
    match t {
        Some(t) => TVal::typed(v, t),
        None => TVal::plain(v),
    }
}

/// Equality as the reference: no conversion, types must match, deep.
fn values_equal(a: &TVal, b: &TVal) -> bool {
    if a.t.is_none() && b.t.is_none() {
        // Implied types: equal values have equal types.
        return a.v == b.v;
    }
    convert::equal_typed(&a.v, &a.ty(), &b.v, &b.ty())
}

fn operand_number(v: &Value, span: Span, which: &str) -> Result<Number> {
    convert::to_number(v)
        .map_err(|m| Error::eval(format!("unsuitable value for the {which}: {m}"), span))
}

fn operand_bool(v: &Value, span: Span, which: &str) -> Result<bool> {
    convert::to_bool(v)
        .map_err(|m| Error::eval(format!("unsuitable value for the {which}: {m}"), span))
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
