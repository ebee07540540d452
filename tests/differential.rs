//! Differential test (issue #10): generated inputs run through our library
//! and the reference (`hcl-oracle batch`), compared by the conformance
//! README's rules (the conformance runner's own comparison).
//!
//! ```text
//! cargo test --test differential
//! HCL_DIFF_COUNT=50000 cargo test --release --test differential
//! HCL_DIFF_COUNT=0 HCL_DIFF_JSON_COUNT=20000 cargo test --test differential
//! ```
//!
//! - `HCL_DIFF_COUNT` (default 10,000) inputs from `HCL_DIFF_SEED`
//!   (default 1): expressions, standalone templates and bodies, with
//!   variables and calls of the oracle's standard functions
//!   (`differential/gen.rs`).
//! - The oracle is `../shared/oracle/bin/hcl-oracle`, built with
//!   `bash ../shared/oracle/build.sh` when missing; without `../shared`, or
//!   when it cannot be built, the test says so and passes.
//! - Every disagreement is classified: a cause in [`KNOWN`] (an accepted
//!   deviation owned elsewhere, with the most it may reach), otherwise a
//!   failure. `HCL_DIFF_KEEP=DIR` copies every unexplained input there.
//! - `HCL_DIFF_VERBOSE=1` lists the accepted disagreements too.
//! - `HCL_DIFF_DIR=DIR` checks the hand-written inputs in `DIR` (with
//!   their `.vars.json`) instead of generated ones, the oracle writing
//!   their documents beside them; the JSON documents are skipped.
//! - `differential/regressions/` holds inputs the generator once found
//!   (or written by hand), with the reference's documents: they must
//!   agree, oracle or not.
//! - Then `HCL_DIFF_JSON_COUNT` (default 300) documents in HCL's JSON
//!   syntax, with schemas, labels, nested and repeated blocks and every
//!   context mode of `hcl-oracle json-body` (`differential/json_gen.rs`),
//!   through the schema API and the serde path (`differential/json_run.rs`:
//!   every disagreement fails).

#[allow(dead_code)]
#[path = "conformance/cases.rs"]
mod cases;
#[allow(dead_code)]
#[path = "differential/gen.rs"]
mod gen;
#[allow(dead_code)]
#[path = "conformance/grammar.rs"]
mod grammar;
#[allow(dead_code)]
#[path = "conformance/json.rs"]
mod json;
#[allow(dead_code)]
#[path = "conformance/json_cases.rs"]
mod json_cases;
#[path = "differential/json_gen.rs"]
mod json_gen;
#[path = "differential/json_run.rs"]
mod json_run;
#[allow(dead_code)]
#[path = "conformance/report.rs"]
mod report;
#[allow(dead_code)]
#[path = "conformance/values.rs"]
mod values;

#[path = "conformance/walk.rs"]
mod walk;
use std::collections::BTreeMap;
use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use walk::walk;

/// An accepted cause of disagreement: a deviation from the reference that
/// another part of issue #10 owns.
struct Known {
    /// Short name, printed in the summary.
    name: &'static str,
    /// Why it is accepted, and who fixes it.
    why: &'static str,
    /// The most disagreements it may explain, per 10,000 inputs; more
    /// means something else is hiding under it.
    max_per_10k: usize,
    /// Whether a disagreement (input text, what differed) is this cause.
    matches: fn(&str, &str) -> bool,
}

/// The accepted causes, tried in order.
const KNOWN: &[Known] = &[Known {
    name: "number range",
    why: "a remainder whose quotient is beyond 2^512, where the \
              reference's answer is rounding noise and one operand is exact \
              here but rounded there (ARCHITECTURE.md, \"Numbers\")",
    max_per_10k: 1,
    matches: number_range,
}];

/// Input or outcome involve a number a 96-bit decimal cannot hold, or the
/// reference's value shows binary rounding (a run of 20 zeros inside a
/// number: `0.70000000000000000000…06`).
fn number_range(input: &str, why: &str) -> bool {
    const BIG: &[&str] = &[
        "1e30",
        "123456789012345678901234567890",
        "1e400",
        "12345678901234567890",
    ];
    BIG.iter().any(|b| input.contains(b))
        || why.contains("out of range")
        || why.contains("00000000000000000000")
}

fn main() -> ExitCode {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut ok = run_regressions(&root.join("tests/differential/regressions"));
    let shared = root.join("..").join("shared");
    if !shared.is_dir() {
        hcl_test_support::not_run(format!(
            "differential: skipped, no folder {}",
            shared.display()
        ));
        return exit(ok);
    }
    let Some(oracle) = oracle(&shared) else {
        return exit(ok);
    };
    let mut count = env_num("HCL_DIFF_COUNT", 10_000);
    let seed = env_num("HCL_DIFF_SEED", 1) as u64;
    // Hand-written inputs instead of generated ones: the oracle writes
    // their documents beside them.
    let given = std::env::var_os("HCL_DIFF_DIR").map(PathBuf::from);
    let dir = match &given {
        Some(d) => d.clone(),
        None => std::env::temp_dir().join(format!("hcl-differential-{}", std::process::id())),
    };
    if let Some(d) = &given {
        count = count_inputs(d);
    } else {
        let _ = std::fs::remove_dir_all(&dir);
        if let Err(e) = write_inputs(&dir, count, seed) {
            println!(
                "differential: cannot write the inputs to {}: {e}",
                dir.display()
            );
            return ExitCode::FAILURE;
        }
    }
    let status = Command::new(&oracle)
        .arg("batch")
        .arg(&dir)
        .args(["--funcs", "stdlib", "--compact"])
        .output();
    match status {
        Ok(out) if out.status.success() => {}
        Ok(out) => {
            println!(
                "differential: the oracle failed: {}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
            return ExitCode::FAILURE;
        }
        Err(e) => {
            println!("differential: cannot run {}: {e}", oracle.display());
            return ExitCode::FAILURE;
        }
    }
    ok &= compare_all(&dir, count, seed, given.is_none());
    if given.is_some() {
        return exit(ok);
    }
    let _ = std::fs::remove_dir_all(&dir);
    let json_count = env_num("HCL_DIFF_JSON_COUNT", 300);
    ok &= json_run::run(&oracle, json_count, seed);
    exit(ok)
}

fn exit(ok: bool) -> ExitCode {
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

fn env_num(var: &str, default: usize) -> usize {
    std::env::var(var)
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(default)
}

/// The oracle binary, built if missing; `None` (after saying why) when it
/// cannot be had.
fn oracle(shared: &Path) -> Option<PathBuf> {
    // `HCL_ORACLE` first: an oracle built outside a read-only `../shared`.
    if let Some(bin) = std::env::var_os("HCL_ORACLE").map(PathBuf::from) {
        if bin.is_file() {
            return Some(bin);
        }
    }
    let bin = shared.join("oracle/bin/hcl-oracle");
    if bin.is_file() {
        return Some(bin);
    }
    println!("differential: building the oracle (bash ../shared/oracle/build.sh)");
    let built = Command::new("bash")
        .arg(shared.join("oracle/build.sh"))
        .status()
        .is_ok_and(|s| s.success());
    if built && bin.is_file() {
        Some(bin)
    } else {
        hcl_test_support::not_run("differential: skipped, the oracle could not be built");
        None
    }
}

fn write_inputs(dir: &Path, count: usize, seed: u64) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    let mut rng = gen::Rng::new(seed);
    for i in 0..count {
        let input = gen::input(&mut rng, i);
        // 100 files per folder keeps directories small.
        let sub = dir.join(format!("{:04}", i / 100));
        if i % 100 == 0 {
            std::fs::create_dir_all(&sub)?;
        }
        std::fs::write(sub.join(format!("{i:06}.{}", input.ext)), &input.text)?;
        std::fs::write(sub.join(format!("{i:06}.vars.json")), &input.vars)?;
    }
    Ok(())
}

/// The inputs directly in `dir` (`HCL_DIFF_DIR`): files named `.hcl`,
/// `.hclexpr` or `.hcltmpl`.
fn count_inputs(dir: &Path) -> usize {
    std::fs::read_dir(dir).map_or(0, |entries| {
        entries
            .filter_map(|e| e.ok())
            .filter(|e| {
                let name = e.file_name();
                let name = name.to_string_lossy();
                [".hcl", ".hclexpr", ".hcltmpl"]
                    .iter()
                    .any(|x| name.ends_with(x))
            })
            .count()
    })
}

/// Checks one case, a panic counting as a disagreement.
fn check(case: &cases::Case) -> Result<(), String> {
    match panic::catch_unwind(AssertUnwindSafe(|| cases::check(case))) {
        Ok(v) if v.pending.is_some() => Err(format!("pending: {:?}", v.pending)),
        Ok(v) => v.outcome,
        Err(_) => Err("panicked".to_owned()),
    }
}

/// Compares the oracle's documents in `dir` with ours; `classify`: a
/// disagreement of a cause in [`KNOWN`] is accepted (generated inputs).
fn compare_all(dir: &Path, count: usize, seed: u64, classify: bool) -> bool {
    let loaded = match cases::load_all(dir) {
        Ok(l) => l,
        Err(e) => {
            println!("differential: cannot read {}: {e}", dir.display());
            return false;
        }
    };
    let keep = std::env::var_os("HCL_DIFF_KEEP").map(PathBuf::from);
    let verbose = std::env::var_os("HCL_DIFF_VERBOSE").is_some_and(|v| v != "0");
    let values = loaded
        .iter()
        .filter(|c| matches!(c, Ok(c) if matches!(c.expected, cases::Expected::Value(_))))
        .count();
    println!(
        "differential: the reference gives a value for {values} inputs, an error for {}",
        loaded.len() - values
    );
    let default_hook = panic::take_hook();
    panic::set_hook(Box::new(|_| {}));
    let mut by_cause: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    let mut unexplained = Vec::new();
    let mut checked = 0;
    for case in &loaded {
        let case = match case {
            Ok(c) => c,
            Err((name, why)) => {
                unexplained.push(format!("{name}: {why}"));
                continue;
            }
        };
        checked += 1;
        let Err(why) = check(case) else { continue };
        let text = String::from_utf8_lossy(&case.input);
        let mut known = KNOWN.iter().filter(|_| classify);
        match known.find(|k| (k.matches)(&text, &why)) {
            Some(k) => {
                if verbose {
                    println!("  [{}] {}: {why}\n    input: {text:?}", k.name, case.name);
                }
                by_cause.entry(k.name).or_default().push(case.name.clone());
            }
            None => {
                unexplained.push(format!("{}: {why}\n    input: {text:?}", case.name));
                if let Some(keep) = &keep {
                    let _ = std::fs::create_dir_all(keep);
                    let base = case.name.replace('/', "_");
                    let _ = std::fs::write(keep.join(&base), &case.input);
                    let src = dir.join(&case.name);
                    let _ = std::fs::copy(
                        src.with_extension("vars.json"),
                        keep.join(format!("{base}.vars.json")),
                    );
                }
            }
        }
    }
    panic::set_hook(default_hook);
    let disagreements: usize = by_cause.values().map(Vec::len).sum::<usize>() + unexplained.len();
    println!(
        "differential: {checked} inputs (seed {seed}, {count} generated), {disagreements} disagree ({:.2}%)",
        percent(disagreements, checked)
    );
    let mut ok = checked == count;
    for k in KNOWN {
        let n = by_cause.get(k.name).map_or(0, Vec::len);
        let limit = k.max_per_10k * checked.max(1) / 10_000;
        println!(
            "  accepted: {:<18} {n:>6} ({:.2}%, limit {limit}): {}",
            k.name,
            percent(n, checked),
            k.why
        );
        if n > limit {
            println!("    over its limit: something else may hide under this cause");
            ok = false;
        }
    }
    println!(
        "  unexplained:              {:>6} ({:.2}%)",
        unexplained.len(),
        percent(unexplained.len(), checked)
    );
    for u in unexplained.iter().take(40) {
        println!("    {u}");
    }
    ok && unexplained.is_empty()
}

fn percent(n: usize, of: usize) -> f64 {
    n as f64 * 100.0 / of.max(1) as f64
}

/// The stored regressions: conformance-layout cases with the reference's
/// documents; every one must agree.
fn run_regressions(dir: &Path) -> bool {
    let loaded = match cases::load_all(dir) {
        Ok(l) => l,
        Err(e) => {
            println!("regressions: cannot read {}: {e}", dir.display());
            return false;
        }
    };
    let mut failed = 0;
    for case in &loaded {
        let outcome = match case {
            Ok(c) => check(c).map_err(|e| (c.name.clone(), e)),
            Err((name, why)) => Err((name.clone(), why.clone())),
        };
        if let Err((name, why)) = outcome {
            println!("  regression {name}: {why}");
            failed += 1;
        }
    }
    println!("regressions: {} cases, {failed} failed", loaded.len());
    failed == 0
}

/// `path` relative to `dir`, with `/` separators; used by `cases.rs`.
fn relative_name(dir: &Path, path: &Path) -> String {
    let rel = path.strip_prefix(dir).unwrap_or(path);
    rel.components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}
