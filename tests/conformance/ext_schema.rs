//! `conformance-ext/dynblock/` and `merge/`: bodies decoded through
//! `hcl::schema` with the case's schema (recursively into every block,
//! strictly, as `json_cases` does), then evaluated with the case's
//! variables and the standard functions. dynblock: the file's body wrapped
//! by `hcl::ext::dynblock::expand`. merge: the files of `NAME.merge/` in
//! bytewise order of their names, as one body (`hcl::schema::merge`).

use crate::ext::{judge, Outcome, Phase};
use crate::json::Json;
use crate::json_cases::{decode, evaluate, schema_of};
use hcl::schema::{merge, File, SchemaBody};
use hcl::{Context, Syntax};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// `NAME.SUFFIX` beside `path` (whose name ends in `strip`).
fn sibling(path: &Path, strip: &str, suffix: &str) -> PathBuf {
    let s = path.to_string_lossy();
    let base = s.strip_suffix(strip).unwrap_or(&s);
    PathBuf::from(format!("{base}{suffix}"))
}

fn read_optional(path: &Path) -> Result<Option<Json>, String> {
    match std::fs::read(path) {
        Ok(b) => crate::json::parse(&b)
            .map(Some)
            .map_err(|e| format!("{}: {e}", path.display())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(format!("{}: {e}", path.display())),
    }
}

/// The phase, message, line and file of an error of ours.
fn phase(p: &'static str) -> impl Fn(hcl::Error) -> (Phase<'static>, Option<String>) {
    move |e| {
        let file = e.file().map(str::to_owned);
        ((p, e.message().to_owned(), e.line().unwrap_or(0)), file)
    }
}

/// Decodes then evaluates `body` against the case's schema.
fn decode_and_eval(
    body: &SchemaBody<'_>,
    schema: Option<&Json>,
    ctx: &Context,
) -> Result<hcl::Value, (Phase<'static>, Option<String>)> {
    let schema = schema_of(schema).map_err(|e| (("setup", e, 0), None))?;
    let d = decode(body, &schema).map_err(phase("decode"))?;
    evaluate(&d, Some(ctx)).map_err(phase("eval"))
}

/// A `dynblock/NAME.dyn.hcl` case.
pub fn check_dynblock(path: &Path, input: &[u8], expected: &Json) -> Outcome {
    let Ok(src) = std::str::from_utf8(input) else {
        return Outcome::of(Err("input is not UTF-8".to_owned()));
    };
    let (schema, vars) = match (
        read_optional(&sibling(path, ".dyn.hcl", ".schema.json")),
        read_optional(&sibling(path, ".dyn.hcl", ".vars.json")),
    ) {
        (Ok(s), Ok(v)) => (s, v),
        (Err(e), _) | (_, Err(e)) => return Outcome::of(Err(e)),
    };
    let ctx = match crate::values::context(vars.as_ref()) {
        Ok(c) => Arc::new(c),
        Err(e) => return Outcome::of(Err(e)),
    };
    let ours = File::parse(src, Syntax::Native)
        .map_err(phase("parse"))
        .and_then(|file| {
            let body = hcl::ext::dynblock::expand(&file.body(), &ctx);
            decode_and_eval(&body, schema.as_ref(), &ctx)
        });
    judge(expected, ours.map_err(|(p, _)| p))
}

/// A `merge/NAME.merge/` case (`path` is its expected document): besides
/// the phase, the first error's file is compared (`Outcome::files`).
pub fn check_merge(path: &Path, expected: &Json) -> Outcome {
    let dir = sibling(path, ".expected.json", "");
    let (schema, vars) = match (
        read_optional(&sibling(&dir, ".merge", ".schema.json")),
        read_optional(&sibling(&dir, ".merge", ".vars.json")),
    ) {
        (Ok(s), Ok(v)) => (s, v),
        (Err(e), _) | (_, Err(e)) => return Outcome::of(Err(e)),
    };
    let ctx = match crate::values::context(vars.as_ref()) {
        Ok(c) => c,
        Err(e) => return Outcome::of(Err(e)),
    };
    let mut names: Vec<String> = match std::fs::read_dir(&dir) {
        Ok(entries) => entries
            .filter_map(|e| e.ok()?.file_name().into_string().ok())
            .collect(),
        Err(e) => return Outcome::of(Err(format!("{}: {e}", dir.display()))),
    };
    names.sort();
    let mut texts = Vec::new();
    for n in &names {
        match std::fs::read_to_string(dir.join(n)) {
            Ok(t) => texts.push(t),
            Err(e) => return Outcome::of(Err(format!("{n}: {e}"))),
        }
    }
    let ours = names
        .iter()
        .zip(&texts)
        .map(|(n, t)| File::parse_named(n.clone(), t, Syntax::Native))
        .collect::<Result<Vec<_>, _>>()
        .map_err(phase("parse"))
        .and_then(|files| decode_and_eval(&merge(&files), schema.as_ref(), &ctx));
    let our_file = ours.as_ref().err().and_then(|(_, f)| f.clone());
    let mut outcome = judge(expected, ours.map_err(|(p, _)| p));
    // The same files through serde (`hcl::from_files_with`).
    if outcome.result.is_ok() {
        match crate::ext_files::check(&names, &texts, expected, &ctx) {
            Ok(applied) => crate::ext_files::count(applied),
            Err(e) => outcome.result = Err(format!("serde route (from_files_with): {e}")),
        }
    }
    if outcome.lines.is_some() {
        let theirs = expected
            .get("diagnostics")
            .and_then(Json::as_array)
            .and_then(<[Json]>::first)
            .and_then(|d| d.get("file"))
            .and_then(Json::as_str)
            .map(str::to_owned);
        outcome.files = Some((theirs, our_file));
    }
    outcome
}
