//! Bodies (their groups of blocks are read in `blocks.rs`).
//!
//! A body reads as a struct or a map whose keys are its attribute names and
//! block types. The blocks of one type form a group: a sequence when the
//! target asks for one, a single block otherwise, and a map keyed by the
//! next label when the target is a map. A struct takes the labels left on
//! its block through the reserved fields `$label` (one) and `$labels` (all
//! that remain).

use super::access::BodyAccess;
use super::blocks::{BlocksDeserializer, Members};
use super::capture;
use super::enums::EnumDeserializer;
use super::expr::ExprDeserializer;
use super::files::FileBody;
use super::group::{self, Item};
use super::json_value::{text, JsonDeserializer};
use super::key::{KeyDeserializer, Str};
use super::remain::{expects_struct, flatten_note, Capture, RemainDeserializer, REMAIN_FIELD};
use super::Shared;
use crate::body::json_ref::{JsonRef, PropRef};
use crate::error::{Error, Result};
use hcl_grammar::{Attribute, Block, BlockLabel, Body, Span, Structure};
use serde::de::{self, Visitor};

/// The struct field that receives the next label of a block.
pub(crate) const LABEL_FIELD: &str = "$label";
/// The struct field that receives all remaining labels of a block.
pub(crate) const LABELS_FIELD: &str = "$labels";

/// The header of a block: its type and labels.
pub(crate) fn header(b: &Block<'_>) -> Span {
    b.ident
        .span
        .to(b.labels.last().map_or(b.ident.span, BlockLabel::span))
}

/// A body of either syntax read on its own: a file's root, or a
/// captured [`RawBody`](super::RawBody). (A JSON-syntax block found inside
/// a value is read by `json_value.rs`.)
#[derive(Clone, Copy)]
pub(crate) enum Node<'a, 'de> {
    /// A native body.
    Native(&'a Body<'de>),
    /// A JSON object (or a root array of objects).
    Json(JsonRef<'a, 'de>),
}

impl Node<'_, '_> {
    /// The span of the body (a native body's is inside its braces).
    fn span(&self) -> Span {
        match self {
            Node::Native(b) => b.span,
            Node::Json(v) => v.span,
        }
    }
}

/// A body, with the labels of its block not consumed yet.
pub(crate) struct BodyDeserializer<'a, 'de> {
    body: Node<'a, 'de>,
    labels: &'a [BlockLabel<'de>],
    block: Option<&'a Block<'de>>,
    /// Where errors about a body that is not a block's point (a missing
    /// field of the top-level struct): the start of the file, as the
    /// reference's `MissingItemRange` of a file body.
    start: Span,
    sh: &'a Shared<'a>,
    depth: usize,
    /// Several files read as one body (`files.rs`): then `body` and `sh`
    /// are the first file's, and entries come from all of them.
    files: &'a [FileBody<'a, 'de>],
    /// The block type, when this block has no label left but is read as a
    /// map keyed by label (see [`BodyDeserializer::needing_label`]).
    needs_label: Option<Str<'a, 'de>>,
}

impl<'a, 'de> BodyDeserializer<'a, 'de> {
    /// The body of a file.
    pub(crate) fn root(body: Node<'a, 'de>, sh: &'a Shared<'a>) -> Self {
        let start = Span::new(body.span().start(), body.span().start());
        BodyDeserializer::root_at(body, sh, start)
    }

    /// A body read on its own (a file, a captured [`RawBody`](super::RawBody)),
    /// whose errors about the whole body point at `start`.
    pub(crate) fn root_at(body: Node<'a, 'de>, sh: &'a Shared<'a>, start: Span) -> Self {
        BodyDeserializer {
            body,
            labels: &[],
            block: None,
            start,
            sh,
            depth: 0,
            files: &[],
            needs_label: None,
        }
    }

    /// Several files as one body; `first` is the first of `files`.
    pub(crate) fn files(first: &'a FileBody<'a, 'de>, files: &'a [FileBody<'a, 'de>]) -> Self {
        BodyDeserializer {
            files,
            ..BodyDeserializer::root(first.node(), &first.sh)
        }
    }

    /// The body of `block`, whose first `offset` labels are consumed.
    pub(super) fn block(
        block: &'a Block<'de>,
        offset: usize,
        sh: &'a Shared<'a>,
        depth: usize,
    ) -> Self {
        BodyDeserializer {
            body: Node::Native(&block.body),
            labels: block.labels.get(offset..).unwrap_or_default(),
            block: Some(block),
            start: header(block),
            sh,
            depth,
            files: &[],
            needs_label: None,
        }
    }

    /// This block, read as a map keyed by a label it lacks (`service { }`
    /// into `HashMap<String, Service>`): a value read as a struct that is
    /// not an object says that the block needs a label, at the block.
    pub(super) fn needing_label(self, block_type: Str<'a, 'de>) -> Self {
        BodyDeserializer {
            needs_label: Some(block_type),
            ..self
        }
    }

    /// Where errors about the whole body point: the block's header, or
    /// the start of a body read on its own.
    fn span(&self) -> Span {
        self.block.map_or(self.start, header)
    }

    fn at(&self, e: Error) -> Error {
        e.with_span(self.span())
    }

    fn check_depth(&self) -> Result<()> {
        if self.depth >= self.sh.max_depth {
            Err(self.sh.too_deep(self.span()))
        } else {
            Ok(())
        }
    }

    /// The attributes and groups of blocks, in order of first appearance.
    fn entries(&self) -> Result<Vec<Entry<'a, 'de>>> {
        if !self.files.is_empty() {
            return super::files::entries(self.files);
        }
        let sh = self.sh;
        let body = match self.body {
            Node::Native(b) => b,
            Node::Json(v) => return super::json_value::body_entries(v, sh),
        };
        if sh.dynamic.is_none() {
            // The items as they are, without a list of them.
            return group::entries(&body.items, |s| Item::native(s, sh), sh);
        }
        // `dynamic` blocks expanded first.
        let mut expanded: Vec<Item<'a, 'de>> = Vec::new();
        for item in &body.items {
            match item {
                Structure::Block(b) => match super::dynamic::expand_dynamic(b, sh)? {
                    Some((name, members)) => {
                        expanded.extend(members.into_iter().map(|m| Item::Block(name, m)));
                    }
                    None => expanded.push(Item::native(item, sh)),
                },
                Structure::Attribute(a) => expanded.push(Item::Attr(a)),
            }
        }
        group::entries(
            &expanded,
            |item| match item {
                Item::Attr(a) => Item::Attr(a),
                Item::Block(name, m) => Item::Block(name, m.clone()),
            },
            sh,
        )
    }

    fn visit_body<V: Visitor<'de>>(self, entries: Vec<Entry<'a, 'de>>, v: V) -> Result<V::Value> {
        self.visit_entries(entries, false, v)
    }

    /// The body's entries after `entries`; `flattened`: for a struct
    /// with a `#[serde(flatten)]` field (`remain::FlattenedLabel`).
    fn visit_entries<V: Visitor<'de>>(
        self,
        mut entries: Vec<Entry<'a, 'de>>,
        flattened: bool,
        v: V,
    ) -> Result<V::Value> {
        self.check_depth()?;
        let own_entries = self.entries()?;
        if entries.is_empty() {
            entries = own_entries;
        } else {
            entries.extend(own_entries);
        }
        let span = self.span();
        let mut access = BodyAccess::new(entries, self.depth + 1);
        access.needs_label = self.needs_label.map(|t| (t, span));
        access.flattened = flattened;
        v.visit_map(access).map_err(|e| e.with_span(span))
    }

    /// The body for a struct with a `$remain` field: the names of
    /// `fields` as usual, everything else for `$remain`, unevaluated.
    fn visit_body_remain<V: Visitor<'de>>(
        self,
        mut entries: Vec<Entry<'a, 'de>>,
        fields: &'static [&'static str],
        v: V,
    ) -> Result<V::Value> {
        self.check_depth()?;
        let mut rest = Vec::new();
        for e in self.entries()? {
            let named = match &e {
                Entry::Attr(a, _) => fields.contains(&a.name.name),
                Entry::Blocks(n, _) => fields.contains(&n.as_str()),
                Entry::Json(p, _) => fields.contains(&p.name()),
                _ => true,
            };
            if named {
                entries.push(e);
            } else {
                rest.push(e);
            }
        }
        let span = self.span();
        let capture = self.files.is_empty().then(|| Capture {
            sh: self.sh,
            line_from: self.block.map_or(self.body.span(), header),
            frag: self.body.span(),
            json: matches!(self.body, Node::Json(_)),
            hidden: fields
                .iter()
                .filter(|f| !f.starts_with('$'))
                .map(|f| (*f).to_owned())
                .collect(),
        });
        entries.push(Entry::Remain(Box::new(RemainDeserializer {
            entries: rest,
            capture,
            span,
            depth: self.depth,
        })));
        v.visit_map(BodyAccess::new(entries, self.depth + 1))
            .map_err(|e| e.with_span(span))
    }

    /// `{label: body}` for the first remaining label.
    fn visit_first_label<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        self.check_depth()?;
        let Some((first, _)) = self.labels.split_first() else {
            // Read as a map (or a `Value`), a body is attributes only: a
            // JSON body must be an object (`JustAttributes`).
            self.just_attributes_json()?;
            return self.visit_body(Vec::new(), v);
        };
        let rest = BodyDeserializer {
            labels: self.labels.get(1..).unwrap_or_default(),
            depth: self.depth + 1,
            ..self
        };
        v.visit_map(OneEntry {
            key: Some(KeyDeserializer::new(
                Str::from_label(first),
                Some(first.span()),
            )),
            path: first.as_str(),
            value: Some(rest),
        })
    }

    /// A JSON body read as attributes only: each file's root must be an
    /// object (`body/json.rs`'s rule).
    fn just_attributes_json(&self) -> Result<()> {
        if self.files.is_empty() {
            if let Node::Json(j) = self.body {
                crate::body::json::attributes_object(j)?;
            }
            return Ok(());
        }
        for f in self.files {
            if let Node::Json(j) = f.node() {
                crate::body::json::attributes_object(j)
                    .map_err(|e| super::files::place(&f.sh, e))?;
            }
        }
        Ok(())
    }

    fn invalid<V: Visitor<'de>>(&self, v: &V) -> Error {
        self.at(de::Error::invalid_type(
            de::Unexpected::Other("a block body"),
            v,
        ))
    }
}

/// One entry of a body.
pub(crate) enum Entry<'a, 'de> {
    /// The next label, for the `$label` field.
    Label(&'a BlockLabel<'de>),
    /// The remaining labels, for the `$labels` field.
    Labels(&'a [BlockLabel<'de>]),
    /// An attribute, with its file.
    Attr(&'a Attribute<'de>, &'a Shared<'a>),
    /// The blocks of one type (native blocks, or JSON values holding
    /// blocks, of several files), each with its file.
    Blocks(Str<'a, 'de>, Members<'a, 'de>),
    /// A property of a JSON-syntax body: an attribute or blocks, as the
    /// target reads it.
    Json(PropRef<'a, 'de>, &'a Shared<'a>),
    /// The rest of the body, for a `$remain` field (`remain.rs`).
    Remain(Box<RemainDeserializer<'a, 'de>>),
}

macro_rules! body_invalid {
    ($($method:ident)*) => {
        $(
            fn $method<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
                Err(self.invalid(&v))
            }
        )*
    };
}

impl<'de> de::Deserializer<'de> for BodyDeserializer<'_, 'de> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        self.visit_first_label(v)
    }

    fn deserialize_map<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        // A struct with a `#[serde(flatten)]` field asks for a map without
        // naming its fields (serde's derive says "struct NAME" as what it
        // expects): its labels go to `$label` (the first) and `$labels`
        // (any others), as `deserialize_struct` would give them.
        if !expects_struct(&v) {
            return self.visit_first_label(v);
        }
        let mut pending = Vec::new();
        if let Some((first, rest)) = self.labels.split_first() {
            pending.push(Entry::Label(first));
            if !rest.is_empty() {
                pending.push(Entry::Labels(rest));
            }
        }
        self.visit_entries(pending, true, v).map_err(flatten_note)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        v: V,
    ) -> Result<V::Value> {
        if capture::is_spanned(name, fields) {
            let span = self.block.map_or(self.body.span(), |b| b.span);
            return v.visit_map(capture::SpannedAccess::new(span, self));
        }
        if name == capture::BODY_NAME {
            if !self.files.is_empty() {
                return Err(self.at(Error::data(
                    "a `hcl::RawBody` captures one body, but this is several files read as one",
                )));
            }
            if let Node::Json(j) = self.body {
                return v.visit_map(capture::CaptureAccess::json(self.sh, j.span));
            }
            let line_from = self.block.map_or(self.body.span(), header);
            return v.visit_map(capture::CaptureAccess::new(
                self.sh,
                line_from,
                self.body.span(),
                false,
            ));
        }
        if name == capture::EXPRESSION_NAME {
            return Err(self.at(Error::data(
                "a `hcl::RawExpression` captures an attribute's value, but this is a block",
            )));
        }
        let mut labels = self.labels;
        let mut pending = Vec::new();
        if fields.contains(&LABEL_FIELD) {
            if let Some((first, rest)) = labels.split_first() {
                pending.push(Entry::Label(first));
                labels = rest;
            }
        }
        if fields.contains(&LABELS_FIELD) {
            pending.push(Entry::Labels(labels));
            labels = &[];
        }
        if let Some(extra) = labels.first() {
            let block = self.block.map_or("", |b| b.ident.name);
            return Err(Error::data_at(
                format!(
                    "unexpected label {:?} on block `{block}`: the target has no `$label` or `$labels` field to receive it",
                    extra.as_str()
                ),
                extra.span(),
            ));
        }
        if fields.contains(&REMAIN_FIELD) {
            return self.visit_body_remain(pending, fields, v);
        }
        self.visit_body(pending, v)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        v: V,
    ) -> Result<V::Value> {
        if let Some((first, rest)) = self.labels.split_first() {
            let content = BodyDeserializer {
                labels: rest,
                ..self
            };
            return v.visit_enum(EnumDeserializer::new(
                Str::from_label(first),
                Some(first.span()),
                content,
            ));
        }
        let mut entries = self.entries()?;
        if entries.len() != 1 {
            return Err(self.at(Error::data(format!(
                "expected a body with exactly one attribute or block type naming the enum variant, found {}",
                entries.len()
            ))));
        }
        let depth = self.depth + 1;
        match entries.pop() {
            Some(Entry::Attr(a, sh)) => v
                .visit_enum(EnumDeserializer::new(
                    Str::Borrowed(a.name.name),
                    Some(a.name.span),
                    ExprDeserializer::new(&a.expr, sh, depth),
                ))
                .map_err(|e| sh.place(e)),
            Some(Entry::Json(p, sh)) => v
                .visit_enum(EnumDeserializer::new(
                    text(p.name_str()),
                    Some(p.name_span),
                    JsonDeserializer::new(p.value(), sh, depth),
                ))
                .map_err(|e| sh.place(e)),
            Some(Entry::Blocks(name, blocks)) => {
                let first = blocks.first().map(|m| (m.span(), m.shared()));
                v.visit_enum(EnumDeserializer::new(
                    name.clone(),
                    first.map(|(span, _)| span),
                    BlocksDeserializer::new(name, blocks, 0, depth),
                ))
                .map_err(|e| match first {
                    Some((span, sh)) => sh.place(e.with_span(span)),
                    None => e,
                })
            }
            _ => Err(self.at(Error::data("expected an enum variant"))),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        v.visit_some(self)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        v: V,
    ) -> Result<V::Value> {
        if capture::is_capture(name) {
            return self.deserialize_struct(name, &[], v);
        }
        if crate::reserved::is_value_target(name)
            && super::direct::on()
            && self.files.is_empty()
            && self.needs_label.is_none()
            && super::direct::plain(self.sh)
        {
            // A `Value` target: built whole when it can be (`direct.rs`,
            // `json_plain.rs`).
            match self.body {
                Node::Native(body) => {
                    if let Some(value) =
                        super::direct::body_value(body, self.labels, self.sh, self.depth)
                    {
                        return super::direct::hand_over(value, v);
                    }
                }
                Node::Json(j) if self.labels.is_empty() && self.depth < self.sh.max_depth => {
                    let span = self.span();
                    match super::json_plain::body_value(j, self.sh, self.depth + 1) {
                        Some(Ok(value)) => return super::direct::hand_over(value, v),
                        Some(Err(e)) => return Err(e.with_span(span)),
                        None => {}
                    }
                }
                Node::Json(_) => {}
            }
        }
        v.visit_newtype_struct(self)
    }

    fn deserialize_unit<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        let empty = if self.files.is_empty() {
            node_is_empty(self.body)
        } else {
            self.files.iter().all(|f| node_is_empty(f.node()))
        };
        if empty && self.labels.is_empty() {
            v.visit_unit()
        } else {
            Err(self.invalid(&v))
        }
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        v: V,
    ) -> Result<V::Value> {
        self.deserialize_unit(v)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        v.visit_unit()
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _len: usize, v: V) -> Result<V::Value> {
        Err(self.invalid(&v))
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _len: usize,
        v: V,
    ) -> Result<V::Value> {
        Err(self.invalid(&v))
    }

    body_invalid! {
        deserialize_bool deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64
        deserialize_i128 deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u64
        deserialize_u128 deserialize_f32 deserialize_f64 deserialize_char deserialize_str
        deserialize_string deserialize_bytes deserialize_byte_buf deserialize_seq
        deserialize_identifier
    }
}

/// Whether a body has no attribute or block (a JSON body: no property but
/// comments).
fn node_is_empty(node: Node<'_, '_>) -> bool {
    match node {
        Node::Native(b) => b.items.is_empty(),
        Node::Json(v) => crate::body::json::body_props(v).is_empty(),
    }
}

/// A map of one entry (a label and what it labels).
struct OneEntry<'a, 'de, D> {
    key: Option<KeyDeserializer<'a, 'de>>,
    path: &'a str,
    value: Option<D>,
}

impl<'de, D: de::Deserializer<'de, Error = Error>> de::MapAccess<'de> for OneEntry<'_, 'de, D> {
    type Error = Error;

    fn next_key_seed<K: de::DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        match self.key.take() {
            Some(k) => seed.deserialize(k).map(Some),
            None => Ok(None),
        }
    }

    fn next_value_seed<T: de::DeserializeSeed<'de>>(&mut self, seed: T) -> Result<T::Value> {
        match self.value.take() {
            Some(d) => seed.deserialize(d).map_err(|e| e.prepend_key(self.path)),
            None => Err(Error::data("a map value was requested twice")),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(usize::from(self.key.is_some()))
    }
}
