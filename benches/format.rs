//! Formatting throughput on the real-world corpus, against the reference
//! formatter (hashicorp/hcl 2.14.1 `hclwrite.Format`, timed in its own
//! process by `hcl-oracle bench-fmt`).
//!
//! ```text
//! cargo bench --bench format
//! ```
//!
//! Loads every corpus file the reference formats (those with an `F.fmt`
//! beside them), checks once that our output is the reference's for each,
//! then runs rounds; each round times, on all files:
//!
//! - `hcl_grammar::format`: parse (the syntax check, as `terraform
//!   fmt` does before formatting) and format;
//! - the same without the syntax check (`FormatOptions::with_check_syntax(false)`), which is what `hclwrite.Format` itself does;
//! - the reference: `hcl-oracle bench-fmt FILE... --iters N`, which times
//!   `hclwrite.Format` alone in one Go process, after a warm-up pass (its
//!   process start and file reading are not timed).
//!
//! It reports MB/s (10^6 bytes per second) for each and the ratios against
//! the reference, per round and as the median of rounds (the rounds are
//! interleaved, so a shared machine's load falls on all three alike).
//!
//! - `HCL_CORPUS_DIR`: the corpus (default `../shared/corpus` beside the
//!   workspace); when absent the benchmark says so and exits successfully.
//! - `HCL_ORACLE`: the `hcl-oracle` binary (default
//!   `../shared/oracle/bin/hcl-oracle`; build it with
//!   `bash ../shared/oracle/build.sh`); when absent only our figures are
//!   printed.
//! - `HCL_BENCH_SECONDS`: time per measurement per round (default 3);
//!   `HCL_BENCH_ROUNDS`: rounds (default 3).
//! - `HCL_BENCH_PROFILE=checked` (or `unchecked`): formats every file once
//!   with (without) the syntax check and exits, for a profiler:
//!   `valgrind --tool=callgrind --toggle-collect='*profile_pass*'`.

#[path = "support/machine.rs"]
mod machine;
#[path = "../tests/conformance/walk.rs"]
mod walk;
use hcl_grammar::FormatOptions;
use machine::machine;
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};
use walk::walk;

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = std::env::var_os("HCL_CORPUS_DIR")
        .map_or_else(|| root.join("../../shared/corpus"), PathBuf::from);
    if !dir.is_dir() {
        println!(
            "format benchmark: skipped, no corpus folder {} (set HCL_CORPUS_DIR)",
            dir.display()
        );
        return;
    }
    let oracle = std::env::var_os("HCL_ORACLE").map_or_else(
        || root.join("../../shared/oracle/bin/hcl-oracle"),
        PathBuf::from,
    );
    let oracle = oracle.is_file().then_some(oracle);
    let seconds = env_number("HCL_BENCH_SECONDS", 3.0);
    let rounds = env_number("HCL_BENCH_ROUNDS", 3.0).max(1.0) as usize;
    let budget = Duration::from_secs_f64(seconds);

    println!("machine: {}", machine());
    let files = match load(&dir) {
        Ok(files) => files,
        Err(e) => {
            eprintln!("format benchmark: cannot read {}: {e}", dir.display());
            std::process::exit(1);
        }
    };
    let bytes: usize = files.iter().map(|f| f.src.len()).sum();
    println!(
        "corpus: {} files the reference formats, {:.2} MB, from {}",
        files.len(),
        bytes as f64 / 1e6,
        dir.display()
    );
    let differ = files
        .iter()
        .filter(|f| {
            hcl_grammar::format(&f.src, &Default::default())
                .ok()
                .as_deref()
                != Some(&f.expected[..])
        })
        .count();
    println!("outputs different from the reference's: {differ}");

    let unchecked = FormatOptions::default().with_check_syntax(false);
    let checked = FormatOptions::default();
    if let Ok(which) = std::env::var("HCL_BENCH_PROFILE") {
        let options = if which == "unchecked" {
            &unchecked
        } else {
            &checked
        };
        let out = profile_pass(&files, options);
        println!("one pass ({which}): {out} bytes written");
        return;
    }
    let mut ratios_checked = Vec::new();
    let mut ratios_unchecked = Vec::new();
    for round in 1..=rounds {
        let ours_checked = throughput(&files, bytes, budget, &checked);
        let ours_unchecked = throughput(&files, bytes, budget, &unchecked);
        let reference = oracle
            .as_deref()
            .and_then(|o| reference(o, &files, bytes, seconds));
        print!(
            "round {round}: format {ours_checked:.1} MB/s, without syntax check {ours_unchecked:.1} MB/s"
        );
        match reference {
            Some(theirs) => {
                println!(
                    ", reference hclwrite.Format {theirs:.1} MB/s: ratios {:.2}x, {:.2}x",
                    ours_checked / theirs,
                    ours_unchecked / theirs
                );
                ratios_checked.push(ours_checked / theirs);
                ratios_unchecked.push(ours_unchecked / theirs);
            }
            None => println!(" (no reference: hcl-oracle not found, set HCL_ORACLE)"),
        }
    }
    if !ratios_checked.is_empty() {
        println!(
            "median ratio to the reference: format (with syntax check) {:.2}x, without syntax check {:.2}x",
            median(ratios_checked),
            median(ratios_unchecked)
        );
    }
}

struct File {
    path: PathBuf,
    src: Vec<u8>,
    expected: Vec<u8>,
}

fn env_number(name: &str, default: f64) -> f64 {
    std::env::var(name)
        .ok()
        .and_then(|s| s.parse::<f64>().ok())
        .filter(|s| s.is_finite() && *s > 0.0)
        .unwrap_or(default)
}

/// Every corpus file with an `F.fmt` beside it, sorted by path.
fn load(dir: &Path) -> std::io::Result<Vec<File>> {
    let mut paths = Vec::new();
    walk(dir, &mut paths)?;
    let mut files = Vec::new();
    for path in paths {
        let mut expected = path.clone().into_os_string();
        expected.push(".fmt");
        let Ok(expected) = std::fs::read(expected) else {
            continue;
        };
        let src = std::fs::read(&path)?;
        files.push(File {
            path,
            src,
            expected,
        });
    }
    Ok(files)
}

/// One pass over all files: the function a profiler collects
/// (`--toggle-collect=*profile_pass*`); the bytes written.
#[inline(never)]
fn profile_pass(files: &[File], options: &FormatOptions) -> usize {
    files
        .iter()
        .map(|f| {
            hcl_grammar::format(black_box(&f.src), options).map_or(0, |out| black_box(out).len())
        })
        .sum()
}

/// Passes over all files until `budget` is spent: MB/s.
fn throughput(files: &[File], bytes: usize, budget: Duration, options: &FormatOptions) -> f64 {
    let mut passes = 0;
    let start = Instant::now();
    while start.elapsed() < budget {
        for f in files {
            let _ = black_box(hcl_grammar::format(black_box(&f.src), options));
        }
        passes += 1;
    }
    (bytes * passes) as f64 / start.elapsed().as_secs_f64() / 1e6
}

/// The reference's MB/s over about `seconds` (its iteration count from a
/// one-pass run), or `None` (after saying why) if it cannot run.
fn reference(oracle: &Path, files: &[File], bytes: usize, seconds: f64) -> Option<f64> {
    let run = |iters: usize| -> Option<(f64, f64)> {
        let out = Command::new(oracle)
            .arg("bench-fmt")
            .args(files.iter().map(|f| &f.path))
            .args(["--iters", &iters.to_string()])
            .output()
            .ok()?;
        if !out.status.success() {
            eprintln!(
                "hcl-oracle bench-fmt failed: {}",
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
