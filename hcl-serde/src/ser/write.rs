//! The second pass of the serializer: a [`Node`] tree into HCL text, laid
//! out as `hclwrite.Format` (`terraform fmt`) would leave it, so that
//! formatting the output changes nothing.
//!
//! The layout rules, the reference's (hclwrite/format.go):
//!
//! - two spaces of indentation per level of braces and brackets;
//! - consecutive lines of `key = value` whose value fits on its line have
//!   their `=` aligned one space after the longest key (counted in
//!   grapheme clusters); a line that opens a multi-line value, a block, a
//!   blank line or a closing brace ends the run;
//! - `[a, b]`, `{}` and `[]` spaced as here.
//!
//! Our own choices, which formatting keeps: each block is set apart by a
//! blank line from its neighbours; an array of scalars is written on one
//! line, any other array one element per line with a trailing comma; a
//! non-empty object one entry per line.

use super::escape::push_quoted;
use super::tree::{flags, key, Node, Text, Tree};
use crate::error::{Error, Result};
use unicode_segmentation::UnicodeSegmentation;

mod pieces;
pub(crate) use pieces::{
    check_entry, drop_waiting, is_label, top_label_error, write_items, Entry, Last,
};

/// Writes the value at the root of `tree` as a whole HCL file. `sc` is
/// scratch room (emptied first), kept by the caller for the next document.
pub(crate) fn write_document(tree: &Tree, out: &mut Vec<u8>, sc: &mut Scratch) -> Result<()> {
    start(sc);
    write_top(tree, 0, out, sc)
}

/// Empties `sc` for a new document.
pub(crate) fn start(sc: &mut Scratch) {
    sc.items.clear();
    sc.labels.clear();
}

/// The writer's room: one stack of entries and one of labels for the
/// whole document, so that no body, object or block allocates its own.
#[derive(Default)]
pub(crate) struct Scratch {
    /// The entries of the bodies and objects being written, innermost
    /// last.
    items: Vec<Item>,
    /// The labels (from map keys) of the blocks being written, outermost
    /// first.
    labels: Vec<Text>,
}

impl Scratch {
    /// Empty, without room yet.
    pub(crate) const fn new() -> Scratch {
        Scratch {
            items: Vec::new(),
            labels: Vec::new(),
        }
    }

    /// Whether the room held is little enough to keep for the next
    /// document.
    pub(crate) fn is_small(&self) -> bool {
        self.items.capacity() <= 512 && self.labels.capacity() <= 512
    }
}

/// One entry of a body or object waiting to be written, measured.
#[derive(Clone, Copy)]
struct Item {
    /// The value's index (its key is the node before it).
    value: usize,
    /// The key's width as written, when the value is written on one line
    /// (for its run's alignment).
    width: usize,
    /// The key.
    key: Text,
    /// Whether it is written as blocks (in a body), not as an attribute.
    blocks: bool,
    /// Whether the value is written on one line.
    inline: bool,
    /// Whether the key is written quoted.
    quote: bool,
}

impl Item {
    /// The entry whose value is at `value`: an attribute in a body, or
    /// an object's entry (`object`: its key quoted unless bare).
    #[inline]
    fn line(tree: &Tree, value: usize, object: bool) -> Item {
        let (key, f) = match tree.node(value - 1) {
            Node::Key(t, f) => (t, f),
            _ => (Text::EMPTY, 0),
        };
        let quote = object && f & (key::IDENT | key::RESERVED) != key::IDENT;
        let inline = tree.is_inline(value);
        let width = if !inline {
            // Not aligned.
            0
        } else if !quote && f & key::ASCII_IDENT != 0 {
            key.len()
        } else {
            key_width(tree.str(key), quote)
        };
        Item {
            value,
            width,
            key,
            blocks: false,
            inline,
            quote,
        }
    }

    /// The entry whose value is at `value`, written as blocks.
    fn blocks(value: usize) -> Item {
        Item {
            value,
            width: 0,
            key: Text::EMPTY,
            blocks: true,
            inline: false,
            quote: false,
        }
    }
}

fn write_top(tree: &Tree, i: usize, out: &mut Vec<u8>, sc: &mut Scratch) -> Result<()> {
    match tree.node(i) {
        Node::Struct(..) => {
            if tree.children(i).any(|k| is_label(tree, k)) {
                return Err(top_label_error());
            }
            write_body(tree, i, true, 0, out, sc)
        }
        Node::Map(..) => write_body(tree, i, false, 0, out, sc),
        Node::Block(_) | Node::Attribute(_) => write_top(tree, i + 1, out, sc),
        Node::Body(text) => {
            let text = tree.str(text).trim_start_matches([' ', '\t', '\n', '\r']);
            out.extend_from_slice(text.as_bytes());
            if out.last().is_some_and(|&b| b != b'\n') {
                out.push(b'\n');
            }
            Ok(())
        }
        _ => Err(Error::data(format!(
            "the top-level value must be a struct or a map (an HCL body), not {}",
            tree.kind(i)
        ))),
    }
}

fn is_null(tree: &Tree, i: usize) -> bool {
    matches!(tree.node(i), Node::Null)
}

/// How many blocks the value at `i` writes as, or `None` when it is an
/// attribute. `forced` when the user asked for blocks (`hcl::ser::Block`).
/// [`write_blocks`] writes them, in the same walk.
fn count_blocks(tree: &Tree, i: usize, forced: bool) -> Result<Option<usize>> {
    Ok(match tree.node(i) {
        Node::Block(_) => {
            let blocks = count_blocks(tree, i + 1, true)?;
            if blocks.is_none() {
                return Err(Error::data(format!(
                    "{} cannot be written as a block (a block is a struct, a map, or a sequence of them)",
                    tree.kind(i + 1)
                )));
            }
            blocks
        }
        Node::Attribute(_) => None,
        Node::Struct(..) => {
            struct_labels(tree, i, |_| {})?;
            Some(1)
        }
        Node::Map(..) if forced => Some(1),
        Node::Body(_) => Some(1),
        Node::Seq(end, _) if forced || end as usize > i + 1 => {
            let mut all = 0;
            for item in tree.children(i) {
                match count_blocks(tree, item, forced)? {
                    Some(n) => all += n,
                    None => return Ok(None),
                }
            }
            Some(all)
        }
        // A map whose every value is a block (or blocks): labelled blocks,
        // the key as the first label.
        Node::Map(end, _) if end as usize > i + 1 => {
            let mut all = 0;
            for k in tree.children(i) {
                match count_blocks(tree, k + 1, false)? {
                    Some(n) => all += n,
                    None => return Ok(None),
                }
            }
            Some(all)
        }
        _ => None,
    })
}

/// Calls `f` with each label of the struct at `i` as a block: its
/// `$label` and `$labels` fields.
fn struct_labels(tree: &Tree, i: usize, mut f: impl FnMut(Text)) -> Result<()> {
    for k in tree.children(i) {
        let (name, flags) = tree.key(k);
        if flags & key::LABEL == 0 {
            continue;
        }
        let v = k + 1;
        match (tree.bytes(name), tree.node(v)) {
            (b"$label", Node::Str(s)) => f(s),
            (b"$labels", Node::Seq(..)) => {
                for item in tree.children(v) {
                    match tree.node(item) {
                        Node::Str(s) => f(s),
                        _ => return Err(label_error(tree, item)),
                    }
                }
            }
            (_, Node::Null) => {}
            _ => return Err(label_error(tree, v)),
        }
    }
    Ok(())
}

fn label_error(tree: &Tree, i: usize) -> Error {
    Error::data(format!(
        "a block label must be a string (`$label`) or a sequence of strings (`$labels`), not {}",
        tree.kind(i)
    ))
}

/// Writes the entries of the map or struct at `i` as a body at `indent`.
fn write_body(
    tree: &Tree,
    i: usize,
    is_struct: bool,
    indent: usize,
    out: &mut Vec<u8>,
    sc: &mut Scratch,
) -> Result<()> {
    // Every name and block checked first, as a whole: the first error in
    // the body's order, before anything of it is written.
    let from = sc.items.len();
    for k in tree.children(i) {
        check_entry(tree, k, is_struct, sc)?;
    }
    write_items(tree, from, indent, &mut Last::Nothing, out, sc)
}

/// The error for a body entry's name that is not an identifier.
#[cold]
fn name_error(name: &str) -> Error {
    Error::data(format!(
        "`{name}` cannot be an attribute or block name: HCL names are identifiers (a key like this can be written inside an object, for example a map field)"
    ))
    .prepend_key(name)
}

/// Writes the blocks of a body entry.
fn write_entry_blocks(
    tree: &Tree,
    item: Item,
    indent: usize,
    out: &mut Vec<u8>,
    sc: &mut Scratch,
) -> Result<()> {
    let name = tree.key(item.value - 1).0;
    let mut at = Blocks {
        name,
        labels: sc.labels.len(),
        indent,
        first: true,
    };
    write_blocks(tree, &mut at, item.value, false, out, sc)
        .map_err(|e| e.prepend_key(tree.str(name)))
}

/// The blocks of one body entry being written.
struct Blocks {
    /// Their name.
    name: Text,
    /// Where their labels start on `Scratch::labels` (below: the labels of
    /// the blocks around them).
    labels: usize,
    indent: usize,
    /// Whether none is written yet.
    first: bool,
}

/// Writes the blocks of the value at `i` ([`count_blocks`] counted
/// them), each after a blank line but the first; the labels from map
/// keys around them are on `sc.labels`.
fn write_blocks(
    tree: &Tree,
    at: &mut Blocks,
    i: usize,
    forced: bool,
    out: &mut Vec<u8>,
    sc: &mut Scratch,
) -> Result<()> {
    match tree.node(i) {
        Node::Block(_) => write_blocks(tree, at, i + 1, true, out, sc),
        Node::Struct(..) => {
            let base = sc.labels.len();
            struct_labels(tree, i, |t| sc.labels.push(t))?;
            let written = write_block(tree, at, Body::Entries(i, true), out, sc);
            sc.labels.truncate(base);
            written
        }
        Node::Map(..) if forced => write_block(tree, at, Body::Entries(i, false), out, sc),
        Node::Body(text) => write_block(tree, at, Body::Raw(text), out, sc),
        Node::Seq(..) => {
            for item in tree.children(i) {
                write_blocks(tree, at, item, forced, out, sc)?;
            }
            Ok(())
        }
        Node::Map(..) => {
            for k in tree.children(i) {
                if let Node::Key(t, _) = tree.node(k) {
                    sc.labels.push(t);
                }
                let written = write_blocks(tree, at, k + 1, false, out, sc);
                sc.labels.pop();
                written?;
            }
            Ok(())
        }
        // Not a block: `count_blocks` said otherwise first.
        _ => Ok(()),
    }
}

/// A block's body: the map or struct at this index (`true` for a struct,
/// whose null entries are absent fields), or a captured
/// [`RawBody`](crate::RawBody)'s source.
#[derive(Clone, Copy)]
enum Body {
    Entries(usize, bool),
    Raw(Text),
}

/// Writes one block, with its labels from `sc.labels`.
fn write_block(
    tree: &Tree,
    at: &mut Blocks,
    body: Body,
    out: &mut Vec<u8>,
    sc: &mut Scratch,
) -> Result<()> {
    if !at.first {
        out.push(b'\n');
    }
    at.first = false;
    let indent = at.indent;
    push_spaces(out, indent);
    tree.copy_to(at.name, out);
    for &label in sc.labels.get(at.labels..).unwrap_or_default() {
        out.push(b' ');
        tree.quote_to(label, out);
    }
    match body {
        Body::Entries(i, is_struct) => {
            let f = match tree.node(i) {
                Node::Map(_, f) | Node::Struct(_, f) => f,
                _ => 0,
            };
            if f & flags::BODY == 0 {
                out.extend_from_slice(b" {}\n");
                return Ok(());
            }
            out.extend_from_slice(b" {\n");
            write_body(tree, i, is_struct, indent + 2, out, sc)?;
        }
        Body::Raw(text) => {
            let t = tree.str(text).trim_matches([' ', '\t']);
            if t.trim().is_empty() {
                out.extend_from_slice(b" {}\n");
                return Ok(());
            }
            if !t.contains('\n') {
                out.extend_from_slice(b" { ");
                out.extend_from_slice(t.trim().as_bytes());
                out.extend_from_slice(b" }\n");
                return Ok(());
            }
            out.extend_from_slice(b" {");
            if !t.starts_with(['\n', '\r']) {
                out.push(b'\n');
            }
            out.extend_from_slice(t.as_bytes());
            if !t.ends_with('\n') {
                out.push(b'\n');
            }
        }
    }
    push_spaces(out, indent);
    out.extend_from_slice(b"}\n");
    Ok(())
}

#[inline]
fn push_spaces(out: &mut Vec<u8>, n: usize) {
    // Indentation and padding are short: one block of spaces, cut back
    // (a few stores, not a call to `memset`).
    const SPACES: [u8; 32] = [b' '; 32];
    if n <= SPACES.len() {
        let end = out.len() + n;
        out.extend_from_slice(&SPACES);
        out.truncate(end);
    } else {
        out.resize(out.len() + n, b' ');
    }
}

/// The width hclwrite gives a key: grapheme clusters.
fn width(s: &str) -> usize {
    if s.is_ascii() {
        s.len()
    } else {
        s.graphemes(true).count()
    }
}

/// The width of a key as written, quoted or not (see [`width`]).
#[cold]
fn key_width(key: &str, quote: bool) -> usize {
    if quote {
        let mut q = Vec::new();
        push_quoted(&mut q, key.as_bytes());
        width(&String::from_utf8_lossy(&q))
    } else {
        width(key)
    }
}

/// Writes the entries `sc.items[from..to]` as lines of `key = value` at
/// `indent`, aligning the `=` of each run of consecutive values written
/// on one line.
fn write_lines(
    tree: &Tree,
    from: usize,
    to: usize,
    indent: usize,
    out: &mut Vec<u8>,
    sc: &mut Scratch,
) -> Result<()> {
    let mut n = from;
    while n < to {
        // The run: one-line values from here, or one multi-line value.
        let mut run_end = n;
        let mut widest = 0;
        while let Some(item) = sc.items.get(run_end).filter(|it| run_end < to && it.inline) {
            widest = widest.max(item.width);
            run_end += 1;
        }
        let aligned = run_end - n > 1;
        let run_end = run_end.max(n + 1);
        while n < run_end {
            let Some(item) = sc.items.get(n).copied() else {
                break;
            };
            n += 1;
            push_spaces(out, indent);
            if item.quote {
                tree.quote_to(item.key, out);
            } else {
                tree.copy_to(item.key, out);
            }
            if aligned {
                push_spaces(out, widest.saturating_sub(item.width));
            }
            out.extend_from_slice(b" = ");
            write_expr(tree, item.value, indent, out, sc).map_err(|e| {
                let key = tree.bytes(item.key);
                let mut shown = Vec::new();
                if item.quote {
                    push_quoted(&mut shown, key);
                } else {
                    shown.extend_from_slice(key);
                }
                e.prepend_key(String::from_utf8_lossy(&shown).trim_matches('"'))
            })?;
            out.push(b'\n');
        }
    }
    Ok(())
}

/// Writes the value at `i` as an expression whose first line continues a
/// line at `indent` (its later lines are indented from there).
fn write_expr(
    tree: &Tree,
    i: usize,
    indent: usize,
    out: &mut Vec<u8>,
    sc: &mut Scratch,
) -> Result<()> {
    // Sequences and objects in functions of their own: a scalar (most
    // values) is then written with no frame here.
    match tree.node(i) {
        Node::Null => out.extend_from_slice(b"null"),
        Node::Bool(b) => out.extend_from_slice(if b { b"true" } else { b"false" }),
        Node::Number(n) => tree.copy_to(n, out),
        Node::Str(s) | Node::Key(s, _) => tree.quote_to(s, out),
        Node::Expr(e, _) => tree.copy_to(e, out),
        Node::Body(_) => {
            return Err(Error::data(
                "a hcl::RawBody can only be written as a block, not inside an attribute's value",
            ))
        }
        Node::Block(_) | Node::Attribute(_) => return write_expr(tree, i + 1, indent, out, sc),
        Node::Seq(end, _) if end as usize == i + 1 => out.extend_from_slice(b"[]"),
        Node::Seq(_, f) => return write_seq(tree, i, f & flags::INLINE != 0, indent, out, sc),
        Node::Map(_, f) | Node::Struct(_, f) if f & flags::ENTRIES == 0 => {
            out.extend_from_slice(b"{}")
        }
        Node::Map(..) => return write_object(tree, i, false, indent, out, sc),
        Node::Struct(..) => return write_object(tree, i, true, indent, out, sc),
    }
    Ok(())
}

/// Writes the non-empty sequence at `i` (see [`write_expr`]): on one
/// line when `inline`, else one element a line.
#[inline(never)]
fn write_seq(
    tree: &Tree,
    i: usize,
    inline: bool,
    indent: usize,
    out: &mut Vec<u8>,
    sc: &mut Scratch,
) -> Result<()> {
    if inline {
        out.push(b'[');
        for (n, item) in tree.children(i).enumerate() {
            if n > 0 {
                out.extend_from_slice(b", ");
            }
            write_expr(tree, item, indent, out, sc)?;
        }
        out.push(b']');
    } else {
        out.extend_from_slice(b"[\n");
        for (n, item) in tree.children(i).enumerate() {
            push_spaces(out, indent + 2);
            write_expr(tree, item, indent + 2, out, sc).map_err(|e| e.prepend_index(n))?;
            out.extend_from_slice(b",\n");
        }
        push_spaces(out, indent);
        out.push(b']');
    }
    Ok(())
}

/// Writes the map or struct at `i`, which has entries to write (see
/// [`write_expr`]); a struct's null fields are left out.
#[inline(never)]
fn write_object(
    tree: &Tree,
    i: usize,
    is_struct: bool,
    indent: usize,
    out: &mut Vec<u8>,
    sc: &mut Scratch,
) -> Result<()> {
    let from = sc.items.len();
    for k in tree.children(i) {
        if !(is_struct && is_null(tree, k + 1)) {
            sc.items.push(Item::line(tree, k + 1, true));
        }
    }
    out.extend_from_slice(b"{\n");
    let to = sc.items.len();
    let written = write_lines(tree, from, to, indent + 2, out, sc);
    sc.items.truncate(from);
    written?;
    push_spaces(out, indent);
    out.push(b'}');
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    #[test]
    fn keys_align_by_grapheme_clusters() {
        let map = BTreeMap::from([("e\u{301}", 1), ("ab", 2)]);
        let out = crate::to_string(&BTreeMap::from([("x", map)]));
        assert_eq!(
            out.ok().as_deref(),
            Some("x = {\n  ab = 2\n  e\u{301}  = 1\n}\n")
        );
    }

    #[test]
    fn quoted_keys_align_by_their_quoted_width() {
        let map = BTreeMap::from([("a b", 1), ("c", 2)]);
        let out = crate::to_string(&BTreeMap::from([("x", map)]));
        assert_eq!(
            out.ok().as_deref(),
            Some("x = {\n  \"a b\" = 1\n  c     = 2\n}\n")
        );
    }
}
