//! HCL's JSON syntax against serde_json, on the same JSON text in the same
//! run.
//!
//! ```text
//! cargo bench --bench json
//! ```
//!
//! Ours is `hcl::from_json_str` with no context (strings are literal, as
//! serde_json's are); theirs is `serde_json::from_str`. Parts:
//!
//! 1. `value 52K`, `value 1M`, `value 6M`: a Terraform-like `.tf.json`
//!    file (resources with strings, numbers, bools, lists and nested
//!    objects) of about 52 KB, 1 MB and 6 MB, built here, into
//!    `hcl::Value` / `serde_json::Value`; `value 1M slice` the 1 MB file
//!    through `from_json_slice` / `serde_json::from_slice`.
//! 2. `typed 52K`, `typed 1M`, `typed 6M`: a Terraform module in JSON
//!    (variables, locals, resources, modules, outputs) into the
//!    Terraform-module struct of the deserialize bench, whose expressions
//!    are `hcl::Value` in ours and `serde_json::Value` in theirs
//!    (resources ignored by both).
//! 3. `cases`: every input of `../shared/conformance-json` that both
//!    accept into a `Value` (skipped when the folder is absent).
//! 4. `corpus`, `corpus typed`: the corpus (`../shared/corpus`, or
//!    `HCL_CORPUS_DIR`; skipped when absent) in JSON syntax, each native
//!    file the reference reads written as the `.tf.json` a tool would
//!    write for it (`support/json_corpus.rs`: the corpus has no
//!    JSON-syntax files), those that both accept, into a `Value` and into
//!    the Terraform-module struct.
//!
//! Both run in interleaved rounds (ours, theirs, ours, ...). Reports MB/s
//! (10^6 bytes per second), the ratio ours / theirs over all rounds and
//! the median ratio of paired rounds, and for the sized parts our time
//! per byte against the 52 KB size's. `HCL_BENCH_SECONDS` is the time
//! budget per library and part (default 3).
//!
//! For a profile, `HCL_JSON_PROFILE=ours-value` (or `theirs-value`,
//! `ours-typed`, `theirs-typed`, `ours-cases`, `theirs-cases`,
//! `ours-corpus`, `theirs-corpus`, `ours-corpus-typed`,
//! `theirs-corpus-typed`; or the
//! syntax alone, `ours-parse-value` / `-typed`, our document, and
//! `theirs-parse-value` / `-typed`, serde_json into `IgnoredAny`) with
//! `HCL_JSON_SIZE` (bytes, default 1000000) runs that one function once
//! (`HCL_JSON_REPEAT` times) and exits:
//! `valgrind --tool=callgrind --toggle-collect='*profiled*'`.

#[path = "support/machine.rs"]
mod machine;

use std::hint::black_box;
use std::path::{Path, PathBuf};

#[path = "support/terraform_structs.rs"]
#[macro_use]
mod terraform_structs;

terraform_structs!(ours_tf, hcl::Value);
terraform_structs!(theirs_tf, serde_json::Value);

fn ours_value(s: &str) -> bool {
    hcl::from_json_str::<hcl::Value>(s).is_ok()
}

fn theirs_value(s: &str) -> bool {
    serde_json::from_str::<serde_json::Value>(s).is_ok()
}

fn ours_value_slice(s: &str) -> bool {
    hcl::from_json_slice::<hcl::Value>(s.as_bytes()).is_ok()
}

fn theirs_value_slice(s: &str) -> bool {
    serde_json::from_slice::<serde_json::Value>(s.as_bytes()).is_ok()
}

/// The syntax alone: our spanned document, serde_json's check of the
/// text (`IgnoredAny`), for profiles.
fn ours_parse(s: &str) -> bool {
    hcl_grammar::json::parse_json(s, &Default::default()).is_ok()
}

fn theirs_parse(s: &str) -> bool {
    serde_json::from_str::<serde::de::IgnoredAny>(s).is_ok()
}

fn ours_typed(s: &str) -> bool {
    hcl::from_json_str::<ours_tf::Terraform>(s).is_ok()
}

fn theirs_typed(s: &str) -> bool {
    serde_json::from_str::<theirs_tf::Terraform>(s).is_ok()
}

#[path = "support/corpus.rs"]
mod corpus;
#[path = "support/json_corpus.rs"]
mod json_corpus;

/// The corpus in JSON syntax, the files that both read with `ours` and
/// `theirs`; empty without the corpus.
fn corpus_json(ours: fn(&str) -> bool, theirs: fn(&str) -> bool) -> Vec<String> {
    let Some(dir) = corpus::corpus_dir() else {
        return Vec::new();
    };
    json_corpus::json_corpus(&corpus::corpus(&dir))
        .into_iter()
        .filter(|s| ours(s) && theirs(s))
        .collect()
}

#[path = "support/race.rs"]
mod race;
use race::{mbs, paired, race};

/// Races and prints one part; returns our MB/s.
fn report(name: &str, inputs: &[String], ours: fn(&str) -> bool, theirs: fn(&str) -> bool) -> f64 {
    assert!(
        inputs.iter().all(|s| ours(s) && theirs(s)),
        "{name}: an input fails"
    );
    let r = race(inputs, &[ours, theirs]);
    let [o, t] = [r[0].as_slice(), r[1].as_slice()];
    let bytes: usize = inputs.iter().map(String::len).sum();
    let (mo, mt) = (mbs(bytes, o), mbs(bytes, t));
    println!(
        "{name:<15} {:>4} inputs {:>8} bytes   ours {mo:>7.2} MB/s   serde_json {mt:>7.2} MB/s   ratio {:.2}x (paired median {:.2}x, {} rounds)",
        inputs.len(),
        bytes,
        mo / mt,
        paired(o, t),
        o.len().min(t.len()),
    );
    mo
}

/// A Terraform-like JSON configuration of about `target` bytes.
fn generated(target: usize) -> String {
    let mut out = String::from("{\n  \"resource\": {\n    \"aws_instance\": {\n");
    let mut i = 0;
    while out.len() < target {
        if i > 0 {
            out.push_str(",\n");
        }
        out.push_str(&format!(
            concat!(
                "      \"web_{i}\": {{\n",
                "        \"ami\": \"ami-{i:08x}\",\n",
                "        \"instance_type\": \"t3.micro\",\n",
                "        \"count\": {i},\n",
                "        \"ebs_optimized\": true,\n",
                "        \"cpu_credits\": 12.5,\n",
                "        \"security_groups\": [\"sg-1\", \"sg-2\", \"sg-{i}\"],\n",
                "        \"tags\": {{\"Name\": \"web {i}\", \"Env\": \"prod\", \"Cost Center\": \"42\"}},\n",
                "        \"root_block_device\": [{{\"volume_size\": 100, \"encrypted\": false}}]\n",
                "      }}"
            ),
            i = i
        ));
        i += 1;
    }
    out.push_str("\n    }\n  }\n}\n");
    out
}

/// A Terraform module in JSON of about `target` bytes: the deserialize
/// bench's synthetic module, written in the JSON syntax.
fn module(target: usize) -> String {
    let (mut variable, mut locals, mut resource, mut module, mut output) = (
        String::new(),
        String::new(),
        String::new(),
        String::new(),
        String::new(),
    );
    let mut i = 0;
    let sep = |s: &mut String| {
        if !s.is_empty() {
            s.push_str(",\n");
        }
    };
    while variable.len() + locals.len() + resource.len() + module.len() + output.len() < target {
        let port = 8000 + i % 1000;
        sep(&mut variable);
        variable.push_str(&format!(
            concat!(
                "    \"name_{i}\": {{\"type\": \"string\", \"default\": \"service-{i}\", ",
                "\"description\": \"The name of service {i}\"}},\n",
                "    \"ports_{i}\": {{\"type\": \"list(number)\", \"default\": [8000, 8001, {port}], ",
                "\"sensitive\": false, \"nullable\": true}}"
            ),
            i = i,
            port = port
        ));
        sep(&mut locals);
        locals.push_str(&format!(
            concat!(
                "    {{\"fqdn_{i}\": \"${{var.name_{i}}}.example.com\", ",
                "\"zones_{i}\": [\"a\", \"b\", \"c\"], \"weight_{i}\": {i}.25}}"
            ),
            i = i
        ));
        sep(&mut resource);
        resource.push_str(&format!(
            concat!(
                "      \"web_{i}\": {{\n",
                "        \"ami\": \"${{var.ami}}\",\n",
                "        \"instance_type\": \"t3.micro\",\n",
                "        \"count\": \"${{var.enabled ? 2 : 0}}\",\n",
                "        \"tags\": {{\"Name\": \"web-{i}\", \"Team\": \"core\"}},\n",
                "        \"lifecycle\": {{\"create_before_destroy\": true}}\n",
                "      }}"
            ),
            i = i
        ));
        sep(&mut module);
        module.push_str(&format!(
            concat!(
                "    \"svc_{i}\": {{\"source\": \"./modules/service\", \"version\": \"1.2.{i}\", ",
                "\"name\": \"${{var.name_{i}}}\", \"ports\": \"${{[for p in var.ports_{i} : p + 1]}}\"}}"
            ),
            i = i
        ));
        sep(&mut output);
        output.push_str(&format!(
            concat!(
                "    \"url_{i}\": {{\n",
                "      \"value\": \"https://${{aws_instance.web_{i}[0].public_ip}}:${{var.ports_{i}[0]}}\",\n",
                "      \"description\": \"URL of service {i}\",\n",
                "      \"depends_on\": [\"module.svc_{i}\"]\n",
                "    }}"
            ),
            i = i
        ));
        i += 1;
    }
    format!(
        "{{\n  \"variable\": {{\n{variable}\n  }},\n  \"locals\": [\n{locals}\n  ],\n  \"resource\": {{\n    \"aws_instance\": {{\n{resource}\n    }}\n  }},\n  \"module\": {{\n{module}\n  }},\n  \"output\": {{\n{output}\n  }}\n}}\n"
    )
}

fn cases_dir() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/conformance-json");
    dir.is_dir().then_some(dir)
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            walk(&p, out);
        } else if p.to_string_lossy().ends_with(".hcl.json") {
            out.push(p);
        }
    }
}

/// The conformance inputs both read into a `Value`.
fn cases(dir: &Path) -> Vec<String> {
    let mut files = Vec::new();
    walk(dir, &mut files);
    files.sort();
    files
        .iter()
        .filter_map(|p| std::fs::read_to_string(p).ok())
        .filter(|s| ours_value(s) && theirs_value(s))
        .collect()
}

/// Runs one function once over its inputs, for a profiler.
#[inline(never)]
fn profiled(run: fn(&str) -> bool, inputs: &[String]) {
    for s in inputs {
        assert!(run(black_box(s)), "the profiled input fails");
    }
}

fn profile(which: &str) {
    let size = std::env::var("HCL_JSON_SIZE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1_000_000);
    let (run, inputs): (fn(&str) -> bool, Vec<String>) = match which {
        "ours-value" => (ours_value, vec![generated(size)]),
        "theirs-value" => (theirs_value, vec![generated(size)]),
        "ours-typed" => (ours_typed, vec![module(size)]),
        "theirs-typed" => (theirs_typed, vec![module(size)]),
        "ours-parse-value" => (ours_parse, vec![generated(size)]),
        "theirs-parse-value" => (theirs_parse, vec![generated(size)]),
        "ours-parse-typed" => (ours_parse, vec![module(size)]),
        "theirs-parse-typed" => (theirs_parse, vec![module(size)]),
        "ours-cases" | "theirs-cases" => {
            let inputs = cases_dir().map(|d| cases(&d)).unwrap_or_default();
            let run = if which == "ours-cases" {
                ours_value
            } else {
                theirs_value
            };
            (run, inputs)
        }
        "ours-corpus" => (ours_value, corpus_json(ours_value, theirs_value)),
        "theirs-corpus" => (theirs_value, corpus_json(ours_value, theirs_value)),
        "ours-corpus-typed" => (ours_typed, corpus_json(ours_typed, theirs_typed)),
        "theirs-corpus-typed" => (theirs_typed, corpus_json(ours_typed, theirs_typed)),
        other => panic!("HCL_JSON_PROFILE={other}: unknown"),
    };
    let repeat = std::env::var("HCL_JSON_REPEAT")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    for _ in 0..repeat {
        profiled(run, &inputs);
    }
}

fn main() {
    if let Ok(which) = std::env::var("HCL_JSON_PROFILE") {
        profile(&which);
        return;
    }
    println!(
        "machine: {}; load average {}",
        machine::machine(),
        machine::load()
    );
    println!("JSON syntax: hcl::from_json_str vs serde_json::from_str, no context");
    let sizes = [("52K", 52_000), ("1M", 1_000_000), ("6M", 6_000_000)];
    let mut first = None;
    for (name, size) in sizes {
        let text = generated(size);
        let mo = report(&format!("value {name}"), &[text], ours_value, theirs_value);
        let base = *first.get_or_insert(mo);
        println!(
            "{:>15} our time per byte: {:.2}x the 52K size's",
            "",
            base / mo
        );
    }
    report(
        "value 1M slice",
        &[generated(1_000_000)],
        ours_value_slice,
        theirs_value_slice,
    );
    let mut first = None;
    for (name, size) in sizes {
        let text = module(size);
        let mo = report(&format!("typed {name}"), &[text], ours_typed, theirs_typed);
        let base = *first.get_or_insert(mo);
        println!(
            "{:>15} our time per byte: {:.2}x the 52K size's",
            "",
            base / mo
        );
    }
    match cases_dir() {
        None => println!("cases           skipped: no ../shared/conformance-json"),
        Some(dir) => {
            report("cases", &cases(&dir), ours_value, theirs_value);
        }
    }
    let files = corpus_json(ours_value, theirs_value);
    if files.is_empty() {
        println!("corpus          skipped: no ../shared/corpus (HCL_CORPUS_DIR)");
    } else {
        report("corpus", &files, ours_value, theirs_value);
        let typed = corpus_json(ours_typed, theirs_typed);
        report("corpus typed", &typed, ours_typed, theirs_typed);
    }
    println!("load average after: {}", machine::load());
}
