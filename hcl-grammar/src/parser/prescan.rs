//! The pre-scan: one linear walk over the text, before either parser
//! runs, with four jobs, one entry each:
//!
//! - [`check_depth`]: the nesting limit (a guard against hostile input);
//! - [`check_depth_and_cut`]: the same, and where a large config file may
//!   be cut into pieces parsed in turn (see `parse_config`);
//! - [`comment_ranges`]: the comments (bytes that are not UTF-8 are
//!   allowed there, in byte input);
//! - [`open_at`]: what is open at an error's position (for its message).
//!
//! The walk keeps a mode stack (code, quoted string, heredoc, standalone
//! template) and reads the lexical rules (comments, literals and their
//! escapes, heredoc markers, template sequences) from [`crate::scan`].
//!
//! pest recurses once per nesting level (and before 2.9 has no stack
//! guard), so the walk counts nesting first. It
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

use super::pest::Rule;
use crate::error::Error;
use crate::scan::{self, Ident, Literal, Sequence, Stop};
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
pub(super) fn check_depth(rule: Rule, text: &str, max: usize) -> Result<()> {
    walk(rule, text, Job { max, ..Job::NONE }).map(|_| ())
}

/// Checks the nesting depth of a config file, and returns where it may be
/// cut into pieces of at least `chunk` bytes: offsets just after a newline
/// that ends a top-level item (outside every bracket, string, heredoc and
/// comment), and not before a byte order mark (which only the first piece
/// may skip). Empty when the file is shorter than `chunk`.
pub(super) fn check_depth_and_cut(text: &str, max: usize, chunk: usize) -> Result<Vec<usize>> {
    walk(
        Rule::config_file,
        text,
        Job {
            max,
            chunk,
            ..Job::NONE
        },
    )
    .map(|s| s.splits)
}

/// The byte ranges of comments in `text` (for the byte-input check).
pub(super) fn comment_ranges(text: &str) -> Vec<Range<usize>> {
    walk(
        Rule::config_file,
        text,
        Job {
            comments: true,
            ..Job::NONE
        },
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
    walk(rule, text, Job { upto, ..Job::NONE })
        .map(|s| s.open)
        .unwrap_or_default()
}

struct Scanned {
    comments: Vec<Range<usize>>,
    open: Vec<Open>,
    /// Where a config file may be cut (see [`check_depth_and_cut`]).
    splits: Vec<usize>,
}

/// What a walk is asked for.
#[derive(Clone, Copy)]
struct Job {
    /// The nesting limit.
    max: usize,
    /// Whether to collect the comments.
    comments: bool,
    /// Where to stop.
    upto: usize,
    /// The least length of a piece (`usize::MAX`: no cuts).
    chunk: usize,
}

impl Job {
    /// No limit, no comments, no cuts, to the end.
    const NONE: Job = Job {
        max: usize::MAX,
        comments: false,
        upto: usize::MAX,
        chunk: usize::MAX,
    };
}

fn walk(rule: Rule, text: &str, job: Job) -> Result<Scanned> {
    let max = job.max;
    walk_guarded(rule, text, job).map_err(|TooDeep(at)| {
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

/// Template literal text from `i` (in a quoted string, a heredoc or a
/// standalone template): where it stops and why. At a `${` or `%{`, opens
/// a code frame one level deeper (an `if` or `for` directive also nests
/// the template after it) and goes on after it.
fn template_text(
    b: &[u8],
    i: usize,
    kind: Literal,
    depth: &mut usize,
    max: usize,
    stack: &mut Vec<Mode>,
) -> std::result::Result<(usize, Stop), TooDeep> {
    let (at, stop) = scan::literal_end(b, i, kind, false);
    if let (Stop::Sequence, Some((sequence, _))) = (stop, scan::sequence_at(b, at)) {
        if sequence == Sequence::Control {
            *depth = directive_depth(b, at + 2, *depth);
        }
        descend(depth, max, at)?;
        stack.push(Mode::Code {
            closer: b'}',
            qs: 0,
            newline_ends: false,
            open: at,
        });
        return Ok((at + 2, stop));
    }
    Ok((at, stop))
}

/// [`walk`], its error the offset past the depth limit.
fn walk_guarded(rule: Rule, text: &str, job: Job) -> std::result::Result<Scanned, TooDeep> {
    let Job {
        max,
        comments: collect,
        upto,
        chunk,
    } = job;
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
        // In code, skip the bytes that cannot change the state (template
        // text is skipped by `scan::literal_end`).
        if let Some(Mode::Code { .. }) = stack.last() {
            // A byte indexes a 256-entry table: always in bounds.
            #[allow(clippy::indexing_slicing)]
            while b.get(i).is_some_and(|&c| !CODE[c as usize]) {
                i += 1;
            }
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
                b'#' | b'/' if scan::comment_at(b, i).is_some() => {
                    let end = scan::comment_end(b, i).unwrap_or(b.len());
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
                    if let Some(open) = scan::heredoc_open(b, i, Ident::Grammar) {
                        descend(&mut depth, max, i)?;
                        stack.push(Mode::Heredoc {
                            marker: (open.marker.start, open.marker.end),
                            line_start: true,
                            open: i,
                        });
                        i = open.end;
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
            Mode::Quoted { .. } => {
                let (at, stop) = template_text(b, i, Literal::Quoted, &mut depth, max, &mut stack)?;
                i = at;
                match stop {
                    Stop::Sequence => continue,
                    Stop::Quote => {
                        depth = depth.saturating_sub(1);
                        stack.pop();
                    }
                    // A newline ends the string (an error for the parser):
                    // `\n` here, as a `\` before it does not.
                    Stop::Newline if c_at(b, i) == b'\n' => {
                        depth = depth.saturating_sub(1);
                        stack.pop();
                    }
                    Stop::BadEscape => i += 1,
                    Stop::End => break,
                    Stop::Newline | Stop::BadUtf8 => {}
                }
            }
            Mode::Heredoc {
                marker, line_start, ..
            } => {
                if *line_start {
                    *line_start = false;
                    let name = b.get(marker.0..marker.1).unwrap_or_default();
                    if scan::heredoc_close(b, i, name).is_some() {
                        depth = depth.saturating_sub(1);
                        stack.pop();
                        continue;
                    }
                }
                let (at, stop) =
                    template_text(b, i, Literal::Heredoc, &mut depth, max, &mut stack)?;
                i = at;
                match stop {
                    Stop::Sequence => continue,
                    Stop::End => break,
                    _ => {
                        if c_at(b, i) == b'\n' {
                            if let Some(Mode::Heredoc { line_start, .. }) = stack.last_mut() {
                                *line_start = true;
                            }
                        }
                    }
                }
            }
            Mode::Bare => {
                let (at, stop) = template_text(b, i, Literal::Bare, &mut depth, max, &mut stack)?;
                i = at;
                match stop {
                    Stop::End => break,
                    _ => continue,
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
        .find(|&k| !b.get(k).is_some_and(|&c| scan::is_ident_byte(c)))
        .unwrap_or(b.len());
    match b.get(i..word_end) {
        Some(b"if" | b"for") => depth + 1,
        Some(b"endif" | b"endfor") => depth.saturating_sub(1),
        _ => depth,
    }
}

/// The bytes that matter in code (anything else cannot change the
/// state).
static CODE: [bool; 256] = scan::byte_set(b"#/\"<([{)]}?,\n", false);

/// The byte at `i`, or 0 past the end.
fn c_at(b: &[u8], i: usize) -> u8 {
    b.get(i).copied().unwrap_or(0)
}
