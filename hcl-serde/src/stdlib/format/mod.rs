//! The `printf`-like engine of `format` and `formatlist`: go-cty's
//! `formatFSM`, its state machine transcribed state by state (the number
//! verbs, Go's `fmt` with `math/big` values, are in `number.rs`).

mod number;
mod verb;

use self::number::{format_float, format_integer, shortest_g};
use self::verb::Verb;
use crate::eval::FuncError;
use crate::stdlib::encoding::{json_encode, json_quote};
use crate::stdlib::graphemes::graphemes;
use crate::{Number, Value};

/// Formats `values` according to `spec`. Errors are the call's, except
/// unused values, which point at the first unused value (argument index
/// counted with the format string as argument 0).
pub(super) fn format_values(
    spec: &str,
    values: &[Value],
    limit: usize,
) -> Result<String, FuncError> {
    let data = spec.as_bytes();
    let mut buf: Vec<u8> = Vec::with_capacity(spec.len());
    let mut next_arg = 1usize;
    let mut highest = 0usize;
    let mut verb = Verb::default();
    let mut state = 8u8;
    let unrecognized = |p: usize| {
        let c = spec.get(p..).and_then(|s| s.chars().next()).unwrap_or('?');
        FuncError::new(format!(
            "unrecognized format character {} at offset {p}",
            go_quote_char(c)
        ))
    };
    let digit = |acc: usize, b: u8| {
        acc.saturating_mul(10)
            .saturating_add(usize::from(b.wrapping_sub(b'0')))
    };
    for (p, &b) in data.iter().enumerate() {
        let mut emit_verb = false;
        match state {
            8 => {
                if b == b'%' {
                    verb = Verb {
                        start: p,
                        arg_num: next_arg,
                        ..Verb::default()
                    };
                    state = 1;
                } else {
                    buf.push(b);
                }
            }
            1 | 2 => match b {
                b' ' => {
                    verb.space = true;
                    state = 2;
                }
                b'#' => {
                    verb.sharp = true;
                    state = 2;
                }
                b'%' if state == 1 => {
                    buf.push(b'%');
                    state = 8;
                }
                b'+' => {
                    verb.plus = true;
                    state = 2;
                }
                b'-' => {
                    verb.minus = true;
                    state = 2;
                }
                b'.' => {
                    verb.prec = 0;
                    state = 3;
                }
                b'0' => {
                    verb.zero = true;
                    state = 2;
                }
                b'[' => {
                    verb.arg_num = 0;
                    state = 4;
                }
                b'1'..=b'9' => {
                    verb.width = digit(0, b);
                    state = 7;
                }
                _ if b.is_ascii_alphabetic() => emit_verb = true,
                _ => return Err(unrecognized(p)),
            },
            3 => match b {
                b'[' => {
                    verb.has_prec = true;
                    verb.arg_num = 0;
                    state = 4;
                }
                b'0'..=b'9' => verb.prec = digit(verb.prec, b),
                _ if b.is_ascii_alphabetic() => {
                    verb.has_prec = true;
                    emit_verb = true;
                }
                _ => return Err(unrecognized(p)),
            },
            4 => match b {
                b'1'..=b'9' => {
                    verb.arg_num = digit(verb.arg_num, b);
                    state = 5;
                }
                _ => return Err(unrecognized(p)),
            },
            5 => match b {
                b']' => state = 6,
                b'0'..=b'9' => verb.arg_num = digit(verb.arg_num, b),
                _ => return Err(unrecognized(p)),
            },
            6 => match b {
                _ if b.is_ascii_alphabetic() => emit_verb = true,
                _ => return Err(unrecognized(p)),
            },
            _ => match b {
                b'.' => {
                    verb.has_width = true;
                    verb.prec = 0;
                    state = 3;
                }
                b'[' => {
                    verb.has_width = true;
                    verb.arg_num = 0;
                    state = 4;
                }
                b'0'..=b'9' => verb.width = digit(verb.width, b),
                _ if b.is_ascii_alphabetic() => {
                    verb.has_width = true;
                    emit_verb = true;
                }
                _ => return Err(unrecognized(p)),
            },
        }
        if emit_verb {
            verb.mode = b;
            verb.end = p + 1;
            highest = highest.max(verb.arg_num);
            append(&verb, spec, &mut buf, values, limit)?;
            next_arg = verb.arg_num.saturating_add(1);
            state = 8;
        }
        if buf.len() > limit {
            return Err(too_long(limit));
        }
    }
    if state != 8 {
        return Err(FuncError::new(format!(
            "invalid format string starting at offset {}",
            data.len()
        )));
    }
    if highest < values.len() {
        let first_bad = highest + 1;
        if highest == 0 {
            return Err(FuncError::arg(
                first_bad,
                "too many arguments; no verbs in format string",
            ));
        }
        return Err(FuncError::arg(
            first_bad,
            format!("too many arguments; only {highest} used by format string"),
        ));
    }
    Ok(String::from_utf8_lossy(&buf).into_owned())
}

fn too_long(limit: usize) -> FuncError {
    FuncError::new(format!(
        "the result would be longer than the limit of {limit} bytes"
    ))
}

/// Appends one verb's output.
fn append(
    verb: &Verb,
    spec: &str,
    buf: &mut Vec<u8>,
    values: &[Value],
    limit: usize,
) -> Result<(), FuncError> {
    let raw = spec.get(verb.start..verb.end).unwrap_or_default();
    let at = verb.start;
    let fail = |msg: &str| {
        FuncError::new(format!(
            "unsupported value for {} at {at}: {msg}",
            go_quote(raw)
        ))
    };
    let Some(arg) = verb.arg_num.checked_sub(1).and_then(|i| values.get(i)) else {
        return Err(FuncError::new(format!(
            "not enough arguments for {} at {at}: need index {} but have {} total",
            go_quote(raw),
            verb.arg_num,
            values.len()
        )));
    };
    if verb.mode != b'v' && arg.is_null() {
        return Err(fail("null value cannot be formatted"));
    }
    let width = if verb.has_width { verb.width } else { 0 };
    if width > limit || (verb.has_prec && verb.prec > limit) {
        return Err(too_long(limit));
    }
    let out = match verb.mode {
        b'v' => {
            let text = match arg {
                Value::String(s) if !verb.sharp => s.clone(),
                Value::Number(n) if !verb.sharp => shortest_g(n),
                other => {
                    let mut s = String::new();
                    json_encode(other, &mut s);
                    s
                }
            };
            pad_width(verb, text)
        }
        b't' => match arg {
            Value::Bool(b) => b.to_string(),
            Value::String(s) => match crate::eval::convert::string_to_bool(s) {
                Some(b) => b.to_string(),
                None => return Err(fail("a bool is required")),
            },
            _ => return Err(fail("bool required")),
        },
        b'b' | b'd' | b'o' | b'x' | b'X' | b'e' | b'E' | b'f' | b'g' | b'G' => {
            let n = match arg {
                Value::Number(n) => n.clone(),
                Value::String(s) => s
                    .parse::<Number>()
                    .map_err(|_| fail("a number is required"))?,
                _ => return Err(fail("number required")),
            };
            if matches!(verb.mode, b'b' | b'd' | b'o' | b'x' | b'X') {
                format_integer(verb, &n).ok_or_else(|| fail("an integer is required"))?
            } else if n.is_infinite() {
                // Go's big.Float: `+Inf`/`-Inf` for every float verb.
                pad_width(verb, n.to_string())
            } else {
                format_float(verb, &n)
            }
        }
        b's' | b'q' => {
            let s = match arg {
                Value::String(s) => s.clone(),
                Value::Number(n) => n.to_string(),
                Value::Bool(b) => b.to_string(),
                _ => return Err(fail("string required")),
            };
            let s = if verb.has_prec && verb.prec > 0 {
                let end: usize = graphemes(&s).take(verb.prec).map(str::len).sum();
                s.get(..end).unwrap_or(&s).to_owned()
            } else {
                s
            };
            if verb.mode == b's' {
                pad_width(verb, s)
            } else {
                let mut q = String::new();
                json_quote(&s, &mut q);
                pad_width(verb, q)
            }
        }
        other => {
            return Err(FuncError::new(format!(
                "unsupported format verb {} in {} at offset {at}",
                go_quote_char(char::from(other)),
                go_quote(raw)
            )))
        }
    };
    buf.extend_from_slice(out.as_bytes());
    Ok(())
}

/// Pads to the verb's width, counted in grapheme clusters (go-cty's
/// `formatPadWidth`).
fn pad_width(verb: &Verb, s: String) -> String {
    if !verb.has_width {
        return s;
    }
    let len = graphemes(&s).count();
    if len >= verb.width {
        return s;
    }
    let pad = (if verb.zero { "0" } else { " " }).repeat(verb.width - len);
    if verb.minus {
        s + &pad
    } else {
        pad + &s
    }
}

/// Go's `strconv.Quote`-like quoting, for messages.
pub(super) fn go_quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            _ => out.extend(c.escape_debug()),
        }
    }
    out.push('"');
    out
}

/// Go's `%q` of a rune.
fn go_quote_char(c: char) -> String {
    match c {
        '\'' => "'\\''".to_owned(),
        '"' => "'\"'".to_owned(),
        _ => format!("'{}'", c.escape_debug()),
    }
}
