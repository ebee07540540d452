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
use super::expr::ExprDeserializer;
use super::json_blocks::BlockSeq;
use super::{json, Deserializer, Input, Shared, Syntax};
use crate::error::{Error, Result};
use crate::eval::Context;
use crate::source::{self, Sources};
use hcl_grammar::{Attribute, Block, Body, Expr, ExprKind, ParseOptions, Span, Structure};
use serde::de::{self, DeserializeOwned, Visitor};
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
    source::locate(e, sh.src, sh.file)
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
        let located = |e: Error| source::locate(e, text, Some(name));
        let json = source::syntax_of(name) == Syntax::Json;
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
                // Blocks and JSON-syntax properties (which may be blocks)
                // of one name: combined when the target reads a sequence.
                (item, Some(entry)) if mixable(item, sh) && entry_mixable(entry) => {
                    let part = match item {
                        Structure::Attribute(a) => Part::Json(a, sh),
                        Structure::Block(b) => Part::Block(b, sh),
                    };
                    let mut parts = match std::mem::replace(entry, Entry::Mixed(name, Vec::new())) {
                        Entry::Mixed(_, parts) => parts,
                        Entry::Attr(a, ash) => vec![Part::Json(a, ash)],
                        Entry::Blocks(_, blocks) => blocks
                            .into_iter()
                            .map(|(b, bsh)| Part::Block(b, bsh))
                            .collect(),
                        Entry::Label(_) | Entry::Labels(_) => Vec::new(),
                    };
                    parts.push(part);
                    *entry = Entry::Mixed(name, parts);
                }
                (Structure::Attribute(_), Some(Entry::Attr(first, first_sh))) => {
                    let at = source::place(first_sh.src, first.name.span, first_sh.file);
                    return Err(
                        sh.place(Error::data_at(source::duplicate_message(name, &at), span))
                    );
                }
                (_, earlier) => {
                    let (what, at) = match earlier.as_deref() {
                        Some(Entry::Attr(a, ash)) => (
                            "the attribute is set at",
                            Some(source::place(ash.src, a.name.span, ash.file)),
                        ),
                        Some(Entry::Blocks(_, blocks)) => (
                            "a block is at",
                            blocks
                                .first()
                                .map(|&(b, bsh)| source::place(bsh.src, b.ident.span, bsh.file)),
                        ),
                        Some(Entry::Mixed(_, parts)) => {
                            ("a block is at", parts.first().map(Part::place))
                        }
                        _ => ("it is set in", None),
                    };
                    return Err(sh.place(Error::data_at(
                        format!(
                            "`{name}` is both an attribute and a block type: {what} {}",
                            at.as_deref().unwrap_or("an earlier file")
                        ),
                        span,
                    )));
                }
            }
        }
    }
    Ok(out)
}

/// Whether `item` (of the file `sh`) may be one of several parts of a
/// name: a block, or a property of a JSON-syntax file.
fn mixable(item: &Structure<'_>, sh: &Shared<'_>) -> bool {
    match item {
        Structure::Block(_) => true,
        Structure::Attribute(_) => sh.json,
    }
}

fn entry_mixable(entry: &Entry<'_, '_>) -> bool {
    match entry {
        Entry::Attr(_, sh) => sh.json,
        Entry::Blocks(..) | Entry::Mixed(..) => true,
        Entry::Label(_) | Entry::Labels(_) => false,
    }
}

/// One part of a name set in several files: a block, or a property of a
/// JSON-syntax file (a group of blocks when read as one).
pub(crate) enum Part<'a, 'de> {
    Block(&'a Block<'de>, &'a Shared<'a>),
    Json(&'a Attribute<'de>, &'a Shared<'a>),
}

impl<'a> Part<'a, '_> {
    /// Where the part's name is in its file.
    pub(crate) fn name_span(&self) -> Span {
        match self {
            Part::Block(b, _) => b.ident.span,
            Part::Json(a, _) => a.name.span,
        }
    }

    /// The part's file.
    pub(crate) fn shared(&self) -> &'a Shared<'a> {
        match self {
            Part::Block(_, sh) | Part::Json(_, sh) => sh,
        }
    }

    /// `"a.tf:1,1-9"`.
    fn place(&self) -> String {
        let sh = self.shared();
        source::place(sh.src, self.name_span(), sh.file)
    }
}

/// A name given blocks or JSON-syntax properties in several files. Read as
/// a sequence, it is every block of every part in file order (a JSON
/// property read in the JSON spec's block forms, as `json_blocks.rs` reads
/// it in one file); read any other way, an error naming two places.
pub(crate) struct MixedDeserializer<'a, 'de> {
    name: &'de str,
    parts: Vec<Part<'a, 'de>>,
    depth: usize,
}

impl<'a, 'de> MixedDeserializer<'a, 'de> {
    pub(crate) fn new(name: &'de str, parts: Vec<Part<'a, 'de>>, depth: usize) -> Self {
        MixedDeserializer { name, parts, depth }
    }

    /// The error for reading the parts as anything but a sequence, at the
    /// second part.
    fn not_a_sequence(&self) -> Error {
        let name = self.name;
        let (Some(first), Some(second)) = (self.parts.first(), self.parts.get(1)) else {
            return Error::data(format!("`{name}` is set in several files"));
        };
        let msg = format!(
            "`{name}` is set in several files, one of them in the JSON syntax (also at {}): through serde they combine only as a sequence of blocks (a `Vec`); the schema API (`hcl::schema::merge`) combines them otherwise",
            first.place()
        );
        second
            .shared()
            .place(Error::data_at(msg, second.name_span()))
    }

    fn visit_seq<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        if let Some(first) = self.parts.first() {
            let sh = first.shared();
            if self.depth >= sh.max_depth {
                return Err(sh.place(sh.too_deep(first.name_span())));
            }
        }
        v.visit_seq(MixedSeq {
            parts: self.parts.into_iter(),
            current: None,
            index: 0,
            depth: self.depth + 1,
        })
    }
}

macro_rules! mixed_not_a_sequence {
    ($($method:ident)*) => {
        $(
            fn $method<V: Visitor<'de>>(self, _v: V) -> Result<V::Value> {
                Err(self.not_a_sequence())
            }
        )*
    };
}

impl<'de> de::Deserializer<'de> for MixedDeserializer<'_, 'de> {
    type Error = Error;

    fn deserialize_seq<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        self.visit_seq(v)
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _len: usize, v: V) -> Result<V::Value> {
        self.visit_seq(v)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _len: usize,
        v: V,
    ) -> Result<V::Value> {
        self.visit_seq(v)
    }

    fn deserialize_option<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        v.visit_some(self)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        v: V,
    ) -> Result<V::Value> {
        if super::capture::is_capture(name) {
            return Err(self.not_a_sequence());
        }
        v.visit_newtype_struct(self)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        v.visit_unit()
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _v: V,
    ) -> Result<V::Value> {
        Err(self.not_a_sequence())
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        _v: V,
    ) -> Result<V::Value> {
        Err(self.not_a_sequence())
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        _v: V,
    ) -> Result<V::Value> {
        Err(self.not_a_sequence())
    }

    mixed_not_a_sequence! {
        deserialize_any deserialize_bool deserialize_i8 deserialize_i16 deserialize_i32
        deserialize_i64 deserialize_i128 deserialize_u8 deserialize_u16 deserialize_u32
        deserialize_u64 deserialize_u128 deserialize_f32 deserialize_f64 deserialize_char
        deserialize_str deserialize_string deserialize_bytes deserialize_byte_buf
        deserialize_unit deserialize_map deserialize_identifier
    }
}

/// The part being read by a [`MixedSeq`].
enum Current<'a, 'de> {
    /// A JSON object: its blocks.
    Json(BlockSeq<'a, 'de>, &'a Shared<'a>, Span),
    /// A JSON array: one block per element.
    Items(std::slice::Iter<'a, Expr<'de>>, &'a Shared<'a>),
}

/// The blocks of every part, in order.
struct MixedSeq<'a, 'de> {
    parts: std::vec::IntoIter<Part<'a, 'de>>,
    current: Option<Current<'a, 'de>>,
    index: usize,
    depth: usize,
}

impl<'de> de::SeqAccess<'de> for MixedSeq<'_, 'de> {
    type Error = Error;

    fn next_element_seed<T: de::DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>> {
        let depth = self.depth;
        loop {
            let i = self.index;
            match &mut self.current {
                Some(Current::Json(seq, sh, span)) if !seq.is_done() => {
                    let (sh, span) = (*sh, *span);
                    self.index += 1;
                    return seq
                        .next_element_seed(seed)
                        .map_err(|e| sh.place(e.with_span(span)));
                }
                Some(Current::Items(items, sh)) => {
                    let sh = *sh;
                    if let Some(item) = items.next() {
                        self.index += 1;
                        return seed
                            .deserialize(ExprDeserializer::new(item, sh, depth))
                            .map(Some)
                            .map_err(|e| sh.place(e.with_span(item.span)).prepend_index(i));
                    }
                }
                _ => {}
            }
            self.current = None;
            match self.parts.next() {
                None => return Ok(None),
                Some(Part::Block(b, sh)) => {
                    self.index += 1;
                    return seed
                        .deserialize(BodyDeserializer::block(b, 0, sh, depth))
                        .map(Some)
                        .map_err(|e| {
                            sh.place(e.with_span(super::body::header(b)))
                                .prepend_index(i)
                        });
                }
                Some(Part::Json(a, sh)) => match &a.expr.kind {
                    ExprKind::Object(_) => {
                        let seq = BlockSeq::new(&a.expr, sh, depth).numbered_from(i);
                        self.current = Some(Current::Json(seq, sh, a.expr.span));
                    }
                    ExprKind::Tuple(items) => self.current = Some(Current::Items(items.iter(), sh)),
                    // `null`: no blocks.
                    ExprKind::Null => {}
                    _ => {
                        self.index += 1;
                        return seed
                            .deserialize(ExprDeserializer::new(&a.expr, sh, depth))
                            .map(Some)
                            .map_err(|e| sh.place(e.with_span(a.expr.span)).prepend_index(i));
                    }
                },
            }
        }
    }
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
///   (blocks, or another JSON file's property), the target must read a
///   sequence (`Vec<T>`), which gets every block of every file in order.
///   Read any other way it is an error naming both places (the schema
///   API, [`schema::merge`](crate::schema::merge), decides by its schema instead).
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
