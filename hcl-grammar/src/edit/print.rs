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
                Item::Trivia(t) => f(t)?,
                Item::Attribute(a) => a.pieces(f)?,
                Item::Block(b) => b.pieces(f)?,
            }
        }
        Ok(())
    }
}

impl Attribute {
    fn pieces<E>(&self, f: &mut impl FnMut(&str) -> Result<(), E>) -> Result<(), E> {
        f(&self.lead)?;
        f(&self.name)?;
        f(&self.eq)?;
        f(&self.expr.text)?;
        f(&self.trail)
    }
}

impl Block {
    fn pieces<E>(&self, f: &mut impl FnMut(&str) -> Result<(), E>) -> Result<(), E> {
        f(&self.lead)?;
        f(&self.ident)?;
        for l in &self.labels {
            f(&l.pre)?;
            f(&l.text)?;
        }
        f(&self.open)?;
        self.body.pieces(f)?;
        f(&self.close)?;
        f(&self.trail)
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
