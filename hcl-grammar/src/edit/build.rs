//! From source to a [`Document`](super::Document): the parser's tree says
//! where every attribute and block is; the text between them (only
//! whitespace, newlines and comments lie there), cut as the lossless token
//! stream ([`crate::tokens::lex`]) cuts it (by [`super::gap`]'s scan, which
//! builds no tokens), says which comments and blank lines they are, and
//! cuts the text into the document's pieces.
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

use super::gap;
use super::text::{Piece, Src, Text};
use super::tree::{Attribute, Block, Body, Expression, Item, Label};
use crate::ast;
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
    /// The source shared by every node (one reference each).
    shared: Arc<str>,
}

impl Builder<'_> {
    /// The source text of bytes `from..to`, for an expression (reading
    /// it, like every piece, checks the range: out of order or out of
    /// range, which valid spans never are, it reads as empty; a copy in
    /// the rare source too long for 32-bit offsets).
    fn text(&self, from: usize, to: usize) -> Text {
        match (u32::try_from(from), u32::try_from(to)) {
            (Ok(from), Ok(to)) => Text::Src(Arc::clone(&self.shared), from, to),
            _ => self.src.get(from..to).unwrap_or_default().into(),
        }
    }

    /// A node's reference to the source.
    fn src(&self) -> Src {
        Src::new(&self.shared)
    }

    /// Bytes `from..to` of the source, as a piece of a node (a copy in
    /// the rare source too long for 32-bit offsets).
    fn piece(&self, from: usize, to: usize) -> Piece {
        match (u32::try_from(from), u32::try_from(to)) {
            (Ok(from), Ok(to)) => Piece::Src(from, to),
            _ => self.src.get(from..to).unwrap_or_default().into(),
        }
    }

    /// `value` as a piece of the source when it is one (a label without
    /// escapes), else owned.
    fn borrowed(&self, value: &str) -> Piece {
        let start = (value.as_ptr() as usize).wrapping_sub(self.src.as_ptr() as usize);
        let end = start.saturating_add(value.len());
        match self.src.get(start..end) {
            Some(s) if std::ptr::eq(s, value) => self.piece(start, end),
            _ => value.into(),
        }
    }

    /// The body whose items are `body`'s, from byte `lo` to `hi`.
    fn body(&self, body: &ast::Body<'_>, lo: usize, hi: usize, depth: usize) -> Body {
        let mut items = Vec::with_capacity(body.items.len() * 2 + 1);
        // The body's own reference to the source, taken at its first
        // trivia item.
        let mut src = Src::default();
        let mut cursor = lo;
        let mut spans = body.items.iter().map(ast::Structure::span).peekable();
        for item in &body.items {
            let span = spans.next().unwrap_or_else(|| item.span());
            let first = span.start().clamp(cursor, hi);
            let end = span.end().clamp(first, hi);
            // Lead comments: comment tokens directly above, whitespace
            // between them allowed (the reference's scanner skips it).
            let lead = gap::lead_start(self.src.as_bytes(), cursor, first);
            if lead > cursor {
                src.share(&self.shared);
                items.push(Item::Trivia(self.piece(cursor, lead)));
            }
            let lead_text = self.piece(lead, first);
            let next = spans.peek().map_or(hi, |s| s.start().clamp(end, hi));
            let line_end = gap::line_end(self.src.as_bytes(), end, next);
            let trail = self.piece(end, line_end);
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
            src.share(&self.shared);
            items.push(Item::Trivia(self.piece(cursor, hi)));
        }
        Body {
            src,
            items,
            cleared: Vec::new(),
            depth,
        }
    }
    fn attribute(
        &self,
        a: &ast::Attribute<'_>,
        lead: Piece,
        item_end: usize,
        trail: Piece,
    ) -> Attribute {
        let expr_start = a.expr.span.start().max(a.name.span.end());
        Attribute {
            src: self.src(),
            lead,
            name: self.piece(a.name.span.start(), a.name.span.end()),
            eq: self.piece(a.name.span.end(), expr_start),
            expr: Expression::from_text(self.text(expr_start, item_end.max(expr_start))),
            trail,
        }
    }

    fn block(
        &self,
        b: &ast::Block<'_>,
        lead: Piece,
        item_end: usize,
        trail: Piece,
        depth: usize,
    ) -> Block {
        let mut prev = b.ident.span.end();
        let mut labels = Vec::with_capacity(b.labels.len());
        for label in &b.labels {
            let span = label.span();
            labels.push(Label {
                pre: self.piece(prev, span.start()),
                text: self.piece(span.start(), span.end()),
                value: match label {
                    ast::BlockLabel::Ident(i) => self.piece(i.span.start(), i.span.end()),
                    ast::BlockLabel::String(s) => self.borrowed(&s.value),
                },
            });
            prev = span.end();
        }
        let open = self.piece(prev, b.open_brace.end());
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
            src: self.src(),
            lead,
            ident: self.piece(b.ident.span.start(), b.ident.span.end()),
            labels,
            open,
            body,
            close: self.piece(hi, close_end),
            trail,
        }
    }
}
