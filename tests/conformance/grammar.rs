//! How the runner calls the parser: one entry point per input mode, on the
//! input's bytes.

use hcl_grammar::{Error, Position};

/// The three input modes of the conformance format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// A config file (`.hcl`): `parse_body`.
    Body,
    /// A standalone expression (`.hclexpr`): `parse_expr`.
    Expr,
    /// A standalone template (`.hcltmpl`): `parse_template`.
    Template,
}

impl Mode {
    /// The mode of a case file, from its extension.
    pub fn of_path(name: &str) -> Option<Mode> {
        if name.ends_with(".hcl") {
            Some(Mode::Body)
        } else if name.ends_with(".hclexpr") {
            Some(Mode::Expr)
        } else if name.ends_with(".hcltmpl") {
            Some(Mode::Template)
        } else {
            None
        }
    }
}

/// Why the parser rejected an input, with where (1-based line and column).
#[derive(Debug, Clone)]
pub struct Rejection {
    /// The parser's message, first line only.
    pub message: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
}

impl Rejection {
    fn from_error(e: &Error) -> Rejection {
        Rejection {
            message: e.message().to_owned(),
            line: e.line(),
            column: e.column(),
        }
    }
}

impl std::fmt::Display for Rejection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.column, self.message)
    }
}

/// The input as text, or the rejection of invalid UTF-8.
pub fn text(bytes: &[u8]) -> Result<&str, Rejection> {
    std::str::from_utf8(bytes).map_err(|e| {
        let pos = Position::of(
            std::str::from_utf8(bytes.get(..e.valid_up_to()).unwrap_or_default())
                .unwrap_or_default(),
            e.valid_up_to(),
        );
        Rejection {
            message: "invalid UTF-8 (rejected by the runner before parsing)".to_owned(),
            line: pos.line,
            column: pos.column,
        }
    })
}

/// Parses `bytes` in `mode`, keeping only the outcome.
pub fn parse(mode: Mode, bytes: &[u8]) -> Result<(), Rejection> {
    let src = text(bytes)?;
    let result = match mode {
        Mode::Body => hcl_grammar::parse_body(src).map(drop),
        Mode::Expr => hcl_grammar::parse_expr(src).map(drop),
        Mode::Template => hcl_grammar::parse_template(src).map(drop),
    };
    result.map_err(|e| Rejection::from_error(&e))
}

/// Parses a body, for the corpus check.
pub fn parse_body(src: &str) -> Result<hcl_grammar::Body<'_>, Rejection> {
    hcl_grammar::parse_body(src).map_err(|e| Rejection::from_error(&e))
}
