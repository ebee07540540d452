//! The string functions.

use super::Table;
use crate::eval::{FuncDef, Param, Type};
use crate::Value;

/// This family's functions: name and constructor.
pub(super) const STRINGS: Table = &[("upper", upper), ("lower", lower)];

/// `upper(str)`: the string with every letter converted to upper case.
///
/// ```
/// # use hcl::{Value, eval::eval_expr_str, Context};
/// let ctx = Context::with_stdlib();
/// assert_eq!(eval_expr_str(r#"upper("héllo")"#, &ctx)?, Value::from("HÉLLO"));
/// # Ok::<(), hcl::Error>(())
/// ```
pub fn upper() -> FuncDef {
    FuncDef::new(|args| Ok(Value::from(map_chars(args.str(0)?, char::to_uppercase))))
        .param(Param::new("str", Type::String))
        .returns(Type::String)
}

/// `lower(str)`: the string with every letter converted to lower case.
///
/// ```
/// # use hcl::{Value, eval::eval_expr_str, Context};
/// let ctx = Context::with_stdlib();
/// assert_eq!(eval_expr_str(r#"lower("HÉLLO")"#, &ctx)?, Value::from("héllo"));
/// # Ok::<(), hcl::Error>(())
/// ```
pub fn lower() -> FuncDef {
    FuncDef::new(|args| Ok(Value::from(map_chars(args.str(0)?, char::to_lowercase))))
        .param(Param::new("str", Type::String))
        .returns(Type::String)
}

/// Maps each character with Go's simple (one-to-one) case mapping: a
/// character whose full mapping has several characters (`ß` -> `SS`) is
/// kept, as Go's `strings.ToUpper` keeps it.
fn map_chars<I>(s: &str, f: impl Fn(char) -> I) -> String
where
    I: Iterator<Item = char>,
{
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        let mut m = f(c);
        match (m.next(), m.next()) {
            (Some(u), None) => out.push(u),
            _ => out.push(c),
        }
    }
    out
}
