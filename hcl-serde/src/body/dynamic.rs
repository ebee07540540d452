//! `dynamic` blocks expanded as a body is decoded: the work behind
//! [`ext::dynblock::expand`](crate::ext::dynblock::expand), which marks a
//! body for it (the reference's `ext/dynblock`; see that module for the
//! rules).

use super::{
    AttrExpr, Attribute, Block, BlockSchema, BodyContent, BodyKind, BodySchema, SchemaBody,
};
use crate::error::{Error, Result};
use crate::eval::{Context, Type};
use crate::Value;
use hcl_grammar::ExprKind;
use std::sync::Arc;

/// Whether `b`, in a body being expanded, is a `dynamic` block for a block
/// type already decoded (so `just_attributes` passes over it).
pub(super) fn hidden_dynamic(this: &SchemaBody<'_>, b: &hcl_grammar::Block<'_>) -> bool {
    this.dynamic.is_some()
        && b.ident.name == "dynamic"
        && b.labels
            .first()
            .is_some_and(|l| this.hidden.iter().any(|h| h == l.as_str()))
}

/// `Content` (`strict`) or `PartialContent` of a body being expanded: the
/// content, and the rest.
pub(super) fn content<'a>(
    this: &SchemaBody<'a>,
    schema: &BodySchema,
    ctx: &Arc<Context>,
    strict: bool,
) -> Result<(BodyContent<'a>, SchemaBody<'a>)> {
    let mut extended = schema.clone();
    extended.blocks.retain(|b| b.type_name != "dynamic");
    extended.blocks.push(BlockSchema {
        type_name: "dynamic".to_owned(),
        labels: vec!["type".to_owned()],
    });
    let (raw, _) = this.raw_content(&extended, strict)?;
    let mut blocks = Vec::new();
    for mut b in raw.blocks {
        if b.type_name != "dynamic" {
            // Static blocks of a merged body come from the files
            // themselves: they are expanded too.
            b.body.dynamic = Some(Arc::clone(ctx));
            b.body.iterators.clone_from(&this.iterators);
            blocks.push(b);
            continue;
        }
        let Some(real) = b.labels.first().cloned() else {
            continue;
        };
        if this.hidden.contains(&real) {
            continue;
        }
        let Some(bs) = schema.block_type(&real) else {
            if strict {
                return Err(b.body.locate(Error::data_at(
                    format!("Unsupported block type: blocks of type `{real}` are not expected here (in a `dynamic` block)"),
                    b.label_spans.first().copied().unwrap_or(b.type_span),
                )));
            }
            continue;
        };
        generate(this, &b, bs, ctx, &mut blocks)?;
    }
    let mut rest = this.clone();
    rest.hidden
        .extend(schema.attributes.iter().map(|a| a.name.clone()));
    rest.hidden
        .extend(schema.blocks.iter().map(|b| b.type_name.clone()));
    Ok((
        BodyContent {
            attributes: raw.attributes,
            blocks,
        },
        rest,
    ))
}

/// The blocks that the `dynamic` block `dy` generates for `bs`.
fn generate<'a>(
    this: &SchemaBody<'a>,
    dy: &Block<'a>,
    bs: &BlockSchema,
    ctx: &Arc<Context>,
    out: &mut Vec<Block<'a>>,
) -> Result<()> {
    let mut spec = BodySchema::new()
        .attribute("for_each", true)
        .attribute("iterator", false);
    if !bs.labels.is_empty() {
        spec = spec.attribute("labels", true);
    }
    spec = spec.block("content", &[]);
    let (decoded, _) = dy.body.raw_content(&spec, true)?;
    let attr = |name: &str| {
        decoded.attributes.iter().find(|a| a.name == name).map(|a| {
            // `ctx` already holds the enclosing iterators; the spec is
            // evaluated even inside a block generated for an unknown
            // `for_each` (the reference wraps only the content).
            let mut a = a.clone();
            a.iterators = None;
            a.unknown = false;
            a
        })
    };
    let at = |msg: String, span| dy.body.locate(Error::data_at(msg, span));
    let Some(for_each) = attr("for_each") else {
        return Err(at(
            "Missing required argument: the argument `for_each` is required".to_owned(),
            dy.type_span,
        ));
    };
    let (each, each_type) = typed_value(&for_each, ctx)?;
    // An unknown collection (or an unknown of any type) generates one
    // block whose attributes are all unknown, as the reference's
    // `unknownBody`: a block itself cannot be unknown.
    let unknown = match &each {
        Value::Unknown(t) => matches!(
            **t,
            Type::Any
                | Type::List(_)
                | Type::Set(_)
                | Type::Map(_)
                | Type::Tuple(_)
                | Type::Object(_)
        ),
        _ => false,
    };
    match &each {
        _ if unknown => {}
        Value::Null => {
            return Err(at(
                "Invalid dynamic for_each value: Cannot use a null value in for_each.".to_owned(),
                for_each.span(),
            ))
        }
        Value::Array(_) | Value::Object(_) => {}
        _ => {
            return Err(at(
                format!(
                    "Invalid dynamic for_each value: Cannot use a {} value in for_each. An iterable collection is required.",
                    each_type.friendly_name()
                ),
                for_each.span(),
            ))
        }
    }
    let iterator = match attr("iterator") {
        Some(it) => iterator_name(&it).map_err(|(m, s)| at(m, s))?,
        None => bs.type_name.clone(),
    };
    let labels = match attr("labels") {
        Some(l) => {
            let exprs = label_exprs(&l).map_err(|(m, s)| at(m, s))?;
            if let Some(extra) = exprs.get(bs.labels.len()) {
                return Err(at(
                    format!(
                        "Extraneous dynamic block label: Blocks of type `{}` require {} label(s).",
                        bs.type_name,
                        bs.labels.len()
                    ),
                    extra.span(),
                ));
            }
            if exprs.len() < bs.labels.len() {
                return Err(at(
                    format!(
                        "Insufficient dynamic block labels: Blocks of type `{}` require {} label(s).",
                        bs.type_name,
                        bs.labels.len()
                    ),
                    l.span(),
                ));
            }
            exprs
        }
        None => Vec::new(),
    };
    let mut contents = decoded.blocks.iter();
    let Some(content) = contents.next() else {
        return Err(at(
            "Missing dynamic content block: A dynamic block must have a nested block of type \"content\" to describe the body of each generated block.".to_owned(),
            body_start(&dy.body).unwrap_or(dy.type_span),
        ));
    };
    if let Some(second) = contents.next() {
        return Err(at(
            "Extraneous dynamic content block: Only one nested content block is allowed for each dynamic block.".to_owned(),
            second.type_span,
        ));
    }
    let is_set = matches!(each_type, Type::Set(_));
    let elements: Vec<(Value, &Value)> = match &each {
        Value::Array(items) => items
            .iter()
            .enumerate()
            .map(|(i, v)| {
                let key = if is_set {
                    v.clone()
                } else {
                    Value::from(i as u64)
                };
                (key, v)
            })
            .collect(),
        Value::Object(map) => {
            let mut entries: Vec<(&String, &Value)> = map.iter().collect();
            entries.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
            entries
                .into_iter()
                .map(|(k, v)| (Value::from(k.as_str()), v))
                .collect()
        }
        _ => Vec::new(),
    };
    let any = Value::unknown(Type::Any);
    let elements = if unknown {
        vec![(any.clone(), &any)]
    } else {
        elements
    };
    for (key, value) in elements {
        let mut object = crate::Map::new();
        object.insert("key".to_owned(), key);
        object.insert("value".to_owned(), value.clone());
        let object = Value::Object(object);
        let mut child = Context::child(ctx);
        child.declare_var(iterator.clone(), object.clone());
        let child = Arc::new(child);
        let mut names = Vec::with_capacity(labels.len());
        for l in &labels {
            names.push(label_value(l, &child).map_err(|(m, s)| at(m, s))?);
        }
        let label_spans = labels.iter().map(Attribute::span).collect();
        let mut iterators: Vec<(String, Value)> =
            this.iterators.as_deref().cloned().unwrap_or_default();
        iterators.push((iterator.clone(), object));
        let mut body = content.body.clone();
        body.hidden = Vec::new();
        body.dynamic = Some(child);
        body.iterators = Some(Arc::new(iterators));
        body.unknown |= unknown || this.unknown;
        out.push(Block {
            type_name: bs.type_name.clone(),
            labels: names,
            label_spans,
            type_span: dy.type_span,
            body,
        });
    }
    Ok(())
}

/// Where a block's body starts (its `{`), as a point: where the reference
/// reports what is missing from it.
fn body_start(body: &SchemaBody<'_>) -> Option<hcl_grammar::Span> {
    let at = match &body.kind {
        // A native body's span starts after its one-byte `{`.
        BodyKind::Native(b) => b.span.start().checked_sub(1)?,
        BodyKind::Json(v) => v.span.start(),
        BodyKind::Merged(_) => return None,
    };
    Some(hcl_grammar::Span::new(at, at))
}

/// The value of `a` in `ctx` with its type (a set is an array here).
fn typed_value(a: &Attribute<'_>, ctx: &Context) -> Result<(Value, Type)> {
    match &a.expr {
        AttrExpr::Native(e) => crate::eval::eval_expr_typed(e, ctx)
            .map_err(|e| crate::source::locate(e, a.src, a.file)),
        AttrExpr::Json(_) => a.evaluate(Some(ctx)).map(|v| {
            let ty = Type::of(&v);
            (v, ty)
        }),
    }
}

type Located = (String, hcl_grammar::Span);

/// The iterator's name: a bare variable name (`hcl.AbsTraversalForExpr`
/// with one step).
fn iterator_name(a: &Attribute<'_>) -> std::result::Result<String, Located> {
    let not_static = || {
        (
            "Invalid expression: A single static variable reference is required: only attribute access and indexing with constant keys. No calculations, function calls, template expressions, etc are allowed here.".to_owned(),
            a.span(),
        )
    };
    let too_long = || {
        (
            "Invalid dynamic iterator name: Dynamic iterator must be a single variable name."
                .to_owned(),
            a.span(),
        )
    };
    match &a.expr {
        AttrExpr::Native(e) => {
            let mut cur = *e;
            let mut steps = 0;
            loop {
                match &cur.kind {
                    ExprKind::Variable(id) if steps == 0 => return Ok(id.name.to_owned()),
                    ExprKind::Variable(_) => return Err(too_long()),
                    ExprKind::GetAttr(g) => cur = &g.object,
                    ExprKind::Index(ix)
                        if !matches!(
                            ix.key.kind,
                            ExprKind::Variable(_)
                                | ExprKind::GetAttr(_)
                                | ExprKind::Index(_)
                                | ExprKind::Call(_)
                                | ExprKind::Template(_)
                        ) =>
                    {
                        cur = &ix.collection
                    }
                    _ => return Err(not_static()),
                }
                steps += 1;
            }
        }
        AttrExpr::Json(v) => match v.string() {
            Some(s) if hcl_grammar::is_identifier(&s) => Ok(s.into_owned()),
            Some(s) if s.split('.').all(hcl_grammar::is_identifier) => Err(too_long()),
            _ => Err(not_static()),
        },
    }
}

/// The label expressions: `labels` must be a list written out
/// (`hcl.ExprList`).
fn label_exprs<'a>(a: &Attribute<'a>) -> std::result::Result<Vec<Attribute<'a>>, Located> {
    let item = |expr| Attribute { expr, ..a.clone() };
    match &a.expr {
        AttrExpr::Native(e) => match &e.kind {
            ExprKind::Tuple(items) => Ok(items.iter().map(|x| item(AttrExpr::Native(x))).collect()),
            _ => Err(not_list(a)),
        },
        AttrExpr::Json(v) => match v.array() {
            Some(items) => Ok(items.iter().map(|x| item(AttrExpr::Json(x))).collect()),
            None => Err(not_list(a)),
        },
    }
}

fn not_list(a: &Attribute<'_>) -> Located {
    (
        "Invalid expression: A static list expression is required.".to_owned(),
        a.span(),
    )
}

/// One label's value, converted to a string.
fn label_value(l: &Attribute<'_>, ctx: &Context) -> std::result::Result<String, Located> {
    let v = l
        .evaluate(Some(ctx))
        .map_err(|e| (e.message().to_owned(), e.span().unwrap_or_else(|| l.span())))?;
    let invalid = |why: String| (format!("Invalid dynamic block label: {why}"), l.span());
    match crate::eval::convert::convert(v, &Type::String) {
        Ok((Value::String(s), _)) => Ok(s),
        Ok((Value::Null, _)) => Err(invalid(
            "Cannot use a null value as a dynamic block label.".to_owned(),
        )),
        Ok((Value::Unknown(_), _)) => Err(invalid(
            "This value is not yet known. Dynamic block labels must be immediately-known values."
                .to_owned(),
        )),
        Ok((other, _)) => Err(invalid(format!(
            "Cannot use this value as a dynamic block label: a {} is not a string.",
            Type::of(&other).friendly_name()
        ))),
        Err(e) => Err(invalid(format!(
            "Cannot use this value as a dynamic block label: {e}."
        ))),
    }
}

/// The blocks that the native `dynamic` block `dy` (of the file `src`,
/// named `file`) generates, for the serde deserializer, which has no
/// schema: the generated blocks take as many labels as its `labels` list
/// has. `ctx` holds the enclosing iterators. Each generated block's body
/// has its own context (the iterator on top of `ctx`) in `body.dynamic`.
pub(crate) fn generate_native<'a>(
    src: &'a str,
    file: Option<&'a str>,
    dy: &'a hcl_grammar::Block<'a>,
    ctx: &Arc<Context>,
) -> Result<Vec<Block<'a>>> {
    let Some(type_label) = dy.labels.first() else {
        return Err(Error::data_at(
            "Missing type for dynamic: a `dynamic` block needs one label, the type of the blocks it generates",
            dy.ident.span,
        ));
    };
    let labels = dy
        .body
        .attributes()
        .find(|a| a.name.name == "labels")
        .map_or(0, |a| match &a.expr.kind {
            ExprKind::Tuple(items) => items.len(),
            _ => 1,
        });
    let parent = SchemaBody {
        src,
        file,
        kind: BodyKind::Native(&dy.body),
        hidden: Vec::new(),
        dynamic: Some(Arc::clone(ctx)),
        iterators: None,
        unknown: false,
    };
    let dy_block = Block {
        type_name: "dynamic".to_owned(),
        labels: vec![type_label.as_str().to_owned()],
        label_spans: vec![type_label.span()],
        type_span: dy.ident.span,
        body: parent.clone(),
    };
    let bs = BlockSchema {
        type_name: type_label.as_str().to_owned(),
        labels: (0..labels).map(|i| format!("label {}", i + 1)).collect(),
    };
    let mut out = Vec::new();
    generate(&parent, &dy_block, &bs, ctx, &mut out).map_err(|e| parent.locate(e))?;
    Ok(out)
}

/// The blocks that a JSON-syntax `dynamic` block generates (its body
/// `dy`, under the label `type_name` at `type_span`), for the serde
/// deserializer: as [`generate_native`].
pub(crate) fn generate_json<'a>(
    src: &'a str,
    file: Option<&'a str>,
    type_name: &str,
    type_span: hcl_grammar::Span,
    dy: super::json_ref::JsonRef<'a, 'a>,
    ctx: &Arc<Context>,
) -> Result<Vec<Block<'a>>> {
    let labels = dy.object().map_or(0, |props| {
        props
            .iter()
            .find(|p| p.name() == "labels")
            .map_or(0, |p| p.value().array().map_or(1, |items| items.len()))
    });
    let parent = SchemaBody {
        src,
        file,
        kind: BodyKind::Json(dy),
        hidden: Vec::new(),
        dynamic: Some(Arc::clone(ctx)),
        iterators: None,
        unknown: false,
    };
    let dy_block = Block {
        type_name: "dynamic".to_owned(),
        labels: vec![type_name.to_owned()],
        label_spans: vec![type_span],
        type_span,
        body: parent.clone(),
    };
    let bs = BlockSchema {
        type_name: type_name.to_owned(),
        labels: (0..labels).map(|i| format!("label {}", i + 1)).collect(),
    };
    let mut out = Vec::new();
    generate(&parent, &dy_block, &bs, ctx, &mut out).map_err(|e| parent.locate(e))?;
    Ok(out)
}
