//! Several files read as one body through serde ([`from_files`],
//! [`Deserializer::from_files`]), with the schema API's merge rule
//! (`schema/merge.rs`, the reference's `hcl.MergeFiles`): attributes are
//! unique across the files (the error names both places), blocks of one
//! type form one group in file order, and every node keeps its own file.
//!
//! Each file is parsed on its own and gets its own [`Shared`] (its text,
//! name and syntax). Only the root body mixes files: its entries and its
//! groups of blocks carry each node's `Shared` (`Entry`, `blocks::Member`),
//! and everything below a root attribute or block is one file's. An error
//! leaving a file's nodes is given that file's source and name there
//! ([`Shared::place`]), so it prints its own file, line, column and caret;
//! spans (in errors, `Spanned<T>`, captures) are byte offsets into the
//! node's own file.

use super::body::{BodyDeserializer, Entry};
use super::{json, Deserializer, Input, Shared, Syntax};
use crate::error::{Error, Result};
use crate::eval::Context;
use crate::schema::{self, Sources};
use hcl_grammar::{Body, ParseOptions, Span, Structure};
use serde::de::{self, DeserializeOwned};
use std::collections::HashMap;
use std::path::Path;

/// One parsed file of several: its root body and what its nodes share.
pub(crate) struct FileBody<'a, 'de> {
    pub(crate) body: Body<'de>,
    pub(crate) sh: Shared<'a>,
}

/// Gives `e` the source and name of `sh`'s file, unless it has no span
/// yet (an outer node will place it) or already names a file.
pub(super) fn place(sh: &Shared<'_>, e: Error) -> Error {
    if e.span().is_none() || e.file().is_some() {
        return e;
    }
    schema::locate(e, sh.src, sh.file)
}

/// Parses every file of `sources` (in its own syntax, by name) and hands
/// them to `f` as one body. `templates`: JSON strings are templates (a
/// context was given).
pub(super) fn run<'de, T, F>(
    sources: &'de Sources,
    ctx: &Context,
    options: &ParseOptions,
    max_depth: usize,
    templates: bool,
    f: F,
) -> Result<T>
where
    F: for<'a> FnOnce(BodyDeserializer<'a, 'de>) -> Result<T>,
{
    let mut files = Vec::new();
    for (name, text) in sources.files() {
        let located = |e: Error| schema::locate(e, text, Some(name));
        let json = schema::syntax_of(name) == Syntax::Json;
        let body = if json {
            let tree = hcl_grammar::json::parse_json_with(text, options)
                .map_err(|e| located(Error::syntax(e)))?;
            json::lower_root(text, tree, templates, options).map_err(located)?
        } else {
            hcl_grammar::parse_body_with(text, options).map_err(|e| located(Error::syntax(e)))?
        };
        let mut sh = Shared::new(ctx, text, max_depth);
        sh.file = Some(name);
        sh.merged = true;
        sh.json = json;
        sh.json_templates = json && templates;
        files.push(FileBody { body, sh });
    }
    let Some(first) = files.first() else {
        // No files: an empty body.
        let body = Body {
            items: Vec::new(),
            span: Span::new(0, 0),
        };
        let sh = Shared::new(ctx, "", max_depth);
        return f(BodyDeserializer::root(&body, &sh));
    };
    // What no node placed (a missing field of the top-level struct, at
    // the start of the body) is in the first file, as the reference's
    // `MissingItemRange` of merged bodies.
    f(BodyDeserializer::files(first, &files)).map_err(|e| place(&first.sh, e))
}

/// The entries of several files' root bodies: attributes and groups of
/// blocks in order of first appearance, each node with its file. An
/// attribute set in two files, or a name that is an attribute in one and
/// a block type in another, is an error at the later one naming the
/// earlier (`schema/merge.rs`'s rule and wording).
pub(super) fn entries<'a, 'de>(files: &'a [FileBody<'a, 'de>]) -> Result<Vec<Entry<'a, 'de>>> {
    let mut out: Vec<Entry<'a, 'de>> = Vec::new();
    let mut index: HashMap<&'de str, usize> = HashMap::new();
    for file in files {
        let sh = &file.sh;
        for item in &file.body.items {
            let (name, span) = match item {
                Structure::Attribute(a) => (a.name.name, a.name.span),
                Structure::Block(b) => (b.ident.name, b.ident.span),
            };
            let Some(&i) = index.get(name) else {
                index.insert(name, out.len());
                out.push(match item {
                    Structure::Attribute(a) => Entry::Attr(a, sh),
                    Structure::Block(b) => Entry::Blocks(name, vec![(b, sh)]),
                });
                continue;
            };
            let earlier = out.get_mut(i);
            match (item, earlier) {
                (Structure::Block(b), Some(Entry::Blocks(_, blocks))) => blocks.push((b, sh)),
                (_, Some(Entry::Attr(first, first_sh))) => {
                    let at = schema::place(first_sh.src, first.name.span, first_sh.file);
                    let mut message = if matches!(item, Structure::Attribute(_)) {
                        schema::duplicate_message(name, &at)
                    } else {
                        format!("`{name}` is both an attribute and a block type: the attribute is set at {at}")
                    };
                    if sh.json || first_sh.json {
                        message.push_str(JSON_HINT);
                    }
                    return Err(sh.place(Error::data_at(message, span)));
                }
                (_, earlier) => {
                    // An attribute after blocks of its name.
                    let at = match earlier {
                        Some(Entry::Blocks(_, blocks)) => blocks
                            .first()
                            .map(|&(b, bsh)| schema::place(bsh.src, b.ident.span, bsh.file)),
                        _ => None,
                    };
                    let mut message = format!(
                        "`{name}` is both an attribute and a block type: a `{name}` block is at {}",
                        at.as_deref().unwrap_or("an earlier file")
                    );
                    if sh.json {
                        message.push_str(JSON_HINT);
                    }
                    return Err(sh.place(Error::data_at(message, span)));
                }
            }
        }
    }
    Ok(out)
}

/// Why a JSON file's property may clash: through serde, each property of
/// a JSON file's root is one entry, whatever the target reads it as.
const JSON_HINT: &str = " (a property of a JSON-syntax file cannot be combined with the same name in another file through serde; the schema API, `hcl::schema::merge`, can)";

impl<'de> Deserializer<'de, 'static> {
    /// A deserializer of several files read as one body, as
    /// [`from_files`] describes. Each file's syntax comes from its name
    /// (`.json`: JSON), so [`with_syntax`](Deserializer::with_syntax) and
    /// [`with_file_name`](Deserializer::with_file_name) have no effect;
    /// the input limit applies to each file.
    ///
    /// ```
    /// use serde::Deserialize;
    ///
    /// #[derive(Deserialize)]
    /// struct Config { port: u16, name: String }
    ///
    /// let mut sources = hcl::schema::Sources::new();
    /// sources.add("a.hcl", "port = base + 80\n").add("b.hcl", "name = \"web\"\n");
    /// let mut ctx = hcl::Context::new();
    /// ctx.declare_var("base", 8000);
    /// let config = Config::deserialize(hcl::Deserializer::from_files(&sources).with_context(&ctx))?;
    /// assert_eq!((config.port, config.name.as_str()), (8080, "web"));
    /// # Ok::<(), hcl::Error>(())
    /// ```
    pub fn from_files(sources: &'de Sources) -> Self {
        Deserializer {
            input: Input::Files(sources),
            ctx: None,
            file: None,
            max_depth: super::DEFAULT_MAX_DEPTH,
            max_input_len: ParseOptions::DEFAULT_MAX_INPUT_LEN,
            syntax: Syntax::Native,
        }
    }
}

/// Deserializes an instance of `T` from several files read as one body,
/// in their order (the reference's `hcl.MergeFiles`, with the merge rule
/// of [`schema::merge`]): a Terraform module's `.tf` files, a Packer
/// template's files.
///
/// - An attribute may be set in one file only: a second is an error at it
///   that names the first ("already set at a.tf:1,1-7").
/// - The blocks of one type form one group in file order, then source
///   order: a `Vec<T>` field gets them all, a map keyed by label groups
///   them across files.
/// - A name that is an attribute in one file and a block type in another
///   is an error at the later one, naming the earlier.
/// - Each file is read in the syntax its name implies (`.json`: HCL's JSON
///   syntax, [`Sources::add`]). A property of a JSON-syntax file is one
///   entry, so its name may not appear in another file (blocks of one type
///   split over JSON files need the schema API).
/// - Every error names its own file, with its line, column, field path and
///   source line. Spans ([`Error::span`], `serde_spanned::Spanned<T>`)
///   are byte offsets into the file of the node they point at; which file
///   that is, an error says ([`Error::file`]), and so do captures
///   ([`RawExpression::file`](super::RawExpression::file),
///   [`RawBody::file`](super::RawBody::file)), which evaluate later against
///   their own file's text.
///
/// Strings without escapes are borrowed from `sources`.
///
/// ```
/// use serde::Deserialize;
///
/// #[derive(Deserialize, Debug)]
/// struct Module {
///     region: String,
///     #[serde(default)]
///     resource: Vec<Resource>,
/// }
///
/// #[derive(Deserialize, Debug)]
/// struct Resource {
///     #[serde(rename = "$labels")]
///     labels: Vec<String>,
///     port: u16,
/// }
///
/// let mut sources = hcl::schema::Sources::new();
/// sources.add("main.tf", "region = \"eu-west-1\"\nresource \"lb\" \"web\" {\n  port = 80\n}\n");
/// sources.add("extra.tf", "resource \"lb\" \"api\" {\n  port = 8080\n}\n");
/// let module: Module = hcl::from_files(&sources)?;
/// assert_eq!(module.region, "eu-west-1");
/// assert_eq!(module.resource[1].labels, ["lb", "api"]);
///
/// // A second `region`: the error is in late.tf and names main.tf.
/// sources.add("late.tf", "\nregion = 1\n");
/// let err = hcl::from_files::<Module>(&sources).unwrap_err();
/// assert_eq!((err.file(), err.line()), (Some("late.tf"), Some(2)));
/// assert!(err.message().contains("already set at main.tf:1,1-7"));
/// # Ok::<(), hcl::Error>(())
/// ```
///
/// # Errors
///
/// The first file's syntax error, a clash between files, then as
/// [`from_str`](super::from_str); every error names its file.
pub fn from_files<'de, T: de::Deserialize<'de>>(sources: &'de Sources) -> Result<T> {
    T::deserialize(Deserializer::from_files(sources))
}

/// [`from_files`] with a [`Context`] of variables and functions (JSON
/// files' strings are then templates, as in
/// [`from_json_str_with`](super::from_json_str_with)).
///
/// # Errors
///
/// As [`from_files`].
pub fn from_files_with<'de, T: de::Deserialize<'de>>(
    sources: &'de Sources,
    ctx: &Context,
) -> Result<T> {
    T::deserialize(Deserializer::from_files(sources).with_context(ctx))
}

/// Reads the files of `dir` whose names end in one of `extensions`
/// (`&["tf", "tf.json"]`), sorted by name ([`Sources::read_dir`]), and
/// deserializes them as one body ([`from_files`]).
///
/// ```no_run
/// let module: hcl::Value = hcl::from_dir("my-module", &["tf"], None)?;
/// # Ok::<(), hcl::Error>(())
/// ```
///
/// # Errors
///
/// An I/O error naming the directory or file that cannot be read,
/// otherwise as [`from_files`].
pub fn from_dir<T: DeserializeOwned>(
    dir: impl AsRef<Path>,
    extensions: &[&str],
    ctx: Option<&Context>,
) -> Result<T> {
    let dir = dir.as_ref();
    let sources = Sources::read_dir(dir, extensions)
        .map_err(|e| Error::io(e).with_file(dir.display().to_string()))?;
    match ctx {
        Some(ctx) => from_files_with(&sources, ctx),
        None => from_files(&sources),
    }
}
