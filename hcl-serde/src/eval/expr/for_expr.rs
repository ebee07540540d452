//! `for` expressions, and the iteration and local variables they share with `for` directives.

use super::{child_type, retag, Child, Evaluator, TVal};
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

    pub(super) fn for_expr(&self, f: &'a ForExpr<'a>, span: Span) -> Result<TVal> {
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
        // As hcl: an unknown condition or key makes the whole result
        // unknown (of any type), after the remaining elements are checked.
        let mut known = true;
        for (key, value) in items {
            self.count_iteration(f.intro)?;
            self.with_locals(f.key_var.as_ref(), &f.value_var, key, value, || {
                if let Some(cond) = &f.cond {
                    let c = self.eval(cond)?;
                    if c.is_unknown() {
                        known = false;
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
                        let v = self.eval(&f.value_expr)?.into_held();
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
                        if k.is_unknown() {
                            known = false;
                            return Ok(());
                        }
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
                        let v = self.eval(&f.value_expr)?.into_held();
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
        if !known {
            return Ok(TVal::unknown(Type::Any));
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
}
