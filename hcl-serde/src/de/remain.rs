//! The rest of a body (gohcl's `remain`): a struct field renamed
//! `$remain` receives every attribute and block the struct does not
//! name, unevaluated.
//!
//! Read as a [`RawBody`](super::RawBody), it is the body captured with the
//! struct's own names left out (they are skipped when the capture is
//! evaluated or deserialized later); read as a map or a [`Value`](crate::Value),
//! the remaining attributes and blocks, each evaluated only when read.

use super::access::BodyAccess;
use super::body::Entry;
use super::capture;
use super::Shared;
use crate::error::{Error, Result};
use hcl_grammar::Span;
use serde::de::{self, Visitor};
use serde::forward_to_deserialize_any;

/// The struct field that receives the rest of a body.
pub(crate) const REMAIN_FIELD: &str = "$remain";

/// Where the body is, to capture it as a [`RawBody`](super::RawBody).
pub(crate) struct Capture<'a> {
    pub(crate) sh: &'a Shared<'a>,
    /// Where the captured text's first line starts from (a block's header).
    pub(crate) line_from: Span,
    /// The body.
    pub(crate) frag: Span,
    /// The body is a JSON object.
    pub(crate) json: bool,
    /// The names the struct takes itself.
    pub(crate) hidden: Vec<String>,
}

/// The rest of a body: the entries the struct does not name.
pub(crate) struct RemainDeserializer<'a, 'de> {
    pub(crate) entries: Vec<Entry<'a, 'de>>,
    /// `None` for several files read as one (no one body to capture).
    pub(crate) capture: Option<Capture<'a>>,
    pub(crate) span: Span,
    pub(crate) depth: usize,
}

impl<'de> RemainDeserializer<'_, 'de> {
    fn visit_entries<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        v.visit_map(BodyAccess::new(self.entries, self.depth + 1))
    }

    fn capture<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        let Some(c) = self.capture else {
            return Err(Error::data_at(
                "a `$remain` field of type `hcl::RawBody` captures one body, but this is several files read as one: read the rest as a map or a `hcl::Value`",
                self.span,
            ));
        };
        let access =
            capture::CaptureAccess::new(c.sh, c.line_from, c.frag, c.json).hiding(c.hidden);
        v.visit_map(access)
    }
}

impl<'de> de::Deserializer<'de> for RemainDeserializer<'_, 'de> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        self.visit_entries(v)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        _fields: &'static [&'static str],
        v: V,
    ) -> Result<V::Value> {
        if name == capture::BODY_NAME {
            return self.capture(v);
        }
        if name == capture::EXPRESSION_NAME {
            return Err(Error::data_at(
                "a `$remain` field holds the rest of a body: a `hcl::RawBody`, a map or a `hcl::Value`, not a `hcl::RawExpression`",
                self.span,
            ));
        }
        self.visit_entries(v)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        v: V,
    ) -> Result<V::Value> {
        if capture::is_capture(name) {
            return self.deserialize_struct(name, &[], v);
        }
        if crate::reserved::is_value_name(name) {
            return self.visit_entries(v);
        }
        v.visit_newtype_struct(self)
    }

    fn deserialize_option<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        v.visit_some(self)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        v.visit_unit()
    }

    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf unit unit_struct seq tuple tuple_struct map enum identifier
    }
}

/// An evaluation error under a struct with `#[serde(flatten)]`, which
/// makes serde buffer every value it does not know (through
/// `deserialize_any`, so they are evaluated) before their types are known:
/// the message says so and names the supported way, a `$remain` field.
pub(crate) fn flatten_note(e: Error) -> Error {
    let Some(span) = e.span().filter(|_| e.is_eval()) else {
        return e;
    };
    let mut n = Error::eval(
        format!(
            "{} (read through `#[serde(flatten)]`: serde buffers the values of a flattened struct before it knows their types, so each is evaluated; to keep attributes unevaluated, give the struct a field `#[serde(rename = \"$remain\")] rest: hcl::RawBody` instead of the flattened one)",
            e.message()
        ),
        span,
    );
    if let Some(p) = e.path() {
        n = n.with_path(p.to_owned());
    }
    if let Some(f) = e.file() {
        n = n.with_file(f.to_owned());
    }
    n
}

/// Whether `v` is serde's derived visitor of a struct (a flattening one,
/// when it asks for a map).
pub(crate) fn expects_struct<'de, V: Visitor<'de>>(v: &V) -> bool {
    use std::fmt::{self, Write};
    struct Expecting<'a, V>(&'a V);
    impl<'de, V: Visitor<'de>> fmt::Display for Expecting<'_, V> {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            self.0.expecting(f)
        }
    }
    /// What the visitor writes, compared with `struct ` as it comes (no
    /// string built): stops it with an error once that is decided.
    struct Prefix(usize);
    const WANT: &str = "struct ";
    impl Write for Prefix {
        fn write_str(&mut self, s: &str) -> fmt::Result {
            let want = WANT.as_bytes().get(self.0..).unwrap_or_default();
            let n = want.len().min(s.len());
            if want.get(..n) != s.as_bytes().get(..n) {
                self.0 = usize::MAX;
                return Err(fmt::Error);
            }
            self.0 += n;
            if self.0 == WANT.len() {
                return Err(fmt::Error);
            }
            Ok(())
        }
    }
    let mut p = Prefix(0);
    // The error is the stop above (or the visitor's own): the prefix read
    // decides.
    let _ = write!(p, "{}", Expecting(v));
    p.0 == WANT.len()
}

/// The `$label` or `$labels` entry of a block read into a struct with a
/// `#[serde(flatten)]` field, whose fields serde does not name: when the
/// struct has no such field, serde buffers the value for the flattened
/// one (asking for any value), which would put labels among the body's
/// attributes; that is an error naming the supported ways.
pub(crate) struct FlattenedLabel<D> {
    inner: D,
    field: &'static str,
    span: Span,
}

impl<D> FlattenedLabel<D> {
    /// `inner`, the value of `field` (`$label` or `$labels`) at `span`.
    pub(crate) fn new(inner: D, field: &'static str, span: Span) -> Self {
        FlattenedLabel { inner, field, span }
    }

    fn error(&self) -> Error {
        let what = if self.field == super::body::LABEL_FIELD {
            "the block's first label"
        } else {
            "the block's labels after the first"
        };
        Error::data_at(
            format!(
                "{what} would go into the `#[serde(flatten)]` field, as the struct has no `#[serde(rename = \"{}\")]` field (serde does not tell a flattening struct's fields to the deserializer): give the struct a `$label` field for the first label and a `$labels` field for the others, or read the rest of the body with a `#[serde(rename = \"$remain\")]` field (`hcl::RawBody` or a map) instead of the flattened one",
                self.field
            ),
            self.span,
        )
    }
}

/// Whether `v` is serde's buffering visitor (a flattening struct's, for a
/// key it has no field for), which expects "any value".
fn is_buffering<'de, V: Visitor<'de>>(v: &V) -> bool {
    struct Expecting<'a, V>(&'a V);
    impl<'de, V: Visitor<'de>> std::fmt::Display for Expecting<'_, V> {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            self.0.expecting(f)
        }
    }
    Expecting(v).to_string() == "any value"
}

macro_rules! flattened_forward {
    ($($method:ident ( $($arg:ident : $ty:ty),* ))*) => {
        $(
            fn $method<V: Visitor<'de>>(self, $($arg: $ty,)* v: V) -> Result<V::Value> {
                self.inner.$method($($arg,)* v)
            }
        )*
    };
}

impl<'de, D: de::Deserializer<'de, Error = Error>> de::Deserializer<'de> for FlattenedLabel<D> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        if is_buffering(&v) {
            return Err(self.error());
        }
        self.inner.deserialize_any(v)
    }

    flattened_forward! {
        deserialize_bool()
        deserialize_i8() deserialize_i16() deserialize_i32() deserialize_i64() deserialize_i128()
        deserialize_u8() deserialize_u16() deserialize_u32() deserialize_u64() deserialize_u128()
        deserialize_f32() deserialize_f64()
        deserialize_char() deserialize_str() deserialize_string()
        deserialize_bytes() deserialize_byte_buf()
        deserialize_option() deserialize_unit()
        deserialize_unit_struct(name: &'static str)
        deserialize_newtype_struct(name: &'static str)
        deserialize_seq()
        deserialize_tuple(len: usize)
        deserialize_tuple_struct(name: &'static str, len: usize)
        deserialize_map()
        deserialize_struct(name: &'static str, fields: &'static [&'static str])
        deserialize_enum(name: &'static str, variants: &'static [&'static str])
        deserialize_identifier()
        deserialize_ignored_any()
    }
}

#[cfg(test)]
mod tests {
    use super::expects_struct;
    use serde::de::Visitor;
    use std::fmt;

    /// A visitor whose `expecting` writes these pieces.
    struct Says(&'static [&'static str]);

    impl Visitor<'_> for Says {
        type Value = ();

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            self.0.iter().try_for_each(|s| f.write_str(s))
        }
    }

    /// The prefix is read as `to_string().starts_with("struct ")` reads
    /// it, however the visitor writes it.
    #[test]
    fn a_struct_visitor_is_told_by_its_first_words() {
        for (pieces, is) in [
            (&["struct Config"][..], true),
            (&["struct ", "Config"], true),
            (&["str", "uct", " C"], true),
            (&["struct "], true),
            (&["struct"], false),
            (&["structure"], false),
            (&["a map"], false),
            (&[], false),
            (&["", "struct X"], true),
            (&["tuple struct X"], false),
        ] {
            let joined: String = pieces.concat();
            assert_eq!(joined.starts_with("struct "), is, "{pieces:?}");
            assert_eq!(expects_struct(&Says(pieces)), is, "{pieces:?}");
        }
    }
}
