//! The fast path against the pest route (the grammar's authority).
//!
//! For every input: when the fast path returns a tree, pest must accept the
//! input and build the same tree (same nodes, spans and strings); when pest
//! rejects it, the fast path must return `None`. Inputs: the real-world
//! corpus, the native-syntax inputs of the conformance suites, hand-written
//! tricky cases, and a few thousand random mutations of corpus snippets
//! (fixed seed). The corpus hit rate (files the fast path takes) is
//! reported and asserted.

use hcl_grammar::__private::{
    parse_body_fast, parse_body_pest, parse_expr_fast, parse_expr_pest, parse_template_fast,
    parse_template_pest,
};
use hcl_grammar::ParseOptions;
use std::path::{Path, PathBuf};

#[derive(Clone, Copy, Debug)]
enum Mode {
    Body,
    Expr,
    Template,
}

/// Checks the two properties on one input; whether the fast path took it.
fn check(mode: Mode, src: &str, options: &ParseOptions, what: &str) -> bool {
    match mode {
        Mode::Body => {
            let fast = parse_body_fast(src, options);
            let pest = parse_body_pest(src, options);
            compare(fast, pest, src, what)
        }
        Mode::Expr => {
            let fast = parse_expr_fast(src, options);
            let pest = parse_expr_pest(src, options);
            compare(fast, pest, src, what)
        }
        Mode::Template => {
            let fast = parse_template_fast(src, options);
            let pest = parse_template_pest(src, options);
            compare(fast, pest, src, what)
        }
    }
}

/// [`check`] on `src` placed inside a larger text and parsed with
/// [`ParseOptions::with_span`] (as the JSON syntax reads its strings): the
/// text around it is not valid HCL, so it must not be read.
fn check_at(mode: Mode, src: &str, options: &ParseOptions, what: &str) -> bool {
    let text = format!("{{\"k\": \"{src}\", \"j\": 1}}");
    let span = hcl_grammar::Span::new(8, 8 + src.len());
    let options = options.clone().with_span(span);
    check(mode, &text, &options, what)
}

fn compare<T: PartialEq + std::fmt::Debug>(
    fast: Option<T>,
    pest: hcl_grammar::Result<T>,
    src: &str,
    what: &str,
) -> bool {
    match (fast, pest) {
        (Some(f), Ok(p)) => {
            assert!(
                f == p,
                "{what}: the fast path built a different tree\ninput: {src:?}\nfast: {f:#?}\npest: {p:#?}"
            );
            true
        }
        (Some(f), Err(e)) => {
            panic!("{what}: the fast path accepted what pest rejects ({e})\ninput: {src:?}\nfast: {f:#?}")
        }
        (None, _) => false,
    }
}

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            files(&p, out);
        } else {
            out.push(p);
        }
    }
}

fn shared() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared");
    if dir.is_dir() {
        Some(dir)
    } else {
        hcl_test_support::not_run(format!("skipped: {} is absent", dir.display()));
        None
    }
}

/// Whether a corpus file is a native-syntax config file.
fn is_config(p: &Path) -> bool {
    let name = p.file_name().and_then(|n| n.to_str()).unwrap_or_default();
    [".tf", ".hcl", ".nomad", ".tfvars"]
        .iter()
        .any(|ext| name.ends_with(ext))
}

fn corpus_inputs() -> Vec<(PathBuf, String)> {
    let Some(dir) = shared() else {
        return Vec::new();
    };
    let mut all = Vec::new();
    files(&dir.join("corpus"), &mut all);
    all.into_iter()
        .filter(|p| is_config(p))
        .filter_map(|p| std::fs::read_to_string(&p).ok().map(|s| (p, s)))
        .collect()
}

/// The hit rate measured on the corpus when the test was written, less a
/// small margin.
const MIN_HIT_RATE: f64 = 0.99;

#[test]
fn corpus() {
    let inputs = corpus_inputs();
    if inputs.is_empty() {
        hcl_test_support::not_run("skipped: no corpus");
        return;
    }
    let options = ParseOptions::default();
    let mut hits = 0usize;
    let mut misses = Vec::new();
    for (path, src) in &inputs {
        let what = path.display().to_string();
        if check(Mode::Body, src, &options, &what) {
            hits += 1;
        } else if parse_body_pest(src, &options).is_ok() {
            misses.push(what);
        }
    }
    let rate = hits as f64 / inputs.len() as f64;
    eprintln!(
        "fast path hit rate on the corpus: {hits} of {} files ({:.2}%); valid files it left to pest: {}",
        inputs.len(),
        rate * 100.0,
        misses.len()
    );
    for m in misses.iter().take(40) {
        eprintln!("  left to pest: {m}");
    }
    assert!(rate >= MIN_HIT_RATE, "hit rate {rate} below {MIN_HIT_RATE}");
}

#[test]
fn conformance() {
    let Some(dir) = shared() else {
        return;
    };
    let Ok(rd) = std::fs::read_dir(&dir) else {
        return;
    };
    let mut suites: Vec<PathBuf> = rd
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("conformance"))
        })
        .collect();
    suites.sort();
    let options = ParseOptions::default();
    let (mut n, mut hits) = (0, 0);
    for suite in suites {
        let mut all = Vec::new();
        files(&suite, &mut all);
        for p in all {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or_default();
            let mode = if name.ends_with(".hcl") {
                Mode::Body
            } else if name.ends_with(".hclexpr") {
                Mode::Expr
            } else if name.ends_with(".hcltmpl") {
                Mode::Template
            } else {
                continue;
            };
            let Ok(src) = std::fs::read_to_string(&p) else {
                continue;
            };
            n += 1;
            if check(mode, &src, &options, &p.display().to_string()) {
                hits += 1;
            }
            if let Mode::Expr = mode {
                check_at(Mode::Expr, &src, &options, &p.display().to_string());
            }
        }
    }
    eprintln!("conformance inputs: {n}, taken by the fast path: {hits}");
}

/// Hand-written cases around the rules the fast path must mirror exactly.
#[test]
fn tricky() {
    let bodies = [
        "",
        "\n",
        "# only a comment",
        "a = 1 # trailing comment without newline",
        "a = 1 // trailing",
        "a = 1 /* c */\n",
        "/* a */ a /* b */ = /* c */ 1 /* d */ # e\n",
        "a = 1",
        "a = 1\nb = 2\n",
        "a = 1\na = 2\n",
        "a = b.\nc\n",
        "a = b.c\n",
        "a = b. c\n",
        "a = b./*x*/c\n",
        "a = b.#c\nd\n",
        "a = (b.\nc)\n",
        "a = (f\n(1))\n",
        "a = f\n(1)\n",
        "a = f (1)\n",
        "a = [f\n(1)]\n",
        "a = a.0\n",
        "a = a.0.1\n",
        "a = a.0.b\n",
        "a = a.1e3\n",
        "a = a. 0\n",
        "a = 1.5.3\n",
        "a = 1.x\n",
        "a = 1e\n",
        "a = 1e+5\n",
        "a = a[*].b[0].c\n",
        "a = a.*.b[0]\n",
        "a = a.*.b.*.c\n",
        "a = a[*][*].b\n",
        "a = a.*[*].b\n",
        "a = a[*].b.*.c\n",
        "a = a [ * ] . b\n",
        "a = -a.b[0]\n",
        "a = !-!x\n",
        "a = 1 + 2 * 3 - 4 / 5 % 6\n",
        "a = a == b && c != d || e < f && g <= h || i > j && k >= l\n",
        "a = a ? b : c ? d : e\n",
        "a = a ? b ? c : d : e\n",
        "a = (a ? b : c) ? d : e\n",
        "a = a ?\nb : c\n",
        "a = (a ?\nb :\nc)\n",
        "a = 1 +\n2\n",
        "a = (1 +\n2)\n",
        "a = [\n1,\n2,\n]\n",
        "a = [1 2]\n",
        "a = [,]\n",
        "a = []\n",
        "a = {}\n",
        "a = {null = 1, true = 2, false: 3, x = 4}\n",
        "a = {\n a = 1\n b = 2,\n \"c\" = 3\n (d) = 4\n}\n",
        "a = { a = 1 b = 2 }\n",
        "a = { a =\n 1 }\n",
        "a = {for = 1}\n",
        "a = {for_each = 1}\n",
        "a = [for x in y: x]\n",
        "a = [for i, x in y: x if i > 0]\n",
        "a = [for x in y: x\n if x\n]\n",
        "a = {for k, v in y: k => v...}\n",
        "a = {for k, v in y: k => v... if v}\n",
        "a = {for k, v in y: k => v}\n",
        "a = [for x in y: x if]\n",
        "a = [for]\n",
        "a = [forx]\n",
        "a = f()\n",
        "a = f(1, 2, 3,)\n",
        "a = f(x...)\n",
        "a = f(x, ...)\n",
        "a = f(\n1,\n2\n)\n",
        "a = provider::aws::arn_parse(x)\n",
        "a = provider::aws\n",
        "a = a::\n",
        "a = true(1)\n",
        "a = \"\"\n",
        "a = \"abc\"\n",
        "a = \"a\\nb\\t\\\"\\\\\"\n",
        "a = \"\\u00e9\\U0001F600\"\n",
        "a = \"\\u00\"\n",
        "a = \"\\q\"\n",
        "a = \"e\u{301}\"\n",
        "a = \"caf\u{e9}\"\n",
        "a = \"$${a} %%{b} $ % $$ %%\"\n",
        "a = \"${a}\"\n",
        "a = \"x${a}y${b}z\"\n",
        "a = \"${~ a ~}\"\n",
        "a = \" ${~ a ~} \"\n",
        "a = \"a ${b} %{ if c }d%{ else }e%{ endif } f\"\n",
        "a = \"%{ for x in y }${x}, %{ endfor }\"\n",
        "a = \"%{ for k, v in y ~}${k}=${v}\n%{~ endfor }\"\n",
        "a = \"%{if a}x%{endif\"\n",
        "a = \"%{endif}\"\n",
        "a = \"%{ if a }%{ else }%{ else }%{ endif }\"\n",
        "a = \"${a\"\n",
        "a = \"abc\n",
        "a = \"abc",
        "a = \"${\"${\"x\"}\"}\"\n",
        "a = \"${ {a = 1}.a }\"\n",
        "a = <<EOF\nhello\nEOF\n",
        "a = <<EOF\nEOF\n",
        "a = <<EOF\n\nEOF\n",
        "a = <<EOF\nhello\nEOF",
        "a = <<EOF\nhello\n  EOF  \n",
        "a = <<EOF\nhello\nEOFX\nEOF\n",
        "a = <<-EOF\n    a\n      b\n\n    c ${x}\n    EOF\n",
        "a = <<-EOF\n\t\ta\n\tb\n\tEOF\n",
        "a = <<EOF\n${a}\nEOF\n",
        "a = <<EOF\nx ${~ a ~} \n y\nEOF\n",
        "a = <<EOF\ncost $\nEOF\n",
        "a = <<EOF\n%{ if a }\nx\n%{ endif }\nEOF\n",
        "a = <<EOF\n  %{~ for x in y ~}\n  ${x}\n  %{~ endfor ~}\nEOF\n",
        "a = <<EOF\nhello\nEOF\n.x\n",
        "a = (<<EOF\nhello\nEOF\n)\n",
        "a = [<<EOF\nhello\nEOF\n, 1]\n",
        "a = <<EOF\nunterminated\n",
        "block {\n}\n",
        "block {}\n",
        "block { a = 1 }\n",
        "block { a = 1\n}\n",
        "block {\na = 1 }\n",
        "block { b {} }\n",
        "block \"a\" b \"c\" {\n  x = 1\n  inner {\n    y = 2\n  }\n}\n",
        "block \"a${b}\" {}\n",
        "block \"a\\nb\" {}\n",
        "block \"e\u{301}\" {}\n",
        "block {\n a = 1\n a = 2\n}\n",
        "block {\n a = 1\n}\nblock {\n a = 2\n}\n",
        "block { # c\n}\n",
        "block {\n} # c\n",
        "block {\n}x\n",
        "a = 1 b = 2\n",
        "a = 1\r\n",
        "a = 1\r",
        "a = 1 \r b\n",
        "b {\r\n  a = 1 # c\r\n  c = [\r\n 1,\r\n 2 // d\r\n ]\r\n}\r\n",
        "a = 1 # c\r x\r\n",
        "a = 1 # c\r",
        "a = <<EOF\r\nx\r\ny ${z}\r\nEOF\r\n",
        "a = <<-EOF\r\n  x\r\n    y\r\n  EOF\r\nb = 2\r\n",
        "a = <<EOF\r\nx\ry\r\nEOF\r\n",
        "a = <<EOF\r\nx $\r\nEOF\r\n",
        "a = <<EOF\r\nEOF\r\n",
        "a = \"x\ry\"\r\n",
        "a = {\r\n x = 1\r\n y = 2\r\n}\r\n",
        "a = x.\r\ny\r\n",
        "a = (x.\r\ny)\r\n",
        "\u{feff}a = 1\n",
        "caf\u{e9} = 1\n",
        "a = caf\u{e9}\n",
        "a = 1 /* unterminated\n",
        "a = x # c\n  .y\n",
        "a = x\n.y\n",
        "a = (x\n.y)\n",
        "a = (x\n[0])\n",
        "a = x\n[0]\n",
        "a = -\n1\n",
        "a = (-\n1)\n",
        "a = ! true\n",
        "a = 1 == = 2\n",
        "a = 1 / /* c */ 2\n",
        "a = 1 // 2\n",
        "a = a\n  ? b\n  : c\n",
    ];
    let options = ParseOptions::default();
    let mut taken = 0;
    for (i, src) in bodies.iter().enumerate() {
        check_at(Mode::Body, src, &options, &format!("body-at case {i}"));
        if check(Mode::Body, src, &options, &format!("body case {i}")) {
            taken += 1;
        } else {
            eprintln!("left to pest: body case {i} {src:?}");
        }
        // The same text as an expression where it is one.
        if let Some(rhs) = src.strip_prefix("a = ") {
            check(Mode::Expr, rhs, &options, &format!("expr case {i}"));
            check_at(Mode::Expr, rhs, &options, &format!("expr-at case {i}"));
            check_at(
                Mode::Template,
                rhs,
                &options,
                &format!("template-at case {i}"),
            );
            check(Mode::Template, rhs, &options, &format!("template case {i}"));
        }
        check(Mode::Template, src, &options, &format!("template case {i}"));
    }
    assert!(
        taken > bodies.len() / 2,
        "the fast path took only {taken} cases"
    );
    let exprs = [
        "",
        " 1 ",
        "\n\na\n\n",
        "a ? b :\nc",
        "{\n}",
        "a\n.b",
        "a\n[0]",
        "f\n(1)",
        "[for x in y:\nx\nif\nx]",
        "{a = 1\n}",
        "<<EOF\nx\nEOF\n",
        "\u{feff}1",
    ];
    for (i, src) in exprs.iter().enumerate() {
        check(Mode::Expr, src, &options, &format!("expr-only case {i}"));
        check_at(Mode::Expr, src, &options, &format!("expr-at-only case {i}"));
    }
    let templates = [
        "",
        "plain text\nlines\n",
        "${a}",
        " ${~a~} \n next",
        "%{ if a ~}\n  yes\n%{~ else ~}\n  no\n%{~ endif }",
        "%{ for x in y }${x}%{ endfor }",
        "$${a} %%{b}",
        "cost $\nx",
        "${",
        "%{ endfor }",
        "a\r\nb",
    ];
    for (i, src) in templates.iter().enumerate() {
        check(
            Mode::Template,
            src,
            &options,
            &format!("template-only case {i}"),
        );
    }
}

/// Depth limits: the fast path never accepts what the limit refuses.
#[test]
fn depth_limits() {
    for max in 0..=12 {
        let options = ParseOptions::default().with_max_depth(max);
        let cases = [
            "a = 1\n",
            "a = [1]\n",
            "a = [[1]]\n",
            "a = ((1))\n",
            "a = a.b.c\n",
            "a = -!-a\n",
            "a = 1 + 2 + 3 + 4\n",
            "a = a ? b : c\n",
            "a = a ? b ? c : d : e ? f : g\n",
            "a = [a ? b : c, d ? e : f]\n",
            "a = \"${a}\"\n",
            "a = \"%{ if a }${b}%{ endif }\"\n",
            "a = <<EOF\n${a}\nEOF\n",
            "b \"l\" {\n c {\n  a = 1\n }\n}\n",
            "b { a = {x = [1]} }\n",
            "a = f(g(h(1)))\n",
            "a = [for x in y: x ? 1 : 2 if x ? true : false]\n",
            "a = x[y[z[0]]]\n",
            "a = x[*].y[*].z\n",
            "a = \"%{ if a }%{ if b }x%{ endif }%{ endif }\"\n",
            "a = <<EOF\n%{ for x in y }${x}%{ endfor }\nEOF\n",
            "a = {k = [for x in y: {v = x ? 1 : 2}]}\n",
            "a = \"${\"${\"${x}\"}\"}\"\n",
            "a = f(a ? b : c, d ? e : f)\n",
            "a = {a = b ? c : d\ne = f ? g : h}\n",
        ];
        for (i, src) in cases.iter().enumerate() {
            let what = format!("depth {max} case {i}");
            check(Mode::Body, src, &options, &what);
            if let Some(rhs) = src.strip_prefix("a = ") {
                check(Mode::Expr, rhs, &options, &what);
                check(Mode::Template, rhs, &options, &what);
            }
        }
    }
}

/// A small xorshift generator: the same inputs on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

const TOKENS: &[&str] = &[
    "\n", " ", "{", "}", "[", "]", "(", ")", "\"", "${", "%{", "~", "=", "==", ":", "?", ",", ".",
    "..", "...", "*", "[*]", ".*", "-", "!", "<<EOF\n", "\nEOF\n", "<<-EOF\n", "#", "//", "/*",
    "*/", "for", "in", "if", "endif", "else", "endfor", "=>", "0", "1.5", "a", "null", "true",
    "\\", "\\n", "$$", "%%", "::", "\t", "x.0",
];

/// Random mutations of corpus snippets: bytes and tokens deleted, inserted
/// and duplicated.
#[test]
fn mutations() {
    let inputs = corpus_inputs();
    if inputs.is_empty() {
        hcl_test_support::not_run("skipped: no corpus");
        return;
    }
    let options = ParseOptions::default();
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let rounds = 4000;
    let mut taken = 0;
    for round in 0..rounds {
        let (_, src) = &inputs[rng.below(inputs.len())];
        // A snippet of at most 600 bytes, cut at char boundaries.
        let mut start = rng.below(src.len());
        while !src.is_char_boundary(start) {
            start -= 1;
        }
        // From the start of a line, mostly: snippets then often parse.
        if rng.below(4) != 0 {
            start = src[..start].rfind('\n').map_or(0, |i| i + 1);
        }
        let mut end = (start + 1 + rng.below(600)).min(src.len());
        while !src.is_char_boundary(end) {
            end += 1;
        }
        // The snippet itself, cut at line ends: often valid.
        let line_end = src[end..].find('\n').map_or(src.len(), |i| end + i + 1);
        let lines = &src[start..line_end];
        check(Mode::Body, lines, &options, &format!("snippet {round}"));
        check(Mode::Expr, lines, &options, &format!("snippet {round}"));
        let mut s: String = src[start..end].to_owned();
        for _ in 0..1 + rng.below(3) {
            let mut at = rng.below(s.len() + 1);
            while !s.is_char_boundary(at) {
                at -= 1;
            }
            match rng.below(4) {
                0 => {
                    let mut to = (at + 1 + rng.below(8)).min(s.len());
                    while !s.is_char_boundary(to) {
                        to += 1;
                    }
                    s.replace_range(at..to, "");
                }
                1 => s.insert_str(at, TOKENS[rng.below(TOKENS.len())]),
                2 => {
                    let mut to = (at + 1 + rng.below(16)).min(s.len());
                    while !s.is_char_boundary(to) {
                        to += 1;
                    }
                    let piece = s[at..to].to_owned();
                    s.insert_str(at, &piece);
                }
                _ => {
                    let b = [b' ', b'\n', b'"', b'}', b'{', b']', b'(', b'$', b'.', b'-']
                        [rng.below(10)];
                    s.insert(at, b as char);
                }
            }
        }
        let what = format!("mutation {round}");
        if check(Mode::Body, &s, &options, &what) {
            taken += 1;
        }
        check(Mode::Expr, &s, &options, &what);
        check(Mode::Template, &s, &options, &what);
    }
    eprintln!("mutations: {rounds}, bodies taken by the fast path: {taken}");
}
