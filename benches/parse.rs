//! Parse throughput and tree size on the real-world corpus, against hcl-rs.
//!
//! ```text
//! cargo bench --bench parse
//! ```
//!
//! Loads every corpus file the reference implementation accepts (its
//! `F.structure.json` is not an error document), then parses all of them
//! with `hcl_grammar::parse_body` and with hcl-rs's `hcl::parse`, in
//! interleaved rounds (ours, theirs, ours, ...) until each has had its time
//! budget, and reports MB/s (10^6 bytes per second) for both and their
//! ratio. Then, with a counting global allocator, it parses all files at
//! once, keeping every tree, and reports the peak heap and the heap still
//! held by the trees, per byte of input.
//!
//! Scaling: the corpus files that both parsers accept and whose top level
//! holds blocks only, joined in order into documents of 50 KB, 200 KB,
//! 1 MB and 5 MB (a little more: whole files), each parsed by both in
//! interleaved rounds of about 1 MB of input (a quarter of the time budget
//! per size): MB/s, ratio, and peak heap per input byte.
//!
//! The report names the machine and the pest version linked (from
//! `Cargo.lock`).
//!
//! - `HCL_CORPUS_DIR`: the corpus (default `../shared/corpus` beside the
//!   workspace); when absent the benchmark says so and exits successfully.
//! - `HCL_BENCH_SECONDS`: time budget per parser (default 8).

#[path = "support/machine.rs"]
mod machine;
#[path = "support/pest_version.rs"]
mod pest_version;
#[path = "../tests/conformance/walk.rs"]
mod walk;
use machine::machine;
use pest_version::pest_version;
use std::alloc::{GlobalAlloc, Layout, System};
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};
use walk::walk;

/// The system allocator, counting live and peak bytes.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn grow(n: usize) {
    let live = LIVE.fetch_add(n, Ordering::Relaxed) + n;
    PEAK.fetch_max(live, Ordering::Relaxed);
}

// SAFETY: every call is forwarded to `System` unchanged; only counters are
// updated on the side.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = System.alloc(layout);
        if !p.is_null() {
            grow(layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = System.alloc_zeroed(layout);
        if !p.is_null() {
            grow(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout);
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = System.realloc(ptr, layout, new_size);
        if !p.is_null() {
            LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
            grow(new_size);
        }
        p
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn main() {
    let dir = match std::env::var_os("HCL_CORPUS_DIR") {
        Some(d) => PathBuf::from(d),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus"),
    };
    if !dir.is_dir() {
        println!(
            "parse benchmark: skipped, no corpus folder {} (set HCL_CORPUS_DIR)",
            dir.display()
        );
        return;
    }
    let budget = std::env::var("HCL_BENCH_SECONDS")
        .ok()
        .and_then(|s| s.parse::<f64>().ok())
        .filter(|s| s.is_finite() && *s > 0.0)
        .unwrap_or(8.0);
    let budget = Duration::from_secs_f64(budget);

    println!("machine: {}", machine());
    println!("pest: {} (Cargo.lock)", pest_version());
    let files = match load(&dir) {
        Ok(files) => files,
        Err(e) => {
            eprintln!("parse benchmark: cannot read {}: {e}", dir.display());
            std::process::exit(1);
        }
    };
    let bytes: usize = files.iter().map(String::len).sum();
    println!(
        "corpus: {} files the reference accepts, {:.2} MB, from {}",
        files.len(),
        bytes as f64 / 1e6,
        dir.display()
    );

    // Warm-up pass, which also counts rejections (each should be 0).
    let ours_rejected = files
        .iter()
        .filter(|s| hcl_grammar::parse_body(s, &Default::default()).is_err())
        .count();
    let theirs_rejected = files.iter().filter(|s| hcl_rs::parse(s).is_err()).count();
    println!("rejected: hcl-grammar {ours_rejected}, hcl-rs {theirs_rejected}");

    let (ours, theirs) = throughput(&files, budget);
    let mbps = |rounds: &[Duration]| {
        (bytes as f64 * rounds.len() as f64) / rounds.iter().sum::<Duration>().as_secs_f64() / 1e6
    };
    let (ours_mbps, theirs_mbps) = (mbps(&ours), mbps(&theirs));
    println!(
        "throughput: hcl-grammar {ours_mbps:.1} MB/s ({} rounds), hcl-rs {theirs_mbps:.1} MB/s ({} rounds)",
        ours.len(),
        theirs.len()
    );
    // Each round of ours is paired with the round of hcl-rs right after it:
    // the median of those ratios resists the noise of a shared machine.
    let paired = median(
        ours.iter()
            .zip(&theirs)
            .map(|(o, t)| t.as_secs_f64() / o.as_secs_f64())
            .collect(),
    );
    println!(
        "ratio hcl-grammar / hcl-rs: {:.2}x overall, {paired:.2}x median of paired rounds",
        ours_mbps / theirs_mbps
    );

    let (ours_peak, ours_held) = heap(&files, |s| {
        hcl_grammar::parse_body(s, &Default::default()).ok()
    });
    let (theirs_peak, theirs_held) = heap(&files, |s| hcl_rs::parse(s).ok());
    let per = |n: usize| n as f64 / bytes as f64;
    println!(
        "tree size per input byte: hcl-grammar peak {:.2}, held {:.2}; hcl-rs peak {:.2}, held {:.2}",
        per(ours_peak),
        per(ours_held),
        per(theirs_peak),
        per(theirs_held)
    );

    scaling(&files, budget / 4);
}

/// One document of about `size` bytes: corpus files whose top level is
/// blocks only (so that joining them repeats no attribute), in order,
/// repeated as needed.
fn document(files: &[&String], size: usize) -> String {
    let mut doc = String::with_capacity(size + 64 * 1024);
    for f in files.iter().cycle() {
        if doc.len() >= size {
            break;
        }
        doc.push_str(f);
        if !f.ends_with('\n') {
            doc.push('\n');
        }
    }
    doc
}

/// Both parsers on documents of growing size, `budget` per size.
fn scaling(files: &[String], budget: Duration) {
    let blocks_only: Vec<&String> = files
        .iter()
        .filter(|s| {
            hcl_grammar::parse_body(s, &Default::default())
                .is_ok_and(|b| b.attributes().next().is_none())
                && hcl_rs::parse(s).is_ok()
        })
        .collect();
    if blocks_only.is_empty() {
        return;
    }
    println!(
        "scaling ({} block-only corpus files joined):",
        blocks_only.len()
    );
    for size in [50_000, 200_000, 1_000_000, 5_000_000] {
        let doc = document(&blocks_only, size);
        // Each round parses about 1 MB (so that a round of a small
        // document is not lost in the noise of a shared machine).
        let copies = 1_000_000usize.div_ceil(doc.len()).max(1);
        let docs = vec![doc; copies];
        let ok = (
            hcl_grammar::parse_body(&docs[0], &Default::default()).is_ok(),
            hcl_rs::parse(&docs[0]).is_ok(),
        );
        if ok != (true, true) {
            println!("  {} bytes: not accepted by both ({ok:?})", docs[0].len());
            continue;
        }
        let (ours, theirs) = throughput(&docs, budget);
        let len = docs[0].len() as f64;
        let round = len * copies as f64;
        let mbps = |r: &[Duration]| {
            round * r.len() as f64 / r.iter().sum::<Duration>().as_secs_f64() / 1e6
        };
        let paired = median(
            ours.iter()
                .zip(&theirs)
                .map(|(o, t)| t.as_secs_f64() / o.as_secs_f64())
                .collect(),
        );
        let one = &docs[..1];
        let (ours_peak, _) = heap(one, |s| {
            hcl_grammar::parse_body(s, &Default::default()).ok()
        });
        let (theirs_peak, _) = heap(one, |s| hcl_rs::parse(s).ok());
        println!(
            "  {:>9} bytes: hcl-grammar {:.1} MB/s, hcl-rs {:.1} MB/s, ratio {paired:.2}x (median of {} paired rounds); peak heap per byte {:.2} vs {:.2}",
            docs[0].len(),
            mbps(&ours),
            mbps(&theirs),
            ours.len().min(theirs.len()),
            ours_peak as f64 / len,
            theirs_peak as f64 / len
        );
    }
}

/// Every corpus file the reference accepts, as text, sorted by path.
fn load(dir: &Path) -> std::io::Result<Vec<String>> {
    let mut paths = Vec::new();
    walk(dir, &mut paths)?;
    let mut files = Vec::new();
    for path in paths {
        let mut view = path.clone().into_os_string();
        view.push(".structure.json");
        let Ok(view) = std::fs::read(view) else {
            continue;
        };
        let accepted = serde_json::from_slice::<serde_json::Value>(&view)
            .map(|v| v.get("error").is_none())
            .unwrap_or(false);
        if accepted {
            if let Ok(text) = String::from_utf8(std::fs::read(&path)?) {
                files.push(text);
            }
        }
    }
    Ok(files)
}

/// Interleaved rounds over all files (ours, then hcl-rs) until both
/// parsers have used `budget`: the duration of each round, ours and hcl-rs.
fn throughput(files: &[String], budget: Duration) -> (Vec<Duration>, Vec<Duration>) {
    let mut ours = Vec::new();
    let mut theirs = Vec::new();
    let spent = |rounds: &[Duration]| rounds.iter().sum::<Duration>();
    while spent(&ours) < budget || spent(&theirs) < budget {
        if spent(&ours) < budget {
            let start = Instant::now();
            for s in files {
                let _ = black_box(hcl_grammar::parse_body(black_box(s), &Default::default()));
            }
            ours.push(start.elapsed());
        }
        if spent(&theirs) < budget {
            let start = Instant::now();
            for s in files {
                let _ = black_box(hcl_rs::parse(black_box(s)));
            }
            theirs.push(start.elapsed());
        }
    }
    (ours, theirs)
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

/// Parses every file, keeping every result: (peak heap during the parse,
/// heap held by the results afterwards), both above the heap in use
/// before.
fn heap<'a, T>(files: &'a [String], parse: impl Fn(&'a str) -> T) -> (usize, usize) {
    let base = LIVE.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    let mut trees = Vec::with_capacity(files.len());
    for s in files {
        trees.push(parse(s));
    }
    let peak = PEAK.load(Ordering::Relaxed).saturating_sub(base);
    let held = LIVE.load(Ordering::Relaxed).saturating_sub(base);
    drop(black_box(trees));
    (peak, held)
}
