//! A driver for instruction counts (callgrind) of the lossless parse:
//! one pass over the corpus files the edit benchmark uses, by one parser.
//!
//! ```text
//! cargo bench -p hcl-benches --bench edit_profile --no-run
//! valgrind --tool=callgrind --toggle-collect='*edit_profile::run*' \
//!     target/release/deps/edit_profile-HASH grammar|document|hcl-edit
//! ```
//!
//! The argument picks the parser: `grammar` (`hcl_grammar::parse_body`),
//! `document` (`hcl_grammar::edit::Document::parse`) or `hcl-edit`
//! (`hcl_edit::parser::parse_body`); the files are those all three parse
//! (`HCL_CORPUS_DIR`, default `../shared/corpus`). Only `run` is meant to
//! be counted; the input's size is printed, for instructions per byte.
//! A second argument, seconds, repeats the passes that long and prints
//! MB/s instead (a quick wall-clock look, not the benchmark).

#[path = "../tests/conformance/walk.rs"]
mod walk;
use hcl_grammar::edit::Document;
use std::hint::black_box;
use std::path::{Path, PathBuf};

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = std::env::var_os("HCL_CORPUS_DIR")
        .map_or_else(|| root.join("../../shared/corpus"), PathBuf::from);
    let mode = std::env::args().nth(1).unwrap_or_default();
    const KINDS: &[&str] = &[".hcl", ".tf", ".tfvars", ".nomad"];
    let mut paths = Vec::new();
    if let Err(e) = walk::walk(&dir, &mut paths) {
        eprintln!("edit_profile: {}: {e}", dir.display());
        std::process::exit(1);
    }
    let files: Vec<String> = paths
        .iter()
        .filter(|p| KINDS.iter().any(|k| p.to_string_lossy().ends_with(k)))
        .filter_map(|p| std::fs::read_to_string(p).ok())
        .filter(|s| Document::parse(s).is_ok() && hcl_edit::parser::parse_body(s).is_ok())
        .collect();
    let bytes: usize = files.iter().map(String::len).sum();
    let parse: fn(&str) -> bool = match mode.as_str() {
        "grammar" => |s| hcl_grammar::parse_body(s, &Default::default()).is_ok(),
        "document" => |s| Document::parse(s).is_ok(),
        "hcl-edit" => |s| hcl_edit::parser::parse_body(s).is_ok(),
        _ => {
            eprintln!("edit_profile: say grammar, document or hcl-edit");
            std::process::exit(2);
        }
    };
    let seconds = std::env::args().nth(2).and_then(|s| s.parse::<f64>().ok());
    let Some(seconds) = seconds else {
        let ok = run(&files, parse);
        println!("{mode}: {} files, {bytes} bytes, {ok} parsed", files.len());
        return;
    };
    let start = std::time::Instant::now();
    let mut passes = 0;
    while start.elapsed().as_secs_f64() < seconds {
        run(&files, parse);
        passes += 1;
    }
    let mbps = (bytes * passes) as f64 / start.elapsed().as_secs_f64() / 1e6;
    println!("{mode}: {mbps:.1} MB/s");
}

#[inline(never)]
fn run(files: &[String], parse: impl Fn(&str) -> bool) -> usize {
    files.iter().filter(|f| parse(black_box(f))).count()
}
