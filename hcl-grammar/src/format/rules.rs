//! The layout rules of the reference formatter (`hclwrite.Format`), on
//! the token stream: only the spaces before each token change.
//!
//! 1. The tokens are cut into lines (a newline, or a `#` / `//` comment,
//!    which holds its newline, ends a line). Each line is three cells: the
//!    lead, the assignment (from an `=` after the first token to the end,
//!    if the brackets from it balance) and a trailing comment.
//! 2. Indentation: two spaces per level, levels pushed by a line's net
//!    opening brackets and popped by its net closing ones.
//! 3. Spacing between the tokens of a cell, decided by each pair of
//!    neighbours.
//! 4. Alignment: the `=` of consecutive lines with an assignment, then
//!    the trailing comments of consecutive lines with one, are aligned one
//!    column past the longest line before them (in grapheme clusters).
//!
//! One pass, as the tokens come (from the lexer, or from a list): each
//! token gets its spaces from its neighbours when it arrives (2.), a
//! line's end settles its cells and indentation (1., 3.), and a line with
//! neither an assignment nor a trailing comment ends every alignment run
//! (4.): the lines kept since are aligned and written, and their tokens
//! dropped.

use super::spacing;
use crate::tokens::{Sink, Token, TokenKind as K};

/// A token the formatter places: its kind, bytes, and the spaces written
/// before it.
#[derive(Debug, Clone, Copy)]
struct Placed {
    kind: K,
    start: usize,
    end: usize,
    spaces: usize,
    /// The spaces before it in the source, when only spaces are there
    /// (`usize::MAX` otherwise): where they are the ones it gets, the
    /// source is copied.
    gap: usize,
}

/// A line kept for alignment (it has an assignment or a trailing
/// comment): indexes into the kept tokens, and widths in grapheme
/// clusters with the spaces before each token.
#[derive(Debug, Clone, Copy)]
struct Kept {
    /// The `=` that starts the assignment, if any.
    eq: Option<usize>,
    /// The trailing comment, if any.
    comment: Option<usize>,
    /// The lead's width.
    lead: usize,
    /// The assignment's width (only counted on lines with a trailing
    /// comment), without the spaces before its `=` until it is aligned.
    assign: usize,
}

/// Formats the tokens of `src` as [`crate::tokens::lex`] cuts them. Output
/// longer than `max_len` is not built: `Err` holds the offset in `src` of
/// the token that would pass the limit.
pub(crate) fn format_src(src: &[u8], max_len: usize) -> Result<Vec<u8>, usize> {
    let mut rules = Rules::new(src, max_len);
    crate::tokens::lex_into(src, &mut rules);
    rules.finish()
}

/// [`format_src`] for tokens cut by the caller: `tokens` cover `src`, in
/// order.
pub(crate) fn format_tokens(
    src: &[u8],
    tokens: &[Token],
    max_len: usize,
) -> Result<Vec<u8>, usize> {
    let mut rules = Rules::new(src, max_len);
    for t in tokens {
        rules.token(t.kind, t.span.start(), t.span.end());
    }
    rules.finish()
}

/// The formatter's state as the tokens come.
struct Rules<'s> {
    src: &'s [u8],
    /// The tokens of the lines not written yet (the kept lines, then the
    /// current line).
    toks: Vec<Placed>,
    kept: Vec<Kept>,
    /// Where the current line starts in `toks`.
    line: usize,
    /// The current line's first `=` after its first token.
    eq: Option<usize>,
    /// The current line's bracket balance so far, and where it was at
    /// `eq`.
    net: i64,
    net_at_eq: i64,
    /// The same, counting only up to the line's first heredoc opener (the
    /// indentation's count).
    lead_net: i64,
    lead_net_at_eq: i64,
    heredoc: bool,
    /// The last token of the current line (when it has one), whether it
    /// is the keyword `in`, and the token before it, if any.
    last: K,
    last_is_in: bool,
    before: Option<K>,
    /// Bytes of skipped tokens (spaces, tabs, a byte order mark) since the
    /// last placed token, and whether they are all spaces.
    skipped: usize,
    blank_ok: bool,
    /// Indentation: the net opening brackets of each open level.
    levels: Vec<i64>,
    out: Output,
}

/// The output being written.
struct Output {
    bytes: Vec<u8>,
    max_len: usize,
    /// The length the output would have so far (saturating).
    len: usize,
    /// The source bytes from `run` to `end` are the output's next bytes.
    run: usize,
    end: usize,
    /// The offset of the token that passed `max_len`.
    too_long: Option<usize>,
}

impl Sink for Rules<'_> {
    #[inline]
    fn blank(&mut self, start: usize, end: usize, spaces_only: bool) {
        self.skipped += end - start;
        self.blank_ok &= spaces_only;
    }

    // Always: each call site of the lexer's has its kind constant, and
    // most of the work below folds away with it.
    #[inline(always)]
    fn token(&mut self, kind: K, start: usize, end: usize) {
        if kind.is_trivia() {
            // A tab or a byte order mark (`blank` takes the lexer's
            // whitespace; a caller's token list comes here).
            self.skipped += end - start;
            self.blank_ok &= kind == K::Whitespace
                && self
                    .src
                    .get(start..end)
                    .is_some_and(|b| b.iter().all(|&c| c == b' '));
            return;
        }
        let gap = if self.blank_ok {
            self.skipped
        } else {
            usize::MAX
        };
        self.skipped = 0;
        self.blank_ok = true;
        let i = self.toks.len();
        // The spaces from the token before it in the line (the line's first
        // token gets its indentation at the line's end; an `=` starting an
        // assignment and a trailing comment get theirs when aligned).
        let mut spaces = 0;
        if i > self.line {
            spaces = spacing::spaces(self.last, self.last_is_in, self.before, kind);
            self.before = Some(self.last);
        }
        self.last = kind;
        self.last_is_in = kind == K::Ident
            && end - start == 2
            && self.src.get(start..end) == Some(b"in".as_slice());
        self.toks.push(Placed {
            kind,
            start,
            end,
            spaces,
            gap,
        });
        let change = i64::from(kind.bracket_change());
        if kind == K::Equal && self.eq.is_none() && i > self.line {
            self.eq = Some(i);
            self.net_at_eq = self.net;
            self.lead_net_at_eq = self.lead_net;
        }
        self.net += change;
        if !self.heredoc {
            self.lead_net += change;
            self.heredoc = kind == K::OHeredoc;
        }
        let ends_line = match kind {
            K::Newline => true,
            K::Comment => end > start && self.src.get(end - 1) == Some(&b'\n'),
            _ => false,
        };
        if ends_line {
            self.end_line();
        }
    }
}

impl<'s> Rules<'s> {
    fn new(src: &'s [u8], max_len: usize) -> Self {
        Rules {
            src,
            toks: Vec::with_capacity(256),
            kept: Vec::with_capacity(64),
            line: 0,
            eq: None,
            net: 0,
            net_at_eq: 0,
            lead_net: 0,
            lead_net_at_eq: 0,
            heredoc: false,
            last: K::Newline,
            last_is_in: false,
            before: None,
            skipped: 0,
            blank_ok: true,
            levels: Vec::new(),
            out: Output {
                bytes: Vec::with_capacity(src.len().min(max_len) + 64),
                max_len,
                len: 0,
                run: 0,
                end: 0,
                too_long: None,
            },
        }
    }

    /// The current line (`toks[self.line..]`) is complete: its cells,
    /// indentation and widths.
    fn end_line(&mut self) {
        let (line, end) = (self.line, self.toks.len());
        if end == line {
            return;
        }
        let comment = (end - line > 1
            && self.toks.get(end - 1).map(|t| t.kind) == Some(K::Comment))
        .then_some(end - 1);
        // The assignment: its brackets balance (a trailing comment has
        // none).
        let eq = self.eq.filter(|_| self.net == self.net_at_eq);
        let net = match eq {
            Some(_) => self.lead_net_at_eq,
            None => self.lead_net,
        };
        let indent = self.indent(net);
        if let Some(first) = self.toks.get_mut(line) {
            first.spaces = if first.kind == K::Newline { 0 } else { indent };
        }
        if eq.is_none() && comment.is_none() {
            // Every alignment run ends before this line.
            self.flush();
        } else {
            let lead_end = eq.or(comment).unwrap_or(end);
            let lead = self.columns(line, lead_end);
            // The `=` is one column; the spaces before it come with the
            // alignment.
            let assign = match (eq, comment) {
                (Some(eq), Some(comment)) => 1 + self.columns(eq + 1, comment),
                _ => 0,
            };
            self.kept.push(Kept {
                eq,
                comment,
                lead,
                assign,
            });
        }
        self.line = self.toks.len();
        self.eq = None;
        (self.net, self.lead_net, self.heredoc) = (0, 0, false);
        self.before = None;
    }

    /// The indentation of a line whose lead opens `net` brackets (closes
    /// `-net`): a line that opens is indented at the level before it, one
    /// that closes at the level after.
    fn indent(&mut self, net: i64) -> usize {
        let depth = self.levels.len();
        if net > 0 {
            self.levels.push(net);
            return 2 * depth;
        }
        let mut closed = -net;
        while closed > 0 {
            let Some(top) = self.levels.last_mut() else {
                break;
            };
            if closed >= *top {
                closed -= *top;
                self.levels.pop();
            } else {
                *top -= closed;
                closed = 0;
            }
        }
        2 * self.levels.len()
    }

    /// Width of `toks[from..to]`, with their spaces, in grapheme clusters.
    fn columns(&self, from: usize, to: usize) -> usize {
        self.toks
            .get(from..to)
            .unwrap_or_default()
            .iter()
            .map(|t| t.spaces + width(t.kind, self.src.get(t.start..t.end).unwrap_or_default()))
            .sum()
    }

    /// Aligns the kept lines, writes every token held, and drops them.
    fn flush(&mut self) {
        align(&mut self.kept, &mut self.toks);
        self.out.write(self.src, &self.toks);
        self.toks.clear();
        self.kept.clear();
    }

    fn finish(mut self) -> Result<Vec<u8>, usize> {
        self.end_line();
        self.flush();
        let mut out = self.out;
        if let Some(at) = out.too_long {
            return Err(at);
        }
        out.bytes
            .extend_from_slice(self.src.get(out.run..out.end).unwrap_or_default());
        if out.len.saturating_add(self.skipped) > out.max_len {
            return Err(self.src.len());
        }
        out.bytes.resize(out.bytes.len() + self.skipped, b' ');
        Ok(out.bytes)
    }
}

impl Output {
    /// Writes `toks`, each with its spaces before it. Where the spaces
    /// are the ones the source already has (a formatted stretch), the
    /// source is copied in one piece. Past `max_len` nothing more is
    /// written (alignment can ask for as many spaces as the longest line
    /// on each of many lines).
    fn write(&mut self, src: &[u8], toks: &[Placed]) {
        if self.too_long.is_some() {
            return;
        }
        // Locals, not fields, in the loop.
        let (mut len, mut run, mut end) = (self.len, self.run, self.end);
        for t in toks {
            len = len.saturating_add(t.spaces + (t.end - t.start));
            if len > self.max_len {
                self.too_long = Some(t.start);
                return;
            }
            if t.gap != t.spaces {
                self.bytes
                    .extend_from_slice(src.get(run..end).unwrap_or_default());
                self.bytes.resize(self.bytes.len() + t.spaces, b' ');
                run = t.start;
            }
            end = t.end;
        }
        (self.len, self.run, self.end) = (len, run, end);
    }
}

/// Aligns the `=` of each run of consecutive kept lines with an
/// assignment, then the trailing comments of each run with one.
fn align(kept: &mut [Kept], toks: &mut [Placed]) {
    // The `=` signs first: they move the comments after them.
    for_each_run(
        kept,
        |k| k.eq.map(|_| k.lead),
        |k, widest| {
            let spaces = widest - k.lead + 1;
            if let Some(eq) = k.eq {
                set_spaces(toks, eq, spaces);
            }
            k.assign += spaces;
        },
    );
    for_each_run(
        kept,
        |k| k.comment.map(|_| k.lead + k.assign),
        |k, widest| {
            if let Some(comment) = k.comment {
                set_spaces(toks, comment, widest - (k.lead + k.assign) + 1);
            }
        },
    );
}

/// Calls `set` on each line of each run of consecutive lines that
/// `width` gives a width, with the widest of the run.
fn for_each_run(
    kept: &mut [Kept],
    width: impl Fn(&Kept) -> Option<usize>,
    mut set: impl FnMut(&mut Kept, usize),
) {
    let mut i = 0;
    while i < kept.len() {
        let start = i;
        let mut widest = 0;
        while let Some(w) = kept.get(i).and_then(&width) {
            widest = widest.max(w);
            i += 1;
        }
        if i == start {
            i += 1;
            continue;
        }
        for k in kept.get_mut(start..i).unwrap_or_default() {
            set(k, widest);
        }
    }
}

fn set_spaces(toks: &mut [Placed], i: usize, spaces: usize) {
    if let Some(t) = toks.get_mut(i) {
        t.spaces = spaces;
    }
}

/// The width of a token of `kind` in grapheme clusters.
fn width(kind: K, bytes: &[u8]) -> usize {
    // `\r\n` is one cluster: only these kinds can hold a `\r`.
    let cr = matches!(
        kind,
        K::Newline
            | K::Comment
            | K::OHeredoc
            | K::StringLit
            | K::QuotedNewline
            | K::Invalid
            | K::BadUtf8
    );
    if bytes.is_ascii() && !(cr && bytes.contains(&b'\r')) {
        return bytes.len();
    }
    graphemes(bytes)
}

fn graphemes(bytes: &[u8]) -> usize {
    let text = String::from_utf8_lossy(bytes);
    unicode_segmentation::UnicodeSegmentation::graphemes(text.as_ref(), true).count()
}
