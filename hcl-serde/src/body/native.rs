//! The schema API over a native-syntax body (the reference's
//! `hclsyntax.Body`): attributes and blocks are told apart by the syntax;
//! the schema checks names and label counts.

use super::{
    suggestion, AttrExpr, Attribute, Block, BodyContent, BodyKind, BodySchema, SchemaBody,
};
use crate::error::{Error, Result};
use hcl_grammar::{Body, Structure};

/// `Content` (`strict`) or `PartialContent`: the content and the names it
/// used.
pub(super) fn content<'a>(
    this: &SchemaBody<'a>,
    body: &'a Body<'a>,
    schema: &BodySchema,
    strict: bool,
) -> Result<(BodyContent<'a>, Vec<String>)> {
    let hidden = &this.hidden;
    let mut out = BodyContent {
        attributes: Vec::new(),
        blocks: Vec::new(),
    };
    let mut used = Vec::new();
    let names = || {
        schema
            .attributes
            .iter()
            .map(|a| a.name.as_str())
            .chain(schema.blocks.iter().map(|b| b.type_name.as_str()))
    };
    for item in &body.items {
        match item {
            Structure::Attribute(a) => {
                let name = a.name.name;
                if hidden.iter().any(|h| h == name) {
                    continue;
                }
                if schema.attr(name).is_some() {
                    out.attributes.push(this.attribute(
                        name,
                        a.name.span,
                        AttrExpr::Native(&a.expr),
                    ));
                    used.push(name.to_owned());
                } else if strict {
                    let msg = if schema.block_type(name).is_some() {
                        format!("Unsupported argument: `{name}` is a block type here; write `{name} {{ ... }}`")
                    } else {
                        format!(
                            "Unsupported argument: an argument named `{name}` is not expected here.{}",
                            suggestion(name, names())
                        )
                    };
                    return Err(Error::data_at(msg, a.name.span));
                }
            }
            Structure::Block(b) => {
                let name = b.ident.name;
                if hidden.iter().any(|h| h == name) {
                    continue;
                }
                let Some(bs) = schema.block_type(name) else {
                    if strict {
                        let msg = if schema.attr(name).is_some() {
                            format!("Unsupported block type: `{name}` is an argument here; write `{name} = ...`")
                        } else {
                            format!(
                                "Unsupported block type: blocks of type `{name}` are not expected here.{}",
                                suggestion(name, names())
                            )
                        };
                        return Err(Error::data_at(msg, b.ident.span));
                    }
                    continue;
                };
                if b.labels.len() > bs.labels.len() {
                    let extra = b
                        .labels
                        .get(bs.labels.len())
                        .map_or(b.ident.span, |l| l.span());
                    return Err(Error::data_at(
                        format!(
                            "Extraneous label for {name}: {}",
                            if bs.labels.is_empty() {
                                format!("no labels are expected for {name} blocks")
                            } else {
                                format!(
                                    "only {} labels ({}) are expected",
                                    bs.labels.len(),
                                    bs.labels.join(", ")
                                )
                            }
                        ),
                        extra,
                    ));
                }
                if let Some(missing) = bs.labels.get(b.labels.len()) {
                    return Err(Error::data_at(
                        format!("Missing {missing} for {name}: all {name} blocks must have {} labels ({})", bs.labels.len(), bs.labels.join(", ")),
                        b.open_brace,
                    ));
                }
                out.blocks.push(Block {
                    type_name: name.to_owned(),
                    labels: b.labels.iter().map(|l| l.as_str().to_owned()).collect(),
                    label_spans: b.labels.iter().map(|l| l.span()).collect(),
                    type_span: b.ident.span,
                    body: this.child(BodyKind::Native(&b.body)),
                });
                if !used.iter().any(|u| u == name) {
                    used.push(name.to_owned());
                }
            }
        }
    }
    for a in &schema.attributes {
        if a.required && !out.attributes.iter().any(|x| x.name == a.name) {
            return Err(Error::data_at(
                format!("Missing required argument: the argument `{}` is required, but no definition was found", a.name),
                missing_item(body),
            ));
        }
    }
    Ok((out, used))
}

/// `JustAttributes`: a native body with a block is an error.
pub(super) fn just_attributes<'a>(
    this: &SchemaBody<'a>,
    body: &'a Body<'a>,
) -> Result<Vec<Attribute<'a>>> {
    let hidden = &this.hidden;
    let mut out = Vec::new();
    for item in &body.items {
        match item {
            Structure::Attribute(a) => {
                if hidden.iter().any(|h| h == a.name.name) {
                    continue;
                }
                out.push(this.attribute(a.name.name, a.name.span, AttrExpr::Native(&a.expr)));
            }
            Structure::Block(b) => {
                if hidden.iter().any(|h| h == b.ident.name)
                    || super::dynamic::hidden_dynamic(this, b)
                {
                    continue;
                }
                return Err(Error::data_at(
                    format!(
                        "Unexpected `{}` block: blocks are not allowed here, only arguments",
                        b.ident.name
                    ),
                    b.ident.span,
                ));
            }
        }
    }
    Ok(out)
}

/// Where the reference reports an item missing from `body` (hclsyntax's
/// `MissingItemRange`): the start of the body, a block body's `{` (its
/// span starts after that one byte) or the file's start.
fn missing_item(body: &Body<'_>) -> hcl_grammar::Span {
    let at = body.span.start().saturating_sub(1);
    hcl_grammar::Span::new(at, at)
}
