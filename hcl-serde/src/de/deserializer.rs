//! The [`Deserializer`] itself: its options (builder methods), parsing the
//! input in its syntax, and serde's `Deserializer` trait, which hands the
//! root body to `body.rs`.

use super::body::{BodyDeserializer, Node};
use super::{files, Shared, Syntax, DEFAULT_MAX_DEPTH};
use crate::error::{Error, Result};
use crate::eval::Context;
use crate::source::Sources;
use crate::Value;
use hcl_grammar::{ParseOptions, Span};
use serde::de::{self, Visitor};
use std::borrow::Cow;

pub(super) enum Input<'de> {
    Str(&'de str),
    Bytes(&'de [u8]),
    Files(&'de Sources),
}

/// A deserializer of HCL configuration text.
///
/// Most programs call [`from_str`](super::from_str) or [`from_str_with`](super::from_str_with); build a
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
    pub(super) input: Input<'de>,
    pub(super) ctx: Option<&'c Context>,
    pub(super) file: Option<String>,
    pub(super) max_depth: usize,
    pub(super) max_input_len: usize,
    pub(super) syntax: Syntax,
    pub(super) dynamic_blocks: bool,
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
            dynamic_blocks: false,
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
            dynamic_blocks: false,
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
            dynamic_blocks: self.dynamic_blocks,
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

    /// Applies `options` (depth and input limits), as every entry point
    /// taking [`Options`](super::Options) does.
    ///
    /// ```
    /// let options = hcl::de::Options::new().with_max_input_len(16);
    /// let de = hcl::Deserializer::from_str("name = \"a long value\"\n").with_options(&options);
    /// let err = <hcl::Value as serde::Deserialize>::deserialize(de).unwrap_err();
    /// assert!(err.to_string().starts_with("input too large"));
    /// ```
    #[must_use]
    pub fn with_options(mut self, options: &super::Options) -> Self {
        self.max_depth = options.max_depth;
        self.max_input_len = options.max_input_len;
        self.dynamic_blocks = options.dynamic_blocks;
        self
    }

    /// Expands `dynamic` blocks as the target reads them (see
    /// [`Options::with_dynamic_blocks`](super::Options::with_dynamic_blocks)).
    #[must_use]
    pub fn with_dynamic_blocks(mut self, on: bool) -> Self {
        self.dynamic_blocks = on;
        self
    }

    /// Parses the input and hands the root body to `f`; attaches the
    /// source and file name to any error.
    fn run<T, F>(self, f: F) -> Result<T>
    where
        F: for<'a> FnOnce(BodyDeserializer<'a, 'de>) -> Result<T>,
    {
        let none;
        let ctx = match self.ctx {
            Some(c) => c,
            None => {
                none = Context::none();
                &none
            }
        };
        // Expanding `dynamic` blocks: the context, shared, is the parent
        // of each generated block's (one copy per run).
        // Without a context the iterators still need variables: an empty
        // context that supports them.
        let shared_ctx = self.dynamic_blocks.then(|| {
            std::sync::Arc::new(match self.ctx {
                Some(c) => c.clone(),
                None => Context::new(),
            })
        });
        let ctx = shared_ctx.as_deref().unwrap_or(ctx);
        let dynamic = shared_ctx.as_ref();
        let options = ParseOptions::default().with_max_input_len(self.max_input_len);
        if self.syntax == Syntax::Json {
            return self.run_json((ctx, dynamic), options, f);
        }
        let (parsed, src): (_, Cow<'de, str>) = match self.input {
            Input::Files(sources) => {
                return files::run(
                    sources,
                    (ctx, dynamic),
                    &options,
                    self.max_depth,
                    self.ctx.is_some(),
                    f,
                )
            }
            Input::Str(s) => (hcl_grammar::parse_body(s, &options), Cow::Borrowed(s)),
            Input::Bytes(b) => {
                // Input past the limit is an error: the text for its
                // message need not go further (nor be copied whole).
                let shown = b.get(..options.max_input_len()).unwrap_or(b);
                (
                    hcl_grammar::parse_body(b, &options),
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
        shared.dynamic = dynamic.cloned();
        f(BodyDeserializer::root(Node::Native(&tree), &shared)).map_err(finish)
    }
}

/// Parses a file of HCL's JSON syntax: its root must be an object (or an
/// array of objects, merged).
pub(super) fn parse_json_root<'i>(
    text: &'i str,
    options: &ParseOptions,
) -> Result<hcl_grammar::json::JsonDocument<'i>> {
    use hcl_grammar::json::JsonKind;
    let doc = hcl_grammar::json::parse_json(text, options).map_err(Error::syntax)?;
    let root = doc.root();
    let bad = match &root.kind {
        JsonKind::Object(_) => None,
        JsonKind::Array(items) => doc
            .items(*items)
            .iter()
            .find(|i| !matches!(i.kind, JsonKind::Object(_)))
            .map(|i| (i.kind.type_name(), i.span)),
        other => Some((other.type_name(), root.span)),
    };
    match bad {
        None => Ok(doc),
        Some((found, span)) => Err(Error::syntax(hcl_grammar::Error::new(
            format!("Root value must be object: the root of a JSON-syntax file must be an object (or an array of objects), not {found}"),
            span,
            text,
        ))),
    }
}

impl<'de> Deserializer<'de, '_> {
    /// [`Deserializer::run`] for the JSON syntax: the body deserializer
    /// walks the JSON tree itself (`json_value.rs`).
    fn run_json<T, F>(
        self,
        (ctx, dynamic): (&Context, Option<&std::sync::Arc<Context>>),
        options: ParseOptions,
        f: F,
    ) -> Result<T>
    where
        F: for<'a> FnOnce(BodyDeserializer<'a, 'de>) -> Result<T>,
    {
        let templates = self.ctx.is_some();
        let file = self.file;
        let src: &'de str = match self.input {
            Input::Files(sources) => {
                return files::run(
                    sources,
                    (ctx, dynamic),
                    &options,
                    self.max_depth,
                    templates,
                    f,
                )
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
        let tree = parse_json_root(src, &options).map_err(finish)?;
        let mut shared = Shared::new(ctx, src, self.max_depth);
        shared.file = file.as_deref();
        shared.templates = templates;
        shared.dynamic = dynamic.cloned();
        let root = crate::body::json_ref::JsonRef::root(&tree);
        f(BodyDeserializer::root(Node::Json(root), &shared)).map_err(finish)
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
        deserialize_seq()
        deserialize_tuple(len: usize)
        deserialize_tuple_struct(name: &'static str, len: usize)
        deserialize_map()
        deserialize_struct(name: &'static str, fields: &'static [&'static str])
        deserialize_enum(name: &'static str, variants: &'static [&'static str])
        deserialize_identifier()
        deserialize_ignored_any()
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        if let Some(value) = self.json_value(name) {
            return super::direct::hand_over(value, visitor);
        }
        self.run(move |d| de::Deserializer::deserialize_newtype_struct(d, name, visitor))
    }
}

impl Deserializer<'_, '_> {
    /// A `Value` target (the newtype `name`) read from one JSON text,
    /// built while it is parsed (`json_direct.rs`) when it is plain;
    /// `None` otherwise (the body route reads it, errors included).
    fn json_value(&self, name: &str) -> Option<Value> {
        if self.syntax != Syntax::Json
            || self.dynamic_blocks
            || !crate::reserved::is_value_target(name)
            || !super::direct::json_builder_on()
        {
            return None;
        }
        let src = match self.input {
            Input::Str(s) => s,
            Input::Bytes(b) => std::str::from_utf8(b).ok()?,
            Input::Files(_) => return None,
        };
        let options = ParseOptions::default().with_max_input_len(self.max_input_len);
        let options = super::json_direct::options(options, self.max_depth);
        super::json_direct::value(src, self.ctx.is_some(), &options)
    }
}
