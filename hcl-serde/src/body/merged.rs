//! Several files as one body (the reference's `hcl.MergeFiles`).
//!
//! The merge rule is [`MergeRule`], used by both readers of several
//! files: the schema API here (each file is decoded with the schema,
//! attributes must be unique across the files, blocks come out in file
//! order) and serde's `from_files` (`de/files.rs`, which groups the blocks
//! of one type). Every error keeps its own file's name and position,
//! because each file's body keeps its text and name.

use super::{Attribute, BodyContent, BodySchema, SchemaBody};
use crate::error::{Error, Result};
use crate::source::{duplicate_message, locate, place};
use hcl_grammar::Span;
use std::collections::HashMap;

/// What an item of one file's body is, for [`MergeRule`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// An attribute: it may be set in one file only.
    Attribute,
    /// A block: the blocks of one type gather across the files.
    Block,
    /// A JSON property no schema has classified: an attribute or blocks as
    /// the reader decides; when its name is in another file too, blocks.
    Either,
}

/// Where an item's name is: its file's text, the span, the file's name.
#[derive(Debug, Clone, Copy)]
pub(crate) struct At<'s> {
    /// The text of the item's file.
    pub(crate) src: &'s str,
    /// The span of its name: where an error at it points.
    pub(crate) span: Span,
    /// What an error at a later item names (a native block's header).
    pub(crate) range: Span,
    /// The file's name.
    pub(crate) file: Option<&'s str>,
}

impl At<'_> {
    /// `"a.tf:1,1-7"`, as the reference writes a range in "was already
    /// set at".
    fn place(&self) -> String {
        place(self.src, self.range, self.file)
    }

    /// An error at this item, in its file.
    fn error(&self, message: String) -> Error {
        locate(Error::data_at(message, self.span), self.src, self.file)
    }
}

/// What [`MergeRule::admit`] decided for an item.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Admit {
    /// A name not seen before: a new entry (entries are numbered from 0
    /// in order of first appearance).
    New,
    /// Another block of the group numbered so.
    Join(usize),
    /// The entry numbered so, an unclassified JSON property, is now a
    /// group of blocks, which this item joins.
    Promote(usize),
}

/// The first item of a name: its entry's number, what it is, where.
#[derive(Debug, Clone, Copy)]
struct Seen<'s> {
    index: usize,
    kind: Kind,
    at: At<'s>,
}

/// The rule of several files read as one body, items taken in file order
/// then source order: an attribute is set in one file only (the error is
/// at the later one and names the first: "Duplicate argument: ... already
/// set at a.tf:1,1-7"); the blocks of one type form one group; a name
/// that is an attribute in one file and a block type in another is an
/// error at the later one naming the earlier.
#[derive(Debug, Default)]
pub(crate) struct MergeRule<'s> {
    seen: HashMap<String, Seen<'s>>,
}

impl<'s> MergeRule<'s> {
    /// A rule that has seen nothing yet.
    pub(crate) fn new() -> Self {
        Self::default()
    }

    /// Takes the next item, `name` of `kind` at `at`: where it goes, or
    /// the error it is.
    pub(crate) fn admit(&mut self, name: &str, kind: Kind, at: At<'s>) -> Result<Admit> {
        let Some(first) = self.seen.get_mut(name) else {
            let index = self.seen.len();
            self.seen.insert(name.to_owned(), Seen { index, kind, at });
            return Ok(Admit::New);
        };
        match (first.kind, kind) {
            (Kind::Attribute, Kind::Attribute | Kind::Either) | (Kind::Either, Kind::Attribute) => {
                Err(at.error(duplicate_message(name, &first.at.place())))
            }
            (Kind::Either, Kind::Block | Kind::Either) => {
                first.kind = Kind::Block;
                Ok(Admit::Promote(first.index))
            }
            (Kind::Block, Kind::Block | Kind::Either) => Ok(Admit::Join(first.index)),
            (Kind::Attribute, Kind::Block) => Err(at.error(format!(
                "`{name}` is both an attribute and a block type: the attribute is set at {}",
                first.at.place()
            ))),
            (Kind::Block, Kind::Attribute) => Err(at.error(format!(
                "`{name}` is both an attribute and a block type: a block is at {}",
                first.at.place()
            ))),
        }
    }
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
    let mut rule = MergeRule::new();
    for body in parts(this, bodies) {
        let (c, u) = body.raw_content(&relaxed, strict)?;
        for a in c.attributes {
            rule.admit(&a.name, Kind::Attribute, at(&a))?;
            out.attributes.push(a);
        }
        for b in c.blocks {
            let at = At {
                src: b.body.src,
                span: b.type_span,
                range: b.type_span,
                file: b.body.file,
            };
            rule.admit(&b.type_name, Kind::Block, at)?;
            out.blocks.push(b);
        }
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
    let mut rule = MergeRule::new();
    for body in parts(this, bodies) {
        for a in body.just_attributes()? {
            rule.admit(&a.name, Kind::Attribute, at(&a))?;
            out.push(a);
        }
    }
    Ok(out)
}

/// Where an attribute's name is.
fn at<'a>(a: &Attribute<'a>) -> At<'a> {
    At {
        src: a.src,
        span: a.name_span,
        range: a.name_span,
        file: a.file,
    }
}
