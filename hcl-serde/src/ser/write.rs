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

use super::escape::{is_bare_key, is_identifier, push_quoted};
use super::tree::{Node, Tree};
use crate::error::{Error, Result};
use unicode_segmentation::UnicodeSegmentation;

/// Writes the value at the root of `tree` as a whole HCL file.
/// `lines` is scratch room (emptied first), kept by the caller for the
/// next document.
pub(crate) fn write_document(tree: &Tree, out: &mut String, lines: &mut Lines) -> Result<()> {
    lines.clear();
    write_top(tree, 0, out, lines)
}

/// One `key = value` line waiting to be written, with what its run's
/// alignment needs.
#[derive(Clone, Copy)]
pub(crate) struct Line {
    /// The value's index (its key is the node before it).
    value: usize,
    /// Whether the key is written quoted.
    quote: bool,
    /// Whether the value is written on one line.
    inline: bool,
    /// The key's width as written.
    width: usize,
}

/// The lines of the objects being written, innermost last: one stack for
/// the whole document, so that no object allocates its own.
pub(crate) type Lines = Vec<Line>;

/// The key of the entry whose value is at `value`.
fn key_of(tree: &Tree, value: usize) -> &str {
    match tree.node(value.saturating_sub(1)) {
        Node::Key(t) => tree.str(t),
        _ => "",
    }
}

fn write_top(tree: &Tree, i: usize, out: &mut String, lines: &mut Lines) -> Result<()> {
    match tree.node(i) {
        Node::Struct(_) => {
            if entries(tree, i)
                .any(|(k, v)| is_label_field(k) && !matches!(tree.node(v), Node::Null))
            {
                return Err(Error::data(
                    "a `$label` or `$labels` field at the top level: labels belong to blocks, and the top-level value is the file's body",
                ));
            }
            write_body(tree, i, true, 0, out, lines)
        }
        Node::Map(_) => write_body(tree, i, false, 0, out, lines),
        Node::Block(_) | Node::Attribute(_) => write_top(tree, i + 1, out, lines),
        Node::Body(text) => {
            out.push_str(tree.str(text).trim_start_matches([' ', '\t', '\n', '\r']));
            if !out.is_empty() && !out.ends_with('\n') {
                out.push('\n');
            }
            Ok(())
        }
        _ => Err(Error::data(format!(
            "the top-level value must be a struct or a map (an HCL body), not {}",
            tree.kind(i)
        ))),
    }
}

/// The entries of the map or struct at `i`: each key's text and its
/// value's index.
fn entries(tree: &Tree, i: usize) -> impl Iterator<Item = (&str, usize)> + Clone + '_ {
    tree.children(i).map(move |k| {
        let key = match tree.node(k) {
            Node::Key(t) => tree.str(t),
            _ => "",
        };
        (key, Tree::value_of(k))
    })
}

fn is_label_field(k: &str) -> bool {
    k == "$label" || k == "$labels"
}

fn is_null(tree: &Tree, i: usize) -> bool {
    matches!(tree.node(i), Node::Null)
}

/// One block, ready to write: its labels and its body.
struct BlockRef<'a> {
    labels: Vec<&'a str>,
    body: BlockBody<'a>,
}

enum BlockBody<'a> {
    /// The map or struct at this index: attributes and nested blocks;
    /// `is_struct` says whether a null entry is an absent field (skipped)
    /// or a map's null (written).
    Entries(usize, bool),
    /// A captured [`RawBody`](crate::RawBody)'s source.
    Raw(&'a str),
}

/// One entry of a body, classified.
enum Item<'a> {
    Attr(&'a str, usize),
    Blocks(&'a str, Vec<BlockRef<'a>>),
}

/// The blocks that the value at `i` writes as, or `None` when it is an
/// attribute. `forced` when the user asked for blocks (`hcl::ser::Block`).
fn as_blocks(tree: &Tree, i: usize, forced: bool) -> Result<Option<Vec<BlockRef<'_>>>> {
    Ok(match tree.node(i) {
        Node::Block(_) => {
            let blocks = as_blocks(tree, i + 1, true)?;
            if blocks.is_none() {
                return Err(Error::data(format!(
                    "{} cannot be written as a block (a block is a struct, a map, or a sequence of them)",
                    tree.kind(i + 1)
                )));
            }
            blocks
        }
        Node::Attribute(_) => None,
        Node::Struct(_) => Some(vec![struct_block(tree, i)?]),
        Node::Map(_) if forced => Some(vec![BlockRef {
            labels: Vec::new(),
            body: BlockBody::Entries(i, false),
        }]),
        Node::Body(text) => Some(vec![BlockRef {
            labels: Vec::new(),
            body: BlockBody::Raw(tree.str(text)),
        }]),
        Node::Seq(_) if forced || tree.children(i).next().is_some() => {
            let mut all = Vec::new();
            for item in tree.children(i) {
                match as_blocks(tree, item, forced)? {
                    Some(blocks) => all.extend(blocks),
                    None => return Ok(None),
                }
            }
            Some(all)
        }
        // A map whose every value is a block (or blocks): labelled blocks,
        // the key as the first label.
        Node::Map(_) if tree.children(i).next().is_some() => {
            let mut all = Vec::new();
            for (k, v) in entries(tree, i) {
                match as_blocks(tree, v, false)? {
                    Some(blocks) => all.extend(blocks.into_iter().map(|mut b| {
                        b.labels.insert(0, k);
                        b
                    })),
                    None => return Ok(None),
                }
            }
            Some(all)
        }
        _ => None,
    })
}

/// The struct at `i` as a block: its `$label` and `$labels` fields are the
/// labels.
fn struct_block(tree: &Tree, i: usize) -> Result<BlockRef<'_>> {
    let mut labels = Vec::new();
    for (k, v) in entries(tree, i) {
        match (k, tree.node(v)) {
            ("$label", Node::Str(s)) => labels.push(tree.str(s)),
            ("$labels", Node::Seq(_)) => {
                for item in tree.children(v) {
                    match tree.node(item) {
                        Node::Str(s) => labels.push(tree.str(s)),
                        _ => return Err(label_error(tree, item)),
                    }
                }
            }
            ("$label" | "$labels", Node::Null) => {}
            ("$label" | "$labels", _) => return Err(label_error(tree, v)),
            _ => {}
        }
    }
    Ok(BlockRef {
        labels,
        body: BlockBody::Entries(i, true),
    })
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
    out: &mut String,
    lines: &mut Lines,
) -> Result<()> {
    let mut items = Vec::with_capacity(8);
    for (k, v) in entries(tree, i) {
        if is_struct && (is_null(tree, v) || is_label_field(k)) {
            continue;
        }
        if !is_identifier(k) {
            return Err(Error::data(format!(
                "`{k}` cannot be an attribute or block name: HCL names are identifiers (a key like this can be written inside an object, for example a map field)"
            ))
            .prepend_key(k));
        }
        items.push(
            match as_blocks(tree, v, false).map_err(|e| e.prepend_key(k))? {
                // `Block(vec![])`: no block at all.
                Some(blocks) if blocks.is_empty() => continue,
                Some(blocks) => Item::Blocks(k, blocks),
                None => Item::Attr(k, v),
            },
        );
    }
    // Each block, and each run of attributes between blocks, is set apart
    // from the one before by a blank line.
    let mut n = 0;
    while let Some(item) = items.get(n) {
        if n > 0 {
            out.push('\n');
        }
        match item {
            Item::Blocks(name, blocks) => {
                for (b, block) in blocks.iter().enumerate() {
                    if b > 0 {
                        out.push('\n');
                    }
                    write_block(tree, name, block, indent, out, lines)
                        .map_err(|e| e.prepend_key(name))?;
                }
                n += 1;
            }
            Item::Attr(..) => {
                let start = n;
                while let Some(Item::Attr(..)) = items.get(n) {
                    n += 1;
                }
                let from = lines.len();
                for item in items.get(start..n).unwrap_or_default() {
                    if let Item::Attr(k, v) = item {
                        lines.push(line(tree, k, false, *v));
                    }
                }
                write_aligned(tree, from, indent, out, lines)?;
            }
        }
    }
    Ok(())
}

/// Writes one block at `indent`.
fn write_block(
    tree: &Tree,
    name: &str,
    block: &BlockRef<'_>,
    indent: usize,
    out: &mut String,
    lines: &mut Lines,
) -> Result<()> {
    push_spaces(out, indent);
    out.push_str(name);
    for label in &block.labels {
        out.push(' ');
        push_quoted(out, label);
    }
    match &block.body {
        BlockBody::Entries(i, is_struct) => {
            let empty = entries(tree, *i)
                .all(|(k, v)| *is_struct && (is_null(tree, v) || is_label_field(k)));
            if empty {
                out.push_str(" {}\n");
                return Ok(());
            }
            out.push_str(" {\n");
            write_body(tree, *i, *is_struct, indent + 2, out, lines)?;
        }
        BlockBody::Raw(text) => {
            let t = text.trim_matches([' ', '\t']);
            if t.trim().is_empty() {
                out.push_str(" {}\n");
                return Ok(());
            }
            if !t.contains('\n') {
                out.push_str(" { ");
                out.push_str(t.trim());
                out.push_str(" }\n");
                return Ok(());
            }
            out.push_str(" {");
            if !t.starts_with(['\n', '\r']) {
                out.push('\n');
            }
            out.push_str(t);
            if !t.ends_with('\n') {
                out.push('\n');
            }
        }
    }
    push_spaces(out, indent);
    out.push_str("}\n");
    Ok(())
}

fn push_spaces(out: &mut String, n: usize) {
    // Pieces of a known length, so that each is a store of its own and
    // not a call to `memset` (indentation is mostly 2, 4 or 6 spaces).
    let mut n = n;
    while n >= 8 {
        out.push_str("        ");
        n -= 8;
    }
    if n >= 4 {
        out.push_str("    ");
        n -= 4;
    }
    if n >= 2 {
        out.push_str("  ");
        n -= 2;
    }
    if n == 1 {
        out.push(' ');
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

/// A line of `key = value`, measured.
fn line(tree: &Tree, key: &str, quote: bool, value: usize) -> Line {
    let inline = is_inline(tree, value);
    let width = if !inline {
        // Not aligned.
        0
    } else if quote {
        let mut q = String::new();
        push_quoted(&mut q, key);
        width(&q)
    } else {
        width(key)
    };
    Line {
        value,
        quote,
        inline,
        width,
    }
}

/// Writes the lines from `from` on (then drops them) at `indent`,
/// aligning the `=` of each run of consecutive values written on one
/// line.
fn write_aligned(
    tree: &Tree,
    from: usize,
    indent: usize,
    out: &mut String,
    lines: &mut Lines,
) -> Result<()> {
    let end = lines.len();
    let mut n = from;
    while n < end {
        // The run: one-line values from here, or one multi-line value.
        let mut run_end = n;
        let mut widest = 0;
        while let Some(l) = lines.get(run_end).filter(|l| run_end < end && l.inline) {
            widest = widest.max(l.width);
            run_end += 1;
        }
        let pad = if run_end - n > 1 { widest } else { 0 };
        let run_end = run_end.max(n + 1);
        while n < run_end {
            let Some(l) = lines.get(n).copied() else {
                break;
            };
            n += 1;
            let key = key_of(tree, l.value);
            push_spaces(out, indent);
            if l.quote {
                push_quoted(out, key);
            } else {
                out.push_str(key);
            }
            if pad > 0 {
                push_spaces(out, pad.saturating_sub(l.width));
            }
            out.push_str(" = ");
            write_expr(tree, l.value, indent, out, lines).map_err(|e| {
                let mut shown = String::new();
                if l.quote {
                    push_quoted(&mut shown, key);
                } else {
                    shown.push_str(key);
                }
                e.prepend_key(shown.trim_matches('"'))
            })?;
            out.push('\n');
        }
    }
    lines.truncate(from);
    Ok(())
}

/// Whether an object's entries write nothing (`{}`): a struct's null
/// fields are left out.
fn no_entries(tree: &Tree, i: usize) -> bool {
    match tree.node(i) {
        Node::Map(_) => tree.children(i).next().is_none(),
        Node::Struct(_) => entries(tree, i).all(|(_, v)| is_null(tree, v)),
        _ => false,
    }
}

/// Whether the value at `i` is written on one line inside an array.
fn is_scalar(tree: &Tree, i: usize) -> bool {
    match tree.node(i) {
        Node::Null | Node::Bool(_) | Node::Number(_) | Node::Str(_) | Node::Key(_) => true,
        Node::Expr(e) => !tree.str(e).contains('\n'),
        Node::Seq(_) => tree.children(i).next().is_none(),
        Node::Map(_) | Node::Struct(_) => no_entries(tree, i),
        Node::Block(_) | Node::Attribute(_) => is_scalar(tree, i + 1),
        Node::Body(_) => false,
    }
}

/// Whether [`write_expr`] writes the value at `i` on one line.
fn is_inline(tree: &Tree, i: usize) -> bool {
    match tree.node(i) {
        Node::Seq(_) => tree.children(i).all(|c| is_scalar(tree, c)),
        Node::Block(_) | Node::Attribute(_) => is_inline(tree, i + 1),
        // An error when written.
        Node::Body(_) => true,
        _ => is_scalar(tree, i),
    }
}

/// Writes the value at `i` as an expression whose first line continues a
/// line at `indent` (its later lines are indented from there).
fn write_expr(
    tree: &Tree,
    i: usize,
    indent: usize,
    out: &mut String,
    lines: &mut Lines,
) -> Result<()> {
    match tree.node(i) {
        Node::Null => out.push_str("null"),
        Node::Bool(b) => out.push_str(if b { "true" } else { "false" }),
        Node::Number(n) => out.push_str(tree.str(n)),
        Node::Str(s) | Node::Key(s) => push_quoted(out, tree.str(s)),
        Node::Expr(e) => out.push_str(tree.str(e)),
        Node::Body(_) => {
            return Err(Error::data(
                "a hcl::RawBody can only be written as a block, not inside an attribute's value",
            ))
        }
        Node::Block(_) | Node::Attribute(_) => write_expr(tree, i + 1, indent, out, lines)?,
        Node::Seq(_) if tree.children(i).next().is_none() => out.push_str("[]"),
        Node::Seq(_) if is_inline(tree, i) => {
            out.push('[');
            for (n, item) in tree.children(i).enumerate() {
                if n > 0 {
                    out.push_str(", ");
                }
                write_expr(tree, item, indent, out, lines)?;
            }
            out.push(']');
        }
        Node::Seq(_) => {
            out.push_str("[\n");
            for (n, item) in tree.children(i).enumerate() {
                push_spaces(out, indent + 2);
                write_expr(tree, item, indent + 2, out, lines).map_err(|e| e.prepend_index(n))?;
                out.push_str(",\n");
            }
            push_spaces(out, indent);
            out.push(']');
        }
        node @ (Node::Map(_) | Node::Struct(_)) => {
            let skip_null = matches!(node, Node::Struct(_));
            let from = lines.len();
            for (k, v) in entries(tree, i) {
                if !(skip_null && is_null(tree, v)) {
                    lines.push(line(tree, k, !is_bare_key(k), v));
                }
            }
            if lines.len() == from {
                out.push_str("{}");
            } else {
                out.push_str("{\n");
                write_aligned(tree, from, indent + 2, out, lines)?;
                push_spaces(out, indent);
                out.push('}');
            }
        }
    }
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
