//! The text of a JSON string written with escapes, decoded. A string
//! value is decoded when it is read ([`JsonDocument::str`],
//! [`JsonText::str`]), not when it is parsed: the parser only checks its
//! escapes and finds the closing quote, so a string that nobody reads (a
//! property a typed struct ignores) costs no copy, and one that is read
//! becomes its owner's `String` in one copy. A property name is decoded
//! as it is parsed, into the document, so that every name can be lent.
//!
//! [`JsonDocument::str`]: super::JsonDocument::str
//! [`JsonText::str`]: super::JsonText::str

/// The decoded text of `content`, what lies between the quotes of a
/// string the parser read (its escapes checked). Decodes as the parser
/// checks: `\uXXXX` pairs of surrogates make one character, a lone
/// surrogate U+FFFD, as in the reference. Never fails: on text the
/// parser did not check, an escape it would have refused is kept as
/// written.
pub(super) fn unescape(content: &str) -> String {
    let mut out = String::with_capacity(content.len());
    unescape_into(content, &mut out);
    out
}

/// [`unescape`], added to the end of `out`.
pub(super) fn unescape_into(content: &str, out: &mut String) {
    out.reserve(content.len());
    let bytes = content.as_bytes();
    // `from..i` is the plain text not yet copied.
    let mut from = 0;
    let mut i = 0;
    while let Some(at) = bytes.get(i..).and_then(backslash) {
        i += at;
        out.push_str(content.get(from..i).unwrap_or_default());
        match bytes.get(i + 1) {
            // An escaped `"`, `\\` or `/` is its own character: it
            // starts the next piece instead of being added alone.
            Some(b'"' | b'\\' | b'/') => {
                from = i + 1;
                i += 2;
            }
            _ => {
                let (c, len) = escape(bytes.get(i + 1..).unwrap_or_default());
                match c {
                    Some(c) => out.push(c),
                    // Not an escape: the backslash is kept as text.
                    None => out.push('\\'),
                }
                i += 1 + len;
                from = i;
            }
        }
    }
    out.push_str(content.get(from..).unwrap_or_default());
}

/// Where the first backslash of `bytes` is: eight bytes at a time (in
/// each, a byte's high bit is set by the subtraction below when it is a
/// backslash, and the lowest one set is exact).
#[inline]
fn backslash(bytes: &[u8]) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let mut chunks = bytes.chunks_exact(8);
    let mut n = 0;
    for chunk in chunks.by_ref() {
        let x = u64::from_le_bytes(chunk.try_into().unwrap_or([0; 8]));
        let b = x ^ (ONES * u64::from(b'\\'));
        let found = b.wrapping_sub(ONES) & !b & HIGHS;
        if found != 0 {
            return Some(n + (found.trailing_zeros() / 8) as usize);
        }
        n += 8;
    }
    let at = chunks.remainder().iter().position(|&b| b == b'\\')?;
    Some(n + at)
}

/// The character of the escape whose bytes after the backslash start
/// `rest`, and how many of them it takes; `None` (and 0) when it is not
/// one.
fn escape(rest: &[u8]) -> (Option<char>, usize) {
    let c = match rest.first() {
        Some(b'"') => '"',
        Some(b'\\') => '\\',
        Some(b'/') => '/',
        Some(b'b') => '\u{8}',
        Some(b'f') => '\u{c}',
        Some(b'n') => '\n',
        Some(b'r') => '\r',
        Some(b't') => '\t',
        Some(b'u') => return unicode(rest),
        _ => return (None, 0),
    };
    (Some(c), 1)
}

/// A `uXXXX` escape (`rest` starts at the `u`), with the `\uXXXX` after
/// it when the two are a surrogate pair.
fn unicode(rest: &[u8]) -> (Option<char>, usize) {
    let Some(hi) = hex4(rest.get(1..5)) else {
        return (None, 0);
    };
    if is_high_surrogate(hi) && rest.get(5..7) == Some(b"\\u") {
        if let Some(c) = hex4(rest.get(7..11)).and_then(|lo| pair(hi, lo)) {
            return (Some(c), 11);
        }
    }
    (Some(lone(hi)), 5)
}

/// The value of four hexadecimal digits (the parser's check of a `\u`
/// escape too).
pub(super) fn hex4(digits: Option<&[u8]>) -> Option<u32> {
    digits?.iter().try_fold(0u32, |acc, &b| {
        char::from(b).to_digit(16).map(|v| acc * 16 + v)
    })
}

/// Whether a `\u` escape's value is a high surrogate, which a low one
/// may follow to make one character.
pub(super) fn is_high_surrogate(v: u32) -> bool {
    (0xD800..0xDC00).contains(&v)
}

/// The character of the surrogate pair `hi`, `lo`; `None` when `lo` is
/// not a low surrogate (`hi` is then [`lone`]).
pub(super) fn pair(hi: u32, lo: u32) -> Option<char> {
    if !is_high_surrogate(hi) || !(0xDC00..0xE000).contains(&lo) {
        return None;
    }
    char::from_u32(0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00))
}

/// The character of a `\u` escape not part of a pair: U+FFFD for a lone
/// surrogate, as in the reference.
pub(super) fn lone(v: u32) -> char {
    char::from_u32(v).unwrap_or('\u{FFFD}')
}

#[cfg(test)]
mod tests {
    use super::unescape;

    /// Every escape of RFC 8259, decoded as the reference decodes it.
    #[test]
    fn decodes_each_escape() {
        assert_eq!(unescape(r#"a\"b\\c\/d"#), "a\"b\\c/d");
        assert_eq!(unescape(r"\b\f\n\r\t"), "\u{8}\u{c}\n\r\t");
        assert_eq!(unescape(r"caf\u00e9 \u00E9"), "café é");
        assert_eq!(unescape(r"\ud83d\ude00!"), "😀!");
        assert_eq!(unescape(r"x\ud83d"), "x\u{FFFD}");
        assert_eq!(unescape(r"\ude00\ud83d\u0041"), "\u{FFFD}\u{FFFD}A");
        assert_eq!(unescape("é\\n\u{1F600}"), "é\n\u{1F600}");
        assert_eq!(unescape(""), "");
        // A backslash at each place of an eight-byte word, and past it.
        for at in 0..20 {
            let (a, e) = ("a".repeat(at), "é".repeat(at));
            assert_eq!(unescape(&format!("{a}\\n{e}\\t")), format!("{a}\n{e}\t"));
        }
    }

    /// Text the parser would have refused is kept as written, without a
    /// panic.
    #[test]
    fn keeps_what_is_not_an_escape() {
        assert_eq!(unescape(r"a\qb"), r"a\qb");
        assert_eq!(unescape(r"\u12"), r"\u12");
        assert_eq!(unescape("\\"), "\\");
        assert_eq!(unescape("\\\u{e9}"), "\\\u{e9}");
    }
}
