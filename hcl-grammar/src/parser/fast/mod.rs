//! The hand-written fast path: cursor, separators, comments and depth.
//!
//! A byte-level recursive-descent parser for the common shapes of the
//! native syntax, tried before pest. It builds exactly the tree the pest
//! route builds (same nodes, spans and decoded strings), or gives up with
//! `None` ("not sure") on any syntax error and on anything it does not
//! handle (a lone `\r`, a byte order mark, a non-ASCII identifier, nesting past
//! its depth bound, ...). The caller then runs the pest route, which stays
//! the grammar's authority and the only source of error messages. The two
//! are kept identical by differential tests (`tests/fast_vs_pest.rs`) and a
//! fuzz target (`fuzz_targets/fast_vs_pest.rs`).
//!
//! The productions mirror `hcl.pest` rule by rule, and the lexical rules
//! (comments, newlines, literals, heredoc markers, identifiers, numbers)
//! are [`crate::scan`]'s; the grammar's two separators are
//! [`Parser::sp`] (newlines significant) and [`Parser::ws`] (newlines
//! skipped). The work is linear: every byte is looked at a bounded number
//! of times and nothing is parsed twice.

mod expr;
mod structure;
mod template;

use super::{Ctx, Source};
use crate::ast::{BlockLabel, Body, Expr, ObjectItem, Structure, Template};
use crate::scan::{self, Comment};
use crate::span::Span;
use crate::ParseOptions;

/// The deepest nesting the fast path follows, whatever `max_depth` says:
/// its recursion stays far from the stack's end.
const MAX_DEPTH: usize = 256;

/// The fast parser's state.
pub(super) struct Parser<'i> {
    /// The input (for a piece of a text: the text up to the piece's end).
    src: &'i str,
    b: &'i [u8],
    pos: usize,
    /// An over-estimate of the tree's nesting (and of the pest route's
    /// pre-scan count) at the cursor: brackets, strings, template
    /// sequences, operators and postfix steps of the open expressions.
    depth: usize,
    /// The `?` of conditionals, released only where the pest route's
    /// pre-scan releases them (at `,`, a newline between items, a closing
    /// bracket) or later.
    qs: usize,
    limit: usize,
    /// For the shared lowering helpers (string decoding, templates, splats).
    ctx: Ctx<'i, 'i>,
    /// Scratch stacks: the elements of the open lists (arguments and
    /// tuple items, object items, body items, block labels), each list
    /// moved out into a boxed slice of its exact length when it closes.
    exprs: Vec<Expr<'i>>,
    elems: Vec<ObjectItem<'i>>,
    items: Vec<Structure<'i>>,
    labels: Vec<BlockLabel<'i>>,
    /// Bytes looked at (for the linearity test).
    #[cfg(test)]
    work: std::cell::Cell<usize>,
}

/// Whether `c` may start an identifier (ASCII only: anything else is left
/// to pest).
#[inline]
fn ident_start(c: u8) -> bool {
    c.is_ascii() && scan::is_ident_start(c)
}

impl<'i> Parser<'i> {
    /// A parser of `src[start..]`.
    fn new(src: &'i str, start: usize, options: &ParseOptions) -> Option<Self> {
        let b = src.as_bytes();
        Some(Parser {
            src,
            b,
            pos: start,
            depth: 0,
            qs: 0,
            limit: options.max_depth.min(MAX_DEPTH),
            ctx: Ctx::new(src, Source::Str(src), options),
            exprs: Vec::new(),
            elems: Vec::new(),
            items: Vec::new(),
            labels: Vec::new(),
            #[cfg(test)]
            work: std::cell::Cell::new(0),
        })
    }

    #[inline]
    fn peek(&self) -> Option<u8> {
        #[cfg(test)]
        self.work.set(self.work.get() + 1);
        self.b.get(self.pos).copied()
    }

    #[inline]
    fn peek_at(&self, k: usize) -> Option<u8> {
        #[cfg(test)]
        self.work.set(self.work.get() + 1);
        self.b.get(self.pos + k).copied()
    }

    #[inline]
    fn at_end(&self) -> bool {
        self.pos >= self.b.len()
    }

    /// Whether the input at the cursor starts with `s`.
    #[inline]
    fn looking_at(&self, s: &[u8]) -> bool {
        self.b.get(self.pos..).is_some_and(|r| r.starts_with(s))
    }

    /// Consumes `c` if it is next.
    #[inline]
    fn eat(&mut self, c: u8) -> bool {
        if self.peek() == Some(c) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    /// Consumes `c`, or gives up.
    #[inline]
    fn expect(&mut self, c: u8) -> Option<()> {
        self.eat(c).then_some(())
    }

    /// The source text of `span`.
    #[inline]
    fn str(&self, span: Span) -> Option<&'i str> {
        self.src.get(span.range())
    }

    /// One level deeper (a bracket, string, sequence, operator, step).
    #[inline]
    fn enter(&mut self, n: usize) -> Option<()> {
        self.depth += n;
        (self.depth + self.qs <= self.limit).then_some(())
    }

    /// Moves the cursor to `to`, past bytes a [`scan`] rule has read.
    #[inline]
    fn skip_to(&mut self, to: usize) {
        #[cfg(test)]
        self.work.set(self.work.get() + to.saturating_sub(self.pos));
        self.pos = to;
    }

    /// Skips a `/* */` comment at the cursor; `None` when unterminated
    /// (the pest route then fails: no rule accepts a lone `/*`).
    #[inline]
    fn inline_comment(&mut self) -> Option<()> {
        let end = scan::inline_comment_end(self.b, self.pos)?;
        self.skip_to(end);
        Some(())
    }

    /// Skips a line comment (`#` or `//`) up to its newline, not included.
    #[inline]
    fn line_comment(&mut self) {
        self.skip_to(scan::line_comment_end(self.b, self.pos));
    }

    /// `sp`: spaces, tabs and inline comments.
    #[inline]
    fn sp(&mut self) -> Option<()> {
        loop {
            match self.peek() {
                Some(b' ' | b'\t') => self.pos += 1,
                Some(b'/') if self.peek_at(1) == Some(b'*') => self.inline_comment()?,
                _ => return Some(()),
            }
        }
    }

    /// `ws`: `sp` plus newlines and line comments.
    #[inline]
    fn ws(&mut self) -> Option<()> {
        // Most separators are empty (`a.b`, `f(x)`, `[1, 2]`): one byte
        // looked at, inline, before the loop.
        match self.peek() {
            Some(b' ' | b'\t' | b'\n' | b'\r' | b'#' | b'/') => self.ws_loop(),
            _ => Some(()),
        }
    }

    /// [`Parser::ws`] past its first byte's check.
    #[inline(never)]
    fn ws_loop(&mut self) -> Option<()> {
        loop {
            match self.peek() {
                Some(b' ' | b'\t') => self.pos += 1,
                Some(b'\n' | b'\r') => {
                    if !self.nl_raw() {
                        return Some(());
                    }
                }
                Some(b'#' | b'/') => match scan::comment_at(self.b, self.pos) {
                    Some(Comment::Line) => self.line_comment(),
                    Some(Comment::Inline) => self.inline_comment()?,
                    None => return Some(()),
                },
                _ => return Some(()),
            }
        }
    }

    /// The separator of a mode: `ws` where newlines are ignored, else `sp`.
    #[inline]
    fn sep(&mut self, nl: bool) -> Option<()> {
        if nl {
            self.sp()
        } else {
            self.ws()
        }
    }

    /// `nl_raw`: `\n` or `\r\n`, consumed.
    #[inline]
    fn nl_raw(&mut self) -> bool {
        let len = scan::newline_len(self.b, self.pos);
        self.skip_to(self.pos + len);
        len > 0
    }

    /// `nl`: a newline, or a line comment and its newline (or the end).
    #[inline]
    fn nl(&mut self) -> bool {
        if scan::comment_at(self.b, self.pos) == Some(Comment::Line) {
            self.line_comment();
            self.nl_raw();
            return true;
        }
        self.nl_raw()
    }

    /// An ASCII identifier at the cursor; `None` when there is none or it
    /// runs into a non-ASCII character (left to pest).
    ///
    /// [`scan::ident_end`] in one pass over ASCII bytes by a table: an
    /// identifier that goes on into a non-ASCII byte is one of them.
    #[inline]
    fn ident_span(&mut self) -> Option<Span> {
        let start = self.pos;
        let rest = self.b.get(start..)?;
        if !rest.first().is_some_and(|&c| ident_start(c)) {
            return None;
        }
        // A byte indexes a 256-entry table: always in bounds.
        #[allow(clippy::indexing_slicing)]
        let len = rest
            .iter()
            .position(|&c| !scan::ASCII_IDENT_BYTE[usize::from(c)])
            .unwrap_or(rest.len());
        if rest.get(len).is_some_and(|&c| !c.is_ascii()) {
            return None;
        }
        let end = start + len;
        self.skip_to(end);
        Some(Span::at(start, end))
    }

    /// A keyword at the cursor (`"for"`, `"in"`, `"if"`, ...), not followed
    /// by an identifier character; consumed when it is there.
    #[inline]
    fn keyword(&mut self, kw: &[u8]) -> Option<bool> {
        if !self.looking_at(kw) {
            return Some(false);
        }
        match self.b.get(self.pos + kw.len()) {
            Some(&c) if c >= 0x80 => None,
            Some(&c) if scan::is_ident_byte(c) => Some(false),
            _ => {
                self.pos += kw.len();
                Some(true)
            }
        }
    }
}

/// The config file at `span` of `src` (the whole text for a file), or
/// `None` (see the module docs).
pub(super) fn parse_body<'i>(src: &'i str, span: Span, options: &ParseOptions) -> Option<Body<'i>> {
    let mut p = Parser::new(src.get(..span.end())?, span.start(), options)?;
    p.config_file(span)
}

/// The standalone expression at `span` of `src`, or `None`.
pub(super) fn parse_expr<'i>(src: &'i str, span: Span, options: &ParseOptions) -> Option<Expr<'i>> {
    let mut p = Parser::new(src.get(..span.end())?, span.start(), options)?;
    p.expr_file()
}

#[cfg(test)]
mod tests;

/// The standalone template at `span` of `src`, or `None`.
pub(super) fn parse_template<'i>(
    src: &'i str,
    span: Span,
    options: &ParseOptions,
) -> Option<Template<'i>> {
    let mut p = Parser::new(src.get(..span.end())?, span.start(), options)?;
    p.template_file(span)
}

/// The elements of `stack` from `base` on, moved (one copy) into a boxed
/// slice of their exact length; `stack` keeps its buffer for the next list.
fn take_from<T>(stack: &mut Vec<T>, base: usize) -> Box<[T]> {
    if base == 0 {
        // `split_off(0)` would hand over the buffer, spare capacity and all.
        let mut out = Vec::with_capacity(stack.len());
        out.append(stack);
        out.into_boxed_slice()
    } else {
        stack.split_off(base).into_boxed_slice()
    }
}
