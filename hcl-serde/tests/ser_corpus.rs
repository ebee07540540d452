//! The serializer over the corpus: every file the reference accepts and
//! that evaluates without an application's variables is read into an
//! `hcl::Value`, written back with `hcl::to_string`, and
//!
//! 1. reads back as the same value (`from_str::<Value>`);
//! 2. is already in the canonical layout: `hcl::format` and the
//!    reference formatter (`hcl-oracle batch-fmt`) leave it byte for byte
//!    as it is;
//! 3. means the same to the reference: `hcl-oracle batch` evaluates it to
//!    the value we read from the original file (numbers compared as JSON
//!    numbers).
//!
//! Folder: `HCL_CORPUS_DIR`, default `../shared/corpus`; skipped with a
//! message when absent. Checks 2 and 3 are skipped, with a message, when
//! the oracle is absent.

#![allow(clippy::expect_used, clippy::unwrap_used)]

use hcl::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

fn corpus_dir() -> Option<PathBuf> {
    let dir = match std::env::var_os("HCL_CORPUS_DIR") {
        Some(d) => PathBuf::from(d),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus"),
    };
    if dir.join("MANIFEST.tsv").is_file() {
        Some(dir)
    } else {
        hcl_test_support::not_run(format!(
            "ser_corpus: skipped, no corpus at {}",
            dir.display()
        ));
        None
    }
}

fn oracle() -> Option<PathBuf> {
    // `HCL_ORACLE` first (a built oracle elsewhere), as `number_range`.
    let bin = std::env::var_os("HCL_ORACLE").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/oracle/bin/hcl-oracle"),
        PathBuf::from,
    );
    if bin.is_file() {
        Some(bin)
    } else {
        hcl_test_support::not_run(format!(
            "ser_corpus: oracle checks skipped, no oracle at {}",
            bin.display()
        ));
        None
    }
}

/// JSON numbers compared by value (the reference writes `1e30` as 31
/// digits, serde_json may keep an `f64`).
fn same_json(a: &serde_json::Value, b: &serde_json::Value) -> bool {
    use serde_json::Value as J;
    match (a, b) {
        (J::Number(x), J::Number(y)) => {
            x == y || matches!((x.as_f64(), y.as_f64()), (Some(p), Some(q)) if p == q)
        }
        (J::Array(x), J::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same_json(p, q))
        }
        (J::Object(x), J::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| same_json(v, w)))
        }
        _ => a == b,
    }
}

#[test]
fn corpus_values_round_trip_through_the_serializer() {
    let Some(dir) = corpus_dir() else { return };
    let manifest = std::fs::read_to_string(dir.join("MANIFEST.tsv")).expect("manifest");
    let out_dir = std::env::temp_dir().join(format!("hcl-ser-corpus-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out_dir);
    std::fs::create_dir_all(&out_dir).expect("temp dir");
    let (mut written, mut not_evaluated, mut failures) = (Vec::new(), 0usize, Vec::new());
    for line in manifest.lines().skip(1) {
        let Some(path) = line.split('\t').next() else {
            continue;
        };
        // Files the reference formats (and so parses as a body).
        if !dir.join(format!("{path}.fmt")).is_file() {
            continue;
        }
        let Ok(text) = std::fs::read(dir.join(path)) else {
            continue;
        };
        let Ok(v) = hcl::from_slice::<Value>(&text) else {
            // Needs variables or functions of its application.
            not_evaluated += 1;
            continue;
        };
        let out = match hcl::to_string(&v) {
            Ok(out) => out,
            Err(e) => {
                failures.push(format!("{path}: to_string: {e}"));
                continue;
            }
        };
        match hcl::format(&out) {
            Ok(f) if f == out => {}
            _ => failures.push(format!("{path}: hcl::format changes our output")),
        }
        match hcl::from_str::<Value>(&out) {
            Ok(back) if back == v => {}
            Ok(_) => failures.push(format!("{path}: read back as a different value")),
            Err(e) => failures.push(format!("{path}: reading back: {e}")),
        }
        let name = format!("{:05}.hcl", written.len());
        std::fs::write(out_dir.join(&name), &out).expect("write");
        written.push((path.to_owned(), name, out, v));
    }
    let mut fmt_ok = 0;
    let mut eval_ok = 0;
    if let Some(bin) = oracle() {
        for mode in ["batch-fmt", "batch"] {
            let st = Command::new(&bin)
                .args([mode, "--compact"])
                .arg(&out_dir)
                .output()
                .expect("run the oracle");
            assert!(
                st.status.success(),
                "oracle {mode}: {}",
                String::from_utf8_lossy(&st.stderr)
            );
        }
        for (path, name, out, v) in &written {
            match std::fs::read_to_string(out_dir.join(format!("{name}.fmt"))) {
                Ok(f) if &f == out => fmt_ok += 1,
                Ok(_) => failures.push(format!("{path}: not in the reference's layout")),
                Err(_) => failures.push(format!("{path}: the reference does not parse our output")),
            }
            let doc = std::fs::read_to_string(out_dir.join(format!("{name}.expected.json")))
                .unwrap_or_default();
            let doc: serde_json::Value = serde_json::from_str(&doc).unwrap_or_default();
            let ours = serde_json::to_value(v).expect("json");
            let no_blocks = match doc["blocks"].as_array() {
                Some(b) => b.is_empty(),
                None => true,
            };
            if no_blocks && same_json(&doc["attributes"], &ours) {
                eval_ok += 1;
            } else {
                failures.push(format!(
                    "{path}: the reference evaluates our output differently"
                ));
            }
        }
    }
    let _ = std::fs::remove_dir_all(&out_dir);
    println!(
        "ser_corpus: {} files written and read back, {fmt_ok} in the reference's layout, {eval_ok} evaluated alike by the reference, {not_evaluated} need an application's variables",
        written.len()
    );
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(!written.is_empty(), "no corpus file evaluated");
}
