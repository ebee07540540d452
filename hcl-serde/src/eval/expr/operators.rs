//! Operators: unary, binary and the conditional.

use super::{Evaluator, Failed, Outcome, TVal};
use crate::error::{Error, Result};
use crate::eval::convert;
use crate::eval::unknown;
use crate::value::types::Type;
use crate::value::Value;
use crate::{Number, NumberError};
use hcl_grammar::{BinaryExpr, BinaryOp, Conditional, Span, UnaryExpr, UnaryOp};

impl<'c, 'a> Evaluator<'c, 'a> {
    pub(super) fn unary(&self, u: &'a UnaryExpr<'a>) -> Result<TVal> {
        let v = self.eval(&u.operand)?;
        if self.not_wholly_known(&v) {
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

    pub(super) fn binary(&self, b: &'a BinaryExpr<'a>) -> Result<TVal> {
        let lhs = self.eval(&b.lhs)?;
        let rhs = self.eval(&b.rhs)?;
        if self.not_wholly_known(&lhs) || self.not_wholly_known(&rhs) {
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
            let checked = if self.not_wholly_known(v) {
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

    /// A conditional, its error carrying the result type it had computed
    /// (the reference's error value has that type).
    pub(super) fn conditional_failing(&self, c: &'a Conditional<'a>) -> Outcome {
        // As the reference: both results are evaluated (their types decide
        // the result type) but only the taken branch's error is reported.
        let t = self.eval_failing(&c.then_expr);
        let f = self.eval_failing(&c.else_expr);
        // Each branch's type: `None` for an untyped null; for a failed
        // branch, the type the reference gives its error value.
        let branch_type = |r: &Outcome| match r {
            Ok(v) if v.v.is_null() && v.t.is_none() && !v.is_unknown() => None,
            Ok(v) => Some(v.ty()),
            Err(f) => Some(f.ty().unwrap_or(Type::Any)),
        };
        let (tt, ft) = (branch_type(&t), branch_type(&f));
        // Whether the result type was unified from both (the results are
        // then converted to it, a failed one included).
        let mut unified = false;
        let result_type = match (tt, ft) {
            (None, Some(x)) | (Some(x), None) => Some(x),
            (None, None) => None,
            (Some(Type::Any), _) | (_, Some(Type::Any)) => None,
            (Some(tt), Some(ft)) => match convert::unify(&[tt.clone(), ft.clone()]) {
                Some(u) => {
                    unified = true;
                    Some(u)
                }
                None => {
                    return Err(Failed::from(Error::eval(
                        format!(
                            "the true and false results of a conditional must have consistent \
                             types: {}",
                            describe_mismatch(&tt, &ft)
                        ),
                        c.then_expr.span.to(c.else_expr.span),
                    )))
                }
            },
        };
        let hint = |err: Error| Failed::typed(err, Some(result_type.clone().unwrap_or(Type::Any)));
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
        // A failed result converted to the result type, as cty converts an
        // unknown value: the result type with its `any` parts replaced; its
        // partial value converted (unknown if that fails).
        let r = r.map_err(|f| match (&result_type, f.ty()) {
            (Some(rt), Some(ft)) if unified && *rt != ft => {
                let ty = convert::dynamic_replace(&ft, rt);
                let (err, partial) = f.into_partial();
                let partial = partial.and_then(|p| convert::convert_typed(p.v, &ft, rt).ok());
                match partial {
                    Some((v, t)) => Failed::partial(err, TVal::typed(v, t)),
                    None => Failed::typed(err, Some(ty)),
                }
            }
            _ => f,
        })?;
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
                    Failed::typed(
                        Error::eval(
                            format!(
                                "the conditional's result cannot be converted to {}: {m}",
                                rt.friendly_name()
                            ),
                            span,
                        ),
                        Some(rt.clone()),
                    )
                })?;
                Ok(TVal::typed(v, ty))
            }
            _ => Ok(r),
        }
    }
}

/// Where two result types of a conditional differ, as the reference
/// describes it: inside tuples and objects, the first differing element or
/// attribute (by name).
fn describe_mismatch(t: &Type, f: &Type) -> String {
    match (t, f) {
        (Type::Tuple(ts), Type::Tuple(fs)) if ts.len() != fs.len() => format!(
            "the true result is a tuple of length {} and the false result a tuple of length {}",
            ts.len(),
            fs.len()
        ),
        (Type::Tuple(ts), Type::Tuple(fs)) => {
            match ts.iter().zip(fs).enumerate().find(|(_, (a, b))| a != b) {
                Some((i, (a, b))) => format!("tuple element {i}: {}", describe_mismatch(a, b)),
                None => describe_kinds(t, f),
            }
        }
        (Type::Object(ta), Type::Object(fa)) => {
            let mut names: Vec<&String> = ta.keys().chain(fa.keys()).collect();
            names.sort();
            names.dedup();
            for name in names {
                match (ta.get(name), fa.get(name)) {
                    (Some(_), None) => {
                        return format!(
                            "the true result has attribute `{name}`, which the false result lacks"
                        )
                    }
                    (None, Some(_)) => {
                        return format!(
                            "the false result has attribute `{name}`, which the true result lacks"
                        )
                    }
                    (Some(a), Some(b)) if a != b => {
                        return format!("attribute `{name}`: {}", describe_mismatch(a, b))
                    }
                    _ => {}
                }
            }
            describe_kinds(t, f)
        }
        _ => describe_kinds(t, f),
    }
}

fn describe_kinds(t: &Type, f: &Type) -> String {
    format!(
        "the true result is {} and the false result is {}",
        t.friendly_name(),
        f.friendly_name()
    )
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
