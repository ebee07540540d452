//! HCL's JSON syntax through serde: the same targets as the native syntax
//! read the same data (expected values are the native deserializer's
//! results on the equivalent native text, or written from the JSON spec).

#![allow(clippy::expect_used, clippy::unwrap_used)]

use serde::Deserialize;
use std::collections::BTreeMap;

#[derive(Deserialize, Debug, PartialEq)]
struct Config {
    name: String,
    service: Vec<Service>,
}

#[derive(Deserialize, Debug, PartialEq)]
struct Service {
    #[serde(rename = "$label")]
    name: String,
    port: u16,
    #[serde(default)]
    listener: Vec<Listener>,
}

#[derive(Deserialize, Debug, PartialEq)]
struct Listener {
    protocol: String,
}

const README_NATIVE: &str = r#"
name = "shop-${env}"

service "web" {
  port = 8000 + 80
  listener { protocol = "http" }
  listener { protocol = upper("https") }
}
"#;

const README_JSON: &str = r#"{
  "name": "shop-${env}",
  "service": {
    "web": {
      "port": "${8000 + 80}",
      "listener": [{"protocol": "http"}, {"protocol": "${upper(\"https\")}"}]
    }
  }
}"#;

fn ctx() -> hcl::Context {
    let mut ctx = hcl::Context::with_stdlib();
    ctx.declare_var("env", "prod");
    ctx
}

#[test]
fn readme_example_in_json_reads_like_the_native_one() {
    let native: Config = hcl::from_str_with(README_NATIVE, &ctx()).unwrap();
    let json: Config = hcl::from_json_str_with(README_JSON, &ctx()).unwrap();
    assert_eq!(json, native);
    assert_eq!(json.service[0].listener[1].protocol, "HTTPS");
}

#[test]
fn labelled_repeated_and_nested_blocks_match_native() {
    let native = r#"
service "web" { port = 80 }
service "api" {
  port = 81
  listener { protocol = "a" }
}
"#;
    let json =
        r#"{"service": {"web": {"port": 80}, "api": {"port": 81, "listener": {"protocol": "a"}}}}"#;
    let a: BTreeMap<String, Vec<Service>> = hcl::from_str(native).unwrap();
    let b: BTreeMap<String, Vec<Service>> = hcl::from_json_str(json).unwrap();
    assert_eq!(a, b);
    // The array form of the same blocks.
    let json2 = r#"{"service": [{"web": {"port": 80}}, {"api": {"port": 81, "listener": [{"protocol": "a"}]}}]}"#;
    let c: BTreeMap<String, Vec<Service>> = hcl::from_json_str(json2).unwrap();
    assert_eq!(a, c);
}

#[derive(Deserialize, Debug, PartialEq)]
struct Resource {
    #[serde(rename = "$labels")]
    labels: Vec<String>,
    ami: String,
}

#[test]
fn labels_take_every_label_level_and_array_bodies_repeat_blocks() {
    let native = r#"
resource "aws_instance" "web" { ami = "a" }
resource "aws_instance" "db" { ami = "b" }
resource "aws_instance" "db" { ami = "c" }
"#;
    let json = r#"{"resource": {"aws_instance": {"web": {"ami": "a"}, "db": [{"ami": "b"}, {"ami": "c"}]}}}"#;
    let a: BTreeMap<String, Vec<Resource>> = hcl::from_str(native).unwrap();
    let b: BTreeMap<String, Vec<Resource>> = hcl::from_json_str(json).unwrap();
    assert_eq!(a, b);
    assert_eq!(b["resource"][2].labels, ["aws_instance", "db"]);
    // Label levels given as arrays of objects are merged.
    let json3 = r#"{"resource": {"aws_instance": [{"web": {"ami": "a"}}, {"db": [{"ami": "b"}, {"ami": "c"}]}]}}"#;
    let c: BTreeMap<String, Vec<Resource>> = hcl::from_json_str(json3).unwrap();
    assert_eq!(a, c);
    // Maps keyed by label read the nested objects directly.
    type Map<T> = BTreeMap<String, T>;
    let m: Map<Map<Map<Map<String>>>> =
        hcl::from_json_str(r#"{"resource": {"aws_instance": {"web": {"ami": "a"}}}}"#).unwrap();
    assert_eq!(m["resource"]["aws_instance"]["web"]["ami"], "a");
}

#[test]
fn a_single_block_and_comments() {
    #[derive(Deserialize, Debug, PartialEq)]
    #[serde(deny_unknown_fields)]
    struct Root {
        service: Service,
    }
    let r: Root =
        hcl::from_json_str(r#"{"//": "a comment", "service": {"web": {"//": "also", "port": 1}}}"#)
            .unwrap();
    assert_eq!(r.service.name, "web");
    assert_eq!(r.service.port, 1);
    let e = hcl::from_json_str::<Root>(r#"{"service": {"web": {"port": 1}, "api": {"port": 2}}}"#)
        .unwrap_err();
    assert!(e.to_string().contains("expected one block, found 2"), "{e}");
}

#[test]
fn strings_are_literal_without_a_context_and_templates_with_one() {
    let text = r#"{"a": "${1 + 2}", "b": "$${x}", "n": 12.50}"#;
    let lit: BTreeMap<String, hcl::Value> = hcl::from_json_str(text).unwrap();
    assert_eq!(lit["a"], "${1 + 2}");
    assert_eq!(lit["b"], "$${x}");
    let t: BTreeMap<String, hcl::Value> =
        hcl::from_json_str_with(text, &hcl::Context::new()).unwrap();
    assert_eq!(t["a"], 3);
    assert_eq!(t["b"], "${x}");
    // Numbers are exact.
    assert_eq!(t["n"].to_string(), "12.5");
}

#[test]
fn an_expression_captured_from_json_evaluates_later() {
    #[derive(Deserialize)]
    struct C {
        e: hcl::RawExpression,
    }
    let c: C = hcl::from_json_str_with(r#"{"e": "${x * 2}"}"#, &hcl::Context::new()).unwrap();
    let mut ctx = hcl::Context::new();
    ctx.declare_var("x", 21);
    assert_eq!(c.e.evaluate(&ctx).unwrap(), 42);
}

#[test]
fn errors_point_into_the_json_text() {
    // Positions from the reference (`hcl-oracle json-body`).
    // A syntax error: trailing comma, at the comma (reference: 2:9).
    let e = hcl::from_json_str::<hcl::Value>("{\n  \"a\": 1,\n}").unwrap_err();
    assert!(e.is_syntax());
    assert_eq!((e.line(), e.column()), (Some(2), Some(9)), "{e}");
    // An evaluation error inside a template points into the string
    // (reference: "Unknown variable" at 2:12).
    let e = hcl::from_json_str_with::<BTreeMap<String, hcl::Value>>(
        "{\n  \"a\": \"x${nope}\"\n}",
        &hcl::Context::new(),
    )
    .unwrap_err();
    assert!(e.is_eval(), "{e}");
    assert_eq!((e.line(), e.column()), (Some(2), Some(12)), "{e}");
    // A data error has the field path.
    let e = hcl::from_json_str::<Config>(r#"{"name": "n", "service": {"web": {"port": "x"}}}"#)
        .unwrap_err();
    assert!(e.to_string().contains("service"), "{e}");
    // The root must be an object.
    let e = hcl::from_json_str::<hcl::Value>("[1]").unwrap_err();
    assert!(e.to_string().contains("Root value must be object"), "{e}");
}

#[test]
fn from_path_picks_the_syntax_by_extension() {
    let dir = std::env::temp_dir().join(format!("hcl-de-json-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let j = dir.join("c.tf.json");
    let n = dir.join("c.tf");
    std::fs::write(&j, r#"{"port": 1}"#).unwrap();
    std::fs::write(&n, "port = 1\n").unwrap();
    let a: hcl::Value = hcl::from_path(&j, None).unwrap();
    let b: hcl::Value = hcl::from_path(&n, None).unwrap();
    assert_eq!(a, b);
    let e = hcl::from_path::<hcl::Value>(dir.join("missing.json"), None).unwrap_err();
    assert!(e.to_string().contains("missing.json"), "{e}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn ignored_fields_are_never_evaluated() {
    #[derive(Deserialize)]
    struct Only {
        a: u8,
    }
    let o: Only =
        hcl::from_json_str_with(r#"{"a": 1, "b": "${nope()}"}"#, &hcl::Context::new()).unwrap();
    assert_eq!(o.a, 1);
}

#[test]
fn numbers_keep_sign_and_precision() {
    #[derive(Deserialize)]
    struct N {
        a: i64,
        b: f64,
        c: u128,
        v: hcl::Value,
    }
    let n: N = hcl::from_json_str(
        r#"{"a": -5, "b": -1.5e3, "c": 123456789012345678901234567890, "v": [-0, 0.1000, 1e100]}"#,
    )
    .unwrap();
    assert_eq!(
        (n.a, n.b, n.c),
        (-5, -1500.0, 123456789012345678901234567890)
    );
    // The reference keeps `-0` and full precision (go-cty's big floats).
    let exact = hcl::Number::from_literal("1e100").unwrap();
    assert_eq!(n.v[2], hcl::Value::Number(exact));
    assert_eq!(n.v[1].to_string(), "0.1");
}

#[test]
fn spans_options_enums_and_ignored_fields_work_as_for_native() {
    #[derive(Deserialize, Debug, PartialEq)]
    #[serde(rename_all = "lowercase")]
    enum Mode {
        Fast,
        Safe { level: u8 },
    }
    #[derive(Deserialize)]
    struct C {
        port: serde_spanned::Spanned<u16>,
        missing: Option<String>,
        none: Option<String>,
        mode: Mode,
        other: Mode,
        #[serde(default)]
        skipped: serde::de::IgnoredAny,
    }
    let text = r#"{"port": 8080, "none": null, "mode": "fast", "other": {"safe": {"level": 2}}, "skipped": "${boom()}"}"#;
    let c: C = hcl::from_json_str_with(text, &hcl::Context::new()).unwrap();
    // `8080` is bytes 9..13 of the text.
    assert_eq!(c.port.span(), 9..13);
    assert_eq!(*c.port.get_ref(), 8080);
    assert_eq!((c.missing, c.none), (None, None));
    assert_eq!((c.mode, c.other), (Mode::Fast, Mode::Safe { level: 2 }));
    let _ = c.skipped;
}

// Issue 22, item 4: the reference (`hcl-oracle json-body`) reads
// `{"o": {"${\"k\"}": 1}, "p": {"${\"k\"}": "\u0041${1}"}}` with a
// context as `o = {"k": 1}`, `p = {"k": "A1"}`: inside an object with a
// templated key, keys and strings written with escapes are templates too.
#[test]
fn escaped_templates_inside_an_object_with_a_templated_key_are_evaluated() {
    let text = r#"{"o": {"${\"k\"}": 1}, "p": {"${\"k\"}": "\u0041${1}"}}"#;
    let v: hcl::Value = hcl::from_json_str_with(text, &hcl::Context::new()).unwrap();
    assert_eq!(v["o"], hcl::value!({ "k": 1 }));
    assert_eq!(v["p"], hcl::value!({ "k": "A1" }));
    let m: BTreeMap<String, BTreeMap<String, String>> =
        hcl::from_json_str_with(text, &hcl::Context::new()).unwrap();
    assert_eq!(m["p"]["k"], "A1");
}

// The reference (`hcl-oracle json-body --nil-ctx`) normalizes JSON strings
// and object keys (NFC) without a context too: `"e\u0301"` is U+00E9.
#[test]
fn strings_and_keys_are_nfc_without_a_context() {
    let text = "{\"a\": \"e\\u0301\", \"b\": {\"e\\u0301\": \"x\"}, \"c\": \"e\u{301}\"}";
    let v: hcl::Value = hcl::from_json_str(text).unwrap();
    assert_eq!(v["a"], "\u{e9}");
    assert_eq!(v["b"]["\u{e9}"], "x");
    assert_eq!(v["c"], "\u{e9}");
    let file = hcl::schema::File::parse(text, hcl::Syntax::Json).unwrap();
    let attrs = file.body().just_attributes().unwrap();
    assert_eq!(attrs[0].evaluate(None).unwrap(), "\u{e9}");
    assert_eq!(attrs[1].evaluate(None).unwrap()["\u{e9}"], "x");
}

// A repeated key in an object value: the reference (`hcl-oracle
// json-body`, with and without a context) fails evaluating it, "Duplicate
// object attribute" at the second key (1:16); typed targets too. An
// object read as a block body (a struct) is a body: the second property
// is a duplicate argument, also at the second key.
#[test]
fn repeated_keys_in_an_object_value_are_refused() {
    let text = r#"{"o": {"a": 1, "a": 2}}"#;
    let check = |e: hcl::Error| {
        assert!(e.to_string().contains("Duplicate object attribute"), "{e}");
        assert!(e.is_eval(), "{e}");
        assert_eq!((e.line(), e.column()), (Some(1), Some(16)), "{e}");
    };
    check(hcl::from_json_str::<hcl::Value>(text).unwrap_err());
    check(hcl::from_json_str_with::<hcl::Value>(text, &hcl::Context::new()).unwrap_err());
    #[derive(Deserialize, Debug)]
    #[allow(dead_code)]
    struct M {
        o: std::collections::HashMap<String, i64>,
    }
    check(hcl::from_json_str::<M>(text).unwrap_err());
    check(hcl::from_json_str_with::<M>(text, &hcl::Context::new()).unwrap_err());
    #[derive(Deserialize, Debug)]
    #[allow(dead_code)]
    struct V {
        o: hcl::Value,
    }
    check(hcl::from_json_str::<V>(text).unwrap_err());
    // Nested deeper, in an array.
    let e = hcl::from_json_str::<hcl::Value>(r#"{"o": [{"a": 1, "a": 2}]}"#).unwrap_err();
    assert!(e.to_string().contains("Duplicate object attribute"), "{e}");
    assert_eq!((e.line(), e.column()), (Some(1), Some(17)), "{e}");
    // A block body (schema: block `o` with attribute `a`): the reference's
    // "Duplicate argument", at the second key too.
    #[derive(Deserialize, Debug)]
    #[allow(dead_code)]
    struct Inner {
        a: i64,
    }
    #[derive(Deserialize, Debug)]
    #[allow(dead_code)]
    struct B {
        o: Inner,
    }
    let e = hcl::from_json_str::<B>(text).unwrap_err();
    assert_eq!((e.line(), e.column()), (Some(1), Some(16)), "{e}");
    // Keys equal once in NFC (as object keys are): `"é"` then `"e\u0301"`
    // (reference, with and without a context: at 1:16, the second key).
    let nfc = "{\"o\": {\"\u{e9}\": 1, \"e\\u0301\": 2}}";
    for e in [
        hcl::from_json_str::<hcl::Value>(nfc).unwrap_err(),
        hcl::from_json_str_with::<hcl::Value>(nfc, &hcl::Context::new()).unwrap_err(),
        hcl::from_json_str::<M>(nfc).unwrap_err(),
    ] {
        check(e);
    }
    // As body properties (not object keys) they are two names, as the
    // reference's body content has them.
    #[derive(Deserialize, Debug)]
    struct Two {
        #[serde(rename = "\u{e9}")]
        composed: i64,
        #[serde(rename = "e\u{301}")]
        decomposed: i64,
    }
    let t: Two = hcl::from_json_str("{\"\u{e9}\": 1, \"e\\u0301\": 2}").unwrap();
    assert_eq!((t.composed, t.decomposed), (1, 2));
    // Distinct keys are fine.
    let v: hcl::Value = hcl::from_json_str(r#"{"o": {"a": 1, "b": 2}}"#).unwrap();
    assert_eq!(v["o"], hcl::value!({ "a": 1, "b": 2 }));
}

// The root of a file read into a `Value` is read as the reference's
// `JustAttributes`, which requires an object: a root array (of objects,
// empty or not) is refused, "Incorrect JSON value type" at 1:1. Read
// into a struct (the reference's schema decoding), a root array of
// objects is one body, merged.
#[test]
fn a_root_array_is_refused_into_a_value_and_merged_into_a_struct() {
    for text in [r#"[{"a": 1}, {"b": 2}]"#, "[]", r#"[{"a": 1}]"#] {
        let e = hcl::from_json_str::<hcl::Value>(text).unwrap_err();
        assert!(
            e.to_string().contains("JSON object is required here"),
            "{text}: {e}"
        );
        assert_eq!((e.line(), e.column()), (Some(1), Some(1)), "{text}: {e}");
        let e = hcl::from_json_str_with::<hcl::Value>(text, &hcl::Context::new()).unwrap_err();
        assert!(
            e.to_string().contains("JSON object is required here"),
            "{e}"
        );
        let e = hcl::from_json_str::<BTreeMap<String, hcl::Value>>(text).unwrap_err();
        assert!(
            e.to_string().contains("JSON object is required here"),
            "{e}"
        );
    }
    #[derive(Deserialize, Debug, PartialEq)]
    struct AB {
        a: i64,
        b: i64,
    }
    let ab: AB = hcl::from_json_str(r#"[{"a": 1}, {"b": 2}]"#).unwrap();
    assert_eq!(ab, AB { a: 1, b: 2 });
    // An object root into a Value is unchanged.
    let v: hcl::Value = hcl::from_json_str(r#"{"a": 1}"#).unwrap();
    assert_eq!(v["a"], 1);
}

/// A body's names may appear once, in a small body and a large one (whose
/// names are checked at once), comments (`"//"`, repeatable) aside; an
/// object value's keys likewise, `"//"` included.
#[test]
fn repeated_names_in_small_and_large_bodies() {
    for n in [3, 40] {
        let mut props: Vec<String> = (0..n).map(|i| format!("\"k{i}\": {i}")).collect();
        props.push("\"//\": \"one\"".to_owned());
        props.push("\"//\": \"two\"".to_owned());
        let text = format!("{{{}}}", props.join(", "));
        let v: hcl::Value = hcl::from_json_str(&text).unwrap();
        assert_eq!(v.as_object().map(|o| o.len()), Some(n), "{text}");
        // In an object value `"//"` is a key as any other.
        let e = hcl::from_json_str::<hcl::Value>(&format!("{{\"o\": {text}}}")).unwrap_err();
        assert!(e.to_string().contains("named \"//\" was already"), "{e}");
        props.pop();
        props.push("\"k1\": 7".to_owned());
        let text = format!("{{{}}}", props.join(", "));
        let e = hcl::from_json_str::<hcl::Value>(&text).unwrap_err();
        let first = text.find("\"k1\"").unwrap();
        assert!(
            e.to_string().contains(&format!(
                "duplicate property `k1` (first defined at byte {first})"
            )),
            "{e}"
        );
        let e = hcl::from_json_str::<hcl::Value>(&format!("{{\"o\": {text}}}")).unwrap_err();
        assert!(e.to_string().contains("Duplicate object attribute"), "{e}");
    }
}

/// Arrays and objects of scalars (built whole for a `Value` target) and
/// of anything else (visited) read as the same values of the native text.
#[test]
fn scalar_arrays_read_like_native_ones() {
    let json = r#"{"a": [null, true, false, 0, -7, 123456789012345678, "x", ""],
        "b": [1.5, "y"], "c": [1234567890123456789, -0], "d": [[1], {"k": "v"}],
        "e": [], "f": {"k": 1, "n": {"m": [true, 0.25]}, "x": 1e3, "t": "${a}"},
        "g": {"$__hcl_private_Number": "1.5"}}"#;
    let native = r#"
a = [null, true, false, 0, -7, 123456789012345678, "x", ""]
b = [1.5, "y"]
c = [1234567890123456789, -0]
d = [[1], { k = "v" }]
e = []
f = { k = 1, n = { m = [true, 0.25] }, x = 1000, t = "$${a}" }
g = { "$__hcl_private_Number" = "1.5" }
"#;
    let from_json: hcl::Value = hcl::from_json_str(json).unwrap();
    let from_native: hcl::Value = hcl::from_str(native).unwrap();
    assert_eq!(from_json, from_native);
    #[derive(Deserialize, Debug, PartialEq)]
    struct T {
        a: Option<hcl::Value>,
        e: Option<hcl::Value>,
    }
    let t: T = hcl::from_json_str(json).unwrap();
    assert_eq!(
        t.a.as_ref(),
        from_native.as_object().and_then(|o| o.get("a"))
    );
    assert_eq!(t.e, Some(hcl::Value::Array(vec![])));
    // Keys the same once normalized (NFC) are an error, as before.
    assert!(hcl::from_json_str::<hcl::Value>(r#"{"o": {"\u00e9": 1, "e\u0301": 2}}"#).is_err());
}
