//! The conformance cases: small inputs with the reference's expected
//! document beside each (format: `../shared/conformance/README.md`).
//!
//! A case checks the parse outcome first: an error document of the
//! `"parse"` phase means our parser must reject the input, anything else
//! means it must accept it. A case that parses is then evaluated with its
//! variables and compared with [`Expected::Value`] / [`Expected::Eval`]
//! (see `values.rs`).

use crate::grammar::{self, Mode, Rejection};
use crate::json::{self, Json};
use std::path::{Path, PathBuf};

/// One conformance case.
#[derive(Debug)]
pub struct Case {
    /// The case's path relative to the conformance folder
    /// (`lexical/bom_leading_accepted.hcl`).
    pub name: String,
    /// The section (the first folder of `name`).
    pub section: String,
    /// How the input is read.
    pub mode: Mode,
    /// The input, byte for byte (some cases are invalid UTF-8).
    pub input: Vec<u8>,
    /// The variables (`NAME.vars.json`), if any.
    pub vars: Option<Json>,
    /// What the reference produced.
    pub expected: Expected,
}

/// What the reference produced for a case.
#[derive(Debug)]
pub enum Expected {
    /// A value: for body mode the `{"attributes", "blocks"}` document, for
    /// expr and template mode the `{"value"}` document.
    Value(Json),
    /// An error document of the `"parse"` phase: the input is not valid
    /// syntax.
    Parse(Diagnostic),
    /// An error document of the `"eval"` phase: the input parses, its
    /// evaluation fails.
    Eval(Diagnostic),
}

/// The first diagnostic of an error document.
#[derive(Debug)]
pub struct Diagnostic {
    /// Its summary.
    pub summary: String,
    /// Its 1-based line.
    pub line: Option<u64>,
}

impl Expected {
    fn from_document(doc: Json) -> Result<Expected, String> {
        if doc.get("error") != Some(&Json::Bool(true)) {
            return Ok(Expected::Value(doc));
        }
        let first = doc
            .get("diagnostics")
            .and_then(Json::as_array)
            .and_then(<[Json]>::first);
        let diagnostic = Diagnostic {
            summary: first
                .and_then(|d| d.get("summary"))
                .and_then(Json::as_str)
                .unwrap_or("(no summary)")
                .to_owned(),
            line: first.and_then(|d| d.get("line")).and_then(Json::as_u64),
        };
        match doc.get("phase").and_then(Json::as_str) {
            Some("parse") => Ok(Expected::Parse(diagnostic)),
            Some("eval") => Ok(Expected::Eval(diagnostic)),
            other => Err(format!("error document with phase {other:?}")),
        }
    }
}

/// Every case file under `dir` (recursive, sorted by path), or the reason
/// a case could not be loaded, keyed by its name.
pub fn load_all(dir: &Path) -> std::io::Result<Vec<Result<Case, (String, String)>>> {
    let mut files = Vec::new();
    crate::walk(dir, &mut files)?;
    let mut cases = Vec::new();
    for path in files {
        let Some(file_name) = path.file_name().and_then(|n| n.to_str()) else {
            continue;
        };
        let Some(mode) = Mode::of_path(file_name) else {
            continue;
        };
        let name = crate::relative_name(dir, &path);
        cases.push(load(&path, name, mode));
    }
    Ok(cases)
}

fn load(path: &Path, name: String, mode: Mode) -> Result<Case, (String, String)> {
    let fail = |why: String| (name.clone(), why);
    let input = std::fs::read(path).map_err(|e| fail(format!("cannot read input: {e}")))?;
    let expected_path = sibling(path, ".expected.json");
    let expected_bytes = std::fs::read(&expected_path).map_err(|e| {
        fail(format!(
            "cannot read expected document {}: {e}",
            expected_path.display()
        ))
    })?;
    let expected = json::parse(&expected_bytes)
        .and_then(Expected::from_document)
        .map_err(|e| fail(format!("bad expected document: {e}")))?;
    let vars_path = vars_path(path);
    let vars = match std::fs::read(&vars_path) {
        Ok(bytes) => Some(json::parse(&bytes).map_err(|e| fail(format!("bad vars file: {e}")))?),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(fail(format!("cannot read vars file: {e}"))),
    };
    let section = name.split('/').next().unwrap_or_default().to_owned();
    Ok(Case {
        name,
        section,
        mode,
        input,
        vars,
        expected,
    })
}

/// `dir/stem.ext` -> `dir/stem.ext<suffix>`.
fn sibling(path: &Path, suffix: &str) -> PathBuf {
    let mut s = path.as_os_str().to_owned();
    s.push(suffix);
    PathBuf::from(s)
}

/// `dir/stem.hclexpr` -> `dir/stem.vars.json`.
fn vars_path(path: &Path) -> PathBuf {
    path.with_extension("vars.json")
}

/// The result of checking one case.
#[derive(Debug)]
pub struct Verdict {
    /// Agreement with the reference, or what differed.
    pub outcome: Result<(), String>,
    /// For an input both sides reject: (reference's first error line, ours).
    pub error_lines: Option<(u64, usize)>,
    /// Why the case cannot be checked yet (it calls a standard function
    /// we lack); `outcome` is then meaningless.
    pub pending: Option<String>,
}

/// Checks one case against the reference.
pub fn check(case: &Case) -> Verdict {
    let parsed = grammar::parse(case.mode, &case.input);
    match (&case.expected, parsed) {
        (Expected::Parse(diag), Err(ours)) => Verdict {
            outcome: Ok(()),
            error_lines: diag.line.map(|line| (line, ours.line)),
            pending: None,
        },
        (Expected::Parse(diag), Ok(())) => Verdict {
            outcome: Err(format!(
                "accepted, but the reference rejects it: {}{}",
                diag.summary,
                diag.line
                    .map(|l| format!(" (line {l})"))
                    .unwrap_or_default()
            )),
            error_lines: None,
            pending: None,
        },
        (Expected::Value(_) | Expected::Eval(_), Err(ours)) => Verdict {
            outcome: Err(rejected(&ours, &case.expected)),
            error_lines: None,
            pending: None,
        },
        (Expected::Value(_) | Expected::Eval(_), Ok(())) => crate::values::check(case),
    }
}

fn rejected(ours: &Rejection, expected: &Expected) -> String {
    let theirs = match expected {
        Expected::Eval(d) => format!(
            "the reference parses it (then fails to evaluate: {})",
            d.summary
        ),
        _ => "the reference accepts it".to_owned(),
    };
    format!("rejected ({ours}), but {theirs}")
}
