//! The layout rules of the reference formatter (`hclwrite.Format`), on
//! the token view: only the spaces before each token change.
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

use crate::tokens::{Token, TokenKind as K};
use std::ops::Range;

/// A token the formatter places: its kind, bytes, and the spaces written
/// before it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Placed {
    pub kind: K,
    pub start: usize,
    pub end: usize,
    pub spaces: usize,
}

/// Index ranges into the placed tokens.
#[derive(Debug, Default, Clone)]
struct Line {
    lead: Range<usize>,
    assign: Option<Range<usize>>,
    comment: Option<usize>,
}

/// Formats `src`, cut into `tokens` by [`crate::tokens::lex`]. Output
/// longer than `max_len` is not built: `Err` holds the offset in `src` of
/// the token that would pass the limit.
pub(crate) fn format_tokens(
    src: &[u8],
    tokens: &[Token],
    max_len: usize,
) -> Result<Vec<u8>, usize> {
    let (mut placed, trailing) = place(tokens);
    let lines = lines(src, &placed);
    indent(&lines, &mut placed);
    space(&lines, src, &mut placed);
    align(&lines, src, &mut placed);

    write(src, &placed, trailing, max_len)
}

/// Builds the output: each token with its spaces before it. Where the
/// spaces are the ones the source already has (a formatted stretch), the
/// source is copied in one piece. Output longer than `max_len` is not
/// built: `Err` holds the offset of the token that would pass the limit
/// (alignment can ask for as many spaces as the longest line on each of
/// many lines).
fn write(src: &[u8], placed: &[Placed], trailing: usize, max_len: usize) -> Result<Vec<u8>, usize> {
    let mut out = Vec::with_capacity(src.len().min(max_len) + 64);
    // The source bytes from `run` to `end` are the output's next bytes.
    let (mut run, mut end) = (0, 0);
    let mut len: usize = 0;
    for t in placed {
        len = len.saturating_add(t.spaces + (t.end - t.start));
        if len > max_len {
            return Err(t.start);
        }
        let gap = src.get(end..t.start).unwrap_or_default();
        if gap.len() != t.spaces || gap.iter().any(|&b| b != b' ') {
            out.extend_from_slice(src.get(run..end).unwrap_or_default());
            out.resize(out.len() + t.spaces, b' ');
            run = t.start;
        }
        end = t.end;
    }
    out.extend_from_slice(src.get(run..end).unwrap_or_default());
    if len.saturating_add(trailing) > max_len {
        return Err(src.len());
    }
    out.resize(out.len() + trailing, b' ');
    Ok(out)
}

/// The tokens the reference scanner emits, each with the number of
/// skipped bytes (spaces, tabs, a byte order mark) before it; and the
/// number of skipped bytes at the end of the input, which the reference
/// keeps as spaces.
fn place(tokens: &[Token]) -> (Vec<Placed>, usize) {
    let mut placed = Vec::with_capacity(tokens.len());
    let mut skipped = 0;
    for t in tokens {
        if t.kind.is_trivia() {
            skipped += t.span.len();
        } else {
            placed.push(Placed {
                kind: t.kind,
                start: t.span.start(),
                end: t.span.end(),
                spaces: skipped,
            });
            skipped = 0;
        }
    }
    (placed, skipped)
}

fn ends_line(src: &[u8], t: &Placed) -> bool {
    match t.kind {
        K::Newline => true,
        K::Comment => t.end > t.start && src.get(t.end - 1) == Some(&b'\n'),
        _ => false,
    }
}

fn lines(src: &[u8], placed: &[Placed]) -> Vec<Line> {
    let mut lines = Vec::new();
    let mut start = 0;
    for (i, t) in placed.iter().enumerate() {
        if ends_line(src, t) {
            lines.push(split_cells(placed, start..i + 1));
            start = i + 1;
        }
    }
    if start < placed.len() {
        lines.push(split_cells(placed, start..placed.len()));
    }
    lines
}

fn split_cells(placed: &[Placed], mut lead: Range<usize>) -> Line {
    let kind = |i: usize| kind(placed, i);
    let mut comment = None;
    if lead.len() > 1 && kind(lead.end - 1) == K::Comment {
        comment = Some(lead.end - 1);
        lead.end -= 1;
    }
    let mut assign = None;
    if let Some(eq) = lead.clone().skip(1).find(|&i| kind(i) == K::Equal) {
        let net: i64 = (eq..lead.end)
            .map(|i| i64::from(kind(i).bracket_change()))
            .sum();
        if net == 0 {
            assign = Some(eq..lead.end);
            lead.end = eq;
        }
    }
    Line {
        lead,
        assign,
        comment,
    }
}

fn indent(lines: &[Line], placed: &mut [Placed]) {
    // i64: a line's bracket count cannot overflow, whatever its length.
    let mut levels: Vec<i64> = Vec::new();
    for line in lines {
        let Some(first) = placed
            .get(line.lead.start)
            .filter(|_| !line.lead.is_empty())
        else {
            continue;
        };
        if first.kind == K::Newline {
            set_spaces(placed, line.lead.start, 0);
            continue;
        }
        let mut net: i64 = 0;
        for t in cell(placed, line.lead.clone()) {
            net += i64::from(t.kind.bracket_change());
            if t.kind == K::OHeredoc {
                break;
            }
        }
        if let Some(assign) = &line.assign {
            net += cell(placed, assign.clone())
                .iter()
                .map(|t| i64::from(t.kind.bracket_change()))
                .sum::<i64>();
        }
        let depth = levels.len();
        if net > 0 {
            levels.push(net);
        } else if net < 0 {
            let mut closed = -net;
            while closed > 0 {
                let Some(top) = levels.last_mut() else { break };
                if closed >= *top {
                    closed -= *top;
                    levels.pop();
                } else {
                    *top -= closed;
                    closed = 0;
                }
            }
        }
        let depth = if net > 0 { depth } else { levels.len() };
        set_spaces(placed, line.lead.start, 2 * depth);
    }
}

fn space(lines: &[Line], src: &[u8], placed: &mut [Placed]) {
    for line in lines {
        space_cell(line.lead.clone(), false, src, placed);
        if let Some(assign) = &line.assign {
            space_cell(assign.clone(), true, src, placed);
        }
    }
}

/// Sets the spaces between the tokens of one cell; an assignment cell
/// also gets one space before its `=`.
fn space_cell(range: Range<usize>, assign: bool, src: &[u8], placed: &mut [Placed]) {
    if assign {
        set_spaces(placed, range.start, 1);
    }
    for i in range.start..range.end.saturating_sub(1) {
        let before = (i > range.start).then(|| kind(placed, i - 1));
        let Some(&subject) = placed.get(i) else { break };
        let after = kind(placed, i + 1);
        let is_in = subject.kind == K::Ident && src.get(subject.start..subject.end) == Some(b"in");
        set_spaces(
            placed,
            i + 1,
            usize::from(space_after(subject.kind, is_in, before, after)),
        );
    }
}

/// Whether a space goes between `subject` and `after`; `before` is the
/// token before `subject` in its cell, if any.
fn space_after(subject: K, subject_is_in: bool, before: Option<K>, after: K) -> bool {
    let is_literal = |k: K| matches!(k, K::QuotedLit | K::StringLit);
    match (subject, after) {
        (_, K::Newline) => false,
        (K::Ident, K::OParen) => false,
        (K::Dot, _) | (_, K::Dot) => false,
        (K::DoubleColon, _) | (_, K::DoubleColon) => false,
        (_, K::Comma | K::Ellipsis) => false,
        (K::Comma, _) => true,
        (K::OQuote | K::OHeredoc, _) | (_, K::CQuote | K::CHeredoc) => false,
        _ if is_literal(subject) || is_literal(after) => false,
        // `[for x in [a]: x]`: `in` is a keyword, not a name to index.
        _ if subject_is_in && before == Some(K::Ident) => true,
        (K::Ident | K::NumberLit, K::OBrack) => false,
        (_, K::OBrack) if subject.bracket_change() < 0 => false,
        (K::Bang, _) => false,
        (K::Minus, _) => !matches!(
            before,
            None | Some(
                K::OParen
                    | K::OBrace
                    | K::OBrack
                    | K::Equal
                    | K::Colon
                    | K::Comma
                    | K::Question
                    | K::Plus
                    | K::Star
                    | K::Slash
                    | K::Percent
                    | K::Minus
                    | K::EqualOp
                    | K::NotEqual
                    | K::GreaterThan
                    | K::GreaterThanEq
                    | K::LessThan
                    | K::LessThanEq
                    | K::And
                    | K::Or
                    | K::Bang
            )
        ),
        (K::OBrace, K::CBrace) => false,
        (K::OBrace, _) | (_, K::CBrace) => true,
        (K::TemplateInterp | K::TemplateControl, K::OBrace) => true,
        (K::CBrace, K::TemplateSeqEnd) => true,
        (K::TemplateSeqEnd, K::TemplateInterp | K::TemplateControl) => false,
        _ if subject.bracket_change() > 0 => false,
        _ if after.bracket_change() < 0 => false,
        _ => true,
    }
}

/// Width of the tokens of `range`, with their spaces, in grapheme
/// clusters.
fn columns(range: Range<usize>, src: &[u8], placed: &[Placed]) -> usize {
    cell(placed, range)
        .iter()
        .map(|t| t.spaces + graphemes(src.get(t.start..t.end).unwrap_or_default()))
        .sum()
}

fn graphemes(bytes: &[u8]) -> usize {
    if bytes.is_ascii() && !bytes.contains(&b'\r') {
        return bytes.len();
    }
    let text = String::from_utf8_lossy(bytes);
    unicode_segmentation::UnicodeSegmentation::graphemes(text.as_ref(), true).count()
}

fn align(lines: &[Line], src: &[u8], placed: &mut [Placed]) {
    // The `=` signs first: they move the comments after them.
    let widths: Vec<Option<usize>> = lines
        .iter()
        .map(|l| {
            l.assign
                .as_ref()
                .map(|_| columns(l.lead.clone(), src, placed))
        })
        .collect();
    for_each_run(&widths, |run, widest| {
        for (line, width) in lines
            .get(run.clone())
            .unwrap_or_default()
            .iter()
            .zip(widths.get(run).unwrap_or_default())
        {
            if let (Some(assign), Some(width)) = (&line.assign, width) {
                set_spaces(placed, assign.start, widest - width + 1);
            }
        }
    });
    let widths: Vec<Option<usize>> = lines
        .iter()
        .map(|l| {
            l.comment.map(|_| {
                columns(l.lead.clone(), src, placed)
                    + l.assign.clone().map_or(0, |a| columns(a, src, placed))
            })
        })
        .collect();
    for_each_run(&widths, |run, widest| {
        for (line, width) in lines
            .get(run.clone())
            .unwrap_or_default()
            .iter()
            .zip(widths.get(run).unwrap_or_default())
        {
            if let (Some(comment), Some(width)) = (line.comment, width) {
                set_spaces(placed, comment, widest - width + 1);
            }
        }
    });
}

/// Calls `f` with each run of consecutive `Some` widths and the widest of
/// the run.
fn for_each_run(widths: &[Option<usize>], mut f: impl FnMut(Range<usize>, usize)) {
    let mut i = 0;
    while let Some(width) = widths.get(i) {
        if width.is_none() {
            i += 1;
            continue;
        }
        let start = i;
        let mut widest = 0;
        while let Some(Some(w)) = widths.get(i) {
            widest = widest.max(*w);
            i += 1;
        }
        f(start..i, widest);
    }
}

/// The tokens of `range` (none if it is out of bounds, which the callers
/// never ask for).
fn cell(placed: &[Placed], range: Range<usize>) -> &[Placed] {
    placed.get(range).unwrap_or_default()
}

fn kind(placed: &[Placed], i: usize) -> K {
    placed.get(i).map_or(K::Invalid, |t| t.kind)
}

fn set_spaces(placed: &mut [Placed], i: usize, spaces: usize) {
    if let Some(t) = placed.get_mut(i) {
        t.spaces = spaces;
    }
}
