//! The serde [`Deserializer`]: HCL text into any `T: Deserialize`,
//! evaluating each expression only when the target type asks for it.
//!
//! The deserializer walks the syntax tree of [`hcl_grammar`] directly. See
//! the crate documentation for the mapping from HCL to serde's data model.
//!
//! One file per node kind: `body` (bodies; `group` builds a native
//! body's entries, grouping its blocks by type), `blocks` (groups of
//! blocks, whose `members` are native, generated or JSON blocks), `expr`
//! (attribute values), `value` (evaluated values), `key` (keys and
//! labels), `enums`, and `capture` ([`RawExpression`] and [`RawBody`],
//! handed to their types as the map of `handover`).
//! `json_value` (a value of HCL's JSON syntax, read directly: the
//! syntax's rules are the body abstraction's, `body/json.rs`). Around
//! them: `deserializer` (the [`Deserializer`], its options and parsing),
//! `options` ([`Options`]), `entry` ([`from_str`] and the other entry
//! points), `files` (several files as one body). [`Syntax`] and
//! [`DEFAULT_MAX_DEPTH`] are defined beside what the schema API shares
//! with this module (`source/`).

//!
//! # The rest of a body, and `flatten`
//!
//! A struct field renamed `$remain` (beside `$label` and `$labels`)
//! receives every attribute and block the struct does not name, without
//! evaluating them (gohcl's `remain`): as a [`RawBody`], captured with
//! the struct's own names left out of it (they are skipped when it is
//! evaluated or deserialized later; [`RawBody::as_str`] is still the
//! whole body's text), or as a map or a [`Value`], evaluated as read.
//!
//! ```
//! use serde::Deserialize;
//!
//! #[derive(Deserialize)]
//! struct Resource {
//!     #[serde(rename = "$labels")]
//!     labels: Vec<String>,
//!     count: Option<u32>,
//!     #[serde(rename = "$remain")]
//!     rest: hcl::RawBody,
//! }
//!
//! #[derive(Deserialize)]
//! struct Module {
//!     resource: Vec<Resource>,
//! }
//!
//! let m: Module = hcl::from_str("resource \"aws_instance\" \"web\" {\n  count = 2\n  ami = var.ami\n}\n")?;
//! let mut ctx = hcl::Context::new();
//! ctx.declare_var("var", hcl::value!({ "ami": "ami-1" }));
//! assert_eq!(m.resource[0].rest.evaluate(&ctx)?, hcl::value!({ "ami": "ami-1" }));
//! # Ok::<(), hcl::Error>(())
//! ```
//!
//! `#[serde(flatten)]` works as serde defines it, with one limit serde
//! sets: the values of a flattened struct are buffered before their
//! types are known, so each is evaluated (a [`RawExpression`] or
//! [`RawBody`] inside the flattened field cannot keep its source), and in
//! the JSON syntax a flattened struct cannot take its labels (they are
//! found by the struct's fields, which serde does not pass). An
//! evaluation error there, and a missing `$label` / `$labels` in JSON,
//! say so and name the supported way: the `$remain` field. In the native
//! syntax a flattening struct takes its labels as `$label` (the first)
//! and `$labels` (the others), as serde gives it no field names: one with
//! `$labels` but no `$label` (or a second label and no `$labels`) is an
//! error naming both fields and `$remain`, rather than a label put into
//! the flattened map.

/// The scalar `deserialize_*` methods of an expression deserializer that
/// reads literals without evaluating them (`expr.rs` for the native
/// syntax, `json_value.rs` for JSON): floats from `self.$number()`, text
/// and bytes from `self.literal_str()`, anything else through
/// `self.value()`; `$node` is the field holding the node and its span.
macro_rules! literal_scalars {
    ($number:ident, $node:ident) => {
        fn deserialize_f32<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
            match self.$number() {
                Some(n) => v.visit_f32(to_f32(&n).map_err(|e| e.with_span(self.$node.span))?),
                None => self.value()?.deserialize_f32(v),
            }
        }

        fn deserialize_f64<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
            match self.$number() {
                Some(n) => v.visit_f64(n.as_f64()),
                None => self.value()?.deserialize_f64(v),
            }
        }

        fn deserialize_char<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
            self.deserialize_str(v)
        }

        fn deserialize_str<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
            match self.literal_str() {
                Some(s) => s.visit(v),
                None => self.value()?.deserialize_str(v),
            }
        }

        fn deserialize_string<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
            self.deserialize_str(v)
        }

        fn deserialize_bytes<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
            match self.literal_str() {
                Some(Str::Borrowed(s)) => v.visit_borrowed_bytes(s.as_bytes()),
                Some(s) => v.visit_bytes(s.as_str().as_bytes()),
                None => self.value()?.deserialize_bytes(v),
            }
        }

        fn deserialize_byte_buf<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
            self.deserialize_bytes(v)
        }
    };
}

mod access;
mod blocks;
mod body;
mod capture;
mod deserializer;
mod direct;
mod dynamic;
mod entry;
mod enums;
mod expr;
mod files;
mod group;
mod handover;
mod json_direct;
mod json_plain;
mod json_seq;
mod json_value;
mod key;
mod label;
mod lines;
mod members;
mod options;
mod remain;
mod value;

pub use crate::source::{Syntax, DEFAULT_MAX_DEPTH};
pub use capture::{RawBody, RawExpression};
pub use deserializer::Deserializer;
/// For the fuzz targets (`cfg(fuzzing)`): the routes a `Value` target
/// takes on this thread, to compare them.
#[cfg(fuzzing)]
#[doc(hidden)]
pub use direct::set_routes as __set_routes;
pub use entry::{
    from_json_slice, from_json_slice_with, from_json_str, from_json_str_with, from_path,
    from_path_with_options, from_reader, from_reader_with, from_reader_with_options, from_slice,
    from_slice_with, from_str, from_str_with, from_value,
};
pub use files::{from_dir, from_dir_with_options, from_files, from_files_with};
pub use options::Options;
pub use value::ValueDeserializer;

use crate::error::Error;
use crate::eval::Context;
use crate::Value;
use deserializer::Input;
use hcl_grammar::Span;
use lines::LineStarts;
use serde::de;
use std::cell::RefCell;

/// What every deserializer of one run shares: the context, the source text
/// (for [`RawExpression`] and [`RawBody`] captures) and the limits.
pub(crate) struct Shared<'a> {
    pub(crate) ctx: &'a Context,
    pub(crate) src: &'a str,
    pub(crate) max_depth: usize,
    /// The line number of `src`'s first line in its file (1 unless `src`
    /// is a captured [`RawBody`]).
    pub(crate) line0: usize,
    /// The byte offset of `src` in its file.
    pub(crate) byte0: usize,
    /// The run has a context: strings of the JSON syntax are templates
    /// (`json_value.rs`).
    pub(crate) templates: bool,
    /// `dynamic` blocks are expanded ([`Options::with_dynamic_blocks`]):
    /// the context `ctx` is, shared, so that generated blocks get a child
    /// context holding their iterator (`blocks.rs`).
    pub(crate) dynamic: Option<std::sync::Arc<Context>>,
    /// In a block that a `dynamic` block with an unknown `for_each`
    /// generated (or inside one): every attribute is unknown, of any type,
    /// as the reference's `unknownBody` (`dynamic.rs`).
    pub(crate) unknown: bool,
    /// The name of the file `src` is (for captures and, when `merged`,
    /// errors).
    pub(crate) file: Option<&'a str>,
    /// One of several files read as one body (`files.rs`): errors are
    /// given this file's source and name where they leave its nodes.
    pub(crate) merged: bool,
    lines: RefCell<LineStarts>,
}

impl<'a> Shared<'a> {
    pub(crate) fn new(ctx: &'a Context, src: &'a str, max_depth: usize) -> Shared<'a> {
        Shared {
            ctx,
            src,
            max_depth,
            line0: 1,
            byte0: 0,
            templates: false,
            dynamic: None,
            unknown: false,
            file: None,
            merged: false,
            lines: RefCell::new(LineStarts::new()),
        }
    }

    /// Gives an error leaving this file's nodes its source and file name,
    /// when this is one of several files; errors without a span yet, or
    /// already placed, pass unchanged.
    #[inline]
    pub(crate) fn place(&self, e: Error) -> Error {
        if self.merged {
            files::place(self, e)
        } else {
            e
        }
    }

    /// The same file, read with `ctx`: a block that a `dynamic` block
    /// generated, whose context holds the iterator.
    /// `unknown`: its `dynamic` block's `for_each` is unknown.
    pub(crate) fn generated<'x>(
        &'x self,
        ctx: &'x std::sync::Arc<Context>,
        unknown: bool,
    ) -> Shared<'x> {
        Shared {
            ctx,
            src: self.src,
            max_depth: self.max_depth,
            line0: self.line0,
            byte0: self.byte0,
            templates: self.templates,
            dynamic: Some(std::sync::Arc::clone(ctx)),
            unknown: self.unknown || unknown,
            file: self.file,
            merged: self.merged,
            lines: RefCell::new(LineStarts::new()),
        }
    }

    /// The byte offset where the line holding `byte` starts, and that
    /// line's 1-based number.
    pub(crate) fn line_of(&self, byte: usize) -> (usize, usize) {
        self.lines.borrow_mut().line_of(self.src, byte)
    }

    /// The error for nesting deeper than the limit, at `span`.
    #[cold]
    pub(crate) fn too_deep(&self, span: Span) -> Error {
        too_deep(self.max_depth, Some(span))
    }
}

#[cold]
pub(crate) fn too_deep(max: usize, span: Option<Span>) -> Error {
    let e = Error::data(format!(
        "the value is nested more than {max} levels deep (the deserializer's depth limit)"
    ));
    match span {
        Some(s) => e.with_span(s),
        None => e,
    }
}

/// The `Unexpected` of a value, for serde's error messages.
pub(crate) fn unexpected(v: &Value) -> de::Unexpected<'_> {
    match v {
        // HCL's word, not serde's "unit value".
        Value::Null => de::Unexpected::Other("null"),
        Value::Bool(b) => de::Unexpected::Bool(*b),
        Value::Number(n) => match (n.as_i64(), n.as_u64()) {
            (Some(i), _) if n.is_integer() => de::Unexpected::Signed(i),
            (_, Some(u)) if n.is_integer() => de::Unexpected::Unsigned(u),
            _ => de::Unexpected::Float(n.as_f64()),
        },
        Value::String(s) => de::Unexpected::Str(s),
        Value::Array(_) => de::Unexpected::Seq,
        Value::Object(_) => de::Unexpected::Map,
        Value::Unknown(_) => de::Unexpected::Other("an unknown value"),
    }
}
