//! `try` and `can` (hcl 2.14.1 `ext/tryfunc`): functions whose arguments
//! are evaluated by the function itself, so that an argument's error
//! becomes a value instead of failing the whole expression.
//!
//! Convention of every family file: one `pub fn NAME() -> FuncDef` per
//! function (re-exported as `hcl::stdlib::NAME`, documented with an
//! example), and the table below listing `("name", NAME)` for each, which
//! `stdlib/mod.rs` reads for `all()`, `Context::add_stdlib()`.
//! `try` is a Rust keyword: its constructor is [`try_`].
//!
//! Only errors of the arguments' own evaluation are caught: an argument
//! that is syntactically invalid fails the parse before any evaluation,
//! as in the reference.

use crate::eval::{FuncDef, FuncError, Param, Type};
use crate::Value;

/// This family's functions: name and constructor.
pub(super) const TRYCAN: super::Table = &[("try", try_), ("can", can)];

pub(crate) fn try_() -> FuncDef {
    FuncDef::new(|args| {
        if args.is_empty() {
            return Err(FuncError::new("at least one argument is required"));
        }
        let mut failures = String::new();
        for i in 0..args.len() {
            match args.eval_typed(i) {
                Ok((v, t)) => {
                    args.set_result_type(t);
                    return Ok(v);
                }
                Err(e) => {
                    failures.push_str("- ");
                    failures.push_str(e.message());
                    failures.push('\n');
                }
            }
        }
        Err(FuncError::new(format!(
            "no expression succeeded:\n{failures}\nAt least one expression must produce a successful result"
        )))
    })
    .variadic(Param::new("expressions", Type::Any).nullable().lazy())
}

pub(crate) fn can() -> FuncDef {
    FuncDef::new(|args| Ok(Value::Bool(args.eval(0).is_ok())))
        .param(Param::new("expression", Type::Any).nullable().lazy())
        .returns(Type::Bool)
}
