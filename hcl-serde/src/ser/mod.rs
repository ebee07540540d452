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
//! non-finite float, a value nested beyond 128 levels.

mod escape;
mod node;
mod value;
mod wrap;
mod write;

pub use value::to_value;
pub use wrap::{attribute, block, Attribute, Block};

use crate::error::{Error, Result};
use node::{MapNode, Node, NodeSerializer, SeqNode};
use serde::ser::{self, Serialize};
use std::io;

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
    let node = {
        let _active = ActiveGuard::new();
        node::to_node(value)?
    };
    let mut out = String::new();
    write::write_document(&node, &mut out)?;
    Ok(out)
}

/// Serializes `value` as an HCL file, as UTF-8 bytes.
///
/// # Errors
///
/// As [`to_string`].
pub fn to_vec<T: Serialize + ?Sized>(value: &T) -> Result<Vec<u8>> {
    to_string(value).map(String::into_bytes)
}

/// Serializes `value` as an HCL file into `writer`.
///
/// The text is built whole before it is written, so nothing is written
/// when serialization fails.
///
/// # Errors
///
/// As [`to_string`], or the writer's I/O error.
pub fn to_writer<W: io::Write, T: Serialize + ?Sized>(writer: W, value: &T) -> Result<()> {
    let mut ser = Serializer::new(writer);
    value.serialize(&mut ser)
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
}

impl<W: io::Write> Serializer<W> {
    /// A serializer writing into `writer`.
    pub fn new(writer: W) -> Serializer<W> {
        Serializer { writer }
    }

    /// The writer back.
    pub fn into_inner(self) -> W {
        self.writer
    }

    fn finish(&mut self, node: Result<Node>) -> Result<()> {
        let mut out = String::new();
        write::write_document(&node?, &mut out)?;
        self.writer.write_all(out.as_bytes()).map_err(Error::io)
    }
}

/// A sequence, tuple or tuple variant being serialized by [`Serializer`].
/// A top-level sequence is an error at its end: a file is a body.
pub struct SeqCompound<'a, W> {
    ser: &'a mut Serializer<W>,
    inner: SeqNode,
    _active: ActiveGuard,
}

/// A map, struct or struct variant being serialized by [`Serializer`],
/// written out at its end.
pub struct MapCompound<'a, W> {
    ser: &'a mut Serializer<W>,
    inner: MapNode,
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
        let n = ser::Serializer::serialize_bool(NodeSerializer::new(), v);
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
        let n = ser::Serializer::serialize_i64(NodeSerializer::new(), v);
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
        let n = ser::Serializer::serialize_u64(NodeSerializer::new(), v);
        self.finish(n)
    }
    fn serialize_f32(self, v: f32) -> Result<()> {
        let n = ser::Serializer::serialize_f32(NodeSerializer::new(), v);
        self.finish(n)
    }
    fn serialize_f64(self, v: f64) -> Result<()> {
        let n = ser::Serializer::serialize_f64(NodeSerializer::new(), v);
        self.finish(n)
    }
    fn serialize_char(self, v: char) -> Result<()> {
        let n = ser::Serializer::serialize_char(NodeSerializer::new(), v);
        self.finish(n)
    }
    fn serialize_str(self, v: &str) -> Result<()> {
        let n = ser::Serializer::serialize_str(NodeSerializer::new(), v);
        self.finish(n)
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<()> {
        let n = ser::Serializer::serialize_bytes(NodeSerializer::new(), v);
        self.finish(n)
    }
    fn serialize_none(self) -> Result<()> {
        self.finish(Ok(Node::Null))
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<()> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<()> {
        self.finish(Ok(Node::Null))
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<()> {
        self.finish(Ok(Node::Null))
    }
    fn serialize_unit_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
    ) -> Result<()> {
        let n =
            ser::Serializer::serialize_unit_variant(NodeSerializer::new(), name, index, variant);
        self.finish(n)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        value: &T,
    ) -> Result<()> {
        let n = {
            let _active = ActiveGuard::new();
            ser::Serializer::serialize_newtype_struct(NodeSerializer::new(), name, value)
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
            ser::Serializer::serialize_newtype_variant(
                NodeSerializer::new(),
                name,
                index,
                variant,
                value,
            )
        };
        self.finish(n)
    }
    fn serialize_seq(self, len: Option<usize>) -> Result<Self::SerializeSeq> {
        let inner = ser::Serializer::serialize_seq(NodeSerializer::new(), len)?;
        Ok(SeqCompound::new(self, inner))
    }
    fn serialize_tuple(self, len: usize) -> Result<Self::SerializeTuple> {
        let inner = ser::Serializer::serialize_tuple(NodeSerializer::new(), len)?;
        Ok(SeqCompound::new(self, inner))
    }
    fn serialize_tuple_struct(
        self,
        name: &'static str,
        len: usize,
    ) -> Result<Self::SerializeTupleStruct> {
        let inner = ser::Serializer::serialize_tuple_struct(NodeSerializer::new(), name, len)?;
        Ok(SeqCompound::new(self, inner))
    }
    fn serialize_tuple_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Self::SerializeTupleVariant> {
        let inner = ser::Serializer::serialize_tuple_variant(
            NodeSerializer::new(),
            name,
            index,
            variant,
            len,
        )?;
        Ok(SeqCompound::new(self, inner))
    }
    fn serialize_map(self, len: Option<usize>) -> Result<Self::SerializeMap> {
        let inner = ser::Serializer::serialize_map(NodeSerializer::new(), len)?;
        Ok(MapCompound::new(self, inner))
    }
    fn serialize_struct(self, name: &'static str, len: usize) -> Result<Self::SerializeStruct> {
        let inner = ser::Serializer::serialize_struct(NodeSerializer::new(), name, len)?;
        Ok(MapCompound::new(self, inner))
    }
    fn serialize_struct_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Self::SerializeStructVariant> {
        let inner = ser::Serializer::serialize_struct_variant(
            NodeSerializer::new(),
            name,
            index,
            variant,
            len,
        )?;
        Ok(MapCompound::new(self, inner))
    }
}

impl<'a, W> SeqCompound<'a, W> {
    fn new(ser: &'a mut Serializer<W>, inner: SeqNode) -> Self {
        SeqCompound {
            ser,
            inner,
            _active: ActiveGuard::new(),
        }
    }
}

impl<'a, W> MapCompound<'a, W> {
    fn new(ser: &'a mut Serializer<W>, inner: MapNode) -> Self {
        MapCompound {
            ser,
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
                let node = ser::$trait::end(self.inner);
                self.ser.finish(node)
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
        let node = ser::SerializeMap::end(self.inner);
        self.ser.finish(node)
    }
}
