//! A body's entries checked one at a time ([`check_entry`]) and the
//! checked ones written together ([`write_items`]): a whole body at once
//! (`write_body`), or the top-level body in pieces (see `ser/stream.rs`),
//! what crosses the pieces kept by the caller ([`Last`]).

use super::{
    count_blocks, is_null, name_error, push_spaces, write_entry_blocks, write_lines, Item, Scratch,
};
use crate::error::{Error, Result};
use crate::ser::tree::{key, Text, Tree};

/// What a body wrote last: the blank lines between its entries depend
/// on it.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Last {
    /// Nothing yet.
    Nothing,
    /// An attribute.
    Line,
    /// An entry's blocks.
    Blocks,
}

/// What a body entry is, once checked (see [`check_entry`]).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Entry {
    /// Nothing is written: a null or label field of a struct, or
    /// `Block(vec![])`.
    Absent,
    /// An attribute whose value is written on one line: it may align
    /// with the attributes after it.
    Inline,
    /// Blocks, or an attribute whose value spans lines: the attributes
    /// before it align without it or anything after it.
    Closing,
}

/// Checks the body entry whose key is at `k` (a struct's when
/// `is_struct`): a name that is an identifier, blocks that are blocks.
/// Pushes it on `sc`'s entries unless absent.
pub(crate) fn check_entry(
    tree: &Tree,
    k: usize,
    is_struct: bool,
    sc: &mut Scratch,
) -> Result<Entry> {
    let (name, f) = tree.key(k);
    let v = k + 1;
    if is_struct && (is_null(tree, v) || f & key::LABEL != 0) {
        return Ok(Entry::Absent);
    }
    if f & key::IDENT == 0 {
        return Err(name_error(tree.str(name)));
    }
    Ok(
        match count_blocks(tree, v, false).map_err(|e| e.prepend_key(tree.str(name)))? {
            // `Block(vec![])`: no block at all.
            Some(0) => Entry::Absent,
            Some(_) => {
                sc.items.push(Item::blocks(v));
                Entry::Closing
            }
            None => {
                let item = Item::line(tree, v, false);
                sc.items.push(item);
                if item.inline {
                    Entry::Inline
                } else {
                    Entry::Closing
                }
            }
        },
    )
}

/// Whether the value of the struct field whose key is at `k` is a label
/// that is there (not null).
pub(crate) fn is_label(tree: &Tree, k: usize) -> bool {
    tree.key(k).1 & key::LABEL != 0 && !is_null(tree, k + 1)
}

/// The error for a label at the top level.
pub(crate) fn top_label_error() -> Error {
    Error::data(
        "a `$label` or `$labels` field at the top level: labels belong to blocks, and the top-level value is the file's body",
    )
}

/// Drops the body entries waiting on `sc` from `from` on, unwritten.
pub(crate) fn drop_waiting(sc: &mut Scratch, from: usize) {
    sc.items.truncate(from);
}

/// Writes the body entries waiting on `sc` from `from` on (each checked
/// by [`check_entry`]) at `indent`, and drops them from `sc`. Each
/// entry's blocks, and each run of attributes between blocks, is set
/// apart from what the body wrote before (`last`) by a blank line.
pub(crate) fn write_items(
    tree: &Tree,
    from: usize,
    indent: usize,
    last: &mut Last,
    out: &mut Vec<u8>,
    sc: &mut Scratch,
) -> Result<()> {
    let end = sc.items.len();
    let mut n = from;
    while n < end {
        let Some(item) = sc.items.get(n).copied() else {
            break;
        };
        if *last == Last::Blocks || (*last == Last::Line && item.blocks) {
            out.push(b'\n');
        }
        if item.blocks {
            *last = Last::Blocks;
            write_entry_blocks(tree, item, indent, out, sc)?;
            n += 1;
        } else {
            *last = Last::Line;
            let start = n;
            while n < end && sc.items.get(n).is_some_and(|it| !it.blocks) {
                n += 1;
            }
            write_lines(tree, start, n, indent, out, sc)?;
        }
    }
    sc.items.truncate(from);
    Ok(())
}

/// How many entries wait on `sc`.
pub(crate) fn waiting(sc: &Scratch) -> usize {
    sc.items.len()
}

// A top-level body entry's object written member by member
// (`ser/stream/object.rs`): the same text as `write_lines` writing the
// entry, then `write_object` its value.

/// Whether a map whose first member's value is at `v` is written as an
/// attribute (not blocks), whatever its other members: a map is blocks
/// only when every member is.
pub(crate) fn is_attribute_member(tree: &Tree, v: usize) -> bool {
    matches!(count_blocks(tree, v, false), Ok(None))
}

/// Writes the first line of the body entry `name = {`, set apart from
/// what the body wrote before (`last`) as `write_items` sets a run of
/// attributes.
pub(crate) fn open_object_entry(tree: &Tree, name: Text, last: &mut Last, out: &mut Vec<u8>) {
    if *last == Last::Blocks {
        out.push(b'\n');
    }
    *last = Last::Line;
    tree.copy_to(name, out);
    out.extend_from_slice(b" = {\n");
}

/// Puts the object member whose value is at `v` on the entries waiting:
/// whether it is written on one line (it may then align with the members
/// after it).
pub(crate) fn push_object_member(tree: &Tree, v: usize, sc: &mut Scratch) -> bool {
    let item = Item::line(tree, v, true);
    sc.items.push(item);
    item.inline
}

/// Writes the object members waiting from `from` on, one level in, and
/// drops them (see [`write_items`]).
pub(crate) fn write_object_members(
    tree: &Tree,
    from: usize,
    out: &mut Vec<u8>,
    sc: &mut Scratch,
) -> Result<()> {
    let written = write_lines(tree, from, sc.items.len(), 2, out, sc);
    sc.items.truncate(from);
    written
}

/// Writes the last line of the body entry `name = { ... }`.
pub(crate) fn close_object_entry(out: &mut Vec<u8>) {
    push_spaces(out, 0);
    out.extend_from_slice(b"}\n");
}
