//! `regex` and `regexall`: Go-syntax patterns, compiled once and cached.

mod go_syntax;

use self::go_syntax::translate_pattern;
use crate::eval::{FuncDef, FuncError, Param, Type};
use crate::Value;
use std::sync::{Arc, Mutex};

/// The shape of a pattern's result: the match, the unnamed groups or the
/// named groups (group index and name; a repeated name takes the last
/// group's text, as in the reference).
enum Shape {
    Whole,
    Tuple,
    Object(Vec<(usize, String)>),
}

/// The last few patterns a function compiled (a `for` expression calls
/// `regex` with the same pattern again and again).
#[derive(Default)]
struct PatternCache(Mutex<Vec<(String, Compiled)>>);

/// A compiled pattern and the shape of its results.
type Compiled = Arc<(regex::Regex, Shape)>;

impl PatternCache {
    const SIZE: usize = 8;

    fn get(&self, pattern: &str) -> Result<Compiled, FuncError> {
        if let Ok(mut entries) = self.0.lock() {
            if let Some(i) = entries.iter().position(|(p, _)| p == pattern) {
                let entry = entries.remove(i);
                let compiled = Arc::clone(&entry.1);
                entries.insert(0, entry);
                return Ok(compiled);
            }
        }
        let compiled = Arc::new(compile(pattern)?);
        if let Ok(mut entries) = self.0.lock() {
            entries.insert(0, (pattern.to_owned(), Arc::clone(&compiled)));
            entries.truncate(Self::SIZE);
        }
        Ok(compiled)
    }
}

/// A regular expression in Go's syntax, compiled for the `regex` crate
/// (Terraform's `replace` with a `/pattern/`).
#[cfg(feature = "terraform")]
pub(super) fn go_regex(pattern: &str) -> Result<regex::Regex, FuncError> {
    compile(pattern).map(|(re, _)| re)
}

/// Compiles a pattern with Go's syntax; errors point at the pattern.
fn compile(pattern: &str) -> Result<(regex::Regex, Shape), FuncError> {
    let invalid = |m: &str| FuncError::arg(0, format!("invalid regexp pattern: {m}"));
    let (translated, names) = translate_pattern(pattern).map_err(|m| invalid(&m))?;
    let re = regex::RegexBuilder::new(&translated)
        .size_limit(1 << 22)
        .build()
        .map_err(|e| match e {
            regex::Error::Syntax(s) => invalid(s.lines().last().unwrap_or_default()),
            other => invalid(&other.to_string()),
        })?;
    let mut named = Vec::new();
    let mut unnamed = 0usize;
    for (i, name) in re.capture_names().enumerate().skip(1) {
        match name.and_then(|n| n.strip_prefix("hclgroup")) {
            Some(k) => {
                let original = k
                    .parse::<usize>()
                    .ok()
                    .and_then(|k| names.get(k))
                    .cloned()
                    .unwrap_or_default();
                named.push((i, original));
            }
            None => unnamed += 1,
        }
    }
    let shape = match (unnamed, named.is_empty()) {
        (0, true) => Shape::Whole,
        (_, true) => Shape::Tuple,
        (0, false) => Shape::Object(named),
        _ => return Err(invalid("cannot mix both named and unnamed capture groups")),
    };
    Ok((re, shape))
}

/// One match in the pattern's shape.
fn capture_value(caps: &regex::Captures<'_>, shape: &Shape) -> Value {
    let group = |i: usize| caps.get(i).map_or(Value::Null, |m| Value::from(m.as_str()));
    match shape {
        Shape::Whole => group(0),
        Shape::Tuple => Value::Array((1..caps.len()).map(group).collect()),
        Shape::Object(names) => {
            let mut obj = crate::Map::new();
            for (i, name) in names {
                obj.insert(name.clone(), group(*i));
            }
            Value::Object(obj)
        }
    }
}

pub(crate) fn regex() -> FuncDef {
    let cache = PatternCache::default();
    FuncDef::new(move |args| {
        let compiled = cache.get(args.str(0)?)?;
        let (re, shape) = &*compiled;
        let caps = re
            .captures(args.str(1)?)
            .ok_or_else(|| FuncError::new("pattern did not match any part of the given string"))?;
        Ok(capture_value(&caps, shape))
    })
    .param(Param::new("pattern", Type::String))
    .param(Param::new("string", Type::String))
}

pub(crate) fn regexall() -> FuncDef {
    let cache = PatternCache::default();
    FuncDef::new(move |args| {
        let compiled = cache.get(args.str(0)?)?;
        let (re, shape) = &*compiled;
        let s = args.str(1)?;
        let max = args.options().max_collection_len();
        let mut out = Vec::new();
        let mut prev_end: Option<usize> = None;
        for caps in re.captures_iter(s) {
            let Some(m) = caps.get(0) else { continue };
            // Go ignores an empty match that abuts the previous match.
            if m.is_empty() && prev_end == Some(m.start()) {
                continue;
            }
            prev_end = Some(m.end());
            if out.len() >= max {
                return Err(FuncError::new(format!(
                    "more than {max} matches, the collection limit"
                )));
            }
            out.push(capture_value(&caps, shape));
        }
        Ok(Value::Array(out))
    })
    .param(Param::new("pattern", Type::String))
    .param(Param::new("string", Type::String))
    .returns(Type::list(Type::Any))
}
