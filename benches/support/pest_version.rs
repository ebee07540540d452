//! The pest version a benchmark was built with, for its report.

/// The `pest` version in the workspace's `Cargo.lock` (read when the
/// benchmark is compiled, so it is the version linked into a `--locked`
/// or ordinary build of this workspace).
pub fn pest_version() -> String {
    let lock = include_str!("../../Cargo.lock");
    let mut lines = lock.lines();
    while let Some(line) = lines.next() {
        if line == "name = \"pest\"" {
            if let Some(v) = lines
                .next()
                .and_then(|l| l.strip_prefix("version = \""))
                .and_then(|l| l.strip_suffix('"'))
            {
                return v.to_owned();
            }
        }
    }
    "unknown".to_owned()
}
