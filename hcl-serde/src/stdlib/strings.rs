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

/// `upper(str)`: the string with every letter converted to upper case
/// (one character to one character, as Go's `strings.ToUpper`: `ß` stays
/// `ß`).
///
/// ```
/// # use hcl::{Value, eval::eval_expr_str, Context};
/// let ctx = Context::with_stdlib();
/// assert_eq!(eval_expr_str(r#"upper("héllo")"#, &ctx)?, Value::from("HÉLLO"));
/// # Ok::<(), hcl::Error>(())
/// ```
pub fn upper() -> FuncDef {
    string_to_string(|s| s.chars().map(go_upper).collect())
}

/// `lower(str)`: the string with every letter converted to lower case.
///
/// ```
/// # use hcl::{Value, eval::eval_expr_str, Context};
/// let ctx = Context::with_stdlib();
/// assert_eq!(eval_expr_str(r#"lower("HÉLLO")"#, &ctx)?, Value::from("héllo"));
/// # Ok::<(), hcl::Error>(())
/// ```
pub fn lower() -> FuncDef {
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

/// `format(spec, values...)`: a string built from a `printf`-like
/// specification.
///
/// Verbs: `%%` (a percent sign), `%v` (the value in its natural form:
/// strings as they are, numbers in the shortest form, anything else as
/// JSON), `%#v` (JSON), `%t` (bool), `%b %d %o %x %X` (integers in base 2,
/// 10, 8, 16), `%e %E %f %g %G` (numbers in scientific, decimal or the
/// shorter of both), `%s` (string) and `%q` (JSON-quoted string). Flags
/// (`+`, `-`, `0`, space, `#`), width and precision follow C; `%[n]d`
/// picks the `n`th value. Width and precision count characters. Every
/// value must be used.
///
/// ```
/// # use hcl::{Value, eval::eval_expr_str, Context};
/// let ctx = Context::with_stdlib();
/// assert_eq!(
///     eval_expr_str(r#"format("%s has %03d items (%.1f%%)", "cart", 7, 12.345)"#, &ctx)?,
///     Value::from("cart has 007 items (12.3%)"),
/// );
/// # Ok::<(), hcl::Error>(())
/// ```
///
/// # Errors
///
/// An invalid specification, a value that does not convert to what its
/// verb needs, too few or too many values.
pub fn format() -> FuncDef {
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

/// `formatlist(spec, values...)`: [`format()`] applied element by element.
/// Each list (or tuple, or set) value supplies one element per result;
/// the other values are repeated. All lists must have the same length,
/// the length of the result.
///
/// ```
/// # use hcl::{Value, eval::eval_expr_str, Context};
/// let ctx = Context::with_stdlib();
/// assert_eq!(
///     eval_expr_str(r#"formatlist("%s=%d", ["a", "b"], 1)"#, &ctx)?,
///     Value::from(vec!["a=1", "b=1"]),
/// );
/// # Ok::<(), hcl::Error>(())
/// ```
///
/// # Errors
///
/// Lists of different lengths (pointing at the first that differs), and
/// [`format()`]'s errors with the iteration that failed.
pub fn formatlist() -> FuncDef {
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

/// `join(separator, lists...)`: the strings of one or more lists,
/// concatenated with `separator` between them.
///
/// ```
/// # use hcl::{Value, eval::eval_expr_str, Context};
/// let ctx = Context::with_stdlib();
/// assert_eq!(eval_expr_str(r#"join(", ", ["a", "b"], ["c"])"#, &ctx)?, Value::from("a, b, c"));
/// # Ok::<(), hcl::Error>(())
/// ```
///
/// # Errors
///
/// No list, or a `null` element (pointing at its list).
pub fn join() -> FuncDef {
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

/// `split(separator, str)`: the parts of `str` between occurrences of
/// `separator`, as a list. An empty separator splits between characters
/// (code points).
///
/// ```
/// # use hcl::{Value, eval::eval_expr_str, Context};
/// let ctx = Context::with_stdlib();
/// assert_eq!(eval_expr_str(r#"split(",", "a,b,,c")"#, &ctx)?, Value::from(vec!["a", "b", "", "c"]));
/// # Ok::<(), hcl::Error>(())
/// ```
pub fn split() -> FuncDef {
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

/// `trimspace(str)`: the string without leading and trailing white space
/// (as Unicode defines it).
///
/// ```
/// # use hcl::{Value, eval::eval_expr_str, Context};
/// let ctx = Context::with_stdlib();
/// assert_eq!(eval_expr_str(r#"trimspace("  hi\n")"#, &ctx)?, Value::from("hi"));
/// # Ok::<(), hcl::Error>(())
/// ```
pub fn trimspace() -> FuncDef {
    string_to_string(|s| s.trim().to_owned())
}

/// Two strings to a string.
fn two_strings(names: [&str; 2], f: fn(&str, &str) -> String) -> FuncDef {
    FuncDef::new(move |args| Ok(Value::from(f(args.str(0)?, args.str(1)?))))
        .param(Param::new(names[0], Type::String))
        .param(Param::new(names[1], Type::String))
        .returns(Type::String)
}

/// `trim(str, cutset)`: the string without the leading and trailing
/// characters that appear in `cutset` (a set of characters, not a
/// prefix).
///
/// ```
/// # use hcl::{Value, eval::eval_expr_str, Context};
/// let ctx = Context::with_stdlib();
/// assert_eq!(eval_expr_str(r#"trim("?!hello?!", "!?")"#, &ctx)?, Value::from("hello"));
/// # Ok::<(), hcl::Error>(())
/// ```
pub fn trim() -> FuncDef {
    two_strings(["str", "cutset"], |s, cut| {
        s.trim_matches(|c| cut.contains(c)).to_owned()
    })
}

/// `trimprefix(str, prefix)`: the string without `prefix`, if it starts
/// with it (removed once).
///
/// ```
/// # use hcl::{Value, eval::eval_expr_str, Context};
/// let ctx = Context::with_stdlib();
/// assert_eq!(eval_expr_str(r#"trimprefix("helloworld", "hello")"#, &ctx)?, Value::from("world"));
/// # Ok::<(), hcl::Error>(())
/// ```
pub fn trimprefix() -> FuncDef {
    two_strings(["str", "prefix"], |s, p| {
        s.strip_prefix(p).unwrap_or(s).to_owned()
    })
}

/// `trimsuffix(str, suffix)`: the string without `suffix`, if it ends
/// with it (removed once).
///
/// ```
/// # use hcl::{Value, eval::eval_expr_str, Context};
/// let ctx = Context::with_stdlib();
/// assert_eq!(eval_expr_str(r#"trimsuffix("helloworld", "world")"#, &ctx)?, Value::from("hello"));
/// # Ok::<(), hcl::Error>(())
/// ```
pub fn trimsuffix() -> FuncDef {
    two_strings(["str", "suffix"], |s, p| {
        s.strip_suffix(p).unwrap_or(s).to_owned()
    })
}

/// `replace(str, substr, replace)`: the string with every occurrence of
/// `substr` replaced by `replace`. `substr` is plain text, not a regular
/// expression; an empty `substr` matches before every character and at
/// the end.
///
/// ```
/// # use hcl::{Value, eval::eval_expr_str, Context};
/// let ctx = Context::with_stdlib();
/// assert_eq!(eval_expr_str(r#"replace("1 + 2 + 3", "+", "-")"#, &ctx)?, Value::from("1 - 2 - 3"));
/// # Ok::<(), hcl::Error>(())
/// ```
///
/// # Errors
///
/// A result longer than the context's string limit.
pub fn replace() -> FuncDef {
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

/// `substr(str, offset, length)`: at most `length` characters of `str`
/// starting at character `offset`. A negative offset counts from the end;
/// a negative length takes the rest of the string.
///
/// ```
/// # use hcl::{Value, eval::eval_expr_str, Context};
/// let ctx = Context::with_stdlib();
/// assert_eq!(eval_expr_str(r#"substr("hello world", 1, 4)"#, &ctx)?, Value::from("ello"));
/// assert_eq!(eval_expr_str(r#"substr("hello world", -5, -1)"#, &ctx)?, Value::from("world"));
/// # Ok::<(), hcl::Error>(())
/// ```
///
/// # Errors
///
/// An offset or length that is not a whole number.
pub fn substr() -> FuncDef {
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

/// `strlen(str)`: the number of characters (grapheme clusters) in `str`.
///
/// ```
/// # use hcl::{Value, eval::eval_expr_str, Context};
/// let ctx = Context::with_stdlib();
/// assert_eq!(eval_expr_str(r#"strlen("héllo")"#, &ctx)?, Value::from(5));
/// # Ok::<(), hcl::Error>(())
/// ```
pub fn strlen() -> FuncDef {
    FuncDef::new(|args| Ok(Value::from(graphemes(args.str(0)?).count())))
        .param(Param::new("str", Type::String))
        .returns(Type::Number)
}

/// `strrev(str)`: the characters (grapheme clusters) of `str` in reverse
/// order.
///
/// ```
/// # use hcl::{Value, eval::eval_expr_str, Context};
/// let ctx = Context::with_stdlib();
/// assert_eq!(eval_expr_str(r#"strrev("héllo")"#, &ctx)?, Value::from("olléh"));
/// # Ok::<(), hcl::Error>(())
/// ```
pub fn strrev() -> FuncDef {
    string_to_string(|s| graphemes(s).rev().collect())
}

/// `title(str)`: the string with the first letter of each word in upper
/// (title) case. A word starts after anything but an ASCII letter, digit
/// or underscore, a letter or a digit.
///
/// ```
/// # use hcl::{Value, eval::eval_expr_str, Context};
/// let ctx = Context::with_stdlib();
/// assert_eq!(eval_expr_str(r#"title("hello world-wide")"#, &ctx)?, Value::from("Hello World-Wide"));
/// # Ok::<(), hcl::Error>(())
/// ```
pub fn title() -> FuncDef {
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

/// `chomp(str)`: the string without its trailing newlines (`\n`, `\r\n`
/// and `\r`).
///
/// ```
/// # use hcl::{Value, eval::eval_expr_str, Context};
/// let ctx = Context::with_stdlib();
/// assert_eq!(eval_expr_str(r#"chomp("hello\n\n")"#, &ctx)?, Value::from("hello"));
/// # Ok::<(), hcl::Error>(())
/// ```
pub fn chomp() -> FuncDef {
    string_to_string(|s| s.trim_end_matches(['\r', '\n']).to_owned())
}

/// `indent(spaces, str)`: the string with `spaces` spaces added after
/// each newline (every line but the first is indented).
///
/// ```
/// # use hcl::{Value, eval::eval_expr_str, Context};
/// let ctx = Context::with_stdlib();
/// assert_eq!(eval_expr_str(r#"indent(2, "a\nb")"#, &ctx)?, Value::from("a\n  b"));
/// # Ok::<(), hcl::Error>(())
/// ```
///
/// # Errors
///
/// A number of spaces that is not a whole number, or is negative (the
/// reference crashes there), a result beyond the string limit.
pub fn indent() -> FuncDef {
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
