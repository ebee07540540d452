//! Read HCL, the HashiCorp Configuration Language, into typed Rust values
//! with serde.
//!
//! The crate evaluates the syntax tree of [`hcl_grammar`] (its tree types
//! re-exported as [`grammar`]) with a [`Context`] of variables and functions, into
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
//!
//! # Which entry point do I use?
//!
//! | I have | I want | use |
//! | --- | --- | --- |
//! | HCL text (native syntax) | a typed config | [`from_str`], [`from_slice`], [`from_reader`]; `_with` and a [`Context`] for variables and functions |
//! | HCL's JSON syntax (`.tf.json`) | a typed config | [`from_json_str`], [`from_json_slice`] |
//! | a file path | a typed config, syntax by extension | [`from_path`] |
//! | several files (a module's directory) | one typed config, every error naming its file | [`from_files`], [`from_dir`] |
//! | either, with options | file names in errors, limits, syntax | [`Deserializer`] and its `with_*` methods |
//! | names known only at run time (a tool, not a struct) | attributes and blocks by a schema | [`schema`] (`BodySchema`, `content`); several files as one: [`schema::merge`] |
//! | Terraform modules | `dynamic` blocks, type constraints, user functions, the variables an expression reads | [`ext`] |
//! | Terraform's functions | `cidrsubnet`, `base64encode`, `file`, ... | [`Context::with_terraform_functions`] |
//! | one expression or template | its value | [`eval::eval_expr_str`], [`eval::eval_template_str`] |
//! | Rust data | HCL text | [`to_string`], [`to_vec`], [`to_writer`] |
//! | Rust data | a [`Value`] (for variables) | [`to_value`], or [`value!`] for literals |
//! | HCL text | the same text, formatted as `terraform fmt` does | [`format()`] |
//!
//! # Deserializing
//!
//! [`from_str`] (or [`from_str_with`] and a [`Context`]) reads HCL text
//! into any `T: Deserialize`, evaluating each expression only when the
//! target reads its field:
//!
//! ```
//! use serde::Deserialize;
//!
//! #[derive(Deserialize)]
//! struct Service {
//!     #[serde(rename = "$label")]
//!     name: String,
//!     port: u16,
//! }
//!
//! #[derive(Deserialize)]
//! struct Config {
//!     service: Vec<Service>,
//! }
//!
//! let mut ctx = hcl::Context::new();
//! ctx.declare_var("base", 8000);
//! let config: Config = hcl::from_str_with("service \"web\" {\n  port = base + 80\n}\n", &ctx)?;
//! assert_eq!(config.service[0].name, "web");
//! assert_eq!(config.service[0].port, 8080);
//! # Ok::<(), hcl::Error>(())
//! ```
//!
//! ## Mapping
//!
//! | HCL | Rust target |
//! | --- | --- |
//! | a body (a file, a block's `{ }`) | a struct or a map: attributes and block types are its keys |
//! | `name = expr` | the field `name`; evaluated only when read (literals are visited directly, unescaped strings lent as `&'de str`) |
//! | blocks of one type | `Vec<T>` (even for one block) when the field is a sequence; otherwise one `T`, and a second block is an error pointing at it |
//! | block labels, as keys | a map consumes one label as its key: `resource "a" "b" {}` into `Map<String, Map<String, T>>` |
//! | block labels, as fields | `#[serde(rename = "$label")]` takes the next label, `#[serde(rename = "$labels")]` all remaining ones; labels are consumed left to right, and one left over is an error at that label |
//! | `null` or a missing attribute | `None` |
//! | numbers | every integer and float type, with range errors; a [`Value`] (or [`Number`]) keeps the exact number (`0.1 + 0.2` is `0.3`, `1 / 3` keeps its digits) |
//! | HCL's conversions | `"8080"` into numbers, `15` and `true` into strings, `"true"` / `"false"` into `bool` |
//! | enums | unit variants from strings; externally tagged from a one-key object, a block's first label, or the one block type in a body |
//! | `deserialize_any` ([`Value`], `serde_json::Value`, untagged and internally tagged enums, `flatten`) | HCL's JSON shape: block type, then labels, as keys; blocks with the same type and labels as an array |
//! | `serde_spanned::Spanned<T>` | the value and its byte span |
//! | [`RawExpression`] / [`RawBody`] | the source, unevaluated, to evaluate later with the application's context |
//! | the rest of a body | `#[serde(rename = "$remain")]`: every attribute and block the struct does not name, unevaluated (a [`RawBody`]) or as a map; see [`de`] for `flatten` |
//!
//! Without a context, expressions over literals still evaluate; a
//! reference to a variable or function is an evaluation error at its
//! position. A field the target ignores (`IgnoredAny`, unknown fields) is
//! never evaluated. Deserialization stops with a data error beyond
//! [`de::DEFAULT_MAX_DEPTH`] (128) levels of nested blocks and values
//! (see [`Deserializer::with_max_depth`]).
//!
//! Errors are one [`Error`]: [`Category`] syntax, evaluation or data, with
//! the line, column, span and path of the field (`service[0].port`), and
//! a snippet when printed.
//!
//! # Serializing
//!
//! [`to_string`], [`to_vec`], [`to_writer`] and [`Serializer`] write any
//! `T: Serialize` as HCL that reads back as the same value, laid out as
//! `terraform fmt` leaves files; see [`ser`] for the mapping (structs are
//! blocks, `$label` fields are labels, [`ser::Block`] and
//! [`ser::Attribute`] choose where the rule would not).

// Input must not panic the library: no indexing that input can reach.
#![warn(clippy::indexing_slicing)]
// Links to Terraform's functions resolve only with the `terraform` feature
// (CI and docs.rs document with every feature, where they are checked).
#![cfg_attr(not(feature = "terraform"), allow(rustdoc::broken_intra_doc_links))]

mod body;
pub mod de;
pub mod edit;
pub mod error;
pub mod eval;
pub mod ext;
pub mod format;
pub mod number;
mod quote;
mod reserved;
pub mod schema;
pub mod ser;
mod source;
pub mod stdlib;
pub mod value;

/// The syntax tree that [`eval`]'s functions take and the spans that
/// [`RawExpression`], [`RawBody`] and errors report (the tree types of
/// [`hcl_grammar`]; parse with that crate's `parse_body`, `parse_expr`
/// and `parse_template`).
pub mod grammar {
    pub use hcl_grammar::ast::*;
    pub use hcl_grammar::{Position, Span};
}

#[doc(inline)]
pub use de::{from_dir, from_files, from_files_with};
#[doc(inline)]
pub use de::{
    from_json_slice, from_json_slice_with, from_json_str, from_json_str_with, from_path,
    from_reader, from_reader_with, from_slice, from_slice_with, from_str, from_str_with,
    from_value, Deserializer, RawBody, RawExpression, Syntax,
};
#[doc(inline)]
pub use error::{Category, Error, Result};
#[doc(inline)]
pub use eval::{Context, Evaluate};
#[doc(inline)]
pub use format::format;
#[doc(inline)]
pub use number::{Number, NumberError};
#[doc(inline)]
pub use ser::{to_string, to_value, to_vec, to_writer, Serializer};
#[doc(inline)]
pub use value::{Map, Value};

/// The README's examples, compiled and run as doctests.
#[doc = include_str!("../../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;

/// The crate README's example (the page crates.io shows), run as a doctest.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct CrateReadmeDoctests;
