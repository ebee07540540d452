//! Several files as one body (the reference's `hcl.MergeFiles`): each
//! file is decoded with the schema, attributes must be unique across the
//! files, blocks come out in file order. Every error keeps its own file's
//! name and position, because each file's body keeps its text and name.
//!
//! [`Sources`] owns the text of the files (read from a directory, or added
//! one by one) so that the parsed [`File`]s can borrow it.

use super::{Attribute, BodyContent, BodyKind, BodySchema, File, SchemaBody};
use crate::de::Syntax;
use crate::error::{Error, Result};
use std::path::Path;

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

/// `"a.tf:1,1-7"`: where `span` of `src` (the file `file`) is, as the
/// reference writes a range in "was already set at". The serde route's
/// merge (`de/files.rs`) shares it.
pub(crate) fn place(src: &str, span: hcl_grammar::Span, file: Option<&str>) -> String {
    let start = hcl_grammar::Position::of(src, span.start);
    let end = hcl_grammar::Position::of(src, span.end);
    let range = if start.line == end.line {
        format!("{},{}-{}", start.line, start.column, end.column)
    } else {
        format!(
            "{},{}-{},{}",
            start.line, start.column, end.line, end.column
        )
    };
    match file {
        Some(f) => format!("{f}:{range}"),
        None => range,
    }
}

/// The message for an attribute `name` set again, first set at `first`
/// (a [`place`]); the serde route's merge shares it.
pub(crate) fn duplicate_message(name: &str, first: &str) -> String {
    format!("Duplicate argument: the argument `{name}` was already set at {first}")
}

/// The syntax of a file of [`Sources`], by its name: `.json` is JSON.
pub(crate) fn syntax_of(name: &str) -> Syntax {
    if name.ends_with(".json") {
        Syntax::Json
    } else {
        Syntax::Native
    }
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

/// The text of several files, owned, to parse and [`merge`]: a Terraform
/// module's directory, a Packer template's files.
///
/// ```no_run
/// use hcl::schema::{merge, BodySchema, Sources};
///
/// let sources = Sources::read_dir("my-module", &["tf"])?;
/// let files = sources.parse()?;
/// let body = merge(&files);
/// let (content, _rest) = body.partial_content(&BodySchema::new().block("variable", &["name"]))?;
/// println!("{} variables", content.blocks.len());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Default)]
pub struct Sources {
    files: Vec<(String, String)>,
}

impl Sources {
    /// No files.
    pub fn new() -> Sources {
        Sources::default()
    }

    /// Adds a file named `name` (the name errors give; a name ending in
    /// `.json` is read in the JSON syntax).
    pub fn add(&mut self, name: impl Into<String>, text: impl Into<String>) -> &mut Sources {
        self.files.push((name.into(), text.into()));
        self
    }

    /// The regular files directly in `dir` whose names end in `.EXT` for
    /// one of `extensions` (`&["tf", "tf.json"]`), sorted by name (bytewise,
    /// as the reference's tools do), each named by its file name.
    ///
    /// # Errors
    ///
    /// The directory or a file cannot be read, or a file is not UTF-8.
    pub fn read_dir(dir: impl AsRef<Path>, extensions: &[&str]) -> std::io::Result<Sources> {
        let mut names = Vec::new();
        for entry in std::fs::read_dir(dir.as_ref())? {
            let entry = entry?;
            if !entry.file_type()?.is_file() {
                continue;
            }
            let Ok(name) = entry.file_name().into_string() else {
                continue;
            };
            let wanted = extensions.iter().any(|ext| {
                name.strip_suffix(ext)
                    .and_then(|stem| stem.strip_suffix('.'))
                    .is_some_and(|stem| !stem.is_empty())
            });
            if wanted {
                names.push((name, entry.path()));
            }
        }
        names.sort();
        let mut out = Sources::new();
        for (name, path) in names {
            let text = std::fs::read_to_string(&path)
                .map_err(|e| std::io::Error::new(e.kind(), format!("{}: {e}", path.display())))?;
            out.add(name, text);
        }
        Ok(out)
    }

    /// The names of the files, in order.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.files.iter().map(|(n, _)| n.as_str())
    }

    /// The files, in order: name and text.
    pub fn files(&self) -> impl Iterator<Item = (&str, &str)> {
        self.files.iter().map(|(n, t)| (n.as_str(), t.as_str()))
    }

    /// Parses every file, in order, named ([`File::parse_named`]).
    ///
    /// # Errors
    ///
    /// The first file's syntax error, naming the file.
    pub fn parse(&self) -> Result<Vec<File<'_>>> {
        self.files
            .iter()
            .map(|(name, text)| File::parse_named(name.clone(), text, syntax_of(name)))
            .collect()
    }
}
