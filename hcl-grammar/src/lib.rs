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
//! let options = hcl_grammar::ParseOptions::default();
//! let body = hcl_grammar::parse_body("service \"web\" {\n  port = 8080\n}\n", &options).unwrap();
//! let block = body.blocks().next().unwrap();
//! assert_eq!(block.ident.name, "service");
//! assert_eq!(block.labels[0].as_str(), "web");
//! assert!(block.body.attribute("port").is_some());
//! ```
//!
//! One entry point per mode of the reference implementation, each taking
//! text or bytes (an [`Input`]) and one [`ParseOptions`]: [`parse_body`]
//! for a configuration file, [`parse_expr`] for a standalone expression
//! (newlines ignored, as inside parentheses), [`parse_template`] for a
//! standalone template (the input taken byte for byte), and
//! [`json::parse_json`] for the JSON syntax.
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
pub use format::{format, FormatOptions};
pub use options::ParseOptions;
pub use span::{Position, Span};

/// The result type of this crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Parses a configuration file (a body of attributes and blocks).
///
/// `input` is text (`&str`, `&String`) or bytes (`&[u8]`, `&Vec<u8>`,
/// `&[u8; N]`): see [`Input`]. A leading byte order mark is skipped, as
/// the reference does.
///
/// ```
/// use hcl_grammar::{parse_body, ParseOptions};
/// let options = ParseOptions::default();
/// let body = parse_body("a = 1\nb = \"two\"\n", &options).unwrap();
/// assert_eq!(body.attributes().count(), 2);
/// let err = parse_body("a = 1\na = 2\n", &options).unwrap_err();
/// assert_eq!(err.line(), 2);
/// // Bytes: invalid UTF-8 is accepted in comments only, as the reference does.
/// assert!(parse_body(b"# \xff\na = 1\n", &options).is_ok());
/// ```
///
/// # Errors
///
/// A syntax error, or a limit of `options` passed, with its position.
pub fn parse_body<'i>(input: impl Input<'i>, options: &ParseOptions) -> Result<Body<'i>> {
    match input.text() {
        __private::Text::Str(s) => parser::parse_body(s, options),
        __private::Text::Bytes(b) => parser::parse_body_bytes(b, options),
    }
    .map_err(|e| e.in_file(options))
}

/// Parses a standalone expression. Newlines are ignored (as inside
/// parentheses) and whitespace, newlines and comments may surround it.
/// `input` is text or bytes, as for [`parse_body`].
///
/// ```
/// use hcl_grammar::{parse_expr, ExprKind};
/// let e = parse_expr("1 +\n  2", &Default::default()).unwrap();
/// assert!(matches!(e.kind, ExprKind::Binary(_)));
/// ```
///
/// # Errors
///
/// As [`parse_body`].
pub fn parse_expr<'i>(input: impl Input<'i>, options: &ParseOptions) -> Result<Expr<'i>> {
    match input.text() {
        __private::Text::Str(s) => parser::parse_expr(s, options),
        __private::Text::Bytes(b) => parser::parse_expr_bytes(b, options),
    }
    .map_err(|e| e.in_file(options))
}

/// Parses a standalone template: the input is the template, byte for byte
/// (a trailing newline is part of it). `input` is text or bytes, as for
/// [`parse_body`].
///
/// ```
/// use hcl_grammar::{parse_template, TemplatePart};
/// let t = parse_template("Hello, ${name}!", &Default::default()).unwrap();
/// assert_eq!(t.parts.len(), 3);
/// assert!(matches!(t.parts[1], TemplatePart::Interpolation(_)));
/// ```
///
/// # Errors
///
/// As [`parse_body`].
pub fn parse_template<'i>(input: impl Input<'i>, options: &ParseOptions) -> Result<Template<'i>> {
    match input.text() {
        __private::Text::Str(s) => parser::parse_template(s, options),
        __private::Text::Bytes(b) => parser::parse_template_bytes(b, options),
    }
    .map_err(|e| e.in_file(options))
}

/// What the parsing and formatting functions take: text (`&str`,
/// `&String`) or bytes (`&[u8]`, `&Vec<u8>`, `&[u8; N]`), or a reference
/// to one of these.
///
/// Bytes are for files read as they are: invalid UTF-8 is a syntax error
/// with its position, except inside comments, where the reference accepts
/// it. The tree borrows from the input either way. Implemented for these
/// types only (the trait is sealed).
pub trait Input<'i>: Copy + sealed::Sealed {
    /// What [`format()`] returns for this input: a `String` for text, a
    /// `Vec<u8>` for bytes.
    type Formatted;
    #[doc(hidden)]
    fn text(self) -> __private::Text<'i>;
    #[doc(hidden)]
    fn formatted(out: Vec<u8>) -> Self::Formatted;
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for &str {}
    impl Sealed for &String {}
    impl Sealed for &[u8] {}
    impl Sealed for &Vec<u8> {}
    impl<const N: usize> Sealed for &[u8; N] {}
    impl<T: Sealed> Sealed for &T {}
}

impl<'i> Input<'i> for &'i str {
    type Formatted = String;
    fn text(self) -> __private::Text<'i> {
        __private::Text::Str(self)
    }
    fn formatted(out: Vec<u8>) -> String {
        // Only ASCII spaces are added or removed, and only between tokens,
        // so the output is UTF-8 whenever the input is: the lossy
        // conversion never replaces anything.
        match String::from_utf8(out) {
            Ok(text) => text,
            Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
        }
    }
}

impl<'i> Input<'i> for &'i String {
    type Formatted = String;
    fn text(self) -> __private::Text<'i> {
        __private::Text::Str(self)
    }
    fn formatted(out: Vec<u8>) -> String {
        <&str as Input<'i>>::formatted(out)
    }
}

impl<'i> Input<'i> for &'i [u8] {
    type Formatted = Vec<u8>;
    fn text(self) -> __private::Text<'i> {
        __private::Text::Bytes(self)
    }
    fn formatted(out: Vec<u8>) -> Vec<u8> {
        out
    }
}

impl<'i> Input<'i> for &'i Vec<u8> {
    type Formatted = Vec<u8>;
    fn text(self) -> __private::Text<'i> {
        __private::Text::Bytes(self)
    }
    fn formatted(out: Vec<u8>) -> Vec<u8> {
        out
    }
}

/// A reference to an input (`&&str`, as iterators give), read through.
impl<'i, T: Input<'i>> Input<'i> for &T {
    type Formatted = T::Formatted;
    fn text(self) -> __private::Text<'i> {
        (*self).text()
    }
    fn formatted(out: Vec<u8>) -> T::Formatted {
        T::formatted(out)
    }
}

impl<'i, const N: usize> Input<'i> for &'i [u8; N] {
    type Formatted = Vec<u8>;
    fn text(self) -> __private::Text<'i> {
        __private::Text::Bytes(self)
    }
    fn formatted(out: Vec<u8>) -> Vec<u8> {
        out
    }
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

    pub use crate::nfc::nfc;

    /// An [`Input`](crate::Input), seen from inside.
    #[derive(Debug, Clone, Copy)]
    pub enum Text<'i> {
        /// Text.
        Str(&'i str),
        /// Bytes, maybe not UTF-8.
        Bytes(&'i [u8]),
    }

    /// [`crate::parse_body`] by the pest route only.
    pub fn parse_body_pest<'i>(input: &'i str, options: &ParseOptions) -> Result<Body<'i>> {
        crate::parser::parse_body_pest(input, options)
    }

    /// [`crate::parse_expr`] by the pest route only.
    pub fn parse_expr_pest<'i>(input: &'i str, options: &ParseOptions) -> Result<Expr<'i>> {
        crate::parser::parse_expr_pest(input, options)
    }

    /// [`crate::parse_template`] by the pest route only.
    pub fn parse_template_pest<'i>(input: &'i str, options: &ParseOptions) -> Result<Template<'i>> {
        crate::parser::parse_template_pest(input, options)
    }

    /// [`crate::parse_body`] by the fast path only.
    pub fn parse_body_fast<'i>(input: &'i str, options: &ParseOptions) -> Option<Body<'i>> {
        crate::parser::parse_body_fast(input, options)
    }

    /// [`crate::parse_expr`] by the fast path only.
    pub fn parse_expr_fast<'i>(input: &'i str, options: &ParseOptions) -> Option<Expr<'i>> {
        crate::parser::parse_expr_fast(input, options)
    }

    /// [`crate::parse_template`] by the fast path only.
    pub fn parse_template_fast<'i>(input: &'i str, options: &ParseOptions) -> Option<Template<'i>> {
        crate::parser::parse_template_fast(input, options)
    }
}
