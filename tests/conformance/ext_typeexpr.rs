//! `conformance-ext/typeexpr/`: a type constraint read from a type
//! expression (its go-cty JSON type and its defaults), and with a
//! `NAME.value.json`, that value converted to it.

use crate::ext::{judge, Outcome, Phase};
use crate::json::Json;
use hcl::eval::Type;
use hcl::ext::typeexpr::TypeConstraint;
use hcl::{Map, Value};
use std::path::Path;

pub fn check(path: &Path, input: &[u8], expected: &Json) -> Outcome {
    let Ok(src) = std::str::from_utf8(input) else {
        return Outcome::of(Err("input is not UTF-8".to_owned()));
    };
    let value_path = {
        let s = path.to_string_lossy();
        let base = s.strip_suffix(".type.hclexpr").unwrap_or(&s);
        std::path::PathBuf::from(format!("{base}.value.json"))
    };
    let value = if value_path.exists() {
        match std::fs::read(&value_path)
            .map_err(|e| e.to_string())
            .and_then(|b| crate::json::parse(&b))
            .and_then(|j| crate::values::json_to_value(&j))
        {
            Ok(v) => Some(v),
            Err(e) => return Outcome::of(Err(format!("cannot read the value: {e}"))),
        }
    } else {
        None
    };
    let ours = run(src, value);
    // Sets compare as multisets: check the value separately, guided by
    // the reference's value_type, and the rest as documents.
    match (&ours, expected.get("value"), expected.get("value_type")) {
        (Ok(doc), Some(want), Some(want_type)) => {
            let Value::Object(m) = doc else {
                return Outcome::of(Err("internal: document is not an object".to_owned()));
            };
            let got = m.get("value").cloned().unwrap_or_default();
            if let Err(e) = compare_typed(want, &got, want_type) {
                return Outcome::of(Err(format!("value: {e}")));
            }
            let mut rest = m.clone();
            rest.shift_remove("value");
            let want_rest = Json::Object(match expected {
                Json::Object(members) => members
                    .iter()
                    .filter(|(k, _)| k != "value")
                    .cloned()
                    .collect(),
                _ => Vec::new(),
            });
            Outcome::of(crate::values::compare(&want_rest, &Value::Object(rest)))
        }
        _ => judge(expected, ours),
    }
}

fn run(src: &str, value: Option<Value>) -> Result<Value, Phase<'static>> {
    let expr = hcl_grammar::parse_expr(src, &Default::default())
        .map_err(|e| ("parse", e.message().to_owned(), e.line()))?;
    let t = TypeConstraint::from_expr(&expr).map_err(|e| {
        let e = e.with_source(src);
        ("type", e.message().to_owned(), e.line().unwrap_or(0))
    })?;
    let mut doc = Map::new();
    doc.insert("type".to_owned(), constraint_json(&t));
    let defaults = t.defaults();
    doc.insert(
        "defaults".to_owned(),
        if defaults.is_empty() {
            Value::Null
        } else {
            defaults
                .into_iter()
                .map(|d| {
                    Value::from_iter([
                        ("path", Value::from(d.path)),
                        ("attribute", Value::from(d.attribute)),
                        ("value", d.value),
                    ])
                })
                .collect()
        },
    );
    if let Some(v) = value {
        let (v, ty) = t
            .convert_typed(v)
            .map_err(|e| ("convert", e.message().to_owned(), 0))?;
        doc.insert("value".to_owned(), v);
        doc.insert("value_type".to_owned(), type_json(&ty));
    }
    Ok(Value::Object(doc))
}

/// go-cty's JSON type encoding of a constraint, optional attributes
/// listed third.
fn constraint_json(t: &TypeConstraint) -> Value {
    let pair = |k: &str, v: Value| Value::Array(vec![Value::from(k), v]);
    match t {
        TypeConstraint::Any => Value::from("dynamic"),
        TypeConstraint::Bool => Value::from("bool"),
        TypeConstraint::Number => Value::from("number"),
        TypeConstraint::String => Value::from("string"),
        TypeConstraint::List(e) => pair("list", constraint_json(e)),
        TypeConstraint::Set(e) => pair("set", constraint_json(e)),
        TypeConstraint::Map(e) => pair("map", constraint_json(e)),
        TypeConstraint::Tuple(ts) => pair("tuple", ts.iter().map(constraint_json).collect()),
        TypeConstraint::Object(attrs) => {
            let mut out = vec![
                Value::from("object"),
                attrs
                    .iter()
                    .map(|(k, a)| (k.clone(), constraint_json(&a.ty)))
                    .collect::<Map<_, _>>()
                    .into(),
            ];
            let mut optional: Vec<&String> = attrs
                .iter()
                .filter(|(_, a)| a.optional)
                .map(|(k, _)| k)
                .collect();
            if !optional.is_empty() {
                optional.sort();
                out.push(
                    optional
                        .into_iter()
                        .map(|k| Value::from(k.as_str()))
                        .collect(),
                );
            }
            Value::Array(out)
        }
    }
}

fn type_json(t: &Type) -> Value {
    let pair = |k: &str, v: Value| Value::Array(vec![Value::from(k), v]);
    match t {
        Type::Any => Value::from("dynamic"),
        Type::Bool => Value::from("bool"),
        Type::Number => Value::from("number"),
        Type::String => Value::from("string"),
        Type::List(e) => pair("list", type_json(e)),
        Type::Set(e) => pair("set", type_json(e)),
        Type::Map(e) => pair("map", type_json(e)),
        Type::Tuple(ts) => pair("tuple", ts.iter().map(type_json).collect()),
        Type::Object(attrs) => pair(
            "object",
            attrs
                .iter()
                .map(|(k, a)| (k.clone(), type_json(a)))
                .collect::<Map<_, _>>()
                .into(),
        ),
        // Any kind the evaluator's type may gain later.
        #[allow(unreachable_patterns)]
        _ => Value::from(format!("{t}")),
    }
}

/// Compares a value with the reference's, elements of sets (by the
/// reference's type) as multisets.
fn compare_typed(want: &Json, got: &Value, ty: &Json) -> Result<(), String> {
    let kind = ty.as_array().and_then(|a| a.first()).and_then(Json::as_str);
    let elem = |i: usize| ty.as_array().and_then(|a| a.get(i));
    match (kind, want, got) {
        (Some("set"), Json::Array(ws), Value::Array(gs)) if ws.len() == gs.len() => {
            let et = elem(1).cloned().unwrap_or(Json::Null);
            let mut used = vec![false; gs.len()];
            for w in ws {
                let found = gs.iter().enumerate().find(|(i, g)| {
                    !used.get(*i).copied().unwrap_or(true) && compare_typed(w, g, &et).is_ok()
                });
                match found {
                    Some((i, _)) => {
                        if let Some(u) = used.get_mut(i) {
                            *u = true;
                        }
                    }
                    None => return Err(format!("set element {w:?} not found in {got}")),
                }
            }
            Ok(())
        }
        (Some("list"), Json::Array(ws), Value::Array(gs)) if ws.len() == gs.len() => {
            let et = elem(1).cloned().unwrap_or(Json::Null);
            ws.iter()
                .zip(gs)
                .try_for_each(|(w, g)| compare_typed(w, g, &et))
        }
        (Some("tuple"), Json::Array(ws), Value::Array(gs)) if ws.len() == gs.len() => {
            let ets = elem(1).and_then(Json::as_array).unwrap_or_default();
            ws.iter()
                .zip(gs)
                .enumerate()
                .try_for_each(|(i, (w, g))| compare_typed(w, g, ets.get(i).unwrap_or(&Json::Null)))
        }
        (Some("map"), Json::Object(ws), Value::Object(gs)) if ws.len() == gs.len() => {
            let et = elem(1).cloned().unwrap_or(Json::Null);
            ws.iter().try_for_each(|(k, w)| match gs.get(k) {
                Some(g) => compare_typed(w, g, &et),
                None => Err(format!("key {k:?} missing from {got}")),
            })
        }
        (Some("object"), Json::Object(ws), Value::Object(gs)) if ws.len() == gs.len() => {
            let ets = elem(1);
            ws.iter().try_for_each(|(k, w)| match gs.get(k) {
                Some(g) => compare_typed(w, g, ets.and_then(|e| e.get(k)).unwrap_or(&Json::Null)),
                None => Err(format!("attribute {k:?} missing from {got}")),
            })
        }
        _ => crate::values::compare(want, got),
    }
}
