//! The fast path's templates: quoted strings, heredocs, standalone
//! templates and their `${ }` / `%{ }` sequences. The flat tokens go
//! through the shared lowering (`lower::template::finish`).

use super::Parser;
use crate::ast::{Expr, ExprKind, Heredoc, Interpolation, StrLit, Strip, Template, TemplateExpr};
use crate::parser::lower::string;
use crate::parser::lower::template::{self, Tok};
use crate::scan::{self, Ident, Literal, Sequence, Stop};
use crate::span::Span;
use std::borrow::Cow;

impl<'i> Parser<'i> {
    /// A quoted literal's bytes from the cursor, up to a `"`, `${` or `%{`
    /// (not consumed): its end, and whether it is plain (no escape, `$` or
    /// `%`: it decodes to itself). `None` at a newline, the end of the
    /// input or a `\` before a newline (all errors for pest).
    pub(super) fn quoted_literal(&mut self) -> Option<(usize, bool)> {
        let (end, stop, plain) = scan::literal_end_plain(self.b, self.pos, Literal::Quoted, false);
        self.skip_to(end);
        matches!(stop, Stop::Quote | Stop::Sequence).then_some((end, plain))
    }

    /// A quoted template, at `"`: a string when it is one literal.
    pub(super) fn quoted(&mut self) -> Option<Expr<'i>> {
        let start = self.pos;
        let (saved, qs) = (self.depth, self.qs);
        self.enter(1)?;
        self.pos += 1;
        let (end, plain) = self.quoted_literal()?;
        let first = Span::at(start + 1, end);
        if self.eat(b'"') {
            let value = if first.is_empty() {
                Cow::Borrowed("")
            } else {
                string::unescape_scanned(&self.ctx, self.str(first)?, first.start(), plain).ok()?
            };
            self.depth = saved;
            return Some(Expr {
                kind: ExprKind::String(value),
                span: Span::at(start, self.pos),
            });
        }
        self.enter(1)?;
        let mut toks = Vec::new();
        self.push_quoted(&mut toks, first, plain)?;
        loop {
            self.sequence(&mut toks)?;
            let ls = self.pos;
            let (le, plain) = self.quoted_literal()?;
            self.push_quoted(&mut toks, Span::at(ls, le), plain)?;
            if self.eat(b'"') {
                break;
            }
        }
        let span = Span::at(start, self.pos);
        let t = template::finish(&mut self.ctx, toks, span, false).ok()?;
        (self.depth, self.qs) = (saved, qs);
        Some(Expr {
            kind: template::quoted_kind(t),
            span,
        })
    }

    /// A quoted literal token, when not empty (`plain` as
    /// [`Parser::quoted_literal`] says).
    fn push_quoted(&mut self, toks: &mut Vec<Tok<'i>>, s: Span, plain: bool) -> Option<()> {
        if !s.is_empty() {
            let value = string::unescape_scanned(&self.ctx, self.str(s)?, s.start(), plain).ok()?;
            toks.push(Tok::Lit(StrLit { value, span: s }));
        }
        Some(())
    }

    /// A `${ ... }` or `%{ ... }` sequence at the cursor, as a token. An
    /// `if` or `for` directive leaves the depth one deeper (until its end
    /// directive, or the end of the template).
    fn sequence(&mut self, toks: &mut Vec<Tok<'i>>) -> Option<()> {
        let start = self.pos;
        let (sequence, end) = scan::sequence_at(self.b, start)?;
        let interp = sequence == Sequence::Interp;
        let left = end - start == 3;
        self.skip_to(end);
        let (saved, qs) = (self.depth, self.qs);
        self.enter(1)?;
        self.ws()?;
        let mut opened = 0isize;
        let tok = if interp {
            let expr = self.expression(false)?;
            let right = self.seq_close()?;
            Tok::Interp(Interpolation {
                expr,
                strip: Strip { left, right },
                span: Span::at(start, self.pos),
            })
        } else if self.keyword(b"if")? {
            // The pre-scan counts the directive and its sequence.
            self.enter(1)?;
            self.ws()?;
            let cond = self.expression(false)?;
            let right = self.seq_close()?;
            opened = 1;
            Tok::If {
                cond,
                strip: Strip { left, right },
                span: Span::at(start, self.pos),
            }
        } else if self.keyword(b"else")? {
            self.ws()?;
            let right = self.seq_close()?;
            Tok::Else {
                strip: Strip { left, right },
                span: Span::at(start, self.pos),
            }
        } else if self.keyword(b"endif")? {
            self.ws()?;
            let right = self.seq_close()?;
            opened = -1;
            Tok::EndIf {
                strip: Strip { left, right },
                span: Span::at(start, self.pos),
            }
        } else if self.keyword(b"for")? {
            self.enter(1)?;
            let (key_var, value_var, collection) = self.for_head()?;
            let right = self.seq_close()?;
            opened = 1;
            Tok::For {
                key_var,
                value_var,
                collection,
                strip: Strip { left, right },
                span: Span::at(start, self.pos),
            }
        } else if self.keyword(b"endfor")? {
            self.ws()?;
            let right = self.seq_close()?;
            opened = -1;
            Tok::EndFor {
                strip: Strip { left, right },
                span: Span::at(start, self.pos),
            }
        } else {
            return None;
        };
        (self.depth, self.qs) = (saved, qs);
        match opened {
            1 => self.enter(1)?,
            -1 => self.depth = self.depth.saturating_sub(1),
            _ => {}
        }
        toks.push(tok);
        Some(())
    }

    /// `seq_close`: `}` or `~}`; whether it strips.
    fn seq_close(&mut self) -> Option<bool> {
        let right = self.eat(b'~');
        self.expect(b'}')?;
        Some(right)
    }

    /// Whether the line at `at` closes the heredoc `marker`: where its
    /// blanks end (at the newline).
    fn heredoc_end(&self, at: usize, marker: &[u8]) -> Option<usize> {
        let end = scan::heredoc_close(self.b, at, marker);
        #[cfg(test)]
        self.work
            .set(self.work.get() + marker.len() + end.map_or(0, |e| e - at));
        end
    }

    /// A heredoc, at `<<`.
    pub(super) fn heredoc(&mut self) -> Option<Expr<'i>> {
        let start = self.pos;
        let (saved, qs) = (self.depth, self.qs);
        self.enter(2)?;
        let open = scan::heredoc_open(self.b, start, Ident::Grammar)?;
        let indented = open.indented;
        let marker = self.str(Span::at(open.marker.start, open.marker.end))?;
        if !marker.is_ascii() {
            // Left to pest, with the lowering's identifier check.
            return None;
        }
        self.skip_to(open.end);
        let content_start = self.pos;
        let mut toks = Vec::new();
        let (content_end, end) = match self.heredoc_end(self.pos, marker.as_bytes()) {
            Some(end) => (content_start, end),
            None => loop {
                let ls = self.pos;
                let stop = loop {
                    let (at, stop) = scan::literal_end(self.b, self.pos, Literal::Heredoc, false);
                    self.skip_to(at);
                    match stop {
                        Stop::Sequence => break None,
                        Stop::Newline => {
                            // A lone `\r` is left to pest.
                            let nl = scan::newline_len(self.b, at);
                            if nl == 0 {
                                return None;
                            }
                            if let Some(end) = self.heredoc_end(at + nl, marker.as_bytes()) {
                                break Some((end, nl));
                            }
                            self.skip_to(at + nl);
                        }
                        _ => return None,
                    }
                };
                if self.pos > ls {
                    template::push_raw_literal(&mut toks, self.str(Span::at(ls, self.pos))?, ls);
                }
                match stop {
                    Some((end, nl)) => {
                        let eol = Span::at(self.pos, self.pos + nl);
                        template::push_eol(&self.ctx, &mut toks, eol);
                        break (eol.end(), end);
                    }
                    None => self.sequence(&mut toks)?,
                }
            },
        };
        self.pos = end;
        let t = template::finish(
            &mut self.ctx,
            toks,
            Span::at(content_start, content_end),
            indented,
        )
        .ok()?;
        (self.depth, self.qs) = (saved, qs);
        Some(Expr {
            kind: ExprKind::Template(Box::new(TemplateExpr {
                template: t,
                heredoc: Some(Heredoc { marker, indented }),
            })),
            span: Span::at(start, end),
        })
    }

    /// `template_file`: literal runs and sequences up to the end.
    pub(super) fn template_file(&mut self, span: Span) -> Option<Template<'i>> {
        self.enter(1)?;
        let mut toks = Vec::new();
        loop {
            let ls = self.pos;
            let (at, stop) = scan::literal_end(self.b, ls, Literal::Bare, false);
            self.skip_to(at);
            let more = stop == Stop::Sequence;
            if self.pos > ls {
                template::push_raw_literal(&mut toks, self.str(Span::at(ls, self.pos))?, ls);
            }
            if !more {
                break;
            }
            self.sequence(&mut toks)?;
        }
        template::finish(&mut self.ctx, toks, span, false).ok()
    }
}
