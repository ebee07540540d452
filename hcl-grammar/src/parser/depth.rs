//! Guards against hostile input, before pest runs.
//!
//! pest recurses once per nesting level (and before 2.9 has no stack
//! guard), so a cheap linear pre-scan counts nesting first: a small lexer with a mode
//! stack (code, quoted string, heredoc, standalone template) that knows
//! comments, string escapes, heredoc markers and template sequences. It
//! counts `(`, `[`, `{`, `${` and `%{` levels, quoted strings and heredocs
//! (so `"${` nests two levels) and the `?` of conditionals (whose branches
//! pest also parses recursively), and fails past `max_depth`. It does not validate anything else: pest does.
//!
//! pest 2.9 also checks the native stack itself ("stack limit reached"),
//! but the pre-scan is kept: the crate accepts any pest from 2.7 (which has
//! no such guard), it gives the error its position and words, and it finds
//! where a large file may be cut into pieces (see `parse_config`).
//!
//! Backtracking needs no guard: the grammar is linear by construction
//! (every alternative is guarded by its first character or fails within a
//! few bytes, and no span is parsed again by a second alternative), which
//! `hcl-grammar/tests/linear.rs` checks by counting pest's calls. pest's
//! own call limit (`pest::set_call_limit`) is process-wide, so the library
//! never sets it.

use super::Rule;
use crate::error::Error;
use crate::span::Span;
use crate::Result;
use std::ops::Range;

#[derive(Clone, Copy, PartialEq)]
enum Mode {
    /// Expressions or bodies. `closer` is the byte that ends the frame
    /// (0 at the top level); `qs` counts the `?` seen in it.
    Code {
        closer: u8,
        qs: usize,
        newline_ends: bool,
        open: usize,
    },
    /// A quoted template.
    Quoted { open: usize },
    /// A heredoc's content; `marker` is the closing marker's range.
    Heredoc {
        marker: (usize, usize),
        line_start: bool,
        open: usize,
    },
    /// A standalone template.
    Bare,
}

/// Checks nesting depth.
pub(super) fn check(rule: Rule, text: &str, max: usize) -> Result<()> {
    scan(rule, text, max, false, usize::MAX, usize::MAX).map(|_| ())
}

/// Checks the nesting depth of a config file, and returns where it may be
/// cut into pieces of at least `chunk` bytes: offsets just after a newline
/// that ends a top-level item (outside every bracket, string, heredoc and
/// comment), and not before a byte order mark (which only the first piece
/// may skip). Empty when the file is shorter than `chunk`.
pub(super) fn check_body(text: &str, max: usize, chunk: usize) -> Result<Vec<usize>> {
    scan(Rule::config_file, text, max, false, usize::MAX, chunk).map(|s| s.splits)
}

/// The byte ranges of comments in `text` (for the byte-input check).
pub(super) fn comment_ranges(text: &str) -> Vec<Range<usize>> {
    scan(
        Rule::config_file,
        text,
        usize::MAX,
        true,
        usize::MAX,
        usize::MAX,
    )
    .map(|s| s.comments)
    .unwrap_or_default()
}

/// What is open at a position: for error messages.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Open {
    /// `(`, `[` or `{` (the byte) at an offset.
    Bracket(u8, usize),
    /// `${` or `%{` at an offset.
    Sequence(usize),
    /// A quoted string's opening quote.
    Quote(usize),
    /// A heredoc's `<<`.
    Heredoc(usize),
}

/// The constructs still open at byte `upto`, outermost first.
pub(super) fn open_at(rule: Rule, text: &str, upto: usize) -> Vec<Open> {
    scan(rule, text, usize::MAX, false, upto, usize::MAX)
        .map(|s| s.open)
        .unwrap_or_default()
}

struct Scanned {
    comments: Vec<Range<usize>>,
    open: Vec<Open>,
    /// Where a config file may be cut (see [`check_body`]).
    splits: Vec<usize>,
}

fn scan(
    rule: Rule,
    text: &str,
    max: usize,
    collect: bool,
    upto: usize,
    chunk: usize,
) -> Result<Scanned> {
    scan_guarded(rule, text, max, collect, upto, chunk).map_err(|TooDeep(at)| {
        Error::new(
            format!(
                "nesting too deep: more than {max} levels of brackets, braces, parentheses, template sequences or conditionals"
            ),
            Span::new(at, at + 1),
            text,
        )
    })
}

/// Nesting past the limit, at a byte offset.
struct TooDeep(usize);

/// One level deeper at `at`, if within `max`.
fn descend(depth: &mut usize, max: usize, at: usize) -> std::result::Result<(), TooDeep> {
    *depth += 1;
    if *depth > max {
        return Err(TooDeep(at));
    }
    Ok(())
}

/// A template's byte at `i` (in a quoted string, a heredoc or a standalone
/// template): an escaped `$${` or `%%{` is skipped; `${` or `%{` opens a
/// code frame one level deeper (an `if` or `for` directive also nests the
/// template after it). Where to go on, or `None` when the byte starts
/// neither.
fn template_sequence(
    b: &[u8],
    i: usize,
    depth: &mut usize,
    max: usize,
    stack: &mut Vec<Mode>,
) -> std::result::Result<Option<usize>, TooDeep> {
    let c = b.get(i).copied().unwrap_or(0);
    if !matches!(c, b'$' | b'%') {
        return Ok(None);
    }
    match b.get(i + 1) {
        Some(&next) if next == c && b.get(i + 2) == Some(&b'{') => Ok(Some(i + 3)),
        Some(b'{') => {
            if c == b'%' {
                *depth = directive_depth(b, i + 2, *depth);
            }
            descend(depth, max, i)?;
            stack.push(Mode::Code {
                closer: b'}',
                qs: 0,
                newline_ends: false,
                open: i,
            });
            Ok(Some(i + 2))
        }
        _ => Ok(None),
    }
}

/// [`scan`], its error the offset past the depth limit.
fn scan_guarded(
    rule: Rule,
    text: &str,
    max: usize,
    collect: bool,
    upto: usize,
    chunk: usize,
) -> std::result::Result<Scanned, TooDeep> {
    let b = text.as_bytes();
    let b = b.get(..upto.min(b.len())).unwrap_or_default();
    let mut comments = Vec::new();
    let mut splits = Vec::new();
    // The start of the current piece (the last cut).
    let mut piece = 0usize;
    let cut = chunk < b.len();
    let top = if rule == Rule::template_file {
        Mode::Bare
    } else {
        Mode::Code {
            closer: 0,
            qs: 0,
            newline_ends: rule == Rule::config_file,
            open: 0,
        }
    };
    let mut stack: Vec<Mode> = vec![top];
    let mut depth: usize = 0;
    let mut i = 0usize;
    while i < b.len() {
        // Skip the bytes that cannot change the state.
        let table = match stack.last() {
            Some(Mode::Code { .. }) => &CODE,
            Some(Mode::Quoted { .. }) => &QUOTED,
            Some(Mode::Heredoc {
                line_start: false, ..
            }) => &HEREDOC,
            Some(Mode::Bare) => &BARE,
            _ => &ALL,
        };
        // A byte indexes a 256-entry table: always in bounds.
        #[allow(clippy::indexing_slicing)]
        while b.get(i).is_some_and(|&c| !table[c as usize]) {
            i += 1;
        }
        let Some(&c) = b.get(i) else {
            break;
        };
        let next = b.get(i + 1).copied().unwrap_or(0);
        let Some(mode) = stack.last_mut() else {
            break;
        };
        match mode {
            Mode::Code {
                closer,
                qs,
                newline_ends,
                ..
            } => match c {
                b'#' => {
                    let end = find_byte(b, i, b'\n');
                    if collect {
                        comments.push(i..end);
                    }
                    i = end;
                    continue;
                }
                b'/' if next == b'/' => {
                    let end = find_byte(b, i, b'\n');
                    if collect {
                        comments.push(i..end);
                    }
                    i = end;
                    continue;
                }
                b'/' if next == b'*' => {
                    let end = text
                        .get(i + 2..)
                        .and_then(|r| r.find("*/"))
                        .map_or(b.len(), |k| i + 2 + k + 2);
                    if collect {
                        comments.push(i..end);
                    }
                    i = end;
                    continue;
                }
                b'"' => {
                    // A string is a level of its own: pest nests its
                    // template inside the expression around it.
                    descend(&mut depth, max, i)?;
                    stack.push(Mode::Quoted { open: i });
                }
                b'<' if next == b'<' => {
                    if let Some((marker, after)) = heredoc_intro(b, i) {
                        descend(&mut depth, max, i)?;
                        stack.push(Mode::Heredoc {
                            marker,
                            line_start: true,
                            open: i,
                        });
                        i = after;
                        continue;
                    }
                }
                b'(' | b'[' | b'{' => {
                    descend(&mut depth, max, i)?;
                    let closer = match c {
                        b'(' => b')',
                        b'[' => b']',
                        _ => b'}',
                    };
                    stack.push(Mode::Code {
                        closer,
                        qs: 0,
                        newline_ends: c == b'{',
                        open: i,
                    });
                }
                b')' | b']' | b'}' if *closer != 0 => {
                    depth = depth.saturating_sub(1 + *qs);
                    stack.pop();
                }
                b'?' => {
                    *qs += 1;
                    descend(&mut depth, max, i)?;
                }
                b',' => {
                    depth = depth.saturating_sub(*qs);
                    *qs = 0;
                }
                b'\n' if *newline_ends => {
                    depth = depth.saturating_sub(*qs);
                    *qs = 0;
                    // A newline of the file's own body ends an item.
                    if cut
                        && *closer == 0
                        && i + 1 - piece >= chunk
                        && i + 1 < b.len()
                        && b.get(i + 1) != Some(&0xEF)
                    {
                        piece = i + 1;
                        splits.push(piece);
                    }
                }
                _ => {}
            },
            Mode::Quoted { .. } => match c {
                b'\\' => {
                    i += 2;
                    continue;
                }
                b'"' | b'\n' => {
                    depth = depth.saturating_sub(1);
                    stack.pop();
                }
                _ => {
                    if let Some(to) = template_sequence(b, i, &mut depth, max, &mut stack)? {
                        i = to;
                        continue;
                    }
                }
            },
            Mode::Heredoc {
                marker, line_start, ..
            } => {
                if *line_start {
                    *line_start = false;
                    if closes_heredoc(b, i, *marker) {
                        depth = depth.saturating_sub(1);
                        stack.pop();
                        continue;
                    }
                }
                match c {
                    b'\n' => {
                        if let Some(Mode::Heredoc { line_start, .. }) = stack.last_mut() {
                            *line_start = true;
                        }
                    }
                    _ => {
                        if let Some(to) = template_sequence(b, i, &mut depth, max, &mut stack)? {
                            i = to;
                            continue;
                        }
                    }
                }
            }
            Mode::Bare => {
                if let Some(to) = template_sequence(b, i, &mut depth, max, &mut stack)? {
                    i = to;
                    continue;
                }
            }
        }
        i += 1;
    }
    let open = stack
        .iter()
        .skip(1)
        .map(|m| match *m {
            Mode::Code { closer, open, .. } => match (closer, b.get(open)) {
                (b'}', Some(b'$' | b'%')) => Open::Sequence(open),
                (_, Some(&c)) => Open::Bracket(c, open),
                _ => Open::Sequence(open),
            },
            Mode::Quoted { open } => Open::Quote(open),
            Mode::Heredoc { open, .. } => Open::Heredoc(open),
            Mode::Bare => Open::Sequence(0),
        })
        .collect();
    Ok(Scanned {
        comments,
        open,
        splits,
    })
}

/// `if` and `for` directives nest the template after them: one level
/// each, until their `endif`/`endfor`.
fn directive_depth(b: &[u8], mut i: usize, depth: usize) -> usize {
    if b.get(i) == Some(&b'~') {
        i += 1;
    }
    while matches!(b.get(i), Some(b' ' | b'\t' | b'\n' | b'\r')) {
        i += 1;
    }
    let word_end = (i..b.len())
        .find(|&k| !b.get(k).is_some_and(|&c| is_ident_byte(c)))
        .unwrap_or(b.len());
    match b.get(i..word_end) {
        Some(b"if" | b"for") => depth + 1,
        Some(b"endif" | b"endfor") => depth.saturating_sub(1),
        _ => depth,
    }
}

/// A table of the bytes in `set` (built at compile time: `k < set.len()`
/// and a byte indexes 256 entries).
#[allow(clippy::indexing_slicing)]
const fn table(set: &[u8]) -> [bool; 256] {
    let mut t = [false; 256];
    let mut k = 0;
    while k < set.len() {
        t[set[k] as usize] = true;
        k += 1;
    }
    t
}

/// The bytes that matter in each mode.
static CODE: [bool; 256] = table(b"#/\"<([{)]}?,\n");
static QUOTED: [bool; 256] = table(b"\\\"$%\n");
static HEREDOC: [bool; 256] = table(b"$%\n");
static BARE: [bool; 256] = table(b"$%");
static ALL: [bool; 256] = [true; 256];

/// The offset of the next `byte` at or after `from`, or the end.
fn find_byte(b: &[u8], from: usize, byte: u8) -> usize {
    b.get(from..)
        .and_then(|r| r.iter().position(|&x| x == byte))
        .map_or(b.len(), |k| from + k)
}

fn is_ident_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'-' || c >= 0x80
}

/// `<<` or `<<-`, an identifier, a newline: the marker's range and the
/// offset after the newline.
fn heredoc_intro(b: &[u8], at: usize) -> Option<((usize, usize), usize)> {
    let mut i = at + 2;
    if b.get(i) == Some(&b'-') {
        i += 1;
    }
    let start = i;
    while b.get(i).is_some_and(|&c| is_ident_byte(c)) {
        i += 1;
    }
    if i == start {
        return None;
    }
    let end = i;
    if b.get(i) == Some(&b'\r') {
        i += 1;
    }
    if b.get(i) != Some(&b'\n') {
        return None;
    }
    Some(((start, end), i + 1))
}

/// Whether the line at `at` is the closing marker line.
fn closes_heredoc(b: &[u8], at: usize, (ms, me): (usize, usize)) -> bool {
    let mut i = at;
    while matches!(b.get(i), Some(b' ' | b'\t')) {
        i += 1;
    }
    let marker = b.get(ms..me).unwrap_or_default();
    if b.get(i..i + marker.len()) != Some(marker) {
        return false;
    }
    i += marker.len();
    while matches!(b.get(i), Some(b' ' | b'\t')) {
        i += 1;
    }
    matches!(b.get(i), Some(b'\n' | b'\r'))
}
