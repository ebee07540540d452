//! The first pass of the serializer: any `T: Serialize` into a [`Node`]
//! tree that still knows what serde said each value was (a struct, a map,
//! a sequence), so that the writer can choose between blocks and
//! attributes with the whole value in view.

use super::escape::{float_literal, number_literal};
use super::wrap::{ATTRIBUTE_NAME, BLOCK_NAME};
use super::{take_number, BODY_NAME, EXPRESSION_NAME, NUMBER_NAME};
use crate::error::{Error, Result};
use serde::ser::{self, Serialize};

/// How deep a value may nest before serialization stops with an error:
/// the deserializer's default depth limit (`de::DEFAULT_MAX_DEPTH`, checked
/// by a test), written here so that `ser` does not depend on `de`.
const MAX_DEPTH: usize = 128;

/// A key: a field or variant name is borrowed, a map key owned.
pub(crate) type Key = std::borrow::Cow<'static, str>;

/// A serialized value, before layout.
#[derive(Debug)]
pub(crate) enum Node {
    /// `None`, `()`, a unit struct: `null`, or nothing for a struct field.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number literal, already spelled.
    Number(String),
    /// A string (escaped when written).
    Str(String),
    /// A [`RawExpression`](crate::RawExpression)'s source, written as it is.
    Expr(String),
    /// A [`RawBody`](crate::RawBody)'s source, written as a block's body.
    Body(String),
    /// A sequence or tuple.
    Seq(Vec<Node>),
    /// A map: its keys are data.
    Map(Vec<(Key, Node)>),
    /// A struct: its keys are field names; `$label` / `$labels` fields are
    /// a block's labels.
    Struct(Vec<(Key, Node)>),
    /// A value the user wants written as a block (or blocks).
    Block(Box<Node>),
    /// A value the user wants written as an attribute.
    Attribute(Box<Node>),
}

impl Node {
    /// What the node is, for error messages.
    pub(crate) fn kind(&self) -> &'static str {
        match self {
            Node::Null => "null",
            Node::Bool(_) => "a bool",
            Node::Number(_) => "a number",
            Node::Str(_) => "a string",
            Node::Expr(_) => "an expression",
            Node::Body(_) => "a body",
            Node::Seq(_) => "a sequence",
            Node::Map(_) => "a map",
            Node::Struct(_) => "a struct",
            Node::Block(n) | Node::Attribute(n) => n.kind(),
        }
    }
}

/// Serializes `value` into a [`Node`].
pub(crate) fn to_node<T: Serialize + ?Sized>(value: &T) -> Result<Node> {
    value.serialize(NodeSerializer::new())
}

/// The serializer of the first pass.
#[derive(Clone, Copy)]
pub(crate) struct NodeSerializer {
    depth: usize,
}

impl NodeSerializer {
    /// A serializer at the top level.
    pub(crate) fn new() -> NodeSerializer {
        NodeSerializer { depth: 0 }
    }

    fn deeper(self) -> Result<NodeSerializer> {
        if self.depth >= MAX_DEPTH {
            return Err(Error::data(format!(
                "the value is nested more than {MAX_DEPTH} levels deep (the serializer's depth limit)"
            )));
        }
        Ok(NodeSerializer {
            depth: self.depth + 1,
        })
    }
}

fn float(f: f64, plain: String, exp: String) -> Result<Node> {
    if !f.is_finite() {
        return Err(Error::data(format!("{f} is not a number HCL can hold")));
    }
    Ok(Node::Number(float_literal(f, plain, exp)))
}

fn variant(name: &'static str, content: Node) -> Node {
    Node::Map(vec![(Key::Borrowed(name), content)])
}

impl ser::Serializer for NodeSerializer {
    type Ok = Node;
    type Error = Error;
    type SerializeSeq = SeqNode;
    type SerializeTuple = SeqNode;
    type SerializeTupleStruct = SeqNode;
    type SerializeTupleVariant = SeqNode;
    type SerializeMap = MapNode;
    type SerializeStruct = MapNode;
    type SerializeStructVariant = MapNode;

    fn serialize_bool(self, v: bool) -> Result<Node> {
        Ok(Node::Bool(v))
    }
    fn serialize_i8(self, v: i8) -> Result<Node> {
        Ok(Node::Number(v.to_string()))
    }
    fn serialize_i16(self, v: i16) -> Result<Node> {
        Ok(Node::Number(v.to_string()))
    }
    fn serialize_i32(self, v: i32) -> Result<Node> {
        Ok(Node::Number(v.to_string()))
    }
    fn serialize_i64(self, v: i64) -> Result<Node> {
        Ok(Node::Number(v.to_string()))
    }
    fn serialize_i128(self, v: i128) -> Result<Node> {
        Ok(Node::Number(v.to_string()))
    }
    fn serialize_u8(self, v: u8) -> Result<Node> {
        Ok(Node::Number(v.to_string()))
    }
    fn serialize_u16(self, v: u16) -> Result<Node> {
        Ok(Node::Number(v.to_string()))
    }
    fn serialize_u32(self, v: u32) -> Result<Node> {
        Ok(Node::Number(v.to_string()))
    }
    fn serialize_u64(self, v: u64) -> Result<Node> {
        Ok(Node::Number(v.to_string()))
    }
    fn serialize_u128(self, v: u128) -> Result<Node> {
        Ok(Node::Number(v.to_string()))
    }
    fn serialize_f32(self, v: f32) -> Result<Node> {
        // The shortest text of the f32 itself, so 0.1f32 is 0.1.
        float(f64::from(v), v.to_string(), format!("{v:e}"))
    }
    fn serialize_f64(self, v: f64) -> Result<Node> {
        float(v, v.to_string(), format!("{v:e}"))
    }
    fn serialize_char(self, v: char) -> Result<Node> {
        Ok(Node::Str(v.to_string()))
    }
    fn serialize_str(self, v: &str) -> Result<Node> {
        Ok(Node::Str(v.to_owned()))
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<Node> {
        Ok(Node::Seq(
            v.iter().map(|b| Node::Number(b.to_string())).collect(),
        ))
    }
    fn serialize_none(self) -> Result<Node> {
        Ok(Node::Null)
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<Node> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<Node> {
        Ok(Node::Null)
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<Node> {
        Ok(Node::Null)
    }
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<Node> {
        Ok(Node::Str(variant.to_owned()))
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        value: &T,
    ) -> Result<Node> {
        if name == NUMBER_NAME {
            // The number is in the slot already: its content (the nearest
            // i64 or f64, for other serializers) is not needed.
            if let Some(n) = take_number() {
                return match number_literal(&n) {
                    Some(lit) => Ok(Node::Number(lit)),
                    None => Err(Error::data(format!("{n} is not a number HCL can hold"))),
                };
            }
        }
        let inner = value.serialize(self.deeper()?)?;
        Ok(match (name, inner) {
            (EXPRESSION_NAME, Node::Str(s)) => Node::Expr(s),
            (BODY_NAME, Node::Str(s)) => Node::Body(s),
            (BLOCK_NAME, inner) => Node::Block(Box::new(inner)),
            (ATTRIBUTE_NAME, inner) => Node::Attribute(Box::new(inner)),
            (_, inner) => inner,
        })
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        name: &'static str,
        value: &T,
    ) -> Result<Node> {
        Ok(variant(name, value.serialize(self.deeper()?)?))
    }
    fn serialize_seq(self, len: Option<usize>) -> Result<SeqNode> {
        Ok(SeqNode {
            ser: self.deeper()?,
            items: Vec::with_capacity(len.unwrap_or(0).min(4096)),
            variant: None,
        })
    }
    fn serialize_tuple(self, len: usize) -> Result<SeqNode> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_struct(self, _name: &'static str, len: usize) -> Result<SeqNode> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        name: &'static str,
        len: usize,
    ) -> Result<SeqNode> {
        let mut seq = self.serialize_seq(Some(len))?;
        seq.variant = Some(name);
        Ok(seq)
    }
    fn serialize_map(self, len: Option<usize>) -> Result<MapNode> {
        Ok(MapNode {
            ser: self.deeper()?,
            entries: Vec::with_capacity(len.unwrap_or(0).min(4096)),
            key: None,
            is_struct: false,
            variant: None,
        })
    }
    fn serialize_struct(self, _name: &'static str, len: usize) -> Result<MapNode> {
        let mut m = self.serialize_map(Some(len))?;
        m.is_struct = true;
        Ok(m)
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        name: &'static str,
        len: usize,
    ) -> Result<MapNode> {
        let mut m = self.serialize_struct(name, len)?;
        m.variant = Some(name);
        Ok(m)
    }
}

/// A sequence, tuple or tuple variant being serialized.
pub(crate) struct SeqNode {
    ser: NodeSerializer,
    items: Vec<Node>,
    variant: Option<&'static str>,
}

impl SeqNode {
    fn push<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        let node = value
            .serialize(self.ser)
            .map_err(|e| e.prepend_index(self.items.len()))?;
        self.items.push(node);
        Ok(())
    }
    fn finish(self) -> Node {
        let seq = Node::Seq(self.items);
        match self.variant {
            Some(name) => variant(name, seq),
            None => seq,
        }
    }
}

impl ser::SerializeSeq for SeqNode {
    type Ok = Node;
    type Error = Error;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        self.push(value)
    }
    fn end(self) -> Result<Node> {
        Ok(self.finish())
    }
}

impl ser::SerializeTuple for SeqNode {
    type Ok = Node;
    type Error = Error;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        self.push(value)
    }
    fn end(self) -> Result<Node> {
        Ok(self.finish())
    }
}

impl ser::SerializeTupleStruct for SeqNode {
    type Ok = Node;
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        self.push(value)
    }
    fn end(self) -> Result<Node> {
        Ok(self.finish())
    }
}

impl ser::SerializeTupleVariant for SeqNode {
    type Ok = Node;
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        self.push(value)
    }
    fn end(self) -> Result<Node> {
        Ok(self.finish())
    }
}

/// A map, struct or struct variant being serialized.
pub(crate) struct MapNode {
    ser: NodeSerializer,
    entries: Vec<(Key, Node)>,
    key: Option<String>,
    is_struct: bool,
    variant: Option<&'static str>,
}

impl MapNode {
    fn finish(self) -> Node {
        let body = if self.is_struct {
            Node::Struct(self.entries)
        } else {
            Node::Map(self.entries)
        };
        match self.variant {
            Some(name) => variant(name, body),
            None => body,
        }
    }
}

/// A map key as the string HCL keys are.
fn key_text(key: Node) -> Result<String> {
    match key {
        Node::Str(s) | Node::Number(s) => Ok(s),
        Node::Bool(b) => Ok(b.to_string()),
        other => Err(Error::data(format!(
            "a map key must be a string, number or bool, not {}",
            other.kind()
        ))),
    }
}

impl ser::SerializeMap for MapNode {
    type Ok = Node;
    type Error = Error;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<()> {
        self.key = Some(key_text(key.serialize(self.ser)?)?);
        Ok(())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        let key = self
            .key
            .take()
            .ok_or_else(|| Error::data("a map value was serialized before its key"))?;
        let node = value.serialize(self.ser).map_err(|e| e.prepend_key(&key))?;
        self.entries.push((Key::Owned(key), node));
        Ok(())
    }
    fn end(self) -> Result<Node> {
        Ok(self.finish())
    }
}

impl ser::SerializeStruct for MapNode {
    type Ok = Node;
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<()> {
        let node = value.serialize(self.ser).map_err(|e| e.prepend_key(key))?;
        self.entries.push((Key::Borrowed(key), node));
        Ok(())
    }
    fn end(self) -> Result<Node> {
        Ok(self.finish())
    }
}

impl ser::SerializeStructVariant for MapNode {
    type Ok = Node;
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<()> {
        ser::SerializeStruct::serialize_field(self, key, value)
    }
    fn end(self) -> Result<Node> {
        Ok(self.finish())
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn depth_limit_is_the_deserializers() {
        assert_eq!(super::MAX_DEPTH, crate::de::DEFAULT_MAX_DEPTH);
    }
}
