//! The schema API over a JSON-syntax body (the reference's `hcl/json`
//! body): the schema decides which properties are attributes and which
//! are blocks; values are evaluated as the JSON spec says. Every rule of
//! the JSON syntax is here: the comment property, strings as templates
//! (positions in the JSON text), block forms, object keys.

use super::{
    suggestion, AttrExpr, Attribute, Block, BodyContent, BodyKind, BodySchema, SchemaBody,
};
use crate::error::{Error, Result};
use crate::eval::Context;
use crate::source::DEFAULT_MAX_DEPTH;
use crate::{Map, Number, Value};
use hcl_grammar::json::{JsonKind, JsonProperty, JsonValue};
use hcl_grammar::Span;

/// The properties of a body (or of a label level): an object's, the
/// merged objects of an array, none for `null`.
fn deep_props<'a>(v: &'a JsonValue<'a>, label: Option<&str>) -> Result<Vec<&'a JsonProperty<'a>>> {
    let what = match label {
        Some(l) => format!("to specify {l} labels for this block"),
        None => "to define arguments and child blocks".to_owned(),
    };
    match &v.kind {
        JsonKind::Null => Ok(Vec::new()),
        JsonKind::Object(props) => Ok(props.iter().collect()),
        JsonKind::Array(items) => {
            let mut out = Vec::new();
            for item in items {
                match &item.kind {
                    JsonKind::Object(props) => out.extend(props.iter()),
                    _ => {
                        return Err(Error::data_at(
                            format!("Incorrect JSON value type: a JSON object is required here, {what}"),
                            start(item),
                        ))
                    }
                }
            }
            Ok(out)
        }
        _ => Err(Error::data_at(
            format!(
                "Incorrect JSON value type: either a JSON object or a JSON array of objects is required here, {what}"
            ),
            start(v),
        )),
    }
}

/// The first byte of a value (the reference's `StartRange`).
fn start(v: &JsonValue<'_>) -> Span {
    Span::new(
        v.span.start,
        (v.span.start + 1).min(v.span.end.max(v.span.start + 1)),
    )
}

/// Where a missing attribute is reported: an object's `}`, an array's `[`.
fn missing_range(v: &JsonValue<'_>) -> Span {
    match &v.kind {
        JsonKind::Object(_) => Span::new(v.span.end.saturating_sub(1), v.span.end),
        _ => start(v),
    }
}

pub(super) fn content<'a>(
    this: &SchemaBody<'a>,
    v: &'a JsonValue<'a>,
    schema: &BodySchema,
    strict: bool,
) -> Result<(BodyContent<'a>, Vec<String>)> {
    let props = deep_props(v, None)?;
    let mut used: Vec<String> = this.hidden.clone();
    let mut out = BodyContent {
        attributes: Vec::new(),
        blocks: Vec::new(),
    };
    for p in &props {
        let name = p.name.as_ref();
        if this.hidden.iter().any(|h| h == name) {
            continue;
        }
        if schema.attr(name).is_some() {
            if out.attributes.iter().any(|a| a.name == name) {
                return Err(Error::data_at(
                    format!("Duplicate argument: the argument {name:?} was already set"),
                    p.name_span,
                ));
            }
            out.attributes
                .push(this.attribute(name, p.name_span, AttrExpr::Json(&p.value)));
            used.push(name.to_owned());
        } else if let Some(bs) = schema.block_type(name) {
            let mut labels = Vec::new();
            unpack_block(
                this,
                &p.value,
                name,
                p.name_span,
                &bs.labels,
                &mut labels,
                &mut out.blocks,
                0,
            )?;
            used.push(name.to_owned());
        }
    }
    for a in &schema.attributes {
        if a.required && !out.attributes.iter().any(|x| x.name == a.name) {
            return Err(Error::data_at(
                format!(
                    "Missing required argument: the argument {:?} is required, but no definition was found",
                    a.name
                ),
                missing_range(v),
            ));
        }
    }
    if strict {
        let candidates: Vec<&str> = schema
            .attributes
            .iter()
            .map(|a| a.name.as_str())
            .filter(|n| !used.iter().any(|u| u == n))
            .chain(schema.blocks.iter().map(|b| b.type_name.as_str()))
            .collect();
        for p in &props {
            let name = p.name.as_ref();
            if name == COMMENT || used.iter().any(|u| u == name) {
                continue;
            }
            return Err(Error::data_at(
                format!(
                    "Extraneous JSON object property: no argument or block type is named {name:?}.{}",
                    suggestion(name, candidates.iter().copied())
                ),
                p.name_span,
            ));
        }
    }
    Ok((out, used))
}

#[allow(clippy::too_many_arguments)]
fn unpack_block<'a>(
    parent: &SchemaBody<'a>,
    v: &'a JsonValue<'a>,
    type_name: &str,
    type_span: Span,
    labels_left: &[String],
    labels: &mut Vec<(String, Span)>,
    out: &mut Vec<Block<'a>>,
    depth: usize,
) -> Result<()> {
    if depth > DEFAULT_MAX_DEPTH {
        return Err(Error::data_at("blocks nested too deeply", start(v)));
    }
    if let Some((label, rest)) = labels_left.split_first() {
        let props = deep_props(v, Some(label))?;
        if props.is_empty() {
            return Err(Error::data_at(
                format!(
                    "Missing block label: at least one object property is required, whose name represents the {type_name} block's {label}"
                ),
                start(v),
            ));
        }
        for p in props {
            labels.push((p.name.clone().into_owned(), p.name_span));
            unpack_block(
                parent,
                &p.value,
                type_name,
                type_span,
                rest,
                labels,
                out,
                depth + 1,
            )?;
            labels.pop();
        }
        return Ok(());
    }
    let block = |body: &'a JsonValue<'a>| Block {
        type_name: type_name.to_owned(),
        labels: labels.iter().map(|(l, _)| l.clone()).collect(),
        label_spans: labels.iter().map(|(_, s)| *s).collect(),
        type_span,
        body: parent.child(BodyKind::Json(body)),
    };
    match &v.kind {
        JsonKind::Null => Ok(()),
        JsonKind::Object(_) => {
            out.push(block(v));
            Ok(())
        }
        JsonKind::Array(items) => {
            out.extend(items.iter().map(block));
            Ok(())
        }
        _ => Err(Error::data_at(
            format!(
                "Incorrect JSON value type: either a JSON object or a JSON array is required, representing the contents of one or more {type_name:?} blocks"
            ),
            start(v),
        )),
    }
}

pub(super) fn just_attributes<'a>(
    this: &SchemaBody<'a>,
    v: &'a JsonValue<'a>,
) -> Result<Vec<Attribute<'a>>> {
    let JsonKind::Object(props) = &v.kind else {
        return Err(Error::data_at(
            "Incorrect JSON value type: a JSON object is required here, setting the arguments for this block",
            start(v),
        ));
    };
    let mut out: Vec<Attribute<'a>> = Vec::new();
    let mut seen = std::collections::HashSet::with_capacity(props.len());
    for p in props {
        let name = p.name.as_ref();
        if name == COMMENT || this.hidden.iter().any(|h| h == name) {
            continue;
        }
        if !seen.insert(name) {
            return Err(Error::data_at(
                format!("Duplicate attribute definition: the argument {name:?} was already set"),
                p.name_span,
            ));
        }
        out.push(this.attribute(name, p.name_span, AttrExpr::Json(&p.value)));
    }
    Ok(out)
}

/// The value of a JSON value as an expression: strings are templates with
/// a context and literal without one; object keys likewise, converted to
/// strings; a repeated key is an error.
pub(super) fn evaluate(v: &JsonValue<'_>, ctx: Option<&Context>, depth: usize) -> Result<Value> {
    let max = ctx.map_or(DEFAULT_MAX_DEPTH, |c| c.options().max_depth());
    if depth > max {
        return Err(Error::eval(
            format!("the value is nested more than {max} levels deep"),
            start(v),
        ));
    }
    Ok(match &v.kind {
        JsonKind::Null => Value::Null,
        JsonKind::Bool(b) => Value::Bool(*b),
        JsonKind::Number(n) => Value::Number(
            number(n)
                .ok_or_else(|| Error::eval(format!("the number {n} is out of range"), v.span))?,
        ),
        JsonKind::String(s) => string(s, v.span, ctx)?,
        JsonKind::Array(items) => Value::Array(
            items
                .iter()
                .map(|i| evaluate(i, ctx, depth + 1))
                .collect::<Result<_>>()?,
        ),
        JsonKind::Object(props) => {
            let mut out = Map::new();
            // As the reference: an unknown key makes the object unknown, of
            // any type (after every property is checked).
            let mut known = true;
            for p in props {
                let key = string(&p.name, p.name_span, ctx)?;
                let value = evaluate(&p.value, ctx, depth + 1)?;
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
                            p.name_span,
                        ))
                    }
                    other => {
                        return Err(Error::eval(
                            format!(
                                "Invalid object key expression: cannot use a {} as an object key, a string is required",
                                crate::eval::Type::of(&other)
                            ),
                            p.name_span,
                        ))
                    }
                };
                if out.contains_key(&key) {
                    return Err(Error::eval(
                        format!("Duplicate object attribute: an attribute named {key:?} was already defined"),
                        p.name_span,
                    ));
                }
                out.insert(key, value);
            }
            if !known {
                return Ok(Value::unknown(crate::eval::Type::Any));
            }
            Value::Object(out)
        }
    })
}

/// A JSON number's exact value.
pub(crate) fn number(text: &str) -> Option<Number> {
    match text.strip_prefix('-') {
        Some(rest) => Number::from_literal(rest).map(|n| n.neg()),
        None => Number::from_literal(text),
    }
}

fn string(s: &str, span: Span, ctx: Option<&Context>) -> Result<Value> {
    match ctx {
        // Literal text, normalized (NFC) as the reference does.
        None => Ok(Value::String(
            hcl_grammar::json::nfc(std::borrow::Cow::Borrowed(s)).into_owned(),
        )),
        Some(ctx) => eval_template(s, span, ctx),
    }
}

/// The name of the comment property, ignored in bodies.
pub(crate) const COMMENT: &str = "//";

/// Evaluates `text`, the decoded content of the JSON string at `span`, as
/// a template. Positions are moved into the JSON text: exact for the part
/// before the first escape, shifted by the escapes after it (as in the
/// reference, which also counts the decoded text).
pub(crate) fn eval_template(text: &str, span: Span, ctx: &Context) -> Result<Value> {
    let base = span.start + 1;
    let template = hcl_grammar::parse_template(text).map_err(|e| {
        let s = e.span();
        Error::eval(e.message(), Span::new(base + s.start, base + s.end))
    })?;
    crate::eval::eval_template(&template, ctx).map_err(|e| e.relocate(0, base, 0))
}
