//! The serializer's tree: the nodes of a value in one `Vec`, in pre-order
//! (a container before its children, holding the index one past its last
//! descendant), and all their text (strings, keys, number literals) in
//! one buffer. Building it costs no allocation per node, and dropping it
//! two frees.
//!
//! The text is UTF-8 (each piece is a `&str` copied whole, or ASCII), kept
//! as bytes so that the writer copies pieces without checking character
//! boundaries again; the writer's output is bytes too, checked once whole
//! by `to_string`.
//!
//! A node is 12 bytes: text offsets and node indexes are `u32`. A value
//! whose text passes 4 GiB (or whose nodes pass 2^32) does not fit: the
//! tree says so ([`Tree::overflowed`]) and the serializer reports an
//! error, never wrong output. (A top-level body's entries are written and
//! dropped as they complete, see `stream`: its tree holds a few at once.)
//!
//! What the writer asks of every node is answered while building, once:
//! whether a key is an identifier (and so written bare), whether a
//! sequence's elements are all scalars (and so written on one line),
//! whether an object writes any entry.

use super::escape::{copy_range, key_flags, push_quoted_range, SLACK};

/// A piece of the tree's text: a byte range of [`Tree::text`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Text {
    start: u32,
    end: u32,
}

impl Text {
    /// No text.
    pub(crate) const EMPTY: Text = Text { start: 0, end: 0 };

    /// Its length in bytes.
    #[inline]
    pub(crate) fn len(self) -> usize {
        self.end.saturating_sub(self.start) as usize
    }
}

/// What is known of a key (see [`key_flags`]): a bit set.
pub(crate) mod key {
    /// An HCL identifier: a valid attribute or block name.
    pub(crate) const IDENT: u8 = 1;
    /// An identifier of ASCII bytes only: its width is its length.
    pub(crate) const ASCII_IDENT: u8 = 2;
    /// `null`, `true`, `false` or `for`: an identifier that an object
    /// key must quote.
    pub(crate) const RESERVED: u8 = 4;
    /// `$label` or `$labels`: a struct field naming its block's labels.
    pub(crate) const LABEL: u8 = 8;
}

/// What is known of a container: a bit set.
pub(crate) mod flags {
    /// A sequence whose elements are all scalars (written on one line).
    pub(crate) const INLINE: u8 = 1;
    /// A map with an entry, or a struct with a field that is not null:
    /// written as an object, it is not `{}`.
    pub(crate) const ENTRIES: u8 = 2;
    /// A map with an entry, or a struct with a field that is neither null
    /// nor a label: written as a block, its body is not empty.
    pub(crate) const BODY: u8 = 4;
}

/// A serialized value, before layout. A container holds the index one
/// past its last descendant and its [`flags`]; its children follow it.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Node {
    /// `None`, `()`, a unit struct: `null`, or nothing for a struct field.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number literal, already spelled.
    Number(Text),
    /// A string (escaped when written).
    Str(Text),
    /// A [`RawExpression`](crate::RawExpression)'s source, written as it
    /// is; `true` when it spans lines.
    Expr(Text, bool),
    /// A [`RawBody`](crate::RawBody)'s source, written as a block's body.
    Body(Text),
    /// The key of a map or struct entry, with its [`key`] flags: its
    /// value is the node after it.
    Key(Text, u8),
    /// A sequence or tuple: its elements follow.
    Seq(u32, u8),
    /// A map: keys (data) and values follow.
    Map(u32, u8),
    /// A struct: keys (field names) and values follow; `$label` /
    /// `$labels` fields are a block's labels.
    Struct(u32, u8),
    /// A value the user wants written as a block (or blocks): the node
    /// after it.
    Block(u32),
    /// A value the user wants written as an attribute: the node after it.
    Attribute(u32),
}

/// The serialized value: nodes in pre-order and their text.
#[derive(Debug, Default)]
pub(crate) struct Tree {
    nodes: Vec<Node>,
    /// UTF-8: see the [module](self) documentation.
    text: Vec<u8>,
    /// Set when the text or the nodes outgrew `u32` offsets: the tree is
    /// then incomplete, and the serializer reports an error.
    overflow: bool,
}

/// The most text a tree holds: its offsets are `u32` (smaller in this
/// crate's own tests, so that they can reach it).
#[cfg(not(test))]
const MAX_TEXT: usize = u32::MAX as usize;
#[cfg(test)]
const MAX_TEXT: usize = 1 << 20;

impl Tree {
    /// The node at `i` (`Null` past the end, which callers never ask for).
    #[inline]
    pub(crate) fn node(&self, i: usize) -> Node {
        self.nodes.get(i).copied().unwrap_or(Node::Null)
    }

    /// The bytes of a piece.
    #[inline]
    pub(crate) fn bytes(&self, t: Text) -> &[u8] {
        self.text
            .get(t.start as usize..t.end as usize)
            .unwrap_or_default()
    }

    /// Appends the piece `t` to `out`.
    #[inline]
    pub(crate) fn copy_to(&self, t: Text, out: &mut Vec<u8>) {
        copy_range(out, &self.text, t.start as usize, t.end as usize);
    }

    /// Appends the piece `t` to `out`, quoted.
    #[inline]
    pub(crate) fn quote_to(&self, t: Text, out: &mut Vec<u8>) {
        push_quoted_range(out, &self.text, t.start as usize, t.end as usize);
    }

    /// Ends the text with [`SLACK`] bytes that no piece holds, so that
    /// the writer may copy a short piece as a block (see [`copy_range`]).
    pub(crate) fn finish(&mut self) {
        self.text.extend_from_slice(&[0; SLACK]);
    }

    /// The text of a piece, as a `str` (checked: for the writer's rarer
    /// paths, which need characters).
    pub(crate) fn str(&self, t: Text) -> &str {
        std::str::from_utf8(self.bytes(t)).unwrap_or_default()
    }

    /// The index one past the last node of the value at `i`.
    #[inline]
    pub(crate) fn end(&self, i: usize) -> usize {
        match self.node(i) {
            Node::Seq(end, _)
            | Node::Map(end, _)
            | Node::Struct(end, _)
            | Node::Block(end)
            | Node::Attribute(end) => end as usize,
            _ => i + 1,
        }
    }

    /// The children of the container at `i`: a sequence's elements, or
    /// the keys of a map's or struct's entries (each value is the node
    /// after its key); the wrapped value of a `Block` or `Attribute`.
    pub(crate) fn children(&self, i: usize) -> Children<'_> {
        Children {
            tree: self,
            next: i + 1,
            end: self.end(i),
        }
    }

    /// The key of the entry whose key node is at `k`: its text and
    /// [`key`] flags.
    #[inline]
    pub(crate) fn key(&self, k: usize) -> (Text, u8) {
        match self.node(k) {
            Node::Key(t, f) => (t, f),
            _ => (Text::EMPTY, 0),
        }
    }

    /// Whether the value at `i` is written on one line inside an array.
    #[inline]
    pub(crate) fn is_scalar(&self, i: usize) -> bool {
        match self.node(i) {
            Node::Null | Node::Bool(_) | Node::Number(_) | Node::Str(_) | Node::Key(..) => true,
            Node::Expr(_, lines) => !lines,
            Node::Seq(end, _) => end as usize == i + 1,
            Node::Map(_, f) | Node::Struct(_, f) => f & flags::ENTRIES == 0,
            Node::Block(_) | Node::Attribute(_) => self.is_scalar(i + 1),
            Node::Body(_) => false,
        }
    }

    /// Whether the value at `i`, as an attribute's value, is written on
    /// one line.
    #[inline]
    pub(crate) fn is_inline(&self, i: usize) -> bool {
        match self.node(i) {
            Node::Null | Node::Bool(_) | Node::Number(_) | Node::Str(_) | Node::Key(..) => true,
            Node::Expr(_, lines) => !lines,
            Node::Seq(_, f) => f & flags::INLINE != 0,
            Node::Map(_, f) | Node::Struct(_, f) => f & flags::ENTRIES == 0,
            Node::Block(_) | Node::Attribute(_) => self.is_inline(i + 1),
            // An error when written.
            Node::Body(_) => true,
        }
    }

    /// What the node at `i` is, for error messages.
    pub(crate) fn kind(&self, i: usize) -> &'static str {
        match self.node(i) {
            Node::Null => "null",
            Node::Bool(_) => "a bool",
            Node::Number(_) => "a number",
            Node::Str(_) | Node::Key(..) => "a string",
            Node::Expr(..) => "an expression",
            Node::Body(_) => "a body",
            Node::Seq(..) => "a sequence",
            Node::Map(..) => "a map",
            Node::Struct(..) => "a struct",
            Node::Block(_) | Node::Attribute(_) => self.kind(i + 1),
        }
    }

    /// Empties the tree for a new value, with room for a small one (see
    /// [`Tree::SMALL`]) without growing.
    pub(crate) fn reset(&mut self) {
        self.nodes.clear();
        self.text.clear();
        self.overflow = false;
        self.nodes.reserve(Tree::SMALL.0);
        self.text.reserve(Tree::SMALL.1);
    }

    /// The nodes and bytes of text a tree starts with room for: a small
    /// value's, so that most values never grow it.
    pub(crate) const SMALL: (usize, usize) = (64, 1024);

    /// The length of all text held.
    pub(crate) fn text_len(&self) -> usize {
        self.text.len()
    }

    /// Whether the value outgrew the tree's `u32` offsets (see the
    /// [module](self) documentation).
    pub(crate) fn overflowed(&self) -> bool {
        self.overflow
    }

    /// An empty tree, without room yet.
    pub(crate) const fn new() -> Tree {
        Tree {
            nodes: Vec::new(),
            text: Vec::new(),
            overflow: false,
        }
    }

    /// Whether the room the tree holds is little enough to keep for the
    /// next value (a large document's is given back).
    pub(crate) fn is_small(&self) -> bool {
        self.nodes.capacity() <= 2048 && self.text.capacity() <= 32 * 1024
    }

    /// How many nodes the tree holds.
    pub(super) fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Appends a node.
    #[inline]
    pub(super) fn push(&mut self, node: Node) {
        self.nodes.push(node);
    }

    /// Before a container: a large tree nearly out of room grows four
    /// times over, not twice as `Vec` would (see [`Tree::LARGE`]).
    #[inline]
    fn room(&mut self) {
        if self.nodes.capacity() >= Tree::LARGE.0
            && (self.nodes.capacity() - self.nodes.len() < 256
                || self.text.capacity() - self.text.len() < 4096)
        {
            self.grow();
        }
    }

    #[cold]
    fn grow(&mut self) {
        let (n, t) = (self.nodes.capacity(), self.text.capacity());
        if n - self.nodes.len() < 256 {
            self.nodes.reserve(3 * n);
        }
        if t - self.text.len() < 4096 {
            self.text
                .reserve(if t >= Tree::LARGE.1 { 3 * t } else { t });
        }
    }

    /// The room past which the tree grows four times over, not twice: a
    /// large value's nodes and text are then copied a third as much as
    /// they grow (each copy also touching fresh pages; growing was about
    /// a fifth of the time of a 6 MB document), for at most four times
    /// their room in address space, whose untouched pages cost nothing.
    const LARGE: (usize, usize) = (16 * 1024, 256 * 1024);

    /// The node at `i`, to change.
    pub(super) fn node_mut(&mut self, i: usize) -> Option<&mut Node> {
        self.nodes.get_mut(i)
    }

    /// Drops the nodes from `len` on and all text, keeping the room (and
    /// the overflow mark): the nodes kept hold no text.
    pub(super) fn clear_from(&mut self, len: usize) {
        self.nodes.truncate(len);
        self.text.clear();
    }

    /// Drops the nodes from `len` on.
    pub(super) fn truncate(&mut self, len: usize) {
        self.nodes.truncate(len);
    }

    /// The piece from `start` to the end of the text; an empty piece, and
    /// the tree marked overflowed, past [`MAX_TEXT`].
    #[inline]
    fn piece(&mut self, start: usize) -> Text {
        let end = self.text.len();
        if end > MAX_TEXT {
            self.overflowed_at(start);
            return Text::EMPTY;
        }
        // Both below `MAX_TEXT`, a `u32`.
        Text {
            start: start as u32,
            end: end as u32,
        }
    }

    /// Marks the tree overflowed, and drops the text from `start` on (no
    /// more is kept: the value is an error).
    #[cold]
    fn overflowed_at(&mut self, start: usize) {
        self.overflow = true;
        self.text.truncate(start);
    }

    /// Appends `s` to the text: its piece.
    #[inline]
    pub(super) fn push_text(&mut self, s: &str) -> Text {
        let start = self.text.len();
        if self.overflow {
            return Text::EMPTY;
        }
        self.text.extend_from_slice(s.as_bytes());
        self.piece(start)
    }

    /// Appends a key's node, with its [`key`] flags: the flags.
    #[inline]
    pub(super) fn push_key(&mut self, s: &str) -> u8 {
        let t = self.push_text(s);
        let f = key_flags(s.as_bytes());
        self.nodes.push(Node::Key(t, f));
        f
    }

    /// Text written by `f` into the buffer (UTF-8: a number's digits).
    pub(super) fn write_text(&mut self, f: impl FnOnce(&mut Vec<u8>)) -> Text {
        let start = self.text.len();
        if self.overflow {
            return Text::EMPTY;
        }
        f(&mut self.text);
        self.piece(start)
    }

    /// Starts a container at the next index: its end and flags are set
    /// by [`Tree::close`].
    #[inline]
    pub(super) fn open(&mut self, node: Node) -> usize {
        self.room();
        self.nodes.push(node);
        self.nodes.len() - 1
    }

    /// Sets the end (and the [`flags`], for a sequence, map or struct) of
    /// the container opened at `at`.
    #[inline]
    pub(super) fn close(&mut self, at: usize, f: u8) {
        let Ok(end) = u32::try_from(self.nodes.len()) else {
            self.overflow = true;
            return;
        };
        if let Some(n) = self.nodes.get_mut(at) {
            *n = match *n {
                Node::Seq(..) => Node::Seq(end, f),
                Node::Map(..) => Node::Map(end, f),
                Node::Struct(..) => Node::Struct(end, f),
                Node::Block(_) => Node::Block(end),
                Node::Attribute(_) => Node::Attribute(end),
                other => other,
            };
        }
    }
}

/// The children of a container (see [`Tree::children`]).
#[derive(Clone)]
pub(crate) struct Children<'a> {
    tree: &'a Tree,
    next: usize,
    end: usize,
}

impl Iterator for Children<'_> {
    type Item = usize;
    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.next >= self.end {
            return None;
        }
        let i = self.next;
        self.next = match self.tree.node(i) {
            // An entry: its key and its value.
            Node::Key(..) => self.tree.end(i + 1),
            _ => self.tree.end(i),
        };
        Some(i)
    }
}

#[cfg(test)]
mod tests {
    use super::{Node, Tree, MAX_TEXT};

    #[test]
    fn a_node_is_twelve_bytes() {
        assert_eq!(size_of::<Node>(), 12);
    }

    #[test]
    fn text_past_the_limit_marks_the_tree() {
        let mut tree = Tree::new();
        let big = "x".repeat(MAX_TEXT / 2 + 1);
        let a = tree.push_text(&big);
        assert_eq!(tree.bytes(a).len(), big.len());
        assert!(!tree.overflowed());
        let b = tree.push_text(&big);
        assert!(tree.overflowed());
        assert_eq!(tree.bytes(b), b"");
        // The text is not kept growing.
        assert_eq!(tree.text_len(), big.len());
        tree.reset();
        assert!(!tree.overflowed());
    }
}
