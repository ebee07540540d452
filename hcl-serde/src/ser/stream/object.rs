//! A top-level body entry whose value is a large object written as an
//! attribute (`name = { ... }`), written in pieces as it is serialized,
//! so that one large entry (a `Value` whose whole content is under one
//! key) keeps the tree as small as the entries around it do.
//!
//! The entry is an attribute once its first member is not blocks: a map
//! is written as blocks only when every member is (see `write.rs`'s
//! `count_blocks`), so the first member decides, as it does when the tree
//! is written whole. Once its members waiting pass the top-level body's
//! [`FLUSH`] and the last closes a run of aligned members (a member
//! written on several lines), the entries waiting before it are checked
//! and written (this one closes their run), then its first line, then
//! those members, their nodes and text dropped; again each time the
//! members pass it, and at the end the last ones and the closing brace.
//! An entry that never passes it is written whole with the others, as
//! before. What the text says and which error wins are those of the whole
//! tree (`tests/ser_stream.rs` compares both): a member's error while
//! writing is recorded with the body's and stops the writing; an error
//! from a `Serialize` impl stops everything, as before.
//!
//! Any other value, an entry whose name is not an identifier or a
//! label, or one met after an error, is built whole as before.

use super::{fail, State, FLUSH, OVERFLOW, WRITE};
use crate::error::{Error, Result};
use crate::ser::node::{Done, MapNode, NodeSerializer, SeqNode};
use crate::ser::tree::{key, Node};
use crate::ser::write;
use serde::ser::{self, Serialize};

/// The serializer of a top-level body entry's value: as the tree's own
/// ([`NodeSerializer`]), but a map is an [`ObjectMap`].
pub(super) struct EntrySerializer<'t, 's, 'a> {
    ser: NodeSerializer<'t>,
    st: &'s mut State<'a>,
    /// Whether the body is a struct's.
    is_struct: bool,
}

impl<'t, 's, 'a> EntrySerializer<'t, 's, 'a> {
    pub(super) fn new(
        ser: NodeSerializer<'t>,
        st: &'s mut State<'a>,
        is_struct: bool,
    ) -> EntrySerializer<'t, 's, 'a> {
        EntrySerializer { ser, st, is_struct }
    }
}

macro_rules! forward {
    ($($method:ident($($arg:ident: $ty:ty),*) -> $ret:ty;)*) => {
        $(
            fn $method(self, $($arg: $ty),*) -> Result<$ret> {
                ser::Serializer::$method(self.ser, $($arg),*)
            }
        )*
    };
}

impl<'t, 's, 'a> ser::Serializer for EntrySerializer<'t, 's, 'a> {
    type Ok = Done;
    type Error = Error;
    type SerializeSeq = SeqNode<'t>;
    type SerializeTuple = SeqNode<'t>;
    type SerializeTupleStruct = SeqNode<'t>;
    type SerializeTupleVariant = SeqNode<'t>;
    type SerializeMap = ObjectMap<'t, 's, 'a>;
    type SerializeStruct = MapNode<'t>;
    type SerializeStructVariant = MapNode<'t>;

    forward! {
        serialize_bool(v: bool) -> Done;
        serialize_i8(v: i8) -> Done;
        serialize_i16(v: i16) -> Done;
        serialize_i32(v: i32) -> Done;
        serialize_i64(v: i64) -> Done;
        serialize_i128(v: i128) -> Done;
        serialize_u8(v: u8) -> Done;
        serialize_u16(v: u16) -> Done;
        serialize_u32(v: u32) -> Done;
        serialize_u64(v: u64) -> Done;
        serialize_u128(v: u128) -> Done;
        serialize_f32(v: f32) -> Done;
        serialize_f64(v: f64) -> Done;
        serialize_char(v: char) -> Done;
        serialize_str(v: &str) -> Done;
        serialize_bytes(v: &[u8]) -> Done;
        serialize_none() -> Done;
        serialize_unit() -> Done;
        serialize_unit_struct(name: &'static str) -> Done;
        serialize_unit_variant(name: &'static str, index: u32, variant: &'static str) -> Done;
        serialize_seq(len: Option<usize>) -> SeqNode<'t>;
        serialize_tuple(len: usize) -> SeqNode<'t>;
        serialize_tuple_struct(name: &'static str, len: usize) -> SeqNode<'t>;
        serialize_tuple_variant(name: &'static str, index: u32, variant: &'static str, len: usize) -> SeqNode<'t>;
        serialize_struct(name: &'static str, len: usize) -> MapNode<'t>;
        serialize_struct_variant(name: &'static str, index: u32, variant: &'static str, len: usize) -> MapNode<'t>;
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<Done> {
        // As the tree's serializer: the value itself.
        value.serialize(self)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        value: &T,
    ) -> Result<Done> {
        ser::Serializer::serialize_newtype_struct(self.ser, name, value)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<Done> {
        ser::Serializer::serialize_newtype_variant(self.ser, name, index, variant, value)
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<ObjectMap<'t, 's, 'a>> {
        // The entry's key is the node before its value.
        let tree = self.ser.tree();
        let entry = tree.len().checked_sub(1);
        let phase = match entry.map(|k| tree.node(k)) {
            Some(Node::Key(..)) => Phase::Waiting,
            _ => Phase::Whole,
        };
        let mut map = self.ser.map(false, None)?;
        let tree = map.tree();
        let members = (tree.len(), tree.text_len());
        Ok(ObjectMap {
            map,
            st: self.st,
            is_struct: self.is_struct,
            entry: entry.unwrap_or(0),
            members,
            phase,
            key: 0,
        })
    }
}

/// Where an [`ObjectMap`] is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// Below [`FLUSH`] so far: in the tree as any value.
    Waiting,
    /// Written as it goes: its first line is written.
    Started,
    /// Built whole (blocks, small, or not written as it goes).
    Whole,
}

/// A top-level body entry's map, written in pieces once it is known to
/// be an attribute and large (see the [module](self) documentation).
pub(crate) struct ObjectMap<'t, 's, 'a> {
    map: MapNode<'t>,
    st: &'s mut State<'a>,
    is_struct: bool,
    /// The entry's key node.
    entry: usize,
    /// Where the members not written yet start: the first's key node,
    /// and the text's length before it.
    members: (usize, usize),
    phase: Phase,
    /// The key node of the member being serialized (from
    /// `serialize_key` to `serialize_value`).
    key: usize,
}

impl ObjectMap<'_, '_, '_> {
    /// After the member whose key is at `k`: once the members waiting
    /// pass [`FLUSH`] and this one closes a run, they are written.
    #[inline]
    fn member_done(&mut self, k: usize) {
        let tree = self.map.tree();
        if self.phase == Phase::Whole
            || (tree.len() - self.members.0 < FLUSH.0 && tree.text_len() - self.members.1 < FLUSH.1)
            || tree.is_inline(k + 1)
        {
            return;
        }
        self.write_members();
    }

    /// Writes the members waiting (the first time, the entries before
    /// this one and its first line, if it is an attribute) unless an error
    /// was found, and drops them.
    #[inline(never)]
    fn write_members(&mut self) {
        let members = self.members;
        let tree = self.map.tree();
        if self.phase == Phase::Waiting {
            let f = tree.key(self.entry).1;
            if f & key::IDENT == 0
                || f & key::LABEL != 0
                || !write::is_attribute_member(tree, members.0 + 1)
            {
                self.phase = Phase::Whole;
                return;
            }
            // The entries waiting before this one (it closes their run),
            // then its first line.
            self.st.check_to(tree, self.is_struct, self.entry);
            self.st.write_waiting(tree);
            if self.st.err.is_some() {
                // Nothing more is written: the entry is checked later
                // with the others.
                self.phase = Phase::Whole;
                return;
            }
            write::open_object_entry(tree, tree.key(self.entry).0, &mut self.st.last, self.st.out);
            self.phase = Phase::Started;
        }
        if tree.overflowed() {
            fail(&mut self.st.err, OVERFLOW, super::too_large());
        }
        let items = write::waiting(self.st.sc);
        if self.st.err.is_none() {
            let len = tree.len();
            let mut k = members.0;
            while k < len {
                write::push_object_member(tree, k + 1, self.st.sc);
                k = tree.end(k + 1);
            }
            tree.finish();
            if let Err(e) = write::write_object_members(tree, items, self.st.out, self.st.sc) {
                let name = tree.key(self.entry).0;
                fail(&mut self.st.err, WRITE, e.prepend_key(tree.str(name)));
            }
        }
        write::drop_waiting(self.st.sc, items);
        tree.truncate_to(members.0, members.1);
        self.st.emit();
    }
}

impl ser::SerializeMap for ObjectMap<'_, '_, '_> {
    type Ok = Done;
    type Error = Error;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<()> {
        self.key = self.map.tree().len();
        ser::SerializeMap::serialize_key(&mut self.map, key)
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        ser::SerializeMap::serialize_value(&mut self.map, value)?;
        self.member_done(self.key);
        Ok(())
    }
    fn serialize_entry<K: Serialize + ?Sized, V: Serialize + ?Sized>(
        &mut self,
        key: &K,
        value: &V,
    ) -> Result<()> {
        let k = self.map.tree().len();
        ser::SerializeMap::serialize_entry(&mut self.map, key, value)?;
        self.member_done(k);
        Ok(())
    }
    fn end(mut self) -> Result<Done> {
        if self.phase == Phase::Started {
            // The last members, then the closing brace.
            self.write_members();
            if self.st.err.is_none() {
                write::close_object_entry(self.st.out);
                self.st.emit();
            }
            self.st.streamed = true;
        }
        // Otherwise the entry is in the tree whole, as any other.
        ser::SerializeMap::end(self.map)
    }
}

#[cfg(test)]
#[allow(clippy::expect_used)]
mod tests {
    use crate::ser::SCRATCH;
    use crate::{Map, Value};

    /// A `Value` whose whole content is one top-level attribute of many
    /// multi-line members (the scaling bench's shape).
    fn one_entry(n: usize) -> Value {
        let members: Map<String, Value> = (0..n)
            .map(|i| {
                let svc = Value::from_iter([
                    ("name", Value::from(format!("service-{i}"))),
                    ("port", Value::from(8000 + i as i64)),
                    ("tags", Value::from_iter([("env", "prod"), ("id", "x")])),
                ]);
                (format!("svc{i}"), svc)
            })
            .collect();
        Value::from_iter([("unit", Value::Object(members))])
    }

    #[test]
    fn one_large_entry_keeps_the_tree_small() {
        let v = one_entry(5000);
        let text = crate::to_string(&v).expect("written");
        assert!(text.len() > 400_000, "{}", text.len());
        // The room was small enough to keep: the members were written as
        // they came (a tree of the whole entry is given back, leaving no
        // room at all).
        let kept = SCRATCH.with(|s| s.borrow().tree.held());
        assert!(
            kept.0 > 0 && kept.0 <= 2048 && kept.1 <= 32 * 1024,
            "{kept:?}"
        );
        // The text is the whole tree's.
        let mut whole = crate::Serializer::new(Vec::new());
        serde::Serialize::serialize(&v, &mut whole).expect("written whole");
        assert_eq!(text.as_bytes(), whole.into_inner().as_slice());
    }

    #[test]
    fn a_late_error_in_a_member_is_the_whole_trees() {
        let mut v = one_entry(300);
        if let Value::Object(top) = &mut v {
            if let Some(Value::Object(unit)) = top.get_mut("unit") {
                if let Some(Value::Object(svc)) = unit.get_mut("svc250") {
                    svc.insert("bad".into(), Value::unknown(crate::eval::Type::String));
                }
            }
        }
        let e = crate::to_string(&v).expect_err("an unknown value");
        assert!(e.to_string().contains("unit.svc250.bad"), "{e}");
    }
}
