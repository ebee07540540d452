//! The conversion functions: `tostring tonumber tobool tolist toset tomap`
//! (go-cty 1.12.1 `stdlib.MakeToFunc`).
//!
//! Convention of every family file: one `pub fn NAME() -> FuncDef` per
//! function (re-exported as `hcl::stdlib::NAME`, documented with an
//! example), and the table below listing `("name", NAME)` for each, which
//! `stdlib/mod.rs` reads for `all()`, `Context::add_stdlib()`.
//!
//! Each converts its argument with HCL's conversion rules: primitives
//! between each other where the value allows (`"1"` to a number, `15` to
//! a string, `"true"` to a bool), tuples to lists and sets and objects to
//! maps after unifying their element types (`tolist([1, "a"])` is
//! `["1", "a"]`). `null` stays `null`. Anything else is an error pointing
//! at the argument.

use crate::eval::convert::{convert_typed, quote};
use crate::eval::{FuncDef, FuncError, Param, Type};
use crate::Value;

/// This family's functions: name and constructor.
pub(super) const CONVERSION: super::Table = &[
    ("tostring", tostring),
    ("tonumber", tonumber),
    ("tobool", tobool),
    ("tolist", tolist),
    ("toset", toset),
    ("tomap", tomap),
];

/// The name of a target type in messages (go-cty's
/// `FriendlyNameForConstraint`).
fn constraint_name(t: &Type) -> &'static str {
    match t {
        Type::String => "string",
        Type::Number => "number",
        Type::Bool => "bool",
        Type::List(_) => "list of any single type",
        Type::Set(_) => "set of any single type",
        Type::Map(_) => "map of any single type",
        _ => "any type",
    }
}

/// A function converting its argument to `want`.
fn make_to(want: Type) -> FuncDef {
    let returns = want.clone();
    FuncDef::new(move |args| {
        let v = args.get(0).cloned().unwrap_or_default();
        if v.is_null() {
            return Ok(Value::Null);
        }
        let from = args
            .arg_type(0)
            .cloned()
            .unwrap_or_else(|| Type::of(&v));
        let message = match (&v, &want) {
            (Value::String(s), Type::Bool) => format!(
                "cannot convert {} to bool; only the strings \"true\" or \"false\" are allowed",
                quote(s)
            ),
            (Value::String(s), Type::Number) => format!(
                "cannot convert {} to number; given string must be a decimal representation of a number",
                quote(s)
            ),
            _ => format!(
                "cannot convert {} to {}",
                from.friendly_name(),
                constraint_name(&want)
            ),
        };
        let (v, t) = convert_typed(v, &from, &want).map_err(|_| FuncError::arg(0, message))?;
        args.set_result_type(t);
        Ok(v)
    })
    .param(Param::new("v", Type::Any).nullable())
    .returns(returns)
}

pub(crate) fn tostring() -> FuncDef {
    make_to(Type::String)
}

pub(crate) fn tonumber() -> FuncDef {
    make_to(Type::Number)
}

pub(crate) fn tobool() -> FuncDef {
    make_to(Type::Bool)
}

pub(crate) fn tolist() -> FuncDef {
    make_to(Type::list(Type::Any))
}

pub(crate) fn toset() -> FuncDef {
    make_to(Type::set(Type::Any))
}

pub(crate) fn tomap() -> FuncDef {
    make_to(Type::map(Type::Any))
}
