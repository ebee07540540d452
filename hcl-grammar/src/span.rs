//! Byte spans into the parsed source, and line/column positions.

use std::fmt;
use std::ops::Range;

/// A half-open byte range `start..end` into the source text a node was
/// parsed from.
///
/// Spans are byte offsets, not characters: `&src[span.range()]` is the
/// exact source text of the node. Lines and columns are computed only when
/// asked for, with [`Span::start_pos`] / [`Position::of`].
///
/// ```
/// use hcl_grammar::Span;
/// let src = "a = 1\nb = 2\n";
/// let span = Span::new(6, 11);
/// assert_eq!(&src[span.range()], "b = 2");
/// assert_eq!(span.start_pos(src).line, 2);
/// ```
///
/// Offsets are stored in 32 bits, which keeps the tree small: no input
/// longer than [`Span::MAX_OFFSET`] bytes (4 GiB - 1) is parsed (see
/// [`ParseOptions::with_max_input_len`](crate::ParseOptions::with_max_input_len)).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Span {
    start: u32,
    end: u32,
}

impl Span {
    /// The largest offset a span holds: `u32::MAX`. Larger offsets given
    /// to [`Span::new`] are clamped to it.
    pub const MAX_OFFSET: usize = u32::MAX as usize;

    /// A span from `start` to `end` (byte offsets), each clamped to
    /// [`Span::MAX_OFFSET`].
    #[inline]
    pub const fn new(start: usize, end: usize) -> Span {
        Span {
            start: clamp(start),
            end: clamp(end),
        }
    }

    /// A span from `start` to `end`, for the parser, whose input is at
    /// most [`Span::MAX_OFFSET`] bytes long (checked before parsing): a
    /// plain cast, which a larger offset would truncate (a wrong span,
    /// never a panic).
    #[inline]
    #[allow(clippy::cast_possible_truncation)]
    pub(crate) const fn at(start: usize, end: usize) -> Span {
        Span {
            start: start as u32,
            end: end as u32,
        }
    }

    /// Byte offset of the first byte.
    #[inline]
    pub const fn start(self) -> usize {
        self.start as usize
    }

    /// Byte offset one past the last byte.
    #[inline]
    pub const fn end(self) -> usize {
        self.end as usize
    }

    /// The span as a `Range<usize>`, for slicing the source.
    #[inline]
    pub const fn range(self) -> Range<usize> {
        self.start()..self.end()
    }

    /// The length in bytes.
    #[inline]
    pub const fn len(self) -> usize {
        self.end().saturating_sub(self.start())
    }

    /// Whether the span covers no byte.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.end <= self.start
    }

    /// The smallest span covering both `self` and `other`.
    #[inline]
    pub fn to(self, other: Span) -> Span {
        Span {
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }

    /// The position (line, column) of the span's start in `src`.
    pub fn start_pos(self, src: &str) -> Position {
        Position::of(src, self.start())
    }

    /// The position (line, column) of the span's end in `src`.
    pub fn end_pos(self, src: &str) -> Position {
        Position::of(src, self.end())
    }
}

/// `offset` as a span offset, clamped to [`Span::MAX_OFFSET`].
#[inline]
const fn clamp(offset: usize) -> u32 {
    // Branch-free: a `min` compiles to a conditional move.
    let offset = if offset < Span::MAX_OFFSET {
        offset
    } else {
        Span::MAX_OFFSET
    };
    offset as u32
}

impl fmt::Debug for Span {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}..{}", self.start, self.end)
    }
}

impl From<Range<usize>> for Span {
    fn from(r: Range<usize>) -> Span {
        Span::new(r.start, r.end)
    }
}

/// A 1-based line and column, with the 0-based byte offset it was computed
/// from.
///
/// Columns count Unicode scalar values (a tab is one column), as the HCL
/// specification says; the reference counts grapheme clusters, which
/// differs only after combining marks.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Position {
    /// 1-based line number.
    pub line: usize,
    /// 1-based column number, in characters.
    pub column: usize,
    /// 0-based byte offset.
    pub byte: usize,
}

impl Position {
    /// The position of byte offset `byte` in `src`. Offsets past the end
    /// are clamped to the end; offsets inside a UTF-8 sequence count from
    /// the start of that character.
    pub fn of(src: &str, byte: usize) -> Position {
        let byte = byte.min(src.len());
        let before = src.as_bytes().get(..byte).unwrap_or_default();
        let line_start = before
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
        let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
        // Count characters: every byte that is not a UTF-8 continuation byte.
        let column = before
            .get(line_start..)
            .unwrap_or_default()
            .iter()
            .filter(|&&b| (b & 0xC0) != 0x80)
            .count()
            + 1;
        Position { line, column, byte }
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.column)
    }
}
