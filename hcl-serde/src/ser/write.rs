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

use super::escape::{is_bare_key, is_identifier, write_quoted};
use super::node::{Key, Node};
use crate::error::{Error, Result};
use std::borrow::Cow;
use unicode_segmentation::UnicodeSegmentation;

/// Writes `node` as a whole HCL file.
pub(crate) fn write_document(node: &Node, out: &mut String) -> Result<()> {
    match node {
        Node::Struct(entries) => {
            if entries
                .iter()
                .any(|(k, v)| is_label_field(k) && !matches!(v, Node::Null))
            {
                return Err(Error::data(
                    "a `$label` or `$labels` field at the top level: labels belong to blocks, and the top-level value is the file's body",
                ));
            }
            write_body(entries, true, 0, out)
        }
        Node::Map(entries) => write_body(entries, false, 0, out),
        Node::Block(inner) | Node::Attribute(inner) => write_document(inner, out),
        Node::Body(text) => {
            out.push_str(text.trim_start_matches([' ', '\t', '\n', '\r']));
            if !out.is_empty() && !out.ends_with('\n') {
                out.push('\n');
            }
            Ok(())
        }
        other => Err(Error::data(format!(
            "the top-level value must be a struct or a map (an HCL body), not {}",
            other.kind()
        ))),
    }
}

fn is_label_field(k: &str) -> bool {
    k == "$label" || k == "$labels"
}

/// One block, ready to write: its labels and its body.
struct BlockRef<'a> {
    labels: Vec<&'a str>,
    body: BlockBody<'a>,
}

enum BlockBody<'a> {
    /// Attributes and nested blocks; `is_struct` says whether a null
    /// entry is an absent field (skipped) or a map's null (written).
    Entries(&'a [(Key, Node)], bool),
    /// A captured [`RawBody`](crate::RawBody)'s source.
    Raw(&'a str),
}

/// One entry of a body, classified.
enum Item<'a> {
    Attr(&'a str, &'a Node),
    Blocks(&'a str, Vec<BlockRef<'a>>),
}

/// The blocks that `node` writes as, or `None` when it is an attribute.
/// `forced` when the user asked for blocks (`hcl::ser::Block`).
fn as_blocks<'a>(node: &'a Node, forced: bool) -> Result<Option<Vec<BlockRef<'a>>>> {
    Ok(match node {
        Node::Block(inner) => {
            let blocks = as_blocks(inner, true)?;
            if blocks.is_none() {
                return Err(Error::data(format!(
                    "{} cannot be written as a block (a block is a struct, a map, or a sequence of them)",
                    inner.kind()
                )));
            }
            blocks
        }
        Node::Attribute(_) => None,
        Node::Struct(fields) => Some(vec![struct_block(fields)?]),
        Node::Map(entries) if forced => Some(vec![BlockRef {
            labels: Vec::new(),
            body: BlockBody::Entries(entries, false),
        }]),
        Node::Body(text) => Some(vec![BlockRef {
            labels: Vec::new(),
            body: BlockBody::Raw(text),
        }]),
        Node::Seq(items) if forced || !items.is_empty() => {
            let mut all = Vec::new();
            for item in items {
                match as_blocks(item, forced)? {
                    Some(blocks) => all.extend(blocks),
                    None => return Ok(None),
                }
            }
            Some(all)
        }
        // A map whose every value is a block (or blocks): labelled blocks,
        // the key as the first label.
        Node::Map(entries) if !entries.is_empty() => {
            let mut all = Vec::new();
            for (k, v) in entries {
                match as_blocks(v, false)? {
                    Some(blocks) => all.extend(blocks.into_iter().map(|mut b| {
                        b.labels.insert(0, k.as_ref());
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

/// A struct as a block: its `$label` and `$labels` fields are the labels.
fn struct_block(fields: &[(Key, Node)]) -> Result<BlockRef<'_>> {
    let mut labels = Vec::new();
    for (k, v) in fields {
        match (k.as_ref(), v) {
            ("$label", Node::Str(s)) => labels.push(s.as_str()),
            ("$labels", Node::Seq(items)) => {
                for item in items {
                    match item {
                        Node::Str(s) => labels.push(s.as_str()),
                        other => return Err(label_error(other)),
                    }
                }
            }
            ("$label" | "$labels", Node::Null) => {}
            ("$label" | "$labels", other) => return Err(label_error(other)),
            _ => {}
        }
    }
    Ok(BlockRef {
        labels,
        body: BlockBody::Entries(fields, true),
    })
}

fn label_error(node: &Node) -> Error {
    Error::data(format!(
        "a block label must be a string (`$label`) or a sequence of strings (`$labels`), not {}",
        node.kind()
    ))
}

/// Writes a body's entries at `indent`.
fn write_body(
    entries: &[(Key, Node)],
    is_struct: bool,
    indent: usize,
    out: &mut String,
) -> Result<()> {
    let mut items = Vec::with_capacity(entries.len());
    for (k, v) in entries {
        if is_struct && (matches!(v, Node::Null) || is_label_field(k)) {
            continue;
        }
        if !is_identifier(k) {
            return Err(Error::data(format!(
                "`{k}` cannot be an attribute or block name: HCL names are identifiers (a key like this can be written inside an object, for example a map field)"
            ))
            .prepend_key(k));
        }
        items.push(match as_blocks(v, false).map_err(|e| e.prepend_key(k))? {
            // `Block(vec![])`: no block at all.
            Some(blocks) if blocks.is_empty() => continue,
            Some(blocks) => Item::Blocks(k, blocks),
            None => Item::Attr(k, v),
        });
    }
    // Each block, and each run of attributes between blocks, is set apart
    // from the one before by a blank line.
    let mut i = 0;
    while let Some(item) = items.get(i) {
        if i > 0 {
            out.push('\n');
        }
        match item {
            Item::Blocks(name, blocks) => {
                for (n, b) in blocks.iter().enumerate() {
                    if n > 0 {
                        out.push('\n');
                    }
                    write_block(name, b, indent, out).map_err(|e| e.prepend_key(name))?;
                }
                i += 1;
            }
            Item::Attr(..) => {
                let mut lines = Vec::new();
                while let Some(Item::Attr(k, v)) = items.get(i) {
                    lines.push((Cow::Borrowed(*k), *v));
                    i += 1;
                }
                write_aligned(&lines, indent, out)?;
            }
        }
    }
    Ok(())
}

/// Writes one block at `indent`.
fn write_block(name: &str, block: &BlockRef<'_>, indent: usize, out: &mut String) -> Result<()> {
    push_indent(out, indent);
    out.push_str(name);
    for label in &block.labels {
        out.push(' ');
        // Writing to a String cannot fail.
        let _ = write_quoted(out, label);
    }
    match &block.body {
        BlockBody::Entries(entries, is_struct) => {
            let empty = entries
                .iter()
                .all(|(k, v)| *is_struct && (matches!(v, Node::Null) || is_label_field(k)));
            if empty {
                out.push_str(" {}\n");
                return Ok(());
            }
            out.push_str(" {\n");
            write_body(entries, *is_struct, indent + 2, out)?;
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
    push_indent(out, indent);
    out.push_str("}\n");
    Ok(())
}

fn push_indent(out: &mut String, indent: usize) {
    push_spaces(out, indent);
}

fn push_spaces(out: &mut String, n: usize) {
    for _ in 0..n {
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

/// Writes `key = value` lines at `indent`, aligning the `=` of each run of
/// consecutive values written on one line.
fn write_aligned(lines: &[(Cow<'_, str>, &Node)], indent: usize, out: &mut String) -> Result<()> {
    let mut i = 0;
    while i < lines.len() {
        // The run: one-line values from i, or one multi-line value.
        let mut j = i;
        while lines.get(j).is_some_and(|(_, v)| is_inline(v)) {
            j += 1;
        }
        if j == i {
            j = i + 1;
        }
        let run = lines.get(i..j).unwrap_or_default();
        let pad = if run.len() > 1 {
            run.iter().map(|(k, _)| width(k)).max().unwrap_or(0)
        } else {
            0
        };
        for (k, v) in run {
            push_indent(out, indent);
            out.push_str(k);
            if pad > 0 {
                push_spaces(out, pad - width(k));
            }
            out.push_str(" = ");
            write_expr(v, indent, out).map_err(|e| e.prepend_key(k.trim_matches('"')))?;
            out.push('\n');
        }
        i = j;
    }
    Ok(())
}

/// Whether an object's entries write nothing (`{}`): a struct's null
/// fields are left out.
fn no_entries(node: &Node) -> bool {
    match node {
        Node::Map(e) => e.is_empty(),
        Node::Struct(e) => e.iter().all(|(_, v)| matches!(v, Node::Null)),
        _ => false,
    }
}

/// Whether `node` is written on one line inside an array.
fn is_scalar(node: &Node) -> bool {
    match node {
        Node::Null | Node::Bool(_) | Node::Number(_) | Node::Str(_) => true,
        Node::Expr(e) => !e.contains('\n'),
        Node::Seq(items) => items.is_empty(),
        Node::Map(_) | Node::Struct(_) => no_entries(node),
        Node::Block(n) | Node::Attribute(n) => is_scalar(n),
        Node::Body(_) => false,
    }
}

/// Whether [`write_expr`] writes `node` on one line.
fn is_inline(node: &Node) -> bool {
    match node {
        Node::Seq(items) => items.iter().all(is_scalar),
        Node::Block(n) | Node::Attribute(n) => is_inline(n),
        // An error when written.
        Node::Body(_) => true,
        other => is_scalar(other),
    }
}

/// Writes `node` as an expression whose first line continues a line at
/// `indent` (its later lines are indented from there).
fn write_expr(node: &Node, indent: usize, out: &mut String) -> Result<()> {
    match node {
        Node::Null => out.push_str("null"),
        Node::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Node::Number(n) => out.push_str(n),
        Node::Str(s) => {
            let _ = write_quoted(out, s);
        }
        Node::Expr(e) => out.push_str(e),
        Node::Body(_) => {
            return Err(Error::data(
                "a hcl::RawBody can only be written as a block, not inside an attribute's value",
            ))
        }
        Node::Block(inner) | Node::Attribute(inner) => write_expr(inner, indent, out)?,
        Node::Seq(items) if items.is_empty() => out.push_str("[]"),
        Node::Seq(items) if is_inline(node) => {
            out.push('[');
            for (n, item) in items.iter().enumerate() {
                if n > 0 {
                    out.push_str(", ");
                }
                write_expr(item, indent, out)?;
            }
            out.push(']');
        }
        Node::Seq(items) => {
            out.push_str("[\n");
            for (n, item) in items.iter().enumerate() {
                push_indent(out, indent + 2);
                write_expr(item, indent + 2, out).map_err(|e| e.prepend_index(n))?;
                out.push_str(",\n");
            }
            push_indent(out, indent);
            out.push(']');
        }
        Node::Map(entries) | Node::Struct(entries) => {
            let skip_null = matches!(node, Node::Struct(_));
            let mut lines = Vec::with_capacity(entries.len());
            for (k, v) in entries {
                if skip_null && matches!(v, Node::Null) {
                    continue;
                }
                lines.push((key_text(k), v));
            }
            if lines.is_empty() {
                out.push_str("{}");
            } else {
                out.push_str("{\n");
                write_aligned(&lines, indent + 2, out)?;
                push_indent(out, indent);
                out.push('}');
            }
        }
    }
    Ok(())
}

/// An object key as written: bare or quoted.
fn key_text(k: &str) -> Cow<'_, str> {
    if is_bare_key(k) {
        Cow::Borrowed(k)
    } else {
        let mut q = String::with_capacity(k.len() + 2);
        let _ = write_quoted(&mut q, k);
        Cow::Owned(q)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_align_by_grapheme_clusters() {
        let (one, two) = (Node::Number("1".into()), Node::Number("2".into()));
        let lines = vec![
            (Cow::Borrowed("e\u{301}"), &one),
            (Cow::Borrowed("ab"), &two),
        ];
        let mut out = String::new();
        assert!(write_aligned(&lines, 0, &mut out).is_ok());
        assert_eq!(out, "e\u{301}  = 1\nab = 2\n");
    }
}
