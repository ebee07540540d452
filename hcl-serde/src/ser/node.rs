//! The first pass of the serializer: any `T: Serialize` into a [`Tree`]
//! that still knows what serde said each value was (a struct, a map, a
//! sequence), so that the writer can choose between blocks and
//! attributes with the whole value in view.

use super::escape::{float_literal, key_flags, number_literal};
use super::tree::{flags, key, Node, Text, Tree};
use super::wrap::{ATTRIBUTE_NAME, BLOCK_NAME};
use super::{take_number, BODY_NAME, EXPRESSION_NAME, NUMBER_NAME};
use crate::error::{Error, Result};
use serde::ser::{self, Serialize};
use std::io::Write;

/// How deep a value may nest before serialization stops with an error:
/// the deserializer's default depth limit (`de::DEFAULT_MAX_DEPTH`, checked
/// by a test), written here so that `ser` does not depend on `de`.
const MAX_DEPTH: usize = 128;

/// What the first pass's serializers return: a value's nodes were pushed.
/// Only this module makes one, so a `Serialize` impl cannot return
/// without pushing its value.
pub(crate) struct Done(());

/// The serializer of the first pass: pushes one value's nodes.
pub(crate) struct NodeSerializer<'a> {
    tree: &'a mut Tree,
    depth: usize,
}

impl<'a> NodeSerializer<'a> {
    /// A serializer at the top level.
    pub(crate) fn new(tree: &'a mut Tree) -> NodeSerializer<'a> {
        NodeSerializer { tree, depth: 0 }
    }

    /// A serializer for a value `depth` levels down.
    pub(super) fn at_depth(tree: &'a mut Tree, depth: usize) -> NodeSerializer<'a> {
        NodeSerializer { tree, depth }
    }

    fn deeper(self) -> Result<NodeSerializer<'a>> {
        let depth = deeper(self.depth)?;
        Ok(NodeSerializer {
            tree: self.tree,
            depth,
        })
    }

    fn push(self, node: Node) -> Result<Done> {
        self.tree.push(node);
        Ok(Done(()))
    }

    fn number(self, f: impl FnOnce(&mut Vec<u8>)) -> Result<Done> {
        let t = self.tree.write_text(f);
        self.push(Node::Number(t))
    }

    fn str(self, s: &str) -> Result<Done> {
        let t = self.tree.push_text(s);
        self.push(Node::Str(t))
    }

    fn float(self, f: f64, plain: String, exp: String) -> Result<Done> {
        if !f.is_finite() {
            return Err(Error::data(format!("{f} is not a number HCL can hold")));
        }
        let lit = float_literal(f, plain, exp);
        self.number(|out| out.extend_from_slice(lit.as_bytes()))
    }

    /// `{ name = ... }` around a variant's content: opens the map and
    /// pushes the key; the caller pushes the content and closes the map.
    fn open_variant(self, name: &'static str) -> (NodeSerializer<'a>, usize) {
        let at = self.tree.open(Node::Map(0, 0));
        self.tree.push_key(name);
        (self, at)
    }

    #[inline]
    fn seq(self, variant: Option<usize>) -> Result<SeqNode<'a>> {
        let ser = self.deeper()?;
        let at = ser.tree.open(Node::Seq(0, 0));
        Ok(SeqNode {
            ser,
            at,
            count: 0,
            inline: true,
            variant,
        })
    }

    #[inline]
    pub(super) fn map(self, is_struct: bool, variant: Option<usize>) -> Result<MapNode<'a>> {
        let ser = self.deeper()?;
        let at = ser.tree.open(if is_struct {
            Node::Struct(0, 0)
        } else {
            Node::Map(0, 0)
        });
        Ok(MapNode {
            ser,
            at,
            key: None,
            is_struct,
            flags: 0,
            variant,
        })
    }

    /// A serializer for a child, one level down from this one's.
    fn child(&mut self) -> NodeSerializer<'_> {
        NodeSerializer {
            tree: self.tree,
            depth: self.depth,
        }
    }
}

/// The depth one level below `depth`, or the error past [`MAX_DEPTH`].
pub(super) fn deeper(depth: usize) -> Result<usize> {
    if depth >= MAX_DEPTH {
        return Err(Error::data(format!(
            "the value is nested more than {MAX_DEPTH} levels deep (the serializer's depth limit)"
        )));
    }
    Ok(depth + 1)
}

/// Writes an integer's digits.
fn int(out: &mut Vec<u8>, v: impl std::fmt::Display) {
    // Writing to a `Vec` cannot fail.
    let _ = write!(out, "{v}");
}

/// Writes an `i64`'s digits, as `int` does, without the formatting
/// machinery (most numbers of a value are small integers).
fn int64(out: &mut Vec<u8>, v: i64) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    let mut n = v.unsigned_abs();
    loop {
        at -= 1;
        if let Some(d) = digits.get_mut(at) {
            // `n % 10` is below 10.
            *d = b'0' + (n % 10) as u8;
        }
        n /= 10;
        if n == 0 || at == 0 {
            break;
        }
    }
    if v < 0 {
        out.push(b'-');
    }
    out.extend_from_slice(digits.get(at..).unwrap_or_default());
}

impl<'a> ser::Serializer for NodeSerializer<'a> {
    type Ok = Done;
    type Error = Error;
    type SerializeSeq = SeqNode<'a>;
    type SerializeTuple = SeqNode<'a>;
    type SerializeTupleStruct = SeqNode<'a>;
    type SerializeTupleVariant = SeqNode<'a>;
    type SerializeMap = MapNode<'a>;
    type SerializeStruct = MapNode<'a>;
    type SerializeStructVariant = MapNode<'a>;

    fn serialize_bool(self, v: bool) -> Result<Done> {
        self.push(Node::Bool(v))
    }
    fn serialize_i8(self, v: i8) -> Result<Done> {
        self.number(|o| int64(o, i64::from(v)))
    }
    fn serialize_i16(self, v: i16) -> Result<Done> {
        self.number(|o| int64(o, i64::from(v)))
    }
    fn serialize_i32(self, v: i32) -> Result<Done> {
        self.number(|o| int64(o, i64::from(v)))
    }
    fn serialize_i64(self, v: i64) -> Result<Done> {
        self.number(|o| int64(o, v))
    }
    fn serialize_i128(self, v: i128) -> Result<Done> {
        self.number(|o| int(o, v))
    }
    fn serialize_u8(self, v: u8) -> Result<Done> {
        self.number(|o| int64(o, i64::from(v)))
    }
    fn serialize_u16(self, v: u16) -> Result<Done> {
        self.number(|o| int64(o, i64::from(v)))
    }
    fn serialize_u32(self, v: u32) -> Result<Done> {
        self.number(|o| int64(o, i64::from(v)))
    }
    fn serialize_u64(self, v: u64) -> Result<Done> {
        self.number(|o| int(o, v))
    }
    fn serialize_u128(self, v: u128) -> Result<Done> {
        self.number(|o| int(o, v))
    }
    fn serialize_f32(self, v: f32) -> Result<Done> {
        // The shortest text of the f32 itself, so 0.1f32 is 0.1.
        self.float(f64::from(v), v.to_string(), format!("{v:e}"))
    }
    fn serialize_f64(self, v: f64) -> Result<Done> {
        self.float(v, v.to_string(), format!("{v:e}"))
    }
    fn serialize_char(self, v: char) -> Result<Done> {
        self.str(v.encode_utf8(&mut [0; 4]))
    }
    fn serialize_str(self, v: &str) -> Result<Done> {
        self.str(v)
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<Done> {
        let at = self.tree.open(Node::Seq(0, 0));
        for &b in v {
            let t = self.tree.write_text(|o| int64(o, i64::from(b)));
            self.tree.push(Node::Number(t));
        }
        self.tree.close(at, flags::INLINE);
        Ok(Done(()))
    }
    fn serialize_none(self) -> Result<Done> {
        self.push(Node::Null)
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<Done> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<Done> {
        self.push(Node::Null)
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<Done> {
        self.push(Node::Null)
    }
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<Done> {
        self.str(variant)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        value: &T,
    ) -> Result<Done> {
        if name == NUMBER_NAME {
            // The number is in the slot already: its content (the nearest
            // i64 or f64, for other serializers) is not needed.
            if let Some(n) = take_number() {
                if let Some(d) = n.as_decimal() {
                    // Exact digits; `Decimal` prints a negative zero
                    // without its sign.
                    return self.number(|o| {
                        if d.is_zero() && d.is_sign_negative() {
                            o.push(b'-');
                            int(o, d.abs());
                        } else {
                            int(o, d);
                        }
                    });
                }
                return match number_literal(&n) {
                    Some(lit) => self.number(|o| o.extend_from_slice(lit.as_bytes())),
                    None => Err(Error::data(format!("{n} is not a number HCL can hold"))),
                };
            }
        }
        match name {
            BLOCK_NAME | ATTRIBUTE_NAME => {
                let ser = self.deeper()?;
                let at = ser.tree.open(if name == BLOCK_NAME {
                    Node::Block(0)
                } else {
                    Node::Attribute(0)
                });
                let tree = &mut *ser.tree;
                value.serialize(NodeSerializer {
                    tree: &mut *tree,
                    depth: ser.depth,
                })?;
                tree.close(at, 0);
                Ok(Done(()))
            }
            EXPRESSION_NAME | BODY_NAME => {
                let ser = self.deeper()?;
                let tree = &mut *ser.tree;
                let at = tree.len();
                value.serialize(NodeSerializer {
                    tree: &mut *tree,
                    depth: ser.depth,
                })?;
                if tree.len() == at + 1 {
                    if let Node::Str(t) = tree.node(at) {
                        let node = if name == EXPRESSION_NAME {
                            Node::Expr(t, tree.bytes(t).contains(&b'\n'))
                        } else {
                            Node::Body(t)
                        };
                        if let Some(n) = tree.node_mut(at) {
                            *n = node;
                        }
                    }
                }
                Ok(Done(()))
            }
            _ => value.serialize(self.deeper()?),
        }
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        name: &'static str,
        value: &T,
    ) -> Result<Done> {
        let (ser, at) = self.open_variant(name);
        let mut ser = ser.deeper()?;
        value.serialize(ser.child())?;
        ser.tree.close(at, VARIANT);
        Ok(Done(()))
    }
    fn serialize_seq(self, _len: Option<usize>) -> Result<SeqNode<'a>> {
        self.seq(None)
    }
    fn serialize_tuple(self, _len: usize) -> Result<SeqNode<'a>> {
        self.seq(None)
    }
    fn serialize_tuple_struct(self, _name: &'static str, _len: usize) -> Result<SeqNode<'a>> {
        self.seq(None)
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        name: &'static str,
        _len: usize,
    ) -> Result<SeqNode<'a>> {
        let (ser, at) = self.open_variant(name);
        ser.seq(Some(at))
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<MapNode<'a>> {
        self.map(false, None)
    }
    fn serialize_struct(self, _name: &'static str, _len: usize) -> Result<MapNode<'a>> {
        self.map(true, None)
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        name: &'static str,
        _len: usize,
    ) -> Result<MapNode<'a>> {
        let (ser, at) = self.open_variant(name);
        ser.map(true, Some(at))
    }
}

/// The flags of an enum variant's map (`{ name = content }`): one entry.
const VARIANT: u8 = flags::ENTRIES | flags::BODY;

/// A sequence, tuple or tuple variant being serialized.
pub(crate) struct SeqNode<'a> {
    ser: NodeSerializer<'a>,
    at: usize,
    count: usize,
    /// Whether every element so far is a scalar.
    inline: bool,
    /// The variant's map around the sequence, to close at the end.
    variant: Option<usize>,
}

impl<'a> SeqNode<'a> {
    /// Ends the sequence, and gives the tree back.
    pub(crate) fn end_tree(mut self) -> (Result<Done>, &'a mut Tree) {
        self.close();
        (Ok(Done(())), self.ser.tree)
    }

    fn push<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        let n = self.count;
        let at = self.ser.tree.len();
        value
            .serialize(self.ser.child())
            .map_err(|e| e.prepend_index(n))?;
        self.inline = self.inline && self.ser.tree.is_scalar(at);
        self.count += 1;
        Ok(())
    }

    fn close(&mut self) {
        let f = if self.inline { flags::INLINE } else { 0 };
        self.ser.tree.close(self.at, f);
        if let Some(v) = self.variant {
            self.ser.tree.close(v, VARIANT);
        }
    }

    fn finish(mut self) -> Result<Done> {
        self.close();
        Ok(Done(()))
    }
}

impl ser::SerializeSeq for SeqNode<'_> {
    type Ok = Done;
    type Error = Error;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        self.push(value)
    }
    fn end(self) -> Result<Done> {
        self.finish()
    }
}

impl ser::SerializeTuple for SeqNode<'_> {
    type Ok = Done;
    type Error = Error;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        self.push(value)
    }
    fn end(self) -> Result<Done> {
        self.finish()
    }
}

impl ser::SerializeTupleStruct for SeqNode<'_> {
    type Ok = Done;
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        self.push(value)
    }
    fn end(self) -> Result<Done> {
        self.finish()
    }
}

impl ser::SerializeTupleVariant for SeqNode<'_> {
    type Ok = Done;
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        self.push(value)
    }
    fn end(self) -> Result<Done> {
        self.finish()
    }
}

/// A map, struct or struct variant being serialized.
pub(crate) struct MapNode<'a> {
    ser: NodeSerializer<'a>,
    at: usize,
    /// The key pushed last (its node's index and text), waiting for its
    /// value.
    key: Option<(usize, Text)>,
    /// A struct (its null fields are left out) or a map.
    is_struct: bool,
    /// The container's [`flags`] so far.
    flags: u8,
    /// The variant's map around the struct, to close at the end.
    variant: Option<usize>,
}

impl<'a> MapNode<'a> {
    /// Ends the map or struct, and gives the tree back.
    pub(crate) fn end_tree(mut self) -> (Result<Done>, &'a mut Tree) {
        self.close();
        (Ok(Done(())), self.ser.tree)
    }

    /// The tree being built.
    pub(super) fn tree(&mut self) -> &mut Tree {
        self.ser.tree
    }

    /// Whether this is a struct's (not a map's).
    pub(super) fn is_struct(&self) -> bool {
        self.is_struct
    }

    /// Ends the map or struct (its nodes stay in the tree).
    pub(super) fn close(&mut self) {
        // A key without a value (a broken `Serialize`) is left out.
        self.drop_key();
        self.ser.tree.close(self.at, self.flags);
        if let Some(v) = self.variant {
            self.ser.tree.close(v, VARIANT);
        }
    }

    fn finish(mut self) -> Result<Done> {
        self.close();
        Ok(Done(()))
    }

    fn drop_key(&mut self) {
        if let Some((at, _)) = self.key.take() {
            self.ser.tree.truncate(at);
        }
    }

    /// Notes an entry whose key has `key_flags` and whose value is at `at`.
    #[inline]
    fn entry(&mut self, key_flags: u8, at: usize) {
        if !self.is_struct {
            self.flags = flags::ENTRIES | flags::BODY;
        } else if !matches!(self.ser.tree.node(at), Node::Null) {
            self.flags |= flags::ENTRIES;
            if key_flags & key::LABEL == 0 {
                self.flags |= flags::BODY;
            }
        }
    }

    fn field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Result<()> {
        self.drop_key();
        let f = self.ser.tree.push_key(key);
        let at = self.ser.tree.len();
        value
            .serialize(self.ser.child())
            .map_err(|e| e.prepend_key(key))?;
        self.entry(f, at);
        Ok(())
    }

    /// Serializes a map's key as the key of the next entry: its node's
    /// index and its text.
    fn push_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(usize, Text)> {
        // A second key replaces a first left without a value.
        self.drop_key();
        let tree = &mut *self.ser.tree;
        let at = tree.len();
        key.serialize(NodeSerializer {
            tree: &mut *tree,
            depth: self.ser.depth,
        })?;
        // A map key as the string HCL keys are.
        let text = match (tree.len() == at + 1, tree.node(at)) {
            (true, Node::Str(t) | Node::Number(t)) => t,
            (true, Node::Bool(b)) => tree.push_text(if b { "true" } else { "false" }),
            _ => {
                let kind = tree.kind(at);
                return Err(Error::data(format!(
                    "a map key must be a string, number or bool, not {kind}"
                )));
            }
        };
        let node = Node::Key(text, key_flags(tree.bytes(text)));
        if let Some(n) = tree.node_mut(at) {
            *n = node;
        }
        Ok((at, text))
    }

    /// Serializes the value of the entry whose key is `key`.
    fn push_value<T: Serialize + ?Sized>(&mut self, key: Text, value: &T) -> Result<()> {
        let at = self.ser.tree.len();
        value
            .serialize(self.ser.child())
            .map_err(|e| e.prepend_key(self.ser.tree.str(key)))?;
        self.entry(0, at);
        Ok(())
    }
}

impl ser::SerializeMap for MapNode<'_> {
    type Ok = Done;
    type Error = Error;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<()> {
        self.key = Some(self.push_key(key)?);
        Ok(())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        let (_, key) = self
            .key
            .take()
            .ok_or_else(|| Error::data("a map value was serialized before its key"))?;
        self.push_value(key, value)
    }
    fn serialize_entry<K: Serialize + ?Sized, V: Serialize + ?Sized>(
        &mut self,
        key: &K,
        value: &V,
    ) -> Result<()> {
        let (_, key) = self.push_key(key)?;
        self.push_value(key, value)
    }
    fn end(self) -> Result<Done> {
        self.finish()
    }
}

impl ser::SerializeStruct for MapNode<'_> {
    type Ok = Done;
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<()> {
        self.field(key, value)
    }
    fn end(self) -> Result<Done> {
        self.finish()
    }
}

impl ser::SerializeStructVariant for MapNode<'_> {
    type Ok = Done;
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<()> {
        self.field(key, value)
    }
    fn end(self) -> Result<Done> {
        self.finish()
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn int64_is_display() {
        for v in [
            0,
            1,
            -1,
            9,
            10,
            -10,
            99,
            100,
            12345,
            i64::MAX,
            i64::MIN,
            i64::MIN + 1,
        ] {
            let mut out = b"x".to_vec();
            super::int64(&mut out, v);
            assert_eq!(out, format!("x{v}").as_bytes());
        }
    }

    #[test]
    fn depth_limit_is_the_deserializers() {
        assert_eq!(super::MAX_DEPTH, crate::de::DEFAULT_MAX_DEPTH);
    }
}
