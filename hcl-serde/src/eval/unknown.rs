//! Unknown values: a value of which only the type is known, as go-cty's
//! `cty.UnknownVal(t)`.
//!
//! The reference checks the `if` clause of a `for` expression once before
//! iterating, with the iteration variables bound to an unknown value of
//! any type, so `[for x in [] : x if 1]` fails ("bool required") and
//! `[for x in [] : x if nosuch]` reports the unknown variable even though
//! the collection is empty. Evaluating with unknowns follows cty's rules:
//!
//! - an operation, a function call, a template or a collection built from
//!   an unknown operand is unknown, with the operation's result type, once
//!   the operand's *type* is checked (`x + 1` is an unknown number;
//!   `-[x]` fails: a tuple is not a number);
//! - traversing an unknown value (`x.a`, `x[0]`, `x[*].a`) or iterating
//!   over one gives an unknown value of any type;
//! - a conditional with an unknown condition is unknown, of the type its
//!   results unify to.
//!
//! Functions never see an unknown argument: the call is unknown, of the
//! type the function declares for its argument types.
//!
//! Unknown values exist only inside the evaluator for now: the flag lives
//! on the evaluator's typed value ([`TVal`]) and never reaches a
//! [`Value`](crate::Value) given back to the application. The design lets
//! an application declare unknown variables later (a `Context` entry
//! holding a type instead of a value).

use super::expr::TVal;
use super::unify::can_convert;
use crate::value::types::Type;
use crate::value::Value;

impl TVal {
    /// An unknown value of type `t`.
    pub(crate) fn unknown(t: Type) -> TVal {
        TVal {
            v: Value::Null,
            t: Some(Box::new(t)),
            unknown: true,
        }
    }

    /// Whether the value is unknown (only its type is).
    pub(crate) fn is_unknown(&self) -> bool {
        self.unknown
    }

    /// The value for the application: an unknown one becomes
    /// [`Value::Unknown`] of its type.
    pub(crate) fn into_value(self) -> Value {
        if self.unknown {
            Value::unknown(self.t.map_or(Type::Any, |t| *t))
        } else {
            self.v
        }
    }

    /// The value as an element of a collection under construction: an
    /// unknown one is held as [`Value::Unknown`] (whose type it implies).
    pub(crate) fn into_held(self) -> TVal {
        if self.unknown {
            TVal {
                v: self.into_value(),
                t: None,
                unknown: false,
            }
        } else {
            self
        }
    }
}

/// Checks that an unknown value of type `from` could convert to `to`, with
/// go-cty's message when it cannot (`"bool required"`).
pub(crate) fn check_convertible(from: &Type, to: &Type) -> Result<(), String> {
    if can_convert(from, to, true) {
        Ok(())
    } else {
        Err(format!("{} required", to.friendly_name()))
    }
}

/// The unknown result of an operation on `operands`, if any is unknown.
pub(crate) fn any_unknown<'t>(operands: impl IntoIterator<Item = &'t TVal>) -> bool {
    operands.into_iter().any(TVal::is_unknown)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknowns_carry_their_type() {
        let u = TVal::unknown(Type::Number);
        assert!(u.is_unknown());
        assert_eq!(u.ty(), Type::Number);
        assert!(!TVal::plain(Value::Null).is_unknown());
        assert_eq!(check_convertible(&Type::Any, &Type::Bool), Ok(()));
        assert_eq!(check_convertible(&Type::String, &Type::Bool), Ok(()));
        assert_eq!(
            check_convertible(&Type::Number, &Type::Bool),
            Err("bool required".to_owned())
        );
    }
}
