//! Line numbers of byte offsets, for the captures of the deserializer
//! (`RawExpression`, `RawBody`): an index of line starts built as far as
//! the captures need it.

/// The line starts of `src` found so far: every line start up to
/// `scanned` is in `starts`. Captures mostly come in source order, so the
/// index grows as they move forward and never scans past the last one.
pub(super) struct LineStarts {
    starts: Vec<usize>,
    scanned: usize,
    /// The index in `starts` of the last line found: the next capture is
    /// usually on it or a few lines after.
    last: usize,
}

impl LineStarts {
    pub(super) fn new() -> LineStarts {
        LineStarts {
            // The first line's start is pushed by the first question (a
            // run without captures allocates nothing).
            starts: Vec::new(),
            scanned: 0,
            last: 0,
        }
    }

    /// The byte offset where the line of `src` holding `byte` starts, and
    /// that line's 1-based number. The index is built as far as needed,
    /// once.
    pub(super) fn line_of(&mut self, src: &str, byte: usize) -> (usize, usize) {
        let LineStarts {
            starts,
            scanned,
            last,
        } = self;
        if starts.is_empty() {
            // Room for a line per 32 bytes up to the end of the text
            // (Terraform's lines average about that): the index rarely
            // grows by copying.
            starts.reserve(src.len() / 32 + 1);
            starts.push(0);
        }
        let end = byte.min(src.len());
        if end > *scanned {
            let from = *scanned;
            if let Some(new) = src.as_bytes().get(from..end) {
                push_line_starts(new, from, starts);
            }
            *scanned = end;
        }
        // `i` counts the line starts at or before `byte`.
        const NEAR: usize = 8;
        let near = starts.get(*last..).unwrap_or_default();
        let i = match near.first() {
            Some(&s) if s <= byte && near.get(NEAR).is_none_or(|&s| s > byte) => {
                *last
                    + near
                        .get(..NEAR)
                        .unwrap_or(near)
                        .partition_point(|&s| s <= byte)
            }
            _ => starts.partition_point(|&s| s <= byte),
        }
        .max(1);
        *last = i - 1;
        (starts.get(i - 1).copied().unwrap_or(0), i)
    }
}

/// Appends the start of every line that begins after a newline in
/// `bytes` (which starts at byte `base` of the text). Eight bytes are
/// tested at once (a word whose newline bytes become `0x80` and all others
/// `0`), so the cost is per word and per line rather than per byte.
fn push_line_starts(bytes: &[u8], base: usize, starts: &mut Vec<usize>) {
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    const NEWLINES: u64 = 0x0a0a_0a0a_0a0a_0a0a;
    let mut words = bytes.chunks_exact(8);
    let mut at = base;
    for word in &mut words {
        let mut w = [0u8; 8];
        w.copy_from_slice(word);
        // A byte of `x` is zero exactly where `word` has a newline; the
        // high bit of each byte of `found` is set exactly there (no
        // carries cross bytes, since the low seven bits are added apart).
        let x = u64::from_le_bytes(w) ^ NEWLINES;
        let mut found = !(((x & LOW7) + LOW7) | x | LOW7);
        while found != 0 {
            starts.push(at + (found.trailing_zeros() / 8) as usize + 1);
            found &= found - 1;
        }
        at += 8;
    }
    for (i, &b) in words.remainder().iter().enumerate() {
        if b == b'\n' {
            starts.push(at + i + 1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::LineStarts;

    /// The line start and number of `byte`, counted naively.
    fn naive(src: &str, byte: usize) -> (usize, usize) {
        let before = src.as_bytes().get(..byte).unwrap_or(src.as_bytes());
        let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
        let start = before
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
        (start, line)
    }

    #[test]
    fn line_starts_found_word_by_word_are_every_newline() {
        // Every byte value around a newline, at every offset in a word.
        let mut bytes: Vec<u8> = (0..=255u8).collect();
        bytes.extend((0..=255u8).rev());
        for at in [0, 1, 7, 8, 9, 63, 64, 100, 300, 511] {
            bytes.insert(at, b'\n');
        }
        bytes.extend(b"\n\n\x0a\x8a\x0b\x09\n");
        for base in [0, 5] {
            for cut in 0..12 {
                let part = bytes.get(cut..).unwrap_or_default();
                let mut got = Vec::new();
                super::push_line_starts(part, base, &mut got);
                let want: Vec<usize> = part
                    .iter()
                    .enumerate()
                    .filter(|&(_, &b)| b == b'\n')
                    .map(|(i, _)| base + i + 1)
                    .collect();
                assert_eq!(got, want, "cut {cut}, base {base}");
            }
        }
    }

    #[test]
    fn line_of_agrees_with_counting_in_any_order() {
        let src = "a = 1\n\nb = [\n  2,\n  3,\n]\n\n\n\n\n\n\n\n\n\n\nc = 4\r\nd = \"x\"";
        let n = src.len();
        // Forward, backward, jumps past the lines scanned so far, and
        // offsets on a newline and past the end.
        let order: Vec<usize> = (0..=n)
            .chain((0..=n).rev())
            .chain((0..=n + 2).map(|i| (i * 7) % (n + 3)))
            .collect();
        let mut lines = LineStarts::new();
        for &b in &order {
            assert_eq!(lines.line_of(src, b), naive(src, b), "byte {b}");
        }
        // A fresh index whose first question is far into the text.
        let mut lines = LineStarts::new();
        for b in [n, 3, n - 1, 0, 20] {
            assert_eq!(lines.line_of(src, b), naive(src, b), "byte {b}");
        }
    }
}
