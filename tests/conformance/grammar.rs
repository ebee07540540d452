//! How the runner calls the parser: one entry point per input mode, on the
//! input's bytes.

use hcl_grammar::Error;

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

/// Parses `bytes` in `mode`, keeping only the outcome. The input goes to
/// the parser as bytes: invalid UTF-8 is the parser's to judge (the
/// reference accepts it inside comments).
pub fn parse(mode: Mode, bytes: &[u8]) -> Result<(), Rejection> {
    let result = match mode {
        Mode::Body => hcl_grammar::parse_body(bytes, &Default::default()).map(drop),
        Mode::Expr => hcl_grammar::parse_expr(bytes, &Default::default()).map(drop),
        Mode::Template => hcl_grammar::parse_template(bytes, &Default::default()).map(drop),
    };
    result.map_err(|e| Rejection::from_error(&e))
}

/// Parses a body from bytes, for the corpus check.
pub fn parse_body(bytes: &[u8]) -> Result<hcl_grammar::Body<'_>, Rejection> {
    hcl_grammar::parse_body(bytes, &Default::default()).map_err(|e| Rejection::from_error(&e))
}
