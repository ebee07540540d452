//! Scaling: the same config repeated 1x, 2x, 4x, 8x and 16x is parsed
//! (`hcl_grammar::parse_body`) and deserialized (`hcl::from_str` into
//! `hcl::Value` and into a typed struct). The time per byte should stay
//! flat; the table gives it and its ratio to 1x.
//!
//! Shapes: an ordinary service config, and the worst shapes found for the
//! parser: nesting near the depth limit, long strings full of escapes,
//! strings with many interpolations.
//!
//! `cargo bench --bench scaling` (about a minute). `SCALING_QUICK=1`
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

/// Seconds per call of `f`: the best of several batches of at least
/// `min_secs` each.
fn measure(min_secs: f64, mut f: impl FnMut()) -> f64 {
    let mut iters = 1u32;
    loop {
        let t = Instant::now();
        for _ in 0..iters {
            f();
        }
        if t.elapsed().as_secs_f64() >= min_secs || iters >= 1 << 20 {
            break;
        }
        iters *= 2;
    }
    (0..5)
        .map(|_| {
            let t = Instant::now();
            for _ in 0..iters {
                f();
            }
            t.elapsed().as_secs_f64() / f64::from(iters)
        })
        .fold(f64::INFINITY, f64::min)
}

type Step = fn(&str);
type Unit = fn(usize) -> String;

fn parse(s: &str) {
    black_box(hcl_grammar::parse_body(s).map(drop)).unwrap_or_else(|e| panic!("{e}"));
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
    let min_secs = if std::env::var_os("SCALING_QUICK").is_some() {
        0.01
    } else {
        0.1
    };
    let shapes: [(&str, Unit, Step); 4] = [
        ("ordinary", ordinary, to_services),
        ("deep", deep, to_shapes),
        ("escapes", escapes, to_shapes),
        ("interpolations", interpolations, to_shapes),
    ];
    println!(
        "{:<15} {:<8} {:>4} {:>10} {:>10} {:>8}",
        "shape", "step", "k", "bytes", "ns/byte", "ratio"
    );
    let mut worst: f64 = 1.0;
    for (name, unit, typed) in shapes {
        let steps: [(&str, Step); 3] = [("parse", parse), ("value", to_value), ("typed", typed)];
        for (step, f) in steps {
            let mut base = None;
            for k in [1, 2, 4, 8, 16] {
                let src = config(unit, k);
                let secs = measure(min_secs, || f(&src));
                let per_byte = secs * 1e9 / src.len() as f64;
                let ratio = per_byte / *base.get_or_insert(per_byte);
                worst = worst.max(ratio);
                println!(
                    "{name:<15} {step:<8} {k:>4} {:>10} {per_byte:>10.2} {ratio:>8.2}",
                    src.len()
                );
            }
        }
    }
    println!("worst ratio to 1x: {worst:.2}");
}
