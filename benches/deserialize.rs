//! Deserialization throughput against hcl-rs 0.20, on the same inputs in
//! the same run.
//!
//! ```text
//! cargo bench --bench deserialize
//! ```
//!
//! 1. `terraform`: every corpus file the reference accepts (and both
//!    libraries read into the struct) into a Terraform-module struct whose
//!    attribute values are each library's expression type
//!    (`hcl::RawExpression`, `hcl_rs::Expression`): `variable`, `locals`,
//!    `output` and `module` typed, other blocks ignored. The same rounds
//!    also time each library's parser alone (`hcl_grammar::parse_body`,
//!    `hcl_rs::parse`), so the report splits the typed path into parsing
//!    and deserializing, and projects the ratio for a faster parser.
//! 2. `terraform NK`: the same struct on a synthetic module of 50 KB,
//!    500 KB and 5 MB (variables, locals, resources, modules, outputs).
//! 3. `value`: `from_str::<Value>` over the corpus files that evaluate
//!    without an application's variables, in both libraries.
//! 4. `value NK`: cost per byte of `from_str::<Value>` on a synthetic
//!    variables file of 50 KB, 500 KB and 5 MB. hcl-rs is not run on this
//!    5 MB file unless `HCL_BENCH_HCLRS_5MB` is set: it slows down with the
//!    size of a body of attributes (measured at 500 KB: a seventh of its
//!    50 KB speed) and one run would take minutes.
//!
//! All libraries run in interleaved rounds (ours, theirs, ours, ...), so a
//! shared machine's load falls on both alike. Reports MB/s (10^6 bytes per
//! second), the ratio ours / theirs over all rounds and the median ratio of
//! paired rounds, the machine, its load and the pest version in the lock
//! file. `HCL_CORPUS_DIR` names the corpus (default `../shared/corpus`;
//! when absent, the corpus parts are skipped); `HCL_BENCH_SECONDS` is the
//! time budget per library and part (default 3).
//!
//! For callgrind, `HCL_BENCH_PROFILE=typed` (or `parse`, `value`,
//! `theirs-typed`, `theirs-parse`, `theirs-value`) runs that one pass once
//! over its corpus files (those of parts 1 and 3) and nothing else timed:
//!
//! ```text
//! HCL_BENCH_PROFILE=value valgrind --tool=callgrind \
//!     --toggle-collect='*profiled*' target/release/deps/deserialize-*
//! ```

#[path = "support/corpus.rs"]
mod corpus;
#[path = "support/machine.rs"]
mod machine;
#[path = "support/pest_version.rs"]
mod pest_version;

use corpus::{corpus, corpus_dir};
use machine::{load, machine};
use pest_version::pest_version;
use std::hint::black_box;
use std::time::Duration;

#[path = "support/terraform_structs.rs"]
#[macro_use]
mod terraform_structs;

terraform_structs!(ours_tf, hcl::RawExpression);
terraform_structs!(theirs_tf, hcl_rs::Expression);

fn ours_typed(s: &str) -> bool {
    hcl::from_str::<ours_tf::Terraform>(s).is_ok()
}

fn theirs_typed(s: &str) -> bool {
    hcl_rs::from_str::<theirs_tf::Terraform>(s).is_ok()
}

fn ours_parse(s: &str) -> bool {
    hcl_grammar::parse_body(s, &Default::default()).is_ok()
}

fn theirs_parse(s: &str) -> bool {
    hcl_rs::parse(s).is_ok()
}

fn ours_value(s: &str) -> bool {
    hcl::from_str::<hcl::Value>(s).is_ok()
}

fn theirs_value(s: &str) -> bool {
    hcl_rs::from_str::<hcl_rs::Value>(s).is_ok()
}

#[path = "support/race.rs"]
mod race;
use race::{mbs, paired, race};

fn report(name: &str, inputs: &[String], ours: &[Duration], theirs: &[Duration]) {
    let bytes: usize = inputs.iter().map(String::len).sum();
    let (o, t) = (mbs(bytes, ours), mbs(bytes, theirs));
    println!(
        "{name:<15} {:>5} inputs {:>9} bytes   ours {o:>7.2} MB/s   hcl-rs {t:>7.2} MB/s   ratio {:.2}x (paired median {:.2}x)",
        inputs.len(),
        bytes,
        o / t,
        paired(ours, theirs)
    );
}

/// The median of `values`.
fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values.get(values.len() / 2).copied().unwrap_or(f64::NAN)
}

/// The typed struct with each library's parser alone in the same rounds:
/// the split of the typed path into parse and deserialize, and the ratio
/// it would have with a parser at `parse_target` times hcl-rs's. Each
/// figure is the median over rounds of the four runs of one round (run
/// back to back), which resists the noise of a shared machine.
fn typed_split(name: &str, inputs: &[String], parse_target: f64) {
    let r = race(
        inputs,
        &[ours_typed, theirs_typed, ours_parse, theirs_parse],
    );
    report(name, inputs, &r[0], &r[1]);
    let rounds: Vec<[f64; 4]> = (0..r[0].len())
        .map(|i| {
            let t = |k: usize| r[k].get(i).map_or(f64::NAN, Duration::as_secs_f64);
            [t(0), t(1), t(2), t(3)]
        })
        .collect();
    let med = |f: &dyn Fn(&[f64; 4]) -> f64| median(rounds.iter().map(f).collect());
    // Deserializing alone: the typed path less the parser, per round.
    let de = |[typed, _, parse, _]: &[f64; 4]| (typed - parse).max(0.0);
    println!(
        "{:<15} parse alone: ours / hcl-rs {:.2}x; deserialize alone (typed less parse): ours {:.1}% of our typed time = {:.1}% of hcl-rs's typed time; hcl-rs's own {:.1}% of its typed time",
        "",
        med(&|[_, _, parse, theirs_parse]| theirs_parse / parse),
        med(&|x| 100.0 * de(x) / x[0]),
        med(&|x| 100.0 * de(x) / x[1]),
        med(&|[_, theirs, _, theirs_parse]| 100.0 * (theirs - theirs_parse).max(0.0) / theirs),
    );
    println!(
        "{:<15} with our parser at {parse_target:.1}x hcl-rs's and deserializing as now: typed ratio {:.2}x",
        "",
        med(&|x| x[1] / (x[3] / parse_target + de(x))),
    );
}

/// A variables file of about `size` bytes.
fn synthetic_values(size: usize) -> String {
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

/// A Terraform module of about `size` bytes: per service two variables, a
/// locals block, a resource, a module call and an output.
fn synthetic_module(size: usize) -> String {
    let mut s = String::with_capacity(size + 1024);
    let mut i = 0;
    while s.len() < size {
        s.push_str(&format!(
            r#"variable "name_{i}" {{
  type        = string
  default     = "service-{i}"
  description = "The name of service {i}"
}}

variable "ports_{i}" {{
  type      = list(number)
  default   = [8000, 8001, {port}]
  sensitive = false
  nullable  = true
}}

locals {{
  fqdn_{i} = "${{var.name_{i}}}.example.com"
  zones_{i} = ["a", "b", "c"]
  weight_{i} = {i}.25
}}

resource "aws_instance" "web_{i}" {{
  ami           = var.ami
  instance_type = "t3.micro"
  count         = var.enabled ? 2 : 0
  tags = {{
    Name = "web-{i}"
    Team = "core"
  }}
  lifecycle {{
    create_before_destroy = true
  }}
}}

module "svc_{i}" {{
  source  = "./modules/service"
  version = "1.2.{i}"
  name    = var.name_{i}
  ports   = [for p in var.ports_{i} : p + 1]
}}

output "url_{i}" {{
  value       = "https://${{aws_instance.web_{i}[0].public_ip}}:${{var.ports_{i}[0]}}"
  description = "URL of service {i}"
  depends_on  = [module.svc_{i}]
}}

"#,
            port = 8000 + i % 1000,
        ));
        i += 1;
    }
    s
}

/// One pass of `run` over `inputs`: what callgrind counts
/// (`--toggle-collect='*profiled*'`).
#[inline(never)]
fn profiled(run: fn(&str) -> bool, inputs: &[String]) {
    for s in inputs {
        assert!(run(black_box(s)), "the profiled input fails");
    }
}

/// `HCL_BENCH_PROFILE=which`: one pass over the corpus files of that part.
fn profile(which: &str) {
    let Some(files) = corpus_dir().map(|dir| corpus(&dir)) else {
        panic!("HCL_BENCH_PROFILE needs the corpus (HCL_CORPUS_DIR)");
    };
    type Keep = fn(&String) -> bool;
    let typed: Keep = |s| ours_typed(s) && theirs_typed(s);
    let value: Keep = |s| ours_value(s) && theirs_value(s);
    let (run, keep): (fn(&str) -> bool, Keep) = match which {
        "typed" => (ours_typed, typed),
        "parse" => (ours_parse, typed),
        "value" => (ours_value, value),
        "theirs-typed" => (theirs_typed, typed),
        "theirs-parse" => (theirs_parse, typed),
        "theirs-value" => (theirs_value, value),
        other => panic!("HCL_BENCH_PROFILE={other}: unknown"),
    };
    let inputs: Vec<String> = files.into_iter().filter(keep).collect();
    profiled(run, &inputs);
}

fn main() {
    if let Ok(which) = std::env::var("HCL_BENCH_PROFILE") {
        profile(&which);
        return;
    }
    println!("machine: {}; load average {}", machine(), load());
    println!("pest {} (Cargo.lock)", pest_version());
    // With the parser at this multiple of hcl-rs's, what would the typed
    // path's ratio be? (The goal of issue #15.)
    let parse_target = 2.0;
    let files = corpus_dir().map(|dir| corpus(&dir));
    if let Some(files) = &files {
        let tf: Vec<String> = files
            .iter()
            .filter(|s| ours_typed(s) && theirs_typed(s))
            .cloned()
            .collect();
        typed_split("terraform", &tf, parse_target);
    } else {
        println!("corpus absent: corpus parts skipped (set HCL_CORPUS_DIR)");
    }
    for size in [50_000, 500_000, 5_000_000] {
        let input = vec![synthetic_module(size)];
        typed_split(&format!("terraform {}K", size / 1000), &input, parse_target);
    }
    if let Some(files) = &files {
        let values: Vec<String> = files
            .iter()
            .filter(|s| ours_value(s) && theirs_value(s))
            .cloned()
            .collect();
        let r = race(&values, &[ours_value, theirs_value]);
        report("value", &values, &r[0], &r[1]);
    }
    for size in [50_000, 500_000, 5_000_000] {
        let input = vec![synthetic_values(size)];
        let name = format!("value {}K", size / 1000);
        if size < 5_000_000 || std::env::var_os("HCL_BENCH_HCLRS_5MB").is_some() {
            let r = race(&input, &[ours_value, theirs_value]);
            report(&name, &input, &r[0], &r[1]);
        } else {
            let r = race(&input, &[ours_value]);
            println!(
                "{name:<15} {:>5} inputs {:>9} bytes   ours {:>7.2} MB/s   hcl-rs not run (set HCL_BENCH_HCLRS_5MB)",
                1,
                input[0].len(),
                mbs(input[0].len(), &r[0])
            );
        }
    }
    println!("load average at the end: {}", load());
}
