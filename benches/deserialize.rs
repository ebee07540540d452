//! Deserialization throughput against hcl-rs 0.20, on the same inputs in
//! the same run.
//!
//! ```text
//! cargo bench --bench deserialize
//! ```
//!
//! 1. `terraform`: every corpus file the reference accepts (and hcl-rs
//!    reads) into a Terraform-like struct whose attribute values are each
//!    library's `Expression` (`variable`, `locals`, `output` typed; other
//!    blocks ignored).
//! 2. `value`: `from_str::<Value>` over the corpus files that evaluate
//!    without an application's variables, in both libraries.
//! 3. `scaling`: cost per byte of `from_str::<Value>` on a synthetic
//!    variables file of 50 KB, 500 KB and 5 MB. hcl-rs is not run on the
//!    5 MB file unless `HCL_BENCH_HCLRS_5MB` is set: it slows down with
//!    the size (measured at 500 KB: a seventh of its 50 KB speed) and one
//!    run would take minutes.
//!
//! Reports MB/s (10^6 bytes per second) and the ratio ours / theirs.
//! `HCL_CORPUS_DIR` names the corpus (default `../shared/corpus`; when
//! absent, parts 1 and 2 are skipped); `HCL_BENCH_SECONDS` is the time
//! budget per library and part (default 3).

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

macro_rules! terraform_structs {
    ($module:ident, $expr:ty) => {
        mod $module {
            use serde::Deserialize;
            use std::collections::BTreeMap;

            #[derive(Deserialize)]
            #[allow(dead_code)]
            pub struct Terraform {
                #[serde(default)]
                variable: BTreeMap<String, Vec<Variable>>,
                #[serde(default)]
                locals: Vec<BTreeMap<String, $expr>>,
                #[serde(default)]
                output: BTreeMap<String, Vec<Output>>,
            }

            #[derive(Deserialize)]
            #[allow(dead_code)]
            struct Variable {
                #[serde(rename = "type")]
                ty: Option<$expr>,
                default: Option<$expr>,
                description: Option<$expr>,
                sensitive: Option<$expr>,
                nullable: Option<$expr>,
            }

            #[derive(Deserialize)]
            #[allow(dead_code)]
            struct Output {
                value: Option<$expr>,
                description: Option<$expr>,
                sensitive: Option<$expr>,
                depends_on: Option<$expr>,
            }
        }
    };
}

terraform_structs!(ours_tf, hcl::RawExpression);
terraform_structs!(theirs_tf, hcl_rs::Expression);

fn budget() -> Duration {
    let secs = std::env::var("HCL_BENCH_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(3.0);
    Duration::from_secs_f64(secs)
}

/// Runs `ours` and `theirs` over `inputs` in interleaved rounds until each
/// has had the budget; returns MB/s for both.
fn race(
    inputs: &[String],
    ours: impl Fn(&str) -> bool,
    theirs: impl Fn(&str) -> bool,
) -> (f64, f64) {
    let bytes: usize = inputs.iter().map(String::len).sum();
    let (mut t_ours, mut t_theirs) = (Duration::ZERO, Duration::ZERO);
    let (mut n_ours, mut n_theirs) = (0u32, 0u32);
    let budget = budget();
    while t_ours < budget || t_theirs < budget {
        let start = Instant::now();
        for s in inputs {
            black_box(ours(black_box(s)));
        }
        t_ours += start.elapsed();
        n_ours += 1;
        let start = Instant::now();
        for s in inputs {
            black_box(theirs(black_box(s)));
        }
        t_theirs += start.elapsed();
        n_theirs += 1;
    }
    let mbs = |n: u32, t: Duration| bytes as f64 * f64::from(n) / t.as_secs_f64() / 1e6;
    (mbs(n_ours, t_ours), mbs(n_theirs, t_theirs))
}

fn report(name: &str, inputs: &[String], (ours, theirs): (f64, f64)) {
    let bytes: usize = inputs.iter().map(String::len).sum();
    println!(
        "{name:<12} {:>5} inputs {:>9} bytes   ours {ours:>8.2} MB/s   hcl-rs {theirs:>8.2} MB/s   ratio {:.2}x",
        inputs.len(),
        bytes,
        ours / theirs
    );
}

fn corpus_dir() -> Option<PathBuf> {
    let dir = match std::env::var_os("HCL_CORPUS_DIR") {
        Some(d) => PathBuf::from(d),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus"),
    };
    dir.join("MANIFEST.tsv").is_file().then_some(dir)
}

fn corpus(dir: &Path) -> Vec<String> {
    let manifest = std::fs::read_to_string(dir.join("MANIFEST.tsv")).unwrap_or_default();
    manifest
        .lines()
        .skip(1)
        .filter_map(|line| {
            let cols: Vec<&str> = line.split('\t').collect();
            (cols.get(4) == Some(&"ok"))
                .then(|| {
                    cols.first()
                        .and_then(|p| std::fs::read_to_string(dir.join(p)).ok())
                })
                .flatten()
        })
        .collect()
}

/// A variables file of about `size` bytes.
fn synthetic(size: usize) -> String {
    let mut s = String::with_capacity(size + 512);
    let mut i = 0;
    while s.len() < size {
        s.push_str(&format!(
            "name_{i} = \"service-{i}\"\nport_{i} = {}\nenabled_{i} = {}\ntags_{i} = {{\n  team = \"core\"\n  cost = {}.5\n  zones = [\"a\", \"b\", \"c\"]\n}}\n",
            8000 + i % 1000,
            i % 2 == 0,
            i
        ));
        i += 1;
    }
    s
}

fn main() {
    if let Some(dir) = corpus_dir() {
        let files = corpus(&dir);
        let tf: Vec<String> = files
            .iter()
            .filter(|s| {
                hcl::from_str::<ours_tf::Terraform>(s).is_ok()
                    && hcl_rs::from_str::<theirs_tf::Terraform>(s).is_ok()
            })
            .cloned()
            .collect();
        let r = race(
            &tf,
            |s| hcl::from_str::<ours_tf::Terraform>(s).is_ok(),
            |s| hcl_rs::from_str::<theirs_tf::Terraform>(s).is_ok(),
        );
        report("terraform", &tf, r);

        let values: Vec<String> = files
            .iter()
            .filter(|s| {
                hcl::from_str::<hcl::Value>(s).is_ok()
                    && hcl_rs::from_str::<hcl_rs::Value>(s).is_ok()
            })
            .cloned()
            .collect();
        let r = race(
            &values,
            |s| hcl::from_str::<hcl::Value>(s).is_ok(),
            |s| hcl_rs::from_str::<hcl_rs::Value>(s).is_ok(),
        );
        report("value", &values, r);
    } else {
        println!("corpus absent: parts 1 and 2 skipped (set HCL_CORPUS_DIR)");
    }
    for size in [50_000, 500_000, 5_000_000] {
        let input = vec![synthetic(size)];
        let name = format!("scaling {}K", size / 1000);
        if size < 5_000_000 || std::env::var_os("HCL_BENCH_HCLRS_5MB").is_some() {
            let r = race(
                &input,
                |s| hcl::from_str::<hcl::Value>(s).is_ok(),
                |s| hcl_rs::from_str::<hcl_rs::Value>(s).is_ok(),
            );
            report(&name, &input, r);
        } else {
            let budget = budget();
            let (mut t, mut n) = (Duration::ZERO, 0u32);
            while t < budget {
                let start = Instant::now();
                black_box(hcl::from_str::<hcl::Value>(black_box(&input[0])).is_ok());
                t += start.elapsed();
                n += 1;
            }
            let mbs = size as f64 * f64::from(n) / t.as_secs_f64() / 1e6;
            println!(
                "{name:<12} {:>5} inputs {:>9} bytes   ours {:>8.2} MB/s   hcl-rs not run (set HCL_BENCH_HCLRS_5MB)",
                1,
                input[0].len(),
                mbs
            );
        }
    }
}
