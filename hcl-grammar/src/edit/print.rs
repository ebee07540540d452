//! Printing: the unformatted print (the pieces as they are, so an unedited
//! document prints as its input) and the formatted print (the formatter's
//! pass over the pieces' tokens, as `hclwrite`'s `File.Bytes()`).
//!
//! The formatted print formats the tokens of the pieces: those of the
//! printed text when every piece starts at a token boundary there, else
//! each piece lexed on its own. Like `hclwrite`, which formats its tree's
//! tokens, it keeps a new attribute appended after a comment that ends a
//! file without a newline an attribute (in the printed text, it would
//! read as part of the comment).

use super::tree::{Attribute, Block, Body, Item};
use crate::span::Span;
use crate::tokens::{lex, Token};
use crate::{FormatOptions, Result};
use std::fmt::{self, Display, Formatter};

impl Body {
    /// Calls `f` with each piece of the body's text, in order.
    pub(crate) fn pieces<E>(&self, f: &mut impl FnMut(&str) -> Result<(), E>) -> Result<(), E> {
        for item in &self.items {
            match item {
                Item::Trivia(t) => f(t.get(&self.src))?,
                Item::Attribute(a) => a.pieces(f)?,
                Item::Block(b) => b.pieces(f)?,
            }
        }
        Ok(())
    }
}

impl Attribute {
    /// The attribute's pieces: lead, name, `=`, expression, line end.
    pub(crate) fn strs(&self) -> [&str; 5] {
        let src = &self.src;
        [
            self.lead.get(src),
            self.name.get(src),
            self.eq.get(src),
            &self.expr.text,
            self.trail.get(src),
        ]
    }

    fn pieces<E>(&self, f: &mut impl FnMut(&str) -> Result<(), E>) -> Result<(), E> {
        self.strs().into_iter().try_for_each(f)
    }
}

impl Block {
    fn pieces<E>(&self, f: &mut impl FnMut(&str) -> Result<(), E>) -> Result<(), E> {
        let src = &self.src;
        f(self.lead.get(src))?;
        f(self.ident.get(src))?;
        for l in &self.labels {
            f(l.pre.get(src))?;
            f(l.text.get(src))?;
        }
        f(self.open.get(src))?;
        self.body.pieces(f)?;
        f(self.close.get(src))?;
        f(self.trail.get(src))
    }

    /// The block's pieces around its labels and body: lead, type, `{`,
    /// `}`, line end.
    fn strs(&self) -> [&str; 5] {
        let src = &self.src;
        [
            self.lead.get(src),
            self.ident.get(src),
            self.open.get(src),
            self.close.get(src),
            self.trail.get(src),
        ]
    }

    /// The labels' pieces: before, source text, value.
    fn label_strs(&self) -> impl Iterator<Item = [&str; 3]> + '_ {
        let src = &self.src;
        self.labels
            .iter()
            .map(move |l| [l.pre.get(src), l.text.get(src), l.value.get(src)])
    }
}

// Equality and `Debug` by text: nodes are equal when their pieces' texts
// are, wherever the texts live (the source or an edit).

impl PartialEq for Body {
    fn eq(&self, other: &Body) -> bool {
        self.depth == other.depth
            && self.cleared == other.cleared
            && self.items.len() == other.items.len()
            && self.items.iter().zip(&other.items).all(|pair| match pair {
                (Item::Trivia(a), Item::Trivia(b)) => a.get(&self.src) == b.get(&other.src),
                (Item::Attribute(a), Item::Attribute(b)) => a == b,
                (Item::Block(a), Item::Block(b)) => a == b,
                _ => false,
            })
    }
}

impl Eq for Body {}

impl PartialEq for Attribute {
    fn eq(&self, other: &Attribute) -> bool {
        self.strs() == other.strs()
    }
}

impl Eq for Attribute {}

impl PartialEq for Block {
    fn eq(&self, other: &Block) -> bool {
        self.strs() == other.strs()
            && self.label_strs().eq(other.label_strs())
            && self.body == other.body
    }
}

impl Eq for Block {}

impl fmt::Debug for Body {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        struct Items<'a>(&'a Body);
        impl fmt::Debug for Items<'_> {
            fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
                let mut list = f.debug_list();
                for item in &self.0.items {
                    match item {
                        Item::Trivia(t) => list.entry(&t.get(&self.0.src)),
                        Item::Attribute(a) => list.entry(a),
                        Item::Block(b) => list.entry(b),
                    };
                }
                list.finish()
            }
        }
        f.debug_struct("Body")
            .field("items", &Items(self))
            .field("cleared", &self.cleared)
            .field("depth", &self.depth)
            .finish()
    }
}

impl fmt::Debug for Attribute {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let [lead, name, eq, expr, trail] = self.strs();
        f.debug_struct("Attribute")
            .field("lead", &lead)
            .field("name", &name)
            .field("eq", &eq)
            .field("expr", &expr)
            .field("trail", &trail)
            .finish()
    }
}

impl fmt::Debug for Block {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let [lead, ident, open, close, trail] = self.strs();
        f.debug_struct("Block")
            .field("lead", &lead)
            .field("ident", &ident)
            .field("labels", &self.label_strs().collect::<Vec<_>>())
            .field("open", &open)
            .field("body", &self.body)
            .field("close", &close)
            .field("trail", &trail)
            .finish()
    }
}

impl Display for Body {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        self.pieces(&mut |s| f.write_str(s))
    }
}

impl Display for Attribute {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        self.pieces(&mut |s| f.write_str(s))
    }
}

impl Display for Block {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        self.pieces(&mut |s| f.write_str(s))
    }
}

/// The unformatted print of `body` into a new string.
pub(crate) fn print(body: &Body, capacity: usize) -> String {
    let mut out = String::with_capacity(capacity);
    let _ = body.pieces(&mut |s| -> Result<(), ()> {
        out.push_str(s);
        Ok(())
    });
    out
}

/// The formatted print of `body`.
pub(crate) fn print_formatted(body: &Body, capacity: usize) -> Result<String> {
    let mut src = String::with_capacity(capacity);
    let mut bounds = Vec::with_capacity(capacity / 4);
    let _ = body.pieces(&mut |s| -> Result<(), ()> {
        src.push_str(s);
        bounds.push(src.len());
        Ok(())
    });
    let mut tokens = lex(src.as_bytes());
    if !on_boundaries(&tokens, &bounds, src.len()) {
        // A piece's text ran into the next one's when lexed together (a
        // comment without its newline before a new item): lex each
        // piece on its own.
        tokens.clear();
        let mut start = 0;
        for &end in &bounds {
            let piece = src.as_bytes().get(start..end).unwrap_or_default();
            tokens.extend(lex(piece).into_iter().map(|t| Token {
                kind: t.kind,
                span: Span::new(t.span.start() + start, t.span.end() + start),
            }));
            start = end;
        }
    }
    let options = FormatOptions::default();
    let out = crate::format::format_token_list(src.as_bytes(), &tokens, &options)?;
    // Only ASCII spaces are added or removed, between tokens of UTF-8
    // text: the output is UTF-8 (the lossy conversion never replaces).
    Ok(match String::from_utf8(out) {
        Ok(text) => text,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    })
}

/// Whether every piece boundary in `bounds` (sorted) is a token boundary.
fn on_boundaries(tokens: &[Token], bounds: &[usize], len: usize) -> bool {
    let mut i = 0;
    for &b in bounds {
        while tokens.get(i).is_some_and(|t| t.span.start() < b) {
            i += 1;
        }
        let at_token = tokens.get(i).is_some_and(|t| t.span.start() == b);
        if !at_token && b != len {
            return false;
        }
    }
    true
}
