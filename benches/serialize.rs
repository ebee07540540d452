//! Serialization throughput against hcl-rs 0.20's serializer, on the same
//! values in the same run.
//!
//! ```text
//! cargo bench --bench serialize
//! ```
//!
//! 1. `typed`: one Rust value (`#[derive(Serialize)]`, 500 services with
//!    labels, nested blocks, maps, lists and odd strings) through
//!    `hcl::to_string` and `hcl_rs::to_string`.
//! 2. `value`: every corpus file that both libraries read into their own
//!    `Value` without an application's variables, each library writing
//!    its own value.
//!
//! Reports values written per second, MB/s of each library's own output
//! (10^6 bytes per second) and the ratio ours / theirs in values per
//! second. `HCL_CORPUS_DIR` names the corpus (default `../shared/corpus`;
//! when absent, part 2 is skipped); `HCL_BENCH_SECONDS` is the time budget
//! per library and part (default 3).

use serde::Serialize;
use std::collections::BTreeMap;
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

/// Runs `ours` and `theirs` over `n` values in interleaved rounds until
/// each has had the budget; each returns the bytes it wrote. Returns
/// (values/s, MB/s) for both.
fn race(
    n: usize,
    ours: impl Fn(usize) -> usize,
    theirs: impl Fn(usize) -> usize,
) -> ((f64, f64), (f64, f64)) {
    let (mut t_ours, mut t_theirs) = (Duration::ZERO, Duration::ZERO);
    let (mut b_ours, mut b_theirs) = (0usize, 0usize);
    let (mut r_ours, mut r_theirs) = (0u32, 0u32);
    let budget = budget();
    while t_ours < budget || t_theirs < budget {
        let start = Instant::now();
        for i in 0..n {
            b_ours += black_box(ours(black_box(i)));
        }
        t_ours += start.elapsed();
        r_ours += 1;
        let start = Instant::now();
        for i in 0..n {
            b_theirs += black_box(theirs(black_box(i)));
        }
        t_theirs += start.elapsed();
        r_theirs += 1;
    }
    let rate = |r: u32, b: usize, t: Duration| {
        (
            n as f64 * f64::from(r) / t.as_secs_f64(),
            b as f64 / t.as_secs_f64() / 1e6,
        )
    };
    (
        rate(r_ours, b_ours, t_ours),
        rate(r_theirs, b_theirs, t_theirs),
    )
}

fn report(name: &str, n: usize, ((vo, mo), (vt, mt)): ((f64, f64), (f64, f64))) {
    println!(
        "{name:<8} {n:>5} values   ours {vo:>10.0}/s {mo:>7.2} MB/s   hcl-rs {vt:>10.0}/s {mt:>7.2} MB/s   ratio {:.2}x",
        vo / vt
    );
}

#[derive(Serialize)]
struct Config {
    name: String,
    version: u32,
    ratio: f64,
    service: Vec<Service>,
}

#[derive(Serialize)]
struct Service {
    #[serde(rename = "$label")]
    name: String,
    port: u16,
    enabled: bool,
    hosts: Vec<String>,
    tags: BTreeMap<String, String>,
    check: Vec<Check>,
}

#[derive(Serialize)]
struct Check {
    path: String,
    interval: u32,
}

fn config() -> Config {
    Config {
        name: "bench \"config\" with ${dollar}".into(),
        version: 7,
        ratio: 0.25,
        service: (0..500)
            .map(|i| Service {
                name: format!("service-{i}"),
                port: 8000 + (i % 1000) as u16,
                enabled: i % 2 == 0,
                hosts: vec![format!("a{i}.example"), format!("b{i}.example")],
                tags: BTreeMap::from([
                    ("team".into(), "core".into()),
                    ("cost".into(), format!("{i}.5")),
                ]),
                check: vec![
                    Check {
                        path: "/healthz".into(),
                        interval: 10,
                    },
                    Check {
                        path: "/ready\n".into(),
                        interval: 5,
                    },
                ],
            })
            .collect(),
    }
}

fn corpus_dir() -> Option<PathBuf> {
    let dir = match std::env::var_os("HCL_CORPUS_DIR") {
        Some(d) => PathBuf::from(d),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus"),
    };
    dir.join("MANIFEST.tsv").is_file().then_some(dir)
}

fn main() {
    let cfg = [config()];
    let r = race(
        1,
        |i| hcl::to_string(&cfg[i]).map_or(0, |s| s.len()),
        |i| hcl_rs::to_string(&cfg[i]).map_or(0, |s| s.len()),
    );
    report("typed", 1, r);

    let Some(dir) = corpus_dir() else {
        println!("corpus absent: part 2 skipped (set HCL_CORPUS_DIR)");
        return;
    };
    let manifest = std::fs::read_to_string(dir.join("MANIFEST.tsv")).unwrap_or_default();
    let mut ours = Vec::new();
    let mut theirs = Vec::new();
    for line in manifest.lines().skip(1) {
        let cols: Vec<&str> = line.split('\t').collect();
        if cols.get(4) != Some(&"ok") {
            continue;
        }
        let Some(text) = cols
            .first()
            .and_then(|p| std::fs::read_to_string(dir.join(p)).ok())
        else {
            continue;
        };
        if let (Ok(a), Ok(b)) = (
            hcl::from_str::<hcl::Value>(&text),
            hcl_rs::from_str::<hcl_rs::Value>(&text),
        ) {
            if hcl::to_string(&a).is_ok() && hcl_rs::to_string(&b).is_ok() {
                ours.push(a);
                theirs.push(b);
            }
        }
    }
    let r = race(
        ours.len(),
        |i| hcl::to_string(&ours[i]).map_or(0, |s| s.len()),
        |i| hcl_rs::to_string(&theirs[i]).map_or(0, |s| s.len()),
    );
    report("value", ours.len(), r);
}
