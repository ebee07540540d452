//! The differential test's JSON-syntax generator: documents in HCL's JSON
//! syntax, each with a schema (the `hcl-oracle json-body` format, README of
//! `../shared/conformance-json`), an evaluation mode and variables.
//!
//! The schema has attributes (named, some required, or `"*"`) and block
//! types with zero to two labels and bodies of their own; the document
//! mostly fits it, in every form the spec allows (one block as an object,
//! repeated blocks as arrays at the type or a label level, a body given as
//! an array of objects, `null` for no block, `"//"` comments), and
//! sometimes does not (an extraneous property, a missing required one, a
//! wrong JSON type where a block is expected). Values are JSON numbers,
//! strings (templates with native expressions, `$${` escapes, directives,
//! JSON escapes, combining marks), arrays and objects (with templated
//! keys).

use crate::gen::{self, Rng};

/// One generated JSON-syntax case.
pub struct JsonInput {
    /// The document.
    pub text: String,
    /// The schema document.
    pub schema: String,
    /// `None` (variables and functions), or `nil-ctx`, `no-vars`,
    /// `empty-ctx`.
    pub mode: Option<&'static str>,
    /// The `.vars.json` document (used without a mode only).
    pub vars: String,
}

/// A body schema: attribute names with `required` (`None`: `"*"`), and
/// block types with their label names and body schemas.
struct Schema {
    attributes: Option<Vec<(String, bool)>>,
    blocks: Vec<(String, usize, Schema)>,
}

const ATTRS: &[&str] = &["name", "port", "tags", "enabled", "value", "count"];
const BLOCKS: &[&str] = &["service", "rule", "listener", "env"];
const LABELS: &[&str] = &["web", "api", "db", "a", "b"];

/// Generates the next case.
pub fn input(r: &mut Rng) -> JsonInput {
    let schema = gen_schema(r, 0);
    let mode = match r.below(8) {
        0 => Some("nil-ctx"),
        1 => Some("no-vars"),
        2 => Some("empty-ctx"),
        _ => None,
    };
    let vars = gen::vars(r);
    let mut g = Doc { r };
    let text = if g.r.one_in(12) {
        // A root array of bodies (which `"*"` rejects).
        let n = 1 + g.r.below(2);
        let items: Vec<String> = (0..n).map(|_| g.body(&schema, 0)).collect();
        format!("[{}]", items.join(", "))
    } else {
        g.body(&schema, 0)
    };
    JsonInput {
        text,
        schema: schema_text(&schema),
        mode,
        vars,
    }
}

fn gen_schema(r: &mut Rng, depth: usize) -> Schema {
    let attributes = if r.one_in(3) {
        None
    } else {
        let n = r.below(4);
        let mut names: Vec<(String, bool)> = Vec::new();
        for _ in 0..n {
            let name = r.pick(ATTRS).to_owned();
            if !names.iter().any(|(k, _)| *k == name) {
                names.push((name, r.one_in(3)));
            }
        }
        Some(names)
    };
    let mut blocks: Vec<(String, usize, Schema)> = Vec::new();
    if depth < 2 {
        for _ in 0..r.below(3) {
            let t = r.pick(BLOCKS).to_owned();
            let taken = blocks.iter().any(|(b, _, _)| *b == t)
                || attributes
                    .as_ref()
                    .is_some_and(|a| a.iter().any(|(k, _)| *k == t));
            if !taken {
                let labels = r.below(3);
                blocks.push((t, labels, gen_schema(r, depth + 1)));
            }
        }
    }
    Schema { attributes, blocks }
}

fn schema_text(s: &Schema) -> String {
    let mut parts = Vec::new();
    if let Some(attrs) = &s.attributes {
        let a: Vec<String> = attrs
            .iter()
            .map(|(k, req)| format!("\"{k}\": {{\"required\": {req}}}"))
            .collect();
        parts.push(format!("\"attributes\": {{{}}}", a.join(", ")));
    }
    if !s.blocks.is_empty() {
        let b: Vec<String> = s
            .blocks
            .iter()
            .map(|(t, labels, body)| {
                let names: Vec<String> = (0..*labels).map(|i| format!("\"l{i}\"")).collect();
                format!(
                    "\"{t}\": {{\"labels\": [{}], \"body\": {}}}",
                    names.join(", "),
                    schema_text(body)
                )
            })
            .collect();
        parts.push(format!("\"blocks\": {{{}}}", b.join(", ")));
    }
    format!("{{{}}}", parts.join(", "))
}

struct Doc<'r> {
    r: &'r mut Rng,
}

impl Doc<'_> {
    /// A body object for `s`, usually fitting it.
    fn body(&mut self, s: &Schema, depth: usize) -> String {
        let mut props: Vec<String> = Vec::new();
        match &s.attributes {
            Some(attrs) => {
                for (name, required) in attrs {
                    // Now and then a required attribute is left out.
                    if *required && !self.r.one_in(15) || !*required && self.r.one_in(2) {
                        props.push(format!("\"{name}\": {}", self.value(0)));
                    }
                }
                if self.r.one_in(15) {
                    props.push(format!("\"nmae\": {}", self.value(1)));
                }
            }
            None => {
                for _ in 0..self.r.below(4) {
                    let name = self.property_name();
                    props.push(format!("\"{name}\": {}", self.value(0)));
                }
            }
        }
        for (t, labels, body) in &s.blocks {
            if self.r.one_in(3) {
                continue;
            }
            let v = self.blocks(*labels, body, depth);
            props.push(format!("\"{t}\": {v}"));
            // The spec allows a block type's property to repeat.
            if self.r.one_in(12) {
                let v = self.blocks(*labels, body, depth);
                props.push(format!("\"{t}\": {v}"));
            }
        }
        if self.r.one_in(8) {
            props.push(format!("\"//\": {}", self.value(1)));
        }
        // Property order is free in JSON.
        let n = props.len();
        for i in 0..n {
            let j = i + self.r.below(n - i);
            props.swap(i, j);
        }
        format!("{{{}}}", props.join(", "))
    }

    /// An attribute name of a dynamic-attribute body: plain, templated
    /// looking (literal in a body), or rarely written with an escape.
    fn property_name(&mut self) -> String {
        match self.r.below(12) {
            0 => "${x}".to_owned(),
            1 => "na\\u006de".to_owned(),
            2 => "caf\\u00e9".to_owned(),
            _ => self.r.pick(ATTRS).to_owned(),
        }
    }

    /// The value of a block type's property: blocks with `labels` labels.
    fn blocks(&mut self, labels: usize, body: &Schema, depth: usize) -> String {
        match self.r.below(14) {
            0 => return "null".to_owned(),
            1 => return self.value(1), // a wrong JSON type, or a label object
            2 if labels == 0 => return "[]".to_owned(),
            _ => {}
        }
        if self.r.one_in(4) {
            let n = 1 + self.r.below(2);
            let items: Vec<String> = (0..n).map(|_| self.labelled(labels, body, depth)).collect();
            format!("[{}]", items.join(", "))
        } else {
            self.labelled(labels, body, depth)
        }
    }

    /// One object level per label, then a body (or an array of bodies).
    fn labelled(&mut self, labels: usize, body: &Schema, depth: usize) -> String {
        if labels == 0 {
            return if self.r.one_in(6) && body.attributes.is_some() {
                let n = 1 + self.r.below(2);
                let parts: Vec<String> = (0..n).map(|_| self.body(body, depth + 1)).collect();
                format!("[{}]", parts.join(", "))
            } else {
                self.body(body, depth + 1)
            };
        }
        if self.r.one_in(25) {
            return self.r.pick(&["[]", "null", "{}"]).to_owned();
        }
        let n = 1 + self.r.below(2);
        let mut items = Vec::new();
        for _ in 0..n {
            let label = self.r.pick(LABELS);
            let inner = self.labelled(labels - 1, body, depth);
            items.push(format!("\"{label}\": {inner}"));
        }
        format!("{{{}}}", items.join(", "))
    }

    /// A JSON value as an attribute's expression.
    fn value(&mut self, depth: usize) -> String {
        if depth >= 3 {
            return self.scalar();
        }
        match self.r.below(10) {
            0 => {
                let n = self.r.below(4);
                let items: Vec<String> = (0..n).map(|_| self.value(depth + 1)).collect();
                format!("[{}]", items.join(", "))
            }
            1 => {
                let n = self.r.below(4);
                let items: Vec<String> = (0..n)
                    .map(|_| format!("{}: {}", self.key(), self.value(depth + 1)))
                    .collect();
                format!("{{{}}}", items.join(", "))
            }
            _ => self.scalar(),
        }
    }

    /// An object key: plain, `"//"`, or a template (its value a string,
    /// number, bool, or something a key cannot be).
    fn key(&mut self) -> String {
        let k = match self.r.below(9) {
            0 => "${\\\"k\\\"}".to_owned(),
            1 => "${n}".to_owned(),
            2 => "${s}".to_owned(),
            3 => "//".to_owned(),
            4 => "e\\u0301".to_owned(),
            5 => "k\\n".to_owned(),
            6 => "$${k}".to_owned(),
            _ => self.r.pick(&["a", "b", "c", "a b"]).to_owned(),
        };
        format!("\"{k}\"")
    }

    fn scalar(&mut self) -> String {
        match self.r.below(12) {
            0 => self
                .r
                .pick(&[
                    "0",
                    "-0",
                    "1",
                    "-3",
                    "2.5",
                    "1e3",
                    "1e400",
                    "0.1",
                    "-0.0",
                    "12345678901234567890",
                ])
                .to_owned(),
            1 => self.r.pick(&["true", "false", "null"]).to_owned(),
            2 => {
                let s = self.r.pick(&[
                    "",
                    "plain",
                    "e\\u0301",
                    "caf\\u00e9",
                    "e\u{301}",
                    "tab\\there",
                    "quote \\\"q\\\"",
                    "$${literal}",
                    "%%{literal}",
                    "\\u0024{s}",
                    "line\\nbreak",
                    "back\\\\slash",
                    "${",
                ]);
                format!("\"{s}\"")
            }
            3 => {
                let s = self.r.pick(&[
                    "%{ if b }yes%{ else }no%{ endif }",
                    "%{ for x in l }${x},%{ endfor }",
                    "${~ n ~}",
                    " ${n}",
                    "${n}\\n",
                    "${-0 % 2}x",
                    "${upper(s)}",
                    "${nosuch}",
                ]);
                format!("\"{s}\"")
            }
            _ => {
                let expr = gen::expression(self.r, 2);
                format!("\"{}\"", json_escape(&format!("${{{expr}}}")))
            }
        }
    }
}

/// `s` as the inside of a JSON string (decoding it gives `s` back).
fn json_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out
}
