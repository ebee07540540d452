//! How strings, keys and numbers are spelled in HCL source: the
//! serializer's fast paths, which write what `crate::quote` (shared with
//! [`Value`](crate::Value)'s `Display`) writes, checked by the tests below.

use crate::Number;

/// A byte that [`push_quoted`] stops at: quotes, backslashes, control
/// characters, `$` and `%` (escaped before `{`), and 0xC2 (the lead byte
/// of the C1 control characters).
const SPECIAL: u8 = 1;

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

/// Whether any of the eight bytes of `x` is [`special`]: the bit tricks
/// of "find a byte in a word" (each test is exact for the word as a
/// whole: a borrow only crosses from a byte that matched).
fn any_special(x: u64) -> bool {
    const LO: u64 = 0x0101_0101_0101_0101;
    const HI: u64 = 0x8080_8080_8080_8080;
    let zero = |v: u64| v.wrapping_sub(LO) & !v & HI;
    let below_space = x.wrapping_sub(LO * 0x20) & !x & HI;
    below_space
        | zero(x ^ (LO * 0x7f))
        | zero(x ^ (LO * u64::from(b'"')))
        | zero(x ^ (LO * u64::from(b'\\')))
        // `$` (0x24) and `%` (0x25) at once.
        | zero((x & (LO * 0xfe)) ^ (LO * 0x24))
        | zero(x ^ (LO * 0xc2))
        != 0
}

/// The index of the first [`special`] byte from `i` on, or the length.
fn next_special(bytes: &[u8], mut i: usize) -> usize {
    while let Some(word) = bytes.get(i..i + 8) {
        let word = <[u8; 8]>::try_from(word).map_or(0, u64::from_le_bytes);
        if any_special(word) {
            break;
        }
        i += 8;
    }
    while bytes.get(i).is_some_and(|&b| !special(b)) {
        i += 1;
    }
    i
}

// Names: the one rule of each (the grammar's identifier, ASCII by table).
pub(crate) use crate::quote::{is_bare_key, is_identifier};

/// Appends `s` quoted, as [`crate::quote::write_quoted`] writes it (the
/// same escapes), copying the runs between escapes whole.
pub(crate) fn push_quoted(out: &mut String, s: &str) {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    out.reserve(s.len() + 2);
    out.push('"');
    let bytes = s.as_bytes();
    // `run` is where the bytes not yet copied start; every escape below
    // is at an ASCII byte or at the lead byte of a two-byte character, so
    // both ends of each copied run are character boundaries.
    let mut run = 0;
    let mut i = 0;
    loop {
        i = next_special(bytes, i);
        let Some(&b) = bytes.get(i) else { break };
        let (escape, len): (&str, usize) = match b {
            b'"' => ("\\\"", 1),
            b'\\' => ("\\\\", 1),
            b'\n' => ("\\n", 1),
            b'\r' => ("\\r", 1),
            b'\t' => ("\\t", 1),
            b'$' if bytes.get(i + 1) == Some(&b'{') => ("$$", 1),
            b'%' if bytes.get(i + 1) == Some(&b'{') => ("%%", 1),
            // Other control characters, C0, DEL and C1 (`char::is_control`).
            0..=0x1f | 0x7f => ("", 1),
            0xc2 if matches!(bytes.get(i + 1), Some(0x80..=0x9f)) => ("", 2),
            _ => {
                i += 1;
                continue;
            }
        };
        out.push_str(s.get(run..i).unwrap_or_default());
        if escape.is_empty() {
            // `\u00XX`: the code point is the byte itself, or the second
            // byte of a C1 character.
            let code = if len == 2 {
                bytes.get(i + 1).copied().unwrap_or(0)
            } else {
                b
            };
            out.push_str("\\u00");
            for nibble in [code >> 4, code & 0xf] {
                out.push(char::from(
                    HEX.get(usize::from(nibble)).copied().unwrap_or(b'0'),
                ));
            }
        } else {
            out.push_str(escape);
        }
        i += len;
        run = i;
    }
    out.push_str(s.get(run..).unwrap_or_default());
    out.push('"');
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
    use super::{any_special, number_literal, push_quoted, scientific, special};
    use crate::Number;

    #[test]
    fn any_special_is_special_of_some_byte() {
        // Every byte at every place in a word of plain bytes, and beside
        // every other byte (the borrows of the word tricks).
        for fill in [b'a', b' ', 0x80, 0xff, b'#', b'&', 0x21] {
            for b in 0..=255u8 {
                for at in 0..8 {
                    let mut w = [fill; 8];
                    if let Some(x) = w.get_mut(at) {
                        *x = b;
                    }
                    let want = w.iter().any(|&c| special(c));
                    assert_eq!(any_special(u64::from_le_bytes(w)), want, "{w:?}");
                }
            }
        }
        for a in 0..=255u8 {
            for b in 0..=255u8 {
                let w = [a, b, a, b, b, a, b, a];
                assert_eq!(
                    any_special(u64::from_le_bytes(w)),
                    special(a) || special(b),
                    "{w:?}"
                );
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
            let mut ours = String::new();
            push_quoted(&mut ours, s);
            let mut theirs = String::new();
            assert!(crate::quote::write_quoted(&mut theirs, s).is_ok());
            assert_eq!(ours, theirs, "{s:?}");
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
