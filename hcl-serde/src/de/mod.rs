//! The serde [`Deserializer`]: HCL text into any `T: Deserialize`,
//! evaluating each expression only when the target type asks for it.
//!
//! The deserializer walks the syntax tree of [`hcl_grammar`] directly. See
//! the crate documentation for the mapping from HCL to serde's data model.
//!
//! One file per node kind: `body` (bodies and groups of blocks), `expr`
//! (attribute values), `value` (evaluated values), `key` (keys and
//! labels), `enums`, and `capture` ([`RawExpression`] and [`RawBody`]).

mod blocks;
mod body;
mod capture;
mod enums;
mod expr;
mod files;
pub(crate) mod json;
mod json_blocks;
mod key;
mod lines;
mod value;

pub use capture::{RawBody, RawExpression};
pub use files::{from_dir, from_files, from_files_with};
pub use value::ValueDeserializer;

use crate::error::{Error, Result};
use crate::eval::Context;
use crate::Value;
use hcl_grammar::{ParseOptions, Span};
use lines::LineStarts;
use serde::de::{self, DeserializeOwned, Visitor};
use std::borrow::Cow;
use std::cell::RefCell;

/// The default for [`Deserializer::with_max_depth`]: how deeply nested
/// blocks, collections and values may be before deserialization stops with
/// an error instead of recursing further.
pub const DEFAULT_MAX_DEPTH: usize = 128;

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
    /// The input is in HCL's JSON syntax: objects may be read as blocks
    /// (see `expr.rs`).
    pub(crate) json: bool,
    /// JSON syntax with a context: strings are templates.
    pub(crate) json_templates: bool,
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
            json: false,
            json_templates: false,
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

enum Input<'de> {
    Str(&'de str),
    Bytes(&'de [u8]),
    Files(&'de crate::schema::Sources),
}

/// A deserializer of HCL configuration text.
///
/// Most programs call [`from_str`] or [`from_str_with`]; build a
/// `Deserializer` to combine options: a [`Context`] of variables and
/// functions, a file name for error messages, a depth limit, an input
/// size limit.
///
/// ```
/// use serde::Deserialize;
///
/// #[derive(Deserialize)]
/// struct Config { port: u16, name: String }
///
/// let mut ctx = hcl::Context::new();
/// ctx.declare_var("base", 8000);
/// let de = hcl::Deserializer::from_str("port = base + 80\nname = \"web\"\n")
///     .with_context(&ctx)
///     .with_file_name("app.hcl");
/// let config = Config::deserialize(de)?;
/// assert_eq!(config.port, 8080);
/// # Ok::<(), hcl::Error>(())
/// ```
pub struct Deserializer<'de, 'c> {
    input: Input<'de>,
    ctx: Option<&'c Context>,
    file: Option<String>,
    max_depth: usize,
    max_input_len: usize,
    syntax: Syntax,
}

impl<'de> Deserializer<'de, 'static> {
    /// A deserializer of `input`, without a context: expressions over
    /// literals evaluate, references to variables and functions are
    /// errors.
    #[allow(clippy::should_implement_trait)]
    pub fn from_str(input: &'de str) -> Self {
        Deserializer {
            input: Input::Str(input),
            ctx: None,
            file: None,
            max_depth: DEFAULT_MAX_DEPTH,
            max_input_len: ParseOptions::DEFAULT_MAX_INPUT_LEN,
            syntax: Syntax::Native,
        }
    }

    /// A deserializer of `input`, which should be UTF-8 (invalid UTF-8 is
    /// a syntax error, except inside comments).
    pub fn from_slice(input: &'de [u8]) -> Self {
        Deserializer {
            input: Input::Bytes(input),
            ctx: None,
            file: None,
            max_depth: DEFAULT_MAX_DEPTH,
            max_input_len: ParseOptions::DEFAULT_MAX_INPUT_LEN,
            syntax: Syntax::Native,
        }
    }
}

impl<'de, 'c> Deserializer<'de, 'c> {
    /// Evaluates expressions with the variables and functions of `ctx`.
    pub fn with_context<'c2>(self, ctx: &'c2 Context) -> Deserializer<'de, 'c2> {
        Deserializer {
            input: self.input,
            ctx: Some(ctx),
            file: self.file,
            max_depth: self.max_depth,
            max_input_len: self.max_input_len,
            syntax: self.syntax,
        }
    }

    /// Reads the input in `syntax` (default [`Syntax::Native`]).
    ///
    /// In the JSON syntax, strings are templates when a context is given
    /// ([`Deserializer::with_context`]) and literal text when not, as in
    /// the reference.
    ///
    /// ```
    /// use hcl::de::Syntax;
    /// let de = hcl::Deserializer::from_str(r#"{"port": 8080}"#).with_syntax(Syntax::Json);
    /// let v = <hcl::Value as serde::Deserialize>::deserialize(de)?;
    /// assert_eq!(v["port"], 8080);
    /// # Ok::<(), hcl::Error>(())
    /// ```
    #[must_use]
    pub fn with_syntax(mut self, syntax: Syntax) -> Self {
        self.syntax = syntax;
        self
    }

    /// Names the source file, shown in error messages.
    #[must_use]
    pub fn with_file_name(mut self, name: impl Into<String>) -> Self {
        self.file = Some(name.into());
        self
    }

    /// Sets how deeply blocks and values may nest (default
    /// [`DEFAULT_MAX_DEPTH`], 128) before deserialization stops with a data
    /// error, so that no input or context value can exhaust the stack.
    #[must_use]
    pub fn with_max_depth(mut self, depth: usize) -> Self {
        self.max_depth = depth;
        self
    }

    /// Sets the longest input accepted, in bytes (default
    /// [`ParseOptions::DEFAULT_MAX_INPUT_LEN`], 8 MiB); longer input is a
    /// syntax error ("input too large") before any parsing. Parsing takes
    /// memory proportional to the input (up to about 160 bytes per input
    /// byte for the densest shapes), so raise it only for trusted files.
    ///
    /// ```
    /// let big = format!("data = \"{}\"\n", "x".repeat(100));
    /// let err = hcl::Deserializer::from_str(&big).with_max_input_len(64);
    /// let err = <hcl::Value as serde::Deserialize>::deserialize(err).unwrap_err();
    /// assert!(err.to_string().starts_with("input too large"));
    /// ```
    #[must_use]
    pub fn with_max_input_len(mut self, len: usize) -> Self {
        self.max_input_len = len;
        self
    }

    /// Parses the input and hands the root body to `f`; attaches the
    /// source and file name to any error.
    fn run<T, F>(self, f: F) -> Result<T>
    where
        F: for<'a> FnOnce(body::BodyDeserializer<'a, 'de>) -> Result<T>,
    {
        let none;
        let ctx = match self.ctx {
            Some(c) => c,
            None => {
                none = Context::none();
                &none
            }
        };
        let options = ParseOptions::default().with_max_input_len(self.max_input_len);
        if self.syntax == Syntax::Json {
            return self.run_json(ctx, options, f);
        }
        let (parsed, src): (_, Cow<'de, str>) = match self.input {
            Input::Files(sources) => {
                return files::run(
                    sources,
                    ctx,
                    &options,
                    self.max_depth,
                    self.ctx.is_some(),
                    f,
                )
            }
            Input::Str(s) => (hcl_grammar::parse_body_with(s, &options), Cow::Borrowed(s)),
            Input::Bytes(b) => {
                // Input past the limit is an error: the text for its
                // message need not go further (nor be copied whole).
                let shown = b.get(..options.max_input_len()).unwrap_or(b);
                (
                    hcl_grammar::parse_body_bytes_with(b, &options),
                    String::from_utf8_lossy(shown),
                )
            }
        };
        let file = self.file;
        let finish = |mut e: Error| {
            e.attach_source(&src);
            match &file {
                Some(f) => e.with_file(f.clone()),
                None => e,
            }
        };
        let tree = parsed.map_err(|e| finish(Error::syntax(e)))?;
        let mut shared = Shared::new(ctx, &src, self.max_depth);
        shared.file = file.as_deref();
        f(body::BodyDeserializer::root(&tree, &shared)).map_err(finish)
    }
}

impl<'de> Deserializer<'de, '_> {
    /// [`Deserializer::run`] for the JSON syntax: the JSON tree is lowered
    /// to a native body (see `json.rs`) that the same deserializer walks.
    fn run_json<T, F>(self, ctx: &Context, options: ParseOptions, f: F) -> Result<T>
    where
        F: for<'a> FnOnce(body::BodyDeserializer<'a, 'de>) -> Result<T>,
    {
        let templates = self.ctx.is_some();
        let file = self.file;
        let src: &'de str = match self.input {
            Input::Files(sources) => {
                return files::run(sources, ctx, &options, self.max_depth, templates, f)
            }
            Input::Str(s) => s,
            Input::Bytes(b) => match std::str::from_utf8(b) {
                Ok(s) => s,
                Err(e) => {
                    let at = e.valid_up_to();
                    let text = String::from_utf8_lossy(b);
                    let err = Error::syntax(hcl_grammar::Error::new(
                        "invalid UTF-8: a JSON-syntax file must be UTF-8 text",
                        Span::new(at, at + 1),
                        &text,
                    ));
                    return Err(match &file {
                        Some(f) => err.with_file(f.clone()),
                        None => err,
                    });
                }
            },
        };
        let finish = |mut e: Error| {
            e.attach_source(src);
            match &file {
                Some(f) => e.with_file(f.clone()),
                None => e,
            }
        };
        let tree = hcl_grammar::json::parse_json_with(src, &options)
            .map_err(|e| finish(Error::syntax(e)))?;
        let body = json::lower_root(src, tree, templates, &options).map_err(finish)?;
        let mut shared = Shared::new(ctx, src, self.max_depth);
        shared.file = file.as_deref();
        shared.json = true;
        shared.json_templates = templates;
        f(body::BodyDeserializer::root(&body, &shared)).map_err(finish)
    }
}

macro_rules! forward_to_body {
    ($($method:ident ( $($arg:ident : $ty:ty),* ))*) => {
        $(
            fn $method<V: Visitor<'de>>(self, $($arg: $ty,)* visitor: V) -> Result<V::Value> {
                self.run(move |d| de::Deserializer::$method(d, $($arg,)* visitor))
            }
        )*
    };
}

impl<'de> de::Deserializer<'de> for Deserializer<'de, '_> {
    type Error = Error;

    forward_to_body! {
        deserialize_any()
        deserialize_bool()
        deserialize_i8() deserialize_i16() deserialize_i32() deserialize_i64() deserialize_i128()
        deserialize_u8() deserialize_u16() deserialize_u32() deserialize_u64() deserialize_u128()
        deserialize_f32() deserialize_f64()
        deserialize_char() deserialize_str() deserialize_string()
        deserialize_bytes() deserialize_byte_buf()
        deserialize_option() deserialize_unit()
        deserialize_unit_struct(name: &'static str)
        deserialize_newtype_struct(name: &'static str)
        deserialize_seq()
        deserialize_tuple(len: usize)
        deserialize_tuple_struct(name: &'static str, len: usize)
        deserialize_map()
        deserialize_struct(name: &'static str, fields: &'static [&'static str])
        deserialize_enum(name: &'static str, variants: &'static [&'static str])
        deserialize_identifier()
        deserialize_ignored_any()
    }
}

/// Deserializes an instance of `T` from HCL text, without a context.
///
/// Strings without escapes are borrowed from `s`, so `&str` and
/// `Cow<str>` fields work. Expressions over literals are evaluated
/// (`1 + 2`, `"a${"b"}"`); a reference to a variable or function is an
/// evaluation error (use [`from_str_with`] to provide them).
///
/// ```
/// use serde::Deserialize;
///
/// #[derive(Deserialize, Debug, PartialEq)]
/// struct Service<'a> {
///     #[serde(rename = "$label")]
///     name: &'a str,
///     port: u16,
/// }
///
/// #[derive(Deserialize, Debug, PartialEq)]
/// struct Config<'a> {
///     #[serde(borrow)]
///     service: Vec<Service<'a>>,
/// }
///
/// let text = r#"
/// service "web" {
///   port = 8000 + 80
/// }
/// "#;
/// let config: Config = hcl::from_str(text)?;
/// assert_eq!(config.service, [Service { name: "web", port: 8080 }]);
/// # Ok::<(), hcl::Error>(())
/// ```
///
/// # Errors
///
/// A syntax error if `s` is not HCL, an evaluation error if an expression
/// the target reads cannot be evaluated, a data error if the data does not
/// fit `T`. Every error has the line and column it points at.
pub fn from_str<'de, T: de::Deserialize<'de>>(s: &'de str) -> Result<T> {
    T::deserialize(Deserializer::from_str(s))
}

/// Deserializes an instance of `T` from HCL text, evaluating expressions
/// with the variables and functions of `ctx`.
///
/// ```
/// use std::collections::BTreeMap;
///
/// let mut ctx = hcl::Context::new();
/// ctx.declare_var("env", "prod");
/// let map: BTreeMap<String, String> = hcl::from_str_with("name = \"api-${env}\"\n", &ctx)?;
/// assert_eq!(map["name"], "api-prod");
/// # Ok::<(), hcl::Error>(())
/// ```
///
/// # Errors
///
/// As [`from_str`].
pub fn from_str_with<'de, T: de::Deserialize<'de>>(s: &'de str, ctx: &Context) -> Result<T> {
    T::deserialize(Deserializer::from_str(s).with_context(ctx))
}

/// Deserializes an instance of `T` from HCL text given as bytes.
///
/// ```
/// let port: std::collections::HashMap<String, u16> = hcl::from_slice(b"port = 8080\n")?;
/// assert_eq!(port["port"], 8080);
/// # Ok::<(), hcl::Error>(())
/// ```
///
/// # Errors
///
/// As [`from_str`]; invalid UTF-8 outside comments is a syntax error.
pub fn from_slice<'de, T: de::Deserialize<'de>>(v: &'de [u8]) -> Result<T> {
    T::deserialize(Deserializer::from_slice(v))
}

/// [`from_slice`] with a [`Context`].
///
/// # Errors
///
/// As [`from_slice`].
pub fn from_slice_with<'de, T: de::Deserialize<'de>>(v: &'de [u8], ctx: &Context) -> Result<T> {
    T::deserialize(Deserializer::from_slice(v).with_context(ctx))
}

/// Deserializes an instance of `T` from text in HCL's JSON syntax, without
/// a context: strings are literal text (no `${` processing).
///
/// A property is read as the target asks: a field that reads blocks (a
/// struct with `$label`, `Vec<T>` of structs, maps keyed by label) reads
/// the JSON spec's block forms, any other field an attribute.
///
/// ```
/// use serde::Deserialize;
///
/// #[derive(Deserialize, Debug, PartialEq)]
/// struct Service {
///     #[serde(rename = "$label")]
///     name: String,
///     port: u16,
/// }
///
/// #[derive(Deserialize, Debug, PartialEq)]
/// struct Config {
///     service: Vec<Service>,
/// }
///
/// let text = r#"{"service": {"web": {"port": 8080}, "api": {"port": 9090}}}"#;
/// let config: Config = hcl::from_json_str(text)?;
/// assert_eq!(config.service[1], Service { name: "api".into(), port: 9090 });
/// # Ok::<(), hcl::Error>(())
/// ```
///
/// # Errors
///
/// As [`from_str`]; JSON syntax errors (trailing commas, comments...) are
/// syntax errors with their line and column.
pub fn from_json_str<'de, T: de::Deserialize<'de>>(s: &'de str) -> Result<T> {
    T::deserialize(Deserializer::from_str(s).with_syntax(Syntax::Json))
}

/// [`from_json_str`] with a [`Context`]: strings are templates, evaluated
/// with its variables and functions when the target reads them.
///
/// ```
/// let mut ctx = hcl::Context::new();
/// ctx.declare_var("env", "prod");
/// let v: hcl::Value = hcl::from_json_str_with(r#"{"name": "api-${env}"}"#, &ctx)?;
/// assert_eq!(v["name"], "api-prod");
/// # Ok::<(), hcl::Error>(())
/// ```
///
/// # Errors
///
/// As [`from_json_str`], and evaluation errors pointing into the string.
pub fn from_json_str_with<'de, T: de::Deserialize<'de>>(s: &'de str, ctx: &Context) -> Result<T> {
    T::deserialize(
        Deserializer::from_str(s)
            .with_syntax(Syntax::Json)
            .with_context(ctx),
    )
}

/// [`from_json_str`] for bytes (which must be UTF-8).
///
/// # Errors
///
/// As [`from_json_str`]; invalid UTF-8 is a syntax error.
pub fn from_json_slice<'de, T: de::Deserialize<'de>>(v: &'de [u8]) -> Result<T> {
    T::deserialize(Deserializer::from_slice(v).with_syntax(Syntax::Json))
}

/// [`from_json_slice`] with a [`Context`].
///
/// # Errors
///
/// As [`from_json_slice`].
pub fn from_json_slice_with<'de, T: de::Deserialize<'de>>(
    v: &'de [u8],
    ctx: &Context,
) -> Result<T> {
    T::deserialize(
        Deserializer::from_slice(v)
            .with_syntax(Syntax::Json)
            .with_context(ctx),
    )
}

/// Reads the file at `path` and deserializes it, in the syntax its name
/// implies ([`Syntax::from_path`]: `*.json` is JSON, anything else
/// native), as the reference's `hclsimple` does. Errors name the file.
///
/// ```no_run
/// let config: hcl::Value = hcl::from_path("main.tf.json", None)?;
/// # Ok::<(), hcl::Error>(())
/// ```
///
/// # Errors
///
/// A data error if the file cannot be read, otherwise as [`from_slice`]
/// or [`from_json_slice`].
pub fn from_path<T: DeserializeOwned>(
    path: impl AsRef<std::path::Path>,
    ctx: Option<&Context>,
) -> Result<T> {
    let path = path.as_ref();
    let bytes =
        std::fs::read(path).map_err(|e| Error::io(e).with_file(path.display().to_string()))?;
    let de = Deserializer::from_slice(&bytes)
        .with_syntax(Syntax::from_path(path))
        .with_file_name(path.display().to_string());
    match ctx {
        Some(ctx) => T::deserialize(de.with_context(ctx)),
        None => T::deserialize(de),
    }
}

/// Deserializes an instance of `T` from an I/O stream of HCL text, read
/// to the end first (HCL cannot be deserialized before its end is seen).
///
/// The stream is read no further than the default input limit
/// ([`ParseOptions::DEFAULT_MAX_INPUT_LEN`], 8 MiB) plus one byte: a longer
/// stream is a syntax error ("input too large") without being read whole.
/// For a larger limit, read the input yourself and use
/// [`Deserializer::from_slice`] with [`Deserializer::with_max_input_len`].
///
/// ```
/// let input = std::io::Cursor::new("enabled = true\n");
/// let v: hcl::Value = hcl::from_reader(input)?;
/// assert_eq!(v.get("enabled"), Some(&hcl::Value::Bool(true)));
/// # Ok::<(), hcl::Error>(())
/// ```
///
/// # Errors
///
/// A data error if reading fails, otherwise as [`from_slice`].
pub fn from_reader<R: std::io::Read, T: DeserializeOwned>(reader: R) -> Result<T> {
    from_reader_impl(reader, None)
}

/// [`from_reader`] with a [`Context`].
///
/// # Errors
///
/// As [`from_reader`].
pub fn from_reader_with<R: std::io::Read, T: DeserializeOwned>(
    reader: R,
    ctx: &Context,
) -> Result<T> {
    from_reader_impl(reader, Some(ctx))
}

fn from_reader_impl<R: std::io::Read, T: DeserializeOwned>(
    reader: R,
    ctx: Option<&Context>,
) -> Result<T> {
    use std::io::Read as _;
    let limit = ParseOptions::DEFAULT_MAX_INPUT_LEN;
    let mut buf = Vec::new();
    reader
        .take(u64::try_from(limit).unwrap_or(u64::MAX).saturating_add(1))
        .read_to_end(&mut buf)
        .map_err(Error::io)?;
    let de = Deserializer::from_slice(&buf);
    match ctx {
        Some(ctx) => T::deserialize(de.with_context(ctx)),
        None => T::deserialize(de),
    }
}

/// Deserializes an instance of `T` from a [`Value`], with HCL's
/// conversions (`"8080"` into `u16`, `15` into `String`).
///
/// ```
/// let v = hcl::Value::from(vec!["1", "2"]);
/// let ports: Vec<u16> = hcl::from_value(v)?;
/// assert_eq!(ports, [1, 2]);
/// # Ok::<(), hcl::Error>(())
/// ```
///
/// # Errors
///
/// A data error if the value does not fit `T`.
pub fn from_value<T: DeserializeOwned>(value: Value) -> Result<T> {
    T::deserialize(ValueDeserializer::new(value))
}

/// The `Unexpected` of a value, for serde's error messages.
pub(crate) fn unexpected(v: &Value) -> de::Unexpected<'_> {
    match v {
        Value::Null => de::Unexpected::Unit,
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
