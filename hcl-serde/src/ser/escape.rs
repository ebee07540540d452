//! How strings, keys and numbers are spelled in HCL source: the
//! serializer's fast paths, which write what `crate::quote` (shared with
//! [`Value`](crate::Value)'s `Display`) writes, checked by the tests below.

use super::tree::key;
use crate::Number;

/// A byte that [`push_quoted`] stops at: quotes, backslashes, control
/// characters, `$` and `%` (escaped before `{`), and 0xC2 (the lead byte
/// of the C1 control characters).
const SPECIAL: u8 = 1;

/// An ASCII byte that may start an identifier: a letter or `_`.
const ID_START: u8 = 2;
/// An ASCII byte that may continue an identifier: a letter, a digit, `_`
/// or `-`.
const ID_CONTINUE: u8 = 4;

/// The classes of every byte, one table lookup per byte.
// Indexes below 256 into 256 entries.
#[allow(clippy::indexing_slicing)]
const CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        if c < 0x20 || matches!(c, 0x7f | b'"' | b'\\' | b'$' | b'%' | 0xc2) {
            t[b] |= SPECIAL;
        }
        if c.is_ascii_alphabetic() || c == b'_' {
            t[b] |= ID_START | ID_CONTINUE;
        }
        if c.is_ascii_digit() || c == b'-' {
            t[b] |= ID_CONTINUE;
        }
        b += 1;
    }
    t
};

fn class(b: u8) -> u8 {
    // A `u8` indexes 256 entries: no bounds check, no panic.
    #[allow(clippy::indexing_slicing)]
    CLASS[usize::from(b)]
}

fn special(b: u8) -> bool {
    class(b) & SPECIAL != 0
}

/// The bytes of `x` that may be [`special`], each marked by its top bit:
/// every special byte, and `#` and every byte from 0x80 (a superset,
/// which [`special`] then sorts out). Each byte is tested on its own low
/// seven bits, so that no carry crosses from one byte to the next and a
/// mark is only ever on a byte that may be special.
#[inline]
fn candidates(x: u64) -> u64 {
    const LO: u64 = 0x0101_0101_0101_0101;
    let m = x & (LO * 0x7f);
    // From 0x80 (the top bit of `x`), or 0x7f (`m + 1` reaches 0x80).
    let high = x | (m + LO);
    // 0x22 to 0x25: `"`, `#`, `$`, `%` (`m` at least 0x22, not 0x26).
    let quote_dollar = (m + LO * (0x80 - 0x22)) & !(m + LO * (0x80 - 0x26));
    // Below 0x20 (`m + 0x60` stays below 0x80), or `\` (`m ^ 0x5c` is
    // zero, and so is the top bit of it plus 0x7f).
    let low_or_backslash = !((m + LO * 0x60) & ((m ^ (LO * 0x5c)) + LO * 0x7f));
    (high | quote_dollar | low_or_backslash) & (LO * 0x80)
}

/// The index of the first [`special`] byte of `buf[i..end]`, or `end`.
/// Eight bytes at a time; the last few by a word read past `end` (what
/// is there ignored) while `buf` holds it, else one at a time.
#[inline]
fn next_special(buf: &[u8], mut i: usize, end: usize) -> usize {
    let word = |i: usize| {
        buf.get(i..i + 8)
            .and_then(|w| <[u8; 8]>::try_from(w).ok())
            .map(u64::from_le_bytes)
    };
    while i + 8 <= end {
        let Some(w) = word(i) else { break };
        let marks = candidates(w);
        if marks != 0 {
            if let Some(at) = first_special(buf, i, marks) {
                return at;
            }
        }
        i += 8;
    }
    if i >= end {
        return end;
    }
    match word(i) {
        Some(w) => {
            let marks = candidates(w) & ((1u64 << (8 * (end - i).min(7))) - 1);
            first_special(buf, i, marks).unwrap_or(end)
        }
        None => {
            while i < end && buf.get(i).is_some_and(|&b| !special(b)) {
                i += 1;
            }
            i.min(end)
        }
    }
}

/// The first [`special`] byte among those [`candidates`] marked in the
/// word at `i`.
#[inline]
fn first_special(buf: &[u8], i: usize, mut marks: u64) -> Option<usize> {
    while marks != 0 {
        let at = i + (marks.trailing_zeros() / 8) as usize;
        if buf.get(at).is_some_and(|&b| special(b)) {
            return Some(at);
        }
        marks &= marks - 1;
    }
    None
}

// Names: the one rule (the grammar's identifier).
#[cfg(test)]
use crate::quote::is_bare_key;
use crate::quote::is_identifier;

/// What the writer needs to know of a key (the [`key`] bits): whether it
/// is an identifier ([`is_identifier`]; ASCII ones by this module's
/// table, checked against it by a test), an ASCII one, a word an object
/// key must quote ([`is_bare_key`](crate::quote::is_bare_key)), a
/// `$label` field.
pub(crate) fn key_flags(bytes: &[u8]) -> u8 {
    let Some((&first, rest)) = bytes.split_first() else {
        return 0;
    };
    if class(first) & ID_START != 0 {
        match rest.iter().find(|&&c| class(c) & ID_CONTINUE == 0) {
            None => {
                let reserved = matches!(bytes, b"null" | b"true" | b"false" | b"for");
                key::IDENT | key::ASCII_IDENT | if reserved { key::RESERVED } else { 0 }
            }
            Some(&c) if c < 0x80 => 0,
            // Not ASCII: the whole rule.
            Some(_) => non_ascii_key(bytes),
        }
    } else if first >= 0x80 {
        non_ascii_key(bytes)
    } else if matches!(bytes, b"$label" | b"$labels") {
        key::LABEL
    } else {
        0
    }
}

/// [`key_flags`] of a key that is not ASCII.
#[cold]
fn non_ascii_key(s: &[u8]) -> u8 {
    if std::str::from_utf8(s).is_ok_and(is_identifier) {
        key::IDENT
    } else {
        0
    }
}

/// How many bytes past a piece [`copy_range`] may read: the slack the
/// tree's text keeps after its last piece.
pub(crate) const SLACK: usize = 32;

/// Appends `buf[a..b]` to `out`. A piece of at most [`SLACK`] bytes with
/// that many bytes of `buf` from its start is copied as one fixed-size
/// block (past `b`, then cut back): a few stores, not a call to `memcpy`,
/// for the short keys and strings that most pieces are.
#[inline]
pub(crate) fn copy_range(out: &mut Vec<u8>, buf: &[u8], a: usize, b: usize) {
    if b.wrapping_sub(a) <= SLACK {
        if let Some(block) = buf
            .get(a..a + SLACK)
            .and_then(|s| <&[u8; SLACK]>::try_from(s).ok())
        {
            let end = out.len() + (b - a);
            out.extend_from_slice(block);
            out.truncate(end);
            return;
        }
    }
    out.extend_from_slice(buf.get(a..b).unwrap_or_default());
}

/// Appends `s` (UTF-8) quoted, as [`crate::quote::write_quoted`] writes
/// it (the same escapes), copying the runs between escapes whole: the
/// output is UTF-8 too.
pub(crate) fn push_quoted(out: &mut Vec<u8>, s: &[u8]) {
    push_quoted_range(out, s, 0, s.len());
}

/// [`push_quoted`] of `buf[a..b]`, whose runs may be copied by
/// [`copy_range`] (reading past `b`).
pub(crate) fn push_quoted_range(out: &mut Vec<u8>, buf: &[u8], a: usize, end: usize) {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    let Some(bytes) = buf.get(..end).filter(|_| a <= end) else {
        out.extend_from_slice(b"\"\"");
        return;
    };
    out.reserve(end - a + 2);
    out.push(b'"');
    // `run` is where the bytes not yet copied start; every escape below
    // is at an ASCII byte or at the lead byte of a two-byte character, so
    // both ends of each copied run are character boundaries.
    let mut run = a;
    let mut i = a;
    loop {
        i = next_special(buf, i, end);
        let Some(&b) = bytes.get(i) else { break };
        let (escape, len): (&[u8], usize) = match b {
            b'"' => (b"\\\"", 1),
            b'\\' => (b"\\\\", 1),
            b'\n' => (b"\\n", 1),
            b'\r' => (b"\\r", 1),
            b'\t' => (b"\\t", 1),
            b'$' if bytes.get(i + 1) == Some(&b'{') => (b"$$", 1),
            b'%' if bytes.get(i + 1) == Some(&b'{') => (b"%%", 1),
            // Other control characters, C0, DEL and C1 (`char::is_control`).
            0..=0x1f | 0x7f => (b"", 1),
            0xc2 if matches!(bytes.get(i + 1), Some(0x80..=0x9f)) => (b"", 2),
            _ => {
                i += 1;
                continue;
            }
        };
        copy_range(out, buf, run, i);
        if escape.is_empty() {
            // `\u00XX`: the code point is the byte itself, or the second
            // byte of a C1 character.
            let code = if len == 2 {
                bytes.get(i + 1).copied().unwrap_or(0)
            } else {
                b
            };
            out.extend_from_slice(b"\\u00");
            for nibble in [code >> 4, code & 0xf] {
                out.push(HEX.get(usize::from(nibble)).copied().unwrap_or(b'0'));
            }
        } else {
            out.extend_from_slice(escape);
        }
        i += len;
        run = i;
    }
    copy_range(out, buf, run, end);
    out.push(b'"');
}

/// The literal that writes `n` exactly, or `None` for an infinity (HCL
/// has no literal for it). A decimal is written as its exact digits.
/// A big binary float is written as its shortest decimal text that reads
/// back as the same number (Go's `Text('f', -1)`, as `Display` prints it),
/// with an exponent when the plain text would carry more than a few
/// leading or trailing zeros (`1e-400`, not four hundred zeros).
pub(crate) fn number_literal(n: &Number) -> Option<String> {
    if n.is_infinite() {
        return None;
    }
    let exact = n.to_exact_text();
    if exact
        .bytes()
        .all(|b| b.is_ascii_digit() || b == b'.' || b == b'-')
    {
        return Some(exact);
    }
    Some(scientific(&n.to_string()))
}

/// Rewrites a plain decimal text (`-0.000123`, `1200000`) with an exponent
/// when that is shorter by more than a few characters; the value is
/// unchanged, digit for digit.
fn scientific(plain: &str) -> String {
    let (sign, body) = match plain.strip_prefix('-') {
        Some(rest) => ("-", rest),
        None => ("", plain),
    };
    let (int, frac) = body.split_once('.').unwrap_or((body, ""));
    let digits: String = int.chars().chain(frac.chars()).collect();
    let Some(first) = digits.find(|c: char| c != '0') else {
        return plain.to_owned();
    };
    let significant = digits
        .get(first..)
        .unwrap_or_default()
        .trim_end_matches('0');
    // The exponent of the first significant digit.
    let exp = int.len() as i64 - 1 - first as i64;
    let mantissa = match significant.split_at(1) {
        (lead, "") => lead.to_owned(),
        (lead, rest) => format!("{lead}.{rest}"),
    };
    let sci = format!("{sign}{mantissa}e{exp}");
    if sci.len() + 4 < plain.len() {
        sci
    } else {
        plain.to_owned()
    }
}

/// The literal of a binary float: Rust's shortest text that reads back as
/// the same float, with an exponent when the plain form would be long.
pub(crate) fn float_literal(f: f64, plain: String, exp: String) -> String {
    if f == 0.0 && f.is_sign_negative() {
        return "-0".to_owned();
    }
    if plain.len() <= 24 {
        plain
    } else {
        exp
    }
}

#[cfg(test)]
mod tests {
    use super::{
        candidates, next_special, number_literal, push_quoted, push_quoted_range, scientific,
        special,
    };
    use crate::Number;

    /// What [`candidates`] marks in a byte: the special ones, `#`, and
    /// every byte from 0x80.
    fn marked(b: u8) -> bool {
        special(b) || b == b'#' || b >= 0x80
    }

    #[test]
    fn candidates_marks_each_byte_on_its_own() {
        // Every pair of bytes, in every pattern of a word: each byte's mark
        // is its own, whatever its neighbours (no carry crosses).
        for a in 0..=255u8 {
            for b in 0..=255u8 {
                for pattern in [0b0101_0101u8, 0b1100_1010, 0b0000_0001, 0b1000_0000] {
                    let w: [u8; 8] =
                        std::array::from_fn(|k| if pattern >> k & 1 == 1 { a } else { b });
                    let marks = candidates(u64::from_le_bytes(w));
                    for (k, &c) in w.iter().enumerate() {
                        assert_eq!(
                            marks >> (8 * k) & 0xff,
                            if marked(c) { 0x80 } else { 0 },
                            "{w:?}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn next_special_is_the_first_special_byte() {
        let bytes = [b'a', b'#', b'"', 0xc2, 0x85, 0xe9, b'$', 0, b' ', 0x7f];
        // Every string of up to 12 bytes from the ones above at two places,
        // inside buffers with and without room to read past the end.
        for len in 0..=12 {
            for x in bytes {
                for y in bytes {
                    for at in 0..len.max(1) {
                        let mut buf = vec![b'z'; len];
                        if let Some(c) = buf.get_mut(at) {
                            *c = x;
                        }
                        if let Some(c) = buf.get_mut(len.saturating_sub(1)) {
                            *c = y;
                        }
                        let want = buf.iter().position(|&c| special(c)).unwrap_or(len);
                        assert_eq!(next_special(&buf, 0, len), want, "{buf:?}");
                        // Room past the end, holding special bytes.
                        let mut wide = buf.clone();
                        wide.extend_from_slice(&[b'"'; 16]);
                        assert_eq!(next_special(&wide, 0, len), want, "{buf:?}");
                        for from in 0..=len {
                            let want = (from..len)
                                .find(|&k| buf.get(k).is_some_and(|&c| special(c)))
                                .unwrap_or(len);
                            assert_eq!(next_special(&wide, from, len), want, "{buf:?} {from}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn push_quoted_range_reads_only_its_range() {
        let buf = b"\"ab\"cd$\n\"{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{";
        for a in 0..8 {
            for b in a..12 {
                let mut ours = Vec::new();
                push_quoted_range(&mut ours, buf, a, b);
                let mut alone = Vec::new();
                push_quoted(&mut alone, buf.get(a..b).unwrap_or_default());
                assert_eq!(ours, alone, "{a}..{b}");
            }
        }
    }

    #[test]
    fn push_quoted_is_write_quoted() {
        for s in [
            "",
            "plain",
            "a\"b\\c\nd\re\tf",
            "${x} %{y} $ % ${ %{ $${ $",
            "\u{0}\u{1f}\u{7f}\u{80}\u{9f}\u{a0}é€😀",
            "end$",
            "\u{9f}${",
            "a long plain string, without any escape in it",
            "0123456789abcdef\"0123456789abcdef\\0123",
            "a long text then ${x} at 17, then %{ if } and $$ and %",
            "xxxxxxxx\u{85}yyyyyyyy\u{a0}zzzzzzz\u{7f}",
            "abcdefg$",
            "abcdefgh${",
            "éééééééé\u{9f}\u{c2}",
        ] {
            let mut ours = Vec::new();
            push_quoted(&mut ours, s.as_bytes());
            let mut theirs = String::new();
            assert!(crate::quote::write_quoted(&mut theirs, s).is_ok());
            assert_eq!(ours, theirs.as_bytes(), "{s:?}");
        }
    }

    #[test]
    fn key_flags_are_the_rules() {
        use super::super::tree::key;
        use super::{is_bare_key, is_identifier, key_flags};
        let pieces = [
            "a", "Z", "_", "-", "0", "9", " ", ".", "$", "\u{e9}", "\u{301}", "\u{7f}", "\u{80}",
            "null", "true", "false", "for", "in", "label", "$label", "$labels", "s",
        ];
        let mut keys = vec![String::new()];
        for a in pieces {
            keys.push(a.to_owned());
            for b in pieces {
                keys.push(format!("{a}{b}"));
                for c in pieces {
                    keys.push(format!("{a}{b}{c}"));
                }
            }
        }
        for k in &keys {
            let f = key_flags(k.as_bytes());
            assert_eq!(f & key::IDENT != 0, is_identifier(k), "{k:?}");
            assert_eq!(
                f & key::ASCII_IDENT != 0,
                is_identifier(k) && k.is_ascii(),
                "{k:?}"
            );
            assert_eq!(
                f & key::IDENT != 0 && f & key::RESERVED == 0,
                is_bare_key(k),
                "{k:?}"
            );
            assert_eq!(
                f & key::LABEL != 0,
                k == "$label" || k == "$labels",
                "{k:?}"
            );
        }
    }

    #[test]
    fn scientific_keeps_every_digit() {
        assert_eq!(scientific("0.000000000000123"), "1.23e-13");
        assert_eq!(scientific("-1200000000000000000000"), "-1.2e21");
        assert_eq!(scientific("123.25"), "123.25");
        assert_eq!(scientific("0"), "0");
    }

    #[test]
    fn big_binary_floats_read_back_as_themselves() {
        for text in [
            "1e-400",
            "1e400",
            "-2.5e-300",
            "340282366920938463463374607431768211456",
            "0.1e-30",
        ] {
            let Some(n) = Number::parse(text) else {
                panic!("{text} parses");
            };
            let Some(lit) = number_literal(&n) else {
                panic!("{text} is finite");
            };
            assert!(!lit.contains(':'), "{text}: {lit}");
            assert_eq!(Number::parse(&lit).as_ref(), Some(&n), "{text}: {lit}");
        }
        assert_eq!(number_literal(&Number::INFINITY), None);
    }
}
