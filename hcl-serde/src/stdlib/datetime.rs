//! The date and time functions. Timestamps are RFC 3339 text, read as
//! Go's `time.Parse(time.RFC3339, ...)` reads them (its errors included);
//! no function looks at the clock.

use super::Table;
use crate::eval::{FuncDef, FuncError, Param, Type};
use crate::Value;

/// This family's functions: name and constructor.
pub(super) const DATETIME: Table = &[("formatdate", formatdate), ("timeadd", timeadd)];

/// A point in time with its UTC offset.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Timestamp {
    /// Seconds since 1970-01-01T00:00:00 in local (offset) time.
    local_secs: i64,
    nanos: u32,
    /// The UTC offset in seconds.
    offset: i32,
}

/// Days since 1970-01-01 of a civil date (Howard Hinnant's algorithm).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The civil date of a day number.
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = if m <= 2 { y + 1 } else { y };
    (
        y,
        u32::try_from(m).unwrap_or(1),
        u32::try_from(d).unwrap_or(1),
    )
}

fn is_leap(y: i64) -> bool {
    y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)
}

fn days_in(m: i64, y: i64) -> i64 {
    match m {
        2 if is_leap(y) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// A `time.ParseError` as go-cty's `parseTimestamp` reports it.
enum ParseError {
    /// A layout element (`"2006"`, `"01"`...) with the remaining text.
    Elem(&'static str, String),
    /// A message (`": day out of range"`).
    Message(String),
}

impl ParseError {
    fn describe(self) -> String {
        match self {
            ParseError::Message(m) => format!("not a valid RFC3339 timestamp{m}"),
            ParseError::Elem(layout, value) => {
                let what = match layout {
                    "2006" => "year",
                    "01" => "month",
                    "02" => "day of month",
                    "15" => "hour",
                    "04" => "minute",
                    "05" => "second",
                    "Z07:00" => "UTC offset",
                    "T" => {
                        return "not a valid RFC3339 timestamp: missing required time introducer 'T'"
                            .to_owned()
                    }
                    ":" | "-" => {
                        return if value.is_empty() {
                            format!(
                                "not a valid RFC3339 timestamp: end of string where {layout:?} is expected"
                            )
                        } else {
                            format!(
                                "not a valid RFC3339 timestamp: found {value:?} where {layout:?} is expected"
                            )
                        }
                    }
                    _ => "timestamp segment",
                };
                if value.is_empty() {
                    format!("not a valid RFC3339 timestamp: end of string before {what}")
                } else {
                    format!("not a valid RFC3339 timestamp: cannot use {value:?} as {what}")
                }
            }
        }
    }
}

/// Go's `getnum`: one or two digits (exactly two if `fixed`).
fn getnum(s: &str, fixed: bool) -> Option<(i64, &str)> {
    let b = s.as_bytes();
    let d0 = b.first().filter(|c| c.is_ascii_digit())?;
    match b.get(1).filter(|c| c.is_ascii_digit()) {
        Some(d1) => Some((
            i64::from(d0 - b'0') * 10 + i64::from(d1 - b'0'),
            s.get(2..)?,
        )),
        None if fixed => None,
        None => Some((i64::from(d0 - b'0'), s.get(1..)?)),
    }
}

/// `time.Parse(time.RFC3339, s)` (layout `2006-01-02T15:04:05Z07:00`).
fn parse_timestamp(s: &str) -> Result<Timestamp, ParseError> {
    let elem = |layout: &'static str, rest: &str| ParseError::Elem(layout, rest.to_owned());
    let range = |layout: &'static str, _what: &str, rest: &str| {
        // Go reports a range error with the element and the text after it.
        ParseError::Elem(layout, rest.to_owned())
    };
    let lit = |rest: &str, l: &'static str| -> Result<String, ParseError> {
        rest.strip_prefix(l)
            .map(str::to_owned)
            .ok_or_else(|| ParseError::Elem(l, rest.to_owned()))
    };
    // Year: four digits.
    let year_txt = s.get(..4).filter(|t| t.bytes().all(|b| b.is_ascii_digit()));
    let Some(year_txt) = year_txt else {
        return Err(elem("2006", s));
    };
    let year: i64 = year_txt.parse().map_err(|_| elem("2006", s))?;
    let rest = lit(s.get(4..).unwrap_or_default(), "-")?;
    let (month, r) = getnum(&rest, true).ok_or_else(|| elem("01", &rest))?;
    if !(1..=12).contains(&month) {
        return Err(range("01", "month", r));
    }
    let rest = lit(r, "-")?;
    let (day, r) = getnum(&rest, true).ok_or_else(|| elem("02", &rest))?;
    let rest = lit(r, "T")?;
    let (hour, r) = getnum(&rest, false).ok_or_else(|| elem("15", &rest))?;
    if !(0..24).contains(&hour) {
        return Err(range("15", "hour", r));
    }
    let rest = lit(r, ":")?;
    let (min, r) = getnum(&rest, true).ok_or_else(|| elem("04", &rest))?;
    if !(0..60).contains(&min) {
        return Err(range("04", "minute", r));
    }
    let rest = lit(r, ":")?;
    let (sec, r) = getnum(&rest, true).ok_or_else(|| elem("05", &rest))?;
    if !(0..60).contains(&sec) {
        return Err(range("05", "second", r));
    }
    // Fractional seconds: a period or comma and digits.
    let mut r = r;
    let mut nanos: u32 = 0;
    let rb = r.as_bytes();
    if rb.len() >= 2
        && matches!(rb.first(), Some(b'.' | b','))
        && rb.get(1).is_some_and(u8::is_ascii_digit)
    {
        let digits: String = r
            .get(1..)
            .unwrap_or_default()
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        let mut scale = 100_000_000u32;
        for d in digits.bytes().take(9) {
            nanos += u32::from(d - b'0') * scale;
            scale /= 10;
        }
        r = r.get(1 + digits.len()..).unwrap_or_default();
    }
    // Zone: Z or ±hh:mm.
    let offset: i64;
    let rest: &str;
    if let Some(after) = r.strip_prefix('Z') {
        offset = 0;
        rest = after;
    } else {
        let b = r.as_bytes();
        if b.len() < 6 || b.get(3) != Some(&b':') {
            return Err(elem("Z07:00", r));
        }
        let sign = match b.first() {
            Some(b'+') => 1,
            Some(b'-') => -1,
            _ => return Err(elem("Z07:00", r)),
        };
        let hh = r.get(1..3).and_then(|t| getnum(t, true)).map(|x| x.0);
        let mm = r.get(4..6).and_then(|t| getnum(t, true)).map(|x| x.0);
        let (Some(hh), Some(mm)) = (hh, mm) else {
            return Err(elem("Z07:00", r));
        };
        offset = sign * (hh * 3600 + mm * 60);
        rest = r.get(6..).unwrap_or_default();
    }
    if !rest.is_empty() {
        return Err(ParseError::Elem("", rest.to_owned()));
    }
    if day < 1 || day > days_in(month, year) {
        return Err(ParseError::Message(": day out of range".to_owned()));
    }
    let days = days_from_civil(year, month, day);
    Ok(Timestamp {
        local_secs: days * 86_400 + hour * 3600 + min * 60 + sec,
        nanos,
        offset: i32::try_from(offset).unwrap_or(0),
    })
}

/// The parts of a timestamp in its own offset.
struct Parts {
    year: i64,
    month: u32,
    day: u32,
    hour: i64,
    min: i64,
    sec: i64,
    weekday: usize,
}

impl Timestamp {
    fn parts(&self) -> Parts {
        let days = self.local_secs.div_euclid(86_400);
        let secs = self.local_secs.rem_euclid(86_400);
        let (year, month, day) = civil_from_days(days);
        Parts {
            year,
            month,
            day,
            hour: secs / 3600,
            min: secs / 60 % 60,
            sec: secs % 60,
            // 1970-01-01 was a Thursday (Sunday = 0).
            weekday: usize::try_from((days + 4).rem_euclid(7)).unwrap_or(0),
        }
    }

    /// The offset as `-0700` (`colon`: `-07:00`).
    fn offset_text(&self, colon: bool) -> String {
        let sign = if self.offset < 0 { '-' } else { '+' };
        let m = self.offset.unsigned_abs() / 60;
        if colon {
            format!("{sign}{:02}:{:02}", m / 60, m % 60)
        } else {
            format!("{sign}{:02}{:02}", m / 60, m % 60)
        }
    }

    /// `Format(time.RFC3339)`.
    fn rfc3339(&self) -> String {
        let p = self.parts();
        let zone = if self.offset == 0 {
            "Z".to_owned()
        } else {
            self.offset_text(true)
        };
        format!(
            "{}-{:02}-{:02}T{:02}:{:02}:{:02}{zone}",
            go_year(p.year),
            p.month,
            p.day,
            p.hour,
            p.min,
            p.sec
        )
    }
}

/// A year as Go's layout `2006` writes it: at least four digits.
fn go_year(y: i64) -> String {
    if y < 0 {
        format!("-{:04}", y.unsigned_abs())
    } else {
        format!("{y:04}")
    }
}

const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];
const DAYS: [&str; 7] = [
    "Sunday",
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
];

/// Splits a `formatdate` specification into tokens: quoted literals,
/// runs of one letter, and other text (go-cty's `splitDateFormat`).
fn split_date_format(s: &str) -> Vec<&str> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let start = i;
        let first = b.get(i).copied().unwrap_or(0);
        if first == b'\'' {
            if b.get(i + 1) == Some(&b'\'') {
                i += 2;
            } else {
                i += 1;
                loop {
                    match b.get(i) {
                        None => break,
                        Some(b'\'') if b.get(i + 1) == Some(&b'\'') => i += 2,
                        Some(b'\'') => {
                            i += 1;
                            break;
                        }
                        Some(_) => i += 1,
                    }
                }
            }
        } else if first.is_ascii_alphabetic() {
            while b.get(i) == Some(&first) {
                i += 1;
            }
        } else {
            i += 1;
            while let Some(&c) = b.get(i) {
                if c == b'\'' || c.is_ascii_alphabetic() {
                    break;
                }
                i += 1;
            }
        }
        // Token boundaries are ASCII bytes, so char boundaries.
        out.push(s.get(start..i).unwrap_or_default());
    }
    out
}

pub(crate) fn formatdate() -> FuncDef {
    FuncDef::new(|args| {
        let spec = args.str(0)?;
        let t = parse_timestamp(args.str(1)?).map_err(|e| FuncError::arg(1, e.describe()))?;
        let p = t.parts();
        let mut out = String::new();
        let bad = |tok: &str, what: &str| {
            FuncError::arg(0, format!("invalid date format verb {tok:?}: {what}"))
        };
        for tok in split_date_format(spec) {
            let b = tok.as_bytes();
            let Some(&first) = b.first() else { continue };
            if first == b'\'' {
                if b.last() != Some(&b'\'') || b.len() == 1 {
                    return Err(FuncError::arg(0, "unterminated literal '"));
                }
                if b.len() == 2 {
                    out.push('\'');
                } else {
                    out.push_str(
                        &tok.get(1..tok.len() - 1)
                            .unwrap_or_default()
                            .replace("''", "'"),
                    );
                }
                continue;
            }
            if !first.is_ascii_alphabetic() {
                out.push_str(tok);
                continue;
            }
            let n = b.len();
            let two = |v: i64| format!("{v:02}");
            match (first, n) {
                (b'Y', 2) => out.push_str(&format!("{:02}", p.year % 100)),
                (b'Y', 4) => out.push_str(&go_year(p.year)),
                (b'Y', _) => return Err(bad(tok, "year must either be \"YY\" or \"YYYY\"")),
                (b'M', 1) => out.push_str(&p.month.to_string()),
                (b'M', 2) => out.push_str(&two(i64::from(p.month))),
                (b'M', 3 | 4) => {
                    let name = MONTHS
                        .get(usize::try_from(p.month).unwrap_or(1).saturating_sub(1))
                        .copied()
                        .unwrap_or_default();
                    out.push_str(if n == 3 {
                        name.get(..3).unwrap_or(name)
                    } else {
                        name
                    });
                }
                (b'M', _) => {
                    return Err(bad(
                        tok,
                        "month must be \"M\", \"MM\", \"MMM\", or \"MMMM\"",
                    ))
                }
                (b'D', 1) => out.push_str(&p.day.to_string()),
                (b'D', 2) => out.push_str(&two(i64::from(p.day))),
                (b'D', _) => return Err(bad(tok, "day of month must either be \"D\" or \"DD\"")),
                (b'E', 3 | 4) => {
                    let name = DAYS.get(p.weekday).copied().unwrap_or_default();
                    out.push_str(if n == 3 {
                        name.get(..3).unwrap_or(name)
                    } else {
                        name
                    });
                }
                (b'E', _) => {
                    return Err(bad(tok, "day of week must either be \"EEE\" or \"EEEE\""))
                }
                (b'h', 1) => out.push_str(&p.hour.to_string()),
                (b'h', 2) => out.push_str(&two(p.hour)),
                (b'h', _) => return Err(bad(tok, "24-hour must either be \"h\" or \"hh\"")),
                (b'H', 1 | 2) => {
                    let h = match p.hour % 12 {
                        0 => 12,
                        h => h,
                    };
                    out.push_str(&if n == 1 { h.to_string() } else { two(h) });
                }
                (b'H', _) => return Err(bad(tok, "12-hour must either be \"H\" or \"HH\"")),
                (b'A' | b'a', 2) => {
                    let pm = p.hour >= 12;
                    out.push_str(match (first == b'A', pm) {
                        (true, false) => "AM",
                        (true, true) => "PM",
                        (false, false) => "am",
                        (false, true) => "pm",
                    });
                }
                (b'A' | b'a', _) => {
                    let c = char::from(first);
                    return Err(bad(tok, &format!("must be \"{c}{c}\"")));
                }
                (b'm', 1) => out.push_str(&p.min.to_string()),
                (b'm', 2) => out.push_str(&two(p.min)),
                (b'm', _) => return Err(bad(tok, "minute must either be \"m\" or \"mm\"")),
                (b's', 1) => out.push_str(&p.sec.to_string()),
                (b's', 2) => out.push_str(&two(p.sec)),
                (b's', _) => return Err(bad(tok, "second must either be \"s\" or \"ss\"")),
                (b'Z', 1) => {
                    if t.offset == 0 {
                        out.push('Z');
                    } else {
                        out.push_str(&t.offset_text(true));
                    }
                }
                (b'Z', 3) => {
                    let z = t.offset_text(false);
                    out.push_str(if z == "+0000" { "UTC" } else { &z });
                }
                (b'Z', 4) => out.push_str(&t.offset_text(false)),
                (b'Z', 5) => out.push_str(&t.offset_text(true)),
                (b'Z', _) => return Err(bad(tok, "timezone must be Z, ZZZZ, or ZZZZZ")),
                _ => {
                    return Err(FuncError::arg(
                        0,
                        format!("invalid date format verb {tok:?}"),
                    ))
                }
            }
        }
        Ok(Value::from(out))
    })
    .param(Param::new("format", Type::String))
    .param(Param::new("time", Type::String))
    .returns(Type::String)
}

/// Go's `time.ParseDuration`, in nanoseconds.
fn parse_duration(s: &str) -> Result<i128, String> {
    let invalid = || format!("time: invalid duration {}", super::format::go_quote(s));
    let mut rest = s;
    let neg = match rest.as_bytes().first() {
        Some(b'-') => {
            rest = rest.get(1..).unwrap_or_default();
            true
        }
        Some(b'+') => {
            rest = rest.get(1..).unwrap_or_default();
            false
        }
        _ => false,
    };
    if rest == "0" {
        return Ok(0);
    }
    if rest.is_empty() {
        return Err(invalid());
    }
    let mut total: i128 = 0;
    while !rest.is_empty() {
        let int_len = rest.bytes().take_while(u8::is_ascii_digit).count();
        let int_txt = rest.get(..int_len).unwrap_or_default();
        rest = rest.get(int_len..).unwrap_or_default();
        let mut frac_txt = "";
        if let Some(after) = rest.strip_prefix('.') {
            let n = after.bytes().take_while(u8::is_ascii_digit).count();
            frac_txt = after.get(..n).unwrap_or_default();
            rest = after.get(n..).unwrap_or_default();
            if int_txt.is_empty() && frac_txt.is_empty() {
                return Err(invalid());
            }
        } else if int_txt.is_empty() {
            return Err(invalid());
        }
        let unit_len = rest
            .char_indices()
            .find(|(_, c)| *c == '.' || c.is_ascii_digit())
            .map_or(rest.len(), |(i, _)| i);
        let unit = rest.get(..unit_len).unwrap_or_default();
        rest = rest.get(unit_len..).unwrap_or_default();
        let scale: i128 = match unit {
            "" => {
                return Err(format!(
                    "time: missing unit in duration {}",
                    super::format::go_quote(s)
                ))
            }
            "ns" => 1,
            "us" | "\u{b5}s" | "\u{3bc}s" => 1_000,
            "ms" => 1_000_000,
            "s" => 1_000_000_000,
            "m" => 60_000_000_000,
            "h" => 3_600_000_000_000,
            _ => {
                return Err(format!(
                    "time: unknown unit {} in duration {}",
                    super::format::go_quote(unit),
                    super::format::go_quote(s)
                ))
            }
        };
        let int: i128 = if int_txt.is_empty() {
            0
        } else {
            int_txt.parse().map_err(|_| invalid())?
        };
        let mut v = int.checked_mul(scale).ok_or_else(invalid)?;
        // The fraction, truncated to whole nanoseconds.
        let mut f_scale = scale;
        let mut frac: i128 = 0;
        let mut denom: i128 = 1;
        for d in frac_txt.bytes() {
            if denom > 1_000_000_000_000_000_000 {
                break;
            }
            frac = frac * 10 + i128::from(d - b'0');
            denom *= 10;
        }
        if denom > 1 {
            f_scale = f_scale.saturating_mul(frac) / denom;
            v = v.checked_add(f_scale).ok_or_else(invalid)?;
        }
        total = total.checked_add(v).ok_or_else(invalid)?;
        if total > i128::from(i64::MAX) {
            return Err(invalid());
        }
    }
    Ok(if neg { -total } else { total })
}

pub(crate) fn timeadd() -> FuncDef {
    FuncDef::new(|args| {
        let t = parse_timestamp(args.str(0)?).map_err(|e| FuncError::new(e.describe()))?;
        let d = parse_duration(args.str(1)?).map_err(FuncError::new)?;
        let total = i128::from(t.local_secs) * 1_000_000_000 + i128::from(t.nanos) + d;
        let secs = total.div_euclid(1_000_000_000);
        let nanos = total.rem_euclid(1_000_000_000);
        let t = Timestamp {
            local_secs: i64::try_from(secs)
                .map_err(|_| FuncError::new("the resulting time is out of range"))?,
            nanos: u32::try_from(nanos).unwrap_or(0),
            offset: t.offset,
        };
        Ok(Value::from(t.rfc3339()))
    })
    .param(Param::new("timestamp", Type::String))
    .param(Param::new("duration", Type::String))
    .returns(Type::String)
}

/// An RFC 3339 timestamp as an instant: seconds since the Unix epoch (UTC)
/// and nanoseconds (Terraform's `timecmp`).
///
/// # Errors
///
/// The reference's message for an invalid timestamp.
#[cfg(feature = "terraform")]
pub(super) fn timestamp_instant(s: &str) -> Result<(i64, u32), String> {
    let t = parse_timestamp(s).map_err(ParseError::describe)?;
    Ok((t.local_secs - i64::from(t.offset), t.nanos))
}

/// The civil date and time of `secs` since the Unix epoch (UTC): year,
/// month, day, hour, minute, second (Terraform's `timestamp`).
#[cfg(feature = "terraform")]
pub(super) fn civil_utc(secs: i64) -> (i64, u32, u32, i64, i64, i64) {
    let days = secs.div_euclid(86_400);
    let rem = secs.rem_euclid(86_400);
    let (y, m, d) = civil_from_days(days);
    (y, m, d, rem / 3600, rem / 60 % 60, rem % 60)
}
