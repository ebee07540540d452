//! Several files as one body (the reference's `hcl.MergeFiles`): each
//! file is decoded with the schema, attributes must be unique across the
//! files, blocks come out in file order. Every error keeps its own file's
//! name and position, because each file's body keeps its text and name.
//!
//! [`Sources`] owns the text of the files (read from a directory, or added
//! one by one) so that the parsed [`File`]s can borrow it.

use super::{Attribute, BodyContent, BodyKind, BodySchema, File, SchemaBody};
use crate::error::{Error, Result};
use crate::source::{duplicate_message, place, syntax_of, Sources};

/// The files of `files` as one body, in the given order (the reference's
/// `hcl.MergeFiles`). Give the files names ([`File::parse_named`]) so that
/// errors say which file they are in.
///
/// ```
/// use hcl::schema::{merge, BodySchema, File};
/// use hcl::Syntax;
///
/// let a = File::parse_named("a.tf", "region = \"eu\"\n", Syntax::Native)?;
/// let b = File::parse_named("b.tf", "region = \"us\"\n", Syntax::Native)?;
/// let files = [a, b];
/// let err = merge(&files)
///     .content(&BodySchema::new().attribute("region", true))
///     .unwrap_err();
/// assert_eq!(err.file(), Some("b.tf"));
/// assert!(err.message().contains("already set at a.tf:1,1-7"));
/// # Ok::<(), hcl::Error>(())
/// ```
pub fn merge<'a>(files: &'a [File<'_>]) -> SchemaBody<'a> {
    SchemaBody {
        src: "",
        file: None,
        kind: BodyKind::Merged(files.iter().map(File::body).collect()),
        hidden: Vec::new(),
        dynamic: None,
        iterators: None,
        unknown: false,
    }
}

/// `"a.tf:1,1-7"`: where an attribute's name is, as the reference writes a
/// range in "was already set at".
fn place_of(a: &Attribute<'_>) -> String {
    place(a.src, a.name_span, a.file)
}

/// The error for `dup`, an attribute already set by `first`.
fn duplicate(first: &Attribute<'_>, dup: &Attribute<'_>) -> Error {
    super::locate(
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

// `Sources` itself lives in `source/`, which the serde route for several
// files (`de/files.rs`) shares; parsing into schema `File`s is this API's.
impl Sources {
    /// Parses every file, in order, named ([`File::parse_named`]).
    ///
    /// # Errors
    ///
    /// The first file's syntax error, naming the file.
    pub fn parse(&self) -> Result<Vec<File<'_>>> {
        self.files()
            .map(|(name, text)| File::parse_named(name, text, syntax_of(name)))
            .collect()
    }
}
