//! `for` expressions, and the iteration and local variables they share with `for` directives.

use super::{child_type, retag, Child, Evaluator, Failed, Outcome, TVal};
use crate::error::{Error, Result};
use crate::eval::convert::{self, kind_of, quote};
use crate::eval::unknown;
use crate::value::types::Type;
use crate::value::{Map, Value};
use hcl_grammar::{Expr, ForExpr, Ident, Span};

impl<'c, 'a> Evaluator<'c, 'a> {
    /// The elements a `for` iterates over, in the reference's order:
    /// sequences by index, objects and maps by key, lexicographically.
    pub(super) fn iteration_items(
        &self,
        coll: TVal,
        span: Span,
        what: &str,
    ) -> Result<Vec<(TVal, TVal)>> {
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

    pub(super) fn with_locals<T>(
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
        let outer = self.unknowns.replace(true);
        let r = self.with_locals(f.key_var.as_ref(), &f.value_var, any(), any(), || {
            self.eval(cond)
        });
        self.unknowns.set(outer);
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

    /// A `for` expression. As the reference, an element whose condition,
    /// key or value fails does not stop the others: the failed
    /// expression's type (see [`Failed`]) is the tuple (the object) of the
    /// elements produced, failed ones included, or any type when a
    /// condition or key failed; the first error is reported.
    pub(super) fn for_expr(&self, f: &'a ForExpr<'a>, span: Span) -> Outcome {
        let coll = match self.eval_failing(&f.collection) {
            Ok(coll) => coll,
            Err(failed) => return self.for_over_failed(f, span, failed),
        };
        if coll.is_unknown() {
            return Ok(TVal::unknown(Type::Any));
        }
        let items = self.iteration_items(coll, f.collection.span, "`for` expression")?;
        if let Some(cond) = &f.cond {
            self.check_for_condition(f, cond)?;
        }
        let mut acc = Produced::default();
        for (key, value) in items {
            self.count_iteration(f.intro)?;
            self.with_locals(f.key_var.as_ref(), &f.value_var, key, value, || {
                self.for_element(f, span, &mut acc)
            })?;
        }
        acc.finish(f.key_expr.is_some(), f.grouping)
    }

    /// A `for` expression over a collection that failed to evaluate. The
    /// reference iterates over what the failed collection still gives (a
    /// tuple or object constructor's elements, a conditional's taken
    /// result, ...: see [`Failed`]), its failed elements unknown, and the
    /// `for` takes the type of what its elements give (a condition or key
    /// that depends on an unknown one makes it any type). A failed
    /// collection that is unknown or not iterable gives any type. The
    /// collection's error comes first.
    fn for_over_failed(&self, f: &'a ForExpr<'a>, span: Span, failed: Failed) -> Outcome {
        let (err, coll) = failed.into_partial();
        let Some(coll) = coll else {
            return Err(Failed::from(err));
        };
        let Ok(items) = self.iteration_items(coll, f.collection.span, "`for` expression") else {
            return Err(Failed::from(err));
        };
        let outer = self.unknowns.replace(true);
        let mut acc = Produced::default();
        let run = || {
            if let Some(cond) = &f.cond {
                self.check_for_condition(f, cond)?;
            }
            for (key, value) in items {
                self.count_iteration(f.intro)?;
                self.with_locals(f.key_var.as_ref(), &f.value_var, key, value, || {
                    self.for_element(f, span, &mut acc)
                })?;
            }
            Ok::<(), Error>(())
        };
        let r = run();
        self.unknowns.set(outer);
        match r.map(|()| acc.finish(f.key_expr.is_some(), f.grouping)) {
            Ok(Ok(tv)) => Err(Failed::partial(err, tv)),
            Ok(Err(g)) => Err(Failed { err, ..g }),
            Err(_) => Err(Failed::from(err)),
        }
    }

    /// One element of a `for` expression into `acc`. The element's own
    /// errors go into `acc` (the other elements are still evaluated); only
    /// a limit's error is returned.
    fn for_element(&self, f: &'a ForExpr<'a>, span: Span, acc: &mut Produced) -> Result<()> {
        if let Some(cond) = &f.cond {
            match self.for_condition(cond, acc) {
                Ok(Some(true)) => {}
                Ok(Some(false)) => return Ok(()),
                // Unknown, or failed: as hcl, the whole result becomes
                // unknown (of any type), after the remaining elements are
                // checked.
                Ok(None) => {
                    acc.unknown = true;
                    return Ok(());
                }
                Err(e) => return acc.fail_unknown(e),
            }
        }
        let Some(key_expr) = &f.key_expr else {
            let v = self.for_value(&f.value_expr, acc);
            self.check_collection_len(acc.tuple.len() + 1, span)?;
            if let Some(t) = v.t {
                acc.tuple_types
                    .get_or_insert_with(|| acc.tuple.iter().map(Type::of).collect())
                    .push(*t);
            } else if let Some(ts) = acc.tuple_types.as_mut() {
                ts.push(Type::of(&v.v));
            }
            acc.tuple.push(v.v);
            return Ok(());
        };
        let k = match self.for_key(key_expr, acc) {
            Ok(Some(k)) => k,
            Ok(None) => {
                acc.unknown = true;
                return Ok(());
            }
            Err(e) => return acc.fail_unknown(e),
        };
        let v = self.for_value(&f.value_expr, acc);
        if f.grouping {
            let n = acc.groups.len();
            let (values, types) = acc.groups.entry(k).or_default();
            if values.is_empty() {
                self.check_collection_len(n + 1, span)?;
            }
            if let Some(t) = v.t {
                types
                    .get_or_insert_with(|| values.iter().map(Type::of).collect())
                    .push(*t);
            } else if let Some(ts) = types.as_mut() {
                ts.push(Type::of(&v.v));
            }
            values.push(v.v);
            return Ok(());
        }
        if acc.object.contains_key(&k) {
            acc.fail(Error::eval(
                format!(
                    "two elements produce the key {} in this `for` expression; \
                     if duplicates are expected, use `...` after the value expression \
                     to group them by key",
                    quote(&k)
                ),
                key_expr.span,
            ));
            return Ok(());
        }
        self.check_collection_len(acc.object.len() + 1, span)?;
        if let Some(t) = v.t {
            acc.object_types
                .get_or_insert_with(|| {
                    acc.object
                        .iter()
                        .map(|(k, v)| (String::clone(k), Type::of(v)))
                        .collect()
                })
                .insert(k.clone(), *t);
        } else if let Some(ts) = acc.object_types.as_mut() {
            ts.insert(k.clone(), Type::of(&v.v));
        }
        acc.object.insert(k, v.v);
        Ok(())
    }

    /// An element's `if` clause: whether to keep the element, `None` when
    /// the clause is unknown. A failed clause's error goes into `acc`, and
    /// what it still gives decides (see [`Failed`]).
    fn for_condition(&self, cond: &'a Expr<'a>, acc: &mut Produced) -> Result<Option<bool>> {
        let c = self.eval_failing(cond).unwrap_or_else(|f| {
            let (err, c) = f.into_value();
            acc.fail(err);
            c
        });
        let wrong_type = |c: &TVal| {
            Error::eval(
                format!(
                    "the `if` condition of a `for` expression must be a bool, not {}",
                    c.ty().friendly_name()
                ),
                cond.span,
            )
        };
        if c.is_unknown() {
            return match unknown::check_convertible(&c.ty(), &Type::Bool) {
                Ok(()) => Ok(None),
                Err(_) => Err(wrong_type(&c)),
            };
        }
        match &c.v {
            Value::Null => Err(Error::eval(
                "the `if` condition of a `for` expression must not be null",
                cond.span,
            )),
            v => convert::to_bool(v).map(Some).map_err(|_| wrong_type(&c)),
        }
    }

    /// An element's key, `None` when it is unknown. A failed key's error
    /// goes into `acc`, and what it still gives is the key (a failed
    /// template's text, see [`Failed`]).
    fn for_key(&self, key_expr: &'a Expr<'a>, acc: &mut Produced) -> Result<Option<String>> {
        let k = self.eval_failing(key_expr).unwrap_or_else(|f| {
            let (err, k) = f.into_value();
            acc.fail(err);
            k
        });
        if k.is_unknown() {
            return Ok(None);
        }
        match &k.v {
            Value::Null => Err(Error::eval(
                "the key of a `for` expression must not be null",
                key_expr.span,
            )),
            v => convert::primitive_to_string(v).map(Some).ok_or_else(|| {
                Error::eval(
                    format!(
                        "the key of a `for` expression must be a string, not {}",
                        k.ty().friendly_name()
                    ),
                    key_expr.span,
                )
            }),
        }
    }

    /// An element's value; a failed one is a placeholder of the type the
    /// reference gives its error value, its error kept in `acc`.
    fn for_value(&self, value_expr: &'a Expr<'a>, acc: &mut Produced) -> TVal {
        match self.eval_failing(value_expr) {
            Ok(v) => v.into_held(),
            Err(failed) => {
                let (err, v) = failed.into_value();
                let v = v.into_held();
                acc.fail(err);
                v
            }
        }
    }
}

/// What a `for` expression has produced so far: the tuple's elements, or
/// the object's attributes, or the groups, each with their types when one
/// of them is tagged; whether every condition and key was known; the first
/// error of an element.
#[derive(Default)]
struct Produced {
    tuple: Vec<Value>,
    tuple_types: Option<Vec<Type>>,
    object: Map<String, Value>,
    object_types: Option<Map<String, Type>>,
    groups: Map<String, (Vec<Value>, Option<Vec<Type>>)>,
    /// A condition or key was unknown, or failed.
    unknown: bool,
    failed: Option<Error>,
}

impl Produced {
    /// Keeps the first error.
    fn fail(&mut self, e: Error) {
        self.failed.get_or_insert(e);
    }

    /// A condition's or key's error: the result will be unknown.
    fn fail_unknown(&mut self, e: Error) -> Result<()> {
        self.fail(e);
        self.unknown = true;
        Ok(())
    }

    /// The `for` expression's value (`object`: it has a key expression),
    /// or its first error with the type of the reference's error value.
    fn finish(self, object: bool, grouping: bool) -> Outcome {
        let sorted = |mut attrs: Map<String, Type>| {
            attrs.sort_keys();
            Type::Object(attrs)
        };
        let (value, types) = if !object {
            (Value::Array(self.tuple), self.tuple_types.map(Type::Tuple))
        } else if grouping {
            let typed = self.groups.values().any(|(_, ts)| ts.is_some());
            let mut types = typed.then(|| Map::with_capacity(self.groups.len()));
            let mut out = Map::with_capacity(self.groups.len());
            for (k, (values, ts)) in self.groups {
                if let Some(types) = types.as_mut() {
                    let ts = ts.unwrap_or_else(|| values.iter().map(Type::of).collect());
                    types.insert(k.clone(), Type::Tuple(ts));
                }
                out.insert(k, Value::Array(values));
            }
            (Value::Object(out), types.map(sorted))
        } else {
            (Value::Object(self.object), self.object_types.map(sorted))
        };
        match self.failed {
            None if self.unknown => Ok(TVal::unknown(Type::Any)),
            None => Ok(match types {
                Some(t) => TVal::typed(value, t),
                None => TVal::plain(value),
            }),
            Some(err) if self.unknown => Err(Failed::from(err)),
            Some(err) => Err(Failed::partial(
                err,
                match types {
                    Some(t) => TVal::typed(value, t),
                    None => TVal::plain(value),
                },
            )),
        }
    }
}
