//! HCL's JSON syntax against serde_json, on the same JSON text in the same
//! run.
//!
//! ```text
//! cargo bench --bench json
//! ```
//!
//! Ours is `hcl::from_json_str::<hcl::Value>` (no context: strings are
//! literal, as serde_json's are); theirs is
//! `serde_json::from_str::<serde_json::Value>`. Both build a whole value
//! tree from the text. Inputs:
//!
//! 1. `generated`: a Terraform-like `.tf.json` file of about 1 MB
//!    (resources with strings, numbers, bools, lists and nested objects),
//!    built here.
//! 2. `cases`: every input of `../shared/conformance-json` that both
//!    accept (skipped when the folder is absent).
//!
//! Reports MB/s (10^6 bytes per second) and the ratio ours / theirs
//! (the issue's target: within 4x, i.e. a ratio of at least 0.25).
//! `HCL_BENCH_SECONDS` is the time budget per library and part (default 3).

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn budget() -> Duration {
    let secs = std::env::var("HCL_BENCH_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(3.0);
    Duration::from_secs_f64(secs)
}

/// Runs both over `inputs` in interleaved rounds until each has had the
/// budget; returns MB/s for both.
fn race(inputs: &[String]) -> (f64, f64) {
    let bytes: usize = inputs.iter().map(String::len).sum();
    let (mut t_ours, mut t_theirs) = (Duration::ZERO, Duration::ZERO);
    let (mut n_ours, mut n_theirs) = (0u32, 0u32);
    let budget = budget();
    while t_ours < budget || t_theirs < budget {
        let start = Instant::now();
        for s in inputs {
            black_box(hcl::from_json_str::<hcl::Value>(black_box(s)).is_ok());
        }
        t_ours += start.elapsed();
        n_ours += 1;
        let start = Instant::now();
        for s in inputs {
            black_box(serde_json::from_str::<serde_json::Value>(black_box(s)).is_ok());
        }
        t_theirs += start.elapsed();
        n_theirs += 1;
    }
    let mbs = |n: u32, t: Duration| bytes as f64 * f64::from(n) / t.as_secs_f64() / 1e6;
    (mbs(n_ours, t_ours), mbs(n_theirs, t_theirs))
}

fn report(name: &str, inputs: &[String]) {
    let (ours, theirs) = race(inputs);
    let bytes: usize = inputs.iter().map(String::len).sum();
    println!(
        "{name:<10} {:>5} inputs {:>9} bytes   ours {ours:>8.2} MB/s   serde_json {theirs:>8.2} MB/s   ratio {:.2}x",
        inputs.len(),
        bytes,
        ours / theirs
    );
}

/// A Terraform-like JSON configuration of about `target` bytes.
fn generated(target: usize) -> String {
    let mut out = String::from("{\n  \"resource\": {\n    \"aws_instance\": {\n");
    let mut i = 0;
    while out.len() < target {
        if i > 0 {
            out.push_str(",\n");
        }
        out.push_str(&format!(
            concat!(
                "      \"web_{i}\": {{\n",
                "        \"ami\": \"ami-{i:08x}\",\n",
                "        \"instance_type\": \"t3.micro\",\n",
                "        \"count\": {i},\n",
                "        \"ebs_optimized\": true,\n",
                "        \"cpu_credits\": 12.5,\n",
                "        \"security_groups\": [\"sg-1\", \"sg-2\", \"sg-{i}\"],\n",
                "        \"tags\": {{\"Name\": \"web {i}\", \"Env\": \"prod\", \"Cost Center\": \"42\"}},\n",
                "        \"root_block_device\": [{{\"volume_size\": 100, \"encrypted\": false}}]\n",
                "      }}"
            ),
            i = i
        ));
        i += 1;
    }
    out.push_str("\n    }\n  }\n}\n");
    out
}

fn cases_dir() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/conformance-json");
    dir.is_dir().then_some(dir)
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            walk(&p, out);
        } else if p.to_string_lossy().ends_with(".hcl.json") {
            out.push(p);
        }
    }
}

fn main() {
    println!("JSON syntax: hcl::from_json_str::<Value> vs serde_json::from_str::<Value>");
    let big = generated(1_000_000);
    assert!(hcl::from_json_str::<hcl::Value>(&big).is_ok());
    report("generated", &[big]);
    match cases_dir() {
        None => println!("cases      skipped: no ../shared/conformance-json"),
        Some(dir) => {
            let mut files = Vec::new();
            walk(&dir, &mut files);
            files.sort();
            let inputs: Vec<String> = files
                .iter()
                .filter_map(|p| std::fs::read_to_string(p).ok())
                .filter(|s| {
                    hcl::from_json_str::<hcl::Value>(s).is_ok()
                        && serde_json::from_str::<serde_json::Value>(s).is_ok()
                })
                .collect();
            report("cases", &inputs);
        }
    }
}
