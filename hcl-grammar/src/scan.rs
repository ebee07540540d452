//! The lexical rules of the native syntax, defined once: newlines,
//! comments, template literals (escapes, `$${`, `${` / `%{`), heredoc
//! openers and closers, identifiers and numbers.
//!
//! Each rule is a function from the bytes and an offset to where the
//! construct ends; none allocates, recurses or panics, and each looks at
//! every byte once. They are what the fast parser (`parser::fast`), the
//! pre-scan (`parser::prescan`), the error context (`parser::error`) and
//! the formatter's token stream ([`crate::tokens`]) are built on. The
//! grammar (`hcl.pest`) states the same rules for the pest route; the
//! rule each function follows is named in its documentation, and
//! `tests/fast_vs_pest.rs` (with its fuzz target) proves the trees of the
//! two routes equal.
//!
//! Two rules have a second, wider form for the token stream, which follows
//! the reference scanner's tokens rather than the grammar: identifiers and
//! heredoc markers of Unicode letters ([`xid_ident_end`], UAX #31 as
//! [`crate::ident`] defines it) and number tokens ([`number_token_end`]).

use crate::ident::{is_id_continue, is_id_start};
use std::ops::Range;

/// `nl_raw`: the length of the newline at `at`: 1 for `\n`, 2 for `\r\n`,
/// 0 for anything else (a lone `\r` is not a newline).
#[inline]
pub(crate) fn newline_len(b: &[u8], at: usize) -> usize {
    match b.get(at) {
        Some(b'\n') => 1,
        Some(b'\r') if b.get(at + 1) == Some(&b'\n') => 2,
        _ => 0,
    }
}

/// A comment's kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Comment {
    /// `#` or `//`, to the end of the line.
    Line,
    /// `/* ... */`.
    Inline,
}

/// The comment that starts at `at`, if any.
#[inline]
pub(crate) fn comment_at(b: &[u8], at: usize) -> Option<Comment> {
    match (b.get(at), b.get(at + 1)) {
        (Some(b'#'), _) | (Some(b'/'), Some(b'/')) => Some(Comment::Line),
        (Some(b'/'), Some(b'*')) => Some(Comment::Inline),
        _ => None,
    }
}

/// `line_comment`, at its `#` or `//`: where its text ends, before the
/// newline (`\n` or `\r\n`) that ends it, or at the end of the input.
#[inline]
pub(crate) fn line_comment_end(b: &[u8], at: usize) -> usize {
    match find_byte(b, at, b'\n') {
        Some(nl) if nl > at && b.get(nl - 1) == Some(&b'\r') => nl - 1,
        Some(nl) => nl,
        None => b.len(),
    }
}

/// `inline_comment`, at its `/*`: the offset after its `*/`, or `None`
/// when it is not closed.
#[inline]
pub(crate) fn inline_comment_end(b: &[u8], at: usize) -> Option<usize> {
    let from = at + 2;
    b.get(from..)?
        .windows(2)
        .position(|w| w == b"*/")
        .map(|k| from + k + 2)
}

/// The end of the comment at `at` (of either kind; an unclosed `/*` runs
/// to the end), or `None` when no comment starts there.
pub(crate) fn comment_end(b: &[u8], at: usize) -> Option<usize> {
    Some(match comment_at(b, at)? {
        Comment::Line => line_comment_end(b, at),
        Comment::Inline => inline_comment_end(b, at).unwrap_or(b.len()),
    })
}

/// The kind of a template's literal text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Literal {
    /// `quoted_literal`: inside `"..."`, with `\` escapes, ended by `"` and
    /// by newlines.
    Quoted,
    /// `heredoc_literal`, one line of it: ended by newlines.
    Heredoc,
    /// `template_literal` of a standalone template: newlines are text.
    Bare,
}

/// Where a run of template literal text stops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stop {
    /// At a `${` or `%{` (see [`sequence_at`]).
    Sequence,
    /// At the `"` that closes a quoted template.
    Quote,
    /// At a `\n` or `\r` (a quoted or heredoc literal).
    Newline,
    /// At a `\` before a newline or the end of the input (quoted only).
    BadEscape,
    /// At bytes that are not UTF-8 (only when asked to check).
    BadUtf8,
    /// At the end of the input.
    End,
}

/// The bytes that may stop literal text of each kind (anything else is
/// text): the first byte of `${`, `%{`, `$${`, `%%{`, and of newlines,
/// quotes and escapes where they matter; with `_UTF8`, non-ASCII bytes
/// too (to check them).
static QUOTED: [bool; 256] = byte_set(b"\"\\$%\n\r", false);
static HEREDOC: [bool; 256] = byte_set(b"$%\n\r", false);
static BARE: [bool; 256] = byte_set(b"$%", false);
static QUOTED_UTF8: [bool; 256] = byte_set(b"\"\\$%\n\r", true);
static HEREDOC_UTF8: [bool; 256] = byte_set(b"$%\n\r", true);
static BARE_UTF8: [bool; 256] = byte_set(b"$%", true);

/// Template literal text of `kind` from `at`: where it stops, and why.
/// `$${` and `%%{` are escapes (text), and in a quoted literal so is `\`
/// with the character after it. With `check_utf8` (input that may not be
/// UTF-8), the text also stops before bytes that are not UTF-8, and
/// before a `\` whose next character is not.
#[inline]
pub(crate) fn literal_end(b: &[u8], at: usize, kind: Literal, check_utf8: bool) -> (usize, Stop) {
    let (end, stop, _) = literal_end_plain(b, at, kind, check_utf8);
    (end, stop)
}

/// [`literal_end`], and whether the text up to the stop is plain: no `\`,
/// `$` or `%` in it, so that it decodes to itself (the fast path then
/// skips the string decoder's own scan for them).
#[inline]
pub(crate) fn literal_end_plain(
    b: &[u8],
    at: usize,
    kind: Literal,
    check_utf8: bool,
) -> (usize, Stop, bool) {
    let table = match (kind, check_utf8) {
        (Literal::Quoted, false) => &QUOTED,
        (Literal::Heredoc, false) => &HEREDOC,
        (Literal::Bare, false) => &BARE,
        (Literal::Quoted, true) => &QUOTED_UTF8,
        (Literal::Heredoc, true) => &HEREDOC_UTF8,
        (Literal::Bare, true) => &BARE_UTF8,
    };
    let mut p = at;
    let mut plain = true;
    loop {
        // A byte indexes a 256-entry table: always in bounds.
        #[allow(clippy::indexing_slicing)]
        while b.get(p).is_some_and(|&c| !table[c as usize]) {
            p += 1;
        }
        let Some(&c) = b.get(p) else {
            return (p, Stop::End, plain);
        };
        match c {
            b'$' | b'%' => {
                match b.get(p + 1) {
                    Some(b'{') => return (p, Stop::Sequence, plain),
                    Some(&d) if d == c && b.get(p + 2) == Some(&b'{') => p += 3,
                    _ => p += 1,
                }
                plain = false;
            }
            b'"' if kind == Literal::Quoted => return (p, Stop::Quote, plain),
            b'\\' if kind == Literal::Quoted => {
                match b.get(p + 1) {
                    None | Some(b'\n' | b'\r') => return (p, Stop::BadEscape, plain),
                    Some(_) if !check_utf8 => p += 2,
                    Some(_) => match char_at(b, p + 1) {
                        Some((_, len)) => p += 1 + len,
                        None => return (p, Stop::BadUtf8, plain),
                    },
                }
                plain = false;
            }
            b'\n' | b'\r' if kind != Literal::Bare => return (p, Stop::Newline, plain),
            _ if c >= 0x80 && check_utf8 => match char_at(b, p) {
                Some((_, len)) => p += len,
                None => return (p, Stop::BadUtf8, plain),
            },
            _ => p += 1,
        }
    }
}

/// A template sequence's opener.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Sequence {
    /// `${`: an interpolation.
    Interp,
    /// `%{`: a directive.
    Control,
}

/// `interp_open` / `directive_open` at `at`: the sequence, and the offset
/// after it and its optional `~` strip marker.
#[inline]
pub(crate) fn sequence_at(b: &[u8], at: usize) -> Option<(Sequence, usize)> {
    let kind = match (b.get(at), b.get(at + 1)) {
        (Some(b'$'), Some(b'{')) => Sequence::Interp,
        (Some(b'%'), Some(b'{')) => Sequence::Control,
        _ => return None,
    };
    Some((kind, at + 2 + usize::from(b.get(at + 2) == Some(&b'~'))))
}

/// Which identifiers a rule reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Ident {
    /// The grammar's `identifier`: ASCII letters, digits, `_` and `-`, and
    /// any non-ASCII character (which the lowering checks against UAX #31).
    Grammar,
    /// The reference scanner's: UAX #31 ([`xid_ident_end`]).
    Xid,
}

/// `ident_start`, for one byte: an ASCII letter, `_`, or the first byte of
/// a non-ASCII character.
#[inline]
pub(crate) const fn is_ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_' || c >= 0x80
}

/// The ASCII bytes of [`is_ident_start`] (letters, `_`), as a table.
pub(crate) static ASCII_IDENT_START: [bool; 256] = ascii_table(false);

/// `ident_char`, for one byte: an ASCII letter, digit, `_`, `-`, or a byte
/// of a non-ASCII character.
#[inline]
pub(crate) const fn is_ident_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'-' || c >= 0x80
}

/// The ASCII bytes of [`is_ident_byte`] (letters, digits, `_`, `-`), as a
/// table: for loops that stop at the first byte that is not one (a
/// non-ASCII byte is for the caller to look at).
pub(crate) static ASCII_IDENT_BYTE: [bool; 256] = ascii_table(true);

/// The ASCII bytes of [`is_ident_byte`] (`continues`) or of
/// [`is_ident_start`], as a table (the bytes from 0x80 are not in it).
const fn ascii_table(continues: bool) -> [bool; 256] {
    let mut table = [false; 256];
    let mut c = 0;
    while c < 128 {
        // `c < 128`: in bounds, and the cast is exact.
        #[allow(clippy::indexing_slicing)]
        {
            let b = c as u8;
            table[c] = if continues {
                is_ident_byte(b)
            } else {
                is_ident_start(b)
            };
        }
        c += 1;
    }
    table
}

/// The grammar's `identifier` at `at`: its end (`at` when none starts
/// there).
#[inline]
pub(crate) fn ident_end(b: &[u8], at: usize) -> usize {
    if !b.get(at).is_some_and(|&c| is_ident_start(c)) {
        return at;
    }
    let rest = b.get(at + 1..).unwrap_or_default();
    at + 1 + rest.iter().take_while(|&&c| is_ident_byte(c)).count()
}

/// An identifier of UAX #31 at `at` (the reference scanner's token, and
/// [`crate::is_identifier`]'s rule): its end (`at` when none starts there).
pub(crate) fn xid_ident_end(b: &[u8], at: usize) -> usize {
    match char_at(b, at) {
        Some((c, len)) if is_id_start(c) => {
            let mut p = at + len;
            while let Some(&c) = b.get(p) {
                let len = match c {
                    // The XID_Continue members of ASCII, and `-`, without
                    // the Unicode tables.
                    b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'_' | b'-' => 1,
                    0..=0x7F => break,
                    _ => match char_at(b, p) {
                        Some((ch, len)) if is_id_continue(ch) => len,
                        _ => break,
                    },
                };
                p += len;
            }
            p
        }
        _ => at,
    }
}

/// A heredoc's opener: `<<` or `<<-`, a marker, a newline.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct HeredocOpen {
    /// Whether it is `<<-` (indented).
    pub(crate) indented: bool,
    /// The marker's bytes.
    pub(crate) marker: Range<usize>,
    /// The offset after the newline (where the content starts).
    pub(crate) end: usize,
}

/// `heredoc_open ~ nl_raw` at the `<<` at `at`, its marker an identifier
/// of `ident`.
pub(crate) fn heredoc_open(b: &[u8], at: usize, ident: Ident) -> Option<HeredocOpen> {
    if b.get(at..at + 2) != Some(b"<<") {
        return None;
    }
    let indented = b.get(at + 2) == Some(&b'-');
    let start = at + 2 + usize::from(indented);
    let end = match ident {
        Ident::Grammar => ident_end(b, start),
        Ident::Xid => xid_ident_end(b, start),
    };
    let nl = newline_len(b, end);
    (end > start && nl > 0).then_some(HeredocOpen {
        indented,
        marker: start..end,
        end: end + nl,
    })
}

/// `heredoc_end`: whether the line at `at` closes the heredoc `marker`
/// (blanks, the marker, blanks, then a newline); the offset of that
/// newline. The blanks are the reference scanner's (Go's
/// `bytes.TrimSpace` of the line): Unicode white space other than
/// newlines, so that a line `\u{c}EOT` closes the heredoc.
pub(crate) fn heredoc_close(b: &[u8], at: usize, marker: &[u8]) -> Option<usize> {
    let skip = |mut p: usize| {
        loop {
            let len = match b.get(p) {
                Some(b' ' | b'\t') => 1,
                Some(_) => match char_at(b, p) {
                    Some((c, len)) if c.is_whitespace() && c != '\n' && c != '\r' => len,
                    _ => break,
                },
                _ => break,
            };
            p += len;
        }
        p
    };
    let p = skip(at);
    if !b.get(p..)?.starts_with(marker) {
        return None;
    }
    let p = skip(p + marker.len());
    (newline_len(b, p) > 0).then_some(p)
}

/// The grammar's number: `ASCII_DIGIT+ ("." ASCII_DIGIT+)? (("e" | "E")
/// ("+" | "-")? ASCII_DIGIT+)?` at `at` (as `numeric_lit` and
/// `legacy_index` read it): its end (`at` when no digit is there).
pub(crate) fn number_end(b: &[u8], at: usize) -> usize {
    let mut p = digits_end(b, at);
    if p == at {
        return at;
    }
    if b.get(p) == Some(&b'.') && b.get(p + 1).is_some_and(u8::is_ascii_digit) {
        p = digits_end(b, p + 1);
    }
    exponent_end(b, p)
}

/// The reference scanner's number token at the digit at `at`: a digit,
/// then digits, `.` and exponents, not ending in `.` (so `1.2.3` is one
/// token, which the grammar rejects).
pub(crate) fn number_token_end(b: &[u8], at: usize) -> usize {
    let mut p = at + 1;
    let mut end = p;
    loop {
        match b.get(p) {
            Some(b'0'..=b'9') => {
                p += 1;
                end = p;
            }
            Some(b'.') => p += 1,
            Some(b'e' | b'E') => {
                let next = exponent_end(b, p);
                if next == p {
                    break;
                }
                (p, end) = (next, next);
            }
            _ => break,
        }
    }
    end
}

/// ASCII digits from `at`: their end.
fn digits_end(b: &[u8], at: usize) -> usize {
    let rest = b.get(at..).unwrap_or_default();
    at + rest.iter().take_while(|c| c.is_ascii_digit()).count()
}

/// An exponent (`e`, an optional sign, digits) at `at`: its end (`at` when
/// there is none).
fn exponent_end(b: &[u8], at: usize) -> usize {
    if !matches!(b.get(at), Some(b'e' | b'E')) {
        return at;
    }
    let digits = at + 1 + usize::from(matches!(b.get(at + 1), Some(b'+' | b'-')));
    match digits_end(b, digits) {
        end if end > digits => end,
        _ => at,
    }
}

/// The offset of the next `byte` at or after `from`.
#[inline]
fn find_byte(b: &[u8], from: usize, byte: u8) -> Option<usize> {
    b.get(from..)?
        .iter()
        .position(|&x| x == byte)
        .map(|k| from + k)
}

/// The character starting at `at`, and its length in bytes; `None` for
/// bytes that are not UTF-8 (or the end).
pub(crate) fn char_at(b: &[u8], at: usize) -> Option<(char, usize)> {
    let first = *b.get(at)?;
    let len = match first {
        0x00..=0x7F => return Some((char::from(first), 1)),
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF7 => 4,
        _ => return None,
    };
    let c = std::str::from_utf8(b.get(at..at + len)?)
        .ok()?
        .chars()
        .next()?;
    Some((c, len))
}

/// A table of the bytes in `set`, and (`non_ascii`) of the bytes from
/// 0x80 (built at compile time: `k < set.len()`, and a byte indexes 256
/// entries).
#[allow(clippy::indexing_slicing)]
pub(crate) const fn byte_set(set: &[u8], non_ascii: bool) -> [bool; 256] {
    let mut t = [false; 256];
    let mut k = 0;
    while k < set.len() {
        t[set[k] as usize] = true;
        k += 1;
    }
    if non_ascii {
        let mut c = 0x80;
        while c < 256 {
            t[c] = true;
            c += 1;
        }
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_end_before_their_newline() {
        assert_eq!(line_comment_end(b"# a\r\nb", 0), 3);
        assert_eq!(line_comment_end(b"// a\nb", 0), 4);
        assert_eq!(line_comment_end(b"# a\r", 0), 4);
        assert_eq!(inline_comment_end(b"/* a */b", 0), Some(7));
        assert_eq!(inline_comment_end(b"/*/", 0), None);
        assert_eq!(comment_end(b"/* a", 0), Some(4));
    }

    #[test]
    fn literals_stop_where_the_grammar_says() {
        let q = |s: &str| literal_end(s.as_bytes(), 0, Literal::Quoted, true);
        assert_eq!(q(r#"a\"b"c"#), (4, Stop::Quote));
        assert_eq!(q("a$${b}${c}"), (6, Stop::Sequence));
        assert_eq!(q("a\\\nb"), (1, Stop::BadEscape));
        assert_eq!(q("a\rb"), (1, Stop::Newline));
        assert_eq!(
            literal_end(b"a\\\xffb", 0, Literal::Quoted, true),
            (1, Stop::BadUtf8)
        );
        assert_eq!(
            literal_end(b"a\n%%{b", 0, Literal::Bare, false),
            (6, Stop::End)
        );
        assert_eq!(sequence_at(b"${~x}", 0), Some((Sequence::Interp, 3)));
        assert_eq!(sequence_at(b"%{x}", 0), Some((Sequence::Control, 2)));
    }

    #[test]
    fn heredoc_markers() {
        let open = heredoc_open(b"<<-EOT\r\nx", 0, Ident::Grammar);
        assert_eq!(
            open,
            Some(HeredocOpen {
                indented: true,
                marker: 3..6,
                end: 8
            })
        );
        assert_eq!(heredoc_open(b"<<EOT x\n", 0, Ident::Grammar), None);
        assert_eq!(heredoc_close(b" EOT\t\r\n", 0, b"EOT"), Some(5));
        assert_eq!(heredoc_close(b"EOT\r", 0, b"EOT"), None);
        assert_eq!(heredoc_close(b"EOTX\n", 0, b"EOT"), None);
        let line = "\u{c}EOT\u{a0}\n".as_bytes();
        assert_eq!(heredoc_close(line, 0, b"EOT"), Some(6));
    }

    #[test]
    fn identifiers_and_numbers() {
        assert_eq!(ident_end("a-b_1 c".as_bytes(), 0), 5);
        assert_eq!(ident_end("caf\u{e9}!".as_bytes(), 0), 5);
        assert_eq!(xid_ident_end("caf\u{e9}\u{2603}".as_bytes(), 0), 5);
        assert_eq!(xid_ident_end(b"1a", 0), 0);
        assert_eq!(number_end(b"1.5e+3.", 0), 6);
        assert_eq!(number_end(b"1.e3", 0), 1);
        assert_eq!(number_token_end(b"1.2.3.", 0), 5);
        assert_eq!(number_token_end(b"1e", 0), 1);
    }
}
