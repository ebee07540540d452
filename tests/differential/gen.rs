//! The differential test's input generator: expressions, templates
//! (quoted, heredoc and standalone) and bodies, with variables and calls
//! of the oracle's standard functions, from a seeded PRNG so that a seed
//! always gives the same inputs.
//!
//! Sizes stay small (depth 4, collections of at most 4 items, small
//! `range`s) so that every input evaluates quickly on both sides.

/// SplitMix64: a tiny, well-known generator; enough for test inputs.
pub struct Rng(u64);

impl Rng {
    /// A generator from `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    /// True with probability `1/n`.
    pub fn one_in(&mut self, n: usize) -> bool {
        self.below(n) == 0
    }

    /// One of `items` (an empty string for none).
    pub fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items.get(self.below(items.len())).copied().unwrap_or("")
    }
}

/// One generated input: its file extension (`hclexpr`, `hcltmpl`, `hcl`),
/// its bytes and its variables (a JSON object).
pub struct Input {
    /// `hclexpr`, `hcltmpl` or `hcl`.
    pub ext: &'static str,
    /// The input text.
    pub text: String,
    /// The `.vars.json` document.
    pub vars: String,
}

/// The variables every input sees (a JSON object): strings with and
/// without combining marks, numbers, a bool, a tuple, an object.
pub fn vars(r: &mut Rng) -> String {
    let s = r.pick(&[
        "hello",
        "cafe\\u0301",
        "  spaced  ",
        "a,b,c",
        "",
        "\\u00e9t\\u00e9",
        "line\\nbreak",
        "42",
        "true",
    ]);
    let n = r.pick(&["0", "1", "-3", "2.5", "1e3", "0.1", "12345678901234567890"]);
    let b = r.pick(&["true", "false"]);
    let l = r.pick(&[
        "[]",
        "[\"a\", \"b\"]",
        "[1, 2, 3]",
        "[\"e\\u0301\", \"x\"]",
        "[\"b\", \"a\", \"b\"]",
    ]);
    let m = r.pick(&[
        "{}",
        "{\"a\": 1, \"b\": \"two\"}",
        "{\"a\": \"x\", \"b\": \"y\"}",
        "{\"a\": [1, 2], \"c\": null}",
    ]);
    format!("{{\"s\": \"{s}\", \"n\": {n}, \"b\": {b}, \"l\": {l}, \"m\": {m}, \"z\": null}}")
}

/// Generates input number `i` (the kind rotates so that every kind is
/// covered evenly).
pub fn input(r: &mut Rng, i: usize) -> Input {
    let vars = vars(r);
    let mut g = Gen { r, depth: 0 };
    match i % 5 {
        0 | 1 => Input {
            ext: "hclexpr",
            text: g.expr(),
            vars,
        },
        2 => Input {
            ext: "hcltmpl",
            text: g.standalone_template(),
            vars,
        },
        _ => Input {
            ext: "hcl",
            text: g.body(),
            vars,
        },
    }
}

/// A native-syntax expression as [`input`] generates them (for the JSON
/// syntax's templates), of at most `depth` levels.
pub fn expression(r: &mut Rng, depth: usize) -> String {
    let mut g = Gen {
        r,
        depth: MAX_DEPTH.saturating_sub(depth),
    };
    g.expr()
}

struct Gen<'r> {
    r: &'r mut Rng,
    depth: usize,
}

const MAX_DEPTH: usize = 4;

/// Functions by arity: `(name, arguments)`; each argument is a kind of
/// expression to generate.
const FUNCS: &[(&str, &[Arg])] = &[
    ("upper", &[Arg::Str]),
    ("lower", &[Arg::Str]),
    ("title", &[Arg::Str]),
    ("strlen", &[Arg::Str]),
    ("strrev", &[Arg::Str]),
    ("trimspace", &[Arg::Str]),
    ("chomp", &[Arg::Str]),
    ("trim", &[Arg::Str, Arg::Str]),
    ("trimprefix", &[Arg::Str, Arg::Str]),
    ("trimsuffix", &[Arg::Str, Arg::Str]),
    ("split", &[Arg::Str, Arg::Str]),
    ("join", &[Arg::Str, Arg::List]),
    ("replace", &[Arg::Str, Arg::Str, Arg::Str]),
    ("substr", &[Arg::Str, Arg::SmallNum, Arg::SmallNum]),
    ("indent", &[Arg::SmallNum, Arg::Str]),
    ("format", &[Arg::Format, Arg::Any]),
    ("formatlist", &[Arg::Format, Arg::List]),
    ("length", &[Arg::List]),
    ("concat", &[Arg::List, Arg::List]),
    ("contains", &[Arg::List, Arg::Any]),
    ("distinct", &[Arg::List]),
    ("compact", &[Arg::List]),
    ("flatten", &[Arg::List]),
    ("reverse", &[Arg::List]),
    ("sort", &[Arg::List]),
    ("element", &[Arg::List, Arg::SmallNum]),
    ("slice", &[Arg::List, Arg::SmallNum, Arg::SmallNum]),
    ("chunklist", &[Arg::List, Arg::SmallNum]),
    ("keys", &[Arg::Map]),
    ("values", &[Arg::Map]),
    ("merge", &[Arg::Map, Arg::Map]),
    ("lookup", &[Arg::Map, Arg::Str, Arg::Any]),
    ("zipmap", &[Arg::List, Arg::List]),
    ("coalesce", &[Arg::Any, Arg::Any]),
    ("coalescelist", &[Arg::List, Arg::List]),
    ("setunion", &[Arg::List, Arg::List]),
    ("setintersection", &[Arg::List, Arg::List]),
    ("setsubtract", &[Arg::List, Arg::List]),
    ("min", &[Arg::Num, Arg::Num]),
    ("max", &[Arg::Num, Arg::Num]),
    ("abs", &[Arg::Num]),
    ("ceil", &[Arg::Num]),
    ("floor", &[Arg::Num]),
    ("signum", &[Arg::Num]),
    ("parseint", &[Arg::Str, Arg::SmallNum]),
    ("range", &[Arg::SmallNum]),
    ("range", &[Arg::SmallNum, Arg::SmallNum]),
    ("jsonencode", &[Arg::Any]),
    ("jsondecode", &[Arg::Json]),
    ("tostring", &[Arg::Any]),
    ("tonumber", &[Arg::Any]),
    ("tobool", &[Arg::Any]),
    ("tolist", &[Arg::List]),
    ("toset", &[Arg::List]),
    ("tomap", &[Arg::Map]),
    ("try", &[Arg::Any, Arg::Any]),
    ("can", &[Arg::Any]),
];

#[derive(Clone, Copy)]
enum Arg {
    Any,
    Str,
    Num,
    SmallNum,
    List,
    Map,
    Format,
    Json,
}

impl Gen<'_> {
    fn nested(&mut self, f: impl FnOnce(&mut Self) -> String) -> String {
        self.depth += 1;
        let s = f(self);
        self.depth -= 1;
        s
    }

    fn leaf(&mut self) -> bool {
        self.depth >= MAX_DEPTH || self.r.one_in(3)
    }

    /// Any expression.
    fn expr(&mut self) -> String {
        if self.leaf() {
            return self.atom();
        }
        self.nested(|g| match g.r.below(12) {
            0 => g.binary(),
            1 => g.conditional(),
            2 | 3 => g.call(),
            4 => g.tuple(),
            5 => g.object(),
            6 => g.for_expr(),
            7 => g.quoted_template(),
            8 => g.traversal(),
            9 => format!("{}{}", g.r.pick(&["-", "!"]), g.atom()),
            10 => format!("({})", g.expr()),
            _ => g.heredoc(),
        })
    }

    fn atom(&mut self) -> String {
        match self.r.below(10) {
            0 | 1 => self.number(),
            2 | 3 => self.string_lit(),
            4 => self.r.pick(&["true", "false", "null"]).to_owned(),
            _ => self
                .r
                .pick(&["s", "n", "b", "l", "m", "z", "m.a", "l[0]", "nosuch"])
                .to_owned(),
        }
    }

    fn number(&mut self) -> String {
        self.r
            .pick(&[
                "0",
                "1",
                "2",
                "3",
                "10",
                "-1",
                "0.5",
                "1.5",
                "2.25",
                "100",
                "1e2",
                "3.0",
                "0.1",
                "7",
                "1e30",
                "123456789012345678901234567890",
                "1e-5",
            ])
            .to_owned()
    }

    /// A quoted string literal: escapes, non-ASCII and combining marks.
    fn string_lit(&mut self) -> String {
        let body = self.r.pick(&[
            "",
            "a",
            "abc",
            "A b",
            " x ",
            "e\\u0301",
            "caf\\u00e9",
            "\u{e9}",
            "e\u{301}",
            "a\\tb",
            "1",
            "2.5",
            "true",
            "x,y",
            "%%{",
            "$${x}",
            "\\\"q\\\"",
            "\\\\",
            "\\n",
            "%d",
            "\u{1F600}",
            "e\\u0301\\u0301",
        ]);
        format!("\"{body}\"")
    }

    fn binary(&mut self) -> String {
        let op = self.r.pick(&[
            "+", "-", "*", "/", "%", "==", "!=", "<", ">", "<=", ">=", "&&", "||",
        ]);
        format!("{} {op} {}", self.expr(), self.expr())
    }

    fn conditional(&mut self) -> String {
        format!("{} ? {} : {}", self.expr(), self.expr(), self.expr())
    }

    fn tuple(&mut self) -> String {
        let n = self.r.below(4);
        let items: Vec<String> = (0..n).map(|_| self.expr()).collect();
        format!("[{}]", items.join(", "))
    }

    fn object(&mut self) -> String {
        let n = self.r.below(4);
        let items: Vec<String> = (0..n)
            .map(|_| {
                let key = match self.r.below(4) {
                    0 => "\"k\"".to_owned(),
                    1 => format!("({})", self.atom()),
                    2 => self.r.pick(&["a", "b", "c"]).to_owned(),
                    _ => self.string_lit(),
                };
                format!("{key} = {}", self.expr())
            })
            .collect();
        let sep = if self.r.one_in(2) { ", " } else { "\n" };
        format!("{{{}}}", items.join(sep))
    }

    fn traversal(&mut self) -> String {
        let base = self.atom();
        match self.r.below(5) {
            0 => format!("{base}[0]"),
            1 => format!("{base}.a"),
            2 => format!("{base}[*]"),
            3 => format!("{base}.*"),
            _ => format!("{base}[{}]", self.atom()),
        }
    }

    fn coll(&mut self) -> String {
        match self.r.below(4) {
            0 => "l".to_owned(),
            1 => "m".to_owned(),
            2 => format!("range({})", self.r.below(4)),
            _ => self.tuple(),
        }
    }

    fn for_expr(&mut self) -> String {
        let coll = self.coll();
        let cond = if self.r.one_in(3) {
            format!(" if {}", self.expr())
        } else {
            String::new()
        };
        if self.r.one_in(2) {
            format!("[for i, v in {coll} : {}{cond}]", self.expr())
        } else {
            let group = if self.r.one_in(4) { "..." } else { "" };
            format!(
                "{{for k, v in {coll} : {} => {}{group}{cond}}}",
                self.r
                    .pick(&["k", "v", "\"x\"", "tostring(k)", "upper(tostring(k))"]),
                self.expr()
            )
        }
    }

    fn arg(&mut self, a: Arg) -> String {
        match a {
            Arg::Any => self.expr(),
            Arg::Str if self.r.one_in(2) => self.string_lit(),
            Arg::Str => self.expr(),
            Arg::Num if self.r.one_in(2) => self.number(),
            Arg::Num => self.expr(),
            Arg::SmallNum => self.r.pick(&["0", "1", "2", "3", "-1", "n"]).to_owned(),
            Arg::List if self.r.one_in(3) => "l".to_owned(),
            Arg::List => self.tuple(),
            Arg::Map if self.r.one_in(3) => "m".to_owned(),
            Arg::Map => self.object(),
            Arg::Format => self
                .r
                .pick(&[
                    "\"%s\"",
                    "\"%d\"",
                    "\"%v-%s\"",
                    "\"%q\"",
                    "\"%5.1f\"",
                    "\"%%\"",
                ])
                .to_owned(),
            Arg::Json => self
                .r
                .pick(&[
                    "\"1\"",
                    "\"[1, \\\"a\\\"]\"",
                    "\"{\\\"a\\\": null}\"",
                    "\"\\\"e\\\\u0301\\\"\"",
                    "\"1e400\"",
                    "\"tru\"",
                ])
                .to_owned(),
        }
    }

    fn call(&mut self) -> String {
        let (name, params) = FUNCS
            .get(self.r.below(FUNCS.len()))
            .copied()
            .unwrap_or(("upper", &[]));
        let mut args: Vec<String> = params.iter().map(|&a| self.arg(a)).collect();
        match self.r.below(12) {
            0 => {
                args.pop();
            }
            1 => args.push(self.atom()),
            _ => {}
        }
        if self.r.one_in(12) && !args.is_empty() {
            format!("{name}({}...)", args.join(", "))
        } else {
            format!("{name}({})", args.join(", "))
        }
    }

    /// Whitespace around a strip marker: spaces, tabs, newlines, CRLF.
    fn space(&mut self) -> &'static str {
        self.r.pick(&[
            "",
            " ",
            "  ",
            "\t",
            "\n",
            " \n  ",
            "\r\n",
            "\n\n",
            " \t\r\n\t",
        ])
    }

    fn tilde(&mut self) -> &'static str {
        if self.r.one_in(2) {
            "~"
        } else {
            ""
        }
    }

    /// Template content: literal text, interpolations and directives.
    /// `nl` says whether raw newlines may appear (not in quoted strings).
    fn template_parts(&mut self, nl: bool) -> String {
        let n = 1 + self.r.below(4);
        let mut out = String::new();
        for _ in 0..n {
            match self.r.below(6) {
                0 | 1 => {
                    let text = self
                        .r
                        .pick(&["a", "b c", "x", "\u{e9}", "e", "$", "%", "$${", "%%{"]);
                    out.push_str(text);
                    if nl {
                        out.push_str(self.space());
                    } else {
                        out.push_str(self.r.pick(&["", " ", "\t", "  "]));
                    }
                }
                2 | 3 => {
                    let (l, r) = (self.tilde(), self.tilde());
                    let e = self.nested(Gen::expr);
                    out.push_str(&format!("${{{l}{e}{r}}}"));
                }
                4 => {
                    let (l1, r1, l2, r2) = (self.tilde(), self.tilde(), self.tilde(), self.tilde());
                    let c = self.nested(Gen::expr);
                    let body = if self.depth < MAX_DEPTH {
                        self.nested(|g| g.template_parts(nl))
                    } else {
                        "t".to_owned()
                    };
                    let sp = if nl { self.space() } else { " " };
                    if self.r.one_in(2) {
                        out.push_str(&format!(
                            "%{{{l1} if {c} {r1}}}{sp}{body}%{{{l2} else {r2}}}{sp}f%{{ endif }}"
                        ));
                    } else {
                        out.push_str(&format!(
                            "%{{{l1} if {c} {r1}}}{sp}{body}%{{{l2} endif {r2}}}"
                        ));
                    }
                }
                _ => {
                    let (l1, r1, l2, r2) = (self.tilde(), self.tilde(), self.tilde(), self.tilde());
                    let coll = self.nested(Gen::coll);
                    let sp = if nl { self.space() } else { " " };
                    out.push_str(&format!(
                        "%{{{l1} for k, v in {coll} {r1}}}{sp}${{v}}{sp}%{{{l2} endfor {r2}}}"
                    ));
                }
            }
        }
        out
    }

    fn quoted_template(&mut self) -> String {
        format!("\"{}\"", self.template_parts(false))
    }

    fn heredoc(&mut self) -> String {
        let indent = self.r.pick(&["", "  ", "\t", "    "]);
        let dash = if self.r.one_in(2) { "-" } else { "" };
        let eol = if self.r.one_in(5) { "\r\n" } else { "\n" };
        let body = self.template_parts(true).replace("\r\n", "\n");
        let lines: Vec<String> = body.split('\n').map(|l| format!("{indent}{l}")).collect();
        format!("<<{dash}EOT{eol}{}{eol}{indent}EOT\n", lines.join(eol))
    }

    fn standalone_template(&mut self) -> String {
        let mut t = self.template_parts(true);
        if self.r.one_in(3) {
            t.push('\n');
        }
        t
    }

    fn comment(&mut self) -> &'static str {
        self.r
            .pick(&["", " # c", " // c", " /* c */", " //**/ 2", " /**/", "#\r"])
    }

    fn body(&mut self) -> String {
        let crlf = self.r.one_in(5);
        let mut out = String::new();
        let n = 1 + self.r.below(3);
        for i in 0..n {
            if self.r.one_in(4) {
                let label = self.r.pick(&[
                    "\"x\"",
                    "\"cafe\u{301}\"",
                    "\"e\\u0301\"",
                    "lbl",
                    "\"a\\tb\"",
                    "\"${x}\"",
                ]);
                out.push_str(&format!("blk {label} {{\n  inner = {}\n}}\n", self.expr()));
            } else {
                let name = ["a", "b", "c", "d"].get(i).copied().unwrap_or("e");
                let comment = self.comment();
                out.push_str(&format!("{name} = {}{comment}\n", self.expr()));
            }
        }
        if crlf {
            out = out.replace("\r\n", "\n").replace('\n', "\r\n");
        }
        out
    }
}
