//! Read HCL, the HashiCorp Configuration Language, into typed Rust values
//! with serde.
//!
//! The crate evaluates the syntax tree of [`hcl_grammar`] (re-exported as
//! [`grammar`]) with a [`Context`] of variables and functions, into
//! [`Value`]s with exact decimal [`Number`]s.
//!
//! ```
//! use hcl::{Context, Value};
//! use hcl::eval::{FuncDef, Param, Type};
//!
//! let mut ctx = Context::new();
//! ctx.declare_var("name", "world");
//! ctx.declare_func(
//!     "upper",
//!     FuncDef::new(|args| Ok(args.str(0)?.to_uppercase().into()))
//!         .param(Param::new("str", Type::String)),
//! );
//! assert_eq!(ctx.var("name"), Some(&Value::from("world")));
//! ```

pub mod de;
pub mod error;
pub mod eval;
pub mod number;
mod ser;
pub mod stdlib;
pub mod value;

pub use hcl_grammar as grammar;

#[doc(inline)]
pub use de::{
    from_reader, from_reader_with, from_slice, from_slice_with, from_str, from_str_with,
    from_value, Body, Deserializer, Expression,
};
#[doc(inline)]
pub use error::{Category, Error, Result};
#[doc(inline)]
pub use eval::{Context, Evaluate};
#[doc(inline)]
pub use number::{Number, NumberError};
#[doc(inline)]
pub use ser::to_value;
#[doc(inline)]
pub use value::{Map, Value};
