//! Every corpus file the reference accepts deserializes, without a
//! context, into a Terraform-like struct whose attribute values are
//! `hcl::RawExpression` (free-form block bodies are `hcl::RawBody`); every file
//! it rejects fails with a syntax error. The captured source text of each
//! `locals` and `output` attribute must equal the reference's
//! (`F.structure.json`, `expr.Range()` of hclsyntax).
//!
//! Folder: `HCL_CORPUS_DIR`, default `../shared/corpus` beside the
//! workspace; skipped with a message when absent.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use hcl::{RawBody, RawExpression};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

#[derive(Deserialize)]
#[allow(dead_code)]
struct Terraform {
    #[serde(default)]
    variable: BTreeMap<String, Vec<Variable>>,
    #[serde(default)]
    locals: Vec<BTreeMap<String, RawExpression>>,
    #[serde(default)]
    resource: BTreeMap<String, BTreeMap<String, Vec<RawBody>>>,
    #[serde(default)]
    data: BTreeMap<String, BTreeMap<String, Vec<RawBody>>>,
    #[serde(default)]
    module: BTreeMap<String, Vec<RawBody>>,
    #[serde(default)]
    output: BTreeMap<String, Vec<Output>>,
    #[serde(default)]
    provider: BTreeMap<String, Vec<RawBody>>,
    #[serde(default)]
    terraform: Vec<RawBody>,
}

#[derive(Deserialize)]
#[allow(dead_code)]
struct Variable {
    #[serde(rename = "type")]
    ty: Option<RawExpression>,
    default: Option<RawExpression>,
    description: Option<RawExpression>,
    sensitive: Option<RawExpression>,
    nullable: Option<RawExpression>,
    #[serde(default)]
    validation: Vec<Condition>,
}

#[derive(Deserialize)]
#[allow(dead_code)]
struct Condition {
    condition: RawExpression,
    error_message: RawExpression,
}

#[derive(Deserialize)]
#[allow(dead_code)]
struct Output {
    value: Option<RawExpression>,
    description: Option<RawExpression>,
    sensitive: Option<RawExpression>,
    depends_on: Option<RawExpression>,
    #[serde(default)]
    precondition: Vec<Condition>,
}

fn corpus_dir() -> Option<PathBuf> {
    let dir = match std::env::var_os("HCL_CORPUS_DIR") {
        Some(d) => PathBuf::from(d),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus"),
    };
    if dir.join("MANIFEST.tsv").is_file() {
        Some(dir)
    } else {
        hcl_test_support::not_run(format!(
            "corpus_de: skipped, no corpus at {}",
            dir.display()
        ));
        None
    }
}

/// The reference's expression text of every attribute of the top-level
/// blocks of type `ty`, in order.
fn reference_exprs(structure: &serde_json::Value, ty: &str, label: bool) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for b in structure["blocks"].as_array().into_iter().flatten() {
        if b["type"] != ty {
            continue;
        }
        let attrs = b["body"]["attributes"].as_object().into_iter().flatten();
        for (k, v) in attrs {
            let name = if label {
                format!("{}.{}", b["labels"][0].as_str().unwrap_or(""), k)
            } else {
                k.clone()
            };
            out.push((name, v["expr"].as_str().unwrap_or("").to_owned()));
        }
    }
    out.sort();
    out
}

#[test]
fn corpus_deserializes_into_terraform_structs() {
    let Some(dir) = corpus_dir() else { return };
    let manifest = std::fs::read_to_string(dir.join("MANIFEST.tsv")).unwrap();
    let newer: Vec<String> = std::fs::read_to_string(dir.join("NEWER-HCL.txt"))
        .unwrap_or_default()
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(str::to_owned)
        .collect();
    let (mut ok, mut rejected, mut failures) = (0usize, 0usize, Vec::new());
    let (mut exprs_checked, mut missing) = (0usize, 0usize);
    for line in manifest.lines().skip(1) {
        let cols: Vec<&str> = line.split('\t').collect();
        let (Some(path), Some(verdict)) = (cols.first(), cols.get(4)) else {
            continue;
        };
        let Ok(text) = std::fs::read(dir.join(path)) else {
            missing += 1;
            continue;
        };
        let is_newer = newer.iter().any(|n| n == path);
        let accepted = *verdict == "ok" || is_newer;
        let result = hcl::from_slice::<Terraform>(&text);
        match (accepted, result) {
            (true, Ok(tf)) => {
                ok += 1;
                // NEWER-HCL.txt: the reference's structure is a parse error.
                if *verdict != "ok" || is_newer {
                    continue;
                }
                let sj = std::fs::read_to_string(dir.join(format!("{path}.structure.json")));
                let Ok(sj) = sj else { continue };
                let structure: serde_json::Value = serde_json::from_str(&sj).unwrap();
                let mut ours: Vec<(String, String)> = tf
                    .locals
                    .iter()
                    .flatten()
                    .map(|(k, e)| (k.clone(), e.as_str().to_owned()))
                    .collect();
                ours.sort();
                if ours != reference_exprs(&structure, "locals", false) {
                    failures.push(format!("{path}: locals text differs from the reference"));
                }
                let mut ours: Vec<(String, String)> = tf
                    .output
                    .iter()
                    .flat_map(|(name, outs)| {
                        outs.iter().filter_map(move |o| {
                            o.value
                                .as_ref()
                                .map(|e| (format!("{name}.value"), e.as_str().to_owned()))
                        })
                    })
                    .collect();
                ours.sort();
                let reference: Vec<_> = reference_exprs(&structure, "output", true)
                    .into_iter()
                    .filter(|(k, _)| k.ends_with(".value"))
                    .collect();
                if ours != reference {
                    failures.push(format!("{path}: output values differ from the reference"));
                }
                exprs_checked += ours.len();
                for r in tf.resource.values().flat_map(|m| m.values()).flatten() {
                    if RawBody::parse(r.as_str()).is_err() {
                        failures.push(format!("{path}: a captured resource body does not parse"));
                    }
                }
            }
            (true, Err(e)) => failures.push(format!("{path}: {e}")),
            (false, Err(e)) if e.is_syntax() => rejected += 1,
            (false, Err(e)) => failures.push(format!("{path}: rejected, but not as syntax: {e}")),
            (false, Ok(_)) => {
                failures.push(format!("{path}: the reference rejects it, we accept it"))
            }
        }
    }
    println!(
        "corpus_de: {ok} accepted, {rejected} rejected as syntax, {exprs_checked} output texts compared, {missing} listed but absent"
    );
    for f in failures.iter().take(30) {
        println!("FAIL {f}");
    }
    assert!(failures.is_empty(), "{} corpus failures", failures.len());
}
