//! Scaling: the same config repeated 1x, 2x, 4x, 8x and 16x is parsed
//! (`hcl_grammar::parse_body`) and deserialized (`hcl::from_str` into
//! `hcl::Value` and into a typed struct). The time per byte should stay
//! flat; the table gives it and its ratio to 1x.
//!
//! Shapes: an ordinary service config, and the worst shapes found for the
//! parser: nesting near the depth limit, long strings full of escapes,
//! strings with many interpolations.
//!
//! Sizes are measured in interleaved rounds (1x, 2x, ... 16x, then again),
//! each timing about 2 MB of input in the thread's CPU time, and the best
//! round per size is kept, so that the noise of a shared machine falls on
//! every size alike.
//!
//! Then every path on one content at the sizes of the other benches'
//! scaling parts, about 52 KB, 1 MB and 6 MB (the ordinary config
//! repeated): the native syntax parsed, read into `Value` and into the
//! typed struct; the same services in the JSON syntax read into `Value`
//! and into the typed struct; the `Value` written back (`to_string`);
//! the native text formatted (`hcl::format`, with its syntax check). Each
//! path's sizes in interleaved rounds, the best round per size, and its
//! time per byte against the 52 KB size's (issue 25's bound: 1.5x); then
//! the same for hcl-rs into its `Value` and serde_json into its own, on
//! the same texts.
//!
//! `cargo bench --bench scaling` (two to three minutes). `SCALING_QUICK=1`
//! measures less (for a smoke run); `SCALING_PART=sizes` runs the sizes
//! part alone.

use serde::Deserialize;
use std::collections::BTreeMap;
use std::hint::black_box;
#[path = "support/cpu.rs"]
mod cpu;

use cpu::cpu_seconds;

#[derive(Deserialize)]
#[allow(dead_code)]
struct Services {
    unit: Vec<Service>,
}

#[derive(Deserialize)]
#[allow(dead_code)]
struct Service {
    #[serde(rename = "$label")]
    label: String,
    name: String,
    port: u32,
    enabled: bool,
    tags: BTreeMap<String, String>,
    ports: Vec<u32>,
    message: String,
    health: Vec<Health>,
}

#[derive(Deserialize)]
#[allow(dead_code)]
struct Health {
    path: String,
    interval: u32,
}

#[derive(Deserialize)]
#[allow(dead_code)]
struct Shapes {
    unit: Vec<Shape>,
}

#[derive(Deserialize)]
#[allow(dead_code)]
struct Shape {
    #[serde(rename = "$label")]
    label: String,
    value: hcl::Value,
}

/// A unit of the ordinary config: one service block (~600 bytes).
fn ordinary(i: usize) -> String {
    format!(
        r#"# Service {i}
unit "svc{i}" {{
  name    = "service-{i}"
  port    = 8000 + {i}
  enabled = true
  tags = {{
    env  = "prod"
    team = "core"
    id   = "{i}"
  }}
  ports   = [for p in [80, 443, 8080] : p + 1]
  message = "Hello, ${{"world"}}! Port ${{8000 + {i}}}."

  health {{
    path     = "/health"
    interval = 10
  }}
  health {{
    path     = "/ready"
    interval = 5
  }}
}}
"#
    )
}

/// The ordinary unit in the JSON syntax, its expressions' values written
/// out (read without a context, as `from_json_str` does, a string is
/// literal text): the block's label a property of `unit`'s object.
fn ordinary_json(i: usize) -> String {
    let port = 8000 + i;
    format!(
        r#"    "svc{i}": {{
      "name": "service-{i}",
      "port": {port},
      "enabled": true,
      "tags": {{"env": "prod", "team": "core", "id": "{i}"}},
      "ports": [81, 444, 8081],
      "message": "Hello, \"world\"! Port {port}.",
      "health": [
        {{"path": "/health", "interval": 10}},
        {{"path": "/ready", "interval": 5}}
      ]
    }}"#
    )
}

/// About `size` bytes of ordinary units: native text, or the JSON syntax.
fn sized(size: usize, json: bool) -> String {
    let mut s = String::with_capacity(size + 1024);
    let mut i = 0;
    if json {
        s.push_str("{\n  \"unit\": {\n");
        while s.len() < size {
            if i > 0 {
                s.push_str(",\n");
            }
            s.push_str(&ordinary_json(i));
            i += 1;
        }
        s.push_str("\n  }\n}\n");
    } else {
        while s.len() < size {
            s.push_str(&ordinary(i));
            i += 1;
        }
    }
    s
}

/// Nesting near the limits (the deserializer's is 128 with the body and
/// block around the value).
fn deep(i: usize) -> String {
    let n = 100;
    format!(
        "unit \"d{i}\" {{\n  value = {}{i}{}\n}}\n",
        "[".repeat(n),
        "]".repeat(n)
    )
}

/// A long string where every other character is an escape.
fn escapes(i: usize) -> String {
    format!(
        "unit \"e{i}\" {{\n  value = \"{}\"\n}}\n",
        "a\\n\\t\\\"\\\\\\u00e9".repeat(40)
    )
}

/// A string of many interpolations.
fn interpolations(i: usize) -> String {
    let parts: String = (0..100).map(|j| format!("${{{j}}}-")).collect();
    format!("unit \"t{i}\" {{\n  value = \"{parts}\"\n}}\n")
}

/// `k` copies of about 8 KB of units.
fn config(unit: Unit, k: usize) -> String {
    let mut one = String::new();
    let mut i = 0;
    while one.len() < 8 * 1024 {
        one.push_str(&unit(i));
        i += 1;
    }
    let mut s = String::with_capacity(one.len() * k);
    for c in 0..k {
        // Same text, distinct labels (so that typed targets see k*n units).
        s.push_str(&one.replace("unit \"", &format!("unit \"{c}-")));
    }
    s
}

/// Seconds per byte of `f` on each of `srcs`: rounds that take every
/// source in turn (so that a slow spell of a shared machine hits all sizes
/// alike), each timing (in the thread's CPU time) a batch of about
/// `batch_bytes` of input; the best round per source.
fn measure(srcs: &[String], batch_bytes: usize, rounds: usize, f: Step) -> Vec<f64> {
    let lens: Vec<usize> = srcs.iter().map(String::len).collect();
    measure_each(&lens, batch_bytes, rounds, &|i| f(&srcs[i]))
}

/// [`measure`] over inputs `0..bytes.len()` of `bytes[i]` bytes each
/// (what a call on input `i` reads or writes), `f(i)` one call.
fn measure_each(bytes: &[usize], batch_bytes: usize, rounds: usize, f: &dyn Fn(usize)) -> Vec<f64> {
    let mut best = vec![f64::INFINITY; bytes.len()];
    for _ in 0..rounds {
        for (i, (&len, best)) in bytes.iter().zip(best.iter_mut()).enumerate() {
            let len = len.max(1);
            let iters = batch_bytes.div_ceil(len).max(1);
            let t = cpu_seconds();
            for _ in 0..iters {
                f(i);
            }
            *best = best.min((cpu_seconds() - t) / (iters * len) as f64);
        }
    }
    best
}

type Step = fn(&str);
type Unit = fn(usize) -> String;

fn parse(s: &str) {
    black_box(hcl_grammar::parse_body(s, &Default::default()).map(drop))
        .unwrap_or_else(|e| panic!("{e}"));
}

fn to_value(s: &str) {
    black_box(hcl::from_str::<hcl::Value>(s).map(drop)).unwrap_or_else(|e| panic!("{e}"));
}

fn to_services(s: &str) {
    black_box(hcl::from_str::<Services>(s).map(drop)).unwrap_or_else(|e| panic!("{e}"));
}

fn json_to_value(s: &str) {
    black_box(hcl::from_json_str::<hcl::Value>(s).map(drop)).unwrap_or_else(|e| panic!("{e}"));
}

fn json_to_services(s: &str) {
    black_box(hcl::from_json_str::<Services>(s).map(drop)).unwrap_or_else(|e| panic!("{e}"));
}

fn peer_hcl_rs_value(s: &str) {
    black_box(hcl_rs::from_str::<hcl_rs::Value>(s).map(drop)).unwrap_or_else(|e| panic!("{e}"));
}

fn peer_serde_json_value(s: &str) {
    black_box(serde_json::from_str::<serde_json::Value>(s).map(drop))
        .unwrap_or_else(|e| panic!("{e}"));
}

fn format(s: &str) {
    black_box(hcl::format(s).map(drop)).unwrap_or_else(|e| panic!("{e}"));
}

fn to_shapes(s: &str) {
    black_box(hcl::from_str::<Shapes>(s).map(drop)).unwrap_or_else(|e| panic!("{e}"));
}

fn main() {
    if std::env::var_os("SCALING_PROFILE").is_some() {
        return sizes(0, 0);
    }
    let (batch_bytes, rounds) = if std::env::var_os("SCALING_QUICK").is_some() {
        (100_000, 2)
    } else {
        (2_000_000, 7)
    };
    if std::env::var("SCALING_PART").is_ok_and(|p| p == "sizes") {
        return sizes(batch_bytes, rounds);
    }
    let shapes: [(&str, Unit, Step); 4] = [
        ("ordinary", ordinary, to_services),
        ("deep", deep, to_shapes),
        ("escapes", escapes, to_shapes),
        ("interpolations", interpolations, to_shapes),
    ];
    let ks = [1, 2, 4, 8, 16];
    println!(
        "{:<15} {:<8} {:>4} {:>10} {:>10} {:>8}",
        "shape", "step", "k", "bytes", "ns/byte", "ratio"
    );
    let mut worst: f64 = 1.0;
    for (name, unit, typed) in shapes {
        let srcs: Vec<String> = ks.iter().map(|&k| config(unit, k)).collect();
        let steps: [(&str, Step); 3] = [("parse", parse), ("value", to_value), ("typed", typed)];
        for (step, f) in steps {
            let per_byte = measure(&srcs, batch_bytes, rounds, f);
            let base = per_byte.first().copied().unwrap_or(f64::NAN);
            for ((k, src), secs) in ks.iter().zip(&srcs).zip(&per_byte) {
                let ratio = secs / base;
                worst = worst.max(ratio);
                println!(
                    "{name:<15} {step:<8} {k:>4} {:>10} {:>10.2} {ratio:>8.2}",
                    src.len(),
                    secs * 1e9
                );
            }
        }
    }
    println!("worst ratio to 1x: {worst:.2}");
    sizes(batch_bytes, rounds);
}

/// `SCALING_PROFILE=PATH:N` (a path of [`sizes`], N its size index 0, 1
/// or 2): that one step on that one input, about 12 MB of input in all
/// (`SCALING_REPEAT` times as much), and nothing else, for a profiler
/// (`valgrind --tool=callgrind --toggle-collect='*profiled*'`,
/// `perf stat`).
fn profile(only: &str, steps: &[(&str, &[String], Step)], native: &[String]) {
    let (path, n) = only.rsplit_once(':').unwrap_or((only, "0"));
    let n: usize = n.parse().unwrap_or(0);
    let repeat: usize = std::env::var("SCALING_REPEAT")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(1);
    if path == "to_string" {
        let Some(v) = native.get(n).map(|s| hcl::from_str::<hcl::Value>(s)) else {
            return;
        };
        let v = v.unwrap_or_else(|e| panic!("{e}"));
        let iters = repeat * 12_000_000 / native[n].len();
        profiled(iters, &|| {
            black_box(hcl::to_string(&v).map(drop)).unwrap_or_else(|e| panic!("{e}"));
        });
        println!("{path} on {} bytes, {iters} times", native[n].len());
        return;
    }
    for (name, srcs, f) in steps {
        if let Some(src) = srcs.get(n).filter(|_| *name == path) {
            let iters = repeat * 12_000_000 / src.len();
            profiled(iters, &|| f(src));
            println!("{path} on {} bytes, {iters} times", src.len());
        }
    }
}

#[inline(never)]
fn profiled(iters: usize, f: &dyn Fn()) {
    for _ in 0..iters {
        f();
    }
}

/// Every path at about 52 KB, 1 MB and 6 MB of the ordinary config.
fn sizes(batch_bytes: usize, rounds: usize) {
    let sizes = [52_000, 1_000_000, 6_000_000];
    let native: Vec<String> = sizes.iter().map(|&n| sized(n, false)).collect();
    let json: Vec<String> = sizes.iter().map(|&n| sized(n, true)).collect();
    // The last two rows are the peers' readers into their own `Value`, on
    // the same texts: what size costs a reader that is not ours.
    let steps: [(&str, &[String], Step); 8] = [
        ("parse", &native, parse),
        ("value", &native, to_value),
        ("typed", &native, to_services),
        ("json value", &json, json_to_value),
        ("json typed", &json, json_to_services),
        ("format", &native, format),
        ("hcl-rs value", &native, peer_hcl_rs_value),
        ("serde_json", &json, peer_serde_json_value),
    ];
    if let Ok(only) = std::env::var("SCALING_PROFILE") {
        profile(&only, &steps, &native);
        return;
    }
    println!();
    println!(
        "{:<12} {:>10} {:>10} {:>8}",
        "path", "bytes", "ns/byte", "ratio"
    );
    let mut worst: f64 = 1.0;
    let mut row = |path: &str, srcs: &[usize], per_byte: &[f64]| {
        let base = per_byte.first().copied().unwrap_or(f64::NAN);
        for (bytes, secs) in srcs.iter().zip(per_byte) {
            let ratio = secs / base;
            worst = worst.max(ratio);
            println!("{path:<12} {bytes:>10} {:>10.2} {ratio:>8.2}", secs * 1e9);
        }
    };
    let mut peers = Vec::new();
    for (path, srcs, f) in steps {
        let per_byte = measure(srcs, batch_bytes, rounds, f);
        let lens: Vec<usize> = srcs.iter().map(String::len).collect();
        if path.contains("hcl-rs") || path.contains("serde_json") {
            peers.push((path, lens, per_byte));
        } else {
            row(path, &lens, &per_byte);
        }
    }
    // The serializer: each size's `Value`, per byte of its output.
    let values: Vec<hcl::Value> = native
        .iter()
        .map(|s| hcl::from_str(s).unwrap_or_else(|e| panic!("{e}")))
        .collect();
    let outs: Vec<usize> = values
        .iter()
        .map(|v| hcl::to_string(v).map_or(0, |s| s.len()))
        .collect();
    let best = measure_each(&outs, batch_bytes, rounds, &|i| {
        black_box(hcl::to_string(&values[i]).map(drop)).unwrap_or_else(|e| panic!("{e}"));
    });
    row("to_string", &outs, &best);
    println!("worst ratio to 52 KB: {worst:.2}");
    for (path, lens, per_byte) in peers {
        let base = per_byte.first().copied().unwrap_or(f64::NAN);
        for (bytes, secs) in lens.iter().zip(&per_byte) {
            println!(
                "{path:<12} {bytes:>10} {:>10.2} {:>8.2}",
                secs * 1e9,
                secs / base
            );
        }
    }
}
