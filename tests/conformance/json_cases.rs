//! The JSON-syntax conformance cases (`../shared/conformance-json/`, format
//! in its README): each input is parsed, decoded with its schema through
//! `hcl::schema` (recursively into every block) and evaluated with its
//! context, and the result (a BODY document, or the phase of the first
//! failure) is compared with the reference's.

use crate::json::{self, Json};
use crate::values;
use hcl::schema::{BodySchema, File, SchemaBody};
use hcl::{Context, Map, Value};
use std::path::Path;

/// One case, ready to run.
#[derive(Clone)]
pub struct Case {
    /// The path relative to the folder.
    pub name: String,
    /// Its section (`spec/body`, `converted/structure`...).
    pub section: String,
    /// The document's bytes.
    pub input: Vec<u8>,
    schema: Option<Json>,
    vars: Option<Json>,
    /// The evaluation mode (`nil-ctx`, `no-vars`, `empty-ctx`), if any.
    pub mode: Option<String>,
    /// The reference's document.
    pub expected: Json,
}

/// Every case under `dir` (its subfolders `spec/` and `converted/`).
pub fn load_all(dir: &Path) -> std::io::Result<Vec<Result<Case, (String, String)>>> {
    let mut files = Vec::new();
    crate::walk(dir, &mut files)?;
    let mut out = Vec::new();
    for path in files {
        let Some(file) = path.file_name().and_then(|n| n.to_str()) else {
            continue;
        };
        let Some(stem) = file.strip_suffix(".hcl.json") else {
            continue;
        };
        let name = crate::relative_name(dir, &path);
        let sibling = |suffix: &str| path.with_file_name(format!("{stem}{suffix}"));
        let read_json = |p: &Path| -> Result<Option<Json>, String> {
            match std::fs::read(p) {
                Ok(b) => json::parse(&b)
                    .map(Some)
                    .map_err(|e| format!("{}: {e}", p.display())),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
                Err(e) => Err(format!("{}: {e}", p.display())),
            }
        };
        let load = || -> Result<Case, String> {
            let input = std::fs::read(&path).map_err(|e| e.to_string())?;
            let expected =
                read_json(&sibling(".hcl.json.expected.json"))?.ok_or("no expected document")?;
            let mode = std::fs::read_to_string(sibling(".mode"))
                .ok()
                .map(|m| m.trim().to_owned());
            let section = name.rsplit_once('/').map_or("", |(s, _)| s).to_owned();
            Ok(Case {
                name: name.clone(),
                section,
                input,
                schema: read_json(&sibling(".schema.json"))?,
                vars: read_json(&sibling(".vars.json"))?,
                mode,
                expected,
            })
        };
        out.push(load().map_err(|why| (name.clone(), why)));
    }
    Ok(out)
}

/// A schema document: its attributes (`None` for `"*"`) and block types
/// with their label names and body schemas.
pub struct Schema {
    attributes: Option<Vec<(String, bool)>>,
    blocks: Vec<(String, Vec<String>, Schema)>,
}

pub fn schema_of(doc: Option<&Json>) -> Result<Schema, String> {
    let Some(doc) = doc else {
        return Ok(Schema {
            attributes: None,
            blocks: Vec::new(),
        });
    };
    let attributes = match doc.get("attributes") {
        None => None,
        Some(Json::String(s)) if s == "*" => None,
        Some(Json::Object(members)) => Some(
            members
                .iter()
                .map(|(k, v)| (k.clone(), v.get("required") == Some(&Json::Bool(true))))
                .collect(),
        ),
        Some(other) => return Err(format!("bad schema attributes {other:?}")),
    };
    let mut blocks = Vec::new();
    if let Some(Json::Object(members)) = doc.get("blocks") {
        for (k, v) in members {
            let labels = match v.get("labels") {
                Some(Json::Array(ls)) => ls
                    .iter()
                    .map(|l| l.as_str().map(str::to_owned).ok_or("bad label name"))
                    .collect::<Result<_, _>>()?,
                _ => Vec::new(),
            };
            blocks.push((k.clone(), labels, schema_of(v.get("body"))?));
        }
    }
    Ok(Schema { attributes, blocks })
}

/// A decoded body: attributes, then blocks with their decoded bodies.
pub struct Decoded<'a> {
    attributes: Vec<hcl::schema::Attribute<'a>>,
    blocks: Vec<(String, Vec<String>, Decoded<'a>)>,
}

pub fn decode<'a>(body: &SchemaBody<'a>, schema: &Schema) -> Result<Decoded<'a>, hcl::Error> {
    let mut bs = BodySchema::new();
    for (t, labels, _) in &schema.blocks {
        let labels: Vec<&str> = labels.iter().map(String::as_str).collect();
        bs = bs.block(t.clone(), &labels);
    }
    let content = match &schema.attributes {
        Some(attrs) => {
            for (n, req) in attrs {
                bs = bs.attribute(n.clone(), *req);
            }
            body.content(&bs)?
        }
        None if schema.blocks.is_empty() => hcl::schema::BodyContent {
            attributes: body.just_attributes()?,
            blocks: Vec::new(),
        },
        None => {
            let (mut content, rest) = body.partial_content(&bs)?;
            content.attributes = rest.just_attributes()?;
            content
        }
    };
    let mut blocks = Vec::new();
    for b in content.blocks {
        let Some((_, _, inner)) = schema.blocks.iter().find(|(t, _, _)| *t == b.type_name) else {
            continue;
        };
        let d = decode(&b.body, inner)?;
        blocks.push((b.type_name, b.labels, d));
    }
    Ok(Decoded {
        attributes: content.attributes,
        blocks,
    })
}

pub fn evaluate(d: &Decoded<'_>, ctx: Option<&Context>) -> Result<Value, hcl::Error> {
    let mut attributes = Map::new();
    for a in &d.attributes {
        attributes.insert(a.name.clone(), a.evaluate(ctx)?);
    }
    let mut blocks = Vec::new();
    for (t, labels, body) in &d.blocks {
        let mut b = Map::new();
        b.insert("type".to_owned(), Value::String(t.clone()));
        b.insert(
            "labels".to_owned(),
            Value::Array(labels.iter().cloned().map(Value::String).collect()),
        );
        b.insert("body".to_owned(), evaluate(body, ctx)?);
        blocks.push(Value::Object(b));
    }
    let mut doc = Map::new();
    doc.insert("attributes".to_owned(), Value::Object(attributes));
    doc.insert("blocks".to_owned(), Value::Array(blocks));
    Ok(Value::Object(doc))
}

/// The outcome of one case, and the lines of the first error (the
/// reference's, ours) when both failed. Cases whose body has attributes
/// only are also read through the serde path (`serde_path`), which must
/// agree too; `SERDE_CHECKED` counts them.
pub fn check(case: &Case) -> (Result<(), String>, Option<(u64, usize)>) {
    let ctx = match context_of(case) {
        Ok(c) => c,
        Err(e) => return (Err(e), None),
    };
    let schema = match schema_of(case.schema.as_ref()) {
        Ok(s) => s,
        Err(e) => return (Err(e), None),
    };
    let text = String::from_utf8_lossy(&case.input);
    let result = File::parse(&text, hcl::Syntax::Json)
        .map_err(|e| ("parse", e))
        .and_then(|file| {
            let d = decode(&file.body(), &schema).map_err(|e| ("decode", e))?;
            evaluate(&d, ctx.as_ref()).map_err(|e| ("eval", e))
        });
    let expected_phase = if case.expected.get("error") == Some(&Json::Bool(true)) {
        case.expected.get("phase").and_then(Json::as_str)
    } else {
        None
    };
    let first_line = case
        .expected
        .get("diagnostics")
        .and_then(Json::as_array)
        .and_then(<[Json]>::first)
        .and_then(|d| d.get("line"))
        .and_then(Json::as_u64);
    match (expected_phase, result) {
        (None, Ok(v)) => {
            let schema_path = values::compare(&case.expected, &v);
            (
                schema_path.and_then(|()| serde_path(case, &schema, &text, ctx.as_ref())),
                None,
            )
        }
        (None, Err((phase, e))) => (
            Err(format!("expected a value, got a {phase} error: {e}")),
            None,
        ),
        (Some(p), Ok(v)) => (
            Err(format!(
                "expected a {p} error, got {}",
                crate::report::excerpt(&v.to_string(), 80)
            )),
            None,
        ),
        (Some(p), Err((phase, e))) => {
            let lines = first_line.zip(e.line());
            if p == phase {
                (Ok(()), lines)
            } else {
                (
                    Err(format!("expected a {p} error, got a {phase} error: {e}")),
                    lines,
                )
            }
        }
    }
}

/// The evaluation context of a case's mode (README of
/// `conformance-json`): `None` for `nil-ctx`.
pub fn context_of(case: &Case) -> Result<Option<Context>, String> {
    Ok(match case.mode.as_deref() {
        Some("nil-ctx") => None,
        Some("no-vars") => {
            let mut c = Context::none();
            c.add_stdlib();
            Some(c)
        }
        Some("empty-ctx") => Some(Context::none()),
        Some(other) => return Err(format!("unknown mode {other:?}")),
        None => Some(values::context(case.vars.as_ref())?),
    })
}

/// How many cases [`serde_path`] checked.
pub static SERDE_CHECKED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// The serde path (`hcl::from_json_str` into `hcl::Value`) on a case whose
/// body has attributes only: it must give the reference's attributes too.
fn serde_path(
    case: &Case,
    schema: &Schema,
    text: &str,
    ctx: Option<&Context>,
) -> Result<(), String> {
    // A schema naming `"//"` makes it an attribute, which only the
    // schema API can know; the serde path takes it as a comment.
    let names_comment = schema
        .attributes
        .as_ref()
        .is_some_and(|a| a.iter().any(|(n, _)| n == "//"));
    let no_blocks = !names_comment
        && schema.blocks.is_empty()
        && case
            .expected
            .get("blocks")
            .and_then(Json::as_array)
            .is_some_and(<[Json]>::is_empty);
    let Some(expected) = case.expected.get("attributes") else {
        return Ok(());
    };
    if !no_blocks || !text.trim_start().starts_with('{') {
        return Ok(());
    }
    let ours = match ctx {
        Some(c) => hcl::from_json_str_with::<Value>(text, c),
        None => hcl::from_json_str::<Value>(text),
    };
    SERDE_CHECKED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    match ours {
        Ok(v) => values::compare(expected, &v).map_err(|e| format!("serde path: {e}")),
        Err(e) => Err(format!("serde path failed: {e}")),
    }
}
