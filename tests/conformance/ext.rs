//! The extensions' suite (issue #13, `../shared/conformance-ext/`, its
//! README gives the formats): `variables/` (what an expression reads),
//! `typeexpr/` (type constraints and conversion), `userfunc/` (functions
//! declared in HCL), `dynblock/` (dynamic blocks) and `merge/` (several
//! files as one body), the last two through the schema API
//! (`ext_schema.rs`).

use crate::json::Json;
use crate::report::Part;
use hcl::ext::variables::{body_variables, variables, Step, Traversal};
use hcl::{Map, Value};
use hcl_grammar::{Body, Position, Structure};
use std::path::Path;
use std::time::Instant;

/// The outcome of one case: `Err` says why it failed; `line` is the
/// reference's and our first error line, when both failed.
pub struct Outcome {
    pub result: Result<(), String>,
    pub lines: Option<(u64, usize)>,
    /// Why the case is pending (neither passed nor failed).
    pub pending: Option<String>,
    /// merge: the reference's and our first error's file, when both failed.
    pub files: Option<(Option<String>, Option<String>)>,
}

impl Outcome {
    pub fn of(result: Result<(), String>) -> Outcome {
        Outcome {
            result,
            lines: None,
            pending: None,
            files: None,
        }
    }
}

/// The reference's first diagnostic of an error document: phase, summary
/// and line.
pub struct Failure {
    pub phase: String,
    pub summary: String,
    pub line: Option<u64>,
}

/// `Some` when `doc` is an error document.
pub fn failure(doc: &Json) -> Option<Failure> {
    if doc.get("error") != Some(&Json::Bool(true)) {
        return None;
    }
    let first = doc
        .get("diagnostics")
        .and_then(Json::as_array)
        .and_then(<[Json]>::first);
    Some(Failure {
        phase: doc
            .get("phase")
            .and_then(Json::as_str)
            .unwrap_or("?")
            .to_owned(),
        summary: first
            .and_then(|d| d.get("summary"))
            .and_then(Json::as_str)
            .unwrap_or("(no summary)")
            .to_owned(),
        line: first.and_then(|d| d.get("line")).and_then(Json::as_u64),
    })
}

/// Checks every case of the suite in `dir` whose name contains `filter`.
pub fn run(dir: &Path, filter: &str) -> std::io::Result<Part> {
    let mut part = Part::new("conformance-ext: hcl's extensions", "folder");
    let mut files = Vec::new();
    crate::walk(dir, &mut files)?;
    let mut lines = (0, 0);
    let mut files_agree = (0, 0);
    for path in &files {
        let name = crate::relative_name(dir, path);
        if !name.contains(filter) {
            continue;
        }
        let folder = name.split('/').next().unwrap_or_default().to_owned();
        let kind = if name.ends_with(".refs.hclexpr") {
            Kind::RefsExpr
        } else if name.ends_with(".refs.hcl") {
            Kind::RefsBody
        } else if name.ends_with(".type.hclexpr") {
            Kind::TypeExpr
        } else if name.ends_with(".ufn.hcl") {
            Kind::UserFunc
        } else if name.ends_with(".dyn.hcl") {
            Kind::Dynblock
        } else if name.ends_with(".merge.expected.json") && folder == "merge" {
            Kind::Merge
        } else {
            continue;
        };
        let start = Instant::now();
        let outcome =
            crate::guarded(|| check(kind, path)).unwrap_or_else(|panic| Outcome::of(Err(panic)));
        if let Some(why) = outcome.pending {
            part.record_pending(&folder, &name, why, start.elapsed());
            continue;
        }
        if let Some((theirs, ours)) = &outcome.files {
            files_agree.0 += 1;
            if theirs == ours {
                files_agree.1 += 1;
            } else {
                part.detail(format!(
                    "{name}: first error in file {ours:?}, reference {theirs:?}"
                ));
            }
        }
        if let Some((theirs, ours)) = outcome.lines {
            lines.0 += 1;
            if u64::try_from(ours).ok() == Some(theirs) {
                lines.1 += 1;
            } else {
                part.detail(format!(
                    "{name}: first error on line {ours}, reference line {theirs}"
                ));
            }
        }
        part.record(&folder, &name, outcome.result, start.elapsed());
    }
    part.note(format!(
        "first error on the reference's line: {} of {} failing cases",
        lines.1, lines.0
    ));
    if let Some(note) = crate::ext_files::note() {
        part.note(note);
    }
    part.note(format!(
        "merge: first error in the reference's file: {} of {} failing cases",
        files_agree.1, files_agree.0
    ));
    Ok(part)
}

#[derive(Clone, Copy)]
enum Kind {
    RefsExpr,
    RefsBody,
    TypeExpr,
    UserFunc,
    Dynblock,
    Merge,
}

fn check(kind: Kind, path: &Path) -> Outcome {
    let expected_path = if let Kind::Merge = kind {
        path.to_path_buf()
    } else {
        let mut p = path.as_os_str().to_owned();
        p.push(".expected.json");
        std::path::PathBuf::from(p)
    };
    let expected = match std::fs::read(&expected_path)
        .map_err(|e| e.to_string())
        .and_then(|b| crate::json::parse(&b))
    {
        Ok(doc) => doc,
        Err(e) => return Outcome::of(Err(format!("cannot read {}: {e}", expected_path.display()))),
    };
    if let Kind::Merge = kind {
        return crate::ext_schema::check_merge(path, &expected);
    }
    let input = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) => return Outcome::of(Err(format!("cannot read the input: {e}"))),
    };
    match kind {
        Kind::RefsExpr | Kind::RefsBody => check_refs(kind, &input, &expected),
        Kind::TypeExpr => crate::ext_typeexpr::check(path, &input, &expected),
        Kind::UserFunc => crate::ext_userfunc::check(path, &input, &expected),
        Kind::Dynblock => crate::ext_schema::check_dynblock(path, &input, &expected),
        Kind::Merge => Outcome::of(Err("unreachable: merge cases are read above".to_owned())),
    }
}

/// Compares a failure of ours in `phase` (`Err((message, line))`) or a
/// document with the reference's.
pub fn judge(expected: &Json, ours: Result<Value, (&str, String, usize)>) -> Outcome {
    match (failure(expected), ours) {
        (None, Ok(doc)) => Outcome::of(crate::values::compare(expected, &doc)),
        (None, Err((phase, msg, line))) => Outcome::of(Err(format!(
            "reference accepts; we fail in phase {phase} at line {line}: {msg}"
        ))),
        (Some(f), Ok(_)) => Outcome::of(Err(format!(
            "reference fails in phase {} (line {:?}: {}); we accept",
            f.phase, f.line, f.summary
        ))),
        (Some(f), Err((phase, msg, line))) => Outcome {
            result: if f.phase == phase {
                Ok(())
            } else {
                Err(format!(
                    "reference fails in phase {} ({}); we fail in phase {phase}: {msg}",
                    f.phase, f.summary
                ))
            },
            lines: f.line.map(|l| (l, line)),
            pending: None,
            files: None,
        },
    }
}

pub(crate) type Phase<'a> = (&'a str, String, usize);

fn check_refs(kind: Kind, input: &[u8], expected: &Json) -> Outcome {
    let Ok(src) = std::str::from_utf8(input) else {
        return Outcome::of(Err("input is not UTF-8".to_owned()));
    };
    let ours: Result<Value, Phase<'_>> = match kind {
        Kind::RefsExpr => hcl_grammar::parse_expr(src, &Default::default())
            .map(|e| {
                let mut doc = Map::new();
                doc.insert("variables".to_owned(), traversals(&variables(&e), src));
                Value::Object(doc)
            })
            .map_err(|e| ("parse", e.message().to_owned(), e.line())),
        _ => hcl_grammar::parse_body(src, &Default::default())
            .map(|b| refs_body(&b, src))
            .map_err(|e| ("parse", e.message().to_owned(), e.line())),
    };
    judge(expected, ours)
}

/// The BODY tree with each attribute's traversals.
fn refs_body(body: &Body<'_>, src: &str) -> Value {
    let mut attributes = Map::new();
    let mut blocks = Vec::new();
    for item in &body.items {
        match item {
            Structure::Attribute(a) => {
                // One attribute at a time, through the body entry point.
                let one = Body {
                    items: vec![Structure::Attribute(a.clone())].into(),
                    span: a.span,
                };
                attributes.insert(
                    a.name.name.to_owned(),
                    traversals(&body_variables(&one), src),
                );
            }
            Structure::Block(b) => {
                let mut block = Map::new();
                block.insert("type".to_owned(), Value::from(b.ident.name));
                block.insert(
                    "labels".to_owned(),
                    b.labels.iter().map(|l| l.as_str().to_owned()).collect(),
                );
                block.insert("body".to_owned(), refs_body(&b.body, src));
                blocks.push(Value::Object(block));
            }
        }
    }
    let mut doc = Map::new();
    doc.insert("attributes".to_owned(), Value::Object(attributes));
    doc.insert("blocks".to_owned(), Value::Array(blocks));
    Value::Object(doc)
}

fn traversals(list: &[Traversal], src: &str) -> Value {
    list.iter().map(|t| traversal(t, src)).collect()
}

fn traversal(t: &Traversal, src: &str) -> Value {
    let steps: Vec<Value> = t
        .steps
        .iter()
        .map(|s| match s {
            Step::Attr(n) => Value::from_iter([("attr", Value::from(n.as_str()))]),
            Step::Index(k) => Value::from_iter([("index", k.clone())]),
        })
        .collect();
    let start = Position::of(src, t.span.start());
    let end = Position::of(src, t.span.end());
    let n = |x: usize| Value::from(x as u64);
    let mut m = Map::new();
    m.insert("root".to_owned(), Value::from(t.root.as_str()));
    m.insert("steps".to_owned(), Value::Array(steps));
    m.insert(
        "src".to_owned(),
        Value::from(src.get(t.span.range()).unwrap_or_default()),
    );
    m.insert("line".to_owned(), n(start.line));
    m.insert("column".to_owned(), n(start.column));
    m.insert("byte".to_owned(), n(start.byte));
    m.insert("end_line".to_owned(), n(end.line));
    m.insert("end_column".to_owned(), n(end.column));
    m.insert("end_byte".to_owned(), n(end.byte));
    Value::Object(m)
}
