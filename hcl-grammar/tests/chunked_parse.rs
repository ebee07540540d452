//! A config file longer than `ParseOptions::chunk_len` is parsed in pieces
//! cut between top-level items. The tree and the errors must be exactly
//! those of a whole-file parse: checked here with pieces as small as
//! possible (`chunk_len: 1`, a cut after every top-level newline) against
//! pieces larger than any input, on every corpus file, every conformance
//! config case, and synthetic files built to stress the cuts (heredocs,
//! comments, strings and blocks spanning lines, a BOM, CRLF, attributes
//! repeated across pieces, errors in late pieces, invalid UTF-8).
//!
//! Folders: `HCL_CORPUS_DIR` / `HCL_CONFORMANCE_DIR`, defaults
//! `../shared/corpus` and `../shared/conformance` beside the workspace;
//! each is skipped with a message when absent.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use hcl_grammar::{parse_body, ParseOptions};
use std::path::{Path, PathBuf};

fn whole() -> ParseOptions {
    ParseOptions::default().with_chunk_len(usize::MAX)
}

fn tiny() -> ParseOptions {
    ParseOptions::default().with_chunk_len(1)
}

/// Same tree, or same error (message, line, column), with tiny pieces and
/// with none; returns whether the file parsed.
#[track_caller]
fn same(name: &str, bytes: &[u8]) -> bool {
    let a = parse_body(bytes, &whole());
    let b = parse_body(bytes, &tiny());
    match (&a, &b) {
        (Ok(x), Ok(y)) => assert!(x == y, "{name}: trees differ"),
        (Err(x), Err(y)) => assert_eq!(
            (x.message(), x.line(), x.column()),
            (y.message(), y.line(), y.column()),
            "{name}: errors differ"
        ),
        _ => panic!(
            "{name}: whole {:?}, pieces {:?}",
            a.as_ref().map(drop),
            b.as_ref().map(drop)
        ),
    }
    if let Ok(text) = std::str::from_utf8(bytes) {
        let c = parse_body(text, &tiny());
        assert_eq!(
            a.is_ok(),
            c.is_ok(),
            "{name}: str and bytes entry points differ"
        );
        if let (Ok(x), Ok(z)) = (&a, &c) {
            assert!(x == z, "{name}: str tree differs");
        }
    }
    a.is_ok()
}

fn shared(var: &str, default: &str) -> Option<PathBuf> {
    let dir = match std::env::var_os(var) {
        Some(d) => PathBuf::from(d),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join(default),
    };
    if dir.is_dir() {
        Some(dir)
    } else {
        hcl_test_support::not_run(format!(
            "chunked_parse: skipped, no folder at {}",
            dir.display()
        ));
        None
    }
}

#[test]
fn corpus_trees_are_the_same_in_pieces() {
    let Some(dir) = shared("HCL_CORPUS_DIR", "../../shared/corpus") else {
        return;
    };
    let manifest = std::fs::read_to_string(dir.join("MANIFEST.tsv")).unwrap();
    let (mut files, mut parsed) = (0, 0);
    for line in manifest.lines().skip(1) {
        let Some(path) = line.split('\t').next() else {
            continue;
        };
        let Ok(bytes) = std::fs::read(dir.join(path)) else {
            continue;
        };
        files += 1;
        if same(path, &bytes) {
            parsed += 1;
        }
    }
    println!("chunked_parse: {files} corpus files, {parsed} parsed, all alike in pieces");
    assert!(files > 5000, "only {files} corpus files read");
}

#[test]
fn conformance_configs_are_the_same_in_pieces() {
    let Some(dir) = shared("HCL_CONFORMANCE_DIR", "../../shared/conformance") else {
        return;
    };
    let mut n = 0;
    let mut stack = vec![dir];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap().flatten() {
            let p = entry.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|e| e == "hcl") {
                let bytes = std::fs::read(&p).unwrap();
                same(&p.display().to_string(), &bytes);
                n += 1;
            }
        }
    }
    println!("chunked_parse: {n} conformance configs alike in pieces");
    assert!(n > 100, "only {n} conformance configs read");
}

#[test]
fn synthetic_files_are_the_same_in_pieces() {
    let valid = [
        "a = 1\nb = 2\n",
        "\u{feff}a = 1\nb = 2\n",
        "a = 1\r\nb {\r\n  c = 2\r\n}\r\n",
        "a = <<EOT\nx = 1\n  y\nEOT\nb = 2\n",
        "a = <<-EOT\n  x\n  EOT\n\n\nb = 2",
        "# x = 1\nb = 2 // c = 3\n/* d = 4\ne = 5 */\nf = 6\n",
        "a = [\n1,\n2,\n]\nb = {\nc = 1\nd = 2\n}\nc = (\n1\n)\n",
        "s \"x\" {\n  t {\n    u = 1\n  }\n}\n\ns \"y\" {}\n",
        "a = \"${\n1\n}\"\nb = \"%{ if true }\nx%{ endif }\"\n",
        "a = x ? 1 : 2\nb = 3\n",
        "a = 1\n\u{feff}b = 2\n",
        "a = 1\nb = 2",
    ];
    for src in valid {
        same(&format!("{src:?}"), src.as_bytes());
    }
    let invalid = [
        "a = 1\nb = 2\na = 3\n",
        "a = 1\nb = 2\nc = \n",
        "a = 1\nb = 2\nc d e\n",
        "a = 1\nb = {\n",
        "a = 1\nb = 2\n}\n",
        "a = 1\nb = x.\ny\n",
        "a = 1\nb = 2\nc = \"\\q\"\n",
        "a = 1\nb = <<EOT\nx\n",
        "a = 1\n\u{feff}\n",
    ];
    for src in invalid {
        assert!(!same(&format!("{src:?}"), src.as_bytes()), "{src:?} parsed");
    }
    // Invalid UTF-8 inside a comment of a later piece is accepted; outside
    // one it is an error, as for the whole file.
    assert!(same("utf8 in comment", b"a = 1\nb = 2 # \xff\nc = 3\n"));
    assert!(!same("utf8 outside", b"a = 1\nb = 2\nc = \"\xff\"\n"));
    // Larger files: many items, some repeated far apart.
    let mut big = String::new();
    for i in 0..3000 {
        big.push_str(&format!(
            "a{i} = [\n  {i},\n  \"x${{{i}}}\",\n]\nb{i} {{\n  c = <<EOT\n{i}\nEOT\n}}\n"
        ));
    }
    assert!(same("big", big.as_bytes()));
    big.push_str("a0 = 1\n");
    assert!(!same("big with a repeat", big.as_bytes()));
}

#[test]
fn pieces_are_cut_at_the_default_size() {
    // A 1 MB file parses the same with the default pieces (16 KiB) as
    // whole, and its line numbers in a late error are right.
    let mut big = String::new();
    let mut i = 0;
    while big.len() < 1 << 20 {
        big.push_str(&format!("a{i} = {{ x = {i}, y = \"v${{{i}}}\" }}\n"));
        i += 1;
    }
    let lines = i;
    let a = parse_body(&big, &whole()).unwrap();
    let b = parse_body(&big, &ParseOptions::default()).unwrap();
    assert!(a == b);
    big.push_str("broken = \n");
    let e = parse_body(&big, &ParseOptions::default()).unwrap_err();
    assert_eq!(e.line(), lines + 1, "{e}");
}
