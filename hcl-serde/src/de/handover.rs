//! How a capture ([`RawExpression`](super::RawExpression),
//! [`RawBody`](super::RawBody)) is handed to its type: a map of plain data
//! (no pointers, no thread-local), read back by `capture.rs`.

use super::Shared;
use crate::error::{Error, Result};
use hcl_grammar::Span;
use serde::de::{self, IntoDeserializer, Visitor};
use std::fmt;

/// The capture map's keys: the text, its place (five numbers in one
/// field: `Place`), then only what differs from the default (a file name,
/// the JSON syntax, hidden names), so that the common capture is two
/// entries.
const CAPTURE_FIELDS: &[&str] = &["text", "place", "file", "json", "hidden"];

/// How much of the line around a capture is kept for error snippets.
const CONTEXT: usize = 256;

/// The map handed to the visitor of [`RawExpression`] or [`RawBody`].
pub(crate) struct CaptureAccess {
    text: Option<String>,
    /// `offset`, `len`, `line`, `byte` and `col` of [`Captured`].
    place: [usize; 5],
    file: Option<String>,
    json: bool,
    /// The hidden names, one a line (`hiding`).
    hidden: Option<String>,
    /// The next key: an index into `CAPTURE_FIELDS`.
    next: usize,
}

impl CaptureAccess {
    /// Leaves `names` out of the captured body (a `$remain` field).
    pub(crate) fn hiding(mut self, names: Vec<String>) -> CaptureAccess {
        if !names.is_empty() {
            self.hidden = Some(names.join("\n"));
        }
        self
    }

    /// Captures the JSON value at `span` (an expression, or a body: an
    /// object).
    pub(crate) fn json(sh: &Shared<'_>, span: Span) -> CaptureAccess {
        CaptureAccess::new(sh, span, span, true)
    }

    /// Captures `frag` with the source from the start of the line where
    /// `line_from` starts; `json`: in HCL's JSON syntax.
    pub(crate) fn new(sh: &Shared<'_>, line_from: Span, frag: Span, json: bool) -> CaptureAccess {
        let from = line_from.start().min(frag.start());
        let (mut line_start, line) = sh.line_of(from);
        // Keep at most CONTEXT bytes of the line before and after, so
        // that many captures on one long line cost linear time.
        let mut col = 0;
        if from - line_start > CONTEXT {
            let mut head = from - CONTEXT;
            while !sh.src.is_char_boundary(head) {
                head += 1;
            }
            col = head - line_start;
            line_start = head;
        }
        let rest = sh.src.get(frag.end()..).unwrap_or_default();
        // The rest of the line, at most CONTEXT bytes of it (looked for
        // no further).
        let window = rest.as_bytes().get(..CONTEXT).unwrap_or(rest.as_bytes());
        let mut tail = window
            .iter()
            .position(|&b| b == b'\r' || b == b'\n')
            .unwrap_or(window.len());
        while !rest.is_char_boundary(tail) {
            tail -= 1;
        }
        let text = sh
            .src
            .get(line_start..frag.end() + tail)
            .unwrap_or_default()
            .to_owned();
        CaptureAccess {
            text: Some(text),
            place: [
                frag.start().saturating_sub(line_start),
                frag.len(),
                line + sh.line0 - 1,
                line_start + sh.byte0,
                col,
            ],
            // The file's name, when known (an empty one is none).
            file: sh.file.filter(|f| !f.is_empty()).map(str::to_owned),
            json,
            hidden: None,
            next: 0,
        }
    }

    /// Whether the field at `i` of `CAPTURE_FIELDS` is sent.
    fn present(&self, i: usize) -> bool {
        match i {
            0 | 1 => true,
            2 => self.file.is_some(),
            3 => self.json,
            4 => self.hidden.is_some(),
            _ => false,
        }
    }
}

impl<'de> de::MapAccess<'de> for CaptureAccess {
    type Error = Error;

    fn next_key_seed<K: de::DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        while self.next < CAPTURE_FIELDS.len() && !self.present(self.next) {
            self.next += 1;
        }
        match CAPTURE_FIELDS.get(self.next) {
            Some(k) => seed
                .deserialize(de::value::BorrowedStrDeserializer::new(k))
                .map(Some),
            None => Ok(None),
        }
    }

    fn next_value_seed<T: de::DeserializeSeed<'de>>(&mut self, seed: T) -> Result<T::Value> {
        let i = self.next;
        self.next += 1;
        let text =
            |s: Option<String>| s.ok_or_else(|| Error::data("a capture field was requested twice"));
        match i {
            0 => seed.deserialize(text(self.text.take())?.into_deserializer()),
            1 => {
                let mut bytes = [0u8; PLACE_LEN];
                for (chunk, n) in bytes.chunks_exact_mut(8).zip(self.place) {
                    chunk.copy_from_slice(&(n as u64).to_le_bytes());
                }
                seed.deserialize(de::value::BytesDeserializer::<Error>::new(&bytes))
            }
            2 => seed.deserialize(text(self.file.take())?.into_deserializer()),
            3 => seed.deserialize(self.json.into_deserializer()),
            4 => seed.deserialize(text(self.hidden.take())?.into_deserializer()),
            _ => Err(Error::data(
                "a capture value was requested after the last key",
            )),
        }
    }
}

/// The bytes of a capture's place: five numbers of 8 bytes.
const PLACE_LEN: usize = 40;

/// The five numbers of a capture's place, sent as bytes (one map entry).
pub(super) struct Place(pub(super) [usize; 5]);

impl<'de> de::Deserialize<'de> for Place {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Place, D::Error> {
        struct PlaceVisitor;
        impl Visitor<'_> for PlaceVisitor {
            type Value = Place;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a capture's place")
            }

            fn visit_bytes<E: de::Error>(self, b: &[u8]) -> Result<Place, E> {
                if b.len() != PLACE_LEN {
                    return Err(E::invalid_length(b.len(), &self));
                }
                let mut out = [0usize; 5];
                for (n, chunk) in out.iter_mut().zip(b.chunks_exact(8)) {
                    let mut word = [0u8; 8];
                    word.copy_from_slice(chunk);
                    *n = usize::try_from(u64::from_le_bytes(word))
                        .map_err(|_| E::custom("a capture's place out of range"))?;
                }
                Ok(Place(out))
            }
        }
        d.deserialize_bytes(PlaceVisitor)
    }
}

/// A key of the capture map: its index in `CAPTURE_FIELDS`, read without
/// allocating.
pub(super) struct CaptureKey(pub(super) usize);

impl<'de> de::Deserialize<'de> for CaptureKey {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<CaptureKey, D::Error> {
        struct KeyVisitor;
        impl Visitor<'_> for KeyVisitor {
            type Value = CaptureKey;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a capture field")
            }

            fn visit_str<E: de::Error>(self, k: &str) -> Result<CaptureKey, E> {
                match CAPTURE_FIELDS.iter().position(|f| *f == k) {
                    Some(i) => Ok(CaptureKey(i)),
                    None => Err(de::Error::unknown_field(k, CAPTURE_FIELDS)),
                }
            }
        }
        d.deserialize_identifier(KeyVisitor)
    }
}
