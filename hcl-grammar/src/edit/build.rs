//! From source to a [`Document`](super::Document): the parser's tree says
//! where every attribute and block is; the lossless token stream
//! ([`crate::tokens::lex`]) of the text between them (only whitespace,
//! newlines and comments lie there, so it lexes alone as in the whole
//! file) says which comments and blank lines they are, and cuts the text
//! into the document's pieces.
//!
//! The pieces cover the source with no gap or overlap, in order, so
//! printing an unedited document gives back the input byte for byte.
//! Whitespace belongs to the token after it (as the reference's
//! `SpacesBefore`). Comments are shared out as `hclwrite` does:
//!
//! - the comment tokens directly above an item (no blank line or other
//!   token between) are its *lead comments*, removed with it;
//! - the comments after an item on its line, and the newline that ends the
//!   line, are its *line end*, kept when its expression is replaced;
//! - everything else between items (blank lines, detached comments) is
//!   unstructured text of the body.

use super::text::Text;
use super::tree::{Attribute, Block, Body, Expression, Item, Label};
use crate::ast;
use crate::tokens::{lex, Token, TokenKind};
use std::sync::Arc;

/// Builds the document body of `src`, whose parsed tree is `body`.
pub(crate) fn build(src: &str, body: &ast::Body<'_>) -> Body {
    let b = Builder {
        src,
        shared: Arc::from(src),
    };
    b.body(body, 0, src.len(), 0)
}

struct Builder<'a> {
    src: &'a str,
    /// The source shared by every piece.
    shared: Arc<str>,
}

/// The tokens of a gap between items (trivia only), with its start.
struct Gap {
    start: usize,
    len: usize,
    tokens: Vec<Token>,
}

impl Gap {
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

impl Builder<'_> {
    /// The source text of bytes `from..to`, empty when out of order or out
    /// of range (which valid spans never are).
    fn text(&self, from: usize, to: usize) -> Text {
        if from <= to
            && self.src.is_char_boundary(from)
            && self.src.is_char_boundary(to)
            && to <= self.src.len()
        {
            Text::Src(Arc::clone(&self.shared), from, to)
        } else {
            Text::default()
        }
    }

    /// `value` as a piece of the source when it is one (a label without
    /// escapes), else owned.
    fn borrowed(&self, value: &str) -> Text {
        let start = (value.as_ptr() as usize).wrapping_sub(self.src.as_ptr() as usize);
        let end = start.saturating_add(value.len());
        match self.src.get(start..end) {
            Some(s) if std::ptr::eq(s, value) => self.text(start, end),
            _ => value.into(),
        }
    }

    /// The tokens of bytes `from..to`.
    fn gap(&self, from: usize, to: usize) -> Gap {
        let bytes = self.src.as_bytes().get(from..to).unwrap_or_default();
        Gap {
            start: from,
            len: bytes.len(),
            tokens: lex(bytes),
        }
    }

    /// The body whose items are `body`'s, from byte `lo` to `hi`.
    fn body(&self, body: &ast::Body<'_>, lo: usize, hi: usize, depth: usize) -> Body {
        let mut items = Vec::with_capacity(body.items.len() * 2 + 1);
        let mut cursor = lo;
        let mut spans = body.items.iter().map(ast::Structure::span).peekable();
        for item in &body.items {
            let span = spans.next().unwrap_or_else(|| item.span());
            let first = span.start().clamp(cursor, hi);
            let end = span.end().clamp(first, hi);
            // Lead comments: comment tokens directly above, whitespace
            // between them allowed (the reference's scanner skips it).
            let before = self.gap(cursor, first);
            let mut k = before.with_space(before.tokens.len());
            while k > 0 && before.kind(k - 1) == Some(TokenKind::Comment) {
                k = before.with_space(k - 1);
            }
            let lead = before.off(k);
            if lead > cursor {
                items.push(Item::Trivia(self.text(cursor, lead)));
            }
            let lead_text = self.text(lead, first);
            let next = spans.peek().map_or(hi, |s| s.start().clamp(end, hi));
            let line_end = line_end(&self.gap(end, next), self.src);
            let trail = self.text(end, line_end);
            items.push(match item {
                ast::Structure::Attribute(a) => {
                    Item::Attribute(self.attribute(a, lead_text, end, trail))
                }
                ast::Structure::Block(b) => {
                    Item::Block(self.block(b, lead_text, end, trail, depth))
                }
            });
            cursor = line_end;
        }
        if hi > cursor {
            items.push(Item::Trivia(self.text(cursor, hi)));
        }
        Body {
            items,
            cleared: Vec::new(),
            depth,
        }
    }
    fn attribute(
        &self,
        a: &ast::Attribute<'_>,
        lead: Text,
        item_end: usize,
        trail: Text,
    ) -> Attribute {
        let expr_start = a.expr.span.start().max(a.name.span.end());
        Attribute {
            lead,
            name: self.text(a.name.span.start(), a.name.span.end()),
            eq: self.text(a.name.span.end(), expr_start),
            expr: Expression::from_text(self.text(expr_start, item_end.max(expr_start))),
            trail,
        }
    }

    fn block(
        &self,
        b: &ast::Block<'_>,
        lead: Text,
        item_end: usize,
        trail: Text,
        depth: usize,
    ) -> Block {
        let mut prev = b.ident.span.end();
        let mut labels = Vec::with_capacity(b.labels.len());
        for label in &b.labels {
            let span = label.span();
            labels.push(Label {
                pre: self.text(prev, span.start()),
                text: self.text(span.start(), span.end()),
                value: match label {
                    ast::BlockLabel::Ident(i) => self.text(i.span.start(), i.span.end()),
                    ast::BlockLabel::String(s) => self.borrowed(&s.value),
                },
            });
            prev = span.end();
        }
        let open = self.text(prev, b.open_brace.end());
        let lo = b.open_brace.end();
        // The spaces before `}` are its own (whitespace goes with the
        // token after it).
        let mut hi = b.close_brace.start().max(lo);
        while hi > lo && matches!(self.src.as_bytes().get(hi - 1), Some(b' ' | b'\t')) {
            hi -= 1;
        }
        let body = self.body(&b.body, lo, hi, depth + 1);
        let close_end = b.close_brace.end().max(item_end);
        Block {
            lead,
            ident: self.text(b.ident.span.start(), b.ident.span.end()),
            labels,
            open,
            body,
            close: self.text(hi, close_end),
            trail,
        }
    }
}

/// Where the line of an item ends, in the gap after it: past its comments
/// and the newline (a `#` or `//` comment ends the line itself).
fn line_end(gap: &Gap, src: &str) -> usize {
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
                if src.as_bytes().get(last) == Some(&b'\n') {
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
