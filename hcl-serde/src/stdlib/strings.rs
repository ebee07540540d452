//! The string functions.
//!
//! Lengths and offsets count characters as the reference does: grapheme
//! clusters (user-perceived characters, `"é"` written as `e` + U+0301 is
//! one), not bytes nor code points.

use super::format::format_values;
use super::graphemes::graphemes;
use super::regexp::{regex, regexall};
use super::Table;
use crate::eval::{FuncArgs, FuncDef, FuncError, Param, Type};
use crate::{Number, Value};

/// This family's functions: name and constructor.
pub(super) const STRINGS: Table = &[
    ("upper", upper),
    ("lower", lower),
    ("format", format),
    ("formatlist", formatlist),
    ("join", join),
    ("split", split),
    ("trimspace", trimspace),
    ("trim", trim),
    ("trimprefix", trimprefix),
    ("trimsuffix", trimsuffix),
    ("replace", replace),
    ("substr", substr),
    ("strlen", strlen),
    ("strrev", strrev),
    ("title", title),
    ("chomp", chomp),
    ("indent", indent),
    ("regex", regex),
    ("regexall", regexall),
];

/// A function of one string returning a string.
fn string_to_string(f: fn(&str) -> String) -> FuncDef {
    FuncDef::new(move |args| Ok(Value::from(f(args.str(0)?))))
        .param(Param::new("str", Type::String))
        .returns(Type::String)
}

pub(crate) fn upper() -> FuncDef {
    string_to_string(|s| s.chars().map(go_upper).collect())
}

pub(crate) fn lower() -> FuncDef {
    string_to_string(|s| s.chars().map(go_lower).collect())
}

/// Whether `c` has a case mapping only since Unicode 14 (the reference,
/// Go 1.19, has Unicode 13's tables and leaves it unchanged).
fn newer_case(c: char) -> bool {
    matches!(u32::from(c),
        0x2C2F | 0x2C5F | 0xA7C0..=0xA7C1 | 0xA7CB..=0xA7DC | 0x1C89..=0x1C8A
        | 0x10570..=0x105BC | 0x10D50..=0x10D85)
}

/// One character mapped with a one-to-one mapping, unless the mapping is
/// newer than Unicode 13.
fn map_simple(c: char, m: impl Iterator<Item = char>) -> char {
    match simple(m) {
        Some(u) if !newer_case(c) && !newer_case(u) => u,
        _ => c,
    }
}

/// Go's `unicode.ToUpper`: the simple (one-to-one) mapping. A character
/// whose full mapping has several characters (`ß` -> `SS`) is kept, but
/// for the Greek letters with ypogegrammeni, which map to one character.
fn go_upper(c: char) -> char {
    match c {
        '\u{1F80}'..='\u{1F87}' | '\u{1F90}'..='\u{1F97}' | '\u{1FA0}'..='\u{1FA7}' => {
            char::from_u32(u32::from(c) + 8).unwrap_or(c)
        }
        '\u{1FB3}' => '\u{1FBC}',
        '\u{1FC3}' => '\u{1FCC}',
        '\u{1FF3}' => '\u{1FFC}',
        _ => map_simple(c, c.to_uppercase()),
    }
}

/// Go's `unicode.ToLower` (simple mapping: `İ` -> `i`).
fn go_lower(c: char) -> char {
    match c {
        '\u{130}' => 'i',
        _ => map_simple(c, c.to_lowercase()),
    }
}

/// The only character of a mapping, if it has exactly one.
fn simple(mut m: impl Iterator<Item = char>) -> Option<char> {
    match (m.next(), m.next()) {
        (Some(u), None) => Some(u),
        _ => None,
    }
}

pub(crate) fn format() -> FuncDef {
    FuncDef::new(|args| {
        let spec = args.str(0)?;
        let values = args.values().get(1..).unwrap_or_default();
        let limit = args.options().max_string_len();
        format_values(spec, values, limit).map(Value::from)
    })
    .param(Param::new("format", Type::String))
    .variadic(Param::new("args", Type::Any).nullable())
    .returns(Type::String)
}

pub(crate) fn formatlist() -> FuncDef {
    FuncDef::new(|args| {
        let spec = args.str(0)?;
        let values = args.values().get(1..).unwrap_or_default();
        let limit = args.options().max_string_len();
        if values.is_empty() {
            return Ok(Value::Array(vec![Value::from(format_values(
                spec, values, limit,
            )?)]));
        }
        let mut len: Option<(usize, usize)> = None;
        for (i, v) in values.iter().enumerate() {
            if let Value::Array(items) = v {
                match len {
                    None => len = Some((items.len(), i)),
                    Some((n, first)) if n != items.len() => {
                        return Err(FuncError::arg(
                            i + 1,
                            format!(
                                "argument {} has length {}, which is inconsistent with argument {} of length {}",
                                i + 1,
                                items.len(),
                                first + 1,
                                n
                            ),
                        ))
                    }
                    Some(_) => {}
                }
            }
        }
        let n = len.map_or(1, |(n, _)| n);
        if n > args.options().max_collection_len() {
            return Err(FuncError::new(format!(
                "the result would have {n} elements, more than the limit of {}",
                args.options().max_collection_len()
            )));
        }
        let mut out = Vec::with_capacity(n);
        let mut total = 0usize;
        for k in 0..n {
            let row: Vec<Value> = values
                .iter()
                .map(|v| match v {
                    Value::Array(items) => items.get(k).cloned().unwrap_or_default(),
                    other => other.clone(),
                })
                .collect();
            let s = format_values(spec, &row, limit).map_err(|e| {
                FuncError::new(format!("error on format iteration {k}: {}", e.message()))
            })?;
            total = total.saturating_add(s.len());
            if total > limit {
                return Err(FuncError::new(format!(
                    "the result would be longer than the limit of {limit} bytes"
                )));
            }
            out.push(Value::from(s));
        }
        Ok(Value::Array(out))
    })
    .param(Param::new("format", Type::String))
    .variadic(Param::new("args", Type::Any).nullable())
    .returns(Type::list(Type::String))
}

pub(crate) fn join() -> FuncDef {
    FuncDef::new(|args| {
        let sep = args.str(0)?;
        let lists = args.values().get(1..).unwrap_or_default();
        if lists.is_empty() {
            return Err(FuncError::new("at least one list is required"));
        }
        let limit = args.options().max_string_len();
        let mut out = String::new();
        let mut first = true;
        for (li, list) in lists.iter().enumerate() {
            let items = args.array(li + 1)?;
            for (ei, item) in items.iter().enumerate() {
                let Some(s) = item.as_str() else {
                    let msg = if lists.len() > 1 {
                        format!(
                            "element {ei} of list {} is null; cannot concatenate null values",
                            li + 1
                        )
                    } else {
                        format!("element {ei} is null; cannot concatenate null values")
                    };
                    return Err(FuncError::arg(li + 1, msg));
                };
                if !first {
                    out.push_str(sep);
                }
                first = false;
                out.push_str(s);
                if out.len() > limit {
                    return Err(too_long(limit));
                }
            }
            let _ = list;
        }
        Ok(Value::from(out))
    })
    .param(Param::new("separator", Type::String))
    .variadic(Param::new("lists", Type::list(Type::String)))
    .returns(Type::String)
}

fn too_long(limit: usize) -> FuncError {
    FuncError::new(format!(
        "the result would be longer than the limit of {limit} bytes"
    ))
}

pub(crate) fn split() -> FuncDef {
    FuncDef::new(|args| {
        let sep = args.str(0)?;
        let s = args.str(1)?;
        let parts: Vec<Value> = if sep.is_empty() {
            // Go's strings.Split explodes into code points ("" -> []).
            s.chars().map(Value::from).collect()
        } else {
            s.split(sep).map(Value::from).collect()
        };
        if parts.len() > args.options().max_collection_len() {
            return Err(FuncError::new(format!(
                "the result would have {} elements, more than the limit of {}",
                parts.len(),
                args.options().max_collection_len()
            )));
        }
        Ok(Value::Array(parts))
    })
    .param(Param::new("separator", Type::String))
    .param(Param::new("str", Type::String))
    .returns(Type::list(Type::String))
}

pub(crate) fn trimspace() -> FuncDef {
    string_to_string(|s| s.trim().to_owned())
}

/// Two strings to a string.
fn two_strings(names: [&str; 2], f: fn(&str, &str) -> String) -> FuncDef {
    FuncDef::new(move |args| Ok(Value::from(f(args.str(0)?, args.str(1)?))))
        .param(Param::new(names[0], Type::String))
        .param(Param::new(names[1], Type::String))
        .returns(Type::String)
}

pub(crate) fn trim() -> FuncDef {
    two_strings(["str", "cutset"], |s, cut| {
        s.trim_matches(|c| cut.contains(c)).to_owned()
    })
}

pub(crate) fn trimprefix() -> FuncDef {
    two_strings(["str", "prefix"], |s, p| {
        s.strip_prefix(p).unwrap_or(s).to_owned()
    })
}

pub(crate) fn trimsuffix() -> FuncDef {
    two_strings(["str", "suffix"], |s, p| {
        s.strip_suffix(p).unwrap_or(s).to_owned()
    })
}

pub(crate) fn replace() -> FuncDef {
    FuncDef::new(|args| {
        let s = args.str(0)?;
        let from = args.str(1)?;
        let to = args.str(2)?;
        let limit = args.options().max_string_len();
        // Bound the result before building it.
        let count = if from.is_empty() {
            s.chars().count().saturating_add(1)
        } else {
            s.matches(from).count()
        };
        let len = s
            .len()
            .saturating_add(count.saturating_mul(to.len()))
            .saturating_sub(count.saturating_mul(from.len()));
        if len > limit {
            return Err(too_long(limit));
        }
        Ok(Value::from(s.replace(from, to)))
    })
    .param(Param::new("str", Type::String))
    .param(Param::new("substr", Type::String))
    .param(Param::new("replace", Type::String))
    .returns(Type::String)
}

/// Argument `i` as a Go `int`, as go-cty's `gocty.FromCtyValue` converts
/// it.
pub(super) fn int_arg(args: &FuncArgs<'_>, i: usize) -> Result<i64, FuncError> {
    let n: &Number = args.number(i)?;
    match n.as_i64() {
        Some(v) if n.is_integer() => Ok(v),
        _ => Err(FuncError::new(
            "value must be a whole number, between -9223372036854775808 and 9223372036854775807",
        )),
    }
}

pub(crate) fn substr() -> FuncDef {
    FuncDef::new(|args| {
        let s = args.str(0)?;
        let mut offset = int_arg(&args, 1)?;
        let length = int_arg(&args, 2)?;
        // The reference's algorithm, quirks included: with a negative
        // offset, a zero length means "to the end".
        if offset < 0 {
            let total = i64::try_from(graphemes(s).count()).unwrap_or(i64::MAX);
            offset = offset.saturating_add(total);
        } else if length == 0 {
            return Ok(Value::from(""));
        }
        let mut sub = s;
        if offset > 0 {
            let mut pos = 0i64;
            let mut i = 0usize;
            for g in graphemes(s) {
                i += g.len();
                pos += 1;
                if pos == offset {
                    break;
                }
                if i >= s.len() {
                    return Ok(Value::from(""));
                }
            }
            sub = s.get(i..).unwrap_or_default();
        }
        if length < 0 {
            return Ok(Value::from(sub));
        }
        let mut pos = 0i64;
        let mut i = 0usize;
        for g in graphemes(sub) {
            i += g.len();
            pos += 1;
            if pos == length {
                break;
            }
        }
        Ok(Value::from(sub.get(..i).unwrap_or(sub)))
    })
    .param(Param::new("str", Type::String))
    .param(Param::new("offset", Type::Number))
    .param(Param::new("length", Type::Number))
    .returns(Type::String)
}

pub(crate) fn strlen() -> FuncDef {
    FuncDef::new(|args| Ok(Value::from(graphemes(args.str(0)?).count())))
        .param(Param::new("str", Type::String))
        .returns(Type::Number)
}

pub(crate) fn strrev() -> FuncDef {
    string_to_string(|s| graphemes(s).rev().collect())
}

pub(crate) fn title() -> FuncDef {
    string_to_string(|s| {
        // Go's strings.Title.
        let mut prev = ' ';
        let mut out = String::with_capacity(s.len());
        for c in s.chars() {
            if is_separator(prev) {
                out.push(to_title(c));
            } else {
                out.push(c);
            }
            prev = c;
        }
        out
    })
}

/// Go's `strings.Title` word separators.
fn is_separator(c: char) -> bool {
    if c.is_ascii() {
        return !(c.is_ascii_alphanumeric() || c == '_');
    }
    if c.is_alphabetic() || c.is_numeric() {
        return false;
    }
    c.is_whitespace()
}

/// Go's `unicode.ToTitle` of one character: upper case but for the
/// digraphs, which have a title-case form, and Georgian, whose letters
/// are their own title case.
fn to_title(c: char) -> char {
    match c {
        '\u{1C4}'..='\u{1C6}' => '\u{1C5}',
        '\u{1C7}'..='\u{1C9}' => '\u{1C8}',
        '\u{1CA}'..='\u{1CC}' => '\u{1CB}',
        '\u{1F1}'..='\u{1F3}' => '\u{1F2}',
        '\u{10D0}'..='\u{10FA}' | '\u{10FD}'..='\u{10FF}' => c,
        '\u{1F88}'..='\u{1F8F}' | '\u{1F98}'..='\u{1F9F}' | '\u{1FA8}'..='\u{1FAF}' => c,
        '\u{1FBC}' | '\u{1FCC}' | '\u{1FFC}' => c,
        _ => go_upper(c),
    }
}

pub(crate) fn chomp() -> FuncDef {
    string_to_string(|s| s.trim_end_matches(['\r', '\n']).to_owned())
}

pub(crate) fn indent() -> FuncDef {
    FuncDef::new(|args| {
        let spaces = int_arg(&args, 0)?;
        let s = args.str(1)?;
        let Ok(spaces) = usize::try_from(spaces) else {
            // The reference fails as a whole call (Go panics).
            return Err(FuncError::new("the number of spaces must not be negative"));
        };
        let limit = args.options().max_string_len();
        let lines = s.matches('\n').count();
        if lines == 0 {
            // Nothing to indent: no padding built (`indent(4294967296, "")`
            // must not allocate gigabytes).
            return Ok(Value::from(s));
        }
        if lines.saturating_mul(spaces).saturating_add(s.len()) > limit {
            return Err(too_long(limit));
        }
        let pad = format!("\n{}", " ".repeat(spaces));
        Ok(Value::from(s.replace('\n', &pad)))
    })
    .param(Param::new("spaces", Type::Number))
    .param(Param::new("str", Type::String))
    .returns(Type::String)
}
