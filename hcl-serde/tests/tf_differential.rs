//! Differential test of Terraform's function table against Terraform's
//! own implementations (`../shared/oracle/terraform/bin/tforacle`).
//!
//! Generates calls of every pure Terraform function with odd arguments
//! (empty and null collections, unicode, huge numbers, wrong types) from a
//! fixed seed, runs them all through `tforacle jsonl` in one process, and
//! compares each result with ours: the same value (numbers to 15
//! significant digits, sets unordered), or both an error.
//!
//! ```text
//! cargo test --test tf_differential -- --nocapture
//! ```
//!
//! Skipped, with a message, when the oracle is absent (build it with
//! `bash ../shared/oracle/terraform/build.sh`). `HCL_TF_ORACLE` names
//! another binary. `textencodebase64` and `textdecodebase64` are called
//! with the encodings we support (UTF-8, UTF-16 variants, US-ASCII,
//! ISO-8859-1, windows-1252): Terraform knows every IANA character set.
//! Not compared: `uuid`, `bcrypt`, `timestamp` (random or
//! the clock), `base64gzip` (Go's compressor writes other, equally valid,
//! bytes: checked by decompression in `hcl-serde/tests/terraform_functions.rs`),
//! and the filesystem functions (their conformance cases run in
//! `tests/conformance.rs`).

#![allow(clippy::expect_used, clippy::indexing_slicing)]

use hcl::eval::eval_expr_str;
use hcl::{Context, Value};
use serde_json::Value as Json;
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

/// Calls generated per function.
const CALLS_PER_FUNCTION: usize = 40;

/// The seed: the same calls on every run.
const SEED: u64 = 0x7465_7272_6166_6f72;

/// Every function compared, with its signatures: one letter per argument,
/// the pool it is mostly drawn from (see [`pool`]).
const FUNCTIONS: &[(&str, &[&str])] = &[
    ("abs", &["n"]),
    ("alltrue", &["l"]),
    ("anytrue", &["l"]),
    ("base64decode", &["b"]),
    ("base64encode", &["s"]),
    ("base64sha256", &["s"]),
    ("base64sha512", &["s"]),
    ("basename", &["p"]),
    ("ceil", &["n"]),
    ("chomp", &["s"]),
    ("chunklist", &["ln"]),
    ("cidrhost", &["cn"]),
    ("cidrnetmask", &["c"]),
    ("cidrsubnet", &["cnn"]),
    ("cidrsubnets", &["c", "cn", "cnn", "cnnn"]),
    ("coalesce", &["a", "aa", "aaa"]),
    ("coalescelist", &["l", "ll"]),
    ("compact", &["l"]),
    ("concat", &["l", "ll"]),
    ("contains", &["la"]),
    ("csvdecode", &["y"]),
    ("dirname", &["p"]),
    ("distinct", &["l"]),
    ("element", &["ln"]),
    ("endswith", &["ss"]),
    ("flatten", &["l"]),
    ("floor", &["n"]),
    ("format", &["s", "sa", "saa"]),
    ("formatdate", &["st"]),
    ("formatlist", &["sl", "sll"]),
    ("index", &["la"]),
    ("indent", &["ks"]),
    ("join", &["sl", "sll"]),
    ("jsondecode", &["y"]),
    ("jsonencode", &["a"]),
    ("keys", &["m"]),
    ("length", &["a"]),
    ("log", &["nn"]),
    ("lookup", &["ms", "msa"]),
    ("lower", &["s"]),
    ("matchkeys", &["lll"]),
    ("max", &["n", "nn", "nnn"]),
    ("md5", &["s"]),
    ("merge", &["m", "mm", "mmm"]),
    ("min", &["n", "nn", "nnn"]),
    ("one", &["l"]),
    ("parseint", &["sn"]),
    ("pow", &["nn"]),
    ("range", &["n", "nn", "nnn"]),
    ("regex", &["rs"]),
    ("regexall", &["rs"]),
    ("replace", &["srs"]),
    ("reverse", &["l"]),
    ("setintersection", &["l", "ll"]),
    ("setproduct", &["l", "ll"]),
    ("setsubtract", &["ll"]),
    ("setunion", &["l", "ll"]),
    ("sha1", &["s"]),
    ("sha256", &["s"]),
    ("sha512", &["s"]),
    ("signum", &["n"]),
    ("slice", &["lnn"]),
    ("sort", &["l"]),
    ("split", &["ss"]),
    ("startswith", &["ss"]),
    ("strcontains", &["ss"]),
    ("strrev", &["s"]),
    ("substr", &["snn"]),
    ("sum", &["l"]),
    ("textdecodebase64", &["be"]),
    ("textencodebase64", &["se"]),
    ("timeadd", &["td"]),
    ("timecmp", &["tt"]),
    ("title", &["s"]),
    ("tobool", &["a"]),
    ("tolist", &["l"]),
    ("tomap", &["m"]),
    ("tonumber", &["a"]),
    ("toset", &["l"]),
    ("tostring", &["a"]),
    ("transpose", &["m"]),
    ("trim", &["ss"]),
    ("trimprefix", &["ss"]),
    ("trimspace", &["s"]),
    ("trimsuffix", &["ss"]),
    ("upper", &["s"]),
    ("urlencode", &["s"]),
    ("uuidv5", &["us"]),
    ("values", &["m"]),
    ("yamldecode", &["y"]),
    ("yamlencode", &["a"]),
    ("zipmap", &["ll"]),
    ("sensitive", &["a"]),
    ("nonsensitive", &["a"]),
    ("list", &["", "a"]),
    ("map", &["", "aa"]),
];

/// Arguments: odd values of every kind, and values each family expects.
const ARGS: &[&str] = &[
    "null",
    "\"\"",
    "\"abc\"",
    "\"héllo wörld\"",
    "\"🎉 e\\u0301\"",
    "\"a b  c\\n\"",
    "\"  padded  \"",
    "\"15\"",
    "\"-1.5\"",
    "\"true\"",
    "\"yes\"",
    "\"10.0.0.0/8\"",
    "\"192.168.010.0/24\"",
    "\"2001:db8::/32\"",
    "\"fe80::1/128\"",
    "\"1.2.3.4/33\"",
    "\"2017-11-22T00:00:00Z\"",
    "\"2017-11-22T01:00:00+01:00\"",
    "\"1h30m\"",
    "\"SGVsbG8gV29ybGQ=\"",
    "\"//5oAGkA\"",
    "\"a: 1\\nb: [x, 2, true, ~]\\n\"",
    "\"- yes\\n- 0x1F\\n- 1e3\\n- '7'\\n\"",
    "\"{\\\"a\\\": [1, 2.5, null]}\"",
    "\"a,b\\n1,2\\n\"",
    "\"dns\"",
    "\"url\"",
    "\"6ba7b810-9dad-11d1-80b4-00c04fd430c8\"",
    "\"UTF-16LE\"",
    "\"ISO-8859-1\"",
    "\"windows-1252\"",
    "\"/(a)(b)?/\"",
    "\"/[/\"",
    "\"$1-x\"",
    "\"a/b/../c/\"",
    "\"/\"",
    "\"%s=%d\"",
    "\"YYYY-MM-DD hh:mm\"",
    "\"[a-z]+\"",
    "\",\"",
    "0",
    "1",
    "-1",
    "2",
    "2.5",
    "-7.25",
    "4",
    "8",
    "16",
    "24",
    "255",
    "65536",
    "1e30",
    "123456789012345678901234567890",
    "true",
    "false",
    "[]",
    "[\"a\", \"b\", \"a\"]",
    "[\"b\", \"\", null, \"c\"]",
    "[1, 2, 3]",
    "[1, \"2\", 3.5]",
    "[true, false]",
    "[true, null]",
    "[[1, 2], [3], []]",
    "[{a = 1}, {a = 2}]",
    "[\"🎉\"]",
    "[5]",
    "[null]",
    "{}",
    "{a = 1, b = \"x\"}",
    "{b = [\"x\", \"y\"], a = [\"y\"]}",
    "{k = {n = [1, \"two\"]}, \"sp ace\" = \"l1\\nl2\"}",
    "tomap({a = \"1\", b = \"2\"})",
    "tolist([\"x\", \"y\"])",
    "toset([\"b\", \"a\"])",
    "toset([])",
    "tolist([])",
    "tomap({})",
];

/// The arguments of one kind: `s` strings, `n` numbers, `l` lists and
/// sets, `m` maps and objects, `c` networks, `t` timestamps, `d`
/// durations, `b` Base64, `y` YAML/JSON/CSV text, `r` patterns, `p` paths,
/// `e` encodings, `u` UUID namespaces, `k` small counts, `a` anything.
fn pool(kind: char) -> &'static [&'static str] {
    match kind {
        's' => &[
            "\"\"",
            "\"abc\"",
            "\"héllo wörld\"",
            "\"🎉 e\\u0301\"",
            "\"a b  c\\n\"",
            "\"  padded  \"",
            "\"15\"",
            "\"a,b,,c\"",
            "\"%s=%d\"",
            "\"YYYY-MM-DD hh:mm\"",
            "\",\"",
            "\"b\"",
            "\"ab\"",
        ],
        'n' => &[
            "0",
            "1",
            "-1",
            "2",
            "2.5",
            "-7.25",
            "3",
            "4",
            "8",
            "16",
            "24",
            "32",
            "255",
            "65536",
            "4294967296",
            "1e30",
            "123456789012345678901234567890",
            "0.1",
        ],
        'l' => &[
            "[]",
            "[\"a\", \"b\", \"a\"]",
            "[\"b\", \"\", null, \"c\"]",
            "[1, 2, 3]",
            "[1, \"2\", 3.5]",
            "[true, false]",
            "[true, null]",
            "[\"true\", true]",
            "[[1, 2], [3], []]",
            "[{a = 1}, {a = 2}]",
            "[\"🎉\"]",
            "[5]",
            "[null]",
            "tolist([\"x\", \"y\"])",
            "toset([\"b\", \"a\"])",
            "toset([])",
            "tolist([])",
            "[\"a\"]",
        ],
        'm' => &[
            "{}",
            "{a = 1, b = \"x\"}",
            "{b = [\"x\", \"y\"], a = [\"y\"]}",
            "{k = {n = [1, \"two\"]}, \"sp ace\" = \"l1\\nl2\"}",
            "tomap({a = \"1\", b = \"2\"})",
            "tomap({})",
            "{a = \"z\"}",
            "{a = [\"b\"], b = []}",
        ],
        'c' => &[
            "\"10.0.0.0/8\"",
            "\"192.168.010.0/24\"",
            "\"2001:db8::/32\"",
            "\"fe80::1/128\"",
            "\"1.2.3.4/33\"",
            "\"0.0.0.0/0\"",
            "\"172.16.0.0/12\"",
            "\"10.1.2.3/30\"",
            "\"::/0\"",
        ],
        't' => &[
            "\"2017-11-22T00:00:00Z\"",
            "\"2017-11-22T01:00:00+01:00\"",
            "\"2017-11-22T00:00:00.5Z\"",
            "\"1999-12-31T23:59:59-08:00\"",
            "\"2017-02-30T00:00:00Z\"",
        ],
        'd' => &["\"1h30m\"", "\"-10s\"", "\"2.5h\"", "\"1d\"", "\"300ms\""],
        'b' => &[
            "\"SGVsbG8gV29ybGQ=\"",
            "\"//5oAGkA\"",
            "\"SGVsbG8\"",
            "\"6Q==\"",
            "\"\"",
            "\"w6k=\"",
            "\"gA==\"",
        ],
        'y' => &[
            "\"a: 1\\nb: [x, 2, true, ~]\\n\"",
            "\"- yes\\n- 0x1F\\n- 1e3\\n- '7'\\n\"",
            "\"{\\\"a\\\": [1, 2.5, null]}\"",
            "\"a,b\\n1,2\\n\"",
            "\"[1, 2\"",
            "\"x: &a [1]\\ny: *a\\n\"",
            "\"'quoted'\"",
            "\"1_000\"",
            "\"0o17\"",
            "\".5\"",
            "\"null\"",
            "\"~\"",
            "\"2001-2-4t1:2:3.5-05:00\"",
            "\"d: 2001-12-14\"",
            "\"2001-02-30\"",
            "\"2001-12-14 21:59:43.10\"",
        ],
        'r' => &[
            "\"/(a)(b)?/\"",
            "\"/[/\"",
            "\"[a-z]+\"",
            "\"b\"",
            "\"/^\\\\s+/\"",
            "\"(?P<x>a)\"",
        ],
        'p' => &[
            "\"a/b/../c/\"",
            "\"/\"",
            "\"\"",
            "\"foo/bar.txt\"",
            "\"//x//\"",
            "\".\"",
            "\"../..\"",
        ],
        'e' => &[
            "\"UTF-8\"",
            "\"UTF-16LE\"",
            "\"utf-16be\"",
            "\"UTF-16\"",
            "\"ISO-8859-1\"",
            "\"windows-1252\"",
            "\"US-ASCII\"",
            "\"latin1\"",
        ],
        'u' => &[
            "\"dns\"",
            "\"url\"",
            "\"oid\"",
            "\"x500\"",
            "\"6ba7b810-9dad-11d1-80b4-00c04fd430c8\"",
            "\"bogus\"",
        ],
        // Small counts: `indent` with 2^32 spaces takes the oracle a minute.
        'k' => &["0", "1", "2", "-1", "2.5", "1e30"],
        _ => ARGS,
    }
}

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        let i = usize::try_from(self.next() % items.len() as u64).unwrap_or(0);
        &items[i]
    }
}

/// The generated expressions.
fn expressions() -> Vec<String> {
    let mut rng = Rng(SEED);
    let mut out = Vec::new();
    for (name, sigs) in FUNCTIONS {
        for _ in 0..CALLS_PER_FUNCTION {
            let sig = *rng.pick(sigs);
            let args: Vec<&str> = sig
                .chars()
                .map(|k| {
                    // Mostly the expected kind; sometimes anything.
                    if rng.next() % 5 < 1 {
                        *rng.pick(ARGS)
                    } else {
                        *rng.pick(pool(k))
                    }
                })
                .collect();
            out.push(format!("{name}({})", args.join(", ")));
        }
    }
    out
}

/// Terraform's function table, with the `terraform` feature.
#[cfg(feature = "terraform")]
fn terraform_context() -> Option<Context> {
    Some(Context::with_terraform_functions())
}

#[cfg(not(feature = "terraform"))]
fn terraform_context() -> Option<Context> {
    None
}

fn oracle() -> Option<PathBuf> {
    let path = match std::env::var_os("HCL_TF_ORACLE") {
        Some(p) => PathBuf::from(p),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../../shared/oracle/terraform/bin/tforacle"),
    };
    path.is_file().then_some(path)
}

/// Our value as JSON, numbers as `f64`.
fn to_json(v: &Value) -> Json {
    match v {
        Value::Null => Json::Null,
        Value::Bool(b) => Json::Bool(*b),
        Value::Number(n) => {
            serde_json::Number::from_f64(n.as_f64()).map_or(Json::Null, Json::Number)
        }
        Value::String(s) => Json::String(s.clone()),
        Value::Array(a) => Json::Array(a.iter().map(to_json).collect()),
        Value::Object(o) => Json::Object(o.iter().map(|(k, v)| (k.clone(), to_json(v))).collect()),
        // No variable here is unknown, so no result is.
        Value::Unknown(t) => Json::String(format!("unknown({t})")),
    }
}

/// Whether two JSON values agree: numbers to 15 significant digits; the
/// elements of a set (`set` true) in any order.
fn agree(a: &Json, b: &Json, set: bool) -> bool {
    match (a, b) {
        (Json::Number(x), Json::Number(y)) => {
            let (x, y) = (
                x.as_f64().unwrap_or(f64::NAN),
                y.as_f64().unwrap_or(f64::NAN),
            );
            x == y || (x - y).abs() <= 1e-15 * x.abs().max(y.abs())
        }
        (Json::Array(x), Json::Array(y)) if x.len() == y.len() => {
            if set {
                let mut xs: Vec<String> = x.iter().map(Json::to_string).collect();
                let mut ys: Vec<String> = y.iter().map(Json::to_string).collect();
                xs.sort();
                ys.sort();
                xs == ys || x.iter().zip(y).all(|(p, q)| agree(p, q, false))
            } else {
                x.iter().zip(y).all(|(p, q)| agree(p, q, false))
            }
        }
        (Json::Object(x), Json::Object(y)) if x.len() == y.len() => x
            .iter()
            .all(|(k, v)| y.get(k).is_some_and(|w| agree(v, w, false))),
        _ => a == b,
    }
}

#[test]
fn terraform_functions_agree_with_tforacle() {
    let Some(ctx) = terraform_context() else {
        hcl_test_support::not_run(
            "tf_differential: skipped, Terraform's functions are the `terraform` feature (cargo test --all-features)",
        );
        return;
    };
    let Some(oracle) = oracle() else {
        hcl_test_support::not_run(
            "tf_differential: skipped, no tforacle (build it with `bash ../shared/oracle/terraform/build.sh`, or set HCL_TF_ORACLE)",
        );
        return;
    };
    let exprs = expressions();
    let mut input = String::new();
    for (i, e) in exprs.iter().enumerate() {
        let line = serde_json::json!({ "id": i.to_string(), "expr": e });
        input.push_str(&line.to_string());
        input.push('\n');
    }
    let mut child = Command::new(&oracle)
        .arg("jsonl")
        .arg("--now")
        .arg("2020-01-01T00:00:00Z")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("tforacle starts");
    let mut stdin = child.stdin.take().expect("tforacle's stdin");
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let oracle_start = std::time::Instant::now();
    let output = child.wait_with_output().expect("tforacle runs");
    println!("tforacle took {:?}", oracle_start.elapsed());
    writer.join().expect("writer").expect("input written");
    let text = String::from_utf8(output.stdout).expect("UTF-8 output");

    let mut compared = 0usize;
    let mut disagreements = Vec::new();
    let mut errors_both = 0usize;
    let mut slowest: Vec<(std::time::Duration, String)> = Vec::new();
    for line in text.lines() {
        let theirs: Json = serde_json::from_str(line).expect("a JSON line");
        let Some(i) = theirs["id"].as_str().and_then(|s| s.parse::<usize>().ok()) else {
            continue;
        };
        let expr = &exprs[i];
        compared += 1;
        let start = std::time::Instant::now();
        let ours =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| eval_expr_str(expr, &ctx)));
        slowest.push((start.elapsed(), expr.clone()));
        let Ok(ours) = ours else {
            disagreements.push(format!("{expr}: PANICKED"));
            continue;
        };
        let their_error = theirs.get("error").and_then(Json::as_bool) == Some(true);
        match (ours, their_error) {
            (Err(_), true) => errors_both += 1,
            (Ok(v), false) => {
                let set = theirs["type"]
                    .as_array()
                    .and_then(|t| t.first())
                    .and_then(Json::as_str)
                    == Some("set");
                if !agree(&theirs["value"], &to_json(&v), set) {
                    disagreements.push(format!(
                        "{expr}: tforacle {} / ours {}",
                        theirs["value"],
                        to_json(&v)
                    ));
                }
            }
            // The oracle writes its result as JSON, which has no
            // infinity: an infinite result is its error, and ours is the
            // same infinity as a value (`Number::INFINITY`).
            (Ok(Value::Number(n)), true)
                if n.is_infinite() && {
                    let detail = theirs["diagnostics"][0]["detail"].as_str().unwrap_or("");
                    let sign = if n == hcl::Number::INFINITY {
                        "+Inf"
                    } else {
                        "-Inf"
                    };
                    detail.contains(&format!("number is {sign} (infinite)"))
                } => {}
            (Ok(v), true) => disagreements.push(format!(
                "{expr}: tforacle error {} / ours {}",
                theirs["diagnostics"][0]["detail"],
                to_json(&v)
            )),
            (Err(e), false) => disagreements.push(format!(
                "{expr}: tforacle {} / ours error {e}",
                theirs["value"]
            )),
        }
    }
    slowest.sort();
    for (took, expr) in slowest.iter().rev().take(3) {
        println!("slowest: {took:?} {expr}");
    }
    for d in &disagreements {
        println!("DISAGREE {d}");
    }
    println!(
        "tf_differential: {} functions, {compared} calls ({errors_both} errors on both sides), {} disagreements ({:.2}%)",
        FUNCTIONS.len(),
        disagreements.len(),
        disagreements.len() as f64 * 100.0 / compared.max(1) as f64
    );
    assert_eq!(compared, exprs.len(), "tforacle answered every call");
    assert!(
        disagreements.is_empty(),
        "{} disagreements",
        disagreements.len()
    );
}
