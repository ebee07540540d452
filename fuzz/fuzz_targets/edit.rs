//! The document editor (`hcl::edit`) on any bytes: the input cut at its
//! first `0xFF` byte (never in UTF-8 text) into a file and a script of
//! edits, one byte an edit (its low bits choose the operation and which
//! attribute or block it works on; names and expressions come from small
//! tables). A file that parses must print back byte for byte; after the
//! edits, the unformatted print must parse, the formatted print must not
//! fail (it is the formatter's output, which need not parse: see the
//! `format` target), and every root attribute that no edit touched must
//! read back with the same expression text, and evaluate as before.
#![no_main]

use hcl::edit::{AttributeExt, BodyExt, Document};
use libfuzzer_sys::fuzz_target;
use std::collections::BTreeSet;

const NAMES: &[&str] = &["a", "b", "count", "x", "y", "tags", "source"];
const EXPRS: &[&str] = &[
    "1",
    "var.a.b",
    "\"s ${x}\"",
    "[1, {a = 2}]",
    "<<EOT\nx\nEOT\n",
    "a ? b : c # c",
];
const TRAVERSALS: &[&str] = &["var.a", "a.b[0].c", "x[\"k\"]", "bad +"];

fuzz_target!(|data: &[u8]| {
    let (file, script) = match data.iter().position(|&b| b == 0xFF) {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => (data, &[][..]),
    };
    let Ok(src) = std::str::from_utf8(file) else {
        return;
    };
    let doc = match Document::parse(src) {
        Ok(d) => d,
        Err(e) => {
            assert!(e.line() >= 1 && e.column() >= 1);
            return;
        }
    };
    assert_eq!(doc.to_string(), src, "lossless print");
    let mut doc = doc;
    let before: Vec<(String, String)> = doc
        .body()
        .attributes()
        .map(|a| (a.name().to_owned(), a.expr().as_str().to_owned()))
        .collect();
    let mut touched = BTreeSet::new();
    let mut root_cleared = false;
    for &op in script.iter().take(64) {
        let name = NAMES[usize::from(op >> 5) % NAMES.len()];
        let body = doc.body_mut();
        // Some edits work in the first block of the file instead.
        let in_block = op & 0x10 != 0 && body.blocks().next().is_some();
        let body = if in_block {
            match body.blocks_mut().next() {
                Some(b) => b.body_mut(),
                None => return,
            }
        } else {
            touched.insert(name);
            body
        };
        // As `hclwrite`, a new item (or newline) continues a last line
        // without a newline, which does not parse after an attribute, and
        // a one-line or empty block (`b { a = 1 }`, `b {}`) cannot take
        // another line: append a newline first at the top level, leave
        // such blocks alone.
        let adds = match op & 0x0F {
            0..=2 => body.get_attribute(name).is_none(),
            4 | 8 => true,
            _ => false,
        };
        if adds && !body.ends_with_newline() && !in_block {
            body.append_newline();
        }
        if adds && in_block && (body.is_empty() || !body.ends_with_newline()) {
            continue;
        }
        let pick = usize::from(op >> 4);
        match op & 0x0F {
            0 => drop(body.set_attribute_value(name, &(pick, "v\n${x}"))),
            1 => drop(body.set_attribute_raw(name, EXPRS[pick % EXPRS.len()])),
            2 => drop(body.set_attribute_traversal(name, TRAVERSALS[pick % TRAVERSALS.len()])),
            3 => drop(body.remove_attribute(name)),
            4 => drop(body.append_block(name, &["l", "m \""][..pick % 3])),
            5 => {
                let first = body.blocks().next().map(|b| {
                    let labels: Vec<String> = b.labels().map(str::to_owned).collect();
                    (b.ident().to_owned(), labels)
                });
                if let Some((ty, labels)) = first {
                    let labels: Vec<&str> = labels.iter().map(String::as_str).collect();
                    assert!(body.remove_block(&ty, &labels).is_some());
                }
            }
            6 => {
                if let Some(b) = body.blocks_mut().next() {
                    b.set_labels(&["n"][..pick % 2]);
                    drop(b.set_type(name));
                }
            }
            7 => {
                if let Some(a) = body.get_attribute_mut(name) {
                    a.expr_mut().rename_variable_prefix(&["var"], &["local"]);
                }
            }
            8 => body.append_newline(),
            9 if pick % 4 == 0 => {
                // Everything goes (rarely: it ends most scripts' interest).
                root_cleared |= !in_block;
                body.clear();
            }
            _ => {}
        }
    }
    let printed = doc.to_string();
    let again = match Document::parse(&printed) {
        Ok(d) => d,
        Err(e) => panic!("the edited document does not parse: {e}\n{printed}"),
    };
    let _ = doc.to_formatted_string();
    if root_cleared {
        return;
    }
    let ctx = hcl::Context::none();
    for (name, expr) in &before {
        if touched.contains(name.as_str()) {
            continue;
        }
        let attr = again
            .body()
            .get_attribute(name)
            .expect("an untouched attribute stays");
        assert_eq!(attr.expr().as_str(), expr, "untouched attribute {name}");
        let old = doc
            .body()
            .get_attribute(name)
            .map(|a| a.evaluate(&ctx).map_err(|e| e.to_string()));
        assert_eq!(Some(attr.evaluate(&ctx).map_err(|e| e.to_string())), old);
    }
});
