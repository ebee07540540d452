//! A parser for the HCL native syntax (the language of Terraform, Packer,
//! Nomad and Vault files), producing a spanned syntax tree that borrows
//! from its input.
//!
//! This crate knows nothing of evaluation or serde: it turns text into a
//! [`Body`], an [`Expr`] or a [`Template`], or into an [`Error`] that says
//! what is wrong and where. The `hcl` crate (package `hcl-serde`) evaluates
//! the tree and deserializes it into Rust types.
//!
//! ```
//! let body = hcl_grammar::parse_body("service \"web\" {\n  port = 8080\n}\n").unwrap();
//! let block = body.blocks().next().unwrap();
//! assert_eq!(block.ident.name, "service");
//! assert_eq!(block.labels[0].as_str(), "web");
//! assert!(block.body.attribute("port").is_some());
//! ```
//!
//! The three entry points follow the reference implementation's modes:
//! [`parse_body`] for a configuration file, [`parse_expr`] for a standalone
//! expression (newlines ignored, as inside parentheses) and
//! [`parse_template`] for a standalone template (the input taken byte for
//! byte). Each has a `_with` variant taking [`ParseOptions`] and a `_bytes`
//! variant for input that may not be UTF-8.
//!
//! Beside the tree, [`tokens::lex`] gives a lossless token view of the
//! source (comments and whitespace included), and [`format()`] lays a
//! config file out byte for byte as the reference formatter (`terraform
//! fmt`, `packer fmt`) does.
//!
//! # Two routes
//!
//! Parsing first tries a hand-written fast path, which covers the common
//! shapes of real files and builds the tree directly; wherever it is not
//! sure (any syntax error, rare constructs) it steps aside and the pest
//! grammar parses the input instead. The pest route is the grammar's
//! authority: the trees of both are identical (checked by differential
//! tests and fuzzing), and every error comes from pest.
//!
//! # Hostile input
//!
//! Parsing never panics and runs in time linear in the input. Nesting
//! deeper than [`ParseOptions::max_depth`] is an error, found by a linear
//! pre-scan before the recursive parser runs, so that no input can exhaust
//! the stack. Input longer than [`ParseOptions::max_input_len`] (8 MiB by
//! default) is an error before anything else is done: the parser's working
//! memory is proportional to the input, up to about 160 bytes per input
//! byte for the densest shapes, so the default keeps a parse under 2 GiB.
//! A config file longer than [`ParseOptions::chunk_len`] is parsed in
//! pieces cut between top-level items, with the same tree and errors.

// Input must not panic the parser: no indexing that input can reach.
#![warn(clippy::indexing_slicing)]

// pest's generated parser names `::alloc::boxed::Box` when pest is built
// without its `std` feature (see the root Cargo.toml).
extern crate alloc;

/// What an identifier is, for both crates (`is_identifier`).
mod ident;
mod nfc;

pub mod ast;
pub mod edit;
mod error;
pub mod format;
pub mod json;
mod options;
mod parser;
mod scan;
mod span;
pub mod tokens;

pub use ident::is_identifier;

pub use ast::*;
pub use error::Error;
pub use format::{format, format_bytes, format_bytes_with, format_with, FormatOptions};
pub use options::ParseOptions;
pub use span::{Position, Span};

/// The result type of this crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Parses a configuration file (a body of attributes and blocks).
///
/// A leading byte order mark is skipped, as the reference does.
///
/// ```
/// let body = hcl_grammar::parse_body("a = 1\nb = \"two\"\n").unwrap();
/// assert_eq!(body.attributes().count(), 2);
/// let err = hcl_grammar::parse_body("a = 1\na = 2\n").unwrap_err();
/// assert_eq!(err.line(), 2);
/// ```
pub fn parse_body(input: &str) -> Result<Body<'_>> {
    parser::parse_body(input, &ParseOptions::default())
}

/// [`parse_body`] with options.
pub fn parse_body_with<'i>(input: &'i str, options: &ParseOptions) -> Result<Body<'i>> {
    parser::parse_body(input, options)
}

/// [`parse_body`] for bytes. Invalid UTF-8 is a syntax error with its
/// position, except inside comments, where the reference accepts it.
pub fn parse_body_bytes(input: &[u8]) -> Result<Body<'_>> {
    parser::parse_body_bytes(input, &ParseOptions::default())
}

/// [`parse_body_bytes`] with options.
pub fn parse_body_bytes_with<'i>(input: &'i [u8], options: &ParseOptions) -> Result<Body<'i>> {
    parser::parse_body_bytes(input, options)
}

/// Parses a standalone expression. Newlines are ignored (as inside
/// parentheses) and whitespace, newlines and comments may surround it.
///
/// ```
/// use hcl_grammar::{parse_expr, ExprKind};
/// let e = parse_expr("1 +\n  2").unwrap();
/// assert!(matches!(e.kind, ExprKind::Binary(_)));
/// ```
pub fn parse_expr(input: &str) -> Result<Expr<'_>> {
    parser::parse_expr(input, &ParseOptions::default())
}

/// [`parse_expr`] with options.
pub fn parse_expr_with<'i>(input: &'i str, options: &ParseOptions) -> Result<Expr<'i>> {
    parser::parse_expr(input, options)
}

/// [`parse_expr`] for bytes: invalid UTF-8 is a syntax error.
pub fn parse_expr_bytes(input: &[u8]) -> Result<Expr<'_>> {
    parser::parse_expr_bytes(input, &ParseOptions::default())
}

/// [`parse_expr_bytes`] with options.
pub fn parse_expr_bytes_with<'i>(input: &'i [u8], options: &ParseOptions) -> Result<Expr<'i>> {
    parser::parse_expr_bytes(input, options)
}

/// Parses the expression at `span` of `text` on its own, with every span
/// and error position in `text`. The JSON syntax uses it for string
/// values, which are templates: the JSON string's source, quotes included,
/// is an HCL quoted template.
///
/// ```
/// let text = r#"{"a": "${x + 1}"}"#;
/// let e = hcl_grammar::parse_expr_at(text, hcl_grammar::Span::new(6, 16), &Default::default()).unwrap();
/// assert_eq!(e.span, hcl_grammar::Span::new(6, 16));
/// ```
///
/// # Errors
///
/// A syntax error, positioned in `text`.
pub fn parse_expr_at<'i>(text: &'i str, span: Span, options: &ParseOptions) -> Result<Expr<'i>> {
    parser::parse_expr_at(text, span, options)
}

/// Parses a standalone template: the input is the template, byte for byte
/// (a trailing newline is part of it).
///
/// ```
/// use hcl_grammar::{parse_template, TemplatePart};
/// let t = parse_template("Hello, ${name}!").unwrap();
/// assert_eq!(t.parts.len(), 3);
/// assert!(matches!(t.parts[1], TemplatePart::Interpolation(_)));
/// ```
pub fn parse_template(input: &str) -> Result<Template<'_>> {
    parser::parse_template(input, &ParseOptions::default())
}

/// [`parse_template`] with options.
pub fn parse_template_with<'i>(input: &'i str, options: &ParseOptions) -> Result<Template<'i>> {
    parser::parse_template(input, options)
}

/// [`parse_template`] for bytes: invalid UTF-8 is a syntax error.
pub fn parse_template_bytes(input: &[u8]) -> Result<Template<'_>> {
    parser::parse_template_bytes(input, &ParseOptions::default())
}

/// [`parse_template_bytes`] with options.
pub fn parse_template_bytes_with<'i>(
    input: &'i [u8],
    options: &ParseOptions,
) -> Result<Template<'i>> {
    parser::parse_template_bytes(input, options)
}

/// The crate README's example (the page crates.io shows), run as a doctest.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct CrateReadmeDoctests;

#[doc(hidden)]
pub mod __private {
    //! Not public API: no semver guarantee, may change or go at any time.
    //!
    //! The two parsing routes, one at a time, for the differential tests,
    //! the fuzz target and the benchmarks: the pest route (the grammar's
    //! authority) and the hand-written fast path, which returns `None`
    //! wherever it is not sure. The public functions try the fast path
    //! first and fall back to pest.

    use crate::ast::{Body, Expr, Template};
    use crate::{ParseOptions, Result};

    /// [`crate::parse_body_with`] by the pest route only.
    pub fn parse_body_pest<'i>(input: &'i str, options: &ParseOptions) -> Result<Body<'i>> {
        crate::parser::parse_body_pest(input, options)
    }

    /// [`crate::parse_expr_with`] by the pest route only.
    pub fn parse_expr_pest<'i>(input: &'i str, options: &ParseOptions) -> Result<Expr<'i>> {
        crate::parser::parse_expr_pest(input, options)
    }

    /// [`crate::parse_template_with`] by the pest route only.
    pub fn parse_template_pest<'i>(input: &'i str, options: &ParseOptions) -> Result<Template<'i>> {
        crate::parser::parse_template_pest(input, options)
    }

    /// [`crate::parse_expr_at`] by the pest route only.
    pub fn parse_expr_at_pest<'i>(
        text: &'i str,
        span: crate::Span,
        options: &ParseOptions,
    ) -> Result<Expr<'i>> {
        crate::parser::parse_expr_at_pest(text, span, options)
    }

    /// [`crate::parse_expr_at`] by the fast path only.
    pub fn parse_expr_at_fast<'i>(
        text: &'i str,
        span: crate::Span,
        options: &ParseOptions,
    ) -> Option<Expr<'i>> {
        crate::parser::parse_expr_at_fast(text, span, options)
    }

    /// [`crate::parse_body_with`] by the fast path only.
    pub fn parse_body_fast<'i>(input: &'i str, options: &ParseOptions) -> Option<Body<'i>> {
        crate::parser::parse_body_fast(input, options)
    }

    /// [`crate::parse_expr_with`] by the fast path only.
    pub fn parse_expr_fast<'i>(input: &'i str, options: &ParseOptions) -> Option<Expr<'i>> {
        crate::parser::parse_expr_fast(input, options)
    }

    /// [`crate::parse_template_with`] by the fast path only.
    pub fn parse_template_fast<'i>(input: &'i str, options: &ParseOptions) -> Option<Template<'i>> {
        crate::parser::parse_template_fast(input, options)
    }
}
