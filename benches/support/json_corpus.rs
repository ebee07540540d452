//! The corpus in HCL's JSON syntax: each native file the reference reads,
//! written as the `.tf.json` a tool would write for it (Terraform's JSON
//! configuration syntax, as CDK for Terraform emits it), for the JSON
//! bench's corpus part. The corpus itself has no JSON-syntax files.
//!
//! - A body is an object: an attribute is a property; the blocks of one
//!   type are a property named by the type, whose value nests one object
//!   per label; blocks at the same place (same type and labels) are an
//!   array of their bodies.
//! - A literal (null, a bool, a number, a string without interpolation,
//!   and tuples and objects of them) is the JSON literal; any other
//!   expression is a string, `"${...}"` around its source text (a quoted
//!   template: its text between the quotes), as HCL's JSON syntax writes
//!   expressions.
//!
//! Only the text matters to the bench (both readers read it without a
//! context, where strings are literal), so the conversion keeps the
//! shape and the sizes of real configurations, not their every meaning.

use hcl_grammar::ast::{BlockLabel, Body, Expr, ExprKind, ObjectKey, Structure};
use std::collections::BTreeMap;

/// The corpus files `texts`, each in JSON syntax; files whose names
/// collide in JSON (an attribute and a block type of one name) are left
/// out by the caller's check that both readers accept the text.
pub fn json_corpus(texts: &[String]) -> Vec<String> {
    let options = hcl_grammar::ParseOptions::default();
    texts
        .iter()
        .filter_map(|src| {
            let body = hcl_grammar::parse_body(src.as_str(), &options).ok()?;
            let mut out = String::with_capacity(src.len() * 2);
            body_json(src, &body, 0, &mut out);
            out.push('\n');
            Some(out)
        })
        .collect()
}

/// A node of a body's JSON: an attribute's value, or the blocks under a
/// type and the labels so far.
enum Node<'a, 'i> {
    Attr(&'a Expr<'i>),
    Labels(BTreeMap<String, Node<'a, 'i>>, Vec<&'a Body<'i>>),
}

fn body_json(src: &str, body: &Body<'_>, indent: usize, out: &mut String) {
    // Properties in source order of first appearance.
    let mut order: Vec<String> = Vec::new();
    let mut nodes: BTreeMap<String, Node<'_, '_>> = BTreeMap::new();
    for item in body.items.iter() {
        match item {
            Structure::Attribute(a) => {
                let name = a.name.name.to_owned();
                if !nodes.contains_key(&name) {
                    order.push(name.clone());
                }
                nodes.insert(name, Node::Attr(&a.expr));
            }
            Structure::Block(b) => {
                let name = b.ident.name.to_owned();
                if !nodes.contains_key(&name) {
                    order.push(name.clone());
                }
                let mut node = nodes
                    .entry(name)
                    .or_insert_with(|| Node::Labels(BTreeMap::new(), Vec::new()));
                for label in b.labels.iter() {
                    let key = match label {
                        BlockLabel::Ident(i) => i.name.to_owned(),
                        BlockLabel::String(s) => s.value.to_string(),
                    };
                    node = match node {
                        Node::Labels(children, _) => children
                            .entry(key)
                            .or_insert_with(|| Node::Labels(BTreeMap::new(), Vec::new())),
                        Node::Attr(_) => break,
                    };
                }
                if let Node::Labels(_, bodies) = node {
                    bodies.push(&b.body);
                }
            }
        }
    }
    out.push('{');
    for (i, name) in order.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        newline(indent + 1, out);
        string(name, out);
        out.push_str(": ");
        if let Some(node) = nodes.get(name) {
            node_json(src, node, indent + 1, out);
        }
    }
    newline(indent, out);
    out.push('}');
}

fn node_json(src: &str, node: &Node<'_, '_>, indent: usize, out: &mut String) {
    match node {
        Node::Attr(e) => expr_json(src, e, out),
        Node::Labels(children, bodies) if children.is_empty() => match bodies.as_slice() {
            [one] => body_json(src, one, indent, out),
            many => {
                out.push('[');
                for (i, b) in many.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    newline(indent + 1, out);
                    body_json(src, b, indent + 1, out);
                }
                newline(indent, out);
                out.push(']');
            }
        },
        // Blocks with more labels beside ones without at one place:
        // the labelled ones win (a rare shape; only the text matters).
        Node::Labels(children, _) => {
            out.push('{');
            for (i, (key, child)) in children.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                newline(indent + 1, out);
                string(key, out);
                out.push_str(": ");
                node_json(src, child, indent + 1, out);
            }
            newline(indent, out);
            out.push('}');
        }
    }
}

/// An expression: its JSON literal when it is one, else a string.
fn expr_json(src: &str, e: &Expr<'_>, out: &mut String) {
    if !literal(e) {
        let text = src.get(e.span.range()).unwrap_or_default();
        match &e.kind {
            ExprKind::Template(t) if t.heredoc.is_none() && text.len() >= 2 => {
                string(&text[1..text.len() - 1], out)
            }
            _ => string(&format!("${{{text}}}"), out),
        }
        return;
    }
    match &e.kind {
        ExprKind::Null => out.push_str("null"),
        ExprKind::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        ExprKind::Number(n) => out.push_str(n),
        ExprKind::String(s) => string(s, out),
        ExprKind::Tuple(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                expr_json(src, item, out);
            }
            out.push(']');
        }
        ExprKind::Object(items) => {
            out.push('{');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                match &item.key {
                    ObjectKey::Ident(id) => string(id.name, out),
                    ObjectKey::Expr(k) => match &k.kind {
                        ExprKind::String(s) => string(s, out),
                        _ => string(src.get(k.span.range()).unwrap_or_default(), out),
                    },
                }
                out.push_str(": ");
                expr_json(src, &item.value, out);
            }
            out.push('}');
        }
        _ => {}
    }
}

/// Whether `e` is a JSON literal: a number as JSON writes it, and
/// containers of literals whose keys are names or literal strings.
fn literal(e: &Expr<'_>) -> bool {
    match &e.kind {
        ExprKind::Null | ExprKind::Bool(_) | ExprKind::String(_) => true,
        ExprKind::Number(n) => serde_json::from_str::<serde::de::IgnoredAny>(n).is_ok(),
        ExprKind::Tuple(items) => items.iter().all(literal),
        ExprKind::Object(items) => items.iter().all(|i| {
            literal(&i.value)
                && match &i.key {
                    ObjectKey::Ident(_) => true,
                    ObjectKey::Expr(k) => matches!(k.kind, ExprKind::String(_)),
                }
        }),
        _ => false,
    }
}

fn newline(indent: usize, out: &mut String) {
    out.push('\n');
    for _ in 0..indent {
        out.push_str("  ");
    }
}

/// `s` as a JSON string.
fn string(s: &str, out: &mut String) {
    out.push_str(&serde_json::to_string(s).unwrap_or_default());
}
