//! Lowering of the template language: quoted templates, heredocs and
//! standalone templates.
//!
//! As in hclsyntax, a template is first a flat list of tokens (literals,
//! interpolations and single directive sequences); strip markers are
//! applied to neighbouring literal tokens, heredoc indentation is removed
//! (`<<-`), and only then are `if`/`for` directives nested. In a heredoc
//! every line is its own literal token, so a strip marker never reaches
//! past the end of its line.

use super::structure::ident;
use super::{expr, string, Ctx, Rule, P};
use crate::ast::{
    Expr, ExprKind, Heredoc, Ident, Interpolation, StrLit, Strip, Template, TemplateExpr,
    TemplateFor, TemplateIf, TemplatePart,
};
use crate::span::Span;
use crate::Result;
use std::borrow::Cow;

/// One flat token of a template (built from pest's pairs or by the fast
/// path, then post-processed here by [`finish`]).
pub(super) enum Tok<'i> {
    Lit(StrLit<'i>),
    Interp(Interpolation<'i>),
    If {
        cond: Expr<'i>,
        strip: Strip,
        span: Span,
    },
    Else {
        strip: Strip,
        span: Span,
    },
    EndIf {
        strip: Strip,
        span: Span,
    },
    For {
        key_var: Option<Ident<'i>>,
        value_var: Ident<'i>,
        collection: Expr<'i>,
        strip: Strip,
        span: Span,
    },
    EndFor {
        strip: Strip,
        span: Span,
    },
}

impl Tok<'_> {
    fn strip(&self) -> Option<Strip> {
        match self {
            Tok::Lit(_) => None,
            Tok::Interp(i) => Some(i.strip),
            Tok::If { strip, .. }
            | Tok::Else { strip, .. }
            | Tok::EndIf { strip, .. }
            | Tok::For { strip, .. }
            | Tok::EndFor { strip, .. } => Some(*strip),
        }
    }
}

/// `quoted_template` as an expression: a single literal is a string.
pub(super) fn quoted_template<'i>(ctx: &mut Ctx<'_, 'i>, p: P<'_>) -> Result<Expr<'i>> {
    let span = ctx.span(&p);
    if let Some(value) = single_literal(ctx, &p)? {
        return Ok(Expr {
            kind: ExprKind::String(value),
            span,
        });
    }
    let template = template_of(ctx, p, span, false)?;
    Ok(Expr {
        kind: quoted_kind(template),
        span,
    })
}

/// A quoted template's expression: a string when it is empty or a single
/// literal, else a template.
pub(super) fn quoted_kind(template: Template<'_>) -> ExprKind<'_> {
    match template.parts.as_slice() {
        [] => ExprKind::String(Cow::Borrowed("")),
        [TemplatePart::Literal(_)] => match template.parts.into_iter().next() {
            Some(TemplatePart::Literal(l)) => ExprKind::String(l.value),
            _ => ExprKind::String(Cow::Borrowed("")),
        },
        _ => ExprKind::Template(Box::new(TemplateExpr {
            template,
            heredoc: None,
        })),
    }
}

/// A quoted block label: a template without interpolations or directives,
/// decoded but not normalized (the reference keeps labels as written).
pub(super) fn string_lit<'i>(ctx: &mut Ctx<'_, 'i>, p: P<'_>) -> Result<StrLit<'i>> {
    let span = ctx.span(&p);
    let mut value: Cow<'i, str> = Cow::Borrowed("");
    for q in p.clone().into_inner() {
        let s = ctx.span(&q);
        if q.as_rule() != Rule::quoted_literal {
            return Err(ctx.err(
                "template sequences are not allowed in a block label: a label must be a literal string",
                s,
            ));
        }
        let piece = string::decode_quoted(ctx, ctx.str(s), s.start)?;
        value = if value.is_empty() {
            piece
        } else {
            Cow::Owned(value.into_owned() + &piece)
        };
    }
    Ok(StrLit { value, span })
}

/// Fast path: a quoted template that is empty or one literal token.
fn single_literal<'i>(ctx: &Ctx<'_, 'i>, p: &P<'_>) -> Result<Option<Cow<'i, str>>> {
    let mut inner = p.clone().into_inner();
    match (inner.next(), inner.next()) {
        (None, _) => Ok(Some(Cow::Borrowed(""))),
        (Some(q), None) if q.as_rule() == Rule::quoted_literal => {
            let s = ctx.span(&q);
            string::unescape_quoted(ctx, ctx.str(s), s.start).map(Some)
        }
        _ => Ok(None),
    }
}

/// `heredoc_template`.
pub(super) fn heredoc_template<'i>(ctx: &mut Ctx<'_, 'i>, p: P<'_>) -> Result<Expr<'i>> {
    let span = ctx.span(&p);
    let mut inner = p.clone().into_inner();
    let (marker, indented, content_start) = match inner.next() {
        Some(open) => {
            let s = ctx.span(&open);
            let text = ctx.str(s);
            let indented = text.starts_with("<<-");
            let marker = text.get(if indented { 3 } else { 2 }..).unwrap_or_default();
            let nl = if ctx.text.as_bytes().get(s.end) == Some(&b'\r') {
                2
            } else {
                1
            };
            (marker, indented, s.end + nl)
        }
        None => return Err(ctx.err("expected a heredoc marker after `<<`", span)),
    };
    let content_end = p
        .clone()
        .into_inner()
        .find(|q| q.as_rule() == Rule::heredoc_eol)
        .map_or(content_start, |q| ctx.span(&q).end);
    let template = template_of(ctx, p, Span::new(content_start, content_end), indented)?;
    Ok(Expr {
        kind: ExprKind::Template(Box::new(TemplateExpr {
            template,
            heredoc: Some(Heredoc { marker, indented }),
        })),
        span,
    })
}

/// `template_file`: a standalone template.
pub(super) fn template_file<'i>(ctx: &mut Ctx<'_, 'i>, root: P<'_>) -> Result<Template<'i>> {
    let span = ctx.span(&root);
    template_of(ctx, root, span, false)
}

/// Tokens, strip markers, heredoc indentation, then nesting.
fn template_of<'i>(
    ctx: &mut Ctx<'_, 'i>,
    p: P<'_>,
    span: Span,
    indented: bool,
) -> Result<Template<'i>> {
    ctx.enter(1, span)?;
    let toks = tokens(ctx, p)?;
    let t = finish(ctx, toks, span, indented)?;
    ctx.leave(1);
    Ok(t)
}

/// Strip markers, heredoc indentation (`indented`), then nesting: the flat
/// tokens of a template made into its tree.
pub(super) fn finish<'i>(
    ctx: &mut Ctx<'_, 'i>,
    mut toks: Vec<Tok<'i>>,
    span: Span,
    indented: bool,
) -> Result<Template<'i>> {
    apply_strip(&mut toks);
    if indented {
        remove_indentation(&mut toks);
    }
    nest(ctx, toks, span)
}

fn tokens<'i>(ctx: &mut Ctx<'_, 'i>, p: P<'_>) -> Result<Vec<Tok<'i>>> {
    let mut toks: Vec<Tok<'i>> = Vec::new();
    for q in p.into_inner() {
        let s = ctx.span(&q);
        match q.as_rule() {
            Rule::quoted_literal => {
                let raw = ctx.str(s);
                let value = string::unescape_quoted(ctx, raw, s.start)?;
                toks.push(Tok::Lit(StrLit { value, span: s }));
            }
            Rule::template_literal | Rule::heredoc_literal => {
                push_raw_literal(&mut toks, ctx.str(s), s.start);
            }
            Rule::heredoc_eol => push_eol(ctx, &mut toks, s),
            Rule::template_interpolation => {
                let mut inner = q.into_inner();
                let (open, e, close) = match (inner.next(), inner.next(), inner.next()) {
                    (Some(o), Some(e), Some(c)) => (o, e, c),
                    _ => return Err(ctx.err("expected an expression after `${`", s)),
                };
                let strip = Strip {
                    left: ctx.str(ctx.span(&open)).ends_with('~'),
                    right: ctx.str(ctx.span(&close)).starts_with('~'),
                };
                let expr = expr::expression(ctx, e)?;
                toks.push(Tok::Interp(Interpolation {
                    expr,
                    strip,
                    span: s,
                }));
            }
            Rule::template_directive => toks.push(directive(ctx, q, s)?),
            _ => {}
        }
    }
    Ok(toks)
}

/// A heredoc or standalone-template literal `raw` at offset `start`: one
/// token per line, each with its newline, as the reference's scanner: a
/// strip marker reaches at most the end of its own line (or the start of
/// the next one).
pub(super) fn push_raw_literal<'i>(toks: &mut Vec<Tok<'i>>, raw: &'i str, start: usize) {
    let mut off = 0;
    while off < raw.len() {
        let end = raw
            .get(off..)
            .and_then(|r| r.find('\n'))
            .map_or(raw.len(), |i| off + i + 1);
        let line = raw.get(off..end).unwrap_or_default();
        let cut = off + sign_pair_cut(line);
        for (a, b) in [(off, cut), (cut, end)] {
            if a < b {
                toks.push(Tok::Lit(StrLit {
                    value: string::unescape_raw(raw.get(a..b).unwrap_or_default()),
                    span: Span::new(start + a, start + b),
                }));
            }
        }
        off = end;
    }
}

/// A heredoc's last newline (at `s`): part of the last line's token when
/// that line ended in a literal.
pub(super) fn push_eol<'i>(ctx: &Ctx<'_, 'i>, toks: &mut Vec<Tok<'i>>, s: Span) {
    let nl = ctx.str(s);
    match toks.last_mut() {
        Some(Tok::Lit(l)) if l.span.end == s.start && !l.value.ends_with('\n') => {
            let joined = Span::new(l.span.start, s.end);
            let raw = ctx.str(joined);
            l.value = if matches!(l.value, Cow::Borrowed(b) if b.len() + nl.len() == raw.len() && raw.starts_with(b))
            {
                Cow::Borrowed(raw)
            } else {
                let mut v = std::mem::take(&mut l.value).into_owned();
                v.push_str(nl);
                Cow::Owned(v)
            };
            l.span = joined;
        }
        _ => toks.push(Tok::Lit(StrLit {
            value: Cow::Borrowed(nl),
            span: s,
        })),
    }
}

/// Where the reference's scanner ends a line's token before its line
/// break: a line ending in `$` or `%` and one more character (not `{`)
/// gives that pair its own token, and the line break (`\n`, or `\r\n`
/// unless the `\r` is the pair's character) another; so `${~` after
/// `"$ \n"` strips only the line break. Anywhere else: `line.len()`.
fn sign_pair_cut(line: &str) -> usize {
    let Some(body) = line.strip_suffix('\n') else {
        return line.len();
    };
    let pair_end = |text: &str| {
        let mut rev = text.chars().rev();
        match (rev.next(), rev.next()) {
            (Some(x), Some('$' | '%')) if x != '{' => Some(text.len()),
            _ => None,
        }
    };
    pair_end(body)
        .or_else(|| body.strip_suffix('\r').and_then(pair_end))
        .unwrap_or(line.len())
}

/// One `%{ ... }` sequence.
fn directive<'i>(ctx: &mut Ctx<'_, 'i>, q: P<'_>, span: Span) -> Result<Tok<'i>> {
    let mut strip = Strip::default();
    let mut body = None;
    for r in q.into_inner() {
        match r.as_rule() {
            Rule::directive_open => strip.left = ctx.str(ctx.span(&r)).ends_with('~'),
            Rule::seq_close => strip.right = ctx.str(ctx.span(&r)).starts_with('~'),
            _ => body = Some(r),
        }
    }
    let body = match body {
        Some(b) => b,
        None => {
            return Err(ctx.err(
                "expected `if`, `else`, `endif`, `for` or `endfor` after `%{`",
                span,
            ))
        }
    };
    Ok(match body.as_rule() {
        Rule::directive_if => {
            let cond = match body.into_inner().next() {
                Some(c) => expr::expression(ctx, c)?,
                None => return Err(ctx.err("expected a condition after `if`", span)),
            };
            Tok::If { cond, strip, span }
        }
        Rule::directive_else => Tok::Else { strip, span },
        Rule::directive_endif => Tok::EndIf { strip, span },
        Rule::directive_for => {
            let mut names = Vec::new();
            let mut collection = None;
            for r in body.into_inner() {
                match r.as_rule() {
                    Rule::identifier => names.push(ident(ctx, &r)?),
                    _ => collection = Some(expr::expression(ctx, r)?),
                }
            }
            let (key_var, value_var) = match (names.first(), names.get(1)) {
                (Some(&k), Some(&v)) => (Some(k), v),
                (Some(&v), None) => (None, v),
                _ => return Err(ctx.err("expected a variable name after `for`", span)),
            };
            let collection = match collection {
                Some(c) => c,
                None => return Err(ctx.err("expected a collection after `in`", span)),
            };
            Tok::For {
                key_var,
                value_var,
                collection,
                strip,
                span,
            }
        }
        _ => Tok::EndFor { strip, span },
    })
}

/// Go's `unicode.IsSpace`, which the reference uses for strip markers.
fn is_space(c: char) -> bool {
    c.is_whitespace()
}

fn trim_start(v: &mut Cow<'_, str>) {
    match v {
        Cow::Borrowed(b) => *b = b.trim_start_matches(is_space),
        Cow::Owned(o) => {
            let n = o.len() - o.trim_start_matches(is_space).len();
            o.drain(..n);
        }
    }
}

fn trim_end(v: &mut Cow<'_, str>) {
    match v {
        Cow::Borrowed(b) => *b = b.trim_end_matches(is_space),
        Cow::Owned(o) => {
            let n = o.trim_end_matches(is_space).len();
            o.truncate(n);
        }
    }
}

/// Strip markers: `~}` trims the start of the next literal token, `${~` /
/// `%{~` the end of the previous one.
fn apply_strip(toks: &mut [Tok<'_>]) {
    for i in 1..toks.len() {
        let (before, after) = toks.split_at_mut(i);
        let (Some(prev), Some(cur)) = (before.last_mut(), after.first_mut()) else {
            continue;
        };
        match (prev, cur) {
            (prev, Tok::Lit(l)) if prev.strip().is_some_and(|s| s.right) => {
                trim_start(&mut l.value);
            }
            (Tok::Lit(l), cur) if cur.strip().is_some_and(|s| s.left) => {
                trim_end(&mut l.value);
            }
            _ => {}
        }
    }
}

/// `<<-`: the smallest indentation of the lines' leading literals is
/// removed from all of them (whitespace-only lines neither count nor are
/// changed), as hclsyntax's flushHeredocTemplateParts.
fn remove_indentation(toks: &mut [Tok<'_>]) {
    let mut min = usize::MAX;
    let mut newline = true;
    let mut adjust = Vec::new();
    for (i, t) in toks.iter().enumerate() {
        if newline {
            newline = false;
            let spaces = match t {
                Tok::Lit(l) => {
                    let trimmed = l.value.trim_start_matches(is_space);
                    if trimmed.is_empty() && l.value.ends_with('\n') {
                        usize::MAX
                    } else {
                        adjust.push(i);
                        l.value[..l.value.len() - trimmed.len()].chars().count()
                    }
                }
                _ => 0,
            };
            min = min.min(spaces);
        }
        if let Tok::Lit(l) = t {
            if l.value.ends_with('\n') {
                newline = true;
            }
        }
    }
    if min == 0 || min == usize::MAX {
        return;
    }
    for i in adjust {
        if let Some(Tok::Lit(l)) = toks.get_mut(i) {
            let cut = l
                .value
                .char_indices()
                .nth(min)
                .map_or(l.value.len(), |(k, _)| k);
            match &mut l.value {
                Cow::Borrowed(b) => *b = b.get(cut..).unwrap_or_default(),
                Cow::Owned(o) => {
                    o.drain(..cut);
                }
            }
            l.span.start = (l.span.start + cut).min(l.span.end);
        }
    }
}

/// An open directive while nesting.
enum Open<'i> {
    If {
        cond: Expr<'i>,
        if_span: Span,
        then_template: Option<Template<'i>>,
    },
    For {
        key_var: Option<Ident<'i>>,
        value_var: Ident<'i>,
        collection: Expr<'i>,
        for_span: Span,
    },
}

/// Nests `if`/`else`/`endif` and `for`/`endfor`, merging adjacent literals.
fn nest<'i>(ctx: &mut Ctx<'_, 'i>, toks: Vec<Tok<'i>>, span: Span) -> Result<Template<'i>> {
    // (open directive, parts so far, start of the current sub-template)
    let mut stack: Vec<(Open<'i>, Vec<TemplatePart<'i>>, usize)> = Vec::new();
    let mut parts: Vec<TemplatePart<'i>> = Vec::with_capacity(toks.len());
    for t in toks {
        match t {
            Tok::Lit(l) => push_literal(ctx, &mut parts, l),
            Tok::Interp(i) => parts.push(TemplatePart::Interpolation(i)),
            Tok::If { cond, span: s, .. } => {
                ctx.enter(1, s)?;
                let outer = std::mem::take(&mut parts);
                stack.push((
                    Open::If {
                        cond,
                        if_span: s,
                        then_template: None,
                    },
                    outer,
                    s.end,
                ));
            }
            Tok::For {
                key_var,
                value_var,
                collection,
                span: s,
                ..
            } => {
                ctx.enter(1, s)?;
                let outer = std::mem::take(&mut parts);
                stack.push((
                    Open::For {
                        key_var,
                        value_var,
                        collection,
                        for_span: s,
                    },
                    outer,
                    s.end,
                ));
            }
            Tok::Else { span: s, .. } => match stack.last_mut() {
                Some((
                    Open::If {
                        then_template: then_t @ None,
                        ..
                    },
                    _,
                    start,
                )) => {
                    *then_t = Some(Template {
                        parts: std::mem::take(&mut parts),
                        span: Span::new(*start, s.start),
                    });
                    *start = s.end;
                }
                Some((Open::If { .. }, _, _)) => {
                    return Err(ctx.err("unexpected `%{ else }`: this `if` already has an `else`", s))
                }
                _ => {
                    return Err(ctx.err(
                        "unexpected `%{ else }`: there is no open `%{ if }` for it",
                        s,
                    ))
                }
            },
            Tok::EndIf { span: s, .. } => match stack.pop() {
                Some((
                    Open::If {
                        cond,
                        if_span,
                        then_template,
                    },
                    outer,
                    start,
                )) => {
                    ctx.leave(1);
                    let current = Template {
                        parts: std::mem::replace(&mut parts, outer),
                        span: Span::new(start, s.start),
                    };
                    let (then_template, else_template) = match then_template {
                        Some(t) => (t, Some(current)),
                        None => (current, None),
                    };
                    parts.push(TemplatePart::If(Box::new(TemplateIf {
                        cond,
                        then_template,
                        else_template,
                        if_span,
                        span: Span::new(if_span.start, s.end),
                    })));
                }
                Some((Open::For { for_span, .. }, _, _)) => {
                    return Err(ctx.err(
                        format!(
                            "unexpected `%{{ endif }}`: expected `%{{ endfor }}` to close the `%{{ for }}` at line {}",
                            for_span.start_pos(ctx.text).line
                        ),
                        s,
                    ))
                }
                None => {
                    return Err(ctx.err(
                        "unexpected `%{ endif }`: there is no open `%{ if }` for it",
                        s,
                    ))
                }
            },
            Tok::EndFor { span: s, .. } => match stack.pop() {
                Some((
                    Open::For {
                        key_var,
                        value_var,
                        collection,
                        for_span,
                    },
                    outer,
                    start,
                )) => {
                    ctx.leave(1);
                    let body = Template {
                        parts: std::mem::replace(&mut parts, outer),
                        span: Span::new(start, s.start),
                    };
                    parts.push(TemplatePart::For(Box::new(TemplateFor {
                        key_var,
                        value_var,
                        collection,
                        body,
                        for_span,
                        span: Span::new(for_span.start, s.end),
                    })));
                }
                Some((Open::If { if_span, .. }, _, _)) => {
                    return Err(ctx.err(
                        format!(
                            "unexpected `%{{ endfor }}`: expected `%{{ endif }}` to close the `%{{ if }}` at line {}",
                            if_span.start_pos(ctx.text).line
                        ),
                        s,
                    ))
                }
                None => {
                    return Err(ctx.err(
                        "unexpected `%{ endfor }`: there is no open `%{ for }` for it",
                        s,
                    ))
                }
            },
        }
    }
    if let Some((open, _, _)) = stack.pop() {
        let (what, s) = match open {
            Open::If { if_span, .. } => ("`%{ if }` has no matching `%{ endif }`", if_span),
            Open::For { for_span, .. } => ("`%{ for }` has no matching `%{ endfor }`", for_span),
        };
        return Err(ctx.err(format!("unclosed template directive: this {what}"), s));
    }
    Ok(Template { parts, span })
}

/// Appends a literal, merging it into a directly preceding literal.
fn push_literal<'i>(ctx: &Ctx<'_, 'i>, parts: &mut Vec<TemplatePart<'i>>, l: StrLit<'i>) {
    if let Some(TemplatePart::Literal(prev)) = parts.last_mut() {
        let joined = Span::new(prev.span.start, l.span.end);
        let contiguous = matches!((&prev.value, &l.value), (Cow::Borrowed(a), Cow::Borrowed(b))
            if ctx.str(joined).len() == a.len() + b.len() && ctx.str(joined).starts_with(a) && ctx.str(joined).ends_with(b) && prev.span.end == l.span.start && ctx.str(prev.span).len() == a.len() && ctx.str(l.span).len() == b.len());
        prev.value = if contiguous {
            Cow::Borrowed(ctx.str(joined))
        } else {
            let mut v = std::mem::take(&mut prev.value).into_owned();
            v.push_str(&l.value);
            Cow::Owned(v)
        };
        prev.span = joined;
        return;
    }
    parts.push(TemplatePart::Literal(l));
}
