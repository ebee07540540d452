//! What the deserializer and the schema API share about the files they
//! read: their syntax, several files' text, where a place in one is.
//!
//! Both name this module and neither names the other: `de/files.rs` (the
//! serde route for several files) and `schema/merge.rs` (`hcl.MergeFiles`)
//! read the same [`Sources`] and word a repeated attribute the same way.
//! The public items keep their paths: `hcl::Syntax` and `hcl::de::Syntax`,
//! `hcl::de::DEFAULT_MAX_DEPTH`, `hcl::schema::Sources`.

mod sources;

pub use sources::Sources;

use crate::error::Error;
use hcl_grammar::{Position, Span};

/// The default for [`Deserializer::with_max_depth`](crate::Deserializer::with_max_depth):
/// how deeply nested blocks, collections and values may be before
/// deserialization stops with an error instead of recursing further. The
/// schema API's JSON bodies use it too (nested blocks, and values
/// evaluated without a context).
pub const DEFAULT_MAX_DEPTH: usize = 128;

/// The syntax of a configuration file: HCL's native syntax or its JSON
/// syntax (`.tf.json`, `.hcl.json`; the reference's `hcl/json` package).
///
/// ```
/// use hcl::de::Syntax;
/// assert_eq!(Syntax::from_path("main.tf.json"), Syntax::Json);
/// assert_eq!(Syntax::from_path("main.tf"), Syntax::Native);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Syntax {
    /// The native syntax (`name = value`, `type "label" { ... }`).
    #[default]
    Native,
    /// The JSON syntax: a JSON object whose properties are attributes or
    /// blocks, as the target type asks.
    Json,
}

impl Syntax {
    /// The syntax a file name implies, as the reference's `hclsimple`
    /// chooses: a name ending in `.json` is JSON, anything else native.
    pub fn from_path(path: impl AsRef<std::path::Path>) -> Syntax {
        let json = path
            .as_ref()
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("json"));
        if json {
            Syntax::Json
        } else {
            Syntax::Native
        }
    }
}

/// The syntax of a file of [`Sources`], by its name: `.json` is JSON.
pub(crate) fn syntax_of(name: &str) -> Syntax {
    if name.ends_with(".json") {
        Syntax::Json
    } else {
        Syntax::Native
    }
}

/// `e` with its position in `src` and the file's name.
pub(crate) fn locate(e: Error, src: &str, file: Option<&str>) -> Error {
    let e = e.with_source(src);
    match file {
        Some(f) if e.file().is_none() => e.with_file(f),
        _ => e,
    }
}

/// `"a.tf:1,1-7"`: where `span` of `src` (the file `file`) is, as the
/// reference writes a range in "was already set at".
pub(crate) fn place(src: &str, span: Span, file: Option<&str>) -> String {
    let start = Position::of(src, span.start());
    let end = Position::of(src, span.end());
    let range = if start.line == end.line {
        format!("{},{}-{}", start.line, start.column, end.column)
    } else {
        format!(
            "{},{}-{},{}",
            start.line, start.column, end.line, end.column
        )
    };
    match file {
        Some(f) => format!("{f}:{range}"),
        None => range,
    }
}

/// The message for an attribute `name` set again, first set at `first`
/// (a [`place`]).
pub(crate) fn duplicate_message(name: &str, first: &str) -> String {
    format!("Duplicate argument: the argument `{name}` was already set at {first}")
}
