//! Conformance runner: our parser against the reference implementation
//! (hashicorp/hcl 2.14.1), on the conformance cases and the real-world
//! corpus.
//!
//! ```text
//! cargo test --test conformance
//! ```
//!
//! Folders: `HCL_CONFORMANCE_DIR` (default `../shared/conformance`) and
//! `HCL_CORPUS_DIR` (default `../shared/corpus`),
//! `HCL_CONFORMANCE_EXT_DIR` (default `../shared/conformance-ext`, issue
//! #13's extensions) and `HCL_TF_FUNCTIONS_DIR` (default
//! `../shared/conformance-tf-functions`: Terraform's function examples,
//! `tests/conformance/tf_functions.rs`) and `HCL_CONFORMANCE_EDIT_DIR`
//! (default `../shared/conformance-edit`: the document editor against
//! `hclwrite`, `tests/conformance/edit.rs`), relative to the workspace
//! root; a missing folder is reported and skipped (an error when
//! `HCL_REQUIRE_SHARED` is set, as CI sets it: see `hcl-test-support`).
//! The Terraform functions' part needs the `terraform` feature. Formats:
//! `../shared/conformance/README.md`.
//!
//! - `HCL_CONFORMANCE_VERBOSE=1` lists every failure (otherwise the first
//!   few of each part).
//! - `HCL_CONFORMANCE_FILTER=TEXT` runs only the inputs whose relative path
//!   contains TEXT.
//! - `HCL_CONFORMANCE_REPORT=FILE` also writes the output, every failure
//!   listed, to FILE.
//!
//! The last line is `N passed, M failed`; the exit status is non-zero when
//! anything failed.

#[path = "conformance/cases.rs"]
mod cases;
#[path = "conformance/corpus.rs"]
mod corpus;
#[path = "conformance/edit.rs"]
mod edit;
#[path = "conformance/edit_ops.rs"]
mod edit_ops;
#[path = "conformance/ext.rs"]
mod ext;
#[path = "conformance/ext_files.rs"]
mod ext_files;
#[path = "conformance/ext_schema.rs"]
mod ext_schema;
#[path = "conformance/ext_typeexpr.rs"]
mod ext_typeexpr;
#[path = "conformance/ext_userfunc.rs"]
mod ext_userfunc;
#[path = "conformance/fmt.rs"]
mod fmt;
#[path = "conformance/grammar.rs"]
mod grammar;
#[path = "conformance/json.rs"]
mod json;
#[path = "conformance/json_cases.rs"]
mod json_cases;
#[path = "conformance/report.rs"]
mod report;
#[cfg(feature = "terraform")]
#[path = "conformance/tf_functions.rs"]
mod tf_functions;
/// Without Terraform's functions (the `terraform` feature), their part
/// says it was not run.
#[cfg(not(feature = "terraform"))]
mod tf_functions {
    use crate::report::Part;
    use std::path::Path;

    pub fn run(dir: &Path, _filter: &str) -> std::io::Result<Part> {
        hcl_test_support::not_run(format!(
            "== conformance-tf-functions: not run, Terraform's functions are the `terraform` \
             feature (cargo test --all-features); suite {}\n",
            dir.display()
        ));
        Ok(Part::new("Terraform functions: not run", "class"))
    }
}
#[path = "conformance/values.rs"]
mod values;

#[path = "conformance/walk.rs"]
mod walk;
use report::{Counts, Part};
use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;
use walk::walk;

/// Runs one part of the check on a folder, with a path filter.
type Runner = fn(&Path, &str) -> std::io::Result<Part>;

fn main() -> ExitCode {
    let verbose = std::env::var_os("HCL_CONFORMANCE_VERBOSE").is_some_and(|v| v != "0");
    let filter = std::env::var("HCL_CONFORMANCE_FILTER").unwrap_or_default();
    let mut total = Counts::default();
    let mut broken = false;
    let mut full_report = String::new();

    if let Err(e) = json::self_test()
        .and_then(|()| corpus::self_test())
        .and_then(|()| values::self_test())
        .and_then(|()| fmt::self_test())
    {
        println!("conformance runner: {e}");
        return ExitCode::FAILURE;
    }

    let parts: [(&str, &str, Runner); 9] = [
        ("HCL_CONFORMANCE_DIR", "conformance", run_cases),
        (
            "HCL_CONFORMANCE_JSON_DIR",
            "conformance-json",
            run_json_cases,
        ),
        ("HCL_CORPUS_DIR", "corpus", run_corpus),
        ("HCL_CONFORMANCE_FMT_DIR", "conformance-fmt", run_fmt_cases),
        ("HCL_CORPUS_DIR", "corpus", run_fmt_corpus),
        ("HCL_CONFORMANCE_EXT_DIR", "conformance-ext", ext::run),
        (
            "HCL_TF_FUNCTIONS_DIR",
            "conformance-tf-functions",
            tf_functions::run,
        ),
        (
            "HCL_CONFORMANCE_EDIT_DIR",
            "conformance-edit",
            edit::run_cases,
        ),
        ("HCL_CORPUS_DIR", "corpus", edit::run_corpus),
    ];
    for (var, name, run) in parts {
        let Some(dir) = folder(var, name) else {
            continue;
        };
        match run(&dir, &filter) {
            Ok(part) => {
                print!("{}", part.render(verbose));
                full_report.push_str(&part.render(true));
                let t = part.totals();
                total.passed += t.passed;
                total.failed += t.failed;
            }
            Err(e) => {
                println!("{name}: cannot read {}: {e}\n", dir.display());
                broken = true;
            }
        }
    }

    let closing = format!("{} passed, {} failed", total.passed, total.failed);
    if let Some(path) = std::env::var_os("HCL_CONFORMANCE_REPORT") {
        let text = format!("{full_report}{closing}\n");
        if let Err(e) = std::fs::write(&path, text) {
            println!(
                "cannot write the report to {}: {e}",
                Path::new(&path).display()
            );
            broken = true;
        }
    }
    println!("{closing}");
    if total.failed > 0 || broken {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// The folder named by `var`, or `../shared/NAME` beside the workspace;
/// `None` (after saying so) when it does not exist.
fn folder(var: &str, name: &str) -> Option<PathBuf> {
    let dir = match std::env::var_os(var) {
        Some(d) => PathBuf::from(d),
        None => Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("..")
            .join("shared")
            .join(name),
    };
    if dir.is_dir() {
        Some(dir)
    } else {
        hcl_test_support::not_run(format!(
            "== {name}: skipped, no folder {} (set {var} to check another)\n",
            dir.display()
        ));
        None
    }
}

fn run_cases(dir: &Path, filter: &str) -> std::io::Result<Part> {
    let mut part = Part::new("conformance cases: parse outcome, then value", "section");
    let mut lines_compared = 0;
    let mut lines_equal = 0;
    let mut eval_lines_compared = 0;
    let mut eval_lines_equal = 0;
    for case in cases::load_all(dir)? {
        let case = match case {
            Ok(case) => case,
            Err((name, why)) => {
                if name.contains(filter) {
                    let section = name.split('/').next().unwrap_or_default().to_owned();
                    part.record(&section, &name, Err(why), Default::default());
                }
                continue;
            }
        };
        if !case.name.contains(filter) {
            continue;
        }
        let start = Instant::now();
        let verdict = guarded(|| cases::check(&case));
        let took = start.elapsed();
        let outcome = match verdict {
            Ok(v) => {
                if let Some(why) = v.pending {
                    part.record_pending(&case.section, &case.name, why, took);
                    continue;
                }
                if let Some((theirs, ours)) = v.error_lines {
                    let (compared, equal) = match case.expected {
                        cases::Expected::Eval(_) => {
                            (&mut eval_lines_compared, &mut eval_lines_equal)
                        }
                        _ => (&mut lines_compared, &mut lines_equal),
                    };
                    *compared += 1;
                    if u64::try_from(ours).ok() == Some(theirs) {
                        *equal += 1;
                    } else {
                        part.detail(format!(
                            "{}: first error on line {ours}, reference line {theirs}",
                            case.name
                        ));
                    }
                }
                v.outcome
            }
            Err(panic) => Err(panic),
        };
        part.record(&case.section, &case.name, outcome, took);
    }
    let pct = |a: usize, b: usize| {
        if b == 0 {
            100.0
        } else {
            a as f64 * 100.0 / b as f64
        }
    };
    part.note(format!(
        "first error on the reference's line: parse errors {lines_equal} of {lines_compared} ({:.1}%), \
         evaluation errors {eval_lines_equal} of {eval_lines_compared} ({:.1}%), \
         all {} of {} ({:.1}%)",
        pct(lines_equal, lines_compared),
        pct(eval_lines_equal, eval_lines_compared),
        lines_equal + eval_lines_equal,
        lines_compared + eval_lines_compared,
        pct(lines_equal + eval_lines_equal, lines_compared + eval_lines_compared),
    ));
    Ok(part)
}

fn run_json_cases(dir: &Path, filter: &str) -> std::io::Result<Part> {
    let mut part = Part::new(
        "JSON-syntax cases: parse, decode with the schema, evaluate",
        "section",
    );
    let (mut compared, mut equal) = (0, 0);
    for case in json_cases::load_all(dir)? {
        let case = match case {
            Ok(case) => case,
            Err((name, why)) => {
                if name.contains(filter) {
                    part.record("?", &name, Err(why), Default::default());
                }
                continue;
            }
        };
        if !case.name.contains(filter) {
            continue;
        }
        let start = Instant::now();
        let (outcome, lines) = match guarded(|| json_cases::check(&case)) {
            Ok(r) => r,
            Err(panic) => (Err(panic), None),
        };
        if let Some((theirs, ours)) = lines {
            compared += 1;
            if u64::try_from(ours).ok() == Some(theirs) {
                equal += 1;
            } else {
                part.detail(format!(
                    "{}: first error on line {ours}, reference line {theirs}",
                    case.name
                ));
            }
        }
        part.record(&case.section, &case.name, outcome, start.elapsed());
    }
    part.note(format!(
        "first error on the reference's line: {equal} of {compared}"
    ));
    part.note(format!(
        "also read through the serde path (from_json_str into Value, attributes only): {} cases",
        json_cases::SERDE_CHECKED.load(Ordering::Relaxed)
    ));
    Ok(part)
}

fn run_corpus(dir: &Path, filter: &str) -> std::io::Result<Part> {
    let mut part = Part::new("corpus: structure and expression spans", "kind");
    let newer = corpus::newer_hcl(dir);
    let mut by_repo: std::collections::BTreeMap<String, Counts> = Default::default();
    let files: Vec<_> = corpus::list(dir)?
        .into_iter()
        .filter(|f| f.name.contains(filter))
        .collect();
    let bytes: u64 = files
        .iter()
        .map(|f| std::fs::metadata(dir.join(&f.name)).map_or(0, |m| m.len()))
        .sum();
    let outcomes = in_parallel(&files, |file| {
        let start = Instant::now();
        let outcome = guarded(|| corpus::check(file, newer.contains(&file.name))).and_then(|r| r);
        (outcome, start.elapsed())
    });
    for (file, result) in files.iter().zip(outcomes) {
        let (outcome, took) = result.unwrap_or_else(|| {
            (
                Err("not checked: its worker thread died".to_owned()),
                Default::default(),
            )
        });
        let repo = file.name.split('/').next().unwrap_or_default().to_owned();
        let counts = by_repo.entry(repo).or_default();
        if outcome.is_ok() {
            counts.passed += 1;
        } else {
            counts.failed += 1;
        }
        part.record(file.kind, &file.name, outcome, took);
    }
    part.note(format!(
        "{} files, {:.2} MB; {} listed in NEWER-HCL.txt (must parse, not compared)",
        part.totals().passed + part.totals().failed,
        bytes as f64 / 1e6,
        newer.len()
    ));
    for (repo, c) in by_repo.iter().filter(|(_, c)| c.failed > 0) {
        part.note(format!(
            "{repo}: {} of {} files failed",
            c.failed,
            c.passed + c.failed
        ));
    }
    Ok(part)
}

fn run_fmt_cases(dir: &Path, filter: &str) -> std::io::Result<Part> {
    let mut part = Part::new(
        "conformance-fmt: format byte-identical to the reference, and idempotent",
        "theme",
    );
    let theme = |name: &str| name.split('/').next().unwrap_or_default().to_owned();
    for case in fmt::list(dir, theme)? {
        if !case.name.contains(filter) {
            continue;
        }
        let start = Instant::now();
        let outcome = guarded(|| fmt::check(&case, false)).and_then(|r| r);
        part.record(&case.group, &case.name, outcome, start.elapsed());
    }
    Ok(part)
}

fn run_fmt_corpus(dir: &Path, filter: &str) -> std::io::Result<Part> {
    let mut part = Part::new(
        "corpus: format byte-identical to the reference (F.fmt), and idempotent",
        "kind",
    );
    let newer = corpus::newer_hcl(dir);
    let kind = |name: &str| {
        let kind = corpus::KINDS.iter().find(|k| name.ends_with(*k));
        kind.copied().unwrap_or("other").to_owned()
    };
    let cases: Vec<_> = fmt::list(dir, kind)?
        .into_iter()
        .filter(|c| c.name.contains(filter))
        .collect();
    let outcomes = in_parallel(&cases, |case| {
        let start = Instant::now();
        let outcome = guarded(|| fmt::check(case, newer.contains(&case.name))).and_then(|r| r);
        (outcome, start.elapsed())
    });
    for (case, result) in cases.iter().zip(outcomes) {
        let (outcome, took) = result.unwrap_or_else(|| {
            (
                Err("not checked: its worker thread died".to_owned()),
                Default::default(),
            )
        });
        part.record(&case.group, &case.name, outcome, took);
    }
    Ok(part)
}

/// `f` applied to every item, on as many threads as the machine has CPUs;
/// results in the order of `items`, `None` for an item whose worker died.
fn in_parallel<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<Option<R>> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let next = AtomicUsize::new(0);
    let mut results: Vec<(usize, R)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                // As big a stack as the main thread's: the parser is
                // checked as a program would run it.
                std::thread::Builder::new()
                    .stack_size(8 << 20)
                    .spawn_scoped(scope, || {
                        let mut done = Vec::new();
                        loop {
                            let i = next.fetch_add(1, Ordering::Relaxed);
                            let Some(item) = items.get(i) else {
                                return done;
                            };
                            done.push((i, f(item)));
                        }
                    })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| match w.map(|h| h.join()) {
                Ok(Ok(done)) => done,
                // A worker that could not start takes no item; one that
                // panicked outside `guarded` loses its items (left `None`).
                _ => Vec::new(),
            })
            .collect()
    });
    let mut out: Vec<Option<R>> = (0..items.len()).map(|_| None).collect();
    for (i, r) in results.drain(..) {
        if let Some(slot) = out.get_mut(i) {
            *slot = Some(r);
        }
    }
    out
}

/// Runs `f`, turning a panic into a failure reason.
fn guarded<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    panic::catch_unwind(AssertUnwindSafe(f)).map_err(|payload| {
        let msg = payload
            .downcast_ref::<&str>()
            .map(|s| (*s).to_owned())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "(no message)".to_owned());
        format!("PANICKED: {msg}")
    })
}

/// `path` relative to `dir`, with `/` separators.
fn relative_name(dir: &Path, path: &Path) -> String {
    let rel = path.strip_prefix(dir).unwrap_or(path);
    rel.components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}
