//! The canonical layout of HCL files: byte for byte what the reference
//! formatter (`hclwrite.Format` of hashicorp/hcl, behind `packer fmt` and
//! `terraform fmt`) writes.
//!
//! ```
//! let src = "service  \"web\"{\nport=8080\n  # the public name\nhostname = \"example.com\" // ok\n}\n";
//! let formatted = hcl_grammar::format(src, &Default::default()).unwrap();
//! assert_eq!(
//!     formatted,
//!     "service \"web\" {\n  port = 8080\n  # the public name\n  hostname = \"example.com\" // ok\n}\n"
//! );
//! ```
//!
//! Only whitespace changes: no token is added, removed or moved to another
//! line, every comment is kept, and heredoc bodies are left as they are.
//! The rules, all the reference's:
//!
//! - two spaces of indentation per level of brackets (`{ [ ( ${ %{`)
//!   opened by the lines before;
//! - one space or none between two tokens, decided by the pair (`a = b`,
//!   `f(x, y)`, `a.b[0]`, `-x`, `{ a = 1 }`, `"${x}"`);
//! - the `=` of consecutive attribute lines aligned one column past the
//!   longest name, and the trailing `#` / `//` comments of consecutive
//!   lines aligned likewise (widths in grapheme clusters);
//! - trailing spaces removed, blank lines and line endings (`\r\n`) kept.
//!
//! The input must parse as a config file: as `terraform fmt`, a file with
//! a syntax error is refused with that error rather than formatted
//! ([`FormatOptions::with_check_syntax`] turns the check off, to format token
//! by token as `hclwrite.Format` itself does).

mod rules;
mod spacing;

use crate::__private::Text;
use crate::{Error, Input, ParseOptions, Result, Span};

/// Options of [`format()`], set with `with_*`
/// builders and read with the methods of the same name without the prefix
/// (the style of [`ParseOptions`]).
///
/// ```
/// use hcl_grammar::FormatOptions;
/// let options = FormatOptions::default().with_check_syntax(false);
/// assert!(!options.check_syntax());
/// assert_eq!(hcl_grammar::format("a = {\n", &options).ok().as_deref(), Some("a = {\n"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FormatOptions {
    check_syntax: bool,
    parse: ParseOptions,
    max_output_len: usize,
}

impl FormatOptions {
    /// The default for [`FormatOptions::with_max_output_len`]: 64 MiB.
    pub const DEFAULT_MAX_OUTPUT_LEN: usize = 64 * 1024 * 1024;

    /// Parse the input first and return its syntax error, if any, instead
    /// of formatting it. Default: `true`. Without the check, any input is
    /// formatted token by token (the output of invalid input is then
    /// whatever the rules make of its tokens), in linear time and with no
    /// limit on its length.
    #[must_use]
    pub fn with_check_syntax(mut self, check: bool) -> Self {
        self.check_syntax = check;
        self
    }

    /// The limits of that parse (its file name too; a
    /// [`ParseOptions::with_span`] is dropped: the whole input is checked).
    #[must_use]
    pub fn with_parse_options(mut self, mut parse: ParseOptions) -> Self {
        // The whole input is formatted, so the whole input is checked.
        parse.span = None;
        self.parse = parse;
        self
    }

    /// The longest output built, in bytes; longer is an error ("formatted
    /// output too large") pointing at the token that passes the limit.
    /// Formatted output is about as long as its input, but aligning `=`
    /// signs after a very long name can ask for that many spaces on each
    /// of many lines (the reference would build it). Default:
    /// [`FormatOptions::DEFAULT_MAX_OUTPUT_LEN`] (64 MiB, eight times the
    /// default input limit).
    #[must_use]
    pub fn with_max_output_len(mut self, len: usize) -> Self {
        self.max_output_len = len;
        self
    }

    /// Whether the input is parsed first: see [`FormatOptions::with_check_syntax`].
    pub fn check_syntax(&self) -> bool {
        self.check_syntax
    }

    /// The limits of the syntax check: see [`FormatOptions::with_parse_options`].
    pub fn parse_options(&self) -> &ParseOptions {
        &self.parse
    }

    /// The output limit: see [`FormatOptions::with_max_output_len`].
    pub fn max_output_len(&self) -> usize {
        self.max_output_len
    }
}

impl Default for FormatOptions {
    fn default() -> Self {
        FormatOptions {
            check_syntax: true,
            parse: ParseOptions::default(),
            max_output_len: Self::DEFAULT_MAX_OUTPUT_LEN,
        }
    }
}

/// Formats a config file (a body of attributes and blocks) in the
/// canonical layout; a syntax error is returned as the parser reports it.
/// Text gives a `String`, bytes (which may hold invalid UTF-8 inside
/// comments, as the reference accepts) a `Vec<u8>`: see [`Input`].
///
/// ```
/// use hcl_grammar::{format, FormatOptions};
/// let options = FormatOptions::default();
/// assert_eq!(format("a=1\nlong_name=2\n", &options).unwrap(), "a         = 1\nlong_name = 2\n");
/// assert_eq!(format(b"a=1\n", &options).unwrap(), b"a = 1\n");
/// let err = format("a = \n", &options).unwrap_err();
/// assert_eq!(err.line(), 1);
/// ```
///
/// # Errors
///
/// A syntax error (unless [`FormatOptions::with_check_syntax`] is off), or
/// output longer than [`FormatOptions::with_max_output_len`].
pub fn format<'i, I: Input<'i>>(input: I, options: &FormatOptions) -> Result<I::Formatted> {
    let text = input.text();
    let bytes = match text {
        Text::Str(s) => {
            if options.check_syntax {
                crate::parser::parse_body(s, &options.parse)
                    .map_err(|e| e.in_file(&options.parse))?;
            }
            s.as_bytes()
        }
        Text::Bytes(b) => {
            if options.check_syntax {
                crate::parser::parse_body_bytes(b, &options.parse)
                    .map_err(|e| e.in_file(&options.parse))?;
            }
            b
        }
    };
    Ok(I::formatted(format_unchecked(bytes, options)?))
}

fn format_unchecked(src: &[u8], options: &FormatOptions) -> Result<Vec<u8>> {
    rules::format_src(src, options.max_output_len).map_err(|at| too_large(src, at, options))
}

/// Formats a token list built by the caller (the document editor's, whose
/// pieces are lexed one by one): `tokens` cover `src`, in order.
pub(crate) fn format_token_list(
    src: &[u8],
    tokens: &[crate::tokens::Token],
    options: &FormatOptions,
) -> Result<Vec<u8>> {
    rules::format_tokens(src, tokens, options.max_output_len)
        .map_err(|at| too_large(src, at, options))
}

#[cold]
fn too_large(src: &[u8], at: usize, options: &FormatOptions) -> Error {
    // Positions are byte offsets: only bytes that are not UTF-8 change
    // length in the lossy text, and they are rare enough to ignore here.
    let text = String::from_utf8_lossy(src);
    let at = at.min(text.len());
    Error::new(
        format!(
            "formatted output too large: more than {} bytes (FormatOptions::max_output_len)",
            options.max_output_len
        ),
        Span::new(at, at),
        &text,
    )
}
