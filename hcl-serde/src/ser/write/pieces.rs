//! A body's entries checked one at a time ([`check_entry`]) and the
//! checked ones written together ([`write_items`]): a whole body at once
//! (`write_body`), or the top-level body in pieces (see `ser/stream.rs`),
//! what crosses the pieces kept by the caller ([`Last`]).

use super::{count_blocks, is_null, name_error, write_entry_blocks, write_lines, Item, Scratch};
use crate::error::{Error, Result};
use crate::ser::tree::{key, Tree};

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
