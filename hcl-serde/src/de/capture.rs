//! Capturing the source: `serde_spanned::Spanned<T>`, [`RawExpression`] and
//! [`RawBody`].
//!
//! Each is recognised by a reserved struct name in `deserialize_struct`
//! and handed over as a map of plain data (no pointers, no thread-local):
//! `Spanned` gets its start, end and value; `RawExpression` and `RawBody` get a
//! copy of their source text with its position in the file, and parse it
//! again when they are evaluated.

use super::body::{BodyDeserializer, Node};
pub(crate) use super::handover::CaptureAccess;
use super::handover::{CaptureKey, Place};
use super::Shared;
use crate::body::json_ref::JsonRef;
use crate::error::{Error, Result};
use crate::eval::Context;
use crate::Value;
use hcl_grammar::Span;
use serde::de::{self, DeserializeOwned, IntoDeserializer, Visitor};
use std::fmt;

use serde_spanned::de::SpannedDeserializer;

pub(crate) use crate::reserved::{BODY_NAME, EXPRESSION_NAME};
/// Whether `name` is the reserved name of [`RawExpression`] or [`RawBody`]. They
/// ask for a newtype struct, which other formats hand over as themselves
/// (so a string arrives); our deserializers answer with the capture, as
/// for `deserialize_struct`.
pub(crate) fn is_capture(name: &str) -> bool {
    name == EXPRESSION_NAME || name == BODY_NAME
}
/// Whether `name` and `fields` are what `serde_spanned::Spanned` asks for,
/// by serde_spanned's public check (its reserved struct name; 0.6 and 1.x
/// use the same one, so a user's `Spanned` of either version is seen).
pub(crate) fn is_spanned(name: &'static str, _fields: &'static [&'static str]) -> bool {
    serde_spanned::de::is_spanned(name)
}

/// A deserializer handed over as itself, so serde_spanned's
/// [`SpannedDeserializer`] can take it as the value.
pub(crate) struct Itself<D>(D);

impl<'de, D: de::Deserializer<'de, Error = Error>> IntoDeserializer<'de, Error> for Itself<D> {
    type Deserializer = D;

    fn into_deserializer(self) -> D {
        self.0
    }
}

/// The map handed to `Spanned`'s visitor: start, end, then the value
/// (serde_spanned's own [`SpannedDeserializer`], through its public API).
pub(crate) struct SpannedAccess<'de, D: de::Deserializer<'de, Error = Error>>(
    SpannedDeserializer<'de, Itself<D>, Error>,
);

impl<'de, D: de::Deserializer<'de, Error = Error>> SpannedAccess<'de, D> {
    pub(crate) fn new(span: Span, value: D) -> Self {
        SpannedAccess(SpannedDeserializer::new(
            Itself(value),
            span.start()..span.end(),
        ))
    }
}

impl<'de, D: de::Deserializer<'de, Error = Error>> de::MapAccess<'de> for SpannedAccess<'de, D> {
    type Error = Error;

    fn next_key_seed<K: de::DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        self.0.next_key_seed(seed)
    }

    fn next_value_seed<T: de::DeserializeSeed<'de>>(&mut self, seed: T) -> Result<T::Value> {
        self.0.next_value_seed(seed)
    }
}

/// The source text of a captured expression or body, and where it is.
#[derive(Clone, PartialEq, Eq)]
struct Captured {
    /// The source from the start of the line where the capture starts to
    /// the end of the line where it ends (for error snippets).
    text: String,
    /// The byte offset of the capture in `text`.
    offset: usize,
    /// Its length in bytes.
    len: usize,
    /// The 1-based line of `text`'s first line in the file.
    line: usize,
    /// The byte offset of `text` in the file.
    byte: usize,
    /// Columns before `text` on its first line: 0 unless the line was too
    /// long to keep whole (then counted in bytes).
    col: usize,
    /// What most captures lack, boxed to keep them small: see [`Extra`].
    /// `None` rather than the default, so that equal captures compare
    /// equal.
    extra: Option<Box<Extra>>,
}

/// The rarer parts of a [`Captured`].
#[derive(Clone, PartialEq, Eq, Default)]
struct Extra {
    /// The name of the file, when the deserializer knew it.
    file: Option<String>,
    /// The capture is in HCL's JSON syntax: a JSON value (a body: a JSON
    /// object, braces included), read again as JSON.
    json: bool,
    /// Names left out of a captured body (a `$remain` field's: the names
    /// its struct takes itself).
    hidden: Vec<String>,
}

impl Captured {
    fn standalone(text: &str) -> Captured {
        Captured {
            text: text.to_owned(),
            offset: 0,
            len: text.len(),
            line: 1,
            byte: 0,
            col: 0,
            extra: None,
        }
    }

    /// The name of the file, when the deserializer knew it.
    fn file(&self) -> Option<&str> {
        self.extra.as_ref()?.file.as_deref()
    }

    /// Whether the capture is in HCL's JSON syntax.
    fn json(&self) -> bool {
        self.extra.as_ref().is_some_and(|x| x.json)
    }

    /// The names left out of a captured body.
    fn hidden(&self) -> &[String] {
        self.extra.as_ref().map_or(&[], |x| &x.hidden)
    }

    fn as_str(&self) -> &str {
        self.text
            .get(self.offset..self.offset + self.len)
            .unwrap_or_default()
    }

    fn span(&self) -> Span {
        let start = self.byte + self.offset;
        Span::new(start, start + self.len)
    }

    /// The capture with everything before it on its line blanked out, so
    /// that a parse of it gives spans into `text`, and a newline after it
    /// (a heredoc needs one after its closing marker).
    fn padded(&self) -> String {
        let mut s = String::with_capacity(self.offset + self.len + 1);
        s.push_str(&" ".repeat(self.offset));
        s.push_str(self.as_str());
        s.push('\n');
        s
    }

    /// Places an error about `text` in the file.
    fn locate(&self, mut e: Error) -> Error {
        e.attach_source(&self.text);
        let e = e.relocate(self.line.saturating_sub(1), self.byte, self.col);
        match self.file() {
            Some(f) if e.file().is_none() => e.with_file(f.to_owned()),
            _ => e,
        }
    }

    fn shared<'a>(&'a self, ctx: &'a Context, src: &'a str) -> Shared<'a> {
        let mut sh = Shared::new(ctx, src, super::DEFAULT_MAX_DEPTH);
        sh.line0 = self.line;
        sh.byte0 = self.byte;
        sh.file = self.file();
        // Evaluated with a context: JSON strings are templates.
        sh.templates = true;
        sh
    }

    /// The captured JSON value, parsed again (it is known to be valid),
    /// the hidden names left out.
    fn parse_json<'t>(&self, padded: &'t str) -> Result<hcl_grammar::json::JsonDocument<'t>> {
        let mut doc = hcl_grammar::json::parse_json(padded, &Default::default())
            .map_err(|e| self.locate(e.into()))?;
        doc.retain_root_properties(|_, name| !self.hidden().iter().any(|h| *h == name));
        Ok(doc)
    }

    /// The captured native body, parsed again, the hidden names left out.
    fn parse_body<'t>(&self, padded: &'t str) -> Result<hcl_grammar::Body<'t>> {
        let mut body = hcl_grammar::parse_body(padded, &Default::default())
            .map_err(|e| self.locate(e.into()))?;
        if !self.hidden().is_empty() {
            let mut items = std::mem::take(&mut body.items).into_vec();
            items.retain(|i| {
                let name = match i {
                    hcl_grammar::Structure::Attribute(a) => a.name.name,
                    hcl_grammar::Structure::Block(b) => b.ident.name,
                };
                !self.hidden().iter().any(|h| h == name)
            });
            body.items = items.into_boxed_slice();
        }
        Ok(body)
    }
}

/// Reads the map of [`CaptureAccess`] (or a string from another format).
struct CaptureVisitor {
    what: &'static str,
    parse: fn(&str) -> Result<()>,
}

impl<'de> Visitor<'de> for CaptureVisitor {
    type Value = Captured;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (HCL source text)", self.what)
    }

    fn visit_newtype_struct<D: de::Deserializer<'de>>(self, d: D) -> Result<Captured, D::Error> {
        d.deserialize_str(self)
    }

    fn visit_str<E: de::Error>(self, s: &str) -> Result<Captured, E> {
        (self.parse)(s).map_err(E::custom)?;
        Ok(Captured::standalone(s))
    }

    fn visit_map<A: de::MapAccess<'de>>(self, mut map: A) -> Result<Captured, A::Error> {
        let mut text = None;
        let mut file = None;
        let mut json = false;
        let mut hidden = Vec::new();
        let mut place = None;
        while let Some(CaptureKey(key)) = map.next_key()? {
            match key {
                0 => text = Some(map.next_value::<String>()?),
                1 => place = Some(map.next_value::<Place>()?.0),
                2 => file = Some(map.next_value::<String>()?),
                3 => json = map.next_value::<bool>()?,
                _ => {
                    hidden = map
                        .next_value::<String>()?
                        .lines()
                        .map(str::to_owned)
                        .collect()
                }
            }
        }
        match (text, place) {
            (Some(text), Some([offset, len, line, byte, col]))
                if text.get(offset..offset.saturating_add(len)).is_some() =>
            {
                let extra = Extra { file, json, hidden };
                Ok(Captured {
                    text,
                    offset,
                    len,
                    line,
                    byte,
                    col,
                    extra: (extra != Extra::default()).then(|| Box::new(extra)),
                })
            }
            _ => Err(de::Error::custom(format!("malformed {}", self.what))),
        }
    }
}

/// An attribute's expression, captured unevaluated: its source text and
/// its place in the file, for an application to evaluate later with its
/// own [`Context`].
///
/// A field of type `RawExpression` receives the expression as written; the
/// deserializer does not evaluate it, so it may refer to variables and
/// functions that only the application knows. [`RawExpression::evaluate`]
/// parses the text again (it is known to be valid) and evaluates it; its
/// errors point into the original file.
///
/// ```
/// use serde::Deserialize;
///
/// #[derive(Deserialize)]
/// struct Rule { when: hcl::RawExpression }
///
/// let rule: Rule = hcl::from_str("when = request.size > limit\n")?;
/// assert_eq!(rule.when.as_str(), "request.size > limit");
///
/// let mut ctx = hcl::Context::new();
/// ctx.declare_var("request", hcl::Value::from_iter([("size", 12)]));
/// ctx.declare_var("limit", 10);
/// assert_eq!(rule.when.evaluate(&ctx)?, hcl::Value::Bool(true));
/// # Ok::<(), hcl::Error>(())
/// ```
///
/// From formats other than HCL, an `RawExpression` deserializes from a string
/// holding an expression in HCL syntax; it serializes as that string. An
/// already evaluated value (an element of a variable, a [`Value`] given to
/// [`from_value`](crate::from_value)) is captured as the literal that
/// writes it.
#[derive(Clone, PartialEq, Eq)]
pub struct RawExpression(Captured);

impl RawExpression {
    /// Parses `text` as a standalone HCL expression.
    ///
    /// ```
    /// let e = hcl::RawExpression::parse("[for x in [1, 2]: x * 10]")?;
    /// assert_eq!(e.evaluate(&hcl::Context::none())?, hcl::Value::from(vec![10, 20]));
    /// # Ok::<(), hcl::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// A syntax error.
    pub fn parse(text: &str) -> Result<RawExpression> {
        hcl_grammar::parse_expr(text, &Default::default())?;
        Ok(RawExpression(Captured::standalone(text)))
    }

    /// The expression's source text, as written.
    pub fn as_str(&self) -> &str {
        self.0.as_str()
    }

    /// The expression's byte span in the file it was read from.
    pub fn span(&self) -> Span {
        self.0.span()
    }

    /// The 1-based line where the expression starts in its file.
    pub fn line(&self) -> usize {
        self.0.line
    }

    /// The name of the file the expression was read from, when the
    /// deserializer knew it ([`from_files`](crate::from_files), or a
    /// [`Deserializer`](crate::Deserializer) given
    /// [`with_file_name`](crate::Deserializer::with_file_name)); its
    /// [`span`](RawExpression::span) and [`line`](RawExpression::line)
    /// are in that file, and so are the positions of errors from
    /// [`evaluate`](RawExpression::evaluate), which name it.
    pub fn file(&self) -> Option<&str> {
        self.0.file()
    }

    /// Evaluates the expression with `ctx`.
    ///
    /// # Errors
    ///
    /// An evaluation error, with the line and column in the original file.
    pub fn evaluate(&self, ctx: &Context) -> Result<Value> {
        let padded = self.0.padded();
        if self.0.json() {
            // HCL's JSON syntax: strings are templates in `ctx`.
            let doc = self.0.parse_json(&padded)?;
            return crate::body::json::evaluate(JsonRef::root(&doc), Some(ctx), 0)
                .map_err(|e| self.0.locate(e));
        }
        let expr = hcl_grammar::parse_expr(&padded, &Default::default())
            .map_err(|e| self.0.locate(e.into()))?;
        crate::eval::eval_expr(&expr, ctx).map_err(|e| self.0.locate(e))
    }

    /// Calls `f` with the parsed expression; its errors are moved to the
    /// original file's lines and columns.
    pub(crate) fn with_parsed<R>(
        &self,
        f: impl FnOnce(&hcl_grammar::Expr<'_>) -> Result<R>,
    ) -> Result<R> {
        let padded = self.0.padded();
        let expr = hcl_grammar::parse_expr(&padded, &Default::default())
            .map_err(|e| self.0.locate(e.into()))?;
        f(&expr).map_err(|e| self.0.locate(e))
    }

    /// Evaluates the expression with `ctx` and deserializes the value into
    /// `T`, with HCL's conversions.
    ///
    /// ```
    /// let e = hcl::RawExpression::parse("\"80${80}\"")?;
    /// let port: u16 = e.evaluate_into(&hcl::Context::none())?;
    /// assert_eq!(port, 8080);
    /// # Ok::<(), hcl::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// An evaluation error, or a data error if the value does not fit `T`;
    /// both with the line and column in the original file.
    pub fn evaluate_into<T: DeserializeOwned>(&self, ctx: &Context) -> Result<T> {
        let v = self.evaluate(ctx)?;
        let span = Span::new(self.0.offset, self.0.offset + self.0.len);
        let d = super::ValueDeserializer::at(v, span, 0, super::DEFAULT_MAX_DEPTH);
        T::deserialize(d).map_err(|e| self.0.locate(e))
    }
}

impl fmt::Display for RawExpression {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for RawExpression {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "RawExpression({:?})", self.as_str())
    }
}

impl serde::Serialize for RawExpression {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        // This crate's serializer writes the source back as it is.
        if crate::reserved::active() {
            return s.serialize_newtype_struct(crate::reserved::SER_EXPRESSION_NAME, self.as_str());
        }
        s.serialize_str(self.as_str())
    }
}

impl<'de> serde::Deserialize<'de> for RawExpression {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<RawExpression, D::Error> {
        d.deserialize_newtype_struct(
            EXPRESSION_NAME,
            CaptureVisitor {
                what: "an HCL expression",
                parse: |s| {
                    hcl_grammar::parse_expr(s, &Default::default())
                        .map(drop)
                        .map_err(Error::from)
                },
            },
        )
        .map(RawExpression)
    }
}

/// A block's body, captured unevaluated: its source text and its place in
/// the file, to be evaluated or deserialized later with an application's
/// [`Context`].
///
/// ```
/// use serde::Deserialize;
///
/// #[derive(Deserialize)]
/// struct Config { template: hcl::RawBody }
///
/// #[derive(Deserialize, Debug, PartialEq)]
/// struct Page { title: String }
///
/// let config: Config = hcl::from_str("template {\n  title = \"Hello, ${name}\"\n}\n")?;
/// let mut ctx = hcl::Context::new();
/// ctx.declare_var("name", "world");
/// let page: Page = config.template.deserialize_with(&ctx)?;
/// assert_eq!(page.title, "Hello, world");
/// # Ok::<(), hcl::Error>(())
/// ```
///
/// From formats other than HCL, a `RawBody` deserializes from a string of
/// HCL body syntax; it serializes as that string.
#[derive(Clone, PartialEq, Eq)]
pub struct RawBody(Captured);

impl RawBody {
    /// Parses `text` as an HCL body (a configuration file).
    ///
    /// # Errors
    ///
    /// A syntax error.
    pub fn parse(text: &str) -> Result<RawBody> {
        hcl_grammar::parse_body(text, &Default::default())?;
        Ok(RawBody(Captured::standalone(text)))
    }

    /// The body's source text: between its braces in the native syntax;
    /// in the JSON syntax the object, braces included.
    pub fn as_str(&self) -> &str {
        self.0.as_str()
    }

    /// The body's byte span in the file it was read from.
    pub fn span(&self) -> Span {
        self.0.span()
    }

    /// The name of the file the body was read from, when the deserializer
    /// knew it (as [`RawExpression::file`]); errors from evaluating or
    /// deserializing the body name it.
    pub fn file(&self) -> Option<&str> {
        self.0.file()
    }

    /// Evaluates every attribute of the body and its blocks into an object
    /// in the shape of HCL's JSON form (see
    /// [`eval_body`](crate::eval::eval_body)).
    ///
    /// # Errors
    ///
    /// The first evaluation error, with its line and column in the
    /// original file.
    pub fn evaluate(&self, ctx: &Context) -> Result<Value> {
        let padded = self.0.padded();
        if self.0.json() {
            // A JSON object is already in that shape.
            let doc = self.0.parse_json(&padded)?;
            return crate::body::json::evaluate(JsonRef::root(&doc), Some(ctx), 0)
                .map_err(|e| self.0.locate(e));
        }
        let body = self.0.parse_body(&padded)?;
        crate::eval::eval_body(&body, ctx).map_err(|e| self.0.locate(e))
    }

    /// Deserializes the body into `T`, evaluating with `ctx`, as
    /// [`from_str_with`](crate::from_str_with) does for a file.
    ///
    /// # Errors
    ///
    /// As [`from_str_with`](crate::from_str_with), with lines and columns
    /// in the original file.
    pub fn deserialize_with<T: DeserializeOwned>(&self, ctx: &Context) -> Result<T> {
        let padded = self.0.padded();
        let sh = self.0.shared(ctx, &self.0.text);
        // Errors about the whole body (a missing field) point at its start.
        let start = Span::new(self.0.offset, self.0.offset);
        if self.0.json() {
            let doc = self.0.parse_json(&padded)?;
            return T::deserialize(BodyDeserializer::root_at(
                Node::Json(JsonRef::root(&doc)),
                &sh,
                start,
            ))
            .map_err(|e| self.0.locate(e));
        }
        let body = self.0.parse_body(&padded)?;
        T::deserialize(BodyDeserializer::root_at(Node::Native(&body), &sh, start))
            .map_err(|e| self.0.locate(e))
    }
}

impl fmt::Display for RawBody {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for RawBody {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "RawBody({:?})", self.as_str())
    }
}

impl serde::Serialize for RawBody {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        // This crate's serializer writes the source back as it is.
        if crate::reserved::active() {
            return s.serialize_newtype_struct(crate::reserved::SER_BODY_NAME, self.as_str());
        }
        s.serialize_str(self.as_str())
    }
}

impl<'de> serde::Deserialize<'de> for RawBody {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<RawBody, D::Error> {
        d.deserialize_newtype_struct(
            BODY_NAME,
            CaptureVisitor {
                what: "an HCL body",
                parse: |s| {
                    hcl_grammar::parse_body(s, &Default::default())
                        .map(drop)
                        .map_err(Error::from)
                },
            },
        )
        .map(RawBody)
    }
}
