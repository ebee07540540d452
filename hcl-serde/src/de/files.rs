//! Several files read as one body through serde ([`from_files`],
//! [`Deserializer::from_files`]), with the schema API's merge rule
//! (`body/merged.rs`, the reference's `hcl.MergeFiles`): attributes are
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

use super::blocks::Member;
use super::body::{header, BodyDeserializer, Entry, Node};
use super::key::Str;
use super::{Deserializer, Input, Shared, Syntax};
use crate::body::json_ref::{JsonRef, PropRef};
use crate::body::merged::{Admit, At, Kind, MergeRule};
use crate::error::{Error, Result};
use crate::eval::Context;
use crate::source::{self, Sources};
use hcl_grammar::json::JsonDocument;
use hcl_grammar::{Attribute, Block, Body, ParseOptions, Span, Structure};
use serde::de::{self, DeserializeOwned};
use std::path::Path;

/// One parsed file of several: its root body and what its nodes share.
pub(crate) struct FileBody<'a, 'de> {
    pub(crate) tree: Tree<'de>,
    pub(crate) sh: Shared<'a>,
}

/// A file's tree, in its syntax.
pub(crate) enum Tree<'de> {
    Native(Body<'de>),
    Json(JsonDocument<'de>),
}

impl<'de> FileBody<'_, 'de> {
    /// The file's root body.
    pub(crate) fn node(&self) -> Node<'_, 'de> {
        match &self.tree {
            Tree::Native(b) => Node::Native(b),
            Tree::Json(doc) => Node::Json(JsonRef::root(doc)),
        }
    }
}

/// Gives `e` the source and name of `sh`'s file, unless it has no span
/// yet (an outer node will place it) or already names a file.
pub(super) fn place(sh: &Shared<'_>, e: Error) -> Error {
    if e.span().is_none() || e.file().is_some() {
        return e;
    }
    source::locate(e, sh.src, sh.file)
}

/// Parses every file of `sources` (in its own syntax, by name) and hands
/// them to `f` as one body. `templates`: JSON strings are templates (a
/// context was given).
pub(super) fn run<'de, T, F>(
    sources: &'de Sources,
    (ctx, dynamic): (&Context, Option<&std::sync::Arc<Context>>),
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
        let located = |e: Error| source::locate(e, text, Some(name));
        let json = source::syntax_of(name) == Syntax::Json;
        let tree = if json {
            Tree::Json(super::deserializer::parse_json_root(text, options).map_err(located)?)
        } else {
            Tree::Native(
                hcl_grammar::parse_body(text, options).map_err(|e| located(Error::syntax(e)))?,
            )
        };
        let mut sh = Shared::new(ctx, text, max_depth);
        sh.file = Some(name);
        sh.merged = true;
        sh.templates = templates;
        sh.dynamic = dynamic.cloned();
        files.push(FileBody { tree, sh });
    }
    let Some(first) = files.first() else {
        // No files: an empty body.
        let body = Body {
            items: Box::default(),
            span: Span::new(0, 0),
        };
        let sh = Shared::new(ctx, "", max_depth);
        return f(BodyDeserializer::root(Node::Native(&body), &sh));
    };
    // What no node placed (a missing field of the top-level struct, at
    // the start of the body) is in the first file, as the reference's
    // `MissingItemRange` of merged bodies.
    f(BodyDeserializer::files(first, &files)).map_err(|e| place(&first.sh, e))
}

/// One item of a file's root body: a native attribute or block, or a
/// JSON property.
enum Item<'a, 'de> {
    Attr(&'a Attribute<'de>),
    Block(&'a Block<'de>),
    Json(PropRef<'a, 'de>),
    /// A block that a `dynamic` block generated, with its type.
    Generated(&'de str, Member<'a, 'de>),
    /// A block that a JSON-syntax `dynamic` property generated, with the
    /// property of its type.
    GenJson(PropRef<'a, 'de>, Member<'a, 'de>),
}

/// The entries of several files' root bodies: attributes and groups of
/// blocks in order of first appearance, each node with its file. An
/// attribute set in two files, or a name that is an attribute in one and
/// a block type in another, is an error at the later one naming the
/// earlier: the rule is `body/merged.rs`'s [`MergeRule`], the schema
/// API's. A JSON property is an attribute or blocks as the target reads
/// it; with the same name in another file, it is blocks (a member of the
/// group).
pub(super) fn entries<'a, 'de>(files: &'a [FileBody<'a, 'de>]) -> Result<Vec<Entry<'a, 'de>>> {
    let mut out: Vec<Entry<'a, 'de>> = Vec::new();
    let mut rule = MergeRule::new();
    for file in files {
        let sh = &file.sh;
        let items: Vec<Item<'a, 'de>> =
            match &file.tree {
                Tree::Native(b) => {
                    let mut items = Vec::with_capacity(b.items.len());
                    for i in &b.items {
                        match i {
                            Structure::Attribute(a) => items.push(Item::Attr(a)),
                            Structure::Block(b) => match super::dynamic::expand_dynamic(b, sh)? {
                                Some((name, members)) => items
                                    .extend(members.into_iter().map(|m| Item::Generated(name, m))),
                                None => items.push(Item::Block(b)),
                            },
                        }
                    }
                    items
                }
                Tree::Json(doc) => {
                    // One file's names are unique (the single-file rule, by
                    // `group.rs`): the error at the first repeated one, after
                    // the properties before it are expanded.
                    let props = crate::body::json::body_props(JsonRef::root(doc));
                    let repeat = super::group::first_repeat(&props, |p| p.name());
                    let upto = repeat.map_or(props.len(), |(at, _)| at);
                    let mut items = Vec::new();
                    for &p in props.get(..upto).unwrap_or_default() {
                        match super::dynamic::expand_dynamic_json(p, sh)? {
                            Some(generated) => items
                                .extend(generated.into_iter().map(|(tp, m)| Item::GenJson(tp, m))),
                            None => items.push(Item::Json(p)),
                        }
                    }
                    if let Some((at, first)) = repeat {
                        if let (Some(&p), Some(first)) = (props.get(at), props.get(first)) {
                            let first = source::place(sh.src, first.name_span, sh.file);
                            return Err(sh.place(super::group::duplicate(p, first)));
                        }
                    }
                    items
                }
            };
        for item in items {
            let (name, kind, span, range): (&'a str, Kind, Span, Span) = match &item {
                Item::Attr(a) => (a.name.name, Kind::Attribute, a.name.span, a.name.span),
                Item::Block(b) => (b.ident.name, Kind::Block, b.ident.span, header(b)),
                Item::Json(p) => (p.name(), Kind::Either, p.name_span, p.name_span),
                Item::Generated(name, m) => (name, Kind::Block, m.span(), m.span()),
                Item::GenJson(tp, m) => (tp.name(), Kind::Block, tp.name_span, m.span()),
            };
            let at = At {
                src: sh.src,
                span,
                range,
                file: sh.file,
            };
            let (i, promote) = match rule.admit(name, kind, at)? {
                Admit::New => {
                    out.push(match item {
                        Item::Attr(a) => Entry::Attr(a, sh),
                        Item::Block(b) => Entry::Blocks(
                            Str::Borrowed(b.ident.name),
                            vec![Member::Native(b, sh)].into(),
                        ),
                        Item::Json(p) => Entry::Json(p, sh),
                        Item::Generated(name, m) => {
                            Entry::Blocks(Str::Borrowed(name), vec![m].into())
                        }
                        Item::GenJson(tp, m) => Entry::Blocks(tp.name_str(), vec![m].into()),
                    });
                    continue;
                }
                Admit::Join(i) => (i, false),
                Admit::Promote(i) => (i, true),
            };
            // The rule joins blocks only: an attribute never gets here.
            let member = match item {
                Item::Block(b) => Member::Native(b, sh),
                Item::Json(p) => Member::Json(p.value(), p.name_span, sh),
                Item::Generated(_, m) | Item::GenJson(_, m) => m,
                Item::Attr(_) => continue,
            };
            match out.get_mut(i) {
                Some(Entry::Blocks(_, blocks)) if !promote => blocks.push(member),
                Some(earlier) if promote => {
                    let Entry::Json(p, psh) = *earlier else {
                        continue;
                    };
                    let first = Member::Json(p.value(), p.name_span, psh);
                    *earlier = Entry::Blocks(p.name_str(), vec![first, member].into());
                }
                _ => {}
            }
        }
    }
    Ok(out)
}

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
            dynamic_blocks: false,
        }
    }
}

/// Deserializes an instance of `T` from several files read as one body,
/// in their order (the reference's `hcl.MergeFiles`, with the merge rule
/// of [`schema::merge`](crate::schema::merge)): a Terraform module's `.tf` files, a Packer
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
///   syntax, [`Sources::add`]). A JSON file's property is an attribute or
///   blocks as the target reads it; when its name is also in another file
///   (blocks, or another JSON file's property), it is blocks: a sequence
///   (`Vec<T>`) gets every block of every file in order, a map keyed by
///   label groups them by label across files (a JSON object's names are
///   its labels), and [`RawBody`](super::RawBody) captures each body in
///   its own syntax.
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
    from_dir_with_options(dir, extensions, ctx, &super::Options::default())
}

/// [`from_dir`] with [`Options`](super::Options) (the input limit applies
/// to each file).
///
/// # Errors
///
/// As [`from_dir`].
pub fn from_dir_with_options<T: DeserializeOwned>(
    dir: impl AsRef<Path>,
    extensions: &[&str],
    ctx: Option<&Context>,
    options: &super::Options,
) -> Result<T> {
    let dir = dir.as_ref();
    let sources = Sources::read_dir(dir, extensions)
        .map_err(|e| Error::io(e).with_file(dir.display().to_string()))?;
    let de = Deserializer::from_files(&sources).with_options(options);
    match ctx {
        Some(ctx) => T::deserialize(de.with_context(ctx)),
        None => T::deserialize(de),
    }
}
