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
//! 2. `terraform`: every corpus file both libraries read into the
//!    Terraform-module struct of the deserialize bench (`variable`,
//!    `locals`, `output`, `module`; attribute values are each library's
//!    expression type, `hcl::RawExpression` and `hcl_rs::Expression`),
//!    each library writing its own struct back.
//! 3. `value`: every corpus file that both libraries read into their own
//!    `Value` without an application's variables, each library writing
//!    its own value with `to_string`; `to_vec` and `to_writer` (into a
//!    `Vec<u8>`) the same values.
//! 4. `value NK`: the files of part 3, each the body of a block of its
//!    own (`file_N { ... }`), joined in order into documents of about
//!    50 KB, 1 MB and 6 MB (the sizes of the parse bench's scaling part),
//!    read into each library's `Value` and written back; ns per byte of
//!    our output and its ratio to 50 KB's, and to part 3's (the same
//!    files, one small value each: the like-for-like base, as the 50 KB
//!    document's first files are not the corpus's mix, with fewer keys and
//!    short strings per byte).
//!
//! Reports values written per second, MB/s of each library's own output
//! (10^6 bytes per second) and the ratio ours / theirs in values per
//! second, with the machine and its load. `HCL_CORPUS_DIR` names the
//! corpus (default `../shared/corpus`; when absent, parts 2-4 are
//! skipped); `HCL_BENCH_SECONDS` is the time budget per library and part
//! (default 3). `HCL_BENCH_PROFILE=ours` (or `theirs`) reads the values
//! with that library alone, writes every value of every part once (or of
//! the parts named in `HCL_BENCH_PARTS`, comma-separated) and exits, for
//! a profiler: `valgrind --tool=callgrind --toggle-collect='*profile_pass*'`
//! (`HCL_BENCH_REPEAT=N`: N passes, for a sampling profiler such as
//! `perf record`).
//! `HCL_BENCH_PROFILE=dump` prints a checksum of our output of every value
//! of every part (and checks that `to_vec` and `to_writer` agree with
//! `to_string`), to compare two builds' output byte for byte.

#[path = "support/corpus.rs"]
mod corpus;
#[path = "support/machine.rs"]
mod machine;

use corpus::{corpus, corpus_dir};
use machine::{load, machine};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::hint::black_box;
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
        "{name:<16} {n:>5} values   ours {vo:>10.0}/s {mo:>7.2} MB/s   hcl-rs {vt:>10.0}/s {mt:>7.2} MB/s   ratio {:.2}x",
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

/// The Terraform-module struct of the deserialize bench, with `Serialize`
/// (absent fields left out by both libraries).
macro_rules! terraform_structs {
    ($module:ident, $expr:ty) => {
        mod $module {
            use serde::{Deserialize, Serialize};
            use std::collections::BTreeMap;

            #[derive(Serialize, Deserialize)]
            pub struct Terraform {
                #[serde(default)]
                variable: BTreeMap<String, Variable>,
                #[serde(default, skip_serializing_if = "Option::is_none")]
                locals: Option<BTreeMap<String, $expr>>,
                #[serde(default)]
                output: BTreeMap<String, Output>,
                #[serde(default)]
                module: BTreeMap<String, Module>,
            }

            #[derive(Serialize, Deserialize)]
            struct Variable {
                #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
                ty: Option<$expr>,
                #[serde(skip_serializing_if = "Option::is_none")]
                default: Option<$expr>,
                #[serde(skip_serializing_if = "Option::is_none")]
                description: Option<$expr>,
                #[serde(skip_serializing_if = "Option::is_none")]
                sensitive: Option<$expr>,
                #[serde(skip_serializing_if = "Option::is_none")]
                nullable: Option<$expr>,
            }

            #[derive(Serialize, Deserialize)]
            struct Output {
                #[serde(skip_serializing_if = "Option::is_none")]
                value: Option<$expr>,
                #[serde(skip_serializing_if = "Option::is_none")]
                description: Option<$expr>,
                #[serde(skip_serializing_if = "Option::is_none")]
                sensitive: Option<$expr>,
                #[serde(skip_serializing_if = "Option::is_none")]
                depends_on: Option<$expr>,
            }

            #[derive(Serialize, Deserialize)]
            struct Module {
                source: $expr,
                #[serde(skip_serializing_if = "Option::is_none")]
                version: Option<$expr>,
            }
        }
    };
}

terraform_structs!(ours_tf, hcl::RawExpression);
terraform_structs!(theirs_tf, hcl_rs::Expression);

/// Which libraries to load values for: both, or one alone (profiling).
#[derive(Clone, Copy, PartialEq)]
enum Only {
    Both,
    Ours,
    Theirs,
}

/// Values of `texts` in both libraries (each `Vec` empty for a library
/// left out), when both read and write them; and the texts kept.
fn both<'t, A, B>(texts: &'t [String], only: Only) -> (Vec<A>, Vec<B>, Vec<&'t String>)
where
    A: Serialize + for<'de> Deserialize<'de>,
    B: Serialize + for<'de> Deserialize<'de>,
{
    let (mut ours, mut theirs, mut kept) = (Vec::new(), Vec::new(), Vec::new());
    for text in texts {
        let a = (only != Only::Theirs)
            .then(|| hcl::from_str::<A>(text).ok())
            .map(|a| a.filter(|a| hcl::to_string(a).is_ok()));
        let b = (only != Only::Ours)
            .then(|| hcl_rs::from_str::<B>(text).ok())
            .map(|b| b.filter(|b| hcl_rs::to_string(b).is_ok()));
        if matches!(a, Some(None)) || matches!(b, Some(None)) {
            continue;
        }
        ours.extend(a.flatten());
        theirs.extend(b.flatten());
        kept.push(text);
    }
    (ours, theirs, kept)
}

/// One document of about `size` bytes: `files` in order, repeated as
/// needed, each the body of a block named after its place.
fn document(files: &[&String], size: usize) -> String {
    let mut doc = String::with_capacity(size + 64 * 1024);
    for (i, f) in files.iter().cycle().enumerate() {
        if doc.len() >= size {
            break;
        }
        doc.push_str(&format!("file_{i} {{\n"));
        doc.push_str(f);
        if !f.ends_with('\n') {
            doc.push('\n');
        }
        doc.push_str("}\n");
    }
    doc
}

/// Visits every node of `v` (the bytes of its strings and keys summed):
/// what any writer of the value pays to read it, for the per-byte
/// figures of part 4.
fn walk(v: &hcl::Value) -> usize {
    match v {
        hcl::Value::String(s) => s.len(),
        hcl::Value::Array(a) => a.iter().map(walk).sum(),
        hcl::Value::Object(o) => o.iter().map(|(k, v)| k.len() + walk(v)).sum(),
        hcl::Value::Number(n) => usize::from(n.is_integer()),
        _ => 1,
    }
}

/// ns per output byte of walking `v` (see [`walk`]), `bytes` its output.
fn walk_ns_per_byte(v: &hcl::Value, bytes: usize) -> f64 {
    let budget = budget() / 4;
    let (mut n, start) = (0u32, Instant::now());
    while start.elapsed() < budget || n == 0 {
        black_box(walk(black_box(v)));
        n += 1;
    }
    start.elapsed().as_secs_f64() * 1e9 / f64::from(n) / bytes as f64
}

/// Each library's side of a part: writes value `i`, returns its length.
type Side<'a> = Box<dyn Fn(usize) -> usize + 'a>;

/// One part: its name, value count, and both libraries' sides.
struct Part<'a> {
    name: String,
    n: usize,
    ours: Side<'a>,
    theirs: Side<'a>,
}

fn part<'a>(
    name: impl Into<String>,
    n: usize,
    ours: impl Fn(usize) -> usize + 'a,
    theirs: impl Fn(usize) -> usize + 'a,
) -> Part<'a> {
    Part {
        name: name.into(),
        n,
        ours: Box::new(ours),
        theirs: Box::new(theirs),
    }
}

/// One pass of one side over a part's values: the function a profiler
/// collects (`--toggle-collect=*profile_pass*`).
#[inline(never)]
fn profile_pass(n: usize, side: &Side<'_>) -> usize {
    (0..n).map(|i| black_box(side(i))).sum()
}

/// FNV-1a over `bytes`, continuing from `h`.
fn fnv(h: u64, bytes: &[u8]) -> u64 {
    bytes
        .iter()
        .fold(h, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3))
}

/// `HCL_BENCH_PROFILE=dump`: a checksum of our output (text or error) of
/// every value of every part, and a check that `to_vec` and `to_writer`
/// give `to_string`'s bytes, to compare two builds' output byte for byte.
fn dump<T: Serialize>(name: &str, values: &[T]) {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    let mut bytes = 0;
    for v in values {
        let text = hcl::to_string(v).map_err(|e| e.to_string());
        let vec = hcl::to_vec(v).map_err(|e| e.to_string());
        let mut out = Vec::new();
        let written = hcl::to_writer(&mut out, v).map_err(|e| e.to_string());
        assert_eq!(text.as_ref().map(|t| t.as_bytes()), vec.as_deref());
        assert_eq!(written.map(|()| out), vec);
        let t = match &text {
            Ok(t) => t.as_bytes(),
            Err(e) => e.as_bytes(),
        };
        bytes += t.len();
        h = fnv(h, t);
    }
    println!(
        "{name:<16} {:>5} values, {bytes} bytes, checksum {h:016x}",
        values.len()
    );
}

fn main() {
    let profile = std::env::var("HCL_BENCH_PROFILE").ok();
    println!("machine: {}; load average {}", machine(), load());
    let cfg = [config()];
    let files = corpus_dir().map(|dir| corpus(&dir)).unwrap_or_default();
    if files.is_empty() {
        println!("corpus absent: parts 2-4 skipped (set HCL_CORPUS_DIR)");
    }
    let only = match profile.as_deref() {
        None => Only::Both,
        Some("theirs") => Only::Theirs,
        Some(_) => Only::Ours,
    };
    let (tf_ours, tf_theirs, _) = both::<ours_tf::Terraform, theirs_tf::Terraform>(&files, only);
    // The files of part 3 are also part 4's, each inside a block of its
    // own name (so that joining them repeats no attribute and mixes no
    // block shapes).
    let (v_ours, v_theirs, value_files) = both::<hcl::Value, hcl_rs::Value>(&files, only);
    let sizes = [50_000, 1_000_000, 6_000_000];
    let docs: Vec<(usize, Vec<hcl::Value>, Vec<hcl_rs::Value>)> = sizes
        .iter()
        .filter(|_| !value_files.is_empty())
        .map(|&size| {
            let doc = [document(&value_files, size)];
            let (a, b, kept) = both::<hcl::Value, hcl_rs::Value>(&doc, only);
            if kept.is_empty() {
                println!("{} bytes: not read and written by both", doc[0].len());
            }
            (size, a, b)
        })
        .collect();

    let mut parts = vec![
        part(
            "typed",
            1,
            |i| hcl::to_string(&cfg[i]).map_or(0, |s| s.len()),
            |i| hcl_rs::to_string(&cfg[i]).map_or(0, |s| s.len()),
        ),
        part(
            "terraform",
            tf_ours.len().max(tf_theirs.len()),
            |i| hcl::to_string(&tf_ours[i]).map_or(0, |s| s.len()),
            |i| hcl_rs::to_string(&tf_theirs[i]).map_or(0, |s| s.len()),
        ),
        part(
            "value",
            v_ours.len().max(v_theirs.len()),
            |i| hcl::to_string(&v_ours[i]).map_or(0, |s| s.len()),
            |i| hcl_rs::to_string(&v_theirs[i]).map_or(0, |s| s.len()),
        ),
        part(
            "value to_vec",
            v_ours.len().max(v_theirs.len()),
            |i| hcl::to_vec(&v_ours[i]).map_or(0, |s| s.len()),
            |i| hcl_rs::to_vec(&v_theirs[i]).map_or(0, |s| s.len()),
        ),
        part(
            "value to_writer",
            v_ours.len().max(v_theirs.len()),
            |i| {
                let mut out = Vec::new();
                hcl::to_writer(&mut out, &v_ours[i]).map_or(0, |()| out.len())
            },
            |i| {
                let mut out = Vec::new();
                hcl_rs::to_writer(&mut out, &v_theirs[i]).map_or(0, |()| out.len())
            },
        ),
    ];
    for (size, ours, theirs) in &docs {
        if ours.len().max(theirs.len()) != 1 {
            continue;
        }
        parts.push(part(
            format!("value {}K", size / 1000),
            1,
            |i| hcl::to_string(&ours[i]).map_or(0, |s| s.len()),
            |i| hcl_rs::to_string(&theirs[i]).map_or(0, |s| s.len()),
        ));
    }

    if profile.as_deref() == Some("dump") {
        dump("typed", &cfg);
        dump("terraform", &tf_ours);
        dump("value", &v_ours);
        for (size, ours, _) in &docs {
            dump(&format!("value {}K", size / 1000), ours);
        }
        return;
    }
    if let Some(which) = profile {
        let wanted = std::env::var("HCL_BENCH_PARTS").ok();
        let repeat: usize = std::env::var("HCL_BENCH_REPEAT")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(1);
        for p in &parts {
            if wanted
                .as_ref()
                .is_some_and(|w| !w.split(',').any(|n| n == p.name))
            {
                continue;
            }
            let side = if only == Only::Theirs {
                &p.theirs
            } else {
                &p.ours
            };
            let mut bytes = 0;
            for _ in 0..repeat {
                bytes = profile_pass(p.n, side);
            }
            println!("{:<16} {:>5} values, {bytes} bytes ({which})", p.name, p.n);
        }
        return;
    }
    let mut per_byte = Vec::new();
    let mut values_ns = None;
    for p in &parts {
        let r = race(p.n, &p.ours, &p.theirs);
        if p.name.ends_with('K') {
            per_byte.push((p.name.clone(), 1e3 / r.0 .1));
        }
        if p.name == "value" {
            values_ns = Some(1e3 / r.0 .1);
        }
        report(&p.name, p.n, r);
    }
    if let Some(ns) = values_ns {
        println!("value            ours {ns:.2} ns per output byte (the corpus values one by one)");
    }
    if let Some((_, base)) = per_byte.first().cloned() {
        for (name, ns) in &per_byte {
            let doc = docs
                .iter()
                .find(|(size, ..)| *name == format!("value {}K", size / 1000));
            let walked = doc.and_then(|(_, ours, _)| ours.first()).map_or(0.0, |v| {
                walk_ns_per_byte(v, hcl::to_string(v).map_or(1, |s| s.len()))
            });
            println!(
                "{name:<16} ours {ns:.2} ns per output byte, {:.2}x of the smallest, {:.2}x the corpus values' (walking the value alone: {walked:.2} ns per output byte)",
                ns / base,
                ns / values_ns.unwrap_or(*ns)
            );
        }
    }
    println!("load average at the end: {}", load());
}
