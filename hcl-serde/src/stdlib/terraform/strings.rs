//! Terraform's string functions: `startswith endswith strcontains
//! replace basename dirname` (Terraform's `funcs/string.go`,
//! `filesystem.go`).

use super::super::regexp::go_regex;
use super::super::Table;
use crate::eval::{FuncDef, FuncError, Param, Type};
use crate::Value;

/// This family's functions.
pub(super) const STRINGS: Table = &[
    ("startswith", startswith),
    ("endswith", endswith),
    ("strcontains", strcontains),
    ("replace", replace),
    ("basename", basename),
    ("dirname", dirname),
];

/// A predicate on two strings.
fn two_strings(names: [&'static str; 2], f: fn(&str, &str) -> bool) -> FuncDef {
    FuncDef::new(move |args| Ok(Value::Bool(f(args.str(0)?, args.str(1)?))))
        .param(Param::new(names[0], Type::String))
        .param(Param::new(names[1], Type::String))
        .returns(Type::Bool)
}

/// `startswith(string, prefix)`.
pub(super) fn startswith() -> FuncDef {
    two_strings(["string", "prefix"], |s, p| s.starts_with(p))
}

/// `endswith(string, suffix)`.
pub(super) fn endswith() -> FuncDef {
    two_strings(["string", "suffix"], |s, p| s.ends_with(p))
}

/// `strcontains(string, substr)`.
pub(super) fn strcontains() -> FuncDef {
    two_strings(["string", "substr"], |s, p| s.contains(p))
}

/// `replace(string, substring, replacement)`: every occurrence replaced; a
/// `substring` written `/pattern/` is a regular expression (Go syntax),
/// and `$1`, `${name}` in `replacement` expand its groups.
pub(super) fn replace() -> FuncDef {
    let plain = super::super::replace();
    FuncDef::new(move |args| {
        let s = args.str(0)?;
        let sub = args.str(1)?;
        let rep = args.str(2)?;
        let pattern = sub
            .strip_prefix('/')
            .and_then(|p| p.strip_suffix('/'))
            .filter(|_| sub.len() >= 2);
        let Some(pattern) = pattern else {
            return plain.call(args.values().to_vec());
        };
        let re = go_regex(pattern).map_err(|e| FuncError::arg(1, e.message().to_owned()))?;
        let limit = args.options().max_string_len();
        let out = re.replace_all(s, rep);
        if out.len() > limit {
            return Err(FuncError::new(format!(
                "the result is longer than the limit of {limit} bytes"
            )));
        }
        Ok(Value::from(out.into_owned()))
    })
    .param(Param::new("str", Type::String))
    .param(Param::new("substr", Type::String))
    .param(Param::new("replace", Type::String))
    .returns(Type::String)
}

/// Go's `filepath.Clean` for `/` paths.
pub(super) fn clean(path: &str) -> String {
    if path.is_empty() {
        return ".".to_owned();
    }
    let rooted = path.starts_with('/');
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                if parts.last().is_some_and(|p| *p != "..") {
                    parts.pop();
                } else if !rooted {
                    parts.push("..");
                }
            }
            p => parts.push(p),
        }
    }
    let joined = parts.join("/");
    match (rooted, joined.is_empty()) {
        (true, _) => format!("/{joined}"),
        (false, true) => ".".to_owned(),
        (false, false) => joined,
    }
}

/// `basename(path)`: the last element of a path (Go's `filepath.Base`).
pub(super) fn basename() -> FuncDef {
    FuncDef::new(|args| {
        let p = args.str(0)?;
        if p.is_empty() {
            return Ok(Value::from("."));
        }
        let trimmed = p.trim_end_matches('/');
        if trimmed.is_empty() {
            return Ok(Value::from("/"));
        }
        let base = trimmed.rsplit('/').next().unwrap_or(trimmed);
        Ok(Value::from(base))
    })
    .param(Param::new("path", Type::String))
    .returns(Type::String)
}

/// `dirname(path)`: all but the last element (Go's `filepath.Dir`).
pub(super) fn dirname() -> FuncDef {
    FuncDef::new(|args| {
        let p = args.str(0)?;
        let dir = match p.rfind('/') {
            Some(i) => &p[..=i],
            None => "",
        };
        Ok(Value::from(clean(dir)))
    })
    .param(Param::new("path", Type::String))
    .returns(Type::String)
}
