//! Editing HCL files while keeping their comments and layout: the
//! counterpart of Go's `hclwrite` (and of `toml_edit` for TOML).
//!
//! ```
//! use hcl_grammar::edit::Document;
//!
//! let src = "# The web server.\nresource \"aws_instance\" \"web\" {\n  ami = \"ami-1\" # pinned\n  count = 2\n}\n";
//! let mut doc: Document = src.parse().unwrap();
//! assert_eq!(doc.to_string(), src); // unedited: the input, byte for byte
//!
//! let web = doc
//!     .body_mut()
//!     .first_matching_block_mut("resource", &["aws_instance", "web"])
//!     .unwrap();
//! web.body_mut().set_attribute_raw("ami", "\"ami-2\"").unwrap();
//! web.body_mut().remove_attribute("count");
//! web.body_mut().set_attribute_traversal("subnet_id", "var.subnet").unwrap();
//! assert_eq!(
//!     doc.to_formatted_string().unwrap(),
//!     "# The web server.\nresource \"aws_instance\" \"web\" {\n  ami       = \"ami-2\" # pinned\n  subnet_id = var.subnet\n}\n"
//! );
//! ```
//!
//! # The document
//!
//! [`Document::parse`] runs the parser first, so every syntax error (with
//! its line, column and caret) and every limit of [`ParseOptions`]
//! (depth, size) are the parser's; then the source is cut into the
//! document's pieces along the parsed tree, the text between items
//! (comments, blank lines) as the lossless token stream
//! ([`crate::tokens::lex`]) cuts it. The pieces share the source (no copy). As in
//! `hclwrite`:
//!
//! - a [`Body`] holds attributes and blocks in source order, and the
//!   comments and blank lines between them;
//! - an [`Attribute`] owns its *lead comments* (the comment lines directly
//!   above it, removed with it) and its *line comment* (kept when its
//!   expression is replaced);
//! - a [`Block`] owns its lead comments, type, labels and [`Body`];
//! - an [`Expression`] is its source text, comments inside it included.
//!
//! # Two prints
//!
//! [`Document`]'s `Display` (`to_string()`) is the unformatted print:
//! untouched text as it was (an unedited document prints as its input),
//! new and replaced parts laid out plainly, as `toml_edit` does.
//! [`Document::to_formatted_string`] is `hclwrite`'s `File.Bytes()`: the
//! whole file re-spaced by the formatter ([`crate::format()`]), so that,
//! with no edit, it is the formatted input.
//!
//! # Decisions
//!
//! - Names follow `hclwrite` (`set_attribute_raw`, `first_matching_block`,
//!   `rename_variable_prefix`...) and `toml_edit`'s conventions
//!   (`Document` with `FromStr` and `Display`, `body()` / `body_mut()`).
//! - Blocks are found by type and labels (first match, or all matches)
//!   rather than by identity: [`Body::remove_block`] removes the first
//!   match.
//! - An attribute or block type that is not an identifier is an error
//!   (`hclwrite` would write a file that does not parse); labels may be
//!   any string (they are quoted).
//! - The output is `hclwrite`'s token for token, quirks included: new
//!   items go at the very end of their body (after trailing comments),
//!   [`Body::clear`] keeps the cleared attributes known by name, and a
//!   new item continues a last line that has no newline (see
//!   [`Body::ends_with_newline`]).
//! - Values are spelled by [`Expression`]'s constructors as `hclwrite`'s
//!   `TokensForValue` spells them; the `hcl` crate's `hcl::edit` sets
//!   attributes from any `Serialize` value through them.

mod build;
mod expr;
mod gap;
mod print;
mod text;
mod tree;

pub use tree::{Attribute, Block, Body, Expression};

use crate::{ParseOptions, Result};
use std::fmt;
use std::str::FromStr;

/// A configuration file as an editable tree that keeps its comments and
/// layout: see the [module documentation](self).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Document {
    body: Body,
    /// The input's length, to size the printed output.
    len: usize,
}

impl Document {
    /// Parses a configuration file.
    ///
    /// ```
    /// let doc = hcl_grammar::edit::Document::parse("a = 1 // one\n").unwrap();
    /// assert_eq!(doc.body().get_attribute("a").unwrap().expr().as_str(), "1");
    /// let err = hcl_grammar::edit::Document::parse("a = \n").unwrap_err();
    /// assert_eq!(err.line(), 1);
    /// ```
    ///
    /// # Errors
    ///
    /// The parser's error, for a syntax error or a limit passed.
    pub fn parse(src: &str) -> Result<Document> {
        Self::parse_with(src, &ParseOptions::default())
    }

    /// [`Document::parse`] with the parser's limits.
    ///
    /// # Errors
    ///
    /// The parser's error, for a syntax error or a limit passed.
    pub fn parse_with(src: &str, options: &ParseOptions) -> Result<Document> {
        let ast = crate::parse_body(src, options)?;
        Ok(Document {
            body: build::build(src, &ast),
            len: src.len(),
        })
    }

    /// The file's root body.
    pub fn body(&self) -> &Body {
        &self.body
    }

    /// The file's root body, mutably.
    pub fn body_mut(&mut self) -> &mut Body {
        &mut self.body
    }

    /// The formatted print: the whole document laid out by the formatter,
    /// byte for byte `hclwrite`'s `File.Bytes()` after the same edits.
    ///
    /// ```
    /// let mut doc: hcl_grammar::edit::Document = "a=1\n".parse().unwrap();
    /// doc.body_mut().set_attribute_raw("long_name", "2").unwrap();
    /// assert_eq!(doc.to_formatted_string().unwrap(), "a         = 1\nlong_name = 2\n");
    /// ```
    ///
    /// # Errors
    ///
    /// Only when the output would pass the formatter's output limit
    /// ([`crate::FormatOptions::with_max_output_len`]).
    pub fn to_formatted_string(&self) -> Result<String> {
        print::print_formatted(&self.body, self.len + self.len / 8)
    }
}

impl FromStr for Document {
    type Err = crate::Error;

    fn from_str(s: &str) -> Result<Document> {
        Document::parse(s)
    }
}

impl fmt::Display for Document {
    /// The unformatted print: see the [module documentation](self).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.body, f)
    }
}

impl Document {
    /// The unformatted print, as `to_string()`, with the output buffer
    /// sized from the input.
    pub fn to_unformatted_string(&self) -> String {
        print::print(&self.body, self.len + self.len / 8)
    }
}
