//! The fast path's expressions: operators, terms, postfix steps, calls,
//! collections and `for` expressions.

use super::{ident_start, take_from, Parser};
use crate::ast::{
    BinaryOp, Conditional, Expr, ExprKind, ForExpr, FuncCall, Ident, ObjectItem, UnaryExpr, UnaryOp,
};
use crate::error::Error;
use crate::parser::lower::expr::{
    apply_postfixes, climb, get_attr, index, legacy_index, name_kind, object_key, Step, StepKind,
};
use crate::parser::Ctx;
use crate::scan;
use crate::span::Span;
use crate::Result;

/// One postfix step, for the shared splat assembly.
enum Post<'i> {
    GetAttr(Ident<'i>, Span),
    /// The number token, the whole step.
    Legacy(Span, Span),
    AttrSplat(Span),
    FullSplat(Span),
    Index(Expr<'i>, Span),
}

impl<'i> Step<'i> for Post<'i> {
    fn kind(&self) -> StepKind {
        match self {
            Post::GetAttr(..) => StepKind::GetAttr,
            Post::Legacy(..) => StepKind::Legacy,
            Post::AttrSplat(_) => StepKind::AttrSplat,
            Post::FullSplat(_) => StepKind::FullSplat,
            Post::Index(..) => StepKind::Index,
        }
    }

    fn span(&self, _: &Ctx<'_, 'i>) -> Span {
        match self {
            Post::GetAttr(_, s)
            | Post::Legacy(_, s)
            | Post::AttrSplat(s)
            | Post::FullSplat(s)
            | Post::Index(_, s) => *s,
        }
    }

    fn apply(self, ctx: &mut Ctx<'_, 'i>, obj: Expr<'i>) -> Result<Expr<'i>> {
        match self {
            Post::GetAttr(name, s) => Ok(get_attr(obj, name, s)),
            Post::Legacy(digits, s) => Ok(legacy_index(obj, ctx.str(digits), digits, s)),
            Post::Index(key, s) => Ok(index(obj, key, s)),
            Post::AttrSplat(s) | Post::FullSplat(s) => Err(not_a_step(ctx, s)),
        }
    }
}

#[cold]
fn not_a_step(ctx: &Ctx<'_, '_>, s: Span) -> Error {
    ctx.err("a splat is not a step", s)
}

impl<'i> Parser<'i> {
    /// `expression` (newlines ignored) or `expression_nl` (`nl`: newlines
    /// end it): an operation, then optionally a conditional's branches.
    pub(super) fn expression(&mut self, nl: bool) -> Option<Expr<'i>> {
        let saved = self.depth;
        let mut e = self.operand(nl)?;
        if let Some(op) = self.binary_op() {
            let mut operands = vec![e];
            let mut ops = vec![op];
            loop {
                self.enter(1)?;
                self.sep(nl)?;
                operands.push(self.operand(nl)?);
                match self.binary_op() {
                    Some(op) => ops.push(op),
                    None => break,
                }
            }
            e = climb(operands, ops)?;
        }
        if self.eat(b'?') {
            self.qs += 1;
            self.enter(0)?;
            self.sep(nl)?;
            let then_expr = self.expression(nl)?;
            self.expect(b':')?;
            self.sep(nl)?;
            let else_expr = self.expression(nl)?;
            e = Expr {
                span: Span::at(e.span.start(), else_expr.span.end()),
                kind: ExprKind::Conditional(Box::new(Conditional {
                    cond: e,
                    then_expr,
                    else_expr,
                })),
            };
        }
        self.depth = saved;
        Some(e)
    }

    /// A binary operator at the cursor, consumed.
    #[inline]
    fn binary_op(&mut self) -> Option<(BinaryOp, Span)> {
        let c = self.peek()?;
        let next = self.peek_at(1);
        let (op, len) = match (c, next) {
            (b'=', Some(b'=')) => (BinaryOp::Eq, 2),
            (b'!', Some(b'=')) => (BinaryOp::Ne, 2),
            (b'<', Some(b'=')) => (BinaryOp::Le, 2),
            (b'>', Some(b'=')) => (BinaryOp::Ge, 2),
            (b'&', Some(b'&')) => (BinaryOp::And, 2),
            (b'|', Some(b'|')) => (BinaryOp::Or, 2),
            (b'<', _) => (BinaryOp::Lt, 1),
            (b'>', _) => (BinaryOp::Gt, 1),
            (b'+', _) => (BinaryOp::Add, 1),
            (b'-', _) => (BinaryOp::Sub, 1),
            (b'*', _) => (BinaryOp::Mul, 1),
            (b'/', n) if n != Some(b'/') && n != Some(b'*') => (BinaryOp::Div, 1),
            (b'%', _) => (BinaryOp::Mod, 1),
            _ => return None,
        };
        let start = self.pos;
        self.pos += len;
        Some((op, Span::at(start, self.pos)))
    }

    /// Unary operators, a term and its postfix steps (each followed by the
    /// mode's separator).
    fn operand(&mut self, nl: bool) -> Option<Expr<'i>> {
        let saved = self.depth;
        let mut unary: Vec<(UnaryOp, Span)> = Vec::new();
        loop {
            let op = match self.peek() {
                Some(b'-') => UnaryOp::Neg,
                Some(b'!') => UnaryOp::Not,
                _ => break,
            };
            unary.push((op, Span::at(self.pos, self.pos + 1)));
            self.pos += 1;
            self.enter(1)?;
            self.sep(nl)?;
        }
        let mut e = self.primary(nl)?;
        self.sep(nl)?;
        // The steps from the first splat on, when there is one (most
        // operands have none: no list, and no drop of one, for them).
        let mut rest: Option<Vec<Post<'i>>> = None;
        while let Some(post) = self.postfix(nl)? {
            self.enter(1)?;
            self.sep(nl)?;
            match &mut rest {
                None if matches!(
                    post.kind(),
                    StepKind::GetAttr | StepKind::Legacy | StepKind::Index
                ) =>
                {
                    e = post.apply(&mut self.ctx, e).ok()?;
                }
                None => rest = Some(vec![post]),
                Some(rest) => rest.push(post),
            }
        }
        if let Some(rest) = rest {
            e = apply_postfixes(&mut self.ctx, e, rest).ok()?;
        }
        for (op, op_span) in unary.into_iter().rev() {
            e = Expr {
                span: Span::at(op_span.start(), e.span.end()),
                kind: ExprKind::Unary(Box::new(UnaryExpr {
                    op,
                    operand: e,
                    op_span,
                })),
            };
        }
        self.depth = saved;
        Some(e)
    }

    /// A postfix step at the cursor: `Some(None)` when there is none (the
    /// cursor unmoved), `None` to give up.
    fn postfix(&mut self, nl: bool) -> Option<Option<Post<'i>>> {
        let start = self.pos;
        match self.peek() {
            Some(b'.') => {
                self.pos += 1;
                if nl {
                    // `a.` then a newline: an error in this mode.
                    self.sp()?;
                    if matches!(self.peek(), Some(b'\n' | b'\r' | b'#')) || self.looking_at(b"//") {
                        self.pos = start;
                        return Some(None);
                    }
                }
                self.ws()?;
                match self.peek() {
                    Some(c) if ident_start(c) => {
                        let name = self.ident()?;
                        Some(Some(Post::GetAttr(name, Span::at(start, self.pos))))
                    }
                    Some(c) if c.is_ascii_digit() => {
                        let ts = self.pos;
                        let end = scan::number_end(self.b, ts);
                        if self.b.get(ts..end)?.contains(&b'.') {
                            // `a.0.1`: the pest route reports it.
                            return None;
                        }
                        self.skip_to(end);
                        let token = Span::at(ts, self.pos);
                        Some(Some(Post::Legacy(token, Span::at(start, self.pos))))
                    }
                    Some(b'*') => {
                        self.pos += 1;
                        Some(Some(Post::AttrSplat(Span::at(start, self.pos))))
                    }
                    _ => {
                        self.pos = start;
                        Some(None)
                    }
                }
            }
            Some(b'[') => {
                let saved = self.depth;
                self.enter(1)?;
                self.pos += 1;
                self.ws()?;
                if self.eat(b'*') {
                    self.ws()?;
                    self.expect(b']')?;
                    self.depth = saved;
                    return Some(Some(Post::FullSplat(Span::at(start, self.pos))));
                }
                let qs = self.qs;
                let key = self.expression(false)?;
                self.qs = qs;
                self.expect(b']')?;
                self.depth = saved;
                Some(Some(Post::Index(key, Span::at(start, self.pos))))
            }
            _ => Some(None),
        }
    }

    /// `primary` / `primary_ws`.
    fn primary(&mut self, nl: bool) -> Option<Expr<'i>> {
        match self.peek()? {
            b'"' => self.quoted(),
            c if ident_start(c) => self.name_expr(nl),
            c if c.is_ascii_digit() => self.number(),
            b'[' => self.bracket(),
            b'{' => self.brace(),
            b'(' => {
                let start = self.pos;
                let (saved, qs) = (self.depth, self.qs);
                self.enter(1)?;
                self.pos += 1;
                self.ws()?;
                let inner = self.expression(false)?;
                self.expect(b')')?;
                (self.depth, self.qs) = (saved, qs);
                Some(Expr {
                    kind: ExprKind::Parens(Box::new(inner)),
                    span: Span::at(start, self.pos),
                })
            }
            b'<' if self.peek_at(1) == Some(b'<') => self.heredoc(),
            _ => None,
        }
    }

    /// `numeric_lit`.
    fn number(&mut self) -> Option<Expr<'i>> {
        let start = self.pos;
        self.skip_to(scan::number_end(self.b, start));
        if self.peek() == Some(b'.') && self.peek_at(1).is_some_and(|c| c.is_ascii_digit()) {
            return None;
        }
        let span = Span::at(start, self.pos);
        Some(Expr {
            kind: ExprKind::Number(self.str(span)?),
            span,
        })
    }

    /// `name_expr`: a variable, `true`/`false`/`null`, or a call.
    fn name_expr(&mut self, nl: bool) -> Option<Expr<'i>> {
        let start = self.pos;
        self.ident_span()?;
        let mut namespaced = false;
        while self.looking_at(b"::") {
            if !self.peek_at(2).is_some_and(ident_start) {
                return None;
            }
            self.pos += 2;
            self.ident_span()?;
            namespaced = true;
        }
        let name_span = Span::at(start, self.pos);
        let name = self.str(name_span)?;
        let after = self.pos;
        self.sep(nl)?;
        if self.peek() == Some(b'(') {
            return self.call(Ident {
                name,
                span: name_span,
            });
        }
        self.pos = after;
        if namespaced {
            return None;
        }
        let kind = name_kind(name, name_span);
        Some(Expr {
            kind,
            span: name_span,
        })
    }

    /// `arguments`, at `(`.
    fn call(&mut self, name: Ident<'i>) -> Option<Expr<'i>> {
        let open = self.pos;
        let (saved, qs) = (self.depth, self.qs);
        self.enter(1)?;
        self.pos += 1;
        self.ws()?;
        let base = self.exprs.len();
        let mut expand_final = false;
        if self.peek() != Some(b')') {
            loop {
                let arg = self.expression(false)?;
                self.exprs.push(arg);
                self.qs = qs;
                if self.eat(b',') {
                    self.ws()?;
                    if self.peek() == Some(b')') {
                        break;
                    }
                    continue;
                }
                if self.looking_at(b"...") {
                    self.pos += 3;
                    expand_final = true;
                    self.ws()?;
                }
                break;
            }
        }
        self.expect(b')')?;
        (self.depth, self.qs) = (saved, qs);
        let parens = Span::at(open, self.pos);
        Some(Expr {
            span: Span::at(name.span.start(), self.pos),
            kind: ExprKind::Call(Box::new(FuncCall {
                name,
                args: take_from(&mut self.exprs, base),
                expand_final,
                parens,
            })),
        })
    }

    /// A tuple or a `for` tuple, at `[`.
    fn bracket(&mut self) -> Option<Expr<'i>> {
        let start = self.pos;
        let (saved, qs) = (self.depth, self.qs);
        self.enter(1)?;
        self.pos += 1;
        self.ws()?;
        let kind = if self.keyword(b"for")? {
            let f = self.for_rest(start, false)?;
            self.expect(b']')?;
            ExprKind::For(Box::new(f))
        } else {
            let base = self.exprs.len();
            if self.peek() != Some(b']') {
                loop {
                    let item = self.expression(false)?;
                    self.exprs.push(item);
                    self.qs = qs;
                    if self.eat(b',') {
                        self.ws()?;
                        if self.peek() == Some(b']') {
                            break;
                        }
                        continue;
                    }
                    break;
                }
            }
            self.expect(b']')?;
            ExprKind::Tuple(take_from(&mut self.exprs, base))
        };
        (self.depth, self.qs) = (saved, qs);
        Some(Expr {
            kind,
            span: Span::at(start, self.pos),
        })
    }

    /// An object or a `for` object, at `{`.
    fn brace(&mut self) -> Option<Expr<'i>> {
        let start = self.pos;
        let (saved, qs) = (self.depth, self.qs);
        self.enter(1)?;
        self.pos += 1;
        self.ws()?;
        let kind = if self.keyword(b"for")? {
            let f = self.for_rest(start, true)?;
            self.expect(b'}')?;
            ExprKind::For(Box::new(f))
        } else {
            let base = self.elems.len();
            while self.peek() != Some(b'}') {
                let item = self.object_elem()?;
                self.elems.push(item);
                self.qs = qs;
                if self.eat(b',') || self.nl() {
                    self.ws()?;
                } else {
                    break;
                }
            }
            self.expect(b'}')?;
            ExprKind::Object(take_from(&mut self.elems, base))
        };
        (self.depth, self.qs) = (saved, qs);
        Some(Expr {
            kind,
            span: Span::at(start, self.pos),
        })
    }

    /// `object_elem`: key, `=` or `:`, value (newline-sensitive).
    fn object_elem(&mut self) -> Option<ObjectItem<'i>> {
        let key = self.expression(true)?;
        if !(self.eat(b'=') || self.eat(b':')) {
            return None;
        }
        self.sp()?;
        let key_text = self.str(key.span)?;
        let key = object_key(key, key_text);
        let value = self.expression(true)?;
        Some(ObjectItem { key, value })
    }

    /// What follows `for` in a `for` expression or directive: one or two
    /// names, `in`, the collection (separators skipped).
    pub(super) fn for_head(&mut self) -> Option<(Option<Ident<'i>>, Ident<'i>, Expr<'i>)> {
        self.ws()?;
        let first = self.ident()?;
        self.ws()?;
        let (key_var, value_var) = if self.eat(b',') {
            self.ws()?;
            let second = self.ident()?;
            self.ws()?;
            (Some(first), second)
        } else {
            (None, first)
        };
        if !self.keyword(b"in")? {
            return None;
        }
        self.ws()?;
        let collection = self.expression(false)?;
        Some((key_var, value_var, collection))
    }

    /// The rest of a `for` expression after `for`, up to its closer (not
    /// consumed). `open` is the `[` or `{`.
    fn for_rest(&mut self, open: usize, object: bool) -> Option<ForExpr<'i>> {
        let (key_var, value_var, collection) = self.for_head()?;
        self.expect(b':')?;
        let intro = Span::at(open, self.pos);
        self.ws()?;
        let mut key_expr = None;
        let mut grouping = false;
        let value_expr = if object {
            key_expr = Some(self.expression(false)?);
            if !self.looking_at(b"=>") {
                return None;
            }
            self.pos += 2;
            self.ws()?;
            let v = self.expression(false)?;
            if self.looking_at(b"...") {
                self.pos += 3;
                grouping = true;
                self.ws()?;
            }
            v
        } else {
            self.expression(false)?
        };
        let cond = if self.keyword(b"if")? {
            self.ws()?;
            Some(self.expression(false)?)
        } else {
            None
        };
        Some(ForExpr {
            key_var,
            value_var,
            collection,
            key_expr,
            value_expr,
            grouping,
            cond,
            intro,
        })
    }
}
