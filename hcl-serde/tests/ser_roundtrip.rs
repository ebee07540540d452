//! The serializer: `from_str::<T>(&to_string(&x)?)? == x` over many shapes
//! (hand-written typed configs; generated values are in ser_generated.rs),
//! and every output already in the reference formatter's layout:
//! `hcl-oracle batch-fmt` (hashicorp/hcl's `hclwrite.Format`) leaves it
//! byte for byte as it is.
//! The oracle check is skipped, with a message, when the oracle is absent.

#![allow(clippy::expect_used, clippy::unwrap_used)]

mod ser_support;

use hcl::ser::{Attribute, Block};
use hcl::{Number, Value};
use ser_support::{assert_formatted, round_trip};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
struct Service {
    #[serde(rename = "$label")]
    name: String,
    port: u16,
    #[serde(default)]
    hosts: Vec<String>,
    timeout: Option<f64>,
    #[serde(default)]
    health: Vec<Check>,
}

#[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
struct Check {
    path: String,
    interval: u32,
}

#[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
#[serde(rename_all = "snake_case")]
enum Mode {
    Fast,
    Careful,
}

#[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
enum Storage {
    Memory,
    Disk { path: String, size_mb: u64 },
    Remote(String),
    Pair(u8, u8),
}

#[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
struct Config {
    name: String,
    version: u32,
    debug: bool,
    ratio: f64,
    mode: Mode,
    tags: BTreeMap<String, String>,
    limits: Option<BTreeMap<String, i64>>,
    service: Vec<Service>,
    storage: Storage,
}

fn config() -> Config {
    Config {
        name: "demo \"quoted\" ${not_interp} %{nor_directive} \\ back".into(),
        version: 3,
        debug: false,
        ratio: 0.1,
        mode: Mode::Careful,
        tags: BTreeMap::from([
            ("env".into(), "prod".into()),
            ("owner team".into(), "ops\nline two\ttab".into()),
            ("null".into(), "a key that is a keyword".into()),
        ]),
        limits: None,
        service: vec![
            Service {
                name: "web".into(),
                port: 8080,
                hosts: vec!["a.example".into(), "b.example".into()],
                timeout: Some(2.5),
                health: vec![
                    Check {
                        path: "/healthz".into(),
                        interval: 10,
                    },
                    Check {
                        path: "/ready".into(),
                        interval: 5,
                    },
                ],
            },
            Service {
                name: "db \u{e9}l\u{e8}ve \u{1F600}".into(),
                port: 5432,
                hosts: vec![],
                timeout: None,
                health: vec![],
            },
        ],
        storage: Storage::Disk {
            path: "/var/data".into(),
            size_mb: u64::MAX,
        },
    }
}

#[test]
fn a_config_round_trips() {
    let text = round_trip(&config());
    assert_formatted("config", &[text]);
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Resource {
    ami: String,
    count: Option<u32>,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Module {
    resource: BTreeMap<String, BTreeMap<String, Resource>>,
    variable: BTreeMap<String, Variable>,
    locals: Attribute<BTreeMap<String, Value>>,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Variable {
    default: Option<Value>,
    description: Option<String>,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Labelled {
    #[serde(rename = "$labels")]
    labels: Vec<String>,
    on: bool,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Multi {
    thing: Vec<Labelled>,
    forced: Block<BTreeMap<String, u8>>,
    point: Attribute<Check>,
    points: Attribute<Vec<Check>>,
}

#[test]
fn labelled_blocks_and_wrappers_round_trip() {
    let module = Module {
        resource: BTreeMap::from([(
            "aws_instance".into(),
            BTreeMap::from([
                (
                    "web".into(),
                    Resource {
                        ami: "ami-1".into(),
                        count: Some(2),
                    },
                ),
                (
                    "db".into(),
                    Resource {
                        ami: "ami-2".into(),
                        count: None,
                    },
                ),
            ]),
        )]),
        variable: BTreeMap::from([(
            "region".into(),
            Variable {
                default: Some(Value::from("eu-west-1")),
                description: None,
            },
        )]),
        locals: Attribute(BTreeMap::from([("x".into(), Value::from(vec![1, 2]))])),
    };
    let multi = Multi {
        thing: vec![
            Labelled {
                labels: vec!["a".into(), "b c".into()],
                on: true,
            },
            Labelled {
                labels: vec![],
                on: false,
            },
        ],
        forced: Block(BTreeMap::from([("k".into(), 1)])),
        point: Attribute(Check {
            path: "p".into(),
            interval: 1,
        }),
        points: Attribute(vec![Check {
            path: "q".into(),
            interval: 2,
        }]),
    };
    let a = round_trip(&module);
    assert!(a.contains("resource \"aws_instance\" \"db\" {"), "{a}");
    assert!(a.contains("locals = {"), "{a}");
    let b = round_trip(&multi);
    assert!(b.contains("thing \"a\" \"b c\" {"), "{b}");
    assert!(b.contains("forced {\n"), "{b}");
    assert!(b.contains("point = {\n"), "{b}");
    assert!(b.contains("points = [\n"), "{b}");
    assert_formatted("labelled", &[a, b]);
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Numbers {
    small: i8,
    big: u128,
    neg: i128,
    f: f64,
    tiny: f64,
    huge: f64,
    f32: f32,
    exact: Number,
    exact_value: Value,
}

#[test]
fn numbers_are_exact() {
    let exact = Number::from_literal("0.30").expect("literal");
    let n = Numbers {
        small: -128,
        big: u128::MAX,
        neg: i128::MIN,
        f: -0.1,
        tiny: 1e-40,
        huge: 1.5e300,
        f32: 0.1,
        exact,
        exact_value: Value::Number(
            Number::from_literal("123456789012345678901234.5678").expect("literal"),
        ),
    };
    let text = round_trip(&n);
    // A decimal is written exactly: the literal `0.30` is the number 0.3,
    // which the reference prints as `0.3`.
    assert!(text.contains("exact       = 0.3\n"), "{text}");
    assert!(text.contains("f32         = 0.1\n"), "{text}");
    assert!(text.contains("tiny        = 1e-40\n"), "{text}");
    assert_formatted("numbers", &[text]);
}

#[test]
fn strings_read_back_as_themselves() {
    let odd = [
        "",
        "plain",
        "quote \" and backslash \\",
        "${interp} and %{directive} and $${already} and %%{too}",
        "$ { not } % { either } $$ %%",
        "trailing $",
        "trailing %",
        "newline\nreturn\rtab\t",
        "\u{0}\u{1}\u{7f}\u{1b}[0m",
        "unicode: \u{e9}\u{4e2d}\u{1F600}",
        "<<EOF\nnot a heredoc\nEOF",
        "# not a comment",
        "back\\slash${x}",
    ];
    let mut texts = Vec::new();
    for s in odd {
        let mut m = BTreeMap::new();
        m.insert("s".to_owned(), s.to_owned());
        m.insert("k".to_owned(), s.to_owned());
        texts.push(round_trip(&m));
        let mut keyed = BTreeMap::new();
        keyed.insert(
            "obj".to_owned(),
            BTreeMap::from([(s.to_owned(), s.to_owned())]),
        );
        texts.push(round_trip(&keyed));
    }
    assert_formatted("strings", &texts);
}

#[test]
fn values_serialize_as_attributes() {
    let v = Value::from_iter([
        ("a", Value::from(1)),
        (
            "b",
            Value::from_iter([
                ("x", Value::from(vec![Value::from(1), Value::Null])),
                ("nested", Value::from_iter([("deep", Value::Bool(true))])),
            ]),
        ),
        (
            "list_of_objects",
            Value::Array(vec![Value::from_iter([("k", 1)])]),
        ),
    ]);
    let text = round_trip(&v);
    assert!(text.contains("b = {\n"), "{text}");
    let j: serde_json::Value = serde_json::json!({"a": [1, {"b": null}], "c": {"d e": "f"}});
    let jt = hcl::to_string(&j).expect("serialize");
    let back: serde_json::Value = hcl::from_str(&jt).expect("read back");
    assert_eq!(back, j, "{jt}");
    assert_formatted("values", &[text, jt]);
}

#[test]
fn what_hcl_cannot_hold_is_an_error() {
    let cases: Vec<(String, hcl::Result<String>)> = vec![
        ("a number".into(), hcl::to_string(&1)),
        ("a sequence".into(), hcl::to_string(&vec![1])),
        (
            "a name that is not an identifier".into(),
            hcl::to_string(&BTreeMap::from([("a b", 1)])),
        ),
        (
            "a map key that is a sequence".into(),
            hcl::to_string(&BTreeMap::from([("a", BTreeMap::from([(vec![1], 1)]))])),
        ),
        (
            "a NaN".into(),
            hcl::to_string(&BTreeMap::from([("a", f64::NAN)])),
        ),
        (
            "a scalar block".into(),
            hcl::to_string(&BTreeMap::from([("a", Block(1))])),
        ),
    ];
    for (what, r) in cases {
        let e = r.expect_err(&what);
        assert_eq!(e.category(), hcl::Category::Data, "{what}: {e}");
    }
    // Errors name the field.
    #[derive(Serialize)]
    struct Inner {
        x: f64,
    }
    #[derive(Serialize)]
    struct Outer {
        inner: Vec<Inner>,
    }
    let e = hcl::to_string(&Outer {
        inner: vec![Inner { x: 1.0 }, Inner { x: f64::INFINITY }],
    })
    .expect_err("infinity");
    assert_eq!(e.path(), Some("inner[1].x"), "{e}");
    let e = hcl::to_string(&BTreeMap::from([("a b", 1)])).expect_err("name");
    assert_eq!(e.path(), Some("[\"a b\"]"), "{e}");
    // Nesting beyond the limit is an error, not a stack overflow.
    let mut v = Value::from(1);
    for _ in 0..10_000 {
        v = Value::Array(vec![v]);
    }
    let deep = Value::from_iter([("a", v)]);
    assert!(hcl::to_string(&deep).is_err());
}

#[test]
fn writers_and_the_serializer_agree() {
    let c = config();
    let text = hcl::to_string(&c).expect("to_string");
    assert_eq!(hcl::to_vec(&c).expect("to_vec"), text.as_bytes());
    let mut out = Vec::new();
    hcl::to_writer(&mut out, &c).expect("to_writer");
    assert_eq!(out, text.as_bytes());
    let mut ser = hcl::Serializer::new(Vec::new());
    c.serialize(&mut ser).expect("Serializer");
    assert_eq!(ser.into_inner(), text.as_bytes());
}

#[test]
fn other_formats_see_numbers_and_wrappers_as_before() {
    let n = Numbers {
        small: 1,
        big: 2,
        neg: -3,
        f: 0.5,
        tiny: 1e-40,
        huge: 1e300,
        f32: 0.25,
        exact: Number::from(7),
        exact_value: Value::from(8),
    };
    let j = serde_json::to_value(&n).expect("json");
    assert_eq!(j["exact"], serde_json::json!(7));
    let w = serde_json::to_value(Block(Attribute(5))).expect("json");
    assert_eq!(w, serde_json::json!(5));
}

#[derive(Serialize, Deserialize, Debug)]
struct Captures {
    when: hcl::RawExpression,
    template: hcl::RawBody,
    nested: Vec<Captures2>,
}

#[derive(Serialize, Deserialize, Debug)]
struct Captures2 {
    #[serde(rename = "$label")]
    name: String,
    body: hcl::RawBody,
}

#[test]
fn captures_are_written_as_their_source() {
    // Canonical input: written back byte for byte.
    let text = r#"when = request.size > limit && upper(var.x) != "${y}"

template {
  title = "Hello, ${name}"
  items = [for i in range(3) : i * 2]
}

nested "a" {
  body {
    x = 1
  }
}

nested "b" {
  body {}
}
"#;
    let c: Captures = hcl::from_str(text).expect("read");
    let out = hcl::to_string(&c).expect("write");
    assert_eq!(out, text);
    assert_formatted("captures", &[out]);
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Meters(f64);

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Pair(i32, String);

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Shapes {
    storage: Storage,
    storages: Vec<Storage>,
    maybe_check: Option<Check>,
    nullable: BTreeMap<String, Option<i32>>,
    newtype: Meters,
    tuple_struct: Pair,
    tuple: (u8, String, bool),
    c: char,
    nested_lists: Vec<Vec<i64>>,
    map_of_lists: BTreeMap<String, Vec<String>>,
    map_of_checks: BTreeMap<String, Vec<Check>>,
    empty_map: BTreeMap<String, Check>,
    empty_list: Vec<Check>,
}

#[test]
fn serde_shapes_round_trip() {
    let storages = [
        Storage::Memory,
        Storage::Disk {
            path: "/d".into(),
            size_mb: 1,
        },
        Storage::Remote("r".into()),
        Storage::Pair(1, 2),
    ];
    let mut texts = Vec::new();
    for (i, s) in storages.iter().enumerate() {
        let shapes = Shapes {
            storage: s.clone(),
            storages: storages.to_vec(),
            maybe_check: (i % 2 == 0).then(|| Check {
                path: "/x".into(),
                interval: 3,
            }),
            nullable: BTreeMap::from([("a".into(), None), ("b".into(), Some(2))]),
            newtype: Meters(1.25),
            tuple_struct: Pair(-1, "one".into()),
            tuple: (255, "t".into(), true),
            c: '\u{1F600}',
            nested_lists: vec![vec![], vec![1, -2, 3]],
            map_of_lists: BTreeMap::from([("k".into(), vec!["v".into()])]),
            map_of_checks: BTreeMap::from([(
                "svc".into(),
                vec![
                    Check {
                        path: "/1".into(),
                        interval: 1,
                    },
                    Check {
                        path: "/2".into(),
                        interval: 2,
                    },
                ],
            )]),
            empty_map: BTreeMap::new(),
            empty_list: Vec::new(),
        };
        texts.push(round_trip(&shapes));
        // A top-level enum is a body with one block type.
        texts.push(round_trip(&BTreeMap::from([(
            "only".to_owned(),
            s.clone(),
        )])));
    }
    assert_formatted("shapes", &texts);
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
#[serde(tag = "kind")]
enum Tagged {
    Http { port: u16 },
    Tcp { port: u16, tls: bool },
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Common {
    region: String,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct WithFlatten {
    #[serde(flatten)]
    common: Common,
    listener: Vec<Tagged>,
    extra: Tagged,
}

#[test]
fn internally_tagged_enums_and_flatten_round_trip() {
    let x = WithFlatten {
        common: Common {
            region: "eu".into(),
        },
        listener: vec![
            Tagged::Http { port: 80 },
            Tagged::Tcp {
                port: 5432,
                tls: true,
            },
        ],
        extra: Tagged::Http { port: 8080 },
    };
    let text = round_trip(&x);
    assert_formatted("tagged", &[text]);
}
