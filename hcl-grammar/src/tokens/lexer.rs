//! The token stream: bytes to tokens, one mode per context (code, quoted
//! template, heredoc), as the reference scanner cuts them. The lexical
//! rules themselves (comments, literals, heredoc markers, identifiers,
//! numbers) are [`crate::scan`]'s; the commonest tokens (ASCII
//! identifiers, quoted text without escapes) take a shorter road here
//! that ends where [`crate::scan`]'s would, and fall back to it for
//! anything else.
//!
//! Contexts nest: a `"` in code opens a quoted template, a `${` or `%{`
//! in a template opens code, and the `}` that balances that `${` returns
//! to the template. The mode stack is an explicit `Vec`, so nesting costs
//! no call stack.
//!
//! The tokens go to a [`Sink`]: [`lex`] collects them, the formatter
//! places them as they come (no token list is built).

use super::{runs, Token, TokenKind as K};
use crate::ident::is_id_start;
use crate::scan::{self, char_at as decode, Ident, Literal, Sequence};
use crate::span::Span;

const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Where the lexer sends each token, in order: its kind and its bytes
/// `start..end`.
pub(crate) trait Sink {
    fn token(&mut self, kind: K, start: usize, end: usize);

    /// A [`K::Whitespace`] token; `spaces_only`: without tabs.
    #[inline]
    fn blank(&mut self, start: usize, end: usize, spaces_only: bool) {
        let _ = spaces_only;
        self.token(K::Whitespace, start, end);
    }
}

impl Sink for Vec<Token> {
    #[inline]
    fn token(&mut self, kind: K, start: usize, end: usize) {
        self.push(Token {
            kind,
            span: Span::new(start, end),
        });
    }
}

/// Cuts `src` into tokens covering every byte, in order. See the
/// [module documentation](crate::tokens).
pub fn lex(src: &[u8]) -> Vec<Token> {
    let mut out = Vec::with_capacity(src.len() / 3 + 4);
    lex_into(src, &mut out);
    out
}

/// [`lex`], each token sent to `sink` as it is cut.
pub(crate) fn lex_into<S: Sink>(src: &[u8], sink: &mut S) {
    let mut lexer = Lexer {
        src,
        pos: 0,
        sink,
        // Empty: code (the bottom context is never popped).
        modes: Vec::new(),
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
            _ => lexer.code_run(),
        }
    }
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

struct Lexer<'a, 's, S> {
    src: &'a [u8],
    pos: usize,
    sink: &'s mut S,
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

impl<S: Sink> Lexer<'_, '_, S> {
    fn at(&self, offset: usize) -> Option<u8> {
        self.src.get(self.pos + offset).copied()
    }

    #[inline(always)]
    fn emit(&mut self, kind: K, len: usize) {
        let start = self.pos;
        self.pos = (start + len).min(self.src.len());
        self.sink.token(kind, start, self.pos);
    }

    /// Code tokens until the context changes (or the input ends).
    fn code_run(&mut self) {
        while self.pos < self.src.len() && !self.code() {}
    }

    /// Code: expressions, bodies, and the inside of `${ }` / `%{ }`. True
    /// when the token changed the context (opened a string or heredoc,
    /// closed a template sequence).
    #[inline]
    fn code(&mut self) -> bool {
        let Some(b) = self.at(0) else { return false };
        let next = self.at(1);
        match b {
            b' ' | b'\t' => {
                let spaces = runs::spaces(self.src, self.pos);
                let len = spaces + self.run_len(self.pos + spaces, |c| c == b' ' || c == b'\t');
                let start = self.pos;
                self.pos = (start + len).min(self.src.len());
                self.sink.blank(start, self.pos, len == spaces);
            }
            b'0'..=b'9' => {
                let len = scan::number_token_end(self.src, self.pos) - self.pos;
                self.emit(K::NumberLit, len);
            }
            b'\n' | b'\r' if scan::newline_len(self.src, self.pos) > 0 => {
                self.emit(K::Newline, scan::newline_len(self.src, self.pos));
            }
            b'#' => self.line_comment(),
            b'/' if next == Some(b'/') => self.line_comment(),
            b'/' if next == Some(b'*') => {
                let end = match self.no_comment_end_after {
                    Some(_) => None,
                    None => scan::inline_comment_end(self.src, self.pos),
                };
                match end {
                    Some(end) => self.emit(K::Comment, end - self.pos),
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
            b'<' if next == Some(b'<') => {
                match scan::heredoc_open(self.src, self.pos, Ident::Xid) {
                    Some(open) => {
                        self.emit(K::OHeredoc, open.end - self.pos);
                        self.modes.push(Mode::Heredoc {
                            marker: Span::new(open.marker.start, open.marker.end),
                            start_of_line: true,
                        });
                        return true;
                    }
                    None => self.emit(K::LessThan, 1),
                }
            }
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
            b'}' => return self.close_brace(1, K::CBrace),
            b'~' if next == Some(b'}') => return self.close_brace(2, K::TemplateSeqEnd),
            b'"' => {
                self.emit(K::OQuote, 1);
                self.modes.push(Mode::Quoted);
                return true;
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
            b'a'..=b'z' | b'A'..=b'Z' | b'_' => {
                let len = 1 + runs::ident(self.src, self.pos + 1);
                match self.at(len) {
                    // A non-ASCII character may continue it: the full rule.
                    Some(c) if c >= 0x80 => {
                        let len = scan::xid_ident_end(self.src, self.pos) - self.pos;
                        self.emit(K::Ident, len);
                    }
                    _ => self.emit(K::Ident, len),
                }
            }
            _ => match decode(self.src, self.pos) {
                Some((c, _)) if is_id_start(c) => {
                    let len = scan::xid_ident_end(self.src, self.pos) - self.pos;
                    self.emit(K::Ident, len);
                }
                Some((_, len)) => self.emit(K::Invalid, len),
                None => self.emit(K::BadUtf8, 1),
            },
        }
        false
    }

    /// A `}` (`len` 1) or `~}` (`len` 2). It closes the innermost `${` /
    /// `%{` when the braces opened since are balanced; otherwise a `}` is
    /// a plain brace, and a `~}` still a template sequence end (which the
    /// parser rejects), as the reference does. True when it closes.
    fn close_brace(&mut self, len: usize, otherwise: K) -> bool {
        if self.ret_braces.last() == Some(&self.braces) {
            self.ret_braces.pop();
            self.modes.pop();
            self.braces -= 1;
            self.emit(K::TemplateSeqEnd, len);
            true
        } else {
            self.braces -= 1;
            self.emit(otherwise, len);
            false
        }
    }

    /// A `${` or `%{` (with an optional `~`) at the current position:
    /// opens code until its balancing `}`. False when there is none.
    fn open_sequence(&mut self) -> bool {
        let Some((sequence, end)) = scan::sequence_at(self.src, self.pos) else {
            return false;
        };
        let kind = match sequence {
            Sequence::Interp => K::TemplateInterp,
            Sequence::Control => K::TemplateControl,
        };
        self.emit(kind, end - self.pos);
        self.braces += 1;
        self.ret_braces.push(self.braces);
        self.modes.push(Mode::Code);
        true
    }

    /// A `#` or `//` comment, with the newline that ends it.
    fn line_comment(&mut self) {
        let end = scan::line_comment_end(self.src, self.pos);
        let end = end + scan::newline_len(self.src, end);
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

    /// Inside `"..."`.
    fn quoted(&mut self) {
        if self.open_sequence() {
            return;
        }
        match self.at(0) {
            Some(b'"') => {
                self.emit(K::CQuote, 1);
                self.modes.pop();
            }
            Some(b'\r' | b'\n') => {
                let len = self.run_len(self.pos, |c| c == b'\r' || c == b'\n');
                self.emit(K::QuotedNewline, len);
            }
            _ => {
                // Text up to the closing quote with nothing to look into
                // is the literal the full rule would cut.
                let plain = runs::quoted(self.src, self.pos);
                if plain > 0 && self.at(plain) == Some(b'"') {
                    self.emit(K::QuotedLit, plain);
                    return;
                }
                let len = self.literal_len(Literal::Quoted);
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

    /// The length of template literal text from here (see
    /// [`scan::literal_end`]; the input may not be UTF-8).
    fn literal_len(&self, kind: Literal) -> usize {
        scan::literal_end(self.src, self.pos, kind, true).0 - self.pos
    }

    /// Inside a heredoc.
    fn heredoc(&mut self, marker: Span, start_of_line: bool) {
        if scan::sequence_at(self.src, self.pos).is_some() {
            self.set_start_of_line(false);
            self.open_sequence();
            return;
        }
        let len = self.literal_len(Literal::Heredoc);
        let newline = scan::newline_len(self.src, self.pos + len);
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
        let name = self.src.get(marker.range()).unwrap_or_default();
        if start_of_line && scan::heredoc_close(self.src, self.pos, name).is_some() {
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
