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
//! 4. `value NK`: documents of about 50 KB, 1 MB and 6 MB (the sizes of
//!    the parse bench's scaling part), read into each library's `Value`
//!    and written back. The 50 KB one holds files of part 3 taken across
//!    the whole corpus (a spread order, not the first repositories), each
//!    the body of a block of its own (`file_N { ... }`, so that joining
//!    them repeats no attribute and mixes no block shapes); the larger
//!    ones repeat those files under new block names, as the scaling
//!    bench repeats one config, so that every size holds the same content
//!    and ns per byte compare like for like. Reported: the race of each
//!    size, then ns per byte of each library's output measured in
//!    interleaved rounds of the sizes (best round kept) and its ratio to
//!    the 50 KB document's.
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
#[path = "support/cpu.rs"]
mod cpu;
#[path = "support/machine.rs"]
mod machine;

use corpus::{corpus, corpus_dir};
use cpu::cpu_seconds;
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

/// One document of about `size` bytes: the files of the smallest size's
/// document ([`SMALLEST`] bytes, `files` taken in a spread order, see
/// [`spread`]), repeated as needed, each the body of a block named after
/// its place. Every size holds the same content (as the scaling bench's
/// sizes repeat one config), so that their ns per byte compare like for
/// like and differ only by what size itself costs.
fn document(files: &[&String], size: usize) -> String {
    let order = spread(files.len());
    let mut base = Vec::new();
    let mut base_len = 0;
    for &k in &order {
        if base_len >= SMALLEST {
            break;
        }
        base.push(files[k]);
        base_len += files[k].len();
    }
    let mut doc = String::with_capacity(size + 64 * 1024);
    for (i, f) in base.iter().cycle().enumerate() {
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

/// The smallest document's size; the larger ones repeat its files.
const SMALLEST: usize = 50_000;

/// `0..n` in the order `k * step mod n`, `step` the first number coprime
/// with `n` from `n / phi` up: a permutation whose every prefix is spread
/// over the whole of `0..n` (the corpus is sorted by repository, so its
/// first files would be one project's).
fn spread(n: usize) -> Vec<usize> {
    fn gcd(a: usize, b: usize) -> usize {
        if b == 0 {
            a
        } else {
            gcd(b, a % b)
        }
    }
    let mut step = ((n as f64 / 1.618_033_988_75) as usize).max(1);
    while n > 1 && gcd(step, n) != 1 {
        step += 1;
    }
    (0..n).map(|k| k * step % n.max(1)).collect()
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

/// Part 4's ns per output byte of each size, measured apart from the
/// race: one library's sizes in interleaved rounds (50 KB, 1 MB, 6 MB,
/// then again; a round writes one size at least 1 MB; at least 10 rounds
/// and the time budget; timed in the thread's CPU time), then the other
/// library's, the best round per size kept, so that a shared machine's
/// noise falls on every size alike (as in the scaling bench).
fn per_byte(docs: &[(usize, Vec<hcl::Value>, Vec<hcl_rs::Value>)]) {
    let docs: Vec<_> = docs
        .iter()
        .filter_map(|(size, a, b)| Some((*size, a.first()?, b.first()?)))
        .collect();
    if docs.is_empty() {
        return;
    }
    let best_ns = |f: &dyn Fn() -> usize, calls: usize, best: &mut f64| {
        let start = cpu_seconds();
        let mut bytes = 0;
        for _ in 0..calls {
            bytes += black_box(f());
        }
        let ns = (cpu_seconds() - start) * 1e9 / bytes.max(1) as f64;
        *best = best.min(ns);
    };
    // Each library's sizes are interleaved with each other, not with the
    // other library's: a 6 MB value written and freed by one leaves the
    // heap fragmented for the next call of the other (ours at 50 KB
    // measured 18 ns per byte right after hcl-rs's 6 MB, 1.95 ns alone).
    let rounds = |write: &dyn Fn(usize) -> usize| {
        let mut best = vec![f64::INFINITY; docs.len()];
        let started = Instant::now();
        let mut round = 0;
        while round < 10 || started.elapsed() < budget() {
            round += 1;
            for (i, ((size, ..), best)) in docs.iter().zip(&mut best).enumerate() {
                best_ns(&|| write(i), (1_000_000 / size).max(1), best);
            }
        }
        best
    };
    let ours = rounds(&|i| hcl::to_string(docs[i].1).map_or(0, |s| s.len()));
    let theirs = rounds(&|i| hcl_rs::to_string(docs[i].2).map_or(0, |s| s.len()));
    let best: Vec<(f64, f64)> = ours.into_iter().zip(theirs).collect();
    let (base, their_base) = best[0];
    for ((size, ours, _), (ns, theirs)) in docs.iter().zip(&best) {
        let walked = walk_ns_per_byte(ours, hcl::to_string(*ours).map_or(1, |s| s.len()));
        println!(
            "value {:<10} ours {ns:.2} ns per output byte (best round), {:.2}x the smallest's (walking the value alone: {walked:.2} ns per output byte); hcl-rs {theirs:.2} ns, {:.2}x its smallest's",
            format!("{}K", size / 1000),
            ns / base,
            theirs / their_base
        );
    }
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
    let sizes = [SMALLEST, 1_000_000, 6_000_000];
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
    let mut values_ns = None;
    for p in &parts {
        let r = race(p.n, &p.ours, &p.theirs);
        if p.name == "value" {
            values_ns = Some(1e3 / r.0 .1);
        }
        report(&p.name, p.n, r);
    }
    if let Some(ns) = values_ns {
        println!("value            ours {ns:.2} ns per output byte (the corpus values one by one)");
    }
    per_byte(&docs);
    println!("load average at the end: {}", load());
}
