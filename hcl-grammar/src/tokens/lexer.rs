//! The scanner: bytes to tokens, one mode per context (code, quoted
//! template, heredoc), as the reference scanner.
//!
//! Contexts nest: a `"` in code opens a quoted template, a `${` or `%{`
//! in a template opens code, and the `}` that balances that `${` returns
//! to the template. The mode stack is an explicit `Vec`, so nesting costs
//! no call stack.

use super::{Token, TokenKind as K};
use crate::span::Span;

const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Cuts `src` into tokens covering every byte, in order. See the
/// [module documentation](crate::tokens).
pub fn lex(src: &[u8]) -> Vec<Token> {
    let mut lexer = Lexer {
        src,
        pos: 0,
        out: Vec::with_capacity(src.len() / 3 + 4),
        modes: vec![Mode::Code],
        braces: 0,
        ret_braces: Vec::new(),
        no_comment_end_after: None,
    };
    if src.starts_with(BOM) {
        lexer.emit(K::ByteOrderMark, BOM.len());
    }
    while lexer.pos < src.len() {
        match lexer.modes.last() {
            Some(Mode::Quoted) => lexer.quoted(),
            Some(&Mode::Heredoc {
                marker,
                start_of_line,
            }) => lexer.heredoc(marker, start_of_line),
            _ => lexer.code(),
        }
    }
    lexer.out
}

#[derive(Debug, Clone, Copy)]
enum Mode {
    Code,
    Quoted,
    /// `marker`: the span of the closing marker's name in the introducer;
    /// `start_of_line`: whether the next literal starts a line (only such
    /// a literal can be the closing marker).
    Heredoc {
        marker: Span,
        start_of_line: bool,
    },
}

struct Lexer<'a> {
    src: &'a [u8],
    pos: usize,
    out: Vec<Token>,
    modes: Vec<Mode>,
    /// Open braces, counting `${` and `%{`.
    braces: i64,
    /// The values of `braces` just after each open `${` / `%{`: a `}` at
    /// that level closes the template sequence.
    ret_braces: Vec<i64>,
    /// Set when a search for `*/` failed from this offset: no later
    /// search can succeed, so each is done once (input full of `/*` stays
    /// linear).
    no_comment_end_after: Option<usize>,
}

impl Lexer<'_> {
    fn at(&self, offset: usize) -> Option<u8> {
        self.src.get(self.pos + offset).copied()
    }

    fn emit(&mut self, kind: K, len: usize) {
        let start = self.pos;
        self.pos = (start + len).min(self.src.len());
        self.out.push(Token {
            kind,
            span: Span::new(start, self.pos),
        });
    }

    /// Code: expressions, bodies, and the inside of `${ }` / `%{ }`.
    fn code(&mut self) {
        let Some(b) = self.at(0) else { return };
        let next = self.at(1);
        match b {
            b' ' | b'\t' => {
                let len = self.run_len(self.pos, |c| c == b' ' || c == b'\t');
                self.emit(K::Whitespace, len);
            }
            b'0'..=b'9' => {
                let len = self.number_len();
                self.emit(K::NumberLit, len);
            }
            b'\n' => self.emit(K::Newline, 1),
            b'\r' if next == Some(b'\n') => self.emit(K::Newline, 2),
            b'#' => self.line_comment(),
            b'/' if next == Some(b'/') => self.line_comment(),
            b'/' if next == Some(b'*') => {
                let end = match self.no_comment_end_after {
                    Some(_) => None,
                    None => find(self.src, self.pos + 2, b"*/"),
                };
                match end {
                    Some(end) => self.emit(K::Comment, end + 2 - self.pos),
                    // Unterminated: the reference falls back to `/`.
                    None => {
                        self.no_comment_end_after = Some(self.pos);
                        self.emit(K::Slash, 1);
                    }
                }
            }
            b'=' => match next {
                Some(b'=') => self.emit(K::EqualOp, 2),
                Some(b'>') => self.emit(K::FatArrow, 2),
                _ => self.emit(K::Equal, 1),
            },
            b'!' if next == Some(b'=') => self.emit(K::NotEqual, 2),
            b'!' => self.emit(K::Bang, 1),
            b'<' if next == Some(b'=') => self.emit(K::LessThanEq, 2),
            b'<' if next == Some(b'<') => match self.heredoc_intro() {
                Some((len, marker)) => {
                    self.emit(K::OHeredoc, len);
                    self.modes.push(Mode::Heredoc {
                        marker,
                        start_of_line: true,
                    });
                }
                None => self.emit(K::LessThan, 1),
            },
            b'<' => self.emit(K::LessThan, 1),
            b'>' if next == Some(b'=') => self.emit(K::GreaterThanEq, 2),
            b'>' => self.emit(K::GreaterThan, 1),
            b'&' if next == Some(b'&') => self.emit(K::And, 2),
            b'|' if next == Some(b'|') => self.emit(K::Or, 2),
            b':' if next == Some(b':') => self.emit(K::DoubleColon, 2),
            b':' => self.emit(K::Colon, 1),
            b'.' if next == Some(b'.') && self.at(2) == Some(b'.') => self.emit(K::Ellipsis, 3),
            b'.' => self.emit(K::Dot, 1),
            b'{' => {
                self.braces += 1;
                self.emit(K::OBrace, 1);
            }
            b'}' => self.close_brace(1, K::CBrace),
            b'~' if next == Some(b'}') => self.close_brace(2, K::TemplateSeqEnd),
            b'"' => {
                self.emit(K::OQuote, 1);
                self.modes.push(Mode::Quoted);
            }
            b'[' => self.emit(K::OBrack, 1),
            b']' => self.emit(K::CBrack, 1),
            b'(' => self.emit(K::OParen, 1),
            b')' => self.emit(K::CParen, 1),
            b',' => self.emit(K::Comma, 1),
            b'*' => self.emit(K::Star, 1),
            b'/' => self.emit(K::Slash, 1),
            b'%' => self.emit(K::Percent, 1),
            b'+' => self.emit(K::Plus, 1),
            b'-' => self.emit(K::Minus, 1),
            b'?' => self.emit(K::Question, 1),
            b'&' | b'|' | b'~' | b'^' | b';' | b'`' | b'\'' => self.emit(K::OtherSymbol, 1),
            _ => match decode(self.src, self.pos) {
                Some((c, _)) if c == '_' || unicode_xid::UnicodeXID::is_xid_start(c) => {
                    let len = self.ident_len(self.pos);
                    self.emit(K::Ident, len);
                }
                Some((_, len)) => self.emit(K::Invalid, len),
                None => self.emit(K::BadUtf8, 1),
            },
        }
    }

    /// A `}` (`len` 1) or `~}` (`len` 2). It closes the innermost `${` /
    /// `%{` when the braces opened since are balanced; otherwise a `}` is
    /// a plain brace, and a `~}` still a template sequence end (which the
    /// parser rejects), as the reference does.
    fn close_brace(&mut self, len: usize, otherwise: K) {
        if self.ret_braces.last() == Some(&self.braces) {
            self.ret_braces.pop();
            self.modes.pop();
            self.braces -= 1;
            self.emit(K::TemplateSeqEnd, len);
        } else {
            self.braces -= 1;
            self.emit(otherwise, len);
        }
    }

    /// `${` or `%{` (with an optional `~`) at the current position: opens
    /// code until its balancing `}`.
    fn open_sequence(&mut self, kind: K) {
        let len = if self.at(2) == Some(b'~') { 3 } else { 2 };
        self.emit(kind, len);
        self.braces += 1;
        self.ret_braces.push(self.braces);
        self.modes.push(Mode::Code);
    }

    /// A `#` or `//` comment, with the newline that ends it.
    fn line_comment(&mut self) {
        let end = match memchr(b'\n', self.src, self.pos) {
            Some(nl) => nl + 1,
            None => self.src.len(),
        };
        self.emit(K::Comment, end - self.pos);
    }

    fn run_len(&self, from: usize, keep: impl Fn(u8) -> bool) -> usize {
        self.src
            .get(from..)
            .unwrap_or_default()
            .iter()
            .take_while(|&&c| keep(c))
            .count()
    }

    /// The length of the number literal here: a digit, then digits, `.`
    /// and exponents (`e`, an optional sign, a digit), not ending in `.`.
    fn number_len(&self) -> usize {
        let mut p = self.pos + 1;
        let mut end = p;
        loop {
            match self.src.get(p) {
                Some(b'0'..=b'9') => {
                    p += 1;
                    end = p;
                }
                Some(b'.') => p += 1,
                Some(b'e' | b'E') => {
                    let digit_at = match self.src.get(p + 1) {
                        Some(b'+' | b'-') => p + 2,
                        _ => p + 1,
                    };
                    if self.src.get(digit_at).is_some_and(u8::is_ascii_digit) {
                        p = digit_at + 1;
                        end = p;
                    } else {
                        break;
                    }
                }
                _ => break,
            }
        }
        end - self.pos
    }

    /// The length of the identifier starting at `from` (whose first
    /// character is known to start one).
    fn ident_len(&self, from: usize) -> usize {
        let mut p = from;
        if let Some((_, len)) = decode(self.src, p) {
            p += len;
        }
        while let Some(&c) = self.src.get(p) {
            if c.is_ascii_alphanumeric() || c == b'_' || c == b'-' {
                p += 1;
            } else if c < 0x80 {
                break;
            } else {
                match decode(self.src, p) {
                    Some((ch, len)) if unicode_xid::UnicodeXID::is_xid_continue(ch) => p += len,
                    _ => break,
                }
            }
        }
        p - from
    }

    /// At `<<`: the length of a heredoc introducer (`<<`, an optional `-`,
    /// an identifier, a newline) and its marker's span, if there is one.
    fn heredoc_intro(&self) -> Option<(usize, Span)> {
        let mut p = self.pos + 2;
        if self.src.get(p) == Some(&b'-') {
            p += 1;
        }
        let (c, _) = decode(self.src, p)?;
        if !(c == '_' || unicode_xid::UnicodeXID::is_xid_start(c)) {
            return None;
        }
        let marker = Span::new(p, p + self.ident_len(p));
        p = marker.end;
        match self.src.get(p..p + 2) {
            Some(b"\r\n") => p += 2,
            _ if self.src.get(p) == Some(&b'\n') => p += 1,
            _ => return None,
        }
        Some((p - self.pos, marker))
    }

    /// Inside `"..."`.
    fn quoted(&mut self) {
        match (self.at(0), self.at(1)) {
            (Some(b'$'), Some(b'{')) => self.open_sequence(K::TemplateInterp),
            (Some(b'%'), Some(b'{')) => self.open_sequence(K::TemplateControl),
            (Some(b'"'), _) => {
                self.emit(K::CQuote, 1);
                self.modes.pop();
            }
            (Some(b'\r' | b'\n'), _) => {
                let len = self.run_len(self.pos, |c| c == b'\r' || c == b'\n');
                self.emit(K::QuotedNewline, len);
            }
            _ => {
                let len = self.literal_len(true);
                if len > 0 {
                    self.emit(K::QuotedLit, len);
                } else if decode(self.src, self.pos).is_none() {
                    self.emit(K::BadUtf8, 1);
                } else {
                    // A `\` before a newline or the end.
                    self.emit(K::Invalid, 1);
                }
            }
        }
    }

    /// The length of template literal text from here: up to a `${` or
    /// `%{`, a newline, bytes that are not UTF-8, and (`quoted`) a `"`;
    /// `$${` and `%%{` are escapes, part of the text, and so (`quoted`) is
    /// `\` with the character after it.
    fn literal_len(&self, quoted: bool) -> usize {
        let mut p = self.pos;
        while let Some(&c) = self.src.get(p) {
            match c {
                b'$' | b'%' => match self.src.get(p + 1) {
                    Some(b'{') => break,
                    Some(&d) if d == c && self.src.get(p + 2) == Some(&b'{') => {
                        p += 3;
                        if self.src.get(p) == Some(&b'~') {
                            p += 1;
                        }
                    }
                    _ => p += 1,
                },
                b'\r' | b'\n' => break,
                b'"' if quoted => break,
                b'\\' if quoted => match self.src.get(p + 1) {
                    Some(b'\r' | b'\n') | None => break,
                    Some(_) => match decode(self.src, p + 1) {
                        Some((_, len)) => p += 1 + len,
                        None => break,
                    },
                },
                _ if c < 0x80 => p += 1,
                _ => match decode(self.src, p) {
                    Some((_, len)) => p += len,
                    None => break,
                },
            }
        }
        p - self.pos
    }

    /// Inside a heredoc.
    fn heredoc(&mut self, marker: Span, start_of_line: bool) {
        match (self.at(0), self.at(1)) {
            (Some(b'$'), Some(b'{')) => {
                self.set_start_of_line(false);
                self.open_sequence(K::TemplateInterp);
                return;
            }
            (Some(b'%'), Some(b'{')) => {
                self.set_start_of_line(false);
                self.open_sequence(K::TemplateControl);
                return;
            }
            _ => {}
        }
        let len = self.literal_len(false);
        let lit_end = self.pos + len;
        let newline = match self.src.get(lit_end..lit_end + 2) {
            Some(b"\r\n") => 2,
            _ if self.src.get(lit_end) == Some(&b'\n') => 1,
            _ => 0,
        };
        if newline == 0 {
            if len > 0 {
                self.set_start_of_line(false);
                self.emit(K::StringLit, len);
            } else if decode(self.src, self.pos).is_none() {
                self.emit(K::BadUtf8, 1);
            } else {
                // A lone `\r`.
                self.emit(K::Invalid, 1);
            }
            return;
        }
        let text = self.src.get(self.pos..lit_end).unwrap_or_default();
        let name = self.src.get(marker.range()).unwrap_or_default();
        if start_of_line && trim_space(text) == name {
            self.modes.pop();
            self.emit(K::CHeredoc, len);
            self.emit(K::Newline, newline);
        } else {
            self.set_start_of_line(true);
            self.emit(K::StringLit, len + newline);
        }
    }

    fn set_start_of_line(&mut self, value: bool) {
        if let Some(Mode::Heredoc { start_of_line, .. }) = self.modes.last_mut() {
            *start_of_line = value;
        }
    }
}

/// The character starting at `at`, and its length in bytes; `None` for
/// bytes that are not UTF-8 (or the end).
fn decode(src: &[u8], at: usize) -> Option<(char, usize)> {
    let first = *src.get(at)?;
    let len = match first {
        0x00..=0x7F => return Some((char::from(first), 1)),
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF7 => 4,
        _ => return None,
    };
    let bytes = src.get(at..at + len)?;
    let c = std::str::from_utf8(bytes).ok()?.chars().next()?;
    Some((c, len))
}

/// Trims ASCII and Unicode white space from both ends (Go's
/// `bytes.TrimSpace`).
fn trim_space(text: &[u8]) -> &[u8] {
    match std::str::from_utf8(text) {
        Ok(s) => s.trim().as_bytes(),
        Err(_) => text.trim_ascii(),
    }
}

fn memchr(needle: u8, haystack: &[u8], from: usize) -> Option<usize> {
    haystack
        .get(from..)?
        .iter()
        .position(|&c| c == needle)
        .map(|i| from + i)
}

fn find(haystack: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    haystack
        .get(from..)?
        .windows(needle.len())
        .position(|w| w == needle)
        .map(|i| from + i)
}
