//! The operations of `../shared/conformance-edit`'s `F.ops.json` (the
//! format of `../shared/oracle/edit.go`), applied through the public API
//! (`hcl::edit`): shared by the conformance runner and `benches/edit.rs`.

use hcl::edit::{Body, BodyExt, Document};
use serde::Deserialize;

/// One operation of an `F.ops.json` (fields as `edit.go`'s `editOp`).
#[derive(Debug, Deserialize)]
pub struct Op {
    op: String,
    #[serde(default)]
    block: Vec<Vec<String>>,
    #[serde(default)]
    name: String,
    #[serde(default)]
    value: serde_json::Value,
    #[serde(default)]
    traversal: String,
    #[serde(default)]
    expr: String,
    #[serde(default, rename = "type")]
    ty: String,
    #[serde(default)]
    labels: Vec<String>,
    #[serde(default)]
    from: Vec<String>,
    #[serde(default)]
    to: Vec<String>,
}

/// Why editing failed: the phase, the operation's index, the message.
pub type Failure = (&'static str, Option<usize>, String);

/// Parses `src`, applies `ops` and prints the result formatted.
pub fn edit(src: &str, ops: &[Op]) -> Result<String, Failure> {
    let mut doc: Document = src
        .parse()
        .map_err(|e: hcl_grammar::Error| ("parse", None, e.to_string()))?;
    for (i, op) in ops.iter().enumerate() {
        apply(doc.body_mut(), op).map_err(|why| ("edit", Some(i), why))?;
    }
    doc.to_formatted_string()
        .map_err(|e| ("print", None, e.to_string()))
}

/// The body `path` selects from `root`: each selector the first block of
/// that type with exactly those labels.
fn select<'b>(root: &'b mut Body, path: &[Vec<String>]) -> Result<&'b mut Body, String> {
    let mut body = root;
    for sel in path {
        let (ty, labels) = sel.split_first().ok_or("empty block selector")?;
        let labels: Vec<&str> = labels.iter().map(String::as_str).collect();
        body = body
            .first_matching_block_mut(ty, &labels)
            .ok_or_else(|| format!("no block {}", sel.join(" ")))?
            .body_mut();
    }
    Ok(body)
}

fn strs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

/// For an operation on the selected block itself: its parent body and
/// its selector, after checking that it exists.
fn parent_and_block<'b>(
    root: &'b mut Body,
    op: &Op,
) -> Result<(&'b mut Body, Vec<String>), String> {
    let (last, parents) = op
        .block
        .split_last()
        .ok_or_else(|| format!("{} needs a block selector", op.op))?;
    let parent = select(root, parents)?;
    let (ty, labels) = last.split_first().ok_or("empty block selector")?;
    if parent.first_matching_block(ty, &strs(labels)).is_none() {
        return Err(format!("no block {}", last.join(" ")));
    }
    Ok((parent, last.clone()))
}

fn apply(root: &mut Body, op: &Op) -> Result<(), String> {
    match op.op.as_str() {
        "remove_block" | "set_type" | "set_labels" => {
            let (parent, sel) = parent_and_block(root, op)?;
            let (ty, labels) = sel.split_first().ok_or("empty block selector")?;
            let labels = strs(labels);
            if op.op == "remove_block" {
                parent.remove_block(ty, &labels);
                return Ok(());
            }
            let block = parent
                .first_matching_block_mut(ty, &labels)
                .ok_or("no block")?;
            if op.op == "set_type" {
                block.set_type(&op.ty).map_err(|e| e.to_string())
            } else {
                block.set_labels(&strs(&op.labels));
                Ok(())
            }
        }
        _ => {
            let body = select(root, &op.block)?;
            match op.op.as_str() {
                "set_value" => body
                    .set_attribute_value(&op.name, &op.value)
                    .map(drop)
                    .map_err(|e| e.to_string()),
                "set_traversal" => body
                    .set_attribute_traversal(&op.name, &op.traversal)
                    .map(drop)
                    .map_err(|e| e.to_string()),
                "set_raw" => body
                    .set_attribute_raw(&op.name, &op.expr)
                    .map(drop)
                    .map_err(|e| e.to_string()),
                "remove_attribute" => {
                    body.remove_attribute(&op.name);
                    Ok(())
                }
                "append_block" => body
                    .append_block(&op.ty, &strs(&op.labels))
                    .map(drop)
                    .map_err(|e| e.to_string()),
                "rename_prefix" => {
                    let attr = body
                        .get_attribute_mut(&op.name)
                        .ok_or_else(|| format!("no attribute {}", op.name))?;
                    attr.expr_mut()
                        .rename_variable_prefix(&strs(&op.from), &strs(&op.to));
                    Ok(())
                }
                "append_newline" => {
                    body.append_newline();
                    Ok(())
                }
                "clear" => {
                    body.clear();
                    Ok(())
                }
                other => Err(format!("unknown op {other:?}")),
            }
        }
    }
}
