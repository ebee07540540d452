//! The serializer's tree: the nodes of a value in one `Vec`, in pre-order
//! (a container before its children, holding the index one past its last
//! descendant), and all their text (strings, keys, number literals) in
//! one `String`. Building it costs no allocation per node, and dropping
//! it two frees.

/// A piece of the tree's text: a byte range of [`Tree::text`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Text {
    start: usize,
    end: usize,
}

/// A serialized value, before layout. A container holds the index one
/// past its last descendant; its children follow it.
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
    /// A [`RawExpression`](crate::RawExpression)'s source, written as it is.
    Expr(Text),
    /// A [`RawBody`](crate::RawBody)'s source, written as a block's body.
    Body(Text),
    /// The key of a map or struct entry: its value is the node after it.
    Key(Text),
    /// A sequence or tuple: its elements follow.
    Seq(usize),
    /// A map: keys (data) and values follow.
    Map(usize),
    /// A struct: keys (field names) and values follow; `$label` /
    /// `$labels` fields are a block's labels.
    Struct(usize),
    /// A value the user wants written as a block (or blocks): the node
    /// after it.
    Block(usize),
    /// A value the user wants written as an attribute: the node after it.
    Attribute(usize),
}

/// The serialized value: nodes in pre-order and their text.
#[derive(Debug, Default)]
pub(crate) struct Tree {
    nodes: Vec<Node>,
    text: String,
}

impl Tree {
    /// The node at `i` (`Null` past the end, which callers never ask for).
    pub(crate) fn node(&self, i: usize) -> Node {
        self.nodes.get(i).copied().unwrap_or(Node::Null)
    }

    /// The text of a piece.
    pub(crate) fn str(&self, t: Text) -> &str {
        self.text.get(t.start..t.end).unwrap_or_default()
    }

    /// The index one past the last node of the value at `i`.
    pub(crate) fn end(&self, i: usize) -> usize {
        match self.node(i) {
            Node::Seq(end)
            | Node::Map(end)
            | Node::Struct(end)
            | Node::Block(end)
            | Node::Attribute(end) => end,
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

    /// The value of the entry whose key is at `k`.
    pub(crate) fn value_of(k: usize) -> usize {
        k + 1
    }

    /// What the node at `i` is, for error messages.
    pub(crate) fn kind(&self, i: usize) -> &'static str {
        match self.node(i) {
            Node::Null => "null",
            Node::Bool(_) => "a bool",
            Node::Number(_) => "a number",
            Node::Str(_) | Node::Key(_) => "a string",
            Node::Expr(_) => "an expression",
            Node::Body(_) => "a body",
            Node::Seq(_) => "a sequence",
            Node::Map(_) => "a map",
            Node::Struct(_) => "a struct",
            Node::Block(_) | Node::Attribute(_) => self.kind(i + 1),
        }
    }

    /// Empties the tree for a new value, with room for a small one (see
    /// [`Tree::SMALL`]) without growing.
    pub(crate) fn reset(&mut self) {
        self.nodes.clear();
        self.text.clear();
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

    /// An empty tree, without room yet.
    pub(crate) const fn new() -> Tree {
        Tree {
            nodes: Vec::new(),
            text: String::new(),
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
    pub(super) fn push(&mut self, node: Node) {
        self.nodes.push(node);
    }

    /// The node at `i`, to change.
    pub(super) fn node_mut(&mut self, i: usize) -> Option<&mut Node> {
        self.nodes.get_mut(i)
    }

    /// Drops the nodes from `len` on.
    pub(super) fn truncate(&mut self, len: usize) {
        self.nodes.truncate(len);
    }

    /// Appends `s` to the text: its piece.
    pub(super) fn push_text(&mut self, s: &str) -> Text {
        let start = self.text.len();
        self.text.push_str(s);
        Text {
            start,
            end: self.text.len(),
        }
    }

    /// Text written by `f` into the buffer.
    pub(super) fn write_text(&mut self, f: impl FnOnce(&mut String)) -> Text {
        let start = self.text.len();
        f(&mut self.text);
        Text {
            start,
            end: self.text.len(),
        }
    }

    /// Starts a container at the next index: its end is set by [`Tree::close`].
    pub(super) fn open(&mut self, node: fn(usize) -> Node) -> usize {
        self.nodes.push(node(0));
        self.nodes.len() - 1
    }

    /// Sets the end of the container opened at `at`.
    pub(super) fn close(&mut self, at: usize) {
        let end = self.nodes.len();
        if let Some(n) = self.nodes.get_mut(at) {
            *n = match *n {
                Node::Seq(_) => Node::Seq(end),
                Node::Map(_) => Node::Map(end),
                Node::Struct(_) => Node::Struct(end),
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
    fn next(&mut self) -> Option<usize> {
        if self.next >= self.end {
            return None;
        }
        let i = self.next;
        self.next = match self.tree.node(i) {
            // An entry: its key and its value.
            Node::Key(_) => self.tree.end(i + 1),
            _ => self.tree.end(i),
        };
        Some(i)
    }
}
