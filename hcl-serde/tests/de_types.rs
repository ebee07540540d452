//! serde attributes, Option, numbers, HCL's conversions, enums, captures
//! (`Spanned`, `RawExpression`, `RawBody`), `from_value` / `to_value`.
#![allow(clippy::unwrap_used, clippy::expect_used, dead_code)]

use hcl::{Context, RawExpression, Value};
use serde::{Deserialize, Serialize};
use serde_spanned::Spanned;
use std::collections::BTreeMap;

#[test]
fn rename_rename_all_alias_default_skip() {
    fn five() -> u32 {
        5
    }
    #[derive(Deserialize, Debug, PartialEq)]
    #[serde(rename_all = "kebab-case")]
    struct C {
        #[serde(rename = "type")]
        kind: String,
        max_conns: u32,
        #[serde(alias = "colour")]
        color: String,
        #[serde(default = "five")]
        retries: u32,
        #[serde(skip)]
        skipped: u32,
    }
    let c: C = hcl::from_str("type = \"a\"\nmax-conns = 3\ncolour = \"red\"\n").unwrap();
    assert_eq!(
        c,
        C {
            kind: "a".into(),
            max_conns: 3,
            color: "red".into(),
            retries: 5,
            skipped: 0
        }
    );
}

#[test]
fn deny_unknown_fields() {
    #[derive(Deserialize, Debug)]
    #[serde(deny_unknown_fields)]
    struct C {
        a: u8,
    }
    assert!(hcl::from_str::<C>("a = 1\n").is_ok());
    let err = hcl::from_str::<C>("a = 1\nb = 2\n").unwrap_err();
    assert_eq!((err.line(), err.column()), (Some(2), Some(1)));
    let err = hcl::from_str::<C>("a = 1\nb {}\n").unwrap_err();
    assert!(err.message().starts_with("unknown field `b`"), "{err}");
}

#[test]
fn with_attribute() {
    mod upper {
        use serde::{Deserialize, Deserializer};
        pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
            Ok(String::deserialize(d)?.to_uppercase())
        }
    }
    #[derive(Deserialize, Debug)]
    struct C {
        #[serde(with = "upper")]
        name: String,
    }
    let c: C = hcl::from_str("name = \"web\"\n").unwrap();
    assert_eq!(c.name, "WEB");
}

#[test]
fn option_missing_null_and_computed_null() {
    #[derive(Deserialize, Debug, PartialEq)]
    struct C {
        a: Option<u8>,
        b: Option<u8>,
        c: Option<u8>,
        d: Option<u8>,
    }
    let c: C = hcl::from_str("b = null\nc = true ? null : 1\nd = 4\n").unwrap();
    assert_eq!(
        c,
        C {
            a: None,
            b: None,
            c: None,
            d: Some(4)
        }
    );
}

#[test]
fn every_numeric_type_and_range_errors() {
    #[derive(Deserialize, Debug, PartialEq)]
    struct C {
        a: i8,
        b: i16,
        c: i32,
        d: i64,
        e: i128,
        f: u8,
        g: u16,
        h: u32,
        i: u64,
        j: u128,
        k: f32,
        l: f64,
    }
    let text = "a = -128\nb = -32768\nc = 2147483647\nd = -9223372036854775808\n\
                e = -170141183460469231731687303715884105728\nf = 255\ng = 65535\n\
                h = 4294967295\ni = 18446744073709551615\n\
                j = 340282366920938463463374607431768211455\nk = 1.5\nl = 0.1\n";
    let c: C = hcl::from_str(text).unwrap();
    assert_eq!(
        c,
        C {
            a: i8::MIN,
            b: i16::MIN,
            c: i32::MAX,
            d: i64::MIN,
            e: i128::MIN,
            f: u8::MAX,
            g: u16::MAX,
            h: u32::MAX,
            i: u64::MAX,
            j: u128::MAX,
            k: 1.5,
            l: 0.1
        }
    );
    for (ty, text) in [
        ("i8", "x = 128"),
        ("i8", "x = -129"),
        ("u8", "x = -1"),
        ("u16", "x = 65536"),
        ("u64", "x = 18446744073709551616"),
        ("i64", "x = 9223372036854775808"),
        ("u32", "x = 1.5"),
        ("f32", "x = 1e300"),
    ] {
        let err = match ty {
            "i8" => hcl::from_str::<BTreeMap<String, i8>>(text).map(drop),
            "u8" => hcl::from_str::<BTreeMap<String, u8>>(text).map(drop),
            "u16" => hcl::from_str::<BTreeMap<String, u16>>(text).map(drop),
            "u32" => hcl::from_str::<BTreeMap<String, u32>>(text).map(drop),
            "u64" => hcl::from_str::<BTreeMap<String, u64>>(text).map(drop),
            "i64" => hcl::from_str::<BTreeMap<String, i64>>(text).map(drop),
            _ => hcl::from_str::<BTreeMap<String, f32>>(text).map(drop),
        }
        .unwrap_err();
        assert!(err.is_data(), "{text}: {err}");
        assert!(err.message().contains(ty), "{text}: {err}");
        assert_eq!(err.column(), Some(5), "{text}: {err}");
    }
}

#[test]
fn hcl_conversions_when_the_target_asks() {
    #[derive(Deserialize, Debug, PartialEq)]
    struct C {
        port: u16,
        name: String,
        enabled: bool,
        ratio: f64,
        flag: String,
    }
    let c: C = hcl::from_str(
        "port = \"8080\"\nname = 15\nenabled = \"true\"\nratio = \"0.5\"\nflag = false\n",
    )
    .unwrap();
    assert_eq!(
        c,
        C {
            port: 8080,
            name: "15".into(),
            enabled: true,
            ratio: 0.5,
            flag: "false".into()
        }
    );
    // Also on evaluated values: "${1}0" is the string "10".
    let m: BTreeMap<String, u8> = hcl::from_str("x = \"${1}0\"\n").unwrap();
    assert_eq!(m["x"], 10);
    // Map keys convert too.
    let m: BTreeMap<u16, String> = hcl::from_str("ports = 1\n")
        .map(|_: BTreeMap<String, u8>| BTreeMap::new())
        .unwrap();
    assert!(m.is_empty());
    let m: BTreeMap<String, BTreeMap<u16, String>> =
        hcl::from_str("ports = { \"80\" = \"http\", \"443\" = \"https\" }\n").unwrap();
    assert_eq!(m["ports"][&443], "https");
}

#[derive(Deserialize, Debug, PartialEq)]
#[serde(rename_all = "lowercase")]
enum Mode {
    Fast,
    Safe,
}

#[derive(Deserialize, Debug, PartialEq)]
#[serde(rename_all = "lowercase")]
enum Listener {
    Tcp { port: u16 },
    Unix { path: String },
    Off,
}

#[test]
fn enums_unit_from_strings() {
    let m: BTreeMap<String, Mode> = hcl::from_str("a = \"fast\"\nb = \"safe\"\n").unwrap();
    assert_eq!(m["a"], Mode::Fast);
    assert_eq!(m["b"], Mode::Safe);
}

#[test]
fn enums_from_a_one_key_object() {
    let m: BTreeMap<String, Listener> =
        hcl::from_str("a = { tcp = { port = 80 } }\nb = { unix = { path = \"/s\" } }\n").unwrap();
    assert_eq!(m["a"], Listener::Tcp { port: 80 });
    assert_eq!(m["b"], Listener::Unix { path: "/s".into() });
}

#[test]
fn enums_from_a_block_label() {
    #[derive(Deserialize, Debug, PartialEq)]
    struct C {
        listener: Vec<Listener>,
    }
    let c: C = hcl::from_str(
        "listener \"tcp\" { port = 80 }\nlistener \"unix\" { path = \"/s\" }\nlistener \"off\" {}\n",
    )
    .unwrap();
    assert_eq!(
        c.listener,
        [
            Listener::Tcp { port: 80 },
            Listener::Unix { path: "/s".into() },
            Listener::Off
        ]
    );
}

#[test]
fn enums_from_a_block_type() {
    #[derive(Deserialize, Debug, PartialEq)]
    struct C {
        listener: Listener,
    }
    // The body of `listener` holds one block whose type names the variant.
    let c: C = hcl::from_str("listener {\n  tcp {\n    port = 80\n  }\n}\n").unwrap();
    assert_eq!(c.listener, Listener::Tcp { port: 80 });
}

#[test]
fn internally_tagged_and_untagged_enums() {
    #[derive(Deserialize, Debug, PartialEq)]
    #[serde(tag = "kind", rename_all = "lowercase")]
    enum Check {
        Http { path: String },
        Tcp { port: u16 },
    }
    #[derive(Deserialize, Debug, PartialEq)]
    #[serde(untagged)]
    enum Port {
        Number(u16),
        Named(String),
    }
    #[derive(Deserialize, Debug, PartialEq)]
    struct C {
        check: Vec<Check>,
        ports: Vec<Port>,
    }
    let c: C = hcl::from_str(
        "check {\n  kind = \"http\"\n  path = \"/h\"\n}\ncheck {\n  kind = \"tcp\"\n  port = 1\n}\nports = [80, \"http\"]\n",
    )
    .unwrap();
    assert_eq!(
        c.check,
        [Check::Http { path: "/h".into() }, Check::Tcp { port: 1 }]
    );
    assert_eq!(c.ports, [Port::Number(80), Port::Named("http".into())]);
}

#[test]
fn flatten() {
    #[derive(Deserialize, Debug, PartialEq)]
    struct Common {
        name: String,
    }
    #[derive(Deserialize, Debug, PartialEq)]
    struct C {
        #[serde(flatten)]
        common: Common,
        #[serde(flatten)]
        rest: BTreeMap<String, Value>,
    }
    let c: C = hcl::from_str("name = \"x\"\nport = 1 + 1\n").unwrap();
    assert_eq!(c.common.name, "x");
    assert_eq!(c.rest["port"], Value::from(2));
}

#[test]
fn spanned_fields_and_blocks() {
    #[derive(Deserialize, Debug)]
    struct B {
        x: Spanned<u8>,
    }
    #[derive(Deserialize, Debug)]
    struct C {
        port: Spanned<u16>,
        b: Spanned<B>,
    }
    let text = "port = 8080\nb {\n  x = 1\n}\n";
    let c: C = hcl::from_str(text).unwrap();
    assert_eq!(*c.port.get_ref(), 8080);
    assert_eq!(&text[c.port.span()], "8080");
    assert_eq!(&text[c.b.span()], "b {\n  x = 1\n}");
    assert_eq!(&text[c.b.get_ref().x.span()], "1");
}

#[test]
fn expression_captures_unevaluated() {
    #[derive(Deserialize, Debug)]
    struct C {
        when: RawExpression,
        list: Vec<RawExpression>,
    }
    let text = "list = [a, b + 1]\nwhen = <<EOT\nhello ${name}\nEOT\n";
    let c: C = hcl::from_str(text).unwrap();
    assert_eq!(c.when.as_str(), "<<EOT\nhello ${name}\nEOT");
    assert_eq!(c.list[1].as_str(), "b + 1");
    let mut ctx = Context::new();
    ctx.declare_var("name", "you");
    ctx.declare_var("b", 41);
    assert_eq!(c.when.evaluate(&ctx).unwrap(), Value::from("hello you\n"));
    let n: u8 = c.list[1].evaluate_into(&ctx).unwrap();
    assert_eq!(n, 42);
    // Errors point into the original file.
    let err = c.list[0].evaluate(&ctx).unwrap_err();
    assert_eq!((err.line(), err.column()), (Some(1), Some(9)), "{err}");
    assert_eq!(err.source_line(), Some("list = [a, b + 1]"));
    let err = c.when.evaluate(&Context::new()).unwrap_err();
    assert_eq!((err.line(), err.column()), (Some(3), Some(9)), "{err}");
}

#[test]
fn captures_out_of_source_order_keep_their_lines() {
    // Blocks are read by type, in order of first appearance, so the
    // captures of `b` come after the last `a` although `b` starts first:
    // each capture's line must still be its own.
    #[derive(Deserialize, Debug)]
    struct X {
        x: RawExpression,
    }
    #[derive(Deserialize, Debug)]
    struct F {
        a: Vec<X>,
        b: Vec<X>,
        z: RawExpression,
    }
    let text = "a {\n  x = 1\n}\nb {\n  x = 2\n}\n\nz = 9\na {\n  x = 3\n}\nb { x = 4 }\n";
    let f: F = hcl::from_str(text).unwrap();
    let got: Vec<(&str, usize)> =
        f.a.iter()
            .chain(&f.b)
            .map(|c| &c.x)
            .chain([&f.z])
            .map(|e| (e.as_str(), e.line()))
            .collect();
    assert_eq!(
        got,
        [("1", 2), ("3", 10), ("2", 5), ("4", 12), ("9", 8)],
        "{text}"
    );
    for e in f.a.iter().chain(&f.b).map(|c| &c.x).chain([&f.z]) {
        assert_eq!(&text[e.span().start()..e.span().end()], e.as_str());
    }
    // An error from a late capture still points at its own line.
    let err = f.b[1].x.evaluate_into::<bool>(&Context::new()).unwrap_err();
    assert_eq!(err.line(), Some(12), "{err}");
}

#[test]
fn body_captures_a_block() {
    #[derive(Deserialize, Debug)]
    struct Page {
        title: String,
    }
    #[derive(Deserialize, Debug)]
    struct C {
        page: BTreeMap<String, hcl::RawBody>,
    }
    let text = "x = 1\npage \"home\" {\n  title = \"Hi ${user}\"\n}\n";
    let c: C = hcl::from_str(text).unwrap();
    let body = &c.page["home"];
    assert_eq!(body.as_str(), "\n  title = \"Hi ${user}\"\n");
    let mut ctx = Context::new();
    ctx.declare_var("user", "ann");
    let page: Page = body.deserialize_with(&ctx).unwrap();
    assert_eq!(page.title, "Hi ann");
    assert_eq!(
        body.evaluate(&ctx).unwrap().to_string(),
        "{ title = \"Hi ann\" }"
    );
    let err = body.deserialize_with::<Page>(&Context::new()).unwrap_err();
    assert_eq!((err.line(), err.column()), (Some(3), Some(17)), "{err}");
}

#[test]
fn from_value_and_to_value() {
    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    struct S {
        name: String,
        ports: Vec<u16>,
        mode: Option<String>,
    }
    let s = S {
        name: "a".into(),
        ports: vec![1, 2],
        mode: None,
    };
    let v = hcl::to_value(&s).unwrap();
    assert_eq!(
        v.to_string(),
        "{ name = \"a\", ports = [1, 2], mode = null }"
    );
    assert_eq!(hcl::from_value::<S>(v).unwrap(), s);
    let mut ctx = Context::new();
    ctx.declare_var("s", hcl::to_value(&s).unwrap());
    let m: BTreeMap<String, u16> = hcl::from_str_with("p = s.ports[1]\n", &ctx).unwrap();
    assert_eq!(m["p"], 2);
}

#[test]
fn from_slice_and_reader() {
    let m: BTreeMap<String, u8> = hcl::from_slice(b"a = 1\n").unwrap();
    assert_eq!(m["a"], 1);
    let m: BTreeMap<String, u8> = hcl::from_reader(std::io::Cursor::new("a = 2\n")).unwrap();
    assert_eq!(m["a"], 2);
    let err = hcl::from_slice::<BTreeMap<String, u8>>(b"a = \xff\n").unwrap_err();
    assert!(err.is_syntax(), "{err}");
}

#[test]
fn input_size_limit() {
    use serde::Deserialize as _;
    let src = "a = 1\nb = 2\n"; // 12 bytes
    let ok = hcl::Deserializer::from_str(src).with_max_input_len(12);
    assert_eq!(BTreeMap::<String, u8>::deserialize(ok).unwrap()["b"], 2);
    for de in [
        hcl::Deserializer::from_str(src).with_max_input_len(11),
        hcl::Deserializer::from_slice(src.as_bytes()).with_max_input_len(11),
    ] {
        let err = BTreeMap::<String, u8>::deserialize(de).unwrap_err();
        assert!(err.is_syntax(), "{err}");
        assert!(err.to_string().starts_with("input too large"), "{err}");
        // The first byte past the limit: the newline ending line 2.
        assert_eq!((err.line(), err.column()), (Some(2), Some(6)), "{err}");
    }
}

/// A reader that yields `x` forever, counting what it gave.
struct Endless(u64);

impl std::io::Read for Endless {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        buf.fill(b'x');
        self.0 += buf.len() as u64;
        Ok(buf.len())
    }
}

#[test]
fn from_reader_stops_reading_past_the_input_limit() {
    let mut endless = Endless(0);
    let err = hcl::from_reader::<_, Value>(&mut endless).unwrap_err();
    assert!(err.to_string().starts_with("input too large"), "{err}");
    let limit = hcl_grammar::ParseOptions::DEFAULT_MAX_INPUT_LEN as u64;
    assert!(
        endless.0 > limit && endless.0 <= limit + (1 << 20),
        "read {} bytes",
        endless.0
    );
}

#[test]
fn option_expression_captures_the_source_with_or_without_context() {
    #[derive(Deserialize, Debug)]
    struct C {
        a: Option<RawExpression>,
        b: Option<RawExpression>,
        c: Option<RawExpression>,
    }
    let text = "a = x + 1\nb = null\nc = upper(\"q\")\n";
    let c: C = hcl::from_str(text).unwrap();
    assert_eq!(c.a.unwrap().as_str(), "x + 1");
    assert!(c.b.is_none());
    assert_eq!(c.c.unwrap().as_str(), "upper(\"q\")");
    let mut ctx = Context::with_stdlib();
    ctx.declare_var("x", 1);
    let c: C = hcl::from_str_with(text, &ctx).unwrap();
    assert_eq!(c.a.unwrap().as_str(), "x + 1");
    assert_eq!(c.c.unwrap().as_str(), "upper(\"q\")");
}

#[test]
fn functions_without_context_are_evaluation_errors() {
    let err =
        hcl::from_str::<BTreeMap<String, String>>("a = \"ok\"\nb = upper(\"x\")\n").unwrap_err();
    assert!(err.is_eval(), "{err}");
    assert_eq!((err.line(), err.column()), (Some(2), Some(5)), "{err}");
    assert_eq!(err.path(), Some("b"));
}

#[test]
fn deep_values_from_the_context_stop_at_the_depth_limit() {
    let mut v = Value::from(1);
    for _ in 0..1000 {
        v = Value::Array(vec![v]);
    }
    let mut ctx = Context::new();
    ctx.declare_var("deep", v);
    let err = hcl::from_str_with::<Value>("x = deep\n", &ctx).unwrap_err();
    assert!(err.is_data(), "{err}");
    assert!(
        err.message().contains("nested more than 128 levels"),
        "{err}"
    );
    assert_eq!(err.line(), Some(1));
}
