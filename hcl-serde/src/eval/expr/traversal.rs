//! Variables and traversals: attribute access, indexing and splats.

use super::{child_type, did_you_mean, retag, Child, Evaluator, Failed, Outcome, TVal};
use crate::error::{Error, Result};
use crate::eval::convert::{self, kind_of, quote};
use crate::eval::unknown;
use crate::value::types::Type;
use crate::value::Value;
use crate::Number;
use hcl_grammar::{Expr, ExprKind, GetAttrExpr, Ident, IndexExpr, Span, SplatExpr};

impl<'c, 'a> Evaluator<'c, 'a> {
    pub(super) fn variable(&self, ident: &Ident<'a>) -> Result<TVal> {
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
    pub(super) fn fast_traversal(&self, expr: &'a Expr<'a>) -> Option<TVal> {
        self.traverse_ref(expr, |v, t| retag(v.clone(), t))
    }

    /// Calls `f` with the value (and explicit type) a variable traversal
    /// refers to, without cloning it; `None` as for
    /// [`fast_traversal`](Evaluator::fast_traversal).
    pub(super) fn traverse_ref<R>(
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

    /// `object.name`. As the reference, a failed object's value (see
    /// [`Failed`]) is still traversed: the attribute is the failed
    /// expression's value, the object's error is reported.
    pub(super) fn get_attr(&self, ga: &'a GetAttrExpr<'a>) -> Outcome {
        match self.eval_failing(&ga.object) {
            Ok(obj) => self.get_attr_of(obj, ga).map_err(Failed::from),
            Err(f) => {
                let (err, obj) = f.into_value();
                Err(match self.get_attr_of(obj, ga) {
                    Ok(v) => Failed::partial(err, v),
                    Err(_) => Failed::from(err),
                })
            }
        }
    }

    fn get_attr_of(&self, obj: TVal, ga: &'a GetAttrExpr<'a>) -> Result<TVal> {
        let name = ga.name.name;
        // The reference points at the `.name` step: include the dot when
        // it directly precedes the name.
        let span = if ga.name.span.start() > ga.object.span.end() {
            Span::new(ga.name.span.start() - 1, ga.name.span.end())
        } else {
            ga.name.span
        };
        if obj.is_unknown() {
            // As hcl's GetAttr: the attribute's type where the object's
            // type tells it (a missing attribute is still an error).
            return match obj.ty() {
                Type::Object(attrs) => match attrs.get(name) {
                    Some(t) => Ok(TVal::unknown(t.clone())),
                    None => Err(Error::eval(
                        format!(
                            "this object does not have an attribute named `{name}`{}",
                            did_you_mean(name, attrs.keys().map(String::as_str))
                        ),
                        span,
                    )),
                },
                Type::Map(e) => Ok(TVal::unknown(*e)),
                t @ (Type::List(_) | Type::Set(_) | Type::Tuple(_)) => Err(Error::eval(
                    format!(
                        "cannot access attribute `{name}` on a {}: did you mean to use a splat (`[*].{name}`)?",
                        if matches!(t, Type::Set(_)) { "set" } else { "list" }
                    ),
                    span,
                )),
                t if t.is_primitive() => Err(Error::eval(
                    format!(
                        "cannot access attribute `{name}` on a primitive-typed value ({})",
                        t.friendly_name()
                    ),
                    span,
                )),
                _ => Ok(TVal::unknown(Type::Any)),
            };
        }
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

    /// `collection[key]`. As the reference, a failed collection's or
    /// key's value (see [`Failed`]) is still indexed: the element is the
    /// failed expression's value, the first error is reported.
    pub(super) fn index(&self, ix: &'a IndexExpr<'a>, _span: Span) -> Outcome {
        let mut failed = None;
        let mut value = |r: Outcome| match r {
            Ok(v) => v,
            Err(f) => {
                let (err, v) = f.into_value();
                failed.get_or_insert(err);
                v
            }
        };
        let coll = value(self.eval_failing(&ix.collection));
        let key = value(self.eval_failing(&ix.key));
        let r = if unknown::any_unknown([&coll, &key]) {
            self.index_unknown(&coll, &key, ix.bracket)
        } else {
            self.index_value(coll, &key.v, ix.bracket)
        };
        match (failed, r) {
            (None, r) => r.map_err(Failed::from),
            (Some(err), Ok(v)) => Err(Failed::partial(err, v)),
            (Some(err), Err(_)) => Err(Failed::from(err)),
        }
    }

    /// Indexing where the collection or the key is unknown, as hcl's
    /// Index: a list's or map's element type, a tuple's element at a known
    /// index, any type otherwise; a set has no index even then.
    fn index_unknown(&self, coll: &TVal, key: &TVal, bracket: Span) -> Result<TVal> {
        Ok(TVal::unknown(match coll.ty() {
            Type::Set(_) => {
                return self.index_value(
                    TVal::typed(Value::Array(Vec::new()), coll.ty()),
                    &Value::from(0),
                    bracket,
                )
            }
            Type::List(e) | Type::Map(e) => *e,
            Type::Tuple(ts) if !key.is_unknown() => {
                let i = convert::to_number(&key.v).ok().and_then(|n| n.as_u64());
                match i
                    .and_then(|i| usize::try_from(i).ok())
                    .and_then(|i| ts.get(i))
                {
                    Some(t) => t.clone(),
                    None => Type::Any,
                }
            }
            _ => Type::Any,
        }))
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

    /// A splat. As the reference, `each` runs on every element even after
    /// one fails; the failed splat is unknown of the type the splat would
    /// have ([`splat_type`](Evaluator::splat_type)).
    pub(super) fn splat(&self, s: &'a SplatExpr<'a>) -> Outcome {
        let source = self.eval(&s.source)?;
        if source.is_unknown() {
            return Ok(self.splat_unknown(s, source.ty())?);
        }
        let source_type = source.ty();
        let (items, kind) =
            match source.v {
                Value::Null => {
                    if source.t.as_ref().is_some_and(|t| {
                        matches!(&**t, Type::List(_) | Type::Set(_) | Type::Tuple(_))
                    }) {
                        return Err(Error::eval(
                            "a splat expression cannot be applied to a null sequence",
                            s.source.span.to(s.marker),
                        )
                        .into());
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
        let mut failed = None;
        for item in items {
            self.splat_items.borrow_mut().push(item);
            let r = self.eval(&s.each);
            self.splat_items.borrow_mut().pop();
            match r {
                Ok(r) if failed.is_none() => {
                    let r = r.into_held();
                    types.push(r.t.as_deref().cloned());
                    out.push(r.v);
                }
                Ok(_) => {}
                Err(e) => {
                    failed.get_or_insert(e);
                }
            }
        }
        if let Some(err) = failed {
            let source_type = match source_type {
                t @ (Type::List(_) | Type::Set(_) | Type::Tuple(_)) => t,
                t => Type::Tuple(vec![t]),
            };
            return Err(Failed::typed(err, Some(self.splat_type(s, source_type))));
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
}

impl<'c, 'a> Evaluator<'c, 'a> {
    /// A splat over an unknown value, as hcl's: unknown, of the type the
    /// splat would have, found by evaluating each step with an unknown
    /// element; unknown of any type for any other source.
    fn splat_unknown(&self, s: &'a SplatExpr<'a>, source: Type) -> Result<TVal> {
        let each = |t: Type| -> Result<Type> {
            self.splat_items.borrow_mut().push(TVal::unknown(t));
            let r = self.eval(&s.each);
            self.splat_items.borrow_mut().pop();
            r.map(|v| v.ty())
        };
        Ok(TVal::unknown(match source {
            Type::List(e) | Type::Set(e) => Type::list(each(*e)?),
            Type::Tuple(ts) => Type::Tuple(ts.into_iter().map(each).collect::<Result<_>>()?),
            _ => Type::Any,
        }))
    }
}

impl<'c, 'a> Evaluator<'c, 'a> {
    /// The type a splat over a value of type `source` has, as hcl's
    /// `resultTy`: `each` evaluated on an unknown element, a failure giving
    /// its failed value's type.
    fn splat_type(&self, s: &'a SplatExpr<'a>, source: Type) -> Type {
        let each = |t: Type| -> Type {
            self.splat_items.borrow_mut().push(TVal::unknown(t));
            let r = self.eval_failing(&s.each);
            self.splat_items.borrow_mut().pop();
            match r {
                Ok(v) => v.ty(),
                Err(f) => f.ty().unwrap_or(Type::Any),
            }
        };
        match source {
            Type::List(e) | Type::Set(e) => Type::list(each(*e)),
            Type::Tuple(ts) => Type::Tuple(ts.into_iter().map(each).collect()),
            _ => Type::Any,
        }
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
