//! The fast path's structural language: bodies, attributes, blocks, labels.

use super::{take_from, Parser};
use crate::ast::{Attribute, Block, BlockLabel, Body, Expr, Ident, StrLit, Structure};
use crate::parser::lower::{string, structure};
use crate::span::Span;

impl<'i> Parser<'i> {
    /// `config_file`: a body up to the end of the input.
    pub(super) fn config_file(&mut self, span: Span) -> Option<Body<'i>> {
        let items = self.body_items(true)?;
        Some(Body { items, span })
    }

    /// `expr_file`: `ws`, one expression, the end.
    pub(super) fn expr_file(&mut self) -> Option<Expr<'i>> {
        self.ws()?;
        let e = self.expression(false)?;
        self.at_end().then_some(e)
    }

    /// The items of a body: of the file (`top`, up to the end) or of a
    /// multi-line block (up to its `}`, not consumed). Repeated attribute
    /// names give up (the pest route reports them).
    fn body_items(&mut self, top: bool) -> Option<Box<[Structure<'i>]>> {
        let base = self.items.len();
        loop {
            self.sp()?;
            match self.peek() {
                None if top => break,
                Some(b'}') if !top => break,
                Some(c) if super::ident_start(c) => {
                    let (depth, qs) = (self.depth, self.qs);
                    let item = self.item()?;
                    self.items.push(item);
                    (self.depth, self.qs) = (depth, qs);
                    self.sp()?;
                    if !(self.nl() || top && self.at_end()) {
                        return None;
                    }
                }
                _ => {
                    if !self.nl() {
                        return None;
                    }
                }
            }
        }
        let items = self.items.get(base..)?;
        structure::check_duplicates(&self.ctx, items).ok()?;
        if top {
            // The file's own list is the last one (`base` is 0): the stack's
            // buffer itself, shrunk to its length in place, rather than a
            // copy of it (for a large file, megabytes of fresh memory).
            return Some(std::mem::take(&mut self.items).into_boxed_slice());
        }
        Some(take_from(&mut self.items, base))
    }

    /// An attribute or a block, at an identifier.
    fn item(&mut self) -> Option<Structure<'i>> {
        let name = self.ident()?;
        self.sp()?;
        if self.peek() == Some(b'=') {
            return self.attribute_rest(name).map(Structure::Attribute);
        }
        self.block_rest(name).map(|b| Structure::Block(Box::new(b)))
    }

    /// An identifier.
    pub(super) fn ident(&mut self) -> Option<Ident<'i>> {
        let span = self.ident_span()?;
        Some(Ident {
            name: self.str(span)?,
            span,
        })
    }

    /// The rest of an attribute, at its `=`.
    fn attribute_rest(&mut self, name: Ident<'i>) -> Option<Attribute<'i>> {
        self.expect(b'=')?;
        self.sp()?;
        let expr = self.expression(true)?;
        Some(Attribute {
            span: Span::at(name.span.start(), expr.span.end()),
            name,
            expr,
        })
    }

    /// The rest of a block: labels, `{`, body, `}`.
    fn block_rest(&mut self, ident: Ident<'i>) -> Option<Block<'i>> {
        let saved = self.depth;
        self.enter(1)?;
        let base = self.labels.len();
        loop {
            let label = match self.peek() {
                Some(b'"') => BlockLabel::String(self.label()?),
                Some(b'{') => break,
                _ => BlockLabel::Ident(self.ident()?),
            };
            self.labels.push(label);
            self.sp()?;
        }
        let open = self.pos;
        self.expect(b'{')?;
        let open_brace = Span::at(open, self.pos);
        self.sp()?;
        let items: Box<[Structure<'i>]> = if self.nl() {
            self.body_items(false)?
        } else if self.peek().is_some_and(super::ident_start) {
            // A one-line block: one attribute.
            let name = self.ident()?;
            self.sp()?;
            if self.peek() != Some(b'=') {
                return None;
            }
            let a = self.attribute_rest(name)?;
            Box::new([Structure::Attribute(a)])
        } else {
            Box::default()
        };
        self.sp()?;
        let close = self.pos;
        self.expect(b'}')?;
        let close_brace = Span::at(close, self.pos);
        self.depth = saved;
        Some(Block {
            span: Span::at(ident.span.start(), close_brace.end()),
            ident,
            labels: take_from(&mut self.labels, base),
            body: Body {
                items,
                span: Span::at(open_brace.end(), close_brace.start()),
            },
            open_brace,
            close_brace,
        })
    }

    /// A quoted block label: a literal string only, decoded, not normalized.
    fn label(&mut self) -> Option<StrLit<'i>> {
        let start = self.pos;
        let saved = self.depth;
        self.enter(1)?;
        self.expect(b'"')?;
        let (lit, plain) = self.quoted_literal()?;
        self.expect(b'"')?;
        self.depth = saved;
        let span = Span::at(start, self.pos);
        let inner = Span::at(start + 1, lit);
        let value =
            string::decode_scanned(&self.ctx, self.str(inner)?, inner.start(), plain).ok()?;
        Some(StrLit { value, span })
    }
}
