//! The document editor against the reference's (`hclwrite`):
//!
//! - `../shared/conformance-edit/`: every `F.ops.json` (recursively), its
//!   edits applied to `F` through the public API (`hcl::edit`), must give
//!   exactly `F.edited`, or fail at the operation (and phase) that
//!   `F.edit.error.json` names; the operation format is the suite's
//!   README (`../shared/oracle/edit.go`).
//! - the corpus: every file that parses must print back byte for byte
//!   (lossless round trip) and, with no edit, print formatted exactly as
//!   its `F.fmt`.

use crate::edit_ops::{edit, Op};
use crate::report::{excerpt, Part};
use hcl::edit::Document;
use serde::Deserialize;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The reference's error document, as far as it is compared.
#[derive(Debug, Deserialize, PartialEq)]
struct ErrorDoc {
    phase: String,
    op: Option<usize>,
}

/// Runs the conformance-edit cases under `dir`.
pub fn run_cases(dir: &Path, filter: &str) -> std::io::Result<Part> {
    let mut part = Part::new(
        "conformance-edit: edits byte-identical to the reference's (hclwrite), or the same failing edit",
        "outcome",
    );
    let mut files = Vec::new();
    crate::walk(dir, &mut files)?;
    for ops_path in files {
        let Some(input) = ops_path
            .to_str()
            .and_then(|p| p.strip_suffix(".ops.json"))
            .map(PathBuf::from)
        else {
            continue;
        };
        let name = crate::relative_name(dir, &input);
        if !name.contains(filter) {
            continue;
        }
        let start = Instant::now();
        let (group, outcome) = match crate::guarded(|| check_case(&input, &ops_path)) {
            Ok(r) => r,
            Err(panic) => ("?", Err(panic)),
        };
        part.record(group, &name, outcome, start.elapsed());
    }
    Ok(part)
}

fn beside(path: &Path, suffix: &str) -> PathBuf {
    let mut p = path.as_os_str().to_owned();
    p.push(suffix);
    PathBuf::from(p)
}

/// Checks one case; the group is what the reference made of it.
fn check_case(input: &Path, ops_path: &Path) -> (&'static str, Result<(), String>) {
    let edited = beside(input, ".edited");
    let error = beside(input, ".edit.error.json");
    let expected: Result<Vec<u8>, ErrorDoc> = if let Ok(bytes) = std::fs::read(&edited) {
        Ok(bytes)
    } else {
        match std::fs::read(&error)
            .map_err(|e| e.to_string())
            .and_then(|b| serde_json::from_slice::<ErrorDoc>(&b).map_err(|e| e.to_string()))
        {
            Ok(doc) => Err(doc),
            Err(e) => return ("?", Err(format!("no F.edited, and F.edit.error.json: {e}"))),
        }
    };
    let group = if expected.is_ok() { "edited" } else { "error" };
    let ops: Vec<Op> = match std::fs::read(ops_path)
        .map_err(|e| e.to_string())
        .and_then(|b| serde_json::from_slice(&b).map_err(|e| e.to_string()))
    {
        Ok(ops) => ops,
        Err(e) => return (group, Err(format!("cannot read the operations: {e}"))),
    };
    let src = match std::fs::read_to_string(input) {
        Ok(s) => s,
        Err(e) => return (group, Err(format!("cannot read the input: {e}"))),
    };
    let ours = edit(&src, &ops);
    let outcome = match (expected, ours) {
        (Ok(want), Ok(got)) if want == got.as_bytes() => Ok(()),
        (Ok(want), Ok(got)) => Err(crate::fmt::first_difference(&want, got.as_bytes())),
        (Ok(_), Err((phase, op, why))) => Err(format!(
            "failed ({phase}, op {op:?}: {why}); the reference edits it"
        )),
        (Err(doc), Ok(got)) => Err(format!(
            "edited, the reference fails ({} op {:?}); ours: {}",
            doc.phase,
            doc.op,
            excerpt(&got, 80)
        )),
        (Err(doc), Err((phase, op, _))) if doc.phase == phase && doc.op == op => Ok(()),
        (Err(doc), Err((phase, op, why))) => Err(format!(
            "failed at {phase} op {op:?} ({why}), the reference at {} op {:?}",
            doc.phase, doc.op
        )),
    };
    (group, outcome)
}

/// The corpus: every file that parses prints back byte for byte, and,
/// with an `F.fmt` beside it, prints formatted as exactly that.
pub fn run_corpus(dir: &Path, filter: &str) -> std::io::Result<Part> {
    let mut part = Part::new(
        "corpus: editable document, lossless print and no-edit formatted print (F.fmt)",
        "kind",
    );
    let mut files = Vec::new();
    crate::walk(dir, &mut files)?;
    let names: BTreeSet<PathBuf> = files.iter().cloned().collect();
    let cases: Vec<(String, &'static str, PathBuf)> = files
        .iter()
        .filter_map(|path| {
            let name = crate::relative_name(dir, path);
            let kind = crate::corpus::KINDS
                .iter()
                .copied()
                .find(|k| name.ends_with(k))?;
            name.contains(filter).then(|| (name, kind, path.clone()))
        })
        .collect();
    let (mut skipped, mut with_fmt) = (0, 0);
    let outcomes = crate::in_parallel(&cases, |(_, _, path)| {
        let start = Instant::now();
        let fmt = beside(path, ".fmt");
        let r = crate::guarded(|| check_corpus_file(path, names.contains(&fmt).then_some(&fmt)));
        (r, start.elapsed())
    });
    for ((name, kind, _), result) in cases.iter().zip(outcomes) {
        let Some((r, took)) = result else {
            part.record(
                kind,
                name,
                Err("its worker thread died".to_owned()),
                Default::default(),
            );
            continue;
        };
        match r {
            Ok(Checked::Skipped) => skipped += 1,
            Ok(Checked::Done(outcome, fmt)) => {
                with_fmt += usize::from(fmt);
                part.record(kind, name, outcome, took);
            }
            Err(panic) => part.record(kind, name, Err(panic), took),
        }
    }
    part.note(format!(
        "round trip on every file that parses; no-edit formatted print compared on the {with_fmt} with an F.fmt; {skipped} files that do not parse skipped"
    ));
    Ok(part)
}

enum Checked {
    /// The file does not parse (or is not UTF-8): nothing to edit.
    Skipped,
    /// The outcome, and whether an `F.fmt` was compared.
    Done(Result<(), String>, bool),
}

fn check_corpus_file(path: &Path, fmt: Option<&PathBuf>) -> Checked {
    let Ok(src) = std::fs::read_to_string(path) else {
        return Checked::Skipped;
    };
    let Ok(doc) = Document::parse(&src) else {
        return Checked::Skipped;
    };
    let printed = doc.to_string();
    if printed != src {
        return Checked::Done(
            Err(format!(
                "round trip: {}",
                crate::fmt::first_difference(src.as_bytes(), printed.as_bytes())
            )),
            false,
        );
    }
    let Some(fmt) = fmt else {
        return Checked::Done(Ok(()), false);
    };
    let outcome = match (std::fs::read(fmt), doc.to_formatted_string()) {
        (Ok(want), Ok(got)) if want == got.as_bytes() => Ok(()),
        (Ok(want), Ok(got)) => Err(format!(
            "formatted print: {}",
            crate::fmt::first_difference(&want, got.as_bytes())
        )),
        (Err(e), _) => Err(format!("cannot read F.fmt: {e}")),
        (_, Err(e)) => Err(format!("formatted print failed: {e}")),
    };
    Checked::Done(outcome, true)
}
