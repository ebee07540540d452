//! Evaluation throughput: our evaluator against hcl-rs 0.20's
//! (`hcl::eval`), same inputs, same run, interleaved rounds.
//!
//! ```text
//! cargo bench --bench eval
//! ```
//!
//! Inputs:
//! - a generated config (~1 MB) with many templates, heredocs with
//!   directives, `for` expressions, conditionals and variable traversals,
//!   evaluated with one object variable;
//! - the conformance inputs (`../shared/conformance`, or
//!   `HCL_CONFORMANCE_DIR`) in body mode that both evaluators accept
//!   without functions, with their variables.
//!
//! Two measurements each: evaluation only (both trees parsed beforehand)
//! and parse + evaluate. Throughput is in MB of source per second.
//!
//! `HCL_BENCH_PROFILE=1` evaluates both inputs once with ours only (trees
//! parsed beforehand), for callgrind's instruction counts:
//!
//! ```text
//! HCL_BENCH_PROFILE=1 valgrind --tool=callgrind --toggle-collect='*profile_pass*' \
//!     target/release/deps/eval-HASH
//! ```

use hcl::{Context, Value};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// How long each side runs per measurement.
const BUDGET: Duration = Duration::from_millis(1500);

fn main() {
    println!("machine: {}", machine());
    let generated = generate(2000);
    let vars = generated_vars();
    let mut ours_ctx = Context::new();
    let mut theirs_ctx = hcl_rs::eval::Context::new();
    for (k, v) in &vars {
        ours_ctx.declare_var(k.clone(), v.clone());
        theirs_ctx.declare_var(k.as_str(), to_hcl_rs(v));
    }
    if std::env::var_os("HCL_BENCH_PROFILE").is_some() {
        profile(&generated, &ours_ctx);
        return;
    }
    let inputs = vec![generated];
    report("generated config", &inputs, &ours_ctx, &theirs_ctx);

    match conformance_inputs() {
        Some(cases) if !cases.is_empty() => {
            // Each case with its own variables: evaluate case by case.
            let sources: Vec<String> = cases.iter().map(|c| c.0.clone()).collect();
            let total: usize = sources.iter().map(String::len).sum();
            println!(
                "\nconformance inputs: {} body cases that both evaluators accept, {} bytes",
                cases.len(),
                total
            );
            let ctxs: Vec<(Context, hcl_rs::eval::Context<'static>)> = cases
                .iter()
                .map(|(_, vars)| {
                    let mut a = Context::new();
                    let mut b = hcl_rs::eval::Context::new();
                    for (k, v) in vars {
                        a.declare_var(k.clone(), v.clone());
                        b.declare_var(k.as_str(), to_hcl_rs(v));
                    }
                    (a, b)
                })
                .collect();
            let ours_trees: Vec<hcl_grammar::Body<'_>> = sources
                .iter()
                .filter_map(|s| hcl_grammar::parse_body(s, &Default::default()).ok())
                .collect();
            let theirs_trees: Vec<hcl_rs::Body> = sources
                .iter()
                .filter_map(|s| hcl_rs::parse(s).ok())
                .collect();
            let (a, b) = interleave(
                total,
                || {
                    for (t, (c, _)) in ours_trees.iter().zip(&ctxs) {
                        std::hint::black_box(hcl::eval::eval_body(t, c).ok());
                    }
                },
                || {
                    use hcl_rs::eval::Evaluate;
                    for (t, (_, c)) in theirs_trees.iter().zip(&ctxs) {
                        std::hint::black_box(t.evaluate(c).ok());
                    }
                },
            );
            print_ratio("evaluate only", a, b);
        }
        _ => println!("\nconformance inputs: folder absent, skipped"),
    }
}

/// The profile mode (see the module docs): the inputs parsed, then
/// evaluated once in [`profile_pass`].
fn profile(generated: &str, ctx: &Context) {
    let cases = conformance_inputs().unwrap_or_default();
    let mut inputs: Vec<(&str, Context)> = vec![(generated, ctx.clone())];
    for (src, vars) in &cases {
        let mut c = Context::new();
        for (k, v) in vars {
            c.declare_var(k.clone(), v.clone());
        }
        inputs.push((src, c));
    }
    let trees: Vec<(hcl_grammar::Body<'_>, &Context)> = inputs
        .iter()
        .filter_map(|(s, c)| Some((hcl_grammar::parse_body(s, &Default::default()).ok()?, c)))
        .collect();
    let ok = profile_pass(&trees);
    println!(
        "profile: {} inputs ({} conformance cases) evaluated, {ok} without error",
        trees.len(),
        cases.len()
    );
}

/// One evaluation of every tree, the span callgrind collects.
#[inline(never)]
fn profile_pass(trees: &[(hcl_grammar::Body<'_>, &Context)]) -> usize {
    trees
        .iter()
        .filter(|(t, c)| std::hint::black_box(hcl::eval::eval_body(t, c)).is_ok())
        .count()
}

/// Measures both sides on `inputs` and prints the results.
fn report(
    title: &str,
    inputs: &[String],
    ours_ctx: &Context,
    theirs_ctx: &hcl_rs::eval::Context<'_>,
) {
    let total: usize = inputs.iter().map(String::len).sum();
    println!("\n{title}: {} input(s), {total} bytes", inputs.len());
    let ours_trees: Vec<hcl_grammar::Body<'_>> = inputs
        .iter()
        .map(|s| {
            hcl_grammar::parse_body(s, &Default::default()).unwrap_or_else(|e| panic!("ours: {e}"))
        })
        .collect();
    let theirs_trees: Vec<hcl_rs::Body> = inputs
        .iter()
        .map(|s| hcl_rs::parse(s).unwrap_or_else(|e| panic!("hcl-rs: {e}")))
        .collect();
    // Both must evaluate; say whether they agree (hcl-rs 0.20 keeps the
    // indentation after a `~}` strip marker inside `<<-` heredocs, where
    // the reference and we remove it).
    for (o, t) in ours_trees.iter().zip(&theirs_trees) {
        use hcl_rs::eval::Evaluate;
        let ours = hcl::eval::eval_body(o, ours_ctx).unwrap_or_else(|e| panic!("ours: {e}"));
        let theirs = t
            .evaluate(theirs_ctx)
            .unwrap_or_else(|e| panic!("hcl-rs: {e}"));
        let theirs: hcl_rs::Value = hcl_rs::from_body(theirs).unwrap_or_else(|e| panic!("{e}"));
        let theirs_json = serde_json::to_value(&theirs).unwrap_or_default();
        let ours_json = serde_json::to_value(&ours).unwrap_or_default();
        if ours_json != theirs_json {
            println!(
                "  note: hcl-rs's result differs from ours: {}",
                first_difference(&ours_json, &theirs_json)
            );
        }
    }
    let (a, b) = interleave(
        total,
        || {
            for t in &ours_trees {
                std::hint::black_box(hcl::eval::eval_body(t, ours_ctx).ok());
            }
        },
        || {
            use hcl_rs::eval::Evaluate;
            for t in &theirs_trees {
                std::hint::black_box(t.evaluate(theirs_ctx).ok());
            }
        },
    );
    print_ratio("evaluate only", a, b);
    let (a, b) = interleave(
        total,
        || {
            for s in inputs {
                let body = hcl_grammar::parse_body(s, &Default::default()).ok();
                std::hint::black_box(body.map(|b| hcl::eval::eval_body(&b, ours_ctx).ok()));
            }
        },
        || {
            for s in inputs {
                std::hint::black_box(hcl_rs::eval::from_str::<hcl_rs::Value>(s, theirs_ctx).ok());
            }
        },
    );
    print_ratio("parse + evaluate", a, b);
}

/// A short description of where two JSON documents first differ.
fn first_difference(a: &serde_json::Value, b: &serde_json::Value) -> String {
    use serde_json::Value as J;
    match (a, b) {
        (J::Object(x), J::Object(y)) => {
            for (k, v) in x {
                match y.get(k) {
                    Some(w) if v == w => {}
                    Some(w) => return format!("{k}.{}", first_difference(v, w)),
                    None => return format!("{k}: missing in hcl-rs's"),
                }
            }
            "extra keys in hcl-rs's".to_owned()
        }
        (J::Array(x), J::Array(y)) if x.len() == y.len() => {
            for (i, (v, w)) in x.iter().zip(y).enumerate() {
                if v != w {
                    return format!("[{i}]{}", first_difference(v, w));
                }
            }
            String::new()
        }
        _ => format!(": ours {a}, hcl-rs {b}"),
    }
}

/// Runs `ours` and `theirs` alternately, each for about [`BUDGET`] in
/// total; returns MB/s for each.
fn interleave(bytes: usize, mut ours: impl FnMut(), mut theirs: impl FnMut()) -> (f64, f64) {
    ours();
    theirs();
    let (mut t_ours, mut t_theirs) = (Duration::ZERO, Duration::ZERO);
    let (mut n_ours, mut n_theirs) = (0u64, 0u64);
    while t_ours < BUDGET || t_theirs < BUDGET {
        if t_ours < BUDGET {
            let t = Instant::now();
            ours();
            t_ours += t.elapsed();
            n_ours += 1;
        }
        if t_theirs < BUDGET {
            let t = Instant::now();
            theirs();
            t_theirs += t.elapsed();
            n_theirs += 1;
        }
    }
    let mbps = |n: u64, t: Duration| (bytes as f64 * n as f64) / 1e6 / t.as_secs_f64();
    (mbps(n_ours, t_ours), mbps(n_theirs, t_theirs))
}

fn print_ratio(what: &str, ours: f64, theirs: f64) {
    println!(
        "  {what:<18} ours {ours:>8.2} MB/s   hcl-rs {theirs:>8.2} MB/s   ratio {:.2}x",
        ours / theirs
    );
}

/// A large config: `n` services, each with templates, a heredoc with
/// directives, `for` expressions, a conditional and traversals.
fn generate(n: usize) -> String {
    let mut s = String::with_capacity(n * 600);
    s.push_str("region = var.region\n\n");
    for i in 0..n {
        s.push_str(&format!(
            r#"service "svc-{i}" {{
  name     = "svc-${{var.env}}-{i}"
  replicas = {i} % 5 + 1
  public   = {i} % 2 == 0 ? true : false
  image    = "${{var.registry}}/app-{i}:${{var.version}}"
  ports    = [for p in var.ports : p + {i}]
  labels   = {{ for k, v in var.labels : k => "${{v}}-{i}" }}
  zones    = var.zones[*]
  primary  = var.zones[{i} % 3]
  limits   = {{ cpu = "${{{i} % 4 + 1}}00m", memory = "${{({i} % 8 + 1) * 128}}Mi" }}
  banner   = <<-EOT
    Service {i} in ${{var.region}}
    %{{ for z in var.zones ~}}
    zone ${{z}}%{{ if z == var.zones[0] }} (primary)%{{ endif }}
    %{{ endfor ~}}
  EOT
}}

"#
        ));
    }
    s
}

fn generated_vars() -> Vec<(String, Value)> {
    let var = Value::from_iter([
        ("region", Value::from("eu-west-1")),
        ("env", Value::from("prod")),
        ("registry", Value::from("registry.example.com")),
        ("version", Value::from("1.4.2")),
        ("ports", Value::from(vec![80, 443, 8080])),
        (
            "labels",
            Value::from_iter([("team", "core"), ("tier", "backend"), ("owner", "ops")]),
        ),
        (
            "zones",
            Value::from(vec!["eu-west-1a", "eu-west-1b", "eu-west-1c"]),
        ),
    ]);
    vec![("var".to_owned(), var)]
}

fn to_hcl_rs(v: &Value) -> hcl_rs::Value {
    match v {
        Value::Null => hcl_rs::Value::Null,
        Value::Bool(b) => hcl_rs::Value::Bool(*b),
        Value::Number(n) => match n.as_i64() {
            Some(i) => hcl_rs::Value::from(i),
            None => hcl_rs::Value::from(n.as_f64()),
        },
        Value::String(s) => hcl_rs::Value::String(s.clone()),
        Value::Array(a) => hcl_rs::Value::Array(a.iter().map(to_hcl_rs).collect()),
        Value::Object(o) => {
            hcl_rs::Value::Object(o.iter().map(|(k, v)| (k.clone(), to_hcl_rs(v))).collect())
        }
        // hcl-rs has no unknown values; the benchmark's variables are known.
        Value::Unknown(_) => hcl_rs::Value::Null,
    }
}

/// A conformance input and its variables.
type Case = (String, Vec<(String, Value)>);

/// The conformance body cases both evaluators accept with no functions,
/// with their variables.
fn conformance_inputs() -> Option<Vec<Case>> {
    let dir = std::env::var_os("HCL_CONFORMANCE_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/conformance"));
    if !dir.is_dir() {
        return None;
    }
    let mut files = Vec::new();
    walk(&dir, &mut files);
    files.sort();
    let mut out = Vec::new();
    for path in files {
        if path.extension().and_then(|e| e.to_str()) != Some("hcl") {
            continue;
        }
        let Ok(src) = std::fs::read_to_string(&path) else {
            continue;
        };
        let vars: Vec<(String, Value)> = std::fs::read_to_string(path.with_extension("vars.json"))
            .ok()
            .and_then(|t| serde_json::from_str::<Value>(&t).ok())
            .and_then(|v| match v {
                Value::Object(m) => Some(m.into_iter().collect()),
                _ => None,
            })
            .unwrap_or_default();
        let mut ours_ctx = Context::new();
        let mut theirs_ctx = hcl_rs::eval::Context::new();
        for (k, v) in &vars {
            ours_ctx.declare_var(k.clone(), v.clone());
            theirs_ctx.declare_var(k.as_str(), to_hcl_rs(v));
        }
        let ours_ok = hcl_grammar::parse_body(&src, &Default::default())
            .ok()
            .is_some_and(|b| hcl::eval::eval_body(&b, &ours_ctx).is_ok());
        let theirs_ok = hcl_rs::eval::from_str::<hcl_rs::Value>(&src, &theirs_ctx).is_ok();
        if ours_ok && theirs_ok {
            out.push((src, vars));
        }
    }
    Some(out)
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            walk(&p, out);
        } else {
            out.push(p);
        }
    }
}

fn machine() -> String {
    let cpus = std::thread::available_parallelism().map_or(0, |n| n.get());
    let model = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|m| m.trim().to_owned())
        })
        .unwrap_or_else(|| "unknown CPU".to_owned());
    format!("{cpus} CPU(s), {model}")
}
