//! The JSON-syntax half of the differential test: generated documents
//! (`json_gen.rs`) through the reference (`hcl-oracle batch-json`) and
//! through both of our paths.
//!
//! - **Schema API**: each document with its schema and mode, decoded with
//!   `hcl::schema` and evaluated (`json_cases::check`, the conformance
//!   runner's JSON check), against `batch-json` with the schema.
//! - **Serde path**: each document read with `hcl::from_json_str_with`
//!   (`from_json_str` for `nil-ctx`) into an `hcl::Value`, against
//!   `batch-json` without a schema (every root property an attribute, as
//!   the serde path reads them): the same attributes, or both fail.
//!
//! Every disagreement fails the test: the causes once accepted here (NFC
//! of strings with a nil context, escapes inside an object with a
//! templated key, the serde path's refusal of a property name written
//! with escapes) are fixed, and their documents are generated still. The
//! conformance-json README's rule that error details and positions need
//! not match is kept: only the phase (for the schema API) or the failure
//! itself (serde path) must agree, and how often our first error is on
//! the reference's line is reported.

use crate::json::Json;
use crate::{json_cases, json_gen, values};
use std::path::Path;
use std::process::Command;

/// Which of our paths disagreed.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Side {
    Schema,
    Serde,
}

/// Generates `count` documents from `seed`, runs both sides and compares;
/// whether none disagrees.
pub fn run(oracle: &Path, count: usize, seed: u64) -> bool {
    let dir = std::env::temp_dir().join(format!("hcl-differential-json-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let (with_schema, plain) = (dir.join("schema"), dir.join("plain"));
    if let Err(e) = write_inputs(&with_schema, &plain, count, seed) {
        println!("differential json: cannot write the inputs: {e}");
        return false;
    }
    for d in [&with_schema, &plain] {
        let out = Command::new(oracle)
            .arg("batch-json")
            .arg(d)
            .args(["--funcs", "stdlib", "--compact"])
            .output();
        match out {
            Ok(o) if o.status.success() => {}
            Ok(o) => {
                println!(
                    "differential json: the oracle failed: {}{}",
                    String::from_utf8_lossy(&o.stdout),
                    String::from_utf8_lossy(&o.stderr)
                );
                return false;
            }
            Err(e) => {
                println!("differential json: cannot run {}: {e}", oracle.display());
                return false;
            }
        }
    }
    let ok = compare(&with_schema, &plain, count, seed);
    let _ = std::fs::remove_dir_all(&dir);
    ok
}

fn write_inputs(with_schema: &Path, plain: &Path, count: usize, seed: u64) -> std::io::Result<()> {
    std::fs::create_dir_all(with_schema)?;
    std::fs::create_dir_all(plain)?;
    let mut rng = crate::gen::Rng::new(seed ^ 0x4a53_4f4e);
    for i in 0..count {
        let input = json_gen::input(&mut rng);
        for (root, schema) in [(with_schema, true), (plain, false)] {
            let sub = root.join(format!("{:04}", i / 100));
            if i % 100 == 0 {
                std::fs::create_dir_all(&sub)?;
            }
            let base = sub.join(format!("{i:06}"));
            let file = |ext: &str| base.with_extension(ext);
            std::fs::write(file("hcl.json"), &input.text)?;
            if schema {
                std::fs::write(file("schema.json"), &input.schema)?;
            }
            match input.mode {
                Some(m) => std::fs::write(file("mode"), m)?,
                None => std::fs::write(file("vars.json"), &input.vars)?,
            }
        }
    }
    Ok(())
}

/// The serde path on a case run without a schema.
fn serde_side(case: &json_cases::Case) -> Result<(), String> {
    let ctx = json_cases::context_of(case)?;
    let text = String::from_utf8_lossy(&case.input);
    let ours = match &ctx {
        Some(c) => hcl::from_json_str_with::<hcl::Value>(&text, c),
        None => hcl::from_json_str::<hcl::Value>(&text),
    };
    let phase = match case.expected.get("error") {
        Some(Json::Bool(true)) => case.expected.get("phase").and_then(Json::as_str),
        _ => None,
    };
    match (phase, ours) {
        (None, Ok(v)) => {
            let expected = case.expected.get("attributes").ok_or("no attributes")?;
            values::compare(expected, &v).map_err(|e| format!("serde path: {e}"))
        }
        (None, Err(e)) => Err(format!("serde path failed: {e}")),
        (Some(p), Ok(v)) => Err(format!(
            "serde path gives {}, the reference fails ({p})",
            crate::report::excerpt(&v.to_string(), 80)
        )),
        (Some(_), Err(_)) => Ok(()),
    }
}

fn compare(with_schema: &Path, plain: &Path, count: usize, seed: u64) -> bool {
    let mut failures = Vec::new();
    let (mut checked, mut lines, mut both_failed) = ([0usize; 2], 0, 0);
    for (side, root) in [(Side::Schema, with_schema), (Side::Serde, plain)] {
        let loaded = match json_cases::load_all(root) {
            Ok(l) => l,
            Err(e) => {
                println!("differential json: cannot read {}: {e}", root.display());
                return false;
            }
        };
        for case in &loaded {
            let case = match case {
                Ok(c) => c,
                Err((name, why)) => {
                    failures.push(format!("{name}: {why}"));
                    continue;
                }
            };
            checked[side as usize] += 1;
            let outcome = match side {
                Side::Schema => {
                    let (outcome, first_lines) = json_cases::check(case);
                    if let Some((theirs, ours)) = first_lines {
                        both_failed += 1;
                        lines += usize::from(theirs == ours as u64);
                    }
                    outcome
                }
                Side::Serde => serde_side(case),
            };
            let Err(why) = outcome else { continue };
            // The schema check also reads attribute-only bodies through
            // the serde path: its messages say so.
            let side = if why.starts_with("serde path") {
                Side::Serde
            } else {
                side
            };
            let text = String::from_utf8_lossy(&case.input);
            failures.push(format!(
                "{} ({}, mode {}): {why}\n    input: {text}",
                case.name,
                if side == Side::Schema {
                    "schema API"
                } else {
                    "serde path"
                },
                case.mode.as_deref().unwrap_or("vars")
            ));
        }
    }
    let disagreements = failures.len();
    println!(
        "differential json: {count} documents (seed {seed}), {} through the schema API, {} \
         through the serde path; {disagreements} disagree",
        checked[0], checked[1]
    );
    let ok = checked == [count, count];
    println!(
        "  accepted (conformance-json README, \"Comparing\"): error details and positions \
         need not match; the first error is on the reference's line in {lines} of {both_failed} \
         documents both sides refuse"
    );
    for f in failures.iter().take(40) {
        println!("    {f}");
    }
    ok && failures.is_empty()
}
