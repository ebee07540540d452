//! Writing HCL: any `T: Serialize` into HCL text ([`to_string`],
//! [`to_vec`], [`to_writer`], [`Serializer`]), and into a [`Value`](crate::Value)
//! ([`to_value`]).
//!
//! The mapping mirrors the deserializer's, so that
//! `from_str::<T>(&to_string(&x)?)? == x`:
//!
//! | Rust value | HCL |
//! | --- | --- |
//! | the top-level struct or map | the file's body |
//! | a struct field or map entry holding a struct | a block: `name { ... }` |
//! | a non-empty sequence of structs | one block per element, same name |
//! | a non-empty map whose every value is a block | labelled blocks, the key as the first label: `resource "a" "b" { }` from a map of maps of structs |
//! | a struct's `$label` / `$labels` fields | its block's labels (after the labels from map keys) |
//! | anything else | an attribute: `name = value` |
//! | a map or struct inside a value | an object `{ key = value }`, keys quoted unless identifiers |
//! | a sequence or tuple | a tuple `[a, b]` |
//! | `None` | a struct field is left out; elsewhere `null` |
//! | `()`, a unit struct | `null` |
//! | enums | externally tagged: a unit variant is its name as a string; `V(x)` and `V { .. }` are `{ V = x }`, so a struct variant in a field is the labelled block `field "V" { .. }` |
//! | strings | quoted, with `\"`, `\\`, `\n`, `\r`, `\t`, `\uXXXX` escapes and `${` / `%{` written `$${` / `%%{` |
//! | numbers | integers exactly; floats as the shortest text that reads back as the same float; an [`hcl::Number`](crate::Number) exactly (`2^128` in all its digits, `1e-400`); an infinity is an error |
//! | [`RawExpression`](crate::RawExpression) | its source text, unevaluated |
//! | [`RawBody`](crate::RawBody) | a block whose body is its source text |
//! | [`Value`](crate::Value), `serde_json::Value` | attributes (objects are maps) |
//!
//! The choice between a block and an attribute is the one ambiguity: the
//! [`Block`] and [`Attribute`] wrappers (or [`block`] and [`attribute`]
//! with `#[serde(serialize_with = ...)]`) override it.
//!
//! Output is laid out as `terraform fmt` (hashicorp/hcl's
//! `hclwrite.Format`) lays out HCL: two-space indentation, `=` aligned in
//! runs of one-line attributes. Formatting it changes nothing, with one
//! exception: a [`RawExpression`](crate::RawExpression) or
//! [`RawBody`](crate::RawBody) is written as its source was, spacing and all.
//!
//! Errors, never invalid output, for what HCL cannot hold: a top-level
//! value that is not a struct or map, an attribute or block name that is
//! not an identifier, a map key that is not a string, number or bool, a
//! non-finite float, a value nested beyond 128 levels, strings, keys and
//! numbers passing 4 GiB in the part of a value held at once: a top-level
//! body is written entry by entry as it is serialized, so the limit is on
//! one multi-line body entry (or one run of one-line attributes, which
//! align together), and on the whole value only for [`Serializer`] or a
//! top-level value that is not a struct or map.

mod escape;
mod node;
mod stream;
mod tree;
mod value;
mod wrap;
mod write;

pub use value::to_value;
pub use wrap::{attribute, block, Attribute, Block};

use crate::error::{Error, Result};
use node::{Done, MapNode, NodeSerializer, SeqNode};
use serde::ser::{self, Serialize};
use std::cell::RefCell;
use std::io;
use tree::Tree;

pub(crate) use crate::number::take_number;
pub(crate) use crate::reserved::{
    active, ActiveGuard, SER_BODY_NAME as BODY_NAME, SER_EXPRESSION_NAME as EXPRESSION_NAME,
    SER_NUMBER_NAME as NUMBER_NAME,
};

/// Serializes `value` as an HCL file.
///
/// ```
/// use serde::{Deserialize, Serialize};
///
/// #[derive(Serialize, Deserialize, PartialEq, Debug)]
/// struct Service {
///     #[serde(rename = "$label")]
///     name: String,
///     port: u16,
///     hosts: Vec<String>,
/// }
///
/// #[derive(Serialize, Deserialize, PartialEq, Debug)]
/// struct Config {
///     version: u32,
///     service: Vec<Service>,
/// }
///
/// let config = Config {
///     version: 2,
///     service: vec![Service { name: "web".into(), port: 8080, hosts: vec!["a".into()] }],
/// };
/// let text = hcl::to_string(&config)?;
/// assert_eq!(text, r#"version = 2
///
/// service "web" {
///   port  = 8080
///   hosts = ["a"]
/// }
/// "#);
/// assert_eq!(hcl::from_str::<Config>(&text)?, config);
/// # Ok::<(), hcl::Error>(())
/// ```
///
/// # Errors
///
/// A data error for what HCL cannot hold (see the [module](self)
/// documentation), or any error `T`'s `Serialize` reports.
pub fn to_string<T: Serialize + ?Sized>(value: &T) -> Result<String> {
    // The writer writes UTF-8 only (see `tree`): checked once, whole.
    String::from_utf8(to_bytes(value)?)
        .map_err(|_| Error::data("the serializer wrote bytes that are not UTF-8 (a bug)"))
}

/// The text of [`to_string`], as bytes.
fn to_bytes<T: Serialize + ?Sized>(value: &T) -> Result<Vec<u8>> {
    let with_room = |sc: &mut Scratch| {
        let mut out = Vec::new();
        let top = {
            let _active = ActiveGuard::new();
            stream::serialize(value, &mut sc.tree, &mut sc.writer, &mut out)?
        };
        match top {
            stream::Top::Written => Ok(out),
            stream::Top::Whole => write_out(&mut sc.tree, &mut sc.writer),
        }
    };
    SCRATCH
        .try_with(|slot| match slot.try_borrow_mut() {
            Ok(mut sc) => {
                let out = with_room(&mut sc);
                if !(sc.tree.is_small() && sc.writer.is_small()) {
                    // A large document's room is given back.
                    *sc = Scratch::default();
                }
                out
            }
            // A call from a `Serialize` impl inside another call.
            Err(_) => with_room(&mut Scratch::default()),
        })
        // During the thread's exit there is no room kept.
        .unwrap_or_else(|_| with_room(&mut Scratch::default()))
}

/// The serializer's working room: the tree of the value being written
/// and the writer's stacks of entries and labels. Each thread keeps one
/// between calls (when small, see [`Tree::is_small`]), so that
/// serializing a small value allocates only its output; a call made while
/// another runs on the same thread (a `Serialize` impl calling
/// `to_string`) finds it borrowed and starts empty.
#[derive(Default)]
struct Scratch {
    tree: Tree,
    writer: write::Scratch,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = const {
        RefCell::new(Scratch {
            tree: Tree::new(),
            writer: write::Scratch::new(),
        })
    };
}

/// The error for a tree that outgrew its offsets (see [`Tree::overflowed`]).
fn too_large() -> Error {
    Error::data("the value is too large to write: its text passes 4 GiB, the serializer's limit")
}

/// Lays out `tree` as HCL text (UTF-8).
fn write_out(tree: &mut Tree, sc: &mut write::Scratch) -> Result<Vec<u8>> {
    if tree.overflowed() {
        return Err(too_large());
    }
    // The output is the text the tree holds, plus per node its quotes,
    // ` = `, line break and indentation: room for a dozen bytes each, so
    // that the output seldom grows (growing copied it, 2% of the corpus
    // values' instructions).
    tree.finish();
    let room = tree.len().saturating_mul(12).saturating_add(64);
    let mut out = Vec::with_capacity(tree.text_len().saturating_add(room));
    write::write_document(tree, &mut out, sc)?;
    Ok(out)
}

/// Serializes `value` as an HCL file, as UTF-8 bytes.
///
/// # Errors
///
/// As [`to_string`].
pub fn to_vec<T: Serialize + ?Sized>(value: &T) -> Result<Vec<u8>> {
    to_bytes(value)
}

/// Serializes `value` as an HCL file into `writer`.
///
/// The text is built whole before it is written, so nothing is written
/// when serialization fails.
///
/// # Errors
///
/// As [`to_string`], or the writer's I/O error.
pub fn to_writer<W: io::Write, T: Serialize + ?Sized>(mut writer: W, value: &T) -> Result<()> {
    // What `Serializer` does, with `to_string`'s first allocations sized
    // for a small value.
    let text = to_bytes(value)?;
    writer.write_all(&text).map_err(Error::io)
}

/// A serde serializer that writes an HCL file into an [`io::Write`].
///
/// [`to_string`], [`to_vec`] and [`to_writer`] are the usual entry points;
/// the `Serializer` is for code generic over serde serializers. The value
/// given to it must be a body (a struct or a map).
///
/// ```
/// use serde::Serialize;
///
/// let mut out = Vec::new();
/// let map = std::collections::BTreeMap::from([("name", "web")]);
/// map.serialize(&mut hcl::Serializer::new(&mut out))?;
/// assert_eq!(out, b"name = \"web\"\n");
/// # Ok::<(), hcl::Error>(())
/// ```
pub struct Serializer<W> {
    writer: W,
    tree: Tree,
}

impl<W: io::Write> Serializer<W> {
    /// A serializer writing into `writer`.
    pub fn new(writer: W) -> Serializer<W> {
        Serializer {
            writer,
            tree: Tree::new(),
        }
    }

    /// The writer back.
    pub fn into_inner(self) -> W {
        self.writer
    }

    /// The tree, emptied for a new value.
    fn start(&mut self) -> NodeSerializer<'_> {
        self.tree.reset();
        NodeSerializer::new(&mut self.tree)
    }

    /// The writer, and the tree emptied for a new value, apart.
    fn parts(&mut self) -> (&mut W, NodeSerializer<'_>) {
        self.tree.reset();
        (&mut self.writer, NodeSerializer::new(&mut self.tree))
    }

    fn finish(&mut self, done: Result<Done>) -> Result<()> {
        finish(&mut self.writer, &mut self.tree, done)
    }
}

/// Lays out `tree` and writes it into `writer`, once whole.
fn finish<W: io::Write>(writer: &mut W, tree: &mut Tree, done: Result<Done>) -> Result<()> {
    done?;
    let out = write_out(tree, &mut write::Scratch::new())?;
    writer.write_all(&out).map_err(Error::io)
}

/// A sequence, tuple or tuple variant being serialized by [`Serializer`].
/// A top-level sequence is an error at its end: a file is a body.
pub struct SeqCompound<'a, W> {
    writer: &'a mut W,
    inner: SeqNode<'a>,
    _active: ActiveGuard,
}

/// A map, struct or struct variant being serialized by [`Serializer`],
/// written out at its end.
pub struct MapCompound<'a, W> {
    writer: &'a mut W,
    inner: MapNode<'a>,
    _active: ActiveGuard,
}

impl<'a, W: io::Write> ser::Serializer for &'a mut Serializer<W> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = SeqCompound<'a, W>;
    type SerializeTuple = SeqCompound<'a, W>;
    type SerializeTupleStruct = SeqCompound<'a, W>;
    type SerializeTupleVariant = SeqCompound<'a, W>;
    type SerializeMap = MapCompound<'a, W>;
    type SerializeStruct = MapCompound<'a, W>;
    type SerializeStructVariant = MapCompound<'a, W>;

    fn serialize_bool(self, v: bool) -> Result<()> {
        let n = ser::Serializer::serialize_bool(self.start(), v);
        self.finish(n)
    }
    fn serialize_i8(self, v: i8) -> Result<()> {
        self.serialize_i64(i64::from(v))
    }
    fn serialize_i16(self, v: i16) -> Result<()> {
        self.serialize_i64(i64::from(v))
    }
    fn serialize_i32(self, v: i32) -> Result<()> {
        self.serialize_i64(i64::from(v))
    }
    fn serialize_i64(self, v: i64) -> Result<()> {
        let n = ser::Serializer::serialize_i64(self.start(), v);
        self.finish(n)
    }
    fn serialize_u8(self, v: u8) -> Result<()> {
        self.serialize_i64(i64::from(v))
    }
    fn serialize_u16(self, v: u16) -> Result<()> {
        self.serialize_i64(i64::from(v))
    }
    fn serialize_u32(self, v: u32) -> Result<()> {
        self.serialize_i64(i64::from(v))
    }
    fn serialize_u64(self, v: u64) -> Result<()> {
        let n = ser::Serializer::serialize_u64(self.start(), v);
        self.finish(n)
    }
    fn serialize_f32(self, v: f32) -> Result<()> {
        let n = ser::Serializer::serialize_f32(self.start(), v);
        self.finish(n)
    }
    fn serialize_f64(self, v: f64) -> Result<()> {
        let n = ser::Serializer::serialize_f64(self.start(), v);
        self.finish(n)
    }
    fn serialize_char(self, v: char) -> Result<()> {
        let n = ser::Serializer::serialize_char(self.start(), v);
        self.finish(n)
    }
    fn serialize_str(self, v: &str) -> Result<()> {
        let n = ser::Serializer::serialize_str(self.start(), v);
        self.finish(n)
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<()> {
        let n = ser::Serializer::serialize_bytes(self.start(), v);
        self.finish(n)
    }
    fn serialize_none(self) -> Result<()> {
        let n = ser::Serializer::serialize_none(self.start());
        self.finish(n)
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<()> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<()> {
        let n = ser::Serializer::serialize_unit(self.start());
        self.finish(n)
    }
    fn serialize_unit_struct(self, name: &'static str) -> Result<()> {
        let n = ser::Serializer::serialize_unit_struct(self.start(), name);
        self.finish(n)
    }
    fn serialize_unit_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
    ) -> Result<()> {
        let n = ser::Serializer::serialize_unit_variant(self.start(), name, index, variant);
        self.finish(n)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        value: &T,
    ) -> Result<()> {
        let n = {
            let _active = ActiveGuard::new();
            ser::Serializer::serialize_newtype_struct(self.start(), name, value)
        };
        self.finish(n)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<()> {
        let n = {
            let _active = ActiveGuard::new();
            ser::Serializer::serialize_newtype_variant(self.start(), name, index, variant, value)
        };
        self.finish(n)
    }
    fn serialize_seq(self, len: Option<usize>) -> Result<Self::SerializeSeq> {
        let (writer, node) = self.parts();
        let inner = ser::Serializer::serialize_seq(node, len)?;
        Ok(SeqCompound::new(writer, inner))
    }
    fn serialize_tuple(self, len: usize) -> Result<Self::SerializeTuple> {
        let (writer, node) = self.parts();
        let inner = ser::Serializer::serialize_tuple(node, len)?;
        Ok(SeqCompound::new(writer, inner))
    }
    fn serialize_tuple_struct(
        self,
        name: &'static str,
        len: usize,
    ) -> Result<Self::SerializeTupleStruct> {
        let (writer, node) = self.parts();
        let inner = ser::Serializer::serialize_tuple_struct(node, name, len)?;
        Ok(SeqCompound::new(writer, inner))
    }
    fn serialize_tuple_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Self::SerializeTupleVariant> {
        let (writer, node) = self.parts();
        let inner = ser::Serializer::serialize_tuple_variant(node, name, index, variant, len)?;
        Ok(SeqCompound::new(writer, inner))
    }
    fn serialize_map(self, len: Option<usize>) -> Result<Self::SerializeMap> {
        let (writer, node) = self.parts();
        let inner = ser::Serializer::serialize_map(node, len)?;
        Ok(MapCompound::new(writer, inner))
    }
    fn serialize_struct(self, name: &'static str, len: usize) -> Result<Self::SerializeStruct> {
        let (writer, node) = self.parts();
        let inner = ser::Serializer::serialize_struct(node, name, len)?;
        Ok(MapCompound::new(writer, inner))
    }
    fn serialize_struct_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Self::SerializeStructVariant> {
        let (writer, node) = self.parts();
        let inner = ser::Serializer::serialize_struct_variant(node, name, index, variant, len)?;
        Ok(MapCompound::new(writer, inner))
    }
}

impl<'a, W> SeqCompound<'a, W> {
    fn new(writer: &'a mut W, inner: SeqNode<'a>) -> Self {
        SeqCompound {
            writer,
            inner,
            _active: ActiveGuard::new(),
        }
    }
}

impl<'a, W> MapCompound<'a, W> {
    fn new(writer: &'a mut W, inner: MapNode<'a>) -> Self {
        MapCompound {
            writer,
            inner,
            _active: ActiveGuard::new(),
        }
    }
}

macro_rules! compound {
    ($trait:ident, $inner:ident, $method:ident $(, $key:ident : $kty:ty)?) => {
        impl<W: io::Write> ser::$trait for $inner<'_, W> {
            type Ok = ();
            type Error = Error;
            fn $method<T: Serialize + ?Sized>(&mut self, $($key: $kty,)? value: &T) -> Result<()> {
                ser::$trait::$method(&mut self.inner, $($key,)? value)
            }
            fn end(self) -> Result<()> {
                let (done, tree) = self.inner.end_tree();
                finish(self.writer, tree, done)
            }
        }
    };
}

compound!(SerializeSeq, SeqCompound, serialize_element);
compound!(SerializeTuple, SeqCompound, serialize_element);
compound!(SerializeTupleStruct, SeqCompound, serialize_field);
compound!(SerializeTupleVariant, SeqCompound, serialize_field);
compound!(SerializeStruct, MapCompound, serialize_field, key: &'static str);
compound!(SerializeStructVariant, MapCompound, serialize_field, key: &'static str);

impl<W: io::Write> ser::SerializeMap for MapCompound<'_, W> {
    type Ok = ();
    type Error = Error;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<()> {
        ser::SerializeMap::serialize_key(&mut self.inner, key)
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        ser::SerializeMap::serialize_value(&mut self.inner, value)
    }
    fn end(self) -> Result<()> {
        let (done, tree) = self.inner.end_tree();
        finish(self.writer, tree, done)
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    /// A value whose `Serialize` calls `to_string` while the outer call
    /// holds this thread's room (see `Scratch`).
    struct Nested;

    impl serde::Serialize for Nested {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            let text =
                crate::to_string(&BTreeMap::from([("a", 1)])).map_err(serde::ser::Error::custom)?;
            s.serialize_str(&text)
        }
    }

    #[test]
    fn text_past_the_trees_limit_is_an_error() {
        // The limit is 4 GiB; 1 MiB in this crate's tests (`tree::MAX_TEXT`).
        let big = BTreeMap::from([("a", "x".repeat(1 << 19)), ("b", "y".repeat(1 << 19))]);
        let err = crate::to_string(&big).map(|s| s.len());
        assert!(
            err.as_ref()
                .is_err_and(|e| e.to_string().contains("too large to write")),
            "{err:?}"
        );
        let small = BTreeMap::from([("a", "x".repeat(1 << 19))]);
        assert!(crate::to_string(&small).is_ok());
    }

    #[test]
    fn the_limit_is_on_the_entries_written_together() {
        // A body's entries are written (and their text dropped) as they
        // complete: the limit bounds a multi-line entry, or a run of
        // one-line attributes, not the whole body.
        let half = || BTreeMap::from([("x", "x".repeat(1 << 19))]);
        let body = BTreeMap::from([("a", half()), ("b", half()), ("c", half())]);
        let out = crate::to_string(&body).map(|s| s.len());
        assert!(out.as_ref().is_ok_and(|&n| n > 3 << 19), "{out:?}");
        let mut both = half();
        both.insert("y", "y".repeat(1 << 19));
        let body = BTreeMap::from([("a", half()), ("b", both), ("c", half())]);
        let err = crate::to_string(&body).map(|s| s.len());
        assert!(
            err.as_ref()
                .is_err_and(|e| e.to_string().contains("too large to write")),
            "{err:?}"
        );
    }

    #[test]
    fn a_serialize_impl_may_call_to_string() {
        let value = BTreeMap::from([("x", Nested), ("y", Nested)]);
        for _ in 0..2 {
            let out = crate::to_string(&value);
            assert_eq!(
                out.ok().as_deref(),
                Some("x = \"a = 1\\n\"\ny = \"a = 1\\n\"\n")
            );
        }
        let mut out = Vec::new();
        assert!(crate::to_writer(&mut out, &value).is_ok());
        assert_eq!(out, b"x = \"a = 1\\n\"\ny = \"a = 1\\n\"\n");
    }
}
