//! The mapping from HCL to serde's data model: one test per rule.
//! Expected values follow the HCL spec and the decisions in the crate docs.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use serde::Deserialize;
use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};

#[derive(Deserialize, Debug, PartialEq)]
struct Listener {
    port: u16,
}

#[derive(Deserialize, Debug, PartialEq)]
struct Service {
    #[serde(rename = "$label")]
    name: String,
    replicas: u32,
    #[serde(default)]
    listener: Vec<Listener>,
}

#[derive(Deserialize, Debug, PartialEq)]
struct Config {
    version: String,
    service: Vec<Service>,
}

#[test]
fn body_is_a_struct_attributes_are_fields_blocks_are_fields() {
    let text = r#"
version = "1"
service "web" {
  replicas = 2
  listener { port = 80 }
  listener { port = 443 }
}
service "worker" {
  replicas = 1
}
"#;
    let c: Config = hcl::from_str(text).unwrap();
    assert_eq!(
        c,
        Config {
            version: "1".into(),
            service: vec![
                Service {
                    name: "web".into(),
                    replicas: 2,
                    listener: vec![Listener { port: 80 }, Listener { port: 443 }],
                },
                Service {
                    name: "worker".into(),
                    replicas: 1,
                    listener: vec![],
                },
            ],
        }
    );
}

#[test]
fn one_block_reads_as_a_sequence_when_the_target_is_one() {
    #[derive(Deserialize, Debug, PartialEq)]
    struct C {
        listener: Vec<Listener>,
    }
    let c: C = hcl::from_str("listener {\n  port = 1\n}\n").unwrap();
    assert_eq!(c.listener, [Listener { port: 1 }]);
}

#[test]
fn one_block_reads_as_a_single_value_otherwise() {
    #[derive(Deserialize, Debug, PartialEq)]
    struct C {
        listener: Listener,
    }
    let c: C = hcl::from_str("listener {\n  port = 1\n}\n").unwrap();
    assert_eq!(c.listener, Listener { port: 1 });
}

#[test]
fn a_second_block_for_a_single_value_is_an_error_at_the_second() {
    #[derive(Deserialize, Debug)]
    #[allow(dead_code)]
    struct C {
        listener: Listener,
    }
    let err = hcl::from_str::<C>("listener { port = 1 }\nlistener { port = 2 }\n").unwrap_err();
    assert!(err.is_data(), "{err}");
    assert_eq!((err.line(), err.column()), (Some(2), Some(1)), "{err}");
    assert!(
        err.message().contains("duplicate `listener` block"),
        "{err}"
    );
}

#[test]
fn labels_as_nested_map_keys() {
    #[derive(Deserialize, Debug, PartialEq)]
    struct Resource {
        ami: String,
    }
    #[derive(Deserialize, Debug, PartialEq)]
    struct C {
        resource: BTreeMap<String, BTreeMap<String, Resource>>,
    }
    let text = r#"
resource "aws_instance" "web" { ami = "a" }
resource "aws_instance" "db" { ami = "b" }
resource "aws_s3_bucket" "logs" { ami = "c" }
"#;
    let c: C = hcl::from_str(text).unwrap();
    assert_eq!(c.resource["aws_instance"]["web"].ami, "a");
    assert_eq!(c.resource["aws_instance"]["db"].ami, "b");
    assert_eq!(c.resource["aws_s3_bucket"]["logs"].ami, "c");
}

#[test]
fn map_key_then_label_field() {
    #[derive(Deserialize, Debug, PartialEq)]
    struct Resource {
        #[serde(rename = "$label")]
        name: String,
        ami: String,
    }
    #[derive(Deserialize, Debug, PartialEq)]
    struct C {
        resource: HashMap<String, Vec<Resource>>,
    }
    let text = "resource \"aws_instance\" \"web\" { ami = \"a\" }\nresource \"aws_instance\" \"db\" { ami = \"b\" }\n";
    let c: C = hcl::from_str(text).unwrap();
    let r = &c.resource["aws_instance"];
    assert_eq!(r.len(), 2);
    assert_eq!((r[0].name.as_str(), r[0].ami.as_str()), ("web", "a"));
    assert_eq!((r[1].name.as_str(), r[1].ami.as_str()), ("db", "b"));
}

#[test]
fn all_labels_field() {
    #[derive(Deserialize, Debug, PartialEq)]
    struct Resource {
        #[serde(rename = "$labels")]
        labels: Vec<String>,
    }
    #[derive(Deserialize, Debug, PartialEq)]
    struct C {
        resource: Vec<Resource>,
    }
    let c: C = hcl::from_str("resource \"a\" \"b\" {}\nresource c {}\n").unwrap();
    assert_eq!(c.resource[0].labels, ["a", "b"]);
    assert_eq!(c.resource[1].labels, ["c"]);
}

#[test]
fn label_then_labels_left_to_right() {
    #[derive(Deserialize, Debug, PartialEq)]
    struct B {
        #[serde(rename = "$label")]
        first: String,
        #[serde(rename = "$labels")]
        rest: Vec<String>,
    }
    #[derive(Deserialize, Debug, PartialEq)]
    struct C {
        b: B,
    }
    let c: C = hcl::from_str("b \"x\" \"y\" \"z\" {}\n").unwrap();
    assert_eq!(c.b.first, "x");
    assert_eq!(c.b.rest, ["y", "z"]);
}

#[test]
fn unconsumed_label_is_an_error_at_the_label() {
    #[derive(Deserialize, Debug)]
    #[allow(dead_code)]
    struct C {
        listener: Listener,
    }
    let err = hcl::from_str::<C>("listener \"tcp\" {\n  port = 1\n}\n").unwrap_err();
    assert!(err.is_data());
    assert_eq!((err.line(), err.column()), (Some(1), Some(10)), "{err}");
    assert!(err.message().contains("unexpected label \"tcp\""), "{err}");
}

#[test]
fn borrowing_str_and_cow() {
    #[derive(Deserialize, Debug)]
    struct C<'a> {
        name: &'a str,
        #[serde(borrow)]
        cow: Cow<'a, str>,
        #[serde(borrow)]
        escaped: Cow<'a, str>,
    }
    let text = "name = \"web\"\ncow = \"plain\"\nescaped = \"a\\tb\"\n";
    let c: C = hcl::from_str(text).unwrap();
    assert_eq!(c.name, "web");
    assert!(matches!(c.cow, Cow::Borrowed("plain")), "{:?}", c.cow);
    assert!(
        matches!(c.escaped, Cow::Owned(ref s) if s == "a\tb"),
        "{:?}",
        c.escaped
    );
}

#[test]
fn expressions_over_literals_evaluate_without_context() {
    #[derive(Deserialize, Debug, PartialEq)]
    struct C {
        sum: i64,
        s: String,
        list: Vec<i64>,
    }
    let c: C =
        hcl::from_str("sum = 1 + 2\ns = \"a${\"b\"}\"\nlist = [for x in [1,2]: x*2]\n").unwrap();
    assert_eq!(
        c,
        C {
            sum: 3,
            s: "ab".into(),
            list: vec![2, 4]
        }
    );
}

#[test]
fn variables_without_context_are_evaluation_errors_at_their_position() {
    #[derive(Deserialize, Debug)]
    #[allow(dead_code)]
    struct C {
        name: String,
    }
    let err = hcl::from_str::<C>("name = \"x-${env}\"\n").unwrap_err();
    assert!(err.is_eval(), "{err}");
    assert_eq!((err.line(), err.column()), (Some(1), Some(13)), "{err}");
    assert_eq!(err.path(), Some("name"));
}

#[test]
fn with_context() {
    let mut ctx = hcl::Context::new();
    ctx.declare_var("env", "prod");
    let m: BTreeMap<String, String> = hcl::from_str_with("name = \"x-${env}\"\n", &ctx).unwrap();
    assert_eq!(m["name"], "x-prod");
}

#[test]
fn unused_fields_are_never_evaluated() {
    #[derive(Deserialize, Debug, PartialEq)]
    struct C {
        used: u8,
        #[serde(default)]
        ignored: serde::de::IgnoredAny,
    }
    let c: C =
        hcl::from_str("used = 1\nunknown = nope.nope\nignored = 1 / 0\nblock { x = y }\n").unwrap();
    assert_eq!(c.used, 1);
}

#[test]
fn value_target_has_the_json_shape() {
    let v: hcl::Value =
        hcl::from_str("port = 8080\nservice \"web\" { x = 1 }\nrule { a = 1 }\nrule { a = 2 }\n")
            .unwrap();
    assert_eq!(
        v.to_string(),
        "{ port = 8080, service = { web = { x = 1 } }, rule = [{ a = 1 }, { a = 2 }] }"
    );
}

#[test]
fn serde_json_value_target() {
    let v: serde_json::Value =
        hcl::from_str("a = [1, \"two\", true, null]\nb \"x\" \"y\" { c = 1.5 }\n").unwrap();
    assert_eq!(
        v,
        serde_json::json!({"a": [1, "two", true, null], "b": {"x": {"y": {"c": 1.5}}}})
    );
}

// Issue 22, item 3: the rest of a body (gohcl's `remain`), unevaluated:
// a `$remain` field receives every attribute and block the struct does
// not name, as a `RawBody` (evaluated or deserialized later, without the
// struct's own names) or as a `Value` / map (evaluated when read).
#[test]
fn the_rest_of_a_body_goes_to_a_remain_field() {
    #[derive(Deserialize, Debug)]
    struct Service {
        #[serde(rename = "$label")]
        name: String,
        port: u16,
        #[serde(rename = "$remain")]
        rest: hcl::RawBody,
    }
    #[derive(Deserialize, Debug)]
    struct Config {
        service: Vec<Service>,
    }
    let text = "service \"web\" {\n  port = 80\n  image = var.image\n  env {\n    mode = var.mode\n  }\n}\n";
    let json = r#"{"service": {"web": {"port": 80, "image": "${var.image}", "env": {"mode": "${var.mode}"}}}}"#;
    let mut ctx = hcl::Context::new();
    ctx.declare_var("var", hcl::value!({ "image": "nginx", "mode": "prod" }));
    for (config, syntax) in [
        (hcl::from_str::<Config>(text).unwrap(), "native"),
        (hcl::from_json_str::<Config>(json).unwrap(), "json"),
    ] {
        let web = &config.service[0];
        assert_eq!((web.name.as_str(), web.port), ("web", 80), "{syntax}");
        // The struct's own `port` is left out of the rest.
        let rest = web.rest.evaluate(&ctx).unwrap();
        assert_eq!(rest.get("port"), None, "{syntax}");
        assert_eq!(rest["image"], "nginx", "{syntax}");
        #[derive(Deserialize, Debug, PartialEq)]
        struct Env {
            mode: String,
        }
        #[derive(Deserialize, Debug, PartialEq)]
        struct Rest {
            image: String,
            env: Env,
        }
        let r: Rest = web.rest.deserialize_with(&ctx).unwrap();
        assert_eq!(r.image, "nginx", "{syntax}");
        assert_eq!(r.env.mode, "prod", "{syntax}");
    }

    // As a `Value`: the rest, evaluated.
    #[derive(Deserialize, Debug)]
    struct Loose {
        port: u16,
        #[serde(rename = "$remain")]
        rest: hcl::Value,
    }
    let l: Loose = hcl::from_str("port = 1\nimage = \"a\"\nextra {\n  k = 2\n}\n").unwrap();
    assert_eq!(l.port, 1);
    assert_eq!(l.rest, hcl::value!({ "image": "a", "extra": { "k": 2 } }));
}

// `#[serde(flatten)]` buffers values before their target is known, so an
// attribute read through it is evaluated: the error says so and names the
// supported way, the `$remain` field.
#[test]
fn flatten_beside_captures_names_the_remain_field() {
    #[derive(Deserialize, Debug)]
    #[allow(dead_code)]
    struct Flat {
        name: String,
        #[serde(flatten)]
        rest: HashMap<String, hcl::RawExpression>,
    }
    let e = hcl::from_str::<Flat>("name = \"a\"\nother = var.x\n").unwrap_err();
    assert!(e.message().contains("$remain"), "{e}");
    assert_eq!(e.line(), Some(2), "{e}");
    // Without references, flatten works as serde defines it.
    #[derive(Deserialize, Debug)]
    struct Plain {
        name: String,
        #[serde(flatten)]
        rest: HashMap<String, u16>,
    }
    let p: Plain = hcl::from_str("name = \"a\"\nport = 80\n").unwrap();
    assert_eq!((p.name.as_str(), p.rest["port"]), ("a", 80));

    // Labels beside a flattened field: native blocks give them; in the
    // JSON syntax the labels cannot be found without the struct's fields,
    // and the error names the `$remain` field.
    #[derive(Deserialize, Debug)]
    struct Labelled {
        #[serde(rename = "$label")]
        label: String,
        #[serde(flatten)]
        rest: HashMap<String, u16>,
    }
    #[derive(Deserialize, Debug)]
    struct Cfg {
        service: Vec<Labelled>,
    }
    let c: Cfg = hcl::from_str("service \"a\" {\n  port = 80\n}\n").unwrap();
    assert_eq!(
        (c.service[0].label.as_str(), c.service[0].rest["port"]),
        ("a", 80)
    );
    let e = hcl::from_json_str::<Cfg>(r#"{"service": {"a": {"port": 80}}}"#).unwrap_err();
    assert!(e.message().contains("$remain"), "{e}");
    // The supported way, in both syntaxes.
    #[derive(Deserialize, Debug)]
    struct WithRest {
        #[serde(rename = "$labels")]
        labels: Vec<String>,
        #[serde(rename = "$remain")]
        rest: hcl::RawBody,
    }
    #[derive(Deserialize, Debug)]
    struct Cfg2 {
        service: Vec<WithRest>,
    }
    let ctx = hcl::Context::new();
    for c in [
        hcl::from_str::<Cfg2>("service \"a\" \"b\" {\n  port = 80\n}\n").unwrap(),
        hcl::from_json_str::<Cfg2>(r#"{"service": {"a": {"b": {"port": 80}}}}"#).unwrap(),
    ] {
        assert_eq!(c.service[0].labels, ["a", "b"]);
        assert_eq!(c.service[0].rest.evaluate(&ctx).unwrap()["port"], 80);
    }
}

// `$labels` beside `#[serde(flatten)]`: serde does not name a flattening
// struct's fields, so the first label would go into the flattened map and
// `$labels` get only the others. That is an error naming the supported
// ways; with both `$label` and `$labels`, the labels are right.
#[test]
fn flatten_beside_labels_is_right_or_an_error() {
    #[derive(Deserialize, Debug)]
    struct OnlyLabels {
        #[serde(rename = "$labels")]
        #[allow(dead_code)]
        labels: Vec<String>,
        #[serde(flatten)]
        #[allow(dead_code)]
        rest: HashMap<String, hcl::Value>,
    }
    #[derive(Deserialize, Debug)]
    struct Cfg {
        #[allow(dead_code)]
        service: Vec<OnlyLabels>,
    }
    let e = hcl::from_str::<Cfg>("service \"a\" \"b\" {\n  port = 80\n}\n").unwrap_err();
    assert!(e.message().contains("first label"), "{e}");
    assert!(e.message().contains("$remain"), "{e}");
    assert_eq!((e.line(), e.column()), (Some(1), Some(9)), "{e}");

    // `$label` without `$labels`, and a second label: the same error, at
    // the second label.
    #[derive(Deserialize, Debug)]
    struct OnlyLabel {
        #[serde(rename = "$label")]
        #[allow(dead_code)]
        label: String,
        #[serde(flatten)]
        #[allow(dead_code)]
        rest: HashMap<String, hcl::Value>,
    }
    #[derive(Deserialize, Debug)]
    struct Cfg1 {
        #[allow(dead_code)]
        service: Vec<OnlyLabel>,
    }
    let e = hcl::from_str::<Cfg1>("service \"a\" \"b\" {\n  port = 80\n}\n").unwrap_err();
    assert!(e.message().contains("labels after the first"), "{e}");
    assert_eq!((e.line(), e.column()), (Some(1), Some(13)), "{e}");

    // Both fields: each label where it belongs, the flattened map only
    // the body.
    #[derive(Deserialize, Debug)]
    struct Both {
        #[serde(rename = "$label")]
        label: String,
        #[serde(rename = "$labels")]
        labels: Vec<String>,
        #[serde(flatten)]
        rest: HashMap<String, hcl::Value>,
    }
    #[derive(Deserialize, Debug)]
    struct Cfg2 {
        service: Vec<Both>,
    }
    let c: Cfg2 = hcl::from_str("service \"a\" \"b\" \"c\" {\n  port = 80\n}\n").unwrap();
    let s = &c.service[0];
    assert_eq!(
        (s.label.as_str(), s.labels.as_slice()),
        ("a", &["b".to_owned(), "c".to_owned()][..])
    );
    assert_eq!(s.rest.len(), 1);
    assert_eq!(s.rest["port"], 80);
}
