//! The formatter against the reference's (`hclwrite.Format`): every input
//! `F` with an `F.fmt` beside it must format to exactly those bytes, and
//! formatting `F.fmt` again must change nothing; an input with an
//! `F.fmt.error.json` instead (the reference refused it) must be refused.
//! Used on `../shared/conformance-fmt/` and on the corpus.

use crate::report::excerpt;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Inputs whose formatted output the reference itself refuses to format
/// again (`../shared/conformance-fmt/README.md`, "Idempotence"): formatting
/// the expected output must then be a syntax error, as it is for the
/// reference.
const NOT_IDEMPOTENT: &[&str] = &["spacing/legacy_index_chain_spaced.hcl"];

/// One input and what the reference made of it.
#[derive(Debug)]
pub struct FmtCase {
    /// Path relative to the folder.
    pub name: String,
    /// The group it is counted in: the theme (first folder) for the
    /// conformance cases, the file kind for the corpus.
    pub group: String,
    path: PathBuf,
    expected: Expected,
}

#[derive(Debug)]
enum Expected {
    /// `F.fmt`: the exact bytes.
    Formatted(PathBuf),
    /// `F.fmt.error.json`: the reference refused the input.
    Refused,
}

/// Every input under `dir` with an `F.fmt` or `F.fmt.error.json` beside
/// it, sorted; `group` names each input's group from its relative path.
pub fn list(dir: &Path, group: impl Fn(&str) -> String) -> std::io::Result<Vec<FmtCase>> {
    let mut files = Vec::new();
    crate::walk(dir, &mut files)?;
    let names: BTreeSet<PathBuf> = files.iter().cloned().collect();
    let beside = |path: &Path, suffix: &str| {
        let mut p = path.as_os_str().to_owned();
        p.push(suffix);
        PathBuf::from(p)
    };
    let mut out = Vec::new();
    for path in files {
        let formatted = beside(&path, ".fmt");
        let refused = beside(&path, ".fmt.error.json");
        let expected = if names.contains(&formatted) {
            Expected::Formatted(formatted)
        } else if names.contains(&refused) {
            Expected::Refused
        } else {
            continue;
        };
        let name = crate::relative_name(dir, &path);
        out.push(FmtCase {
            group: group(&name),
            name,
            path,
            expected,
        });
    }
    Ok(out)
}

/// Checks one input. `newer`: the reference refused it for syntax added
/// after its version (`NEWER-HCL.txt`); it must then format, and formatting
/// its output must change nothing.
pub fn check(case: &FmtCase, newer: bool) -> Result<(), String> {
    let src = std::fs::read(&case.path).map_err(|e| format!("cannot read the input: {e}"))?;
    let ours = hcl_grammar::format(&src, &Default::default());
    match &case.expected {
        Expected::Refused if newer => {
            let out = ours.map_err(|e| format!("refused (newer HCL must format): {e}"))?;
            idempotent(&out)
        }
        Expected::Refused => match ours {
            Err(_) => Ok(()),
            Ok(out) => Err(format!(
                "formatted, the reference refused it; ours: {}",
                excerpt(&String::from_utf8_lossy(&out), 120)
            )),
        },
        Expected::Formatted(path) => {
            let expected =
                std::fs::read(path).map_err(|e| format!("cannot read the expected output: {e}"))?;
            let out = ours.map_err(|e| format!("refused, the reference formats it: {e}"))?;
            if out != expected {
                return Err(first_difference(&expected, &out));
            }
            if NOT_IDEMPOTENT.contains(&case.name.as_str()) {
                match hcl_grammar::format(&out, &Default::default()) {
                    Err(_) => Ok(()),
                    Ok(_) => Err(
                        "formatting the output again must be a syntax error, as for the reference"
                            .to_owned(),
                    ),
                }
            } else {
                idempotent(&out)
            }
        }
    }
}

fn idempotent(out: &[u8]) -> Result<(), String> {
    match hcl_grammar::format(out, &Default::default()) {
        Ok(again) if again == out => Ok(()),
        Ok(again) => Err(format!(
            "not idempotent: formatting the output again changes it: {}",
            first_difference(out, &again)
        )),
        Err(e) => Err(format!("not idempotent: the output does not parse: {e}")),
    }
}

/// The first line where `ours` differs from `expected`, both shown.
pub fn first_difference(expected: &[u8], ours: &[u8]) -> String {
    let expected = String::from_utf8_lossy(expected);
    let ours = String::from_utf8_lossy(ours);
    let mut theirs_lines = expected.split_inclusive('\n');
    let mut our_lines = ours.split_inclusive('\n');
    let mut line = 1;
    loop {
        match (theirs_lines.next(), our_lines.next()) {
            (None, None) => return "outputs differ".to_owned(),
            (a, b) if a == b => line += 1,
            (a, b) => {
                return format!(
                    "line {line}: expected {}, ours {}",
                    excerpt(a.unwrap_or("<end>"), 100),
                    excerpt(b.unwrap_or("<end>"), 100)
                )
            }
        }
    }
}

/// Checks the runner's own comparison on inputs whose verdict is known.
pub fn self_test() -> Result<(), String> {
    let same = first_difference(b"a = 1\n", b"a = 1\n");
    let differ = first_difference(b"a = 1\nb = 2\n", b"a = 1\nb  = 2\n");
    if same != "outputs differ" || !differ.starts_with("line 2:") {
        return Err(format!(
            "fmt self-test: first_difference gave {same:?} / {differ:?}"
        ));
    }
    if idempotent(b"a = 1\n").is_err() || idempotent(b"a=1\n").is_ok() {
        return Err("fmt self-test: the idempotence check is wrong".to_owned());
    }
    Ok(())
}
