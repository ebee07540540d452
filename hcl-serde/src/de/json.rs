//! HCL's JSON syntax for the deserializer: the JSON tree lowered to the
//! native syntax tree, which the rest of de/ walks.
//!
//! Every property of the root object becomes an attribute whose expression
//! is the JSON value: objects become object constructors, arrays tuples,
//! numbers keep their exact text. Whether a property is an attribute or a
//! block is decided later, by the target type (see `expr.rs`: an object
//! read as a struct with `$label`, or as a sequence of blocks, is read as
//! the JSON spec's block forms). Strings are templates when the run has a
//! context and literal text otherwise, as in the reference: a string
//! holding `${` or `%{` is then parsed as the HCL quoted template its JSON
//! source is, with spans in the JSON text, so errors inside it point into
//! the string.

use crate::body::json::COMMENT;
use crate::error::{Error, Result};
use hcl_grammar::json::{nfc, JsonKind, JsonProperty, JsonValue};
use hcl_grammar::{
    Attribute, Body, Expr, ExprKind, Ident, ObjectItem, ObjectKey, ParseOptions, Span, Structure,
};
use std::borrow::Cow;

/// The body of a JSON file: its root object, or the merged objects of a
/// root array. `templates`: whether strings are templates.
pub(crate) fn lower_root<'i>(
    text: &'i str,
    root: JsonValue<'i>,
    templates: bool,
    options: &ParseOptions,
) -> Result<Body<'i>> {
    let low = Lower {
        text,
        templates,
        options,
    };
    let span = Span::new(0, text.len());
    let props: Vec<JsonProperty<'i>> = match root.kind {
        JsonKind::Object(props) => props,
        JsonKind::Array(items) => {
            let mut all = Vec::new();
            for item in items {
                match item.kind {
                    JsonKind::Object(props) => all.extend(props),
                    other => {
                        return Err(root_error(text, other.type_name(), item.span));
                    }
                }
            }
            all
        }
        other => return Err(root_error(text, other.type_name(), root.span)),
    };
    let mut items: Vec<Structure<'i>> = Vec::with_capacity(props.len());
    let mut seen = std::collections::HashMap::with_capacity(props.len());
    for p in props {
        if p.name == COMMENT {
            continue;
        }
        let name = match p.name {
            Cow::Borrowed(n) => n,
            Cow::Owned(_) => {
                return Err(Error::data_at(
                    "a body's property name may not contain escapes (`\\`) here",
                    p.name_span,
                ))
            }
        };
        if let Some(first) = seen.insert(name, p.name_span) {
            return Err(Error::data_at(
                format!(
                    "duplicate property `{name}` (first defined at byte {}): in this body each name may appear once; write repeated blocks as an array",
                    first.start
                ),
                p.name_span,
            ));
        }
        let value = low.expr(p.value)?;
        let item_span = p.name_span.to(value.span);
        items.push(Structure::Attribute(Attribute {
            name: Ident {
                name,
                span: inner(p.name_span),
            },
            expr: value,
            span: item_span,
        }));
    }
    Ok(Body { items, span })
}

fn root_error(text: &str, found: &str, span: Span) -> Error {
    Error::syntax(hcl_grammar::Error::new(
        format!("Root value must be object: the root of a JSON-syntax file must be an object (or an array of objects), not {found}"),
        span,
        text,
    ))
}

/// The span between a string's quotes.
fn inner(span: Span) -> Span {
    Span::new(
        span.start + 1,
        span.end.saturating_sub(1).max(span.start + 1),
    )
}

struct Lower<'o, 'i> {
    text: &'i str,
    templates: bool,
    options: &'o ParseOptions,
}

impl<'i> Lower<'_, 'i> {
    fn expr(&self, v: JsonValue<'i>) -> Result<Expr<'i>> {
        let span = v.span;
        let kind = match v.kind {
            JsonKind::Null => ExprKind::Null,
            JsonKind::Bool(b) => ExprKind::Bool(b),
            JsonKind::Number(n) => ExprKind::Number(n),
            JsonKind::String(s) => return self.string(s, span),
            JsonKind::Array(items) => ExprKind::Tuple(
                items
                    .into_iter()
                    .map(|i| self.expr(i))
                    .collect::<Result<_>>()?,
            ),
            JsonKind::Object(props) => {
                let mut out = Vec::with_capacity(props.len());
                for p in props {
                    // Keys are normalized (NFC) with or without a
                    // context, as the reference's JSON strings are.
                    let normal = matches!(nfc(Cow::Borrowed(&p.name)), Cow::Borrowed(_));
                    let key = match (&p.name, self.is_template(&p.name)) {
                        (Cow::Borrowed(n), false) if normal => ObjectKey::Ident(Ident {
                            name: n,
                            span: inner(p.name_span),
                        }),
                        _ => ObjectKey::Expr(self.string(p.name, p.name_span)?),
                    };
                    out.push(ObjectItem {
                        key,
                        value: self.expr(p.value)?,
                    });
                }
                ExprKind::Object(out)
            }
        };
        Ok(Expr { kind, span })
    }

    fn is_template(&self, s: &str) -> bool {
        self.templates && (s.contains("${") || s.contains("%{"))
    }

    /// A string value or key: a literal, or the template its source is.
    fn string(&self, s: Cow<'i, str>, span: Span) -> Result<Expr<'i>> {
        // A string with escapes is decoded before it is parsed as a
        // template (as the reference does), so its source is not its
        // template: it stays a string here and is parsed when evaluated
        // (`ExprDeserializer::json_template`).
        if !self.is_template(&s) || !JsonValue::is_raw_string(self.text, span) {
            // Strings are normalized (NFC) with or without a context (the
            // reference normalizes a JSON string whether it is a template
            // or literal text).
            let s = nfc(s);
            return Ok(Expr {
                kind: ExprKind::String(s),
                span,
            });
        }
        hcl_grammar::parse_expr_at(self.text, span, self.options).map_err(Error::syntax)
    }
}

/// Evaluates `expr`, a value of a JSON-syntax file lowered with templates
/// (a context was given), as the JSON spec does: a string written with
/// escapes that holds a template sequence is the template its decoded
/// text is (the lowering could not parse it in place), in object keys and
/// nested values too; anything else is evaluated as lowered.
pub(super) fn eval_lowered(
    src: &str,
    expr: &Expr<'_>,
    ctx: &crate::eval::Context,
) -> Result<crate::Value> {
    use crate::Value;
    match &expr.kind {
        ExprKind::String(s) if escaped_template(src, s, expr.span) => {
            crate::body::json::eval_template(s, expr.span, ctx)
        }
        ExprKind::Tuple(items) => Ok(Value::Array(
            items
                .iter()
                .map(|i| eval_lowered(src, i, ctx))
                .collect::<Result<_>>()?,
        )),
        ExprKind::Object(items)
            if items
                .iter()
                .any(|i| needs_json_eval(src, &i.value) || key_needs_json_eval(src, &i.key)) =>
        {
            let mut out = crate::Map::new();
            let mut known = true;
            for item in items {
                let (key, span) = match &item.key {
                    ObjectKey::Ident(i) => (Value::String(i.name.to_owned()), i.span),
                    ObjectKey::Expr(e) => (eval_lowered(src, e, ctx)?, e.span),
                };
                let value = eval_lowered(src, &item.value, ctx)?;
                let key = match key {
                    Value::String(s) => s,
                    Value::Unknown(_) => {
                        known = false;
                        continue;
                    }
                    Value::Number(n) => n.to_string(),
                    Value::Bool(b) => b.to_string(),
                    Value::Null => {
                        return Err(Error::eval(
                            "Invalid object key expression: cannot use a null value as an object key",
                            span,
                        ))
                    }
                    other => {
                        return Err(Error::eval(
                            format!(
                                "Invalid object key expression: cannot use a {} as an object key, a string is required",
                                crate::eval::Type::of(&other)
                            ),
                            span,
                        ))
                    }
                };
                if out.contains_key(&key) {
                    return Err(Error::eval(
                        format!("Duplicate object attribute: an attribute named {key:?} was already defined"),
                        span,
                    ));
                }
                out.insert(key, value);
            }
            if !known {
                return Ok(Value::unknown(crate::eval::Type::Any));
            }
            Ok(Value::Object(out))
        }
        _ => crate::eval::eval_expr(expr, ctx),
    }
}

/// Whether a lowered string is a template written with escapes: its
/// decoded text holds a template sequence and its source is not that text
/// (a string left from a parsed template, like the `${x}` of `"$${x}"`,
/// is literal).
fn escaped_template(src: &str, s: &str, span: Span) -> bool {
    (s.contains("${") || s.contains("%{")) && !JsonValue::is_raw_string(src, span)
}

/// Whether a lowered value holds a string written with escapes that is a
/// template (so [`eval_lowered`] must evaluate it, not the evaluator).
pub(super) fn needs_json_eval(src: &str, expr: &Expr<'_>) -> bool {
    match &expr.kind {
        ExprKind::String(s) => escaped_template(src, s, expr.span),
        ExprKind::Tuple(items) => items.iter().any(|i| needs_json_eval(src, i)),
        ExprKind::Object(items) => items
            .iter()
            .any(|i| needs_json_eval(src, &i.value) || key_needs_json_eval(src, &i.key)),
        _ => false,
    }
}

fn key_needs_json_eval(src: &str, key: &ObjectKey<'_>) -> bool {
    matches!(key, ObjectKey::Expr(e) if needs_json_eval(src, e))
}
