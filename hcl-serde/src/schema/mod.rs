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

mod merge;

pub use crate::body::{
    Attribute, AttributeSchema, Block, BlockSchema, BodyContent, BodySchema, SchemaBody,
};
pub use crate::source::Sources;
pub use merge::merge;

use crate::body::json_ref::JsonRef;
use crate::body::BodyKind;
use crate::error::{Error, Result};
use crate::source::Syntax;
use hcl_grammar::json::{JsonDocument, JsonKind};
use hcl_grammar::ParseOptions;

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
    Json(JsonDocument<'t>),
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
                Tree::Native(hcl_grammar::parse_body(src, &options).map_err(Error::syntax)?)
            }
            Syntax::Json => {
                let doc = hcl_grammar::json::parse_json(src, &options).map_err(Error::syntax)?;
                let v = doc.root();
                if !matches!(v.kind, JsonKind::Object(_) | JsonKind::Array(_)) {
                    return Err(Error::syntax(hcl_grammar::Error::new(
                        format!(
                            "Root value must be object: the root of a JSON-syntax file must be an object, not {}",
                            v.kind.type_name()
                        ),
                        v.span,
                        src,
                    )));
                }
                Tree::Json(doc)
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
            Tree::Json(doc) => BodyKind::Json(JsonRef::root(doc)),
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
