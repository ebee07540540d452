//! The crate's one error type.
//!
//! Every failure (syntax, evaluation, data) is one [`Error`]: its
//! [`Category`], the position in the source ([`Error::line`],
//! [`Error::column`], [`Error::span`]), the path of the field being read
//! ([`Error::path`]), and, when printed, the file, the source line and a
//! caret.
//!
//! ```
//! use hcl::error::Category;
//!
//! #[derive(serde::Deserialize, Debug)]
//! struct Server { port: u16 }
//!
//! let err = hcl::from_str::<Server>("port = 1 / \"x\"\n").unwrap_err();
//! assert_eq!(err.category(), Category::Eval);
//! assert_eq!((err.line(), err.column()), (Some(1), Some(12)));
//! assert_eq!(err.path(), Some("port"));
//!
//! let err = hcl::from_str::<Server>("port = 70000\n").unwrap_err();
//! assert_eq!(err.category(), Category::Data);
//! assert!(err.to_string().contains("1 | port = 70000"), "{err}");
//! ```

use hcl_grammar::{Position, Span};
use std::fmt;

/// The result type of this crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// What kind of failure an [`Error`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Category {
    /// The input is not valid HCL syntax.
    Syntax,
    /// An expression could not be evaluated: an unknown variable, a type
    /// mismatch, a division by zero, a limit exceeded...
    Eval,
    /// The input is valid HCL but does not fit the requested Rust type (a
    /// missing field, a number out of range...), or any other failure from
    /// serde.
    Data,
    /// Reading the input failed ([`from_reader`](crate::from_reader)); the
    /// I/O error is the [`source`](std::error::Error::source).
    Io,
}

impl fmt::Display for Category {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Category::Syntax => "syntax error",
            Category::Eval => "evaluation error",
            Category::Data => "data error",
            Category::Io => "I/O error",
        })
    }
}

/// An error from parsing, evaluating or deserializing HCL: what went wrong
/// and where.
///
/// It carries a [`Category`], a message, the span it points at and, once
/// the source text has been attached ([`Error::with_source`]; the entry
/// points that take text do it), the line and column and the source line,
/// so that [`Display`](fmt::Display) renders a snippet:
///
/// ```text
/// there is no variable named `nmae`; did you mean `name`?
///  --> main.hcl:3:10
///   |
/// 3 | greeting = nmae
///   |            ^^^^
/// ```
///
/// The struct is boxed so that `Result<T, Error>` stays one pointer wide.
///
/// The crate builds its errors itself; code outside it makes one the way
/// serde's formats do, with [`serde::de::Error::custom`] (a
/// [`Category::Data`] error, as from a `Deserialize` impl), or converts a
/// parser error with `From<hcl_grammar::Error>`. A function of a
/// [`Context`](crate::Context) returns a
/// [`FuncError`](crate::eval::FuncError) instead, which the evaluator
/// turns into an evaluation error at the call.
///
/// ```
/// use serde::de::Error as _;
///
/// let err = hcl::Error::custom("port 0 is reserved");
/// assert_eq!(err.category(), hcl::error::Category::Data);
/// assert_eq!(err.message(), "port 0 is reserved");
/// ```
#[derive(Clone, PartialEq)]
pub struct Error(Box<ErrorImpl>);

#[derive(Clone, PartialEq)]
struct ErrorImpl {
    category: Category,
    message: String,
    span: Option<Span>,
    pos: Option<Position>,
    line_text: Option<String>,
    /// Width of the caret line, in characters.
    width: usize,
    file: Option<String>,
    path: Option<String>,
    /// The I/O error of a [`Category::Io`] error.
    io: Option<IoSource>,
}

/// An I/O error shared between clones of an [`Error`]; equal when it is the
/// same error.
#[derive(Clone)]
struct IoSource(std::sync::Arc<std::io::Error>);

impl PartialEq for IoSource {
    fn eq(&self, other: &IoSource) -> bool {
        std::sync::Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Error {
    #[cold]
    fn new(category: Category, message: String, span: Option<Span>) -> Error {
        Error(Box::new(ErrorImpl {
            category,
            message,
            span,
            pos: None,
            line_text: None,
            width: 1,
            file: None,
            path: None,
            io: None,
        }))
    }

    /// An evaluation error with `message` at `span`.
    #[cold]
    pub(crate) fn eval(message: impl Into<String>, span: Span) -> Error {
        Error::new(Category::Eval, message.into(), Some(span))
    }

    /// An I/O error reading the input, kept as the error's source.
    #[cold]
    pub(crate) fn io(error: std::io::Error) -> Error {
        let mut e = Error::new(
            Category::Io,
            format!("cannot read the input: {error}"),
            None,
        );
        e.0.io = Some(IoSource(std::sync::Arc::new(error)));
        e
    }

    /// A data error with `message`, pointing nowhere yet.
    #[cold]
    pub(crate) fn data(message: impl Into<String>) -> Error {
        Error::new(Category::Data, message.into(), None)
    }

    /// A data error with `message` at `span`.
    #[cold]
    pub(crate) fn data_at(message: impl Into<String>, span: Span) -> Error {
        Error::new(Category::Data, message.into(), Some(span))
    }

    /// A syntax error from the parser (which already knows its line and
    /// column).
    #[cold]
    pub(crate) fn syntax(e: hcl_grammar::Error) -> Error {
        let mut err = Error::new(Category::Syntax, e.message().to_owned(), Some(e.span()));
        let line_text = e.source_line().to_owned();
        let rest = line_text.chars().count().saturating_sub(e.column() - 1);
        err.0.width = e.span().len().clamp(1, rest.max(1));
        err.0.pos = Some(e.position());
        err.0.line_text = Some(line_text);
        err
    }

    /// Attaches the source text the span points into, computing the line,
    /// column and source line. Does nothing if the error has no span or
    /// already has a position.
    #[must_use]
    pub fn with_source(mut self, src: &str) -> Error {
        self.attach_source(src);
        self
    }

    /// In-place form of [`with_source`](Error::with_source).
    pub fn attach_source(&mut self, src: &str) {
        let e = &mut *self.0;
        let Some(span) = e.span else { return };
        if e.pos.is_some() {
            return;
        }
        // The grammar's error finds the position and the source line.
        let located = hcl_grammar::Error::new(String::new(), span, src);
        let pos = located.position();
        let line_text = located.source_line();
        let rest = line_text
            .char_indices()
            .nth(pos.column.saturating_sub(1))
            .map_or(0, |(i, _)| line_text.len() - i);
        let span_chars = src
            .get(pos.byte..span.end().clamp(pos.byte, pos.byte + rest))
            .map_or(1, |s| s.chars().count());
        e.width = span_chars.max(1);
        e.line_text = Some(line_text.to_owned());
        e.pos = Some(pos);
    }

    /// Names the file the source came from, shown in
    /// [`Display`](fmt::Display).
    #[must_use]
    pub fn with_file(mut self, name: impl Into<String>) -> Error {
        self.0.file = Some(name.into());
        self
    }

    /// Sets the path of the field the error is about (`service.web.port`),
    /// if none is set yet (the innermost path wins).
    #[must_use]
    pub fn with_path(mut self, path: impl Into<String>) -> Error {
        if self.0.path.is_none() {
            self.0.path = Some(path.into());
        }
        self
    }

    /// Sets the span, if none is set yet (the innermost span wins).
    #[must_use]
    pub fn with_span(mut self, span: Span) -> Error {
        if self.0.span.is_none() {
            self.0.span = Some(span);
        }
        self
    }

    /// Prepends a key to the path (`port` then `service` gives
    /// `service.port`); keys that are not identifiers are quoted
    /// (`tags["Cost Center"]`).
    #[must_use]
    pub(crate) fn prepend_key(mut self, key: &str) -> Error {
        let seg = if hcl_grammar::is_identifier(key) {
            key.to_owned()
        } else {
            format!("[{key:?}]")
        };
        self.0.path = Some(match self.0.path.take() {
            None => seg,
            Some(rest) if rest.starts_with('[') => seg + &rest,
            Some(rest) => format!("{seg}.{rest}"),
        });
        self
    }

    /// Prepends a sequence index to the path (`port` then `1` gives
    /// `[1].port`).
    #[must_use]
    pub(crate) fn prepend_index(mut self, index: usize) -> Error {
        let seg = format!("[{index}]");
        self.0.path = Some(match self.0.path.take() {
            None => seg,
            Some(rest) if rest.starts_with('[') => seg + &rest,
            Some(rest) => format!("{seg}.{rest}"),
        });
        self
    }

    /// Moves an error about a piece of text to the place of that text in
    /// its file: `lines` lines and `bytes` bytes further, and `cols`
    /// columns further on the text's first line (0 when the text starts
    /// at the start of a line).
    #[must_use]
    pub(crate) fn relocate(mut self, lines: usize, bytes: usize, cols: usize) -> Error {
        let e = &mut *self.0;
        if let Some(pos) = &mut e.pos {
            if pos.line == 1 {
                pos.column += cols;
            }
            pos.line += lines;
            pos.byte += bytes;
        }
        if let Some(span) = &mut e.span {
            *span = Span::new(span.start() + bytes, span.end() + bytes);
        }
        self
    }

    /// What kind of error this is.
    pub fn category(&self) -> Category {
        self.0.category
    }

    /// Whether this is a syntax error.
    pub fn is_syntax(&self) -> bool {
        self.0.category == Category::Syntax
    }

    /// Whether this is an evaluation error.
    pub fn is_eval(&self) -> bool {
        self.0.category == Category::Eval
    }

    /// Whether this is a data error.
    pub fn is_data(&self) -> bool {
        self.0.category == Category::Data
    }

    /// What went wrong, without position.
    pub fn message(&self) -> &str {
        &self.0.message
    }

    /// The bytes the error points at, if known.
    pub fn span(&self) -> Option<Span> {
        self.0.span
    }

    /// The position of the span's start, once the source is attached.
    pub fn position(&self) -> Option<Position> {
        self.0.pos
    }

    /// 1-based line, once the source is attached.
    pub fn line(&self) -> Option<usize> {
        self.0.pos.map(|p| p.line)
    }

    /// 1-based column in characters, once the source is attached.
    pub fn column(&self) -> Option<usize> {
        self.0.pos.map(|p| p.column)
    }

    /// The source line the error points into, once the source is attached.
    pub fn source_line(&self) -> Option<&str> {
        self.0.line_text.as_deref()
    }

    /// The file name, if one was given.
    pub fn file(&self) -> Option<&str> {
        self.0.file.as_deref()
    }

    /// The path of the field the error is about, if known.
    pub fn path(&self) -> Option<&str> {
        self.0.path.as_deref()
    }
}

impl From<hcl_grammar::Error> for Error {
    fn from(e: hcl_grammar::Error) -> Error {
        Error::syntax(e)
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let e = &*self.0;
        f.write_str(&e.message)?;
        if let Some(path) = &e.path {
            write!(f, " (at `{path}`)")?;
        }
        match (e.pos, &e.file) {
            (Some(pos), Some(file)) => write!(f, "\n --> {file}:{}:{}", pos.line, pos.column)?,
            (Some(pos), None) => write!(f, "\n --> {}:{}", pos.line, pos.column)?,
            (None, Some(file)) => write!(f, "\n --> {file}")?,
            (None, None) => {}
        }
        if let (Some(pos), Some(line)) = (e.pos, &e.line_text) {
            f.write_str("\n")?;
            hcl_grammar::Error::render_snippet(f, pos.line, pos.column, line, e.width)?;
        }
        Ok(())
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let e = &*self.0;
        write!(f, "Error({:?}, {:?}", e.category, e.message)?;
        if let Some(pos) = e.pos {
            write!(f, ", line: {}, column: {}", pos.line, pos.column)?;
        } else if let Some(span) = e.span {
            write!(f, ", span: {span:?}")?;
        }
        f.write_str(")")
    }
}

impl std::error::Error for Error {
    /// The I/O error behind a [`Category::Io`] error.
    ///
    /// ```
    /// use std::error::Error as _;
    /// struct Broken;
    /// impl std::io::Read for Broken {
    ///     fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
    ///         Err(std::io::Error::other("disk on fire"))
    ///     }
    /// }
    /// let err = hcl::from_reader::<_, hcl::Value>(Broken).unwrap_err();
    /// assert_eq!(err.category(), hcl::Category::Io);
    /// assert_eq!(err.source().unwrap().to_string(), "disk on fire");
    /// ```
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.0.io.as_ref().map(|io| &*io.0 as _)
    }
}

impl serde::de::Error for Error {
    #[cold]
    fn custom<T: fmt::Display>(msg: T) -> Error {
        Error::data(msg.to_string())
    }

    #[cold]
    fn unknown_field(field: &str, expected: &'static [&'static str]) -> Error {
        Error::data(format!(
            "unknown field `{field}`{}",
            expected_names(field, expected)
        ))
    }

    /// The path names the missing field (`service[1].replicas`); the
    /// span, set on the way up, is the block (or the start of the file)
    /// that lacks it.
    #[cold]
    fn missing_field(field: &'static str) -> Error {
        Error::data(format!("missing field `{field}`")).with_path(field)
    }

    #[cold]
    fn unknown_variant(variant: &str, expected: &'static [&'static str]) -> Error {
        Error::data(format!(
            "unknown variant `{variant}`{}",
            expected_names(variant, expected)
        ))
    }
}

/// `", expected one of `a`, `b`; did you mean `a`?"` for an unknown name.
fn expected_names(name: &str, expected: &[&str]) -> String {
    let mut out = String::new();
    let shown: Vec<&str> = expected
        .iter()
        .copied()
        .filter(|e| !e.starts_with('$'))
        .collect();
    match shown.as_slice() {
        [] => out.push_str(", there are no fields"),
        [one] => out.push_str(&format!(", expected `{one}`")),
        many => {
            out.push_str(", expected one of ");
            for (i, e) in many.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                out.push_str(&format!("`{e}`"));
            }
        }
    }
    let best = shown
        .iter()
        .filter_map(|c| Some((edit_distance_within(name, c, 2)?, *c)))
        .filter(|&(d, c)| d < c.chars().count().max(2))
        .min_by_key(|&(d, _)| d);
    if let Some((_, c)) = best {
        out.push_str(&format!("; did you mean `{c}`?"));
    }
    out
}

/// The Levenshtein distance between `a` and `b`, in characters, if it is
/// at most `max`.
///
/// Only the diagonal band of width `2 * max + 1` is computed, so the time
/// is O((|a| + |b|) * max) and the memory O(|b|): names come from the
/// input and may be megabytes long (a quadratic distance over two long
/// object keys would never finish).
pub(crate) fn edit_distance_within(a: &str, b: &str, max: usize) -> Option<usize> {
    let (la, lb) = (a.chars().count(), b.chars().count());
    if la.abs_diff(lb) > max {
        return None;
    }
    if la == 0 || lb == 0 {
        return Some(la.max(lb));
    }
    let b: Vec<char> = b.chars().collect();
    let inf = max.saturating_add(1);
    // Row 0, then rows 1..=la; cells outside the band stay `inf`.
    let mut prev: Vec<usize> = (0..=lb).map(|j| if j <= max { j } else { inf }).collect();
    let mut cur = vec![inf; lb + 1];
    for (i, ca) in (1usize..).zip(a.chars()) {
        let lo = i.saturating_sub(max).max(1);
        let hi = i.saturating_add(max).min(lb);
        let edge = if lo == 1 && i <= max { i } else { inf };
        if let Some(c) = cur.get_mut(lo - 1) {
            *c = edge;
        }
        let mut row_min = edge;
        for j in lo..=hi {
            let at = |row: &[usize], k: usize| row.get(k).copied().unwrap_or(inf);
            let same = b.get(j - 1) == Some(&ca);
            let sub = at(&prev, j - 1).saturating_add(usize::from(!same));
            let del = at(&prev, j).saturating_add(1);
            let ins = at(&cur, j - 1).saturating_add(1);
            let d = sub.min(del).min(ins).min(inf);
            if let Some(c) = cur.get_mut(j) {
                *c = d;
            }
            row_min = row_min.min(d);
        }
        if row_min > max {
            return None;
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev.get(lb).copied().filter(|&d| d <= max)
}

impl serde::ser::Error for Error {
    #[cold]
    fn custom<T: fmt::Display>(msg: T) -> Error {
        Error::data(msg.to_string())
    }
}

#[cfg(test)]
#[allow(clippy::indexing_slicing)]
mod tests {
    use super::*;

    #[test]
    fn renders_snippet_with_file() {
        let src = "a = 1\ngreeting = nmae\n";
        let e = Error::eval("there is no variable named `nmae`", Span::new(17, 21))
            .with_source(src)
            .with_file("main.hcl");
        assert_eq!(e.line(), Some(2));
        assert_eq!(e.column(), Some(12));
        assert_eq!(
            e.to_string(),
            "there is no variable named `nmae`\n --> main.hcl:2:12\n  |\n2 | greeting = nmae\n  |            ^^^^"
        );
    }

    #[test]
    fn a_long_line_renders_a_bounded_window() {
        // An evaluation error in the middle of a 200 KB line.
        let src = format!(
            "a = {} + nmae + {}\n",
            "x".repeat(100_000),
            "y".repeat(100_000)
        );
        let start = 4 + 100_000 + 3;
        let e = Error::eval(
            "there is no variable named `nmae`",
            Span::new(start, start + 4),
        )
        .with_source(&src);
        assert_eq!(e.column(), Some(start + 1));
        let shown = e.to_string();
        assert!(shown.len() < 1_000, "{} bytes", shown.len());
        let lines: Vec<&str> = shown.lines().collect();
        assert!(
            lines[3].contains("...x") && lines[3].ends_with("y..."),
            "{shown}"
        );
        let at = lines[4].find('^').unwrap_or_default();
        assert_eq!(lines[3].get(at..at + 5), Some("nmae "), "{shown}");
        assert_eq!(lines[4].get(at..), Some("^^^^"), "{shown}");
    }

    #[test]
    fn bounded_edit_distance() {
        let d = |a, b| edit_distance_within(a, b, 2);
        assert_eq!(d("nmae", "name"), Some(2));
        assert_eq!(d("name", "name"), Some(0));
        assert_eq!(d("nam", "name"), Some(1));
        assert_eq!(d("", "ab"), Some(2));
        assert_eq!(d("abc", ""), None);
        assert_eq!(d("kitten", "sitting"), None); // 3
        assert_eq!(d("xkitten", "xsittin"), Some(2));
        assert_eq!(d("abcdef", "badcfe"), None); // 3 swaps
        assert_eq!(d("ab", "ba"), Some(2));
        assert_eq!(d("été", "ete"), Some(2));
        // Long names cost time linear in their length.
        let long = "x".repeat(1 << 20);
        let other = format!("{}y", "x".repeat((1 << 20) - 1));
        assert_eq!(d(&long, &other), Some(1));
        assert_eq!(d(&long, "x"), None);
    }

    #[test]
    fn bounded_edit_distance_agrees_with_the_full_table() {
        fn full(a: &[u8], b: &[u8]) -> usize {
            let mut prev: Vec<usize> = (0..=b.len()).collect();
            for (i, ca) in a.iter().enumerate() {
                let mut cur = vec![i + 1];
                for (j, cb) in b.iter().enumerate() {
                    let sub = prev[j] + usize::from(ca != cb);
                    cur.push(sub.min(prev[j + 1] + 1).min(cur[j] + 1));
                }
                prev = cur;
            }
            prev[b.len()]
        }
        // Every word of up to 4 letters over {a, b, c}.
        let mut words = vec![String::new()];
        for len in 1..=4 {
            let start = words.len();
            for w in words.clone().iter().filter(|w| w.len() == len - 1) {
                for c in ['a', 'b', 'c'] {
                    words.push(format!("{w}{c}"));
                }
            }
            assert!(words.len() > start);
        }
        for a in &words {
            for b in &words {
                let want = full(a.as_bytes(), b.as_bytes());
                for max in 0..=3 {
                    let got = edit_distance_within(a, b, max);
                    assert_eq!(got, Some(want).filter(|&d| d <= max), "{a:?} {b:?} {max}");
                }
            }
        }
    }

    #[test]
    fn without_source_is_just_the_message() {
        let e = Error::data("missing field `port`");
        assert_eq!(e.to_string(), "missing field `port`");
        assert!(e.is_data());
    }
}
