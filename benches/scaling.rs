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
//! each timing about 2 MB of input, and the best round per size is kept, so
//! that the noise of a shared machine falls on every size alike.
//!
//! `cargo bench --bench scaling` (one to two minutes). `SCALING_QUICK=1`
//! measures less (for a smoke run).

use serde::Deserialize;
use std::collections::BTreeMap;
use std::hint::black_box;
use std::time::Instant;

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
/// alike), each timing a batch of about `batch_bytes` of input; the best
/// round per source.
fn measure(srcs: &[String], batch_bytes: usize, rounds: usize, f: Step) -> Vec<f64> {
    let mut best = vec![f64::INFINITY; srcs.len()];
    for _ in 0..rounds {
        for (src, best) in srcs.iter().zip(best.iter_mut()) {
            let iters = batch_bytes.div_ceil(src.len()).max(1);
            let t = Instant::now();
            for _ in 0..iters {
                f(src);
            }
            let per_byte = t.elapsed().as_secs_f64() / (iters * src.len()) as f64;
            *best = best.min(per_byte);
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

fn to_shapes(s: &str) {
    black_box(hcl::from_str::<Shapes>(s).map(drop)).unwrap_or_else(|e| panic!("{e}"));
}

fn main() {
    let (batch_bytes, rounds) = if std::env::var_os("SCALING_QUICK").is_some() {
        (100_000, 2)
    } else {
        (2_000_000, 7)
    };
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
}
