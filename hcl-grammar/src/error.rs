//! The parser's error type.

use crate::span::{Position, Span};
use std::fmt;

/// A syntax error: what is wrong, and where.
///
/// The error keeps the line of source it points into, so it renders on its
/// own:
///
/// ```text
/// expected `=` or `{` after the block type
///  --> 3:9
///   |
/// 3 | service web
///   |         ^
/// ```
///
/// The struct is boxed so that `Result<T, Error>` stays one pointer wide.
#[derive(Clone, PartialEq, Eq)]
pub struct Error(Box<ErrorImpl>);

#[derive(Clone, PartialEq, Eq)]
struct ErrorImpl {
    message: String,
    span: Span,
    pos: Position,
    line_text: String,
}

impl Error {
    /// A syntax error with `message` at `span` of `src`. The position and
    /// the source line are computed here, once.
    #[cold]
    pub fn new(message: impl Into<String>, span: Span, src: &str) -> Error {
        let pos = Position::of(src, span.start);
        let line_start = src
            .get(..pos.byte)
            .and_then(|s| s.rfind('\n'))
            .map_or(0, |i| i + 1);
        let line_end = src
            .get(line_start..)
            .and_then(|s| s.find('\n'))
            .map_or(src.len(), |i| line_start + i);
        let line_text = src
            .get(line_start..line_end)
            .unwrap_or_default()
            .trim_end_matches('\r')
            .to_owned();
        Error(Box::new(ErrorImpl {
            message: message.into(),
            span,
            pos,
            line_text,
        }))
    }

    /// What went wrong, in words a user understands.
    pub fn message(&self) -> &str {
        &self.0.message
    }

    /// The bytes the error points at.
    pub fn span(&self) -> Span {
        self.0.span
    }

    /// The position of the start of [`span`](Error::span).
    pub fn position(&self) -> Position {
        self.0.pos
    }

    /// 1-based line of the error.
    pub fn line(&self) -> usize {
        self.0.pos.line
    }

    /// 1-based column of the error, in characters.
    pub fn column(&self) -> usize {
        self.0.pos.column
    }

    /// The source line the error points into, without its newline.
    pub fn source_line(&self) -> &str {
        &self.0.line_text
    }

    /// Writes the source line and a caret line under the span, each line
    /// prefixed by a gutter, as in [`Display`](fmt::Display). Used by
    /// higher-level error types to render the same snippet.
    pub fn render_snippet(
        f: &mut dyn fmt::Write,
        line: usize,
        column: usize,
        line_text: &str,
        width: usize,
    ) -> fmt::Result {
        let gutter = line.to_string();
        let pad = " ".repeat(gutter.len());
        writeln!(f, "{pad} |")?;
        if line_text.is_empty() {
            // An empty line (an empty file): no trailing space.
            writeln!(f, "{gutter} |")?;
        } else {
            writeln!(f, "{gutter} | {line_text}")?;
        }
        // Keep tabs in the caret line so the caret lines up under them.
        let mut caret_pad = String::new();
        for ch in line_text.chars().take(column.saturating_sub(1)) {
            caret_pad.push(if ch == '\t' { '\t' } else { ' ' });
        }
        let remaining = line_text
            .chars()
            .count()
            .saturating_sub(column.saturating_sub(1));
        let carets = width.clamp(1, remaining.max(1));
        write!(f, "{pad} | {caret_pad}{}", "^".repeat(carets))
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let e = &self.0;
        writeln!(f, "{}", e.message)?;
        writeln!(f, " --> {}:{}", e.pos.line, e.pos.column)?;
        let width = self
            .0
            .line_text
            .get(e.pos.column.saturating_sub(1)..)
            .map_or(1, |_| e.span.len().max(1));
        Error::render_snippet(f, e.pos.line, e.pos.column, &e.line_text, width)
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Error({:?}, line: {}, column: {})",
            self.0.message, self.0.pos.line, self.0.pos.column
        )
    }
}

impl std::error::Error for Error {}
