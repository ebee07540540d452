//! The real-world corpus: every file with a `F.structure.json` beside it,
//! compared with the reference's parse-only view of it.
//!
//! The view is `{"attributes": {NAME: {"expr": SRC}}, "blocks": [{"type",
//! "labels", "body"}]}` (attributes in source order) or an error document.
//! Our tree must have the same blocks (type, labels, order, recursively),
//! the same attribute names in the same order, and each attribute's
//! expression span must cover exactly SRC.

use crate::grammar;
use crate::json::{self, Json};
use crate::report::excerpt;
use hcl_grammar::Body;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The suffixes of the files the reference checked, longest first (the
/// kind of a file is its longest matching suffix).
pub const KINDS: &[&str] = &[
    ".terraform.lock.hcl",
    "terragrunt.hcl",
    ".pkrvars.hcl",
    ".tftest.hcl",
    ".nomad.hcl",
    ".pkr.hcl",
    ".tfvars",
    ".nomad",
    ".hcl",
    ".tf",
];

/// One corpus file and its reference view.
#[derive(Debug)]
pub struct CorpusFile {
    /// Path relative to the corpus folder.
    pub name: String,
    /// The file's kind (longest matching suffix of [`KINDS`]).
    pub kind: &'static str,
    path: PathBuf,
    structure: PathBuf,
}

/// Every file under `dir` with a `.structure.json` beside it, sorted.
pub fn list(dir: &Path) -> std::io::Result<Vec<CorpusFile>> {
    let mut files = Vec::new();
    crate::walk(dir, &mut files)?;
    let names: BTreeSet<PathBuf> = files.iter().cloned().collect();
    let mut out = Vec::new();
    for path in files {
        let name = crate::relative_name(dir, &path);
        let Some(kind) = KINDS.iter().copied().find(|k| name.ends_with(k)) else {
            continue;
        };
        let mut structure = path.clone().into_os_string();
        structure.push(".structure.json");
        let structure = PathBuf::from(structure);
        if names.contains(&structure) {
            out.push(CorpusFile {
                name,
                kind,
                path,
                structure,
            });
        }
    }
    Ok(out)
}

/// The files listed in `NEWER-HCL.txt`: valid in current HCL, rejected by
/// the reference. They must parse; their views are not compared.
pub fn newer_hcl(dir: &Path) -> BTreeSet<String> {
    std::fs::read_to_string(dir.join("NEWER-HCL.txt"))
        .unwrap_or_default()
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(str::to_owned)
        .collect()
}

/// Checks one file: `newer` for the files of [`newer_hcl`].
pub fn check(file: &CorpusFile, newer: bool) -> Result<(), String> {
    let bytes = std::fs::read(&file.path).map_err(|e| format!("cannot read: {e}"))?;
    let reference = std::fs::read(&file.structure)
        .map_err(|e| format!("cannot read structure view: {e}"))
        .and_then(|b| json::parse(&b).map_err(|e| format!("bad structure view: {e}")))?;
    let reference_rejects = reference.get("error") == Some(&Json::Bool(true));
    match grammar::parse_body(&bytes) {
        Err(ours) if newer => Err(format!("rejected ({ours}), but current HCL accepts it")),
        Err(ours) if !reference_rejects => {
            Err(format!("rejected ({ours}), but the reference accepts it"))
        }
        Err(_) => Ok(()),
        Ok(_) if newer => Ok(()),
        Ok(_) if reference_rejects => Err(format!(
            "accepted, but the reference rejects it: {}",
            first_diagnostic(&reference)
        )),
        Ok(body) => compare_body(&body, &bytes, &reference, &mut String::new()),
    }
}

fn first_diagnostic(doc: &Json) -> String {
    let d = doc
        .get("diagnostics")
        .and_then(Json::as_array)
        .and_then(<[Json]>::first);
    let summary = d
        .and_then(|d| d.get("summary"))
        .and_then(Json::as_str)
        .unwrap_or("(no summary)");
    match d.and_then(|d| d.get("line")).and_then(Json::as_u64) {
        Some(line) => format!("{summary} (line {line})"),
        None => summary.to_owned(),
    }
}

/// Compares `body` with the reference `view`; `path` names the enclosing
/// blocks for messages (`resource "a" "b" > lifecycle`).
fn compare_body(body: &Body<'_>, src: &[u8], view: &Json, path: &mut String) -> Result<(), String> {
    let at = |path: &str| {
        if path.is_empty() {
            "top level".to_owned()
        } else {
            format!("in {path}")
        }
    };
    let ref_attrs = view
        .get("attributes")
        .and_then(Json::as_object)
        .ok_or_else(|| format!("structure view without attributes {}", at(path)))?;
    let ref_blocks = view
        .get("blocks")
        .and_then(Json::as_array)
        .ok_or_else(|| format!("structure view without blocks {}", at(path)))?;

    let ours: Vec<_> = body.attributes().collect();
    let our_names: Vec<&str> = ours.iter().map(|a| a.name.name).collect();
    let ref_names: Vec<&str> = ref_attrs.iter().map(|(k, _)| k.as_str()).collect();
    if our_names != ref_names {
        return Err(format!(
            "attribute names differ {}: ours {our_names:?}, reference {ref_names:?}",
            at(path)
        ));
    }
    for (attr, (name, view)) in ours.iter().zip(ref_attrs) {
        let expected = view
            .get("expr")
            .and_then(Json::as_str)
            .ok_or_else(|| format!("attribute {name} {} has no \"expr\" in the view", at(path)))?;
        let span = attr.expr.span;
        let got = src.get(span.range());
        if got != Some(expected.as_bytes()) {
            let pos = position(src, span.start());
            return Err(format!(
                "attribute `{name}` {} at {pos}: expression span {span:?} covers {}, reference {}",
                at(path),
                got.map_or_else(
                    || "(not a valid range)".to_owned(),
                    |g| excerpt(&String::from_utf8_lossy(g), 60)
                ),
                excerpt(expected, 60)
            ));
        }
    }

    let blocks: Vec<_> = body.blocks().collect();
    if blocks.len() != ref_blocks.len() {
        return Err(format!(
            "{} blocks {}, reference has {}: ours {:?}",
            blocks.len(),
            at(path),
            ref_blocks.len(),
            blocks.iter().map(|b| b.ident.name).collect::<Vec<_>>()
        ));
    }
    for (i, (block, view)) in blocks.iter().zip(ref_blocks).enumerate() {
        let ref_type = view.get("type").and_then(Json::as_str).unwrap_or_default();
        let ref_labels: Vec<&str> = view
            .get("labels")
            .and_then(Json::as_array)
            .unwrap_or_default()
            .iter()
            .map(|l| l.as_str().unwrap_or_default())
            .collect();
        let our_labels: Vec<&str> = block.labels.iter().map(|l| l.as_str()).collect();
        if block.ident.name != ref_type || our_labels != ref_labels {
            return Err(format!(
                "block #{} {} at {}: ours {} {our_labels:?}, reference {ref_type} {ref_labels:?}",
                i + 1,
                at(path),
                position(src, block.span.start()),
                block.ident.name,
            ));
        }
        let ref_body = view
            .get("body")
            .ok_or_else(|| format!("block {ref_type} {} has no body in the view", at(path)))?;
        let len = path.len();
        if !path.is_empty() {
            path.push_str(" > ");
        }
        path.push_str(block.ident.name);
        for l in &our_labels {
            path.push_str(&format!(" {l:?}"));
        }
        compare_body(&block.body, src, ref_body, path)?;
        path.truncate(len);
    }
    Ok(())
}

/// `line:column` of byte offset `at` (columns count characters, as
/// [`hcl_grammar::Position`] does).
fn position(src: &[u8], at: usize) -> String {
    let before = src.get(..at).unwrap_or(src);
    let line_start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let column = before
        .get(line_start..)
        .unwrap_or_default()
        .iter()
        .filter(|&&b| (b & 0xC0) != 0x80)
        .count()
        + 1;
    format!("{line}:{column}")
}

/// Checks of the comparison itself on a hand-built tree, run before the
/// corpus: a comparison that never fails would pass every file.
pub fn self_test() -> Result<(), String> {
    use hcl_grammar::Structure;
    use hcl_grammar::{Attribute, Block, BlockLabel, Expr, ExprKind, Ident, Span, StrLit};

    let src = "a = 1\nb \"x\" {\n  c = d\n}\n";
    let ident = |name: &'static str, start: usize| Ident {
        name,
        span: Span::new(start, start + name.len()),
    };
    let attr = |name: &'static str, start: usize, kind: ExprKind<'static>, expr: Span| {
        Structure::Attribute(Attribute {
            name: ident(name, start),
            expr: Expr { kind, span: expr },
            span: Span::new(start, expr.end()),
        })
    };
    let body = Body {
        items: vec![
            attr("a", 0, ExprKind::Number("1"), Span::new(4, 5)),
            Structure::Block(Box::new(Block {
                ident: ident("b", 6),
                labels: vec![BlockLabel::String(StrLit {
                    value: "x".into(),
                    span: Span::new(8, 11),
                })]
                .into(),
                body: Body {
                    items: vec![attr(
                        "c",
                        16,
                        ExprKind::Variable(ident("d", 20)),
                        Span::new(20, 21),
                    )]
                    .into(),
                    span: Span::new(13, 22),
                },
                open_brace: Span::new(12, 13),
                close_brace: Span::new(22, 23),
                span: Span::new(6, 23),
            })),
        ]
        .into(),
        span: Span::new(0, src.len()),
    };
    let view = |text: &str| json::parse(text.as_bytes());
    let good = r#"{"attributes": {"a": {"expr": "1"}}, "blocks": [{"type": "b", "labels": ["x"],
        "body": {"attributes": {"c": {"expr": "d"}}, "blocks": []}}]}"#;
    compare_body(&body, src.as_bytes(), &view(good)?, &mut String::new())
        .map_err(|e| format!("corpus self-test: a matching view failed: {e}"))?;
    let bad = [
        ("label", good.replace(r#"["x"]"#, r#"["y"]"#)),
        ("block type", good.replace(r#""type": "b""#, r#""type": "B""#)),
        ("span", good.replace(r#""expr": "d""#, r#""expr": "d\n""#)),
        ("attribute name", good.replace(r#""c":"#, r#""e":"#)),
        ("extra block", good.replace(r#""blocks": []"#, r#""blocks": [{"type": "z", "labels": [], "body": {"attributes": {}, "blocks": []}}]"#)),
        ("extra attribute", good.replacen(r#"{"a":"#, r#"{"z": {"expr": "0"}, "a":"#, 1)),
    ];
    for (what, text) in bad {
        if compare_body(&body, src.as_bytes(), &view(&text)?, &mut String::new()).is_ok() {
            return Err(format!(
                "corpus self-test: a different {what} went unnoticed"
            ));
        }
    }
    Ok(())
}
