//! Every file under a folder, recursively, sorted by path: shared by the
//! conformance runner, the differential test and the benchmarks.

use std::path::{Path, PathBuf};

/// Appends every file under `dir` (recursively) to `out`, sorted by path.
pub fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    let mut entries: Vec<_> = std::fs::read_dir(dir)?
        .map(|e| e.map(|e| e.path()))
        .collect::<Result<_, _>>()?;
    entries.sort();
    for path in entries {
        if path.is_dir() {
            walk(&path, out)?;
        } else {
            out.push(path);
        }
    }
    Ok(())
}
