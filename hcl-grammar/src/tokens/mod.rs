//! A lossless token view of HCL native syntax source.
//!
//! [`lex`] cuts the input into [`Token`]s that cover every byte, in order:
//! whitespace, comments and newlines are tokens too, so concatenating the
//! tokens' bytes gives the input back. The token kinds and boundaries are
//! those of the reference implementation's scanner (hashicorp/hcl's
//! `hclsyntax` scanner), which is what its formatter (`hclwrite`) works
//! on: a `#` or `//` comment includes the newline that ends it, a heredoc's
//! opening token includes its newline, each heredoc line is its own
//! literal, and `${` / `%{` (with a `~` strip marker) and the `}` that
//! closes them are tokens of their own.
//!
//! ```
//! use hcl_grammar::tokens::{lex, TokenKind};
//! let src = "a = 1 # one\n";
//! let tokens = lex(src.as_bytes());
//! let kinds: Vec<_> = tokens.iter().map(|t| t.kind).collect();
//! assert_eq!(
//!     kinds,
//!     [
//!         TokenKind::Ident,
//!         TokenKind::Whitespace,
//!         TokenKind::Equal,
//!         TokenKind::Whitespace,
//!         TokenKind::NumberLit,
//!         TokenKind::Whitespace,
//!         TokenKind::Comment,
//!     ]
//! );
//! assert_eq!(&src[tokens[6].span.range()], "# one\n");
//! let rebuilt: String = tokens.iter().map(|t| &src[t.span.range()]).collect();
//! assert_eq!(rebuilt, src);
//! ```
//!
//! Lexing never fails: bytes the language does not allow become
//! [`TokenKind::Invalid`] or [`TokenKind::BadUtf8`] tokens, and the parser
//! is what reports errors. Lexing runs in linear time and memory with no
//! recursion.

mod lexer;
mod runs;

use crate::span::Span;

pub use lexer::lex;
pub(crate) use lexer::{lex_into, Sink};

/// One token: its kind and the bytes it covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Token {
    /// What the token is.
    pub kind: TokenKind,
    /// The bytes of the source it covers.
    pub span: Span,
}

/// The kind of a [`Token`]: those of the reference scanner, plus
/// [`Whitespace`](TokenKind::Whitespace) and
/// [`ByteOrderMark`](TokenKind::ByteOrderMark), which it skips.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum TokenKind {
    /// Spaces and tabs between tokens.
    Whitespace,
    /// A UTF-8 byte order mark at the very start of the input.
    ByteOrderMark,
    /// `\n` or `\r\n` outside comments and strings.
    Newline,
    /// A comment: `# ...` and `// ...` with the newline that ends them
    /// (when there is one), or `/* ... */`.
    Comment,
    /// An identifier (also `true`, `for`, `in`...): letters, digits, `_`
    /// and `-`.
    Ident,
    /// A number literal such as `1`, `1.5`, `1e10`.
    NumberLit,
    /// `{`
    OBrace,
    /// `}` closing a `{`.
    CBrace,
    /// `[`
    OBrack,
    /// `]`
    CBrack,
    /// `(`
    OParen,
    /// `)`
    CParen,
    /// `"` opening a quoted template.
    OQuote,
    /// `"` closing a quoted template.
    CQuote,
    /// A heredoc introducer with its newline: `<<EOT\n`, `<<-EOT\n`.
    OHeredoc,
    /// A heredoc's closing marker line (with any spaces around the marker,
    /// without its newline, which is a [`Newline`](TokenKind::Newline)).
    CHeredoc,
    /// Literal text inside a quoted template (escapes not decoded).
    QuotedLit,
    /// Literal text of a heredoc line.
    StringLit,
    /// A newline inside a quoted template (a syntax error).
    QuotedNewline,
    /// `${` or `${~`.
    TemplateInterp,
    /// `%{` or `%{~`.
    TemplateControl,
    /// `}` or `~}` closing a `${` or `%{`.
    TemplateSeqEnd,
    /// `=`
    Equal,
    /// `==`
    EqualOp,
    /// `!=`
    NotEqual,
    /// `<`
    LessThan,
    /// `<=`
    LessThanEq,
    /// `>`
    GreaterThan,
    /// `>=`
    GreaterThanEq,
    /// `&&`
    And,
    /// `||`
    Or,
    /// `!`
    Bang,
    /// `+`
    Plus,
    /// `-`
    Minus,
    /// `*`
    Star,
    /// `/`
    Slash,
    /// `%`
    Percent,
    /// `.`
    Dot,
    /// `...`
    Ellipsis,
    /// `,`
    Comma,
    /// `?`
    Question,
    /// `:`
    Colon,
    /// `::` (namespaced function names, HCL 2.20+).
    DoubleColon,
    /// `=>`
    FatArrow,
    /// One of the characters the scanner knows but the grammar never
    /// uses outside strings: `&`, `|`, `~`, `^`, `;`, `` ` ``, `'`.
    OtherSymbol,
    /// A character that cannot start any token here.
    Invalid,
    /// Bytes that are not UTF-8 (outside comments).
    BadUtf8,
}

impl TokenKind {
    /// `+1` for the tokens that open a bracket (`{ [ ( ${ %{`), `-1` for
    /// those that close one (`} ] )` and the `}` of a template sequence),
    /// `0` otherwise.
    pub const fn bracket_change(self) -> i32 {
        match self {
            TokenKind::OBrace
            | TokenKind::OBrack
            | TokenKind::OParen
            | TokenKind::TemplateInterp
            | TokenKind::TemplateControl => 1,
            TokenKind::CBrace
            | TokenKind::CBrack
            | TokenKind::CParen
            | TokenKind::TemplateSeqEnd => -1,
            _ => 0,
        }
    }

    /// Whether the reference scanner skips this kind (whitespace and a
    /// byte order mark) rather than emitting it.
    pub fn is_trivia(self) -> bool {
        matches!(self, TokenKind::Whitespace | TokenKind::ByteOrderMark)
    }
}
