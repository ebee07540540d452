//! Runs of bytes the lexer skips over, a word (8 bytes) at a time where
//! the input has one: the spaces of indentation, the rest of an ASCII
//! identifier, quoted text up to its next special byte. Each gives the
//! same length as the byte-by-byte loop over its table, which finishes
//! the last few bytes of the input (and which a test compares it with).

use crate::scan;

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGH: u64 = ONES * 0x80;

/// The bytes that continue an ASCII identifier (UAX #31's ASCII members
/// of XID_Continue, and `-`: [`scan::ASCII_IDENT_BYTE`]), and those that
/// stop quoted text without a second look (`"`, `\`, `$`, `%`, newlines,
/// and non-ASCII bytes, whose UTF-8 [`scan::literal_end`] checks).
static IDENT_CONTINUE: &[bool; 256] = &scan::ASCII_IDENT_BYTE;
static QUOTED_STOP: [bool; 256] = scan::byte_set(b"\"\\$%\n\r", true);

/// The high bit of each byte of `x` below 0x80 that lies in `lo..=hi`
/// (`hi` < 0x80). Bytes from 0x80 may carry into the bytes after them:
/// callers stop at the first such byte anyway.
#[inline]
const fn in_range(x: u64, lo: u8, hi: u8) -> u64 {
    let at_least_lo = x.wrapping_add(ONES * (0x80 - lo as u64));
    let above_hi = x.wrapping_add(ONES * (0x7f - hi as u64));
    at_least_lo & !above_hi & !x & HIGH
}

/// The high bit of each byte of `x` that does not continue an identifier.
#[inline]
const fn not_ident(x: u64) -> u64 {
    let letter = in_range(x | (ONES * 0x20), b'a', b'z');
    let ok = letter | in_range(x, b'0', b'9') | in_range(x, b'_', b'_') | in_range(x, b'-', b'-');
    !ok & HIGH
}

/// The high bit of each byte of `x` that stops plain quoted text.
#[inline]
const fn quoted_stop(x: u64) -> u64 {
    (x & HIGH)
        | in_range(x, b'"', b'"')
        | in_range(x, b'$', b'%')
        | in_range(x, b'\\', b'\\')
        | in_range(x, b'\n', b'\n')
        | in_range(x, b'\r', b'\r')
}

/// The high bit of each byte of `x` that is not a space.
#[inline]
const fn not_space(x: u64) -> u64 {
    !in_range(x, b' ', b' ') & HIGH
}

/// The length of the run from `from` of bytes that `stop` does not mark
/// (a word at a time) and `table` does (byte by byte, for the last few).
#[inline]
#[allow(clippy::indexing_slicing)] // a byte indexes 256 entries
fn run(src: &[u8], from: usize, stop: impl Fn(u64) -> u64, table: &[bool; 256]) -> usize {
    let rest = src.get(from..).unwrap_or_default();
    let mut words = rest.chunks_exact(8);
    let mut n = 0;
    for w in &mut words {
        let Ok(w) = <[u8; 8]>::try_from(w) else { break };
        // Little-endian: the first byte marked is the lowest.
        let marked = stop(u64::from_le_bytes(w));
        if marked != 0 {
            return n + (marked.trailing_zeros() / 8) as usize;
        }
        n += 8;
    }
    n + words
        .remainder()
        .iter()
        .take_while(|&&c| table[c as usize])
        .count()
}

static SPACE: [bool; 256] = scan::byte_set(b" ", false);
static QUOTED_TEXT: [bool; 256] = invert(&QUOTED_STOP);

#[allow(clippy::indexing_slicing)] // c < 256
const fn invert(t: &[bool; 256]) -> [bool; 256] {
    let mut out = [false; 256];
    let mut c = 0;
    while c < 256 {
        out[c] = !t[c];
        c += 1;
    }
    out
}

/// The spaces from `from`.
#[inline]
pub(super) fn spaces(src: &[u8], from: usize) -> usize {
    run(src, from, not_space, &SPACE)
}

/// The identifier bytes (ASCII) from `from`.
#[inline]
pub(super) fn ident(src: &[u8], from: usize) -> usize {
    run(src, from, not_ident, IDENT_CONTINUE)
}

/// The quoted text from `from` before a byte that needs a second look.
#[inline]
pub(super) fn quoted(src: &[u8], from: usize) -> usize {
    run(src, from, quoted_stop, &QUOTED_TEXT)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every run function against its table, byte by byte, at every
    /// offset of inputs holding every byte value in every word position.
    #[test]
    #[allow(clippy::indexing_slicing)] // a test: a panic is the failure report
    fn words_agree_with_tables() {
        let by_table = |src: &[u8], from: usize, table: &[bool; 256]| {
            src[from..]
                .iter()
                .take_while(|&&c| table[c as usize])
                .count()
        };
        for b in 0..=255u8 {
            for at in 0..10 {
                let mut src = b"abcdefghij_k-0123456789".to_vec();
                src.insert(at, b);
                let mut blank = vec![b' '; 20];
                blank.insert(at, b);
                let mut text = b"hello world, plain text here".to_vec();
                text.insert(at, b);
                for from in 0..src.len() {
                    assert_eq!(ident(&src, from), by_table(&src, from, IDENT_CONTINUE));
                }
                for from in 0..blank.len() {
                    assert_eq!(spaces(&blank, from), by_table(&blank, from, &SPACE));
                }
                for from in 0..text.len() {
                    assert_eq!(quoted(&text, from), by_table(&text, from, &QUOTED_TEXT));
                }
            }
        }
    }
}
