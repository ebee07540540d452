//! go-cty-yaml's scalar resolution for `yamldecode`: YAML 1.1 booleans
//! and nulls, integers (`0x`, `0o`, `_` separators), floats, timestamps
//! rewritten in RFC 3339 form, and the tags that force a kind.

use super::yaml::Y;
use crate::{Number, Value};

/// A YAML 1.1 keyword: booleans, nulls, infinities.
fn keyword(src: &str) -> Option<Result<Value, String>> {
    Some(Ok(match src {
        "y" | "Y" | "yes" | "Yes" | "YES" | "true" | "True" | "TRUE" | "on" | "On" | "ON" => {
            Value::Bool(true)
        }
        "n" | "N" | "no" | "No" | "NO" | "false" | "False" | "FALSE" | "off" | "Off" | "OFF" => {
            Value::Bool(false)
        }
        "" | "~" | "null" | "Null" | "NULL" => Value::Null,
        ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" | "-.inf" | "-.Inf" | "-.INF" => {
            return Some(Err("infinity cannot be represented".to_owned()))
        }
        _ => return None,
    }))
}

/// go-cty's `ParseNumberVal`: a decimal number with optional sign and
/// exponent.
fn parse_number(s: &str) -> Option<Number> {
    let (neg, body) = match s.as_bytes().first() {
        Some(b'-') => (true, s.get(1..)?),
        Some(b'+') => (false, s.get(1..)?),
        _ => (false, s),
    };
    let n = Number::from_literal(body)?;
    Some(if neg { n.neg() } else { n })
}

/// Whether `s` matches go-cty-yaml's integer literal pattern.
fn integer_literal(s: &str) -> bool {
    let s = s.strip_prefix(['+', '-']).unwrap_or(s);
    if let Some(o) = s.strip_prefix("0o") {
        return !o.is_empty() && o.bytes().all(|b| matches!(b, b'0'..=b'7' | b'_'));
    }
    if let Some(h) = s.strip_prefix("0x") {
        return !h.is_empty() && h.bytes().all(|b| b.is_ascii_hexdigit() || b == b'_');
    }
    s.bytes().all(|b| b.is_ascii_digit() || b == b'_')
}

/// Whether `s` matches go-cty-yaml's float literal pattern.
fn float_literal(s: &str) -> bool {
    let s = s.strip_prefix(['+', '-']).unwrap_or(s);
    let (mant, exp) = match s.find(['e', 'E']) {
        Some(i) => (s.get(..i).unwrap_or(""), s.get(i + 1..)),
        None => (s, None),
    };
    let digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    let mant_ok = match mant.split_once('.') {
        Some(("", f)) => digits(f),
        Some((i, f)) => digits(i) && (f.is_empty() || digits(f)),
        None => digits(mant),
    };
    let exp_ok = match exp {
        None => true,
        Some(e) => digits(e.strip_prefix(['+', '-']).unwrap_or(e)),
    };
    mant_ok && exp_ok
}

/// An integer in Go's `strconv.ParseInt(s, 0, 64)` syntax.
fn go_int(s: &str) -> Option<Number> {
    let (neg, body) = match s.as_bytes().first() {
        Some(b'-') => (true, s.get(1..)?),
        Some(b'+') => (false, s.get(1..)?),
        _ => (false, s),
    };
    let (digits, radix) =
        if let Some(h) = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
            (h, 16)
        } else if let Some(o) = body.strip_prefix("0o").or_else(|| body.strip_prefix("0O")) {
            (o, 8)
        } else if let Some(b) = body.strip_prefix("0b").or_else(|| body.strip_prefix("0B")) {
            (b, 2)
        } else if body.len() > 1 && body.starts_with('0') {
            (&body[1..], 8)
        } else {
            (body, 10)
        };
    let v = i64::from_str_radix(digits, radix).ok()?;
    Number::from_literal(&(if neg { -i128::from(v) } else { i128::from(v) }).to_string())
}

/// Up to `max` leading ASCII digits of `s` (at least one): value, rest.
fn digits_prefix(s: &str, max: usize) -> Option<(u32, &str)> {
    let n = s.bytes().take(max).take_while(u8::is_ascii_digit).count();
    if n == 0 {
        return None;
    }
    Some((s.get(..n)?.parse().ok()?, s.get(n..)?))
}

/// A YAML timestamp (go-yaml's formats `2006-1-2`, `2006-1-2T15:4:5Z07:00`
/// with `t` or `T`, `2006-1-2 15:4:5`, fractions allowed) in RFC 3339
/// form, whole seconds, as go-cty-yaml writes it.
fn timestamp(s: &str) -> Option<String> {
    let year = s
        .get(..4)
        .filter(|y| y.bytes().all(|b| b.is_ascii_digit()))?;
    let rest = s.get(4..)?.strip_prefix('-')?;
    let (month, rest) = digits_prefix(rest, 2)?;
    let (day, rest) = digits_prefix(rest.strip_prefix('-')?, 2)?;
    let y: i64 = year.parse().ok()?;
    let leap = y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return None,
    };
    if day == 0 || day > days {
        return None;
    }
    let date = format!("{year}-{month:02}-{day:02}");
    if rest.is_empty() {
        return Some(format!("{date}T00:00:00Z"));
    }
    let (zoned, rest) = match rest.as_bytes().first() {
        Some(b'T' | b't') => (true, rest.get(1..)?),
        Some(b' ') => (false, rest.get(1..)?),
        _ => return None,
    };
    let (h, rest) = digits_prefix(rest, 2)?;
    let (mi, rest) = digits_prefix(rest.strip_prefix(':')?, 2)?;
    let (sec, mut rest) = digits_prefix(rest.strip_prefix(':')?, 2)?;
    if h > 23 || mi > 59 || sec > 59 {
        return None;
    }
    if let Some(frac) = rest.strip_prefix('.') {
        let n = frac.bytes().take_while(u8::is_ascii_digit).count();
        if n == 0 {
            return None;
        }
        rest = frac.get(n..)?;
    }
    let time = format!("{date}T{h:02}:{mi:02}:{sec:02}");
    if !zoned {
        return rest.is_empty().then(|| format!("{time}Z"));
    }
    if rest == "Z" {
        return Some(format!("{time}Z"));
    }
    let b = rest.as_bytes();
    let ok = b.len() == 6
        && matches!(b.first(), Some(b'+' | b'-'))
        && b.get(3) == Some(&b':')
        && [1, 2, 4, 5]
            .iter()
            .all(|i| b.get(*i).is_some_and(u8::is_ascii_digit));
    if !ok {
        return None;
    }
    let (oh, om): (u32, u32) = (rest.get(1..3)?.parse().ok()?, rest.get(4..6)?.parse().ok()?);
    if oh > 23 || om > 59 {
        return None;
    }
    if oh == 0 && om == 0 {
        return Some(format!("{time}Z"));
    }
    Some(format!("{time}{rest}"))
}

/// go-cty-yaml's `resolveScalar`.
pub(super) fn resolve(tag: &str, src: &str, quoted: bool) -> Result<Value, String> {
    let short = tag.strip_prefix(Y);
    let resolvable = tag.is_empty()
        || matches!(
            short,
            Some("str" | "bool" | "int" | "float" | "null" | "timestamp" | "binary")
        );
    if !resolvable {
        return Err(format!("unsupported tag {tag:?}"));
    }
    let mut short = short.unwrap_or("");
    let hint = match src.as_bytes().first() {
        None => b'N',
        Some(b'+' | b'-') => b'S',
        Some(b'0'..=b'9') => b'D',
        Some(b'y' | b'Y' | b'n' | b'N' | b't' | b'T' | b'f' | b'F' | b'o' | b'O' | b'~') => b'M',
        Some(b'.') => b'.',
        Some(_) => 0,
    };
    if hint != 0 && !matches!(short, "str" | "binary") {
        if quoted {
            return Ok(Value::from(src));
        }
        if let Some(v) = keyword(src) {
            return v;
        }
        if tag.is_empty() && matches!(src, ".nan" | ".NaN" | ".NAN") {
            return Err("floating point NaN is not supported".to_owned());
        }
        match hint {
            b'.' => {
                if let Some(n) = parse_number(src) {
                    return Ok(Value::Number(n));
                }
            }
            b'D' | b'S' => {
                if matches!(short, "" | "timestamp") {
                    if let Some(t) = timestamp(src) {
                        return Ok(Value::from(t));
                    }
                }
                if integer_literal(src) {
                    short = "int";
                } else if float_literal(src) {
                    short = "float";
                }
            }
            _ => {}
        }
    }
    match short {
        "int" | "float" => {
            let plain: String = src.chars().filter(|c| *c != '_').collect();
            parse_number(&plain)
                .or_else(|| go_int(&plain).filter(|_| short == "int"))
                .map(Value::Number)
                .ok_or_else(|| format!("cannot parse {src:?} as {tag}"))
        }
        "bool" => match keyword(src) {
            Some(Ok(v @ Value::Bool(_))) => Ok(v),
            _ => Err(format!("cannot parse {src:?} as {tag}")),
        },
        "null" => match keyword(src) {
            Some(Ok(Value::Null)) => Ok(Value::Null),
            _ => Err(format!("cannot parse {src:?} as {tag}")),
        },
        _ => Ok(Value::from(src)),
    }
}

#[cfg(test)]
mod tests {
    use super::timestamp;

    #[test]
    fn timestamps_as_tforacle_prints_them() {
        // Expected values: `tforacle` on `yamldecode(...)` of each input.
        let cases = [
            ("2001-12-14", Some("2001-12-14T00:00:00Z")),
            ("2001-2-4t1:2:3.5-05:00", Some("2001-02-04T01:02:03-05:00")),
            ("2001-12-14 21:59:43.10", Some("2001-12-14T21:59:43Z")),
            ("2001-02-30", None),
            ("2001-12-14T21:59:43Z", Some("2001-12-14T21:59:43Z")),
            ("2001-12-14T21:59:43", None),
            ("2000-02-29 1:2:3", Some("2000-02-29T01:02:03Z")),
        ];
        for (input, want) in cases {
            assert_eq!(timestamp(input).as_deref(), want, "{input}");
        }
    }
}
