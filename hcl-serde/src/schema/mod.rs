//! Decoding with a dynamic schema, for both syntaxes: the application
//! states at run time which attributes and which block types (with their
//! label names) a body has, and gets its attributes (evaluated on demand)
//! and blocks (type, labels, body) back. This is the reference's
//! `hcl.BodySchema` with `Content`, `PartialContent` and `JustAttributes`
//! (the HCL guide's "Decoding With Dynamic Schema").
//!
//! In the JSON syntax the schema is what tells attributes from blocks: a
//! property named as a block type is read in the JSON spec's block forms
//! (one object level per label, arrays for repeated blocks, `null` for
//! none), any other property is an attribute.
//!
//! ```
//! use hcl::schema::{BodySchema, File};
//! use hcl::Syntax;
//!
//! let schema = BodySchema::new()
//!     .attribute("name", true)
//!     .block("service", &["name"]);
//! for (text, syntax) in [
//!     ("name = \"shop\"\nservice \"web\" {\n  port = 80\n}\n", Syntax::Native),
//!     (r#"{"name": "shop", "service": {"web": {"port": 80}}}"#, Syntax::Json),
//! ] {
//!     let file = File::parse(text, syntax)?;
//!     let content = file.body().content(&schema)?;
//!     assert_eq!(content.attributes[0].evaluate(None)?, "shop");
//!     let web = &content.blocks[0];
//!     assert_eq!((web.type_name.as_str(), web.labels.as_slice()), ("service", &["web".to_owned()][..]));
//!     let attrs = web.body.just_attributes()?;
//!     assert_eq!(attrs[0].evaluate(None)?, 80);
//! }
//! # Ok::<(), hcl::Error>(())
//! ```

mod dynamic;
mod json;
mod merge;
mod native;

pub(crate) use crate::source::locate;
pub use crate::source::Sources;
pub use merge::merge;

use crate::error::{Error, Result};
use crate::eval::Context;
use crate::source::Syntax;
use crate::Value;
use hcl_grammar::json::JsonValue;
use hcl_grammar::{ParseOptions, Span};
use std::sync::Arc;

/// What a body may contain: attributes (each required or not) and block
/// types (each with the names of its labels).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BodySchema {
    /// The attributes.
    pub attributes: Vec<AttributeSchema>,
    /// The block types.
    pub blocks: Vec<BlockSchema>,
}

/// One attribute of a [`BodySchema`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AttributeSchema {
    /// Its name.
    pub name: String,
    /// Whether a body without it is an error.
    pub required: bool,
}

/// One block type of a [`BodySchema`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlockSchema {
    /// The block type.
    pub type_name: String,
    /// The names of its labels (their number is what counts; the names
    /// appear in messages).
    pub labels: Vec<String>,
}

impl BodySchema {
    /// An empty schema: no attributes, no block types.
    pub fn new() -> BodySchema {
        BodySchema::default()
    }

    /// Adds an attribute.
    #[must_use]
    pub fn attribute(mut self, name: impl Into<String>, required: bool) -> BodySchema {
        self.attributes.push(AttributeSchema {
            name: name.into(),
            required,
        });
        self
    }

    /// Adds a block type with the names of its labels.
    #[must_use]
    pub fn block(mut self, type_name: impl Into<String>, labels: &[&str]) -> BodySchema {
        self.blocks.push(BlockSchema {
            type_name: type_name.into(),
            labels: labels.iter().map(|l| (*l).to_owned()).collect(),
        });
        self
    }

    pub(crate) fn attr(&self, name: &str) -> Option<&AttributeSchema> {
        self.attributes.iter().find(|a| a.name == name)
    }

    pub(crate) fn block_type(&self, name: &str) -> Option<&BlockSchema> {
        self.blocks.iter().find(|b| b.type_name == name)
    }
}

/// A parsed configuration file of either syntax, borrowing its text.
#[derive(Debug)]
pub struct File<'t> {
    src: &'t str,
    name: Option<String>,
    tree: Tree<'t>,
}

#[derive(Debug)]
enum Tree<'t> {
    Native(hcl_grammar::Body<'t>),
    Json(JsonValue<'t>),
}

impl<'t> File<'t> {
    /// Parses `src` in `syntax`.
    ///
    /// # Errors
    ///
    /// A syntax error with its position; for JSON, also a root that is not
    /// an object or an array ("Root value must be object").
    pub fn parse(src: &'t str, syntax: Syntax) -> Result<File<'t>> {
        let options = ParseOptions::default();
        let tree = match syntax {
            Syntax::Native => {
                Tree::Native(hcl_grammar::parse_body_with(src, &options).map_err(Error::syntax)?)
            }
            Syntax::Json => {
                let v = hcl_grammar::json::parse_json_with(src, &options).map_err(Error::syntax)?;
                if !matches!(
                    v.kind,
                    hcl_grammar::json::JsonKind::Object(_) | hcl_grammar::json::JsonKind::Array(_)
                ) {
                    return Err(Error::syntax(hcl_grammar::Error::new(
                        format!(
                            "Root value must be object: the root of a JSON-syntax file must be an object, not {}",
                            v.kind.type_name()
                        ),
                        v.span,
                        src,
                    )));
                }
                Tree::Json(v)
            }
        };
        Ok(File {
            src,
            name: None,
            tree,
        })
    }

    /// Parses `src` in `syntax` as the file `name`: every error, from
    /// parsing or from any body or attribute of the file, names it.
    ///
    /// # Errors
    ///
    /// As [`File::parse`], naming the file.
    pub fn parse_named(name: impl Into<String>, src: &'t str, syntax: Syntax) -> Result<File<'t>> {
        let name = name.into();
        let mut file = File::parse(src, syntax).map_err(|e| e.with_file(name.clone()))?;
        file.name = Some(name);
        Ok(file)
    }

    /// The file's name, if it was parsed with one.
    pub fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    /// The file's root body.
    pub fn body(&self) -> SchemaBody<'_> {
        let kind = match &self.tree {
            Tree::Native(b) => BodyKind::Native(b),
            Tree::Json(v) => BodyKind::Json(v),
        };
        SchemaBody {
            src: self.src,
            file: self.name.as_deref(),
            kind,
            hidden: Vec::new(),
            dynamic: None,
            iterators: None,
            unknown: false,
        }
    }
}

/// A body to decode with a schema: a file's root or a block's body.
#[derive(Debug, Clone)]
pub struct SchemaBody<'a> {
    pub(crate) src: &'a str,
    /// The name of the file, for errors.
    pub(crate) file: Option<&'a str>,
    pub(crate) kind: BodyKind<'a>,
    /// Names already decoded by [`SchemaBody::partial_content`].
    pub(crate) hidden: Vec<String>,
    /// Set by [`crate::ext::dynblock::expand`]: the context `for_each` and
    /// `labels` are evaluated in (the enclosing iterators included).
    pub(crate) dynamic: Option<Arc<Context>>,
    /// The iterators in scope (outermost first) in a block that a
    /// `dynamic` block generated: its attributes see them.
    pub(crate) iterators: Option<Arc<Vec<(String, Value)>>>,
    /// Generated by a `dynamic` block whose `for_each` is unknown (or
    /// inside such a block): every attribute evaluates to an unknown value
    /// of any type, as the reference's `unknownBody`.
    pub(crate) unknown: bool,
}

#[derive(Debug, Clone)]
pub(crate) enum BodyKind<'a> {
    Native(&'a hcl_grammar::Body<'a>),
    Json(&'a JsonValue<'a>),
    /// Several files as one body ([`merge`]).
    Merged(Vec<SchemaBody<'a>>),
}

/// What [`SchemaBody::content`] found: attributes in source order, blocks
/// in the order the reference returns them.
#[derive(Debug, Clone)]
pub struct BodyContent<'a> {
    /// The attributes present.
    pub attributes: Vec<Attribute<'a>>,
    /// The blocks.
    pub blocks: Vec<Block<'a>>,
}

/// An attribute, evaluated on demand.
#[derive(Debug, Clone)]
pub struct Attribute<'a> {
    /// Its name.
    pub name: String,
    /// The span of its name.
    pub name_span: Span,
    pub(crate) src: &'a str,
    /// The name of its file, for errors.
    pub(crate) file: Option<&'a str>,
    pub(crate) expr: AttrExpr<'a>,
    /// The `dynamic` iterators it sees (see [`SchemaBody`]).
    pub(crate) iterators: Option<Arc<Vec<(String, Value)>>>,
    /// In a block generated for an unknown `for_each` (see [`SchemaBody`]).
    pub(crate) unknown: bool,
}

#[derive(Debug, Clone)]
pub(crate) enum AttrExpr<'a> {
    Native(&'a hcl_grammar::Expr<'a>),
    Json(&'a JsonValue<'a>),
}

impl<'a> Attribute<'a> {
    /// The name of the file it is in, if the file was given a name.
    pub fn file(&self) -> Option<&'a str> {
        self.file
    }

    /// The span of the value.
    pub fn span(&self) -> Span {
        match &self.expr {
            AttrExpr::Native(e) => e.span,
            AttrExpr::Json(v) => v.span,
        }
    }

    /// Evaluates the value. `None` is the reference's nil context: native
    /// expressions may not use variables or functions, and JSON strings are
    /// literal text; with a context, JSON strings are templates.
    ///
    /// # Errors
    ///
    /// An evaluation error, with its line and column in the file.
    ///
    /// In a block that a `dynamic` block generated
    /// ([`crate::ext::dynblock`]), the iterators are variables on top of
    /// `ctx` (which is then copied, as a child context needs its parent
    /// shared). In a block generated for an unknown `for_each`, every
    /// attribute is an unknown value of any type
    /// ([`Value::Unknown`]), whatever its
    /// expression.
    pub fn evaluate(&self, ctx: Option<&Context>) -> Result<Value> {
        if self.unknown {
            return Ok(Value::unknown(crate::eval::Type::Any));
        }
        let scoped;
        let ctx = match &self.iterators {
            Some(its) => {
                let mut c = ctx.cloned().unwrap_or_else(Context::none);
                for (name, value) in its.iter() {
                    c.declare_var(name.clone(), value.clone());
                }
                scoped = c;
                Some(&scoped)
            }
            None => ctx,
        };
        let r = match &self.expr {
            AttrExpr::Native(e) => {
                let none;
                let ctx = match ctx {
                    Some(c) => c,
                    None => {
                        none = Context::none();
                        &none
                    }
                };
                crate::eval::eval_expr(e, ctx)
            }
            AttrExpr::Json(v) => json::evaluate(v, ctx, 0),
        };
        r.map_err(|e| locate(e, self.src, self.file))
    }
}

/// A block: its type, labels and body.
#[derive(Debug, Clone)]
pub struct Block<'a> {
    /// The block type.
    pub type_name: String,
    /// The labels.
    pub labels: Vec<String>,
    /// The span of each label (a JSON property's name; for a block that a
    /// `dynamic` block generated, the label's expression).
    pub label_spans: Vec<Span>,
    /// The span of the type (the JSON property's name).
    pub type_span: Span,
    /// The block's body, to decode with the block type's schema.
    pub body: SchemaBody<'a>,
}

impl<'a> SchemaBody<'a> {
    /// The attributes and blocks of `schema`; anything else in the body is
    /// an error ("Unsupported argument", "Extraneous JSON object property",
    /// with a suggestion when a name is close), as is a missing required
    /// attribute.
    ///
    /// # Errors
    ///
    /// The first problem found, in the reference's order, with its position.
    pub fn content(&self, schema: &BodySchema) -> Result<BodyContent<'a>> {
        if let Some(ctx) = &self.dynamic {
            return dynamic::content(self, schema, ctx, true).map(|(c, _)| c);
        }
        self.raw_content(schema, true).map(|(c, _)| c)
    }

    /// `content` or `partial_content` without expanding `dynamic` blocks:
    /// the content and the names it used.
    pub(crate) fn raw_content(
        &self,
        schema: &BodySchema,
        strict: bool,
    ) -> Result<(BodyContent<'a>, Vec<String>)> {
        let r = match &self.kind {
            BodyKind::Native(b) => native::content(self, b, schema, strict),
            BodyKind::Json(v) => json::content(self, v, schema, strict),
            BodyKind::Merged(bodies) => return merge::content(self, bodies, schema, strict),
        };
        r.map_err(|e| self.locate(e))
    }

    /// `e` with its position in this body's file and the file's name.
    pub(crate) fn locate(&self, e: Error) -> Error {
        locate(e, self.src, self.file)
    }

    /// The name of the file the body is in, if the file was given one
    /// (`None` for several files merged).
    pub fn file(&self) -> Option<&'a str> {
        self.file
    }

    /// As [`content`](SchemaBody::content), but anything the schema does
    /// not name is left in the returned body, for another schema or
    /// [`just_attributes`](SchemaBody::just_attributes).
    ///
    /// # Errors
    ///
    /// As [`content`](SchemaBody::content), without the errors for names
    /// the schema lacks.
    pub fn partial_content(
        &self,
        schema: &BodySchema,
    ) -> Result<(BodyContent<'a>, SchemaBody<'a>)> {
        if let Some(ctx) = &self.dynamic {
            return dynamic::content(self, schema, ctx, false);
        }
        let (content, used) = self.raw_content(schema, false)?;
        let mut rest = self.clone();
        rest.hidden.extend(used);
        Ok((content, rest))
    }

    /// Every item of the body as an attribute (what a body whose names are
    /// not known in advance, such as a map of tags, is).
    ///
    /// # Errors
    ///
    /// A block in a native body, a body that is not one JSON object, or a
    /// repeated name.
    pub fn just_attributes(&self) -> Result<Vec<Attribute<'a>>> {
        let r = match &self.kind {
            BodyKind::Native(b) => native::just_attributes(self, b),
            BodyKind::Json(v) => json::just_attributes(self, v),
            BodyKind::Merged(bodies) => return merge::just_attributes(self, bodies),
        };
        r.map_err(|e| self.locate(e))
    }

    /// This body's own attribute (the file's, the body's iterators).
    pub(crate) fn attribute(
        &self,
        name: &str,
        name_span: Span,
        expr: AttrExpr<'a>,
    ) -> Attribute<'a> {
        Attribute {
            name: name.to_owned(),
            name_span,
            src: self.src,
            file: self.file,
            expr,
            iterators: self.iterators.clone(),
            unknown: self.unknown,
        }
    }

    /// A block body of this body (same file, iterators and expansion).
    pub(crate) fn child(&self, kind: BodyKind<'a>) -> SchemaBody<'a> {
        SchemaBody {
            src: self.src,
            file: self.file,
            kind,
            hidden: Vec::new(),
            dynamic: self.dynamic.clone(),
            iterators: self.iterators.clone(),
            unknown: self.unknown,
        }
    }
}

/// `" Did you mean \"x\"?"` when a candidate is within edit distance 2
/// (the reference's rule), or an empty string.
fn suggestion<'s>(name: &str, candidates: impl Iterator<Item = &'s str>) -> String {
    let mut best: Option<(usize, &str)> = None;
    for c in candidates {
        if let Some(d) = crate::error::edit_distance_within(name, c, 2) {
            if best.is_none_or(|(bd, _)| d < bd) {
                best = Some((d, c));
            }
        }
    }
    best.map_or_else(String::new, |(_, c)| format!(" Did you mean {c:?}?"))
}
