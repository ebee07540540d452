//! From source to a [`Document`](super::Document): the parser's tree says
//! where every attribute and block is; the lossless token stream
//! ([`crate::tokens::lex`]) says which comments and blank lines lie between
//! them, and cuts the text into the document's pieces.
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
    let tokens = lex(src.as_bytes());
    let b = Builder {
        src,
        shared: Arc::from(src),
        tokens: &tokens,
    };
    b.body(body, 0, tokens.len(), 0)
}

struct Builder<'a> {
    src: &'a str,
    /// The source shared by every piece.
    shared: Arc<str>,
    tokens: &'a [Token],
}

impl Builder<'_> {
    /// The byte offset where token `i` starts (the source's length past
    /// the last token).
    fn off(&self, i: usize) -> usize {
        self.tokens.get(i).map_or(self.src.len(), |t| t.span.start)
    }

    /// The index of the first token starting at or after byte `offset`.
    fn at(&self, offset: usize) -> usize {
        self.tokens.partition_point(|t| t.span.start < offset)
    }

    fn kind(&self, i: usize) -> Option<TokenKind> {
        self.tokens.get(i).map(|t| t.kind)
    }

    /// Token `i`, moved back over the whitespace before it (not past `lo`).
    fn with_space(&self, mut i: usize, lo: usize) -> usize {
        while i > lo && self.kind(i - 1) == Some(TokenKind::Whitespace) {
            i -= 1;
        }
        i
    }

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

    /// The text of tokens `i..j`.
    fn tokens_text(&self, i: usize, j: usize) -> Text {
        self.text(self.off(i), self.off(j))
    }

    /// The body whose items are `body`'s, from token `lo` to `hi`.
    fn body(&self, body: &ast::Body<'_>, lo: usize, hi: usize, depth: usize) -> Body {
        let mut items = Vec::with_capacity(body.items.len() * 2 + 1);
        let mut cursor = lo;
        for item in &body.items {
            let span = item.span();
            let first = self.at(span.start).max(cursor);
            let end = self.at(span.end).clamp(first, hi);
            // Lead comments: comment tokens directly above, whitespace
            // between them allowed (the reference's scanner skips it).
            let mut lead = self.with_space(first, cursor);
            while lead > cursor && self.kind(lead - 1) == Some(TokenKind::Comment) {
                lead = self.with_space(lead - 1, cursor);
            }
            if lead > cursor {
                items.push(Item::Trivia(self.tokens_text(cursor, lead)));
            }
            let lead_text = self.tokens_text(lead, first);
            let line_end = self.line_end(end, hi);
            let trail = self.tokens_text(end, line_end);
            let item_end = self.off(end);
            items.push(match item {
                ast::Structure::Attribute(a) => {
                    Item::Attribute(self.attribute(a, lead_text, item_end, trail))
                }
                ast::Structure::Block(b) => {
                    Item::Block(self.block(b, lead_text, item_end, trail, depth))
                }
            });
            cursor = line_end;
        }
        if hi > cursor {
            items.push(Item::Trivia(self.tokens_text(cursor, hi)));
        }
        Body {
            items,
            cleared: Vec::new(),
            depth,
        }
    }

    /// Where the line of an item that ends at token `end` ends: past its
    /// comments and the newline (a `#` or `//` comment ends the line
    /// itself).
    fn line_end(&self, end: usize, hi: usize) -> usize {
        let mut i = end;
        let mut done = end;
        while i < hi {
            let mut k = i;
            while k < hi && self.kind(k) == Some(TokenKind::Whitespace) {
                k += 1;
            }
            match self.tokens.get(k) {
                Some(t) if k < hi && t.kind == TokenKind::Comment => {
                    i = k + 1;
                    done = i;
                    if self.src.as_bytes().get(t.span.end.wrapping_sub(1)) == Some(&b'\n') {
                        break;
                    }
                }
                Some(t) if k < hi && t.kind == TokenKind::Newline => {
                    done = k + 1;
                    break;
                }
                _ => break,
            }
        }
        done
    }

    fn attribute(
        &self,
        a: &ast::Attribute<'_>,
        lead: Text,
        item_end: usize,
        trail: Text,
    ) -> Attribute {
        let expr_start = a.expr.span.start.max(a.name.span.end);
        Attribute {
            lead,
            name: self.text(a.name.span.start, a.name.span.end),
            eq: self.text(a.name.span.end, expr_start),
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
        let mut prev = b.ident.span.end;
        let mut labels = Vec::with_capacity(b.labels.len());
        for label in &b.labels {
            let span = label.span();
            labels.push(Label {
                pre: self.text(prev, span.start),
                text: self.text(span.start, span.end),
                value: match label {
                    ast::BlockLabel::Ident(i) => self.text(i.span.start, i.span.end),
                    ast::BlockLabel::String(s) => self.borrowed(&s.value),
                },
            });
            prev = span.end;
        }
        let open = self.text(prev, b.open_brace.end);
        let lo = self.at(b.open_brace.end);
        let close_at = self.at(b.close_brace.start).max(lo);
        let hi = self.with_space(close_at, lo);
        let body = self.body(&b.body, lo, hi, depth + 1);
        let close_end = b.close_brace.end.max(item_end);
        Block {
            lead,
            ident: self.text(b.ident.span.start, b.ident.span.end),
            labels,
            open,
            body,
            close: self.text(self.off(hi), close_end),
            trail,
        }
    }
}
