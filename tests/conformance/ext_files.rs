//! `conformance-ext/merge/` through the serde route as well: the files of
//! a case read with `hcl::from_files_with` into an `hcl::Value`, beside the
//! schema route of `ext_schema.rs`, against the same expected document.
//!
//! - A value document: our value must be the document's body in the shape
//!   serde reads a body (attributes; blocks grouped by type in order of
//!   first appearance, nested by label, several at one place an array),
//!   blocks in the reference's order (file order, then source order).
//! - An error document in the `parse` or `eval` phase, or a `decode` one
//!   from the merge rule itself (an attribute set in two files, "Duplicate
//!   argument"; a block where another file set the attribute, "Did you mean
//!   to define argument"): we must fail in the same category, in the same
//!   file, on the same line as the reference's first diagnostic.
//! - Other decode errors come from the case's schema (unsupported or
//!   missing names, labels, blocks where the schema has none), which serde
//!   into `Value` does not have: not applicable.

use crate::json::Json;
use hcl::schema::Sources;
use hcl::{Category, Context, Value};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Cases the serde route was checked on, and cases it did not apply to.
static CHECKED: AtomicUsize = AtomicUsize::new(0);
static NOT_APPLICABLE: AtomicUsize = AtomicUsize::new(0);

/// Counts a case that passed [`check`] (`applied`: it applied).
pub fn count(applied: bool) {
    let counter = if applied { &CHECKED } else { &NOT_APPLICABLE };
    counter.fetch_add(1, Ordering::Relaxed);
}

/// The report's line: how many merge cases the serde route agreed on.
pub fn note() -> Option<String> {
    let (checked, na) = (
        CHECKED.load(Ordering::Relaxed),
        NOT_APPLICABLE.load(Ordering::Relaxed),
    );
    (checked + na > 0).then(|| {
        format!("merge through serde (from_files_with into Value): {checked} cases agree, {na} not applicable (schema-only errors)")
    })
}

/// The serde route's verdict on one merge case: `Ok(false)` when it does
/// not apply (a schema-only error).
pub fn check(
    names: &[String],
    texts: &[String],
    expected: &Json,
    ctx: &Context,
) -> Result<bool, String> {
    let mut sources = Sources::new();
    for (n, t) in names.iter().zip(texts) {
        sources.add(n.clone(), t.clone());
    }
    let ours = hcl::from_files_with::<Value>(&sources, ctx);
    let Some(first) = first_diagnostic(expected) else {
        let v = ours.map_err(|e| format!("failed where the reference did not: {e}"))?;
        return crate::values::compare(&body_shape(expected), &v).map(|()| true);
    };
    let phase = expected.get("phase").and_then(Json::as_str).unwrap_or("?");
    let summary = first.get("summary").and_then(Json::as_str).unwrap_or("");
    let detail = first.get("detail").and_then(Json::as_str).unwrap_or("");
    let category = match phase {
        "parse" => Category::Syntax,
        "eval" => Category::Eval,
        "decode"
            if summary == "Duplicate argument"
                || detail.contains("Did you mean to define argument") =>
        {
            Category::Data
        }
        _ => return Ok(false),
    };
    let file = first.get("file").and_then(Json::as_str);
    let line = first.get("line").and_then(Json::as_u64);
    match ours {
        Ok(v) => Err(format!(
            "succeeded ({v}) where the reference failed: {summary}"
        )),
        Err(e) => {
            let got = (
                e.category(),
                e.file(),
                e.line().and_then(|l| u64::try_from(l).ok()),
            );
            if got == (category, file, line) {
                Ok(true)
            } else {
                Err(format!(
                    "failed as {got:?}, the reference as {:?} ({summary}): {e}",
                    (category, file, line)
                ))
            }
        }
    }
}

/// A block's labels (those not consumed yet) and its body in serde's shape.
type Labelled = (Vec<String>, Json);
/// Blocks grouped by a name (their type, or their next label).
type Groups = Vec<(String, Vec<Labelled>)>;

fn first_diagnostic(doc: &Json) -> Option<&Json> {
    if doc.get("error") != Some(&Json::Bool(true)) {
        return None;
    }
    doc.get("diagnostics")
        .and_then(Json::as_array)
        .and_then(<[Json]>::first)
}

/// A BODY document (`{"attributes": {...}, "blocks": [{"type", "labels",
/// "body"}]}`) in the shape serde gives a body as a `Value`.
fn body_shape(body: &Json) -> Json {
    let mut members: Vec<(String, Json)> = match body.get("attributes") {
        Some(Json::Object(attrs)) => attrs.clone(),
        _ => Vec::new(),
    };
    // Blocks grouped by type, in order of first appearance.
    let mut groups: Groups = Vec::new();
    for b in body
        .get("blocks")
        .and_then(Json::as_array)
        .unwrap_or_default()
    {
        let ty = b.get("type").and_then(Json::as_str).unwrap_or_default();
        let labels = b
            .get("labels")
            .and_then(Json::as_array)
            .unwrap_or_default()
            .iter()
            .filter_map(|l| l.as_str().map(str::to_owned))
            .collect();
        let inner = body_shape(b.get("body").unwrap_or(&Json::Null));
        match groups.iter_mut().find(|(t, _)| t == ty) {
            Some((_, list)) => list.push((labels, inner)),
            None => groups.push((ty.to_owned(), vec![(labels, inner)])),
        }
    }
    for (ty, blocks) in groups {
        members.push((ty, by_label(blocks)));
    }
    Json::Object(members)
}

/// Blocks of one type from their next label on: a map keyed by that label
/// (in order of first appearance) when they have one, else the one body or
/// an array of bodies.
fn by_label(blocks: Vec<Labelled>) -> Json {
    if blocks.iter().all(|(labels, _)| labels.is_empty()) {
        let mut bodies: Vec<Json> = blocks.into_iter().map(|(_, b)| b).collect();
        return match bodies.len() {
            1 => bodies.remove(0),
            _ => Json::Array(bodies),
        };
    }
    let mut groups: Groups = Vec::new();
    for (mut labels, body) in blocks {
        let first = if labels.is_empty() {
            String::new()
        } else {
            labels.remove(0)
        };
        match groups.iter_mut().find(|(l, _)| *l == first) {
            Some((_, list)) => list.push((labels, body)),
            None => groups.push((first, vec![(labels, body)])),
        }
    }
    Json::Object(
        groups
            .into_iter()
            .map(|(label, list)| (label, by_label(list)))
            .collect(),
    )
}
