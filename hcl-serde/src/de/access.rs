//! The map of a body's entries (`body.rs`): its attributes and groups of
//! blocks, the labels for `$label` / `$labels`, the rest for `$remain`.

use super::blocks::{BlocksDeserializer, Member};
use super::body::{Entry, LABELS_FIELD, LABEL_FIELD};
use super::dynamic::UnknownDeserializer;
use super::expr::ExprDeserializer;
use super::json_value::JsonDeserializer;
use super::key::{KeyDeserializer, LabelsDeserializer, Str};
use super::label::NeedsLabel;
use super::remain::{FlattenedLabel, REMAIN_FIELD};
use crate::error::{Error, Result};
use hcl_grammar::{BlockLabel, Span};
use serde::de;

/// The map of a body's entries.
pub(crate) struct BodyAccess<'a, 'de> {
    entries: std::vec::IntoIter<Entry<'a, 'de>>,
    value: Option<Entry<'a, 'de>>,
    depth: usize,
    /// The block type and header of a block read as a map keyed by a
    /// label it lacks.
    pub(super) needs_label: Option<(Str<'a, 'de>, Span)>,
    /// For a struct with a `#[serde(flatten)]` field: a label the struct
    /// has no field for is an error (`remain::FlattenedLabel`).
    pub(super) flattened: bool,
}

impl<'a, 'de> BodyAccess<'a, 'de> {
    /// The map of `entries`, whose values are at `depth`.
    pub(crate) fn new(entries: Vec<Entry<'a, 'de>>, depth: usize) -> Self {
        BodyAccess {
            entries: entries.into_iter(),
            value: None,
            depth,
            needs_label: None,
            flattened: false,
        }
    }
}

impl<'de> de::MapAccess<'de> for BodyAccess<'_, 'de> {
    type Error = Error;

    fn next_key_seed<K: de::DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        let Some(entry) = self.entries.next() else {
            return Ok(None);
        };
        let (key, span, sh) = match &entry {
            Entry::Label(l) => (Str::Borrowed(LABEL_FIELD), l.span(), None),
            Entry::Labels(ls) => (
                Str::Borrowed(LABELS_FIELD),
                ls.first().map_or(Span::default(), BlockLabel::span),
                None,
            ),
            Entry::Attr(a, sh) => (Str::Borrowed(a.name.name), a.name.span, Some(*sh)),
            Entry::Blocks(name, blocks) => match blocks.first() {
                Some(m) => (name.clone(), key_span(m), Some(m.shared())),
                None => (name.clone(), Span::default(), None),
            },
            Entry::Json(p, sh) => (p.name_str(), p.name_span, Some(*sh)),
            Entry::Remain(r) => (Str::Borrowed(REMAIN_FIELD), r.span, None),
        };
        // The key for error paths: a clone, which copies nothing but a
        // computed key.
        let path = key.clone();
        self.value = Some(entry);
        seed.deserialize(KeyDeserializer::new(key, Some(span)))
            .map(Some)
            .map_err(|e| {
                let e = e.with_span(span).prepend_key(path.as_str());
                match sh {
                    Some(sh) => sh.place(e),
                    None => e,
                }
            })
    }

    fn next_value_seed<T: de::DeserializeSeed<'de>>(&mut self, seed: T) -> Result<T::Value> {
        let depth = self.depth;
        match self.value.take() {
            Some(Entry::Label(l)) => {
                let d = KeyDeserializer::new(Str::from_label(l), Some(l.span()));
                let r = if self.flattened {
                    seed.deserialize(FlattenedLabel::new(d, LABEL_FIELD, l.span()))
                } else {
                    seed.deserialize(d)
                };
                r.map_err(|e| e.with_span(l.span()))
            }
            Some(Entry::Labels(ls)) => {
                let d = LabelsDeserializer { labels: ls };
                match ls.first() {
                    Some(first) if self.flattened => {
                        seed.deserialize(FlattenedLabel::new(d, LABELS_FIELD, first.span()))
                    }
                    _ => seed.deserialize(d),
                }
            }
            Some(Entry::Attr(a, sh)) => {
                let d = ExprDeserializer::new(&a.expr, sh, depth);
                let r = match &self.needs_label {
                    _ if sh.unknown => {
                        seed.deserialize(UnknownDeserializer::new(d, a.expr.span, false, sh, depth))
                    }
                    Some((block_type, at)) => {
                        // The missing label is an error about the block:
                        // its path is the block's (`service`), not this
                        // attribute's (`service.port`).
                        let raised = std::cell::Cell::new(false);
                        return seed
                            .deserialize(NeedsLabel::new(d, block_type.clone(), *at, &raised))
                            .map_err(|e| {
                                if raised.get() {
                                    sh.place(e)
                                } else {
                                    sh.place(e.with_span(a.expr.span)).prepend_key(a.name.name)
                                }
                            });
                    }
                    None => seed.deserialize(d),
                };
                r.map_err(|e| sh.place(e.with_span(a.expr.span)).prepend_key(a.name.name))
            }
            Some(Entry::Blocks(name, blocks)) => {
                let first = blocks.first().map(|m| (m.span(), m.shared()));
                let path = name.clone();
                seed.deserialize(BlocksDeserializer::new(name, blocks, 0, depth))
                    .map_err(|e| {
                        let e = match first {
                            Some((s, sh)) => sh.place(e.with_span(s)),
                            None => e,
                        };
                        e.prepend_key(path.as_str())
                    })
            }
            Some(Entry::Remain(r)) => seed
                .deserialize(*r)
                .map_err(|e| e.prepend_key(REMAIN_FIELD)),
            Some(Entry::Json(p, sh)) => {
                let d = JsonDeserializer::new(p.value(), sh, depth);
                let r = if sh.unknown {
                    seed.deserialize(UnknownDeserializer::new(d, p.value.span, true, sh, depth))
                } else {
                    seed.deserialize(d)
                };
                r.map_err(|e| sh.place(e.with_span(p.value.span)).prepend_key(p.name()))
            }
            None => Err(Error::data("a map value was requested before its key")),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.entries.len())
    }
}

/// Where a group's key is: its first block's type, its first JSON name.
pub(super) fn key_span(m: &Member<'_, '_>) -> Span {
    match m {
        Member::Native(b, _) => b.ident.span,
        Member::Generated(g, _) => g.block.ident.span,
        Member::GenJson(g, _) => g.type_span,
        Member::Json(_, span, _) => *span,
    }
}
