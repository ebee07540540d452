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
    file: Option<std::sync::Arc<str>>,
}

impl Error {
    /// A syntax error with `message` at `span` of `src`. The position and
    /// the source line are computed here, once.
    #[cold]
    pub fn new(message: impl Into<String>, span: Span, src: &str) -> Error {
        let pos = Position::of(src, span.start());
        Error(Box::new(ErrorImpl {
            message: message.into(),
            span,
            pos,
            line_text: line_at(src, pos.byte).to_owned(),
            file: None,
        }))
    }

    /// The error in the file `options` names, if any (the public entry
    /// points attach it on the way out).
    #[cold]
    pub(crate) fn in_file(mut self, options: &crate::ParseOptions) -> Error {
        if let Some(name) = &options.file_name {
            self.0.file = Some(std::sync::Arc::clone(name));
        }
        self
    }

    /// The file the error is in, as named by
    /// [`ParseOptions::with_file_name`](crate::ParseOptions::with_file_name);
    /// `None` when none was given.
    pub fn file_name(&self) -> Option<&str> {
        self.0.file.as_deref()
    }

    /// The error of a parse of the part of `text` from `by` on, moved into
    /// `text`: its span shifted, its line and column counted in `text`.
    #[cold]
    pub(crate) fn shifted(self, by: usize, text: &str) -> Error {
        let s = self.0.span;
        let span = Span::new(s.start().saturating_add(by), s.end().saturating_add(by));
        let mut e = Error::new(self.0.message, span, text);
        e.0.file = self.0.file;
        e
    }

    /// "input too large": `src` is longer than `max` bytes. The error
    /// points at the limit (in the valid UTF-8 text before it).
    #[cold]
    pub(crate) fn too_large(src: &[u8], max: usize) -> Error {
        let head = src.get(..max).unwrap_or(src);
        let text = match std::str::from_utf8(head) {
            Ok(t) => t,
            Err(e) => std::str::from_utf8(head.get(..e.valid_up_to()).unwrap_or_default())
                .unwrap_or_default(),
        };
        Error::new(
            format!("input too large: more than {max} bytes (the limit set by `max_input_len`)"),
            Span::new(text.len(), text.len()),
            text,
        )
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
    ///
    /// A line longer than 120 characters is shown as a window of 120
    /// around the caret, with `...` where it is cut, so the snippet stays
    /// small whatever the input.
    #[doc(hidden)]
    pub fn render_snippet(
        f: &mut dyn fmt::Write,
        line: usize,
        column: usize,
        line_text: &str,
        width: usize,
    ) -> fmt::Result {
        let gutter = line.to_string();
        let pad = " ".repeat(gutter.len());
        let caret = column.saturating_sub(1);
        let window = Window::around(line_text, caret);
        writeln!(f, "{pad} |")?;
        if line_text.is_empty() {
            // An empty line (an empty file): no trailing space.
            writeln!(f, "{gutter} |")?;
        } else {
            let (head, tail) = (window.cut_head(), window.cut_tail());
            writeln!(f, "{gutter} | {head}{}{tail}", window.text)?;
        }
        // Keep tabs in the caret line so the caret lines up under them.
        let mut caret_pad = window.cut_head().to_owned().replace('.', " ");
        for ch in window.text.chars().take(caret.saturating_sub(window.first)) {
            caret_pad.push(if ch == '\t' { '\t' } else { ' ' });
        }
        let remaining = window
            .chars
            .saturating_sub(caret.saturating_sub(window.first));
        let carets = width.clamp(1, remaining.max(1));
        write!(f, "{pad} | {caret_pad}{}", "^".repeat(carets))
    }
}

/// The line of `src` that holds byte `at`, without its newline (`\n` or
/// `\r\n`): the one definition of an error's source line, for both crates.
fn line_at(src: &str, at: usize) -> &str {
    let start = src
        .get(..at)
        .and_then(|s| s.rfind('\n'))
        .map_or(0, |i| i + 1);
    let end = src
        .get(start..)
        .and_then(|s| s.find('\n'))
        .map_or(src.len(), |i| start + i);
    src.get(start..end)
        .unwrap_or_default()
        .trim_end_matches('\r')
}

/// The most characters of a source line a snippet shows.
const SNIPPET_CHARS: usize = 120;
/// How many of them come before the caret when a long line is cut.
const SNIPPET_BEFORE: usize = 40;

/// The part of a source line a snippet shows.
struct Window<'a> {
    /// The characters shown.
    text: &'a str,
    /// The index (in characters) of the first one shown.
    first: usize,
    /// How many are shown.
    chars: usize,
    /// Whether characters are cut before and after.
    cut: (bool, bool),
}

impl<'a> Window<'a> {
    /// At most [`SNIPPET_CHARS`] characters of `line` around character
    /// `caret` (the whole line when it is short enough).
    fn around(line: &'a str, caret: usize) -> Window<'a> {
        let total = line.chars().count();
        if total <= SNIPPET_CHARS {
            return Window {
                text: line,
                first: 0,
                chars: total,
                cut: (false, false),
            };
        }
        let first = caret
            .saturating_sub(SNIPPET_BEFORE)
            .min(total - SNIPPET_CHARS);
        let byte = |k: usize| line.char_indices().nth(k).map_or(line.len(), |(i, _)| i);
        let (start, end) = (byte(first), byte(first + SNIPPET_CHARS));
        Window {
            text: line.get(start..end).unwrap_or_default(),
            first,
            chars: SNIPPET_CHARS,
            cut: (first > 0, first + SNIPPET_CHARS < total),
        }
    }

    fn cut_head(&self) -> &'static str {
        if self.cut.0 {
            "..."
        } else {
            ""
        }
    }

    fn cut_tail(&self) -> &'static str {
        if self.cut.1 {
            "..."
        } else {
            ""
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let e = &self.0;
        writeln!(f, "{}", e.message)?;
        match &e.file {
            Some(file) => writeln!(f, " --> {file}:{}:{}", e.pos.line, e.pos.column)?,
            None => writeln!(f, " --> {}:{}", e.pos.line, e.pos.column)?,
        }
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
