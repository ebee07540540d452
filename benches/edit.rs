//! Editing throughput, against the reference editor (hashicorp/hcl
//! 2.14.1's `hclwrite`, timed in its own process by `hcl-oracle
//! bench-edit`), and the lossless parse against hcl-edit's.
//!
//! ```text
//! cargo bench --bench edit
//! ```
//!
//! Each round times, interleaved (so a shared machine's load falls on all
//! alike):
//!
//! - edit: over every case of `../shared/conformance-edit/cases`, read the
//!   operations (JSON), parse the file into an `hcl::edit::Document`,
//!   apply them and print formatted (`to_formatted_string`): what
//!   `hcl-oracle bench-edit DIR` times for `hclwrite` (`ParseConfig`, the
//!   operations, `File.Bytes()`), after a warm-up pass, in one Go process;
//! - lossless parse: `hcl_grammar::edit::Document::parse` on every corpus
//!   file that parses, against `hcl_edit::parser::parse_body` (hcl-rs's
//!   editable tree) on the same files.
//!
//! It reports MB/s (10^6 input bytes per second) and the ratios, per round
//! and as the median of rounds.
//!
//! - `HCL_CONFORMANCE_EDIT_DIR` (default `../shared/conformance-edit`) and
//!   `HCL_CORPUS_DIR` (default `../shared/corpus`); a missing folder skips
//!   its half.
//! - `HCL_ORACLE`: the `hcl-oracle` binary (default
//!   `../shared/oracle/bin/hcl-oracle`); when absent only our edit figure
//!   is printed.
//! - `HCL_BENCH_SECONDS`: time per measurement per round (default 3);
//!   `HCL_BENCH_ROUNDS`: rounds (default 3).

#[path = "../tests/conformance/edit_ops.rs"]
mod edit_ops;
#[path = "support/machine.rs"]
mod machine;
#[path = "../tests/conformance/walk.rs"]
mod walk;
use hcl_grammar::edit::Document;
use machine::machine;
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};
use walk::walk;

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let folder = |var: &str, name: &str| {
        let dir = std::env::var_os(var)
            .map_or_else(|| root.join("../../shared").join(name), PathBuf::from);
        if dir.is_dir() {
            Some(dir)
        } else {
            println!(
                "edit benchmark: no folder {} (set {var}): skipped",
                dir.display()
            );
            None
        }
    };
    let oracle = std::env::var_os("HCL_ORACLE").map_or_else(
        || root.join("../../shared/oracle/bin/hcl-oracle"),
        PathBuf::from,
    );
    let oracle = oracle.is_file().then_some(oracle);
    let seconds = env_number("HCL_BENCH_SECONDS", 3.0);
    let rounds = env_number("HCL_BENCH_ROUNDS", 3.0).max(1.0) as usize;
    let budget = Duration::from_secs_f64(seconds);
    println!("machine: {}", machine());

    let cases = folder("HCL_CONFORMANCE_EDIT_DIR", "conformance-edit")
        .map(|d| load_cases(&d.join("cases")).map(|c| (d.join("cases"), c)));
    let corpus = folder("HCL_CORPUS_DIR", "corpus").map(|d| load_corpus(&d));
    let cases = match cases.transpose() {
        Ok(c) => c,
        Err(e) => fail(&e),
    };
    let corpus = match corpus.transpose() {
        Ok(c) => c,
        Err(e) => fail(&e),
    };
    if let Some((dir, cases)) = &cases {
        let bytes: usize = cases.iter().map(|c| c.0.len()).sum();
        println!(
            "edit cases: {}, {:.2} MB, from {}",
            cases.len(),
            bytes as f64 / 1e6,
            dir.display()
        );
    }
    if let Some(files) = &corpus {
        let bytes: usize = files.iter().map(String::len).sum();
        println!(
            "corpus files that parse: {}, {:.2} MB",
            files.len(),
            bytes as f64 / 1e6
        );
    }

    let (mut edit_ratios, mut parse_ratios) = (Vec::new(), Vec::new());
    for round in 1..=rounds {
        let mut line = format!("round {round}:");
        if let Some((dir, cases)) = &cases {
            let ours = edit_throughput(cases, budget);
            line += &format!(" edit {ours:.1} MB/s");
            match oracle
                .as_deref()
                .and_then(|o| reference(o, dir, cases, seconds))
            {
                Some(theirs) => {
                    line += &format!(", hclwrite {theirs:.1} MB/s ({:.1}x)", ours / theirs);
                    edit_ratios.push(ours / theirs);
                }
                None => line += " (no reference: set HCL_ORACLE)",
            }
        }
        if let Some(files) = &corpus {
            let ours = parse_throughput(files, budget, |s| Document::parse(s).is_ok());
            let theirs =
                parse_throughput(files, budget, |s| hcl_edit::parser::parse_body(s).is_ok());
            line += &format!(
                "; lossless parse {ours:.1} MB/s, hcl-edit {theirs:.1} MB/s ({:.1}x)",
                ours / theirs
            );
            parse_ratios.push(ours / theirs);
        }
        println!("{line}");
    }
    if !edit_ratios.is_empty() {
        println!(
            "median ratio to hclwrite (parse, edits, print): {:.1}x",
            median(edit_ratios)
        );
    }
    if !parse_ratios.is_empty() {
        println!(
            "median ratio to hcl-edit (lossless parse): {:.1}x",
            median(parse_ratios)
        );
    }
}

fn fail(e: &std::io::Error) -> ! {
    eprintln!("edit benchmark: {e}");
    std::process::exit(1)
}

fn env_number(name: &str, default: f64) -> f64 {
    std::env::var(name)
        .ok()
        .and_then(|s| s.parse::<f64>().ok())
        .filter(|s| s.is_finite() && *s > 0.0)
        .unwrap_or(default)
}

/// Every case under `dir`: the input and its operations' JSON.
fn load_cases(dir: &Path) -> std::io::Result<Vec<(String, Vec<u8>)>> {
    let mut paths = Vec::new();
    walk(dir, &mut paths)?;
    let mut cases = Vec::new();
    for ops in paths {
        let Some(input) = ops.to_str().and_then(|p| p.strip_suffix(".ops.json")) else {
            continue;
        };
        cases.push((std::fs::read_to_string(input)?, std::fs::read(&ops)?));
    }
    Ok(cases)
}

/// Every corpus file (of the kinds the corpus checks) that parses.
fn load_corpus(dir: &Path) -> std::io::Result<Vec<String>> {
    const KINDS: &[&str] = &[".hcl", ".tf", ".tfvars", ".nomad"];
    let mut paths = Vec::new();
    walk(dir, &mut paths)?;
    Ok(paths
        .iter()
        .filter(|p| KINDS.iter().any(|k| p.to_string_lossy().ends_with(k)))
        .filter_map(|p| std::fs::read_to_string(p).ok())
        .filter(|s| Document::parse(s).is_ok() && hcl_edit::parser::parse_body(s).is_ok())
        .collect())
}

/// Passes over all cases (operations read, parse, edits, formatted print)
/// until `budget` is spent: MB/s of input.
fn edit_throughput(cases: &[(String, Vec<u8>)], budget: Duration) -> f64 {
    let bytes: usize = cases.iter().map(|c| c.0.len()).sum();
    let mut passes = 0;
    let start = Instant::now();
    while start.elapsed() < budget {
        for (src, ops) in cases {
            let ops: Vec<edit_ops::Op> = serde_json::from_slice(ops).unwrap_or_default();
            let _ = black_box(edit_ops::edit(black_box(src), &ops));
        }
        passes += 1;
    }
    (bytes * passes) as f64 / start.elapsed().as_secs_f64() / 1e6
}

fn parse_throughput(files: &[String], budget: Duration, parse: impl Fn(&str) -> bool) -> f64 {
    let bytes: usize = files.iter().map(String::len).sum();
    let mut passes = 0;
    let start = Instant::now();
    while start.elapsed() < budget {
        for f in files {
            black_box(parse(black_box(f)));
        }
        passes += 1;
    }
    (bytes * passes) as f64 / start.elapsed().as_secs_f64() / 1e6
}

/// `hclwrite`'s MB/s over about `seconds` (its iteration count from a
/// one-pass run), or `None` (after saying why) if it cannot run.
fn reference(oracle: &Path, dir: &Path, cases: &[(String, Vec<u8>)], seconds: f64) -> Option<f64> {
    let bytes: usize = cases.iter().map(|c| c.0.len()).sum();
    let run = |iters: usize| -> Option<(f64, f64)> {
        let out = Command::new(oracle)
            .arg("bench-edit")
            .arg(dir)
            .args(["--iters", &iters.to_string()])
            .output()
            .ok()?;
        if !out.status.success() {
            eprintln!(
                "hcl-oracle bench-edit failed: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            return None;
        }
        let doc: serde_json::Value = serde_json::from_slice(&out.stdout).ok()?;
        let mbps = doc.get("mb_per_s")?.as_f64()?;
        let secs = doc.get("seconds")?.as_f64()?;
        let timed = doc.get("bytes")?.as_u64()?;
        (timed == (bytes * iters) as u64).then_some((mbps, secs))
    };
    let (_, one) = run(1)?;
    let iters = ((seconds / one.max(1e-6)).round() as usize).max(1);
    run(iters).map(|(mbps, _)| mbps)
}

/// The median of `values` (0 when empty).
fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    let n = values.len();
    match n {
        0 => 0.0,
        _ if n % 2 == 1 => values[n / 2],
        _ => (values[n / 2 - 1] + values[n / 2]) / 2.0,
    }
}
