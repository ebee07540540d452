//! Hostile input in HCL's JSON syntax, through every JSON entry point:
//! `hcl_grammar::json::parse_json`, `hcl::from_json_str` /
//! `from_json_slice` (without and with a context) and `hcl::schema`.
//!
//! Each input must give a value or an `Error` with a line and column,
//! without panicking or overflowing the stack: each test runs on a 2 MiB
//! stack, the default of a spawned thread. No timing assertions: sizes are
//! large enough that anything quadratic would not finish in a test run.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use hcl::schema::File;
use hcl::{Context, Syntax, Value};

const DEEP: usize = 100_000;

fn on_small_stack<F: FnOnce() + Send + 'static>(f: F) {
    let handle = std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(f)
        .expect("spawn a test thread");
    if let Err(panic) = handle.join() {
        std::panic::resume_unwind(panic);
    }
}

/// Every entry point on `text`: each must return, errors with a position.
fn every_entry_point(text: &str) -> Vec<Result<Value, hcl::Error>> {
    let ctx = Context::with_stdlib();
    let mut out = vec![
        hcl::from_json_str::<Value>(text),
        hcl::from_json_str_with::<Value>(text, &ctx),
        hcl::from_json_slice::<Value>(text.as_bytes()),
    ];
    match File::parse(text, Syntax::Json) {
        Err(e) => out.push(Err(e)),
        Ok(file) => match file.body().just_attributes() {
            Err(e) => out.push(Err(e)),
            Ok(attrs) => {
                for a in attrs {
                    out.push(a.evaluate(Some(&ctx)));
                }
            }
        },
    }
    for r in &out {
        if let Err(e) = r {
            assert!(
                e.line().is_some() && e.column().is_some(),
                "no position: {e}"
            );
        }
    }
    out
}

#[test]
fn deep_arrays_and_objects_are_errors_not_overflows() {
    on_small_stack(|| {
        let arrays = format!("{{\"a\": {}1{}}}", "[".repeat(DEEP), "]".repeat(DEEP));
        for r in every_entry_point(&arrays) {
            let e = r.unwrap_err();
            assert!(e.to_string().contains("nesting too deep"), "{e}");
        }
        let objects = format!("{}1{}", "{\"a\":".repeat(DEEP), "}".repeat(DEEP));
        for r in every_entry_point(&objects) {
            assert!(r.unwrap_err().to_string().contains("nesting too deep"));
        }
        // Unclosed: the same.
        let open = "[".repeat(DEEP);
        assert!(hcl_grammar::json::parse_json(&open, &Default::default()).is_err());
    });
}

#[test]
fn nesting_at_the_limit_reads() {
    on_small_stack(|| {
        // 127 arrays inside the root object: 128 levels, the default limit.
        let text = format!("{{\"a\": {}1{}}}", "[".repeat(127), "]".repeat(127));
        for r in every_entry_point(&text) {
            r.unwrap();
        }
    });
}

#[test]
fn deep_templates_inside_strings_are_errors() {
    on_small_stack(|| {
        // Unescaped: `"${"${"...` is not valid JSON past the first quote,
        // so build nesting that JSON allows: escaped quotes, decoded before
        // the template is parsed.
        let deep = format!(
            "{{\"a\": \"{}1{}\"}}",
            "${\\\"".repeat(DEEP / 10),
            "\\\"}".repeat(DEEP / 10)
        );
        let results = every_entry_point(&deep);
        // Without a context the string is literal text.
        assert!(results[0].is_ok());
        assert!(results[1].is_err());
        // Parentheses inside one interpolation.
        let parens = format!(
            "{{\"a\": \"${{{}1{}}}\"}}",
            "(".repeat(DEEP),
            ")".repeat(DEEP)
        );
        let results = every_entry_point(&parens);
        assert!(results[1]
            .as_ref()
            .unwrap_err()
            .to_string()
            .contains("too deep"));
    });
}

#[test]
fn wide_input_is_linear() {
    on_small_stack(|| {
        // 20,000 properties (and 20,000 templates), each read as an attribute by every entry point.
        let n = 20_000;
        let mut text = String::from("{");
        for i in 0..n {
            text.push_str(&format!("\"k{i}\": {i},"));
        }
        text.push_str("\"last\": [");
        for i in 0..n {
            text.push_str(&format!("\"${{{i}}}\","));
        }
        text.push_str("0]}");
        for r in every_entry_point(&text).into_iter().take(3) {
            let v = r.unwrap();
            assert_eq!(v["k19999"], 19_999);
        }
        // Repeated names: an error at the second, found in linear time.
        let dup = format!(
            "{{{}\"k0\": 1}}",
            (0..n).map(|i| format!("\"k{i}\": 1,")).collect::<String>()
        );
        let e = hcl::from_json_str::<Value>(&dup).unwrap_err();
        assert!(e.to_string().contains("duplicate property"), "{e}");
        let file = File::parse(&dup, Syntax::Json).unwrap();
        assert!(file.body().just_attributes().is_err());
    });
}

#[test]
fn input_past_the_size_limit_is_refused_before_parsing() {
    let big = format!("{{\"a\": \"{}\"}}", "x".repeat(9 << 20));
    let e = hcl::from_json_str::<Value>(&big).unwrap_err();
    assert!(e.to_string().contains("input too large"), "{e}");
    let e = File::parse(&big, Syntax::Json).unwrap_err();
    assert!(e.to_string().contains("input too large"), "{e}");
}

#[test]
fn garbage_bytes_are_errors_with_positions() {
    for bytes in [
        &b"\xff\xfe{}"[..],
        b"{\"a\": \"\xff\"}",
        b"\xef\xbb\xbf{}",
        b"{\"a\": 1",
        b"{\"a\" 1}",
        b"{\"a\": tru}",
        b"{\"a\": \"\\ud800\\u0041\"}",
        b"{\"a\": \"\\u12\"}",
        b"",
        b"   ",
        b"{\"a\": -}",
        b"{\"a\": 1e999999999999}",
    ] {
        match hcl::from_json_slice::<Value>(bytes) {
            Ok(_) => {}
            Err(e) => assert!(e.line().is_some(), "{e}"),
        }
        let text = String::from_utf8_lossy(bytes);
        every_entry_point(&text);
    }
}

/// Inputs up to this many bytes are cut at every byte; longer ones at this
/// many places spread evenly over them. Each cut costs work in proportion
/// to its length, so every prefix of every input would grow with the
/// square of the inputs' lengths (3,000 generated documents: 37 min); this
/// way the test grows with the suite's bytes, and still cuts the
/// conformance inputs of today (90% are under 100 bytes) at every byte.
const CUTS: usize = 128;

/// Where the prefixes of `text` end: every character boundary when the
/// text is at most [`CUTS`] bytes long, else [`CUTS`] boundaries spread
/// evenly from the start to the end.
fn cut_points(text: &str) -> Vec<usize> {
    let mut cuts: Vec<usize> = if text.len() <= CUTS {
        (0..text.len()).collect()
    } else {
        (0..CUTS).map(|i| i * text.len() / CUTS).collect()
    };
    for cut in &mut cuts {
        while !text.is_char_boundary(*cut) {
            *cut += 1;
        }
    }
    cuts.dedup();
    cuts
}

#[test]
fn cut_points_are_bounded_and_cover_small_inputs() {
    assert_eq!(cut_points("{\"a\": 1}"), (0..8).collect::<Vec<_>>());
    let big = format!("{{\"é\": \"{}\"}}", "ü".repeat(1000));
    let cuts = cut_points(&big);
    assert!(
        cuts.len() <= CUTS && cuts.len() > CUTS / 2,
        "{}",
        cuts.len()
    );
    assert!(cuts
        .iter()
        .all(|&c| big.is_char_boundary(c) && c < big.len()));
    assert_eq!(cuts[0], 0);
    assert!(cuts[cuts.len() - 1] > big.len() - big.len() / CUTS - 2);
}

/// Prefixes of every JSON conformance input (skipped when the folder is
/// absent), at every byte of the small ones and at [`CUTS`] places of the
/// others: unterminated input of every shape, through every entry point,
/// returns with positions.
#[test]
fn prefixes_of_every_conformance_input() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/conformance-json");
    if !dir.is_dir() {
        hcl_test_support::not_run(format!("skipped: no {}", dir.display()));
        return;
    }
    let mut files = Vec::new();
    let mut stack = vec![dir];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.to_string_lossy().ends_with(".hcl.json") {
                files.push(p);
            }
        }
    }
    assert!(files.len() > 200, "{} inputs", files.len());
    on_small_stack(move || {
        for f in files {
            let text = String::from_utf8_lossy(&std::fs::read(&f).unwrap()).into_owned();
            for cut in cut_points(&text) {
                every_entry_point(&text[..cut]);
            }
        }
    });
}
