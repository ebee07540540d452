//! The schema API over a JSON-syntax body (the reference's `hcl/json`
//! body): the schema decides which properties are attributes and which
//! are blocks; values are evaluated as the JSON spec says. Every rule of
//! the JSON syntax is here: the comment property, strings as templates
//! (positions in the JSON text), block forms, object keys.

pub(crate) use super::json_number::{exact_as_written, integral, number, small_int};
use super::json_ref::{JsonRef, PropRef, Props};
use super::{
    suggestion, AttrExpr, Attribute, Block, BodyContent, BodyKind, BodySchema, SchemaBody,
};
use crate::error::{Error, Result};
use crate::eval::Context;
use crate::source::DEFAULT_MAX_DEPTH;
use crate::{Map, Value};
use hcl_grammar::json::{JsonKind, JsonValue};
use hcl_grammar::Span;
use std::borrow::Cow;

/// The properties of a body (or of a label level): an object's, the
/// merged objects of an array, none for `null`.
fn deep_props<'a>(v: JsonRef<'a, 'a>, label: Option<&str>) -> Result<Vec<PropRef<'a, 'a>>> {
    let what = match label {
        Some(l) => format!("to specify {l} labels for this block"),
        None => "to define arguments and child blocks".to_owned(),
    };
    if let Some(props) = v.object() {
        return Ok(props.iter().collect());
    }
    match (&v.kind, v.array()) {
        (JsonKind::Null, _) => Ok(Vec::new()),
        (_, Some(items)) => {
            let mut out = Vec::new();
            for item in items {
                match item.object() {
                    Some(props) => out.extend(props),
                    None => {
                        return Err(Error::data_at(
                            format!("Incorrect JSON value type: a JSON object is required here, {what}"),
                            start(&item),
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
            start(&v),
        )),
    }
}

/// The first byte of a value (the reference's `StartRange`).
fn start(v: &JsonValue) -> Span {
    Span::new(
        v.span.start(),
        (v.span.start() + 1).min(v.span.end().max(v.span.start() + 1)),
    )
}

/// Where a missing attribute is reported: an object's `}`, an array's `[`.
fn missing_range(v: &JsonValue) -> Span {
    match &v.kind {
        JsonKind::Object(_) => Span::new(v.span.end().saturating_sub(1), v.span.end()),
        _ => start(v),
    }
}

pub(super) fn content<'a>(
    this: &SchemaBody<'a>,
    v: JsonRef<'a, 'a>,
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
        let name = p.name();
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
                .push(this.attribute(name, p.name_span, AttrExpr::Json(p.value())));
            used.push(name.to_owned());
        } else if let Some(bs) = schema.block_type(name) {
            let mut labels = Vec::new();
            unpack_block(
                this,
                p.value(),
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
                missing_range(&v),
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
            let name = p.name();
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
    v: JsonRef<'a, 'a>,
    type_name: &str,
    type_span: Span,
    labels_left: &[String],
    labels: &mut Vec<(String, Span)>,
    out: &mut Vec<Block<'a>>,
    depth: usize,
) -> Result<()> {
    if depth > DEFAULT_MAX_DEPTH {
        return Err(Error::data_at("blocks nested too deeply", start(&v)));
    }
    if let Some((label, rest)) = labels_left.split_first() {
        let props = deep_props(v, Some(label))?;
        if props.is_empty() {
            return Err(Error::data_at(
                format!(
                    "Missing block label: at least one object property is required, whose name represents the {type_name} block's {label}"
                ),
                start(&v),
            ));
        }
        for p in props {
            labels.push((p.name().to_owned(), p.name_span));
            unpack_block(
                parent,
                p.value(),
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
    let block = |body: JsonRef<'a, 'a>| Block {
        type_name: type_name.to_owned(),
        labels: labels.iter().map(|(l, _)| l.clone()).collect(),
        label_spans: labels.iter().map(|(_, s)| *s).collect(),
        type_span,
        body: parent.child(BodyKind::Json(body)),
    };
    if let Some(items) = v.array() {
        out.extend(items.iter().map(block));
        return Ok(());
    }
    match &v.kind {
        JsonKind::Null => Ok(()),
        JsonKind::Object(_) => {
            out.push(block(v));
            Ok(())
        }
        _ => Err(Error::data_at(
            format!(
                "Incorrect JSON value type: either a JSON object or a JSON array is required, representing the contents of one or more {type_name:?} blocks"
            ),
            start(&v),
        )),
    }
}

pub(super) fn just_attributes<'a>(
    this: &SchemaBody<'a>,
    v: JsonRef<'a, 'a>,
) -> Result<Vec<Attribute<'a>>> {
    let props = attributes_object(v)?;
    let mut out: Vec<Attribute<'a>> = Vec::new();
    let mut seen = std::collections::HashSet::with_capacity(props.len());
    for p in props {
        let name = p.name();
        if name == COMMENT || this.hidden.iter().any(|h| h == name) {
            continue;
        }
        if !seen.insert(name) {
            return Err(Error::data_at(
                format!("Duplicate attribute definition: the argument {name:?} was already set"),
                p.name_span,
            ));
        }
        out.push(this.attribute(name, p.name_span, AttrExpr::Json(p.value())));
    }
    Ok(out)
}

/// The properties of a body read as attributes only (the reference's
/// `JustAttributes`, which reading a body into a map or a `Value` is):
/// the body must be an object; the array of objects that schema decoding
/// merges is refused, at its first byte.
pub(crate) fn attributes_object<'a, 'i>(v: JsonRef<'a, 'i>) -> Result<Props<'a, 'i>> {
    v.object().ok_or_else(|| {
        Error::data_at(
            "Incorrect JSON value type: a JSON object is required here, setting the arguments for this block",
            start(&v),
        )
    })
}

/// The value of a JSON value as an expression: strings are templates with
/// a context and literal without one; object keys likewise, converted to
/// strings; a repeated key is an error.
pub(crate) fn evaluate(v: JsonRef<'_, '_>, ctx: Option<&Context>, depth: usize) -> Result<Value> {
    let max = ctx.map_or(DEFAULT_MAX_DEPTH, |c| c.options().max_depth());
    if depth > max {
        return Err(Error::eval(
            format!("the value is nested more than {max} levels deep"),
            start(&v),
        ));
    }
    Ok(match &v.kind {
        JsonKind::Null => Value::Null,
        JsonKind::Bool(b) => Value::Bool(*b),
        JsonKind::Number => {
            let n = v.number().unwrap_or_default();
            Value::Number(
                number(n).ok_or_else(|| {
                    Error::eval(format!("the number {n} is out of range"), v.span)
                })?,
            )
        }
        JsonKind::String(_) => string(v.string().unwrap_or_default(), v.span, ctx)?,
        JsonKind::Array(_) => Value::Array(
            v.array()
                .into_iter()
                .flatten()
                .map(|i| evaluate(i, ctx, depth + 1))
                .collect::<Result<_>>()?,
        ),
        JsonKind::Object(_) => {
            let mut out = Map::new();
            // As the reference: an unknown key makes the object unknown, of
            // any type (after every property is checked).
            let mut known = true;
            for p in v.object().into_iter().flatten() {
                let key = string(Cow::Borrowed(p.name()), p.name_span, ctx)?;
                let value = evaluate(p.value(), ctx, depth + 1)?;
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

fn string(s: Cow<'_, str>, span: Span, ctx: Option<&Context>) -> Result<Value> {
    match ctx {
        // Literal text, normalized (NFC) as the reference does.
        None => Ok(Value::String(hcl_grammar::__private::nfc(s).into_owned())),
        Some(ctx) => eval_template(&s, span, ctx),
    }
}

/// The name of the comment property, ignored in bodies.
pub(crate) const COMMENT: &str = "//";

/// Evaluates `text`, the decoded content of the JSON string at `span`, as
/// a template. Positions are moved into the JSON text: exact for the part
/// before the first escape, shifted by the escapes after it (as in the
/// reference, which also counts the decoded text).
pub(crate) fn eval_template(text: &str, span: Span, ctx: &Context) -> Result<Value> {
    let base = span.start() + 1;
    let template = hcl_grammar::parse_template(text, &Default::default()).map_err(|e| {
        let s = e.span();
        Error::eval(e.message(), Span::new(base + s.start(), base + s.end()))
    })?;
    crate::eval::eval_template(&template, ctx).map_err(|e| e.relocate(0, base, 0))
}

// ---------------------------------------------------------------------
// The rules the serde deserializer follows, where the target type (not a
// schema) says what is a block.

/// Whether a JSON string (a value or an object key) is a template: only
/// with a context (`templates`), and only when it holds a template
/// sequence; otherwise it is literal text.
#[inline]
pub(crate) fn is_template(s: &str, templates: bool) -> bool {
    templates && (s.contains("${") || s.contains("%{"))
}

/// A literal JSON string's text: normalized (NFC), as the reference's
/// JSON strings are with or without a context. `None`: it already is.
pub(crate) fn normalized(s: &str) -> Option<String> {
    match hcl_grammar::__private::nfc(Cow::Borrowed(s)) {
        Cow::Borrowed(_) => None,
        Cow::Owned(o) => Some(o),
    }
}

/// The properties of a body: an object's, or the objects' of an array
/// (the root of a file may be an array of objects); `"//"` comments left
/// out.
pub(crate) fn body_props<'a, 'i>(v: JsonRef<'a, 'i>) -> Vec<PropRef<'a, 'i>> {
    let not_comment = |p: &PropRef<'_, '_>| !p.name_is(COMMENT);
    if let Some(props) = v.object() {
        return props.iter().filter(not_comment).collect();
    }
    v.array()
        .into_iter()
        .flatten()
        .filter_map(JsonRef::object)
        .flatten()
        .filter(not_comment)
        .collect()
}

/// One block of a JSON value read as blocks: the properties whose names
/// are its labels, and its body (an object).
pub(crate) struct FoundBlock<'a, 'i> {
    /// The label levels, outermost first.
    pub(crate) labels: Vec<PropRef<'a, 'i>>,
    /// The body.
    pub(crate) body: JsonRef<'a, 'i>,
}

/// The blocks of `v` for a struct with `fields`, in order (depth first):
/// `$label` takes one object level as a label, `$labels` the levels left,
/// which JSON cannot count: a level is a label level while each of its
/// values is an object (or an array of them) and none of its names is a
/// field of the struct. An array repeats blocks at the body level and
/// merges objects at a label level; `null` is no block.
pub(crate) fn blocks_for_fields<'a, 'i>(
    v: JsonRef<'a, 'i>,
    fields: &[&str],
    max_depth: usize,
) -> Result<Vec<FoundBlock<'a, 'i>>> {
    let levels = usize::from(fields.contains(&"$label"));
    let open = fields.contains(&"$labels");
    let mut out = Vec::new();
    let walk = Walk {
        fields,
        open,
        max_depth,
    };
    walk.walk(v, levels, &mut Vec::new(), &mut out, 0)?;
    Ok(out)
}

struct Walk<'f> {
    fields: &'f [&'f str],
    open: bool,
    max_depth: usize,
}

impl Walk<'_> {
    fn walk<'a, 'i>(
        &self,
        v: JsonRef<'a, 'i>,
        levels: usize,
        labels: &mut Vec<PropRef<'a, 'i>>,
        out: &mut Vec<FoundBlock<'a, 'i>>,
        depth: usize,
    ) -> Result<()> {
        if depth > self.max_depth {
            return Err(Error::data_at(
                format!(
                    "the value is nested more than {} levels deep (the deserializer's depth limit)",
                    self.max_depth
                ),
                v.span,
            ));
        }
        let props = v.object();
        let at_label = levels > 0 || (self.open && props.is_some_and(|p| self.is_label_level(p)));
        if let Some(items) = v.array() {
            for item in items {
                self.walk(item, levels, labels, out, depth + 1)?;
            }
            return Ok(());
        }
        match (&v.kind, props) {
            (JsonKind::Null, _) if !at_label || labels.is_empty() => Ok(()),
            (_, Some(props)) if at_label => {
                if props.is_empty() && labels.is_empty() {
                    return Ok(());
                }
                if props.is_empty() {
                    return Err(Error::data_at(
                        "Missing block label: this object must have a property for the block's next label",
                        v.span,
                    ));
                }
                for p in props {
                    labels.push(p);
                    self.walk(p.value(), levels.saturating_sub(1), labels, out, depth + 1)?;
                    labels.pop();
                }
                Ok(())
            }
            (_, Some(_)) => {
                out.push(FoundBlock {
                    labels: labels.clone(),
                    body: v,
                });
                Ok(())
            }
            _ if at_label => Err(Error::data_at(
                "Missing block label: expected an object whose property names are the block's labels",
                v.span,
            )),
            _ => Err(Error::data_at(
                "a block body must be a JSON object (or an array of objects, or null)",
                v.span,
            )),
        }
    }

    /// Whether an object is a level of labels for `$labels`.
    fn is_label_level(&self, props: Props<'_, '_>) -> bool {
        !props.is_empty()
            && props.iter().all(|p| {
                let v = p.value();
                let nested = match v.array() {
                    Some(xs) => xs.iter().all(JsonRef::is_object),
                    None => v.is_object(),
                };
                !self.fields.contains(&p.name()) && nested
            })
    }
}
