//! Several files as one body (the reference's `hcl.MergeFiles`): each
//! file is decoded with the schema, attributes must be unique across the
//! files, blocks come out in file order. Every error keeps its own file's
//! name and position, because each file's body keeps its text and name.

use super::{Attribute, BodyContent, BodySchema, SchemaBody};
use crate::error::{Error, Result};
use crate::source::{duplicate_message, locate, place};

/// `"a.tf:1,1-7"`: where an attribute's name is, as the reference writes a
/// range in "was already set at".
fn place_of(a: &Attribute<'_>) -> String {
    place(a.src, a.name_span, a.file)
}

/// The error for `dup`, an attribute already set by `first`.
fn duplicate(first: &Attribute<'_>, dup: &Attribute<'_>) -> Error {
    locate(
        Error::data_at(
            duplicate_message(&dup.name, &place_of(first)),
            dup.name_span,
        ),
        dup.src,
        dup.file,
    )
}

/// Each file with the merged body's hidden names.
fn parts<'a>(this: &SchemaBody<'a>, bodies: &[SchemaBody<'a>]) -> Vec<SchemaBody<'a>> {
    bodies
        .iter()
        .map(|b| {
            let mut b = b.clone();
            b.hidden.extend(this.hidden.iter().cloned());
            b
        })
        .collect()
}

/// `Content` (`strict`) or `PartialContent` over the files: each file is
/// decoded with the schema (no attribute required there), then attributes
/// are checked unique and required ones present in some file.
pub(super) fn content<'a>(
    this: &SchemaBody<'a>,
    bodies: &[SchemaBody<'a>],
    schema: &BodySchema,
    strict: bool,
) -> Result<(BodyContent<'a>, Vec<String>)> {
    let mut relaxed = schema.clone();
    for a in &mut relaxed.attributes {
        a.required = false;
    }
    let mut out = BodyContent {
        attributes: Vec::new(),
        blocks: Vec::new(),
    };
    let mut used: Vec<String> = Vec::new();
    for body in parts(this, bodies) {
        let (c, u) = body.raw_content(&relaxed, strict)?;
        for a in c.attributes {
            if let Some(first) = out.attributes.iter().find(|x| x.name == a.name) {
                return Err(duplicate(first, &a));
            }
            out.attributes.push(a);
        }
        out.blocks.extend(c.blocks);
        for n in u {
            if !used.contains(&n) {
                used.push(n);
            }
        }
    }
    for a in &schema.attributes {
        if a.required && !out.attributes.iter().any(|x| x.name == a.name) {
            return Err(Error::data(format!(
                "Missing required argument: the argument `{}` is required, but was not set in any file",
                a.name
            )));
        }
    }
    Ok((out, used))
}

/// `JustAttributes` over the files: names unique across them.
pub(super) fn just_attributes<'a>(
    this: &SchemaBody<'a>,
    bodies: &[SchemaBody<'a>],
) -> Result<Vec<Attribute<'a>>> {
    let mut out: Vec<Attribute<'a>> = Vec::new();
    for body in parts(this, bodies) {
        for a in body.just_attributes()? {
            if let Some(first) = out.iter().find(|x| x.name == a.name) {
                return Err(duplicate(first, &a));
            }
            out.push(a);
        }
    }
    Ok(out)
}
