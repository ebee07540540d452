//! The template language's shared lowering: a template is first a flat
//! list of tokens ([`Tok`]: literals, interpolations and single directive
//! sequences), built by either route; then, as in hclsyntax, strip markers
//! are applied to neighbouring literal tokens, heredoc indentation is
//! removed (`<<-`), and only then are `if`/`for` directives nested
//! ([`finish`]). In a heredoc every line is its own literal token, so a
//! strip marker never reaches past the end of its line.

use super::string;
use crate::ast::{
    Expr, ExprKind, Ident, Interpolation, StrLit, Strip, Template, TemplateExpr, TemplateFor,
    TemplateIf, TemplatePart,
};
use crate::parser::Ctx;
use crate::span::Span;
use crate::Result;
use std::borrow::Cow;

/// One flat token of a template (built from pest's pairs or by the fast
/// path, then post-processed here by [`finish`]).
pub(in crate::parser) enum Tok<'i> {
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
/// A quoted template's expression: a string when it is empty or a single
/// literal, else a template.
pub(in crate::parser) fn quoted_kind(template: Template<'_>) -> ExprKind<'_> {
    match &*template.parts {
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

/// Strip markers, heredoc indentation (`indented`), then nesting: the flat
/// tokens of a template made into its tree.
pub(in crate::parser) fn finish<'i>(
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

/// A heredoc or standalone-template literal `raw` at offset `start`: one
/// token per line, each with its newline, as the reference's scanner: a
/// strip marker reaches at most the end of its own line (or the start of
/// the next one).
pub(in crate::parser) fn push_raw_literal<'i>(toks: &mut Vec<Tok<'i>>, raw: &'i str, start: usize) {
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
                    span: Span::at(start + a, start + b),
                }));
            }
        }
        off = end;
    }
}

/// A heredoc's last newline (at `s`): part of the last line's token when
/// that line ended in a literal.
pub(in crate::parser) fn push_eol<'i>(ctx: &Ctx<'_, 'i>, toks: &mut Vec<Tok<'i>>, s: Span) {
    let nl = ctx.str(s);
    match toks.last_mut() {
        Some(Tok::Lit(l)) if l.span.end() == s.start() && !l.value.ends_with('\n') => {
            let joined = Span::at(l.span.start(), s.end());
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
            l.span = Span::at((l.span.start() + cut).min(l.span.end()), l.span.end());
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
                    s.end(),
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
                    s.end(),
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
                        parts: std::mem::take(&mut parts).into_boxed_slice(),
                        span: Span::at(*start, s.start()),
                    });
                    *start = s.end();
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
                        parts: std::mem::replace(&mut parts, outer).into_boxed_slice(),
                        span: Span::at(start, s.start()),
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
                        span: Span::at(if_span.start(), s.end()),
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
                        parts: std::mem::replace(&mut parts, outer).into_boxed_slice(),
                        span: Span::at(start, s.start()),
                    };
                    parts.push(TemplatePart::For(Box::new(TemplateFor {
                        key_var,
                        value_var,
                        collection,
                        body,
                        for_span,
                        span: Span::at(for_span.start(), s.end()),
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
    Ok(Template {
        parts: parts.into_boxed_slice(),
        span,
    })
}

/// Appends a literal, merging it into a directly preceding literal.
fn push_literal<'i>(ctx: &Ctx<'_, 'i>, parts: &mut Vec<TemplatePart<'i>>, l: StrLit<'i>) {
    if let Some(TemplatePart::Literal(prev)) = parts.last_mut() {
        let joined = Span::at(prev.span.start(), l.span.end());
        let contiguous = matches!((&prev.value, &l.value), (Cow::Borrowed(a), Cow::Borrowed(b))
            if ctx.str(joined).len() == a.len() + b.len() && ctx.str(joined).starts_with(a) && ctx.str(joined).ends_with(b) && prev.span.end() == l.span.start() && ctx.str(prev.span).len() == a.len() && ctx.str(l.span).len() == b.len());
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
