//! The encoding functions: JSON and CSV.
//!
//! Both formats are read and written by hand, after the reference's Go
//! code (`encoding/json` as go-cty uses it, `encoding/csv`): the JSON text
//! is the reference's byte for byte (keys sorted, `<`, `>` and `&`
//! escaped, numbers exact), JSON numbers are read exactly, and CSV
//! follows Go's quoting rules and errors, which general-purpose crates do
//! differently.

use super::Table;
use crate::eval::{FuncDef, FuncError, Param, Type};
use crate::{Map, Number, Value};

/// This family's functions: name and constructor.
pub(super) const ENCODING: Table = &[
    ("jsonencode", jsonencode),
    ("jsondecode", jsondecode),
    ("csvdecode", csvdecode),
];

/// Appends `s` as a JSON string as Go's `encoding/json` writes it.
pub(super) fn json_quote(s: &str, out: &mut String) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c if c < ' ' || matches!(c, '<' | '>' | '&') => {
                let b = c as u32;
                out.push_str("\\u00");
                for shift in [4, 0] {
                    let nib = usize::try_from((b >> shift) & 0xf).unwrap_or(0);
                    out.push(char::from(HEX.get(nib).copied().unwrap_or(b'0')));
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// Whether a value holds an infinite number (which JSON cannot write).
fn holds_infinity(v: &Value) -> bool {
    match v {
        Value::Number(n) => n.is_infinite(),
        Value::Array(items) => items.iter().any(holds_infinity),
        Value::Object(map) => map.values().any(holds_infinity),
        _ => false,
    }
}

/// Appends `v` as JSON as go-cty writes it: object keys sorted bytewise,
/// numbers in plain decimal.
pub(super) fn json_encode(v: &Value, out: &mut String) {
    match v {
        // Functions never see an unknown argument (the call is unknown).
        Value::Null | Value::Unknown(_) => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => out.push_str(&n.to_string()),
        Value::String(s) => json_quote(s, out),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                json_encode(item, out);
            }
            out.push(']');
        }
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            out.push('{');
            for (i, k) in keys.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                json_quote(k, out);
                out.push(':');
                if let Some(item) = map.get(k) {
                    json_encode(item, out);
                }
            }
            out.push('}');
        }
    }
}

pub(crate) fn jsonencode() -> FuncDef {
    FuncDef::new(|args| {
        let val = args.get(0).unwrap_or(&Value::Null);
        if holds_infinity(val) {
            return Err(FuncError::new("cannot serialize infinity as JSON"));
        }
        let mut out = String::new();
        json_encode(val, &mut out);
        let limit = args.options().max_string_len();
        if out.len() > limit {
            return Err(FuncError::new(format!(
                "the result would be longer than the limit of {limit} bytes"
            )));
        }
        Ok(Value::from(out))
    })
    .param(Param::new("val", Type::Any).nullable())
    .returns(Type::String)
}

pub(crate) fn jsondecode() -> FuncDef {
    FuncDef::new(|args| {
        let text = args.str(0)?;
        let mut p = JsonParser {
            src: text.as_bytes(),
            pos: 0,
            max_depth: args.options().max_depth(),
        };
        p.skip_ws();
        if p.pos >= p.src.len() {
            return Err(FuncError::new("EOF"));
        }
        let v = p.value(0).map_err(FuncError::new)?;
        p.skip_ws();
        // As the reference (Go's `Decoder.More`): text after the value is
        // an error unless it starts with `]` or `}`, which end the
        // reading.
        if p.pos < p.src.len() && !matches!(p.peek(), Some(b']' | b'}')) {
            return Err(FuncError::new(format!(
                "extraneous data after JSON object at offset {}",
                p.pos
            )));
        }
        Ok(v)
    })
    .param(Param::new("str", Type::String))
}

/// A strict JSON reader (RFC 8259, as Go's `encoding/json`).
struct JsonParser<'a> {
    src: &'a [u8],
    pos: usize,
    max_depth: usize,
}

impl JsonParser<'_> {
    fn skip_ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.src.get(self.pos) {
            self.pos += 1;
        }
    }

    fn peek(&self) -> Option<u8> {
        self.src.get(self.pos).copied()
    }

    fn unexpected(&self, looking_for: &str) -> String {
        match self
            .src
            .get(self.pos..)
            .and_then(|b| std::str::from_utf8(b).ok())
        {
            _ if self.pos >= self.src.len() => "unexpected EOF".to_owned(),
            Some(rest) => {
                let c = rest.chars().next().unwrap_or('?');
                format!(
                    "invalid character {} {looking_for} at offset {}",
                    quote_char(c),
                    self.pos
                )
            }
            None => format!("invalid character {looking_for} at offset {}", self.pos),
        }
    }

    fn value(&mut self, depth: usize) -> Result<Value, String> {
        if depth >= self.max_depth {
            return Err(format!(
                "JSON nesting deeper than {} levels at offset {}",
                self.max_depth, self.pos
            ));
        }
        self.skip_ws();
        match self.peek() {
            Some(b'{') => {
                self.pos += 1;
                let mut map = Map::new();
                self.skip_ws();
                if self.peek() == Some(b'}') {
                    self.pos += 1;
                    return Ok(Value::Object(map));
                }
                loop {
                    self.skip_ws();
                    if self.peek() != Some(b'"') {
                        return Err(self.unexpected("looking for beginning of object key string"));
                    }
                    let key = self.string()?;
                    self.skip_ws();
                    if self.peek() != Some(b':') {
                        return Err(self.unexpected("after object key"));
                    }
                    self.pos += 1;
                    let v = self.value(depth + 1)?;
                    // A repeated key: the last one wins, as in the reference.
                    map.shift_remove(&key);
                    map.insert(key, v);
                    self.skip_ws();
                    match self.peek() {
                        Some(b',') => self.pos += 1,
                        Some(b'}') => {
                            self.pos += 1;
                            return Ok(Value::Object(map));
                        }
                        _ => return Err(self.unexpected("after object key:value pair")),
                    }
                }
            }
            Some(b'[') => {
                self.pos += 1;
                let mut items = Vec::new();
                self.skip_ws();
                if self.peek() == Some(b']') {
                    self.pos += 1;
                    return Ok(Value::Array(items));
                }
                loop {
                    items.push(self.value(depth + 1)?);
                    self.skip_ws();
                    match self.peek() {
                        Some(b',') => self.pos += 1,
                        Some(b']') => {
                            self.pos += 1;
                            return Ok(Value::Array(items));
                        }
                        _ => return Err(self.unexpected("after array element")),
                    }
                }
            }
            Some(b'"') => self.string().map(Value::String),
            Some(b't') => self.literal("true", Value::Bool(true)),
            Some(b'f') => self.literal("false", Value::Bool(false)),
            Some(b'n') => self.literal("null", Value::Null),
            Some(b'-' | b'0'..=b'9') => self.number(),
            _ => Err(self.unexpected("looking for beginning of value")),
        }
    }

    fn literal(&mut self, word: &str, v: Value) -> Result<Value, String> {
        for &w in word.as_bytes() {
            match self.peek() {
                Some(b) if b == w => self.pos += 1,
                _ => return Err(self.unexpected(&format!("in literal {word}"))),
            }
        }
        Ok(v)
    }

    fn number(&mut self) -> Result<Value, String> {
        let start = self.pos;
        let digits = |p: &mut Self| {
            let s = p.pos;
            while p.peek().is_some_and(|b| b.is_ascii_digit()) {
                p.pos += 1;
            }
            p.pos > s
        };
        if self.peek() == Some(b'-') {
            self.pos += 1;
        }
        match self.peek() {
            Some(b'0') => self.pos += 1,
            Some(b'1'..=b'9') => {
                digits(self);
            }
            _ => return Err(self.unexpected("in numeric literal")),
        }
        if self.peek() == Some(b'.') {
            self.pos += 1;
            if !digits(self) {
                return Err(self.unexpected("after decimal point in numeric literal"));
            }
        }
        if let Some(b'e' | b'E') = self.peek() {
            self.pos += 1;
            if let Some(b'+' | b'-') = self.peek() {
                self.pos += 1;
            }
            if !digits(self) {
                return Err(self.unexpected("in exponent of numeric literal"));
            }
        }
        let text = std::str::from_utf8(self.src.get(start..self.pos).unwrap_or_default())
            .unwrap_or_default();
        Number::from_literal(text)
            .map(Value::Number)
            .ok_or_else(|| format!("number {text} is out of range"))
    }

    fn hex4(&mut self) -> Option<u32> {
        let h = self.src.get(self.pos..self.pos + 4)?;
        let s = std::str::from_utf8(h).ok()?;
        let v = u32::from_str_radix(s, 16).ok()?;
        if !h.iter().all(u8::is_ascii_hexdigit) {
            return None;
        }
        self.pos += 4;
        Some(v)
    }

    fn string(&mut self) -> Result<String, String> {
        // At the opening quote.
        self.pos += 1;
        let mut out: Vec<u8> = Vec::new();
        loop {
            let Some(b) = self.peek() else {
                return Err("unexpected EOF".to_owned());
            };
            match b {
                b'"' => {
                    self.pos += 1;
                    return String::from_utf8(out).map_err(|e| e.to_string());
                }
                b'\\' => {
                    self.pos += 1;
                    let Some(e) = self.peek() else {
                        return Err("unexpected EOF".to_owned());
                    };
                    self.pos += 1;
                    let c = match e {
                        b'"' => '"',
                        b'\\' => '\\',
                        b'/' => '/',
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'n' => '\n',
                        b'r' => '\r',
                        b't' => '\t',
                        b'u' => {
                            let Some(hi) = self.hex4() else {
                                return Err(self.unexpected("in \\u hexadecimal character escape"));
                            };
                            if (0xD800..0xDC00).contains(&hi)
                                && self.src.get(self.pos..self.pos + 2) == Some(b"\\u")
                            {
                                let save = self.pos;
                                self.pos += 2;
                                match self.hex4() {
                                    Some(lo) if (0xDC00..0xE000).contains(&lo) => {
                                        let c = 0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00);
                                        char::from_u32(c).unwrap_or('\u{FFFD}')
                                    }
                                    _ => {
                                        self.pos = save;
                                        '\u{FFFD}'
                                    }
                                }
                            } else {
                                char::from_u32(hi).unwrap_or('\u{FFFD}')
                            }
                        }
                        _ => {
                            self.pos -= 1;
                            return Err(self.unexpected("in string escape code"));
                        }
                    };
                    let mut tmp = [0u8; 4];
                    out.extend_from_slice(c.encode_utf8(&mut tmp).as_bytes());
                }
                0..=0x1f => return Err(self.unexpected("in string literal")),
                _ => {
                    out.push(b);
                    self.pos += 1;
                }
            }
        }
    }
}

/// Go's `%q` of a rune, for messages.
fn quote_char(c: char) -> String {
    match c {
        '\'' => "'\\''".to_owned(),
        _ => format!("'{}'", c.escape_debug()),
    }
}

pub(crate) fn csvdecode() -> FuncDef {
    FuncDef::new(|args| {
        let text = args.str(0)?;
        let max = args.options().max_collection_len();
        let mut reader = CsvReader::new(text);
        let headers = match reader.record() {
            None => return Err(FuncError::new("missing header line")),
            Some(Err(e)) => return Err(FuncError::new(e)),
            Some(Ok(h)) => h,
        };
        let mut seen = std::collections::HashSet::new();
        for h in &headers {
            if !seen.insert(h.as_str()) {
                return Err(FuncError::new(format!("duplicate column name {h:?}")));
            }
        }
        reader.fields_per_record = Some(headers.len());
        let mut rows = Vec::new();
        while let Some(rec) = reader.record() {
            let rec = rec.map_err(FuncError::new)?;
            if rows.len() >= max {
                return Err(FuncError::new(format!(
                    "more than {max} rows, the collection limit"
                )));
            }
            let obj: Map<String, Value> = headers
                .iter()
                .cloned()
                .zip(rec.into_iter().map(Value::String))
                .collect();
            rows.push(Value::Object(obj));
        }
        Ok(Value::Array(rows))
    })
    .param(Param::new("str", Type::String))
    .returns(Type::list(Type::Any))
}

/// Go's `encoding/csv` `Reader` with its defaults (comma separator, no
/// comments, strict quotes).
struct CsvReader<'a> {
    rest: &'a str,
    line: usize,
    fields_per_record: Option<usize>,
}

impl<'a> CsvReader<'a> {
    fn new(text: &'a str) -> CsvReader<'a> {
        CsvReader {
            rest: text,
            line: 0,
            fields_per_record: None,
        }
    }

    /// The next line with its newline, `\r\n` normalized to `\n` (and a
    /// final `\r` without newline dropped); `None` at the end.
    fn read_line(&mut self) -> Option<String> {
        if self.rest.is_empty() {
            return None;
        }
        let (line, rest) = match self.rest.find('\n') {
            Some(i) => self.rest.split_at(i + 1),
            None => (self.rest, ""),
        };
        self.rest = rest;
        self.line += 1;
        let mut line = line.to_owned();
        if !line.ends_with('\n') && line.ends_with('\r') {
            line.pop();
        }
        if line.ends_with("\r\n") {
            line.truncate(line.len() - 2);
            line.push('\n');
        }
        Some(line)
    }

    fn error(line: usize, msg: &str) -> String {
        format!("CSV parse error on line {line}: {msg}")
    }

    /// The next record; `None` at the end.
    fn record(&mut self) -> Option<Result<Vec<String>, String>> {
        // Skip empty lines.
        let mut line = loop {
            let l = self.read_line()?;
            if l != "\n" {
                break l;
            }
        };
        let rec_line = self.line;
        let mut fields: Vec<String> = Vec::new();
        // Byte position in `line` of the field being read.
        let mut pos = 0usize;
        loop {
            let rest = line.get(pos..).unwrap_or_default();
            if !rest.starts_with('"') {
                // A field without quotes.
                let (field, next) = match rest.find(',') {
                    Some(i) => (rest.get(..i).unwrap_or_default(), Some(pos + i + 1)),
                    None => (rest.trim_end_matches('\n'), None),
                };
                if field.contains('"') {
                    return Some(Err(Self::error(self.line, "bare \" in non-quoted-field")));
                }
                fields.push(field.to_owned());
                match next {
                    Some(i) => pos = i,
                    None => break,
                }
                continue;
            }
            // A quoted field, possibly over several lines.
            let mut field = String::new();
            pos += 1;
            loop {
                let rest = line.get(pos..).unwrap_or_default();
                if let Some(i) = rest.find('"') {
                    field.push_str(rest.get(..i).unwrap_or_default());
                    let after = rest.get(i + 1..).unwrap_or_default();
                    if after.starts_with('"') {
                        field.push('"');
                        pos += i + 2;
                    } else if after.starts_with(',') {
                        fields.push(std::mem::take(&mut field));
                        pos += i + 2;
                        break;
                    } else if after.is_empty() || after == "\n" {
                        fields.push(std::mem::take(&mut field));
                        return self.finish(fields, rec_line);
                    } else {
                        return Some(Err(Self::error(
                            self.line,
                            "extraneous or missing \" in quoted-field",
                        )));
                    }
                } else if !rest.is_empty() {
                    field.push_str(rest);
                    match self.read_line() {
                        Some(l) => {
                            line = l;
                            pos = 0;
                        }
                        None => {
                            return Some(Err(Self::error(
                                self.line,
                                "extraneous or missing \" in quoted-field",
                            )))
                        }
                    }
                } else {
                    return Some(Err(Self::error(
                        self.line,
                        "extraneous or missing \" in quoted-field",
                    )));
                }
            }
        }
        self.finish(fields, rec_line)
    }

    fn finish(
        &mut self,
        fields: Vec<String>,
        rec_line: usize,
    ) -> Option<Result<Vec<String>, String>> {
        match self.fields_per_record {
            Some(n) if n != fields.len() => {
                Some(Err(Self::error(rec_line, "wrong number of fields")))
            }
            Some(_) => Some(Ok(fields)),
            None => {
                self.fields_per_record = Some(fields.len());
                Some(Ok(fields))
            }
        }
    }
}
