//! The text between a body's items (the gaps: whitespace, newlines and
//! comments only, as the parser accepted them) cut as the lossless token
//! stream ([`crate::tokens::lex`]) cuts it, without building the tokens.
//!
//! Each question is answered by a scan of the gap's bytes with the
//! scanner's lexical rules ([`crate::scan`]): `' '`/`'\t'` runs are
//! whitespace, `\n` and `\r\n` newlines, `#`/`//` comments run to the end
//! of their line and take its newline, `/* */` comments end at their `*/`.
//! On any other byte (a byte order mark, a lone `\r`, an unclosed `/*`:
//! text the parser keeps out of gaps, or nearly) the gap is lexed by
//! [`crate::tokens::lex`] and answered from its tokens, so both ways agree
//! on every input (a unit test checks it).

use crate::scan;
use crate::tokens::{lex, Token, TokenKind};

/// One trivia token of a gap, as the lexer cuts it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Trivia {
    Whitespace,
    Newline,
    /// A comment; `line` when it ends with a newline (`#`/`//` comments
    /// not at the end of the gap).
    Comment {
        line: bool,
    },
}

/// The trivia token at `at` of `b` (a gap: `b` ends where the gap does)
/// and where it ends, or `None` for anything else.
#[inline]
fn trivia(b: &[u8], at: usize) -> Option<(Trivia, usize)> {
    match *b.get(at)? {
        b' ' | b'\t' => {
            let len = b
                .get(at..)
                .unwrap_or_default()
                .iter()
                .take_while(|&&c| c == b' ' || c == b'\t')
                .count();
            Some((Trivia::Whitespace, at + len))
        }
        b'\n' | b'\r' => match scan::newline_len(b, at) {
            0 => None,
            n => Some((Trivia::Newline, at + n)),
        },
        b'#' => Some(line_comment(b, at)),
        b'/' => match b.get(at + 1) {
            Some(b'/') => Some(line_comment(b, at)),
            Some(b'*') => {
                let end = scan::inline_comment_end(b, at)?;
                Some((Trivia::Comment { line: false }, end))
            }
            _ => None,
        },
        _ => None,
    }
}

fn line_comment(b: &[u8], at: usize) -> (Trivia, usize) {
    let end = scan::line_comment_end(b, at);
    let nl = scan::newline_len(b, end);
    (Trivia::Comment { line: nl > 0 }, end + nl)
}

/// Where the lead comments of the item at `to` start, in the gap
/// `from..to` of `src` before it: the start of the gap's last run of
/// comments and whitespace (no newline between them).
pub(super) fn lead_start(src: &[u8], from: usize, to: usize) -> usize {
    let Some(b) = src.get(..to) else {
        return to;
    };
    let mut at = from;
    let mut run = from;
    while at < to {
        match trivia(b, at) {
            Some((Trivia::Newline, end)) => {
                run = end;
                at = end;
            }
            Some((_, end)) => at = end,
            None => return lexed::lead_start(src, from, to),
        }
    }
    run
}

/// Where the line of an item ending at `from` ends, in the gap `from..to`
/// of `src` after it: past its comments and the newline (a `#` or `//`
/// comment ends the line itself); `from` when the line goes on.
pub(super) fn line_end(src: &[u8], from: usize, to: usize) -> usize {
    let Some(b) = src.get(..to) else {
        return from;
    };
    let mut at = from;
    let mut done = from;
    loop {
        let mut k = at;
        let mut token = trivia(b, k);
        if let Some((Trivia::Whitespace, end)) = token {
            k = end;
            token = trivia(b, k);
        }
        match token {
            Some((Trivia::Comment { line }, end)) => {
                at = end;
                done = end;
                if line {
                    break;
                }
            }
            Some((Trivia::Newline, end)) => {
                done = end;
                break;
            }
            // End of the gap, or text of no trivia token: the lexer
            // decides (it may cut it into several tokens).
            None if k < to => return lexed::line_end(src, from, to),
            _ => break,
        }
    }
    done
}

/// The same answers from the gap's tokens: the way for gaps with text the
/// scan above does not know.
mod lexed {
    use super::{lex, Token, TokenKind};

    /// The tokens of a gap, with its start.
    struct Gap {
        start: usize,
        len: usize,
        tokens: Vec<Token>,
    }

    impl Gap {
        fn new(src: &[u8], from: usize, to: usize) -> Gap {
            let bytes = src.get(from..to).unwrap_or_default();
            Gap {
                start: from,
                len: bytes.len(),
                tokens: lex(bytes),
            }
        }

        /// The byte offset where token `i` starts (the gap's end past the
        /// last token).
        fn off(&self, i: usize) -> usize {
            self.start + self.tokens.get(i).map_or(self.len, |t| t.span.start())
        }

        fn kind(&self, i: usize) -> Option<TokenKind> {
            self.tokens.get(i).map(|t| t.kind)
        }

        /// Token `i`, moved back over the whitespace before it.
        fn with_space(&self, mut i: usize) -> usize {
            while i > 0 && self.kind(i - 1) == Some(TokenKind::Whitespace) {
                i -= 1;
            }
            i
        }
    }

    pub(super) fn lead_start(src: &[u8], from: usize, to: usize) -> usize {
        let before = Gap::new(src, from, to);
        let mut k = before.with_space(before.tokens.len());
        while k > 0 && before.kind(k - 1) == Some(TokenKind::Comment) {
            k = before.with_space(k - 1);
        }
        before.off(k)
    }

    pub(super) fn line_end(src: &[u8], from: usize, to: usize) -> usize {
        let gap = Gap::new(src, from, to);
        let mut i = 0;
        let mut done = 0;
        loop {
            let mut k = i;
            while gap.kind(k) == Some(TokenKind::Whitespace) {
                k += 1;
            }
            match gap.tokens.get(k) {
                Some(t) if t.kind == TokenKind::Comment => {
                    i = k + 1;
                    done = i;
                    let last = (gap.start + t.span.end()).wrapping_sub(1);
                    if src.get(last) == Some(&b'\n') {
                        break;
                    }
                }
                Some(t) if t.kind == TokenKind::Newline => {
                    done = k + 1;
                    break;
                }
                _ => break,
            }
        }
        gap.off(done)
    }

    #[cfg(test)]
    pub(super) fn both(src: &[u8], from: usize, to: usize) -> (usize, usize) {
        (lead_start(src, from, to), line_end(src, from, to))
    }
}

#[cfg(test)]
mod tests {
    use super::{lead_start, lexed, line_end};

    /// Every gap of every string over trivia pieces (and a few bytes of
    /// no trivia), each split point: both ways agree.
    #[test]
    fn scan_agrees_with_the_tokens() {
        const PIECES: &[&str] = &[
            " ", "\t", "\n", "\r\n", "\r", "# c\n", "// c\r\n", "#", "/* c */", "/* \n */", "/*",
            "*/", "/", "x", "\u{feff}", "# c", "//",
        ];
        let mut strings = vec![String::new()];
        for _ in 0..3 {
            let mut next = Vec::new();
            for s in &strings {
                for p in PIECES {
                    next.push(format!("{s}{p}"));
                }
            }
            strings.extend(next);
            strings.sort();
            strings.dedup();
        }
        for s in &strings {
            let b = s.as_bytes();
            for from in 0..=b.len() {
                for to in from..=b.len() {
                    let fast = (lead_start(b, from, to), line_end(b, from, to));
                    assert_eq!(fast, lexed::both(b, from, to), "{s:?} {from}..{to}");
                }
            }
        }
    }
}
