//! A document written while it is serialized: the top-level body's
//! entries are written as they complete, and their nodes dropped, so that
//! the tree holds a few entries at a time (and stays in the caches, its
//! room kept between calls) whatever the document's size.
//!
//! What a body entry's layout needs of the entries around it:
//!
//! - a blank line before an entry's blocks, and before the first
//!   attribute after blocks: what the body wrote last ([`Last`]);
//! - the `=` of a run of one-line attributes aligned one space after the
//!   run's longest key: the whole run. A run ends at an entry written as
//!   blocks or as a multi-line attribute ([`Entry::Closing`]), so entries
//!   are written only after such an entry (or at the body's end), never
//!   in the middle of a run.
//!
//! Errors are those of building the whole tree first, then writing it:
//! an error from a `Serialize` impl wins (it stops everything); then a
//! value too large for the tree; then a `$label` field of a top-level
//! struct; then the first entry, in order, whose name or blocks are
//! wrong; then the first error while writing. Once any is found nothing
//! more is written, but the rest of the value is still serialized and
//! checked, for an error that wins over it.
//!
//! Any other top-level value (a sequence, a `Block` wrapper, a raw body)
//! is built whole and written after, as [`Serializer`](super::Serializer)
//! does.

use super::node::{self, Done, MapNode, NodeSerializer, SeqNode};
use super::tree::Tree;
use super::wrap::{ATTRIBUTE_NAME, BLOCK_NAME};
use super::write::{self, Entry, Last, Scratch};
use super::{too_large, BODY_NAME, EXPRESSION_NAME, NUMBER_NAME};
use crate::error::{Error, Result};
use serde::ser::{self, Serialize};

/// What [`serialize`] did with the value.
pub(crate) enum Top {
    /// Its nodes are in the tree, to write whole.
    Whole,
    /// It is written.
    Written,
}

/// Serializes `value` into `tree` (emptied first), or, for a body,
/// writes it into `out` as it goes (`sc`: the writer's room).
pub(crate) fn serialize<T: Serialize + ?Sized>(
    value: &T,
    tree: &mut Tree,
    sc: &mut Scratch,
    out: &mut Vec<u8>,
) -> Result<Top> {
    tree.reset();
    value.serialize(TopSerializer {
        tree,
        sc,
        out,
        depth: 0,
    })
}

/// The entries waiting in the tree are written once they hold this many
/// nodes or bytes of text (at the end of a run): a small value is written
/// in one piece, as when the tree was built whole, and a large one's
/// tree stays within the room kept between calls ([`Tree::is_small`]).
#[cfg(not(fuzzing))]
const FLUSH: (usize, usize) = (1024, 16 * 1024);
/// Under `cfg(fuzzing)`: small, so that the fuzz targets' small values
/// are written in pieces too.
#[cfg(fuzzing)]
const FLUSH: (usize, usize) = (4, 32);

/// How much an error wins over others (lower wins; the first of a rank
/// wins over later ones).
const OVERFLOW: u8 = 1;
const LABEL: u8 = 2;
const CHECK: u8 = 3;
const WRITE: u8 = 4;

/// The serializer of the top-level value.
struct TopSerializer<'a> {
    tree: &'a mut Tree,
    sc: &'a mut Scratch,
    out: &'a mut Vec<u8>,
    depth: usize,
}

impl<'a> TopSerializer<'a> {
    /// The value built whole, as any other.
    fn node(self) -> NodeSerializer<'a> {
        NodeSerializer::at_depth(self.tree, self.depth)
    }

    fn body(self, is_struct: bool) -> Result<TopBody<'a>> {
        let map = NodeSerializer::at_depth(self.tree, self.depth).map(is_struct, None)?;
        let mut body = TopBody {
            map,
            sc: self.sc,
            out: self.out,
            base: 0,
            next: 0,
            last: Last::Nothing,
            err: None,
            checked: false,
        };
        body.base = body.map.tree().len();
        body.next = body.base;
        Ok(body)
    }
}

fn whole(done: Result<Done>) -> Result<Top> {
    done.map(|_| Top::Whole)
}

macro_rules! scalars {
    ($($method:ident($($arg:ident: $ty:ty),*);)*) => {
        $(
            fn $method(self, $($arg: $ty),*) -> Result<Top> {
                whole(ser::Serializer::$method(self.node(), $($arg),*))
            }
        )*
    };
}

impl<'a> ser::Serializer for TopSerializer<'a> {
    type Ok = Top;
    type Error = Error;
    type SerializeSeq = Whole<SeqNode<'a>>;
    type SerializeTuple = Whole<SeqNode<'a>>;
    type SerializeTupleStruct = Whole<SeqNode<'a>>;
    type SerializeTupleVariant = Whole<SeqNode<'a>>;
    type SerializeMap = TopBody<'a>;
    type SerializeStruct = TopBody<'a>;
    type SerializeStructVariant = Whole<MapNode<'a>>;

    scalars! {
        serialize_bool(v: bool);
        serialize_i8(v: i8);
        serialize_i16(v: i16);
        serialize_i32(v: i32);
        serialize_i64(v: i64);
        serialize_i128(v: i128);
        serialize_u8(v: u8);
        serialize_u16(v: u16);
        serialize_u32(v: u32);
        serialize_u64(v: u64);
        serialize_u128(v: u128);
        serialize_f32(v: f32);
        serialize_f64(v: f64);
        serialize_char(v: char);
        serialize_str(v: &str);
        serialize_bytes(v: &[u8]);
        serialize_none();
        serialize_unit();
        serialize_unit_struct(name: &'static str);
        serialize_unit_variant(name: &'static str, index: u32, variant: &'static str);
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<Top> {
        value.serialize(self)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        value: &T,
    ) -> Result<Top> {
        if [
            NUMBER_NAME,
            BLOCK_NAME,
            ATTRIBUTE_NAME,
            EXPRESSION_NAME,
            BODY_NAME,
        ]
        .contains(&name)
        {
            return whole(ser::Serializer::serialize_newtype_struct(
                self.node(),
                name,
                value,
            ));
        }
        // A plain newtype: its content, one level down.
        let depth = node::deeper(self.depth)?;
        value.serialize(TopSerializer { depth, ..self })
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<Top> {
        whole(ser::Serializer::serialize_newtype_variant(
            self.node(),
            name,
            index,
            variant,
            value,
        ))
    }
    fn serialize_seq(self, len: Option<usize>) -> Result<Self::SerializeSeq> {
        ser::Serializer::serialize_seq(self.node(), len).map(Whole)
    }
    fn serialize_tuple(self, len: usize) -> Result<Self::SerializeTuple> {
        ser::Serializer::serialize_tuple(self.node(), len).map(Whole)
    }
    fn serialize_tuple_struct(
        self,
        name: &'static str,
        len: usize,
    ) -> Result<Self::SerializeTupleStruct> {
        ser::Serializer::serialize_tuple_struct(self.node(), name, len).map(Whole)
    }
    fn serialize_tuple_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Self::SerializeTupleVariant> {
        ser::Serializer::serialize_tuple_variant(self.node(), name, index, variant, len).map(Whole)
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<TopBody<'a>> {
        self.body(false)
    }
    fn serialize_struct(self, _name: &'static str, _len: usize) -> Result<TopBody<'a>> {
        self.body(true)
    }
    fn serialize_struct_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Self::SerializeStructVariant> {
        ser::Serializer::serialize_struct_variant(self.node(), name, index, variant, len).map(Whole)
    }
}

/// A top-level compound built whole (see [`Top::Whole`]).
pub(crate) struct Whole<T>(T);

macro_rules! whole_compound {
    ($trait:ident, $method:ident $(, $key:ident : $kty:ty)?) => {
        impl<T: ser::$trait<Ok = Done, Error = Error>> ser::$trait for Whole<T> {
            type Ok = Top;
            type Error = Error;
            fn $method<V: Serialize + ?Sized>(&mut self, $($key: $kty,)? value: &V) -> Result<()> {
                self.0.$method($($key,)? value)
            }
            fn end(self) -> Result<Top> {
                whole(self.0.end())
            }
        }
    };
}

whole_compound!(SerializeSeq, serialize_element);
whole_compound!(SerializeTuple, serialize_element);
whole_compound!(SerializeTupleStruct, serialize_field);
whole_compound!(SerializeTupleVariant, serialize_field);
whole_compound!(SerializeStructVariant, serialize_field, key: &'static str);

/// The top-level map or struct: the file's body, written as it goes.
pub(crate) struct TopBody<'a> {
    map: MapNode<'a>,
    sc: &'a mut Scratch,
    out: &'a mut Vec<u8>,
    /// The index of the body's first entry (past the body's own node).
    base: usize,
    /// The index of the first entry not yet checked.
    next: usize,
    /// What the body wrote last.
    last: Last,
    /// The error that wins so far, with its rank.
    err: Option<(u8, Error)>,
    /// Whether any entry was checked (the body then is not written
    /// whole).
    checked: bool,
}

impl TopBody<'_> {
    /// After an entry: once the entries waiting pass [`FLUSH`], they are
    /// checked, and written when the last closes a run.
    #[inline]
    fn entry_done(&mut self) {
        let tree = self.map.tree();
        if tree.len().saturating_sub(self.base) >= FLUSH.0 || tree.text_len() >= FLUSH.1 {
            self.check_waiting(false);
        }
    }

    /// Checks the entries not checked yet, and writes the waiting ones
    /// when they may be (`end`: the body is complete).
    #[inline(never)]
    fn check_waiting(&mut self, end: bool) {
        if !self.checked {
            write::start(self.sc);
            self.checked = true;
        }
        let is_struct = self.map.is_struct();
        let tree = self.map.tree();
        let len = tree.len();
        let mut closing = false;
        let mut k = self.next;
        while k < len {
            closing = check(tree, k, is_struct, self.sc, &mut self.err);
            k = tree.end(k + 1);
        }
        self.next = len;
        if !(end || closing || self.err.is_some()) {
            return;
        }
        if tree.overflowed() {
            fail(&mut self.err, OVERFLOW, too_large());
        }
        if self.err.is_none() {
            // Room for the text the tree holds, plus per node its quotes,
            // ` = `, line break and indentation: a dozen bytes each, so
            // that the output seldom grows.
            let room = tree
                .text_len()
                .saturating_add(len.saturating_mul(12))
                .saturating_add(64);
            if self.out.capacity() == 0 {
                *self.out = Vec::with_capacity(room);
            } else {
                self.out.reserve(room);
            }
            tree.finish();
            if let Err(e) = write::write_items(tree, 0, 0, &mut self.last, self.out, self.sc) {
                fail(&mut self.err, WRITE, e);
            }
        }
        write::drop_waiting(self.sc, 0);
        tree.clear_from(self.base);
        self.next = self.base;
    }

    fn end_body(mut self) -> Result<Top> {
        self.map.close();
        if !self.checked {
            // Below `FLUSH` all along: the body is written whole, as any
            // other value (the same checks and layout, in one pass).
            return Ok(Top::Whole);
        }
        self.check_waiting(true);
        match self.err {
            Some((_, e)) => Err(e),
            None => Ok(Top::Written),
        }
    }
}

/// Records `e`, of rank `rank`, unless an error of the same or a lower
/// rank is there.
fn fail(err: &mut Option<(u8, Error)>, rank: u8, e: Error) {
    if err.as_ref().is_none_or(|(r, _)| rank < *r) {
        *err = Some((rank, e));
    }
}

/// Checks the entry whose key is at `k` and puts it on the entries
/// waiting to be written (unless an error was found before it, when
/// only an error that wins over that one is looked for): whether it
/// closes a run of attributes (see the [module](self) documentation).
fn check(
    tree: &Tree,
    k: usize,
    is_struct: bool,
    sc: &mut Scratch,
    err: &mut Option<(u8, Error)>,
) -> bool {
    if err.is_none() && !(is_struct && write::is_label(tree, k)) {
        return match write::check_entry(tree, k, is_struct, sc) {
            Ok(entry) => entry == Entry::Closing,
            Err(e) => {
                *err = Some((CHECK, e));
                false
            }
        };
    }
    let rank = |err: &Option<(u8, Error)>| err.as_ref().map_or(u8::MAX, |(r, _)| *r);
    if is_struct && rank(err) > LABEL && write::is_label(tree, k) {
        fail(err, LABEL, write::top_label_error());
    }
    if rank(err) <= CHECK {
        return false;
    }
    match write::check_entry(tree, k, is_struct, sc) {
        Ok(entry) => entry == Entry::Closing,
        Err(e) => {
            fail(err, CHECK, e);
            false
        }
    }
}

impl ser::SerializeMap for TopBody<'_> {
    type Ok = Top;
    type Error = Error;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<()> {
        ser::SerializeMap::serialize_key(&mut self.map, key)
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        ser::SerializeMap::serialize_value(&mut self.map, value)?;
        self.entry_done();
        Ok(())
    }
    fn serialize_entry<K: Serialize + ?Sized, V: Serialize + ?Sized>(
        &mut self,
        key: &K,
        value: &V,
    ) -> Result<()> {
        ser::SerializeMap::serialize_entry(&mut self.map, key, value)?;
        self.entry_done();
        Ok(())
    }
    fn end(self) -> Result<Top> {
        self.end_body()
    }
}

impl ser::SerializeStruct for TopBody<'_> {
    type Ok = Top;
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<()> {
        ser::SerializeStruct::serialize_field(&mut self.map, key, value)?;
        self.entry_done();
        Ok(())
    }
    fn end(self) -> Result<Top> {
        self.end_body()
    }
}
