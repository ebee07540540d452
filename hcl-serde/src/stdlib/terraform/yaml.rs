//! Terraform's YAML functions, `yamlencode` and `yamldecode`, with
//! go-cty-yaml's rules: block style, double-quoted strings (literal
//! blocks for multi-line ones), keys sorted; YAML 1.1 scalars (`yes`,
//! `on`, `~`) when decoding. Parsing is yaml-rust2's.

use super::super::Table;
use crate::eval::{FuncDef, FuncError, Param, Type};
use crate::{Map, Value};
use yaml_rust2::parser::{Event, MarkedEventReceiver, Parser, Tag};
use yaml_rust2::scanner::{Marker, TScalarStyle};

/// This family's functions.
pub(super) const YAML: Table = &[("yamlencode", yamlencode), ("yamldecode", yamldecode)];

/// The width past which double-quoted strings fold at a space.
const BEST_WIDTH: usize = 80;

/// go-yaml's emitter, for the subset go-cty-yaml produces.
struct Emitter {
    out: String,
    column: usize,
}

/// Whether go-yaml writes `c` unescaped.
fn printable(c: char) -> bool {
    matches!(u32::from(c), 0x0A | 0x20..=0x7E | 0xA0..=0xD7FF | 0xE000..=0xFFFD) && c != '\u{FEFF}'
}

fn is_break(c: char) -> bool {
    matches!(c, '\n' | '\r' | '\u{85}' | '\u{2028}' | '\u{2029}')
}

impl Emitter {
    fn put(&mut self, s: &str) {
        for c in s.chars() {
            if c == '\n' {
                self.column = 0;
            } else {
                self.column += 1;
            }
            self.out.push(c);
        }
    }

    fn indent(&mut self, indent: usize) {
        if self.column > indent || (self.column == indent && self.column > 0) {
            self.put("\n");
        }
        while self.column < indent {
            self.put(" ");
        }
    }

    /// A string scalar at `indent`; `key` when it is a mapping key.
    fn string(&mut self, s: &str, indent: usize, key: bool) {
        let literal_ok = s.contains('\n')
            && !key
            && !s.ends_with(' ')
            && !s.contains(" \n")
            && s.chars().all(|c| printable(c) || is_break(c));
        if literal_ok {
            self.literal(s, indent);
        } else {
            self.double_quoted(s, indent, !key);
        }
    }

    fn literal(&mut self, s: &str, indent: usize) {
        self.put("|");
        if s.starts_with(' ') || s.starts_with('\n') {
            self.put("2");
        }
        let chars: Vec<char> = s.chars().collect();
        match chars.as_slice() {
            [.., last] if !is_break(*last) => self.put("-"),
            [_] => self.put("+"),
            [.., prev, _] if is_break(*prev) => self.put("+"),
            _ => {}
        }
        self.put("\n");
        let mut breaks = true;
        for c in chars {
            if is_break(c) {
                self.out.push('\n');
                self.column = 0;
                breaks = true;
            } else {
                if breaks {
                    while self.column < indent {
                        self.put(" ");
                    }
                    breaks = false;
                }
                self.put(c.encode_utf8(&mut [0; 4]));
            }
        }
    }

    fn double_quoted(&mut self, s: &str, indent: usize, allow_breaks: bool) {
        self.put("\"");
        let chars: Vec<char> = s.chars().collect();
        let mut spaces = false;
        let mut i = 0;
        while let Some(&c) = chars.get(i) {
            if !printable(c) || is_break(c) || c == '"' || c == '\\' {
                let esc = match c {
                    '\0' => "\\0".to_owned(),
                    '\u{7}' => "\\a".to_owned(),
                    '\u{8}' => "\\b".to_owned(),
                    '\t' => "\\t".to_owned(),
                    '\n' => "\\n".to_owned(),
                    '\u{B}' => "\\v".to_owned(),
                    '\u{C}' => "\\f".to_owned(),
                    '\r' => "\\r".to_owned(),
                    '\u{1B}' => "\\e".to_owned(),
                    '"' => "\\\"".to_owned(),
                    '\\' => "\\\\".to_owned(),
                    '\u{85}' => "\\N".to_owned(),
                    '\u{A0}' => "\\_".to_owned(),
                    '\u{2028}' => "\\L".to_owned(),
                    '\u{2029}' => "\\P".to_owned(),
                    c if u32::from(c) <= 0xFF => format!("\\x{:02X}", u32::from(c)),
                    c if u32::from(c) <= 0xFFFF => format!("\\u{:04X}", u32::from(c)),
                    c => format!("\\U{:08X}", u32::from(c)),
                };
                self.put(&esc);
                spaces = false;
            } else if c == ' ' {
                if allow_breaks
                    && !spaces
                    && self.column > BEST_WIDTH
                    && i != 0
                    && i + 1 != chars.len()
                {
                    self.indent(indent);
                    if chars.get(i + 1) == Some(&' ') {
                        self.put("\\");
                    }
                } else {
                    self.put(" ");
                }
                spaces = true;
            } else {
                self.put(c.encode_utf8(&mut [0; 4]));
                spaces = false;
            }
            i += 1;
        }
        self.put("\"");
    }

    /// A scalar or empty collection written inline at `indent`.
    fn inline(&mut self, v: &Value, indent: usize) {
        match v {
            // Functions never see an unknown argument (the call is unknown).
            Value::Null | Value::Unknown(_) => self.put("null"),
            Value::Bool(b) => self.put(if *b { "true" } else { "false" }),
            Value::Number(n) => self.put(&n.to_string()),
            Value::String(s) => self.string(s, indent, false),
            Value::Array(_) => self.put("[]"),
            Value::Object(_) => self.put("{}"),
        }
    }

    fn sequence(&mut self, items: &[Value], indent: usize, first_inline: bool) {
        for (i, item) in items.iter().enumerate() {
            if i > 0 || !first_inline {
                self.indent(indent);
            }
            self.put("- ");
            self.node(item, indent + 2, true);
        }
    }

    fn mapping(&mut self, m: &Map<String, Value>, indent: usize, first_inline: bool) {
        let mut entries: Vec<_> = m.iter().collect();
        entries.sort_by(|a, b| a.0.cmp(b.0));
        for (i, (k, v)) in entries.into_iter().enumerate() {
            if i > 0 || !first_inline {
                self.indent(indent);
            }
            self.string(k, indent + 2, true);
            self.put(":");
            match v {
                Value::Array(a) if !a.is_empty() => self.sequence(a, indent, false),
                Value::Object(o) if !o.is_empty() => self.mapping(o, indent + 2, false),
                _ => {
                    self.put(" ");
                    self.inline(v, indent + 2);
                }
            }
        }
    }

    /// A node right after `- ` (or at the root), its block content at
    /// `indent`.
    fn node(&mut self, v: &Value, indent: usize, inline: bool) {
        match v {
            Value::Array(a) if !a.is_empty() => self.sequence(a, indent, inline),
            Value::Object(o) if !o.is_empty() => self.mapping(o, indent, inline),
            _ => self.inline(v, indent),
        }
    }
}

/// `yamlencode(value)`: the value as a YAML document.
pub(super) fn yamlencode() -> FuncDef {
    FuncDef::new(|args| {
        let v = args.get(0).cloned().unwrap_or_default();
        let mut e = Emitter {
            out: String::new(),
            column: 0,
        };
        match &v {
            Value::Array(a) if !a.is_empty() => e.sequence(a, 0, true),
            Value::Object(o) if !o.is_empty() => e.mapping(o, 0, true),
            _ => e.inline(&v, 2),
        }
        if e.column != 0 {
            e.out.push('\n');
        }
        if matches!(v, Value::Null | Value::Bool(_) | Value::Number(_)) {
            e.out.push_str("...\n");
        }
        let limit = args.options().max_string_len();
        if e.out.len() > limit {
            return Err(FuncError::new(format!(
                "the result is longer than the limit of {limit} bytes"
            )));
        }
        Ok(Value::from(e.out))
    })
    .param(Param::new("value", Type::Any).nullable())
    .returns(Type::String)
}

/// The events of a document, recorded.
#[derive(Default)]
struct Events(Vec<(Event, Marker)>);

impl MarkedEventReceiver for Events {
    fn on_event(&mut self, ev: Event, mark: Marker) {
        self.0.push((ev, mark));
    }
}

/// Builds values from the events, expanding aliases within a budget.
struct Builder<'e> {
    events: &'e [(Event, Marker)],
    pos: usize,
    /// Anchor id to the value it names.
    anchors: Vec<(usize, Value)>,
    budget: usize,
    max_depth: usize,
}

fn full_tag(tag: &Option<Tag>) -> String {
    match tag {
        None => String::new(),
        Some(t) if t.handle == "!!" => format!("tag:yaml.org,2002:{}", t.suffix),
        Some(t) => format!("{}{}", t.handle, t.suffix),
    }
}

pub(super) const Y: &str = "tag:yaml.org,2002:";

use super::yaml_resolve::resolve;

impl Builder<'_> {
    fn next(&mut self) -> Option<&(Event, Marker)> {
        let e = self.events.get(self.pos);
        self.pos += 1;
        e
    }

    fn err(&self, m: &str) -> FuncError {
        let mark = self.events.get(self.pos.saturating_sub(1)).map(|(_, m)| *m);
        match mark {
            Some(m2) => FuncError::arg(
                0,
                format!("on line {}, column {}: {m}", m2.line(), m2.col() + 1),
            ),
            None => FuncError::arg(0, m.to_owned()),
        }
    }

    fn spend(&mut self, n: usize) -> Result<(), FuncError> {
        self.budget = self.budget.checked_sub(n).ok_or_else(|| {
            FuncError::arg(0, "the document expands to too many values (aliases)")
        })?;
        Ok(())
    }

    fn value(&mut self, depth: usize) -> Result<Value, FuncError> {
        if depth > self.max_depth {
            return Err(FuncError::arg(0, "the document is nested too deeply"));
        }
        let Some((ev, _)) = self.next().cloned() else {
            return Err(self.err("expecting value but found end of stream"));
        };
        self.spend(1)?;
        let (v, anchor) = match ev {
            Event::Scalar(s, style, anchor, tag) => {
                let quoted = matches!(
                    style,
                    TScalarStyle::SingleQuoted | TScalarStyle::DoubleQuoted
                );
                // Block scalars are strings too (their hint never
                // resolves them to anything else in practice).
                let quoted =
                    quoted || matches!(style, TScalarStyle::Literal | TScalarStyle::Folded);
                (
                    resolve(&full_tag(&tag), &s, quoted).map_err(|m| self.err(&m))?,
                    anchor,
                )
            }
            Event::Alias(id) => {
                let v = self
                    .anchors
                    .iter()
                    .rev()
                    .find(|(a, _)| *a == id)
                    .map(|(_, v)| v.clone())
                    .ok_or_else(|| self.err("reference to undefined anchor"))?;
                self.spend(count(&v))?;
                (v, 0)
            }
            Event::SequenceStart(anchor, tag) => {
                let t = full_tag(&tag);
                if !t.is_empty() && t != format!("{Y}seq") {
                    return Err(self.err(&format!("can't interpret sequence as {t}")));
                }
                let mut items = Vec::new();
                while !matches!(
                    self.events.get(self.pos),
                    Some((Event::SequenceEnd, _)) | None
                ) {
                    items.push(self.value(depth + 1)?);
                }
                self.pos += 1;
                (Value::Array(items), anchor)
            }
            Event::MappingStart(anchor, tag) => {
                let t = full_tag(&tag);
                if !t.is_empty() && t != format!("{Y}map") {
                    return Err(self.err(&format!("can't interpret mapping as {t}")));
                }
                let mut m = Map::new();
                while !matches!(
                    self.events.get(self.pos),
                    Some((Event::MappingEnd, _)) | None
                ) {
                    let k = self.value(depth + 1)?;
                    let key = match k {
                        Value::String(s) => s,
                        Value::Number(n) => n.to_string(),
                        Value::Bool(b) => b.to_string(),
                        Value::Null => return Err(self.err("mapping key cannot be null")),
                        _ => return Err(self.err("only strings are allowed as mapping keys")),
                    };
                    let v = self.value(depth + 1)?;
                    m.insert(key, v);
                }
                self.pos += 1;
                (Value::Object(m), anchor)
            }
            _ => return Err(self.err("unexpected parser event")),
        };
        if anchor != 0 {
            self.anchors.push((anchor, v.clone()));
        }
        Ok(v)
    }
}

/// The number of nodes in a value.
fn count(v: &Value) -> usize {
    match v {
        Value::Array(a) => a.iter().map(count).sum::<usize>() + 1,
        Value::Object(o) => o.values().map(count).sum::<usize>() + 1,
        _ => 1,
    }
}

/// `yamldecode(src)`: the value of a YAML document (one document;
/// mappings become objects, sequences tuples).
pub(super) fn yamldecode() -> FuncDef {
    FuncDef::new(|args| {
        let src = args.str(0)?;
        let mut events = Events::default();
        Parser::new_from_str(src)
            .load(&mut events, true)
            .map_err(|e| {
                FuncError::arg(
                    0,
                    format!(
                        "on line {}, column {}: {}",
                        e.marker().line(),
                        e.marker().col() + 1,
                        e.info()
                    ),
                )
            })?;
        let docs = events
            .0
            .iter()
            .filter(|(e, _)| matches!(e, Event::DocumentStart))
            .count();
        if docs > 1 {
            return Err(FuncError::arg(0, "only a single document is allowed"));
        }
        if docs == 0 {
            // Blank text or comments alone: go-yaml finds no document
            // (`---` alone is one, of `null`).
            return Err(FuncError::arg(
                0,
                "on line 1, column 1: missing start of document",
            ));
        }
        let body: Vec<(Event, Marker)> = events
            .0
            .into_iter()
            .filter(|(e, _)| {
                !matches!(
                    e,
                    Event::StreamStart
                        | Event::StreamEnd
                        | Event::DocumentStart
                        | Event::DocumentEnd
                        | Event::Nothing
                )
            })
            .collect();
        if body.is_empty() {
            return Ok(Value::Null);
        }
        let mut b = Builder {
            events: &body,
            pos: 0,
            anchors: Vec::new(),
            budget: args.options().max_collection_len().max(1),
            max_depth: 256,
        };
        let v = b.value(0)?;
        if b.pos < body.len() {
            return Err(FuncError::arg(0, "unexpected extra content after value"));
        }
        Ok(v)
    })
    .param(Param::new("src", Type::String))
}
