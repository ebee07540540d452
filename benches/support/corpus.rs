//! The corpus files the reference reads (`MANIFEST.tsv`'s `ok` rows), for
//! the benches that race over them.

use std::path::{Path, PathBuf};

/// The corpus folder: `HCL_CORPUS_DIR`, or `../shared/corpus` beside the
/// workspace; `None` when it has no manifest.
pub fn corpus_dir() -> Option<PathBuf> {
    let dir = match std::env::var_os("HCL_CORPUS_DIR") {
        Some(d) => PathBuf::from(d),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus"),
    };
    dir.join("MANIFEST.tsv").is_file().then_some(dir)
}

/// Every corpus file the reference reads, as text.
pub fn corpus(dir: &Path) -> Vec<String> {
    let manifest = std::fs::read_to_string(dir.join("MANIFEST.tsv")).unwrap_or_default();
    manifest
        .lines()
        .skip(1)
        .filter_map(|line| {
            let cols: Vec<&str> = line.split('\t').collect();
            (cols.get(4) == Some(&"ok"))
                .then(|| {
                    cols.first()
                        .and_then(|p| std::fs::read_to_string(dir.join(p)).ok())
                })
                .flatten()
        })
        .collect()
}
