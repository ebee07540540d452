//! Several files through serde (`hcl::from_files`, `from_files_with`,
//! `from_dir`, `Deserializer::from_files`): the merge rule (attributes
//! unique across files, blocks in file order), and every node's own file in
//! errors, `Spanned<T>` spans and captures. The reference's behaviour on
//! the merge rule itself is checked by the conformance runner
//! (`conformance-ext/merge/` through `from_files_with`); the snapshots
//! here were reviewed by hand: each names the file of the offending text,
//! its line in that file, and puts the caret under it.
#![allow(clippy::unwrap_used, clippy::expect_used, dead_code)]

use hcl::schema::Sources;
use hcl::{Context, RawBody, RawExpression, Value};
use serde::Deserialize;
use serde_spanned::Spanned;
use std::collections::BTreeMap;

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
struct Service {
    #[serde(rename = "$label")]
    name: String,
    port: u16,
    #[serde(default)]
    check: Option<RawExpression>,
}

#[derive(Deserialize, Debug)]
struct Config {
    name: String,
    #[serde(default)]
    service: Vec<Service>,
}

fn sources(files: &[(&str, &str)]) -> Sources {
    let mut s = Sources::new();
    for (name, text) in files {
        s.add(*name, *text);
    }
    s
}

const A: &str = "name = \"shop\"\n\nservice \"web\" {\n  port = 80\n}\n";
const B: &str = "# the API\nservice \"api\" {\n  port  = 8080\n  check = status == 200\n}\n";

fn render<T: for<'de> Deserialize<'de> + std::fmt::Debug>(files: &[(&str, &str)]) -> String {
    let s = sources(files);
    let err = hcl::from_files::<T>(&s).unwrap_err();
    format!("[{:?}] {err}", err.category())
}

#[test]
fn blocks_of_one_type_in_file_order() {
    let s = sources(&[("a.hcl", A), ("b.hcl", B)]);
    let c: Config = hcl::from_files(&s).unwrap();
    assert_eq!(c.name, "shop");
    let names: Vec<&str> = c.service.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["web", "api"]);
    assert_eq!(c.service[1].port, 8080);
}

#[test]
fn a_map_keyed_by_label_groups_blocks_across_files() {
    #[derive(Deserialize, Debug)]
    struct Listener {
        port: u16,
    }
    #[derive(Deserialize, Debug)]
    struct Cfg {
        listener: BTreeMap<String, Vec<Listener>>,
    }
    let s = sources(&[
        ("a.hcl", "listener \"web\" {\n  port = 80\n}\n"),
        ("b.hcl", "listener \"api\" {\n  port = 8080\n}\n"),
        ("c.hcl", "listener \"web\" {\n  port = 443\n}\n"),
    ]);
    let c: Cfg = hcl::from_files(&s).unwrap();
    let web: Vec<u16> = c.listener["web"].iter().map(|l| l.port).collect();
    assert_eq!(web, [80, 443]);
    assert_eq!(c.listener["api"][0].port, 8080);
}

#[test]
fn into_a_value_attributes_and_blocks_of_every_file() {
    let s = sources(&[("a.hcl", A), ("b.hcl", "region = \"eu\"\n")]);
    let v: Value = hcl::from_files(&s).unwrap();
    assert_eq!(
        v,
        hcl::value!({ name: "shop", service: { web: { port: 80 } }, region: "eu" })
    );
}

#[test]
fn one_file_reads_as_from_str() {
    let s = sources(&[("a.hcl", A)]);
    let ours: Value = hcl::from_files(&s).unwrap();
    assert_eq!(ours, hcl::from_str::<Value>(A).unwrap());
}

#[test]
fn no_files_are_an_empty_body() {
    let v: Value = hcl::from_files(&Sources::new()).unwrap();
    assert_eq!(v, hcl::value!({}));
    let err = hcl::from_files::<Config>(&Sources::new()).unwrap_err();
    assert_eq!(err.message(), "missing field `name`");
    assert_eq!(err.file(), None);
}

#[test]
fn the_context_reaches_every_file() {
    let s = sources(&[("a.hcl", "name = \"shop-${env}\"\n"), ("b.hcl", B)]);
    let mut ctx = Context::new();
    ctx.declare_var("env", "prod");
    let c: Config = hcl::from_files_with(&s, &ctx).unwrap();
    assert_eq!(c.name, "shop-prod");
    // The same through the Deserializer; a file name has no effect.
    let de = hcl::Deserializer::from_files(&s)
        .with_context(&ctx)
        .with_file_name("ignored.hcl");
    assert_eq!(Config::deserialize(de).unwrap().name, "shop-prod");
}

#[test]
fn spanned_values_are_spans_in_their_own_file() {
    #[derive(Deserialize)]
    struct Svc {
        port: Spanned<u16>,
    }
    #[derive(Deserialize)]
    struct Cfg {
        name: Spanned<String>,
        service: Vec<Svc>,
    }
    let b = "\n\n\nservice {\n  port = 8080\n}\n";
    let s = sources(&[
        ("a.hcl", "name = \"shop\"\nservice {\n  port = 80\n}\n"),
        ("b.hcl", b),
    ]);
    let c: Cfg = hcl::from_files(&s).unwrap();
    let a_span = c.name.span();
    assert_eq!(&"name = \"shop\"\n"[a_span], "\"shop\"");
    let second = c.service[1].port.span();
    assert_eq!(&b[second.clone()], "8080");
    assert_eq!(second, 22..26);
}

#[test]
fn a_raw_expression_from_the_second_file_knows_its_file_and_evaluates_later() {
    let s = sources(&[("a.hcl", A), ("b.hcl", B)]);
    let c: Config = hcl::from_files(&s).unwrap();
    let check = c.service[1].check.as_ref().unwrap();
    assert_eq!(check.as_str(), "status == 200");
    assert_eq!(check.file(), Some("b.hcl"));
    assert_eq!(check.line(), 4);
    assert_eq!(&B[check.span().range()], "status == 200");
    let mut ctx = Context::new();
    ctx.declare_var("status", 200);
    assert_eq!(check.evaluate(&ctx).unwrap(), Value::Bool(true));
    // Evaluated without `status`: the error is in b.hcl, line 4.
    let err = check.evaluate(&Context::new()).unwrap_err();
    assert_eq!((err.file(), err.line()), (Some("b.hcl"), Some(4)));
    insta::assert_snapshot!(err.to_string());
}

#[test]
fn a_raw_body_from_the_second_file_deserializes_later_with_its_file() {
    #[derive(Deserialize)]
    struct Cfg {
        name: String,
        template: RawBody,
    }
    #[derive(Deserialize, Debug)]
    struct Page {
        title: String,
        size: u8,
    }
    let s = sources(&[
        ("a.hcl", "name = \"x\"\n"),
        (
            "b.hcl",
            "template {\n  title = \"Hello, ${who}\"\n  size  = 300\n}\n",
        ),
    ]);
    let c: Cfg = hcl::from_files(&s).unwrap();
    assert_eq!(c.template.file(), Some("b.hcl"));
    let mut ctx = Context::new();
    ctx.declare_var("who", "world");
    let err = c.template.deserialize_with::<Page>(&ctx).unwrap_err();
    assert_eq!((err.file(), err.line()), (Some("b.hcl"), Some(3)));
    insta::assert_snapshot!(err.to_string());
}

#[test]
fn a_capture_names_the_file_of_a_single_file_deserializer_too() {
    #[derive(Deserialize)]
    struct Rule {
        when: RawExpression,
    }
    let de = hcl::Deserializer::from_str("\nwhen = limit > 1\n").with_file_name("rules.hcl");
    let rule = Rule::deserialize(de).unwrap();
    assert_eq!(rule.when.file(), Some("rules.hcl"));
    let err = rule.when.evaluate(&Context::new()).unwrap_err();
    assert_eq!(
        (err.file(), err.line(), err.column()),
        (Some("rules.hcl"), Some(2), Some(8))
    );
    // Without a name, none.
    let rule: Rule = hcl::from_str("when = 1\n").unwrap();
    assert_eq!(rule.when.file(), None);
}

#[test]
fn an_attribute_set_in_two_files_names_both_places() {
    let out = render::<Config>(&[("a.hcl", A), ("b.hcl", "\nname = \"other\"\n")]);
    insta::assert_snapshot!(out);
}

#[test]
fn an_attribute_and_a_block_of_one_name_in_two_files() {
    // The later one is the error (the reference: "Unsupported block type"
    // at the block in b.hcl when the schema has the attribute).
    let out = render::<Value>(&[
        ("a.hcl", "settings = { a = 1 }\n"),
        ("b.hcl", "settings {\n  a = 1\n}\n"),
    ]);
    insta::assert_snapshot!(out);
    let out = render::<Value>(&[
        ("a.hcl", "settings {\n  a = 1\n}\n"),
        ("b.hcl", "\nsettings = 1\n"),
    ]);
    insta::assert_snapshot!(out);
}

#[test]
fn a_data_error_in_the_third_file() {
    let out = render::<Config>(&[
        ("a.hcl", A),
        ("b.hcl", B),
        ("c.hcl", "service \"db\" {\n  port = \"five\"\n}\n"),
    ]);
    insta::assert_snapshot!(out);
}

#[test]
fn an_unknown_field_in_the_second_file() {
    let out = render::<Config>(&[
        ("a.hcl", A),
        ("b.hcl", "service \"db\" {\n  port = 1\n  prot = 2\n}\n"),
    ]);
    insta::assert_snapshot!(out);
}

#[test]
fn an_evaluation_error_in_the_second_file() {
    let out = render::<Value>(&[("a.hcl", A), ("b.hcl", "\n\nregion = upper(var.r)\n")]);
    insta::assert_snapshot!(out);
}

#[test]
fn a_syntax_error_in_the_second_file() {
    let out = render::<Value>(&[("a.hcl", A), ("b.hcl", "ok = 1\nbroken = [1,\n")]);
    insta::assert_snapshot!(out);
}

#[test]
fn a_second_block_for_a_single_value_in_another_file() {
    #[derive(Deserialize, Debug)]
    struct Backend {
        path: String,
    }
    #[derive(Deserialize, Debug)]
    struct Cfg {
        backend: Backend,
    }
    let out = render::<Cfg>(&[
        ("a.hcl", "backend {\n  path = \"a\"\n}\n"),
        ("b.hcl", "\nbackend {\n  path = \"b\"\n}\n"),
    ]);
    insta::assert_snapshot!(out);
}

#[test]
fn a_missing_field_points_at_the_first_file() {
    // The reference's MissingItemRange of merged bodies is the first
    // file's (its start).
    let out = render::<Config>(&[
        ("a.hcl", "service \"web\" {\n  port = 80\n}\n"),
        ("b.hcl", B),
    ]);
    insta::assert_snapshot!(out);
}

#[test]
fn native_and_json_files_in_one_set() {
    #[derive(Deserialize, Debug)]
    struct Variable {
        #[serde(rename = "$label")]
        name: String,
        default: String,
    }
    #[derive(Deserialize, Debug)]
    struct Module {
        name: String,
        variable: Vec<Variable>,
        tags: BTreeMap<String, String>,
    }
    let s = sources(&[
        (
            "main.tf",
            "name = \"shop-${env}\"\ntags = { team = \"web\" }\n",
        ),
        (
            "vars.tf.json",
            r#"{"variable": {"region": {"default": "${env}-eu"}, "zone": {"default": "b"}}}"#,
        ),
    ]);
    let mut ctx = Context::new();
    ctx.declare_var("env", "prod");
    let m: Module = hcl::from_files_with(&s, &ctx).unwrap();
    assert_eq!(m.name, "shop-prod");
    assert_eq!(m.variable.len(), 2);
    assert_eq!(
        (m.variable[0].name.as_str(), m.variable[0].default.as_str()),
        ("region", "prod-eu")
    );
    assert_eq!(m.tags["team"], "web");
    // Errors in the JSON file name it.
    let s = sources(&[
        ("main.tf", "name = \"x\"\n"),
        (
            "vars.tf.json",
            "{\n  \"variable\": {\"a\": {\"default\": [1]}}\n}",
        ),
    ]);
    let err = hcl::from_files_with::<Module>(&s, &ctx).unwrap_err();
    assert_eq!((err.file(), err.line()), (Some("vars.tf.json"), Some(2)));
}

#[test]
fn blocks_of_one_type_from_native_and_json_files_as_a_sequence() {
    #[derive(Deserialize, Debug)]
    #[serde(deny_unknown_fields)]
    struct Variable {
        #[serde(rename = "$label")]
        name: String,
        default: u16,
    }
    #[derive(Deserialize, Debug)]
    struct Module {
        variable: Vec<Variable>,
    }
    let s = sources(&[
        ("a.tf", "variable \"a\" {\n  default = 1\n}\n"),
        (
            "b.tf.json",
            r#"{"variable": {"b": {"default": 2}, "c": [{"default": 3}, {"default": 4}]}}"#,
        ),
        ("c.tf", "variable \"d\" {\n  default = 5\n}\n"),
        (
            "d.tf.json",
            r#"{"variable": [{"e": {"default": 6}}, {"f": {"default": 7}}]}"#,
        ),
        ("e.tf.json", r#"{"variable": null}"#),
    ]);
    let m: Module = hcl::from_files(&s).unwrap();
    let got: Vec<(&str, u16)> = m
        .variable
        .iter()
        .map(|v| (v.name.as_str(), v.default))
        .collect();
    // File order (a.tf, c.tf's block after b.tf.json), then each JSON
    // property's blocks in the JSON spec's order.
    assert_eq!(
        got,
        [
            ("a", 1),
            ("b", 2),
            ("c", 3),
            ("c", 4),
            ("d", 5),
            ("e", 6),
            ("f", 7)
        ]
    );
    // An error in the JSON file is in it, numbered in the whole sequence.
    let s = sources(&[
        ("a.tf", "variable \"a\" {\n  default = 1\n}\n"),
        (
            "b.tf.json",
            "{\"variable\": {\n  \"b\": {\"default\": 2},\n  \"c\": {\"default\": \"x\"}\n}}",
        ),
    ]);
    let err = hcl::from_files::<Module>(&s).unwrap_err();
    assert_eq!((err.file(), err.line()), (Some("b.tf.json"), Some(3)));
    assert_eq!(err.path(), Some("variable[2].default"));
    insta::assert_snapshot!(format!("[{:?}] {err}", err.category()));
}

#[test]
fn a_json_property_and_another_file_combine_as_blocks() {
    // Issue 22, item 2: a block type split between native and JSON files
    // reads as a map (here through `Value`, HCL's JSON shape) as it does
    // as a `Vec`; the JSON object's names are its labels.
    let s = sources(&[
        ("a.tf", "variable \"x\" {\n  default = 1\n}\n"),
        ("b.tf.json", r#"{"variable": {"y": {"default": 2}}}"#),
    ]);
    let v: Value = hcl::from_files(&s).unwrap();
    assert_eq!(
        v,
        hcl::value!({ "variable": { "x": { "default": 1 }, "y": { "default": 2 } } })
    );
    // A native attribute and a JSON property: set twice.
    let out = render::<Value>(&[("a.tf", "region = 1\n"), ("b.tf.json", r#"{"region": 2}"#)]);
    insta::assert_snapshot!(out);
}

#[test]
fn from_dir_reads_the_files_sorted_by_name() {
    let dir = std::env::temp_dir().join(format!("hcl-de-files-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("b.tf"), "service \"api\" {\n  port = 8080\n}\n").unwrap();
    std::fs::write(dir.join("a.tf"), A).unwrap();
    std::fs::write(dir.join("c.tf.json"), r#"{"region": "eu"}"#).unwrap();
    std::fs::write(dir.join("notes.txt"), "not = hcl = at all").unwrap();
    let v: Value = hcl::from_dir(&dir, &["tf", "tf.json"], None).unwrap();
    assert_eq!(v["name"], "shop");
    assert_eq!(v["region"], "eu");
    // a.tf's block comes first.
    let keys: Vec<&String> = v["service"].as_object().unwrap().keys().collect();
    assert_eq!(keys, ["web", "api"]);
    std::fs::write(dir.join("d.tf"), "name = 2\n").unwrap();
    let err = hcl::from_dir::<Value>(&dir, &["tf"], None).unwrap_err();
    assert_eq!((err.file(), err.line()), (Some("d.tf"), Some(1)));
    assert!(err.message().contains("already set at a.tf:1,1-5"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
    let err = hcl::from_dir::<Value>(&dir, &["tf"], None).unwrap_err();
    assert_eq!(err.category(), hcl::Category::Io);
    assert_eq!(err.file(), Some(dir.display().to_string().as_str()));
}

#[test]
fn limits_and_json_roots_apply_to_each_file_and_name_it() {
    let s = sources(&[
        ("a.hcl", "name = \"x\"\n"),
        (
            "b.hcl",
            "data = \"0123456789012345678901234567890123456789\"\n",
        ),
    ]);
    let de = hcl::Deserializer::from_files(&s).with_max_input_len(32);
    let err = Value::deserialize(de).unwrap_err();
    assert!(err.message().starts_with("input too large"), "{err}");
    assert_eq!(err.file(), Some("b.hcl"));
    let s = sources(&[("a.hcl", "name = \"x\"\n"), ("b.tf.json", "\n[1]")]);
    let err = hcl::from_files::<Value>(&s).unwrap_err();
    assert!(err.is_syntax(), "{err}");
    assert_eq!((err.file(), err.line()), (Some("b.tf.json"), Some(2)));
}

// Issue 22, item 4: `from_path` and `from_dir` accept the options every
// entry point accepts (here: an input limit, lowered and raised).
#[test]
fn from_path_and_from_dir_take_options() {
    let dir = std::env::temp_dir().join(format!("hcl-de-options-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("a.tf"), "name = \"a fairly long value\"\n").unwrap();
    std::fs::write(dir.join("b.tf.json"), r#"{"port": 8080}"#).unwrap();
    let small = hcl::de::Options::new().with_max_input_len(16);
    let e = hcl::de::from_path_with_options::<Value>(dir.join("a.tf"), None, &small).unwrap_err();
    assert!(e.to_string().starts_with("input too large"), "{e}");
    assert_eq!(
        e.file(),
        Some(dir.join("a.tf").display().to_string().as_str())
    );
    let e = hcl::de::from_dir_with_options::<Value>(&dir, &["tf", "tf.json"], None, &small)
        .unwrap_err();
    assert!(e.to_string().starts_with("input too large"), "{e}");
    let big = hcl::de::Options::new().with_max_input_len(64 << 20);
    let v: Value = hcl::de::from_dir_with_options(&dir, &["tf", "tf.json"], None, &big).unwrap();
    assert_eq!(v["port"], 8080);
    let v: Value = hcl::de::from_path_with_options(dir.join("a.tf"), None, &big).unwrap();
    assert_eq!(v["name"], "a fairly long value");
    std::fs::remove_dir_all(&dir).ok();
}

// Issue 22, item 2: a module of `.tf` and `.tf.json` files reads through
// serde into the shapes the native syntax reads into, captures included:
// resources as a map of maps of `RawBody`, as a `Vec` of such maps, and
// attributes as `RawExpression`, each capture in its own file's syntax.
#[test]
fn a_mixed_module_reads_into_every_shape_with_captures() {
    use std::collections::HashMap;
    let s = sources(&[
        (
            "main.tf",
            "region = var.region\nresource \"aws_instance\" \"web\" {\n  ami = var.ami\n}\n",
        ),
        (
            "extra.tf.json",
            r#"{"resource": {"aws_instance": {"api": {"ami": "${var.ami}-api"}}, "aws_s3_bucket": {"logs": {"acl": "private"}}}}"#,
        ),
    ]);
    #[derive(Deserialize)]
    struct ByMap {
        region: RawExpression,
        resource: HashMap<String, HashMap<String, RawBody>>,
    }
    let m: ByMap = hcl::from_files(&s).unwrap();
    assert_eq!(m.region.as_str(), "var.region");
    assert_eq!(m.resource["aws_instance"].len(), 2);
    let web = &m.resource["aws_instance"]["web"];
    let api = &m.resource["aws_instance"]["api"];
    assert_eq!(
        (web.file(), api.file()),
        (Some("main.tf"), Some("extra.tf.json"))
    );
    let mut ctx = Context::new();
    ctx.declare_var("var", hcl::value!({ "ami": "ami-1", "region": "eu" }));
    #[derive(Deserialize, Debug, PartialEq)]
    struct Instance {
        ami: String,
    }
    assert_eq!(web.deserialize_with::<Instance>(&ctx).unwrap().ami, "ami-1");
    assert_eq!(
        api.deserialize_with::<Instance>(&ctx).unwrap().ami,
        "ami-1-api"
    );
    assert_eq!(
        m.resource["aws_s3_bucket"]["logs"].evaluate(&ctx).unwrap(),
        hcl::value!({ "acl": "private" })
    );
    assert_eq!(m.region.evaluate(&ctx).unwrap(), "eu");

    #[derive(Deserialize)]
    struct ByVec {
        resource: Vec<HashMap<String, HashMap<String, RawBody>>>,
    }
    let v: ByVec = hcl::from_files(&s).unwrap();
    assert_eq!(v.resource.len(), 2);
    assert!(v.resource[0]["aws_instance"].contains_key("web"));
    assert!(v.resource[1]["aws_s3_bucket"].contains_key("logs"));

    #[derive(Deserialize, Debug)]
    struct Resource {
        #[serde(rename = "$labels")]
        labels: Vec<String>,
        body: Option<RawBody>,
    }
    #[derive(Deserialize)]
    struct ByLabels {
        resource: Vec<Resource>,
    }
    let l: ByLabels = hcl::from_files(&s).unwrap();
    let labels: Vec<Vec<String>> = l.resource.iter().map(|r| r.labels.clone()).collect();
    assert_eq!(
        labels,
        [
            ["aws_instance", "web"],
            ["aws_instance", "api"],
            ["aws_s3_bucket", "logs"]
        ]
    );
}

// A JSON-syntax attribute captured as a `RawExpression` evaluates as JSON
// (its strings are templates), with positions in the JSON file.
#[test]
fn a_json_capture_evaluates_in_the_json_syntax() {
    #[derive(Deserialize)]
    struct T {
        a: RawExpression,
        b: RawBody,
    }
    let t: T = hcl::from_json_str(r#"{"a": "${x + 1}", "b": {"c": "${x}"}}"#).unwrap();
    let mut ctx = Context::new();
    ctx.declare_var("x", 1);
    assert_eq!(t.a.evaluate(&ctx).unwrap(), 2);
    assert_eq!(t.b.evaluate(&ctx).unwrap(), hcl::value!({ "c": 1 }));
    let e = t.a.evaluate(&Context::new()).unwrap_err();
    assert_eq!((e.line(), e.column()), (Some(1), Some(10)), "{e}");
}

// Issue 22, item 2: `dynamic` blocks through serde, an option of the
// Deserializer, of `from_files` / `from_dir` (`Options`). Expected values
// from `hcl-oracle dynblock` on the same text with the schema
// {name; ingress "name" {port; cidr {block}}}: the generated blocks come
// in the `dynamic` block's place, nested iterators see the outer ones.
const DYNAMIC: &str = r#"name = "sg"
dynamic "ingress" {
  for_each = {http = 80, https = 443}
  iterator = rule
  labels   = [rule.key]
  content {
    port = rule.value
    dynamic "cidr" {
      for_each = ["10.0.0.0/8", "192.168.0.0/16"]
      content {
        block = "${rule.key}:${cidr.value}"
      }
    }
  }
}
ingress "ssh" {
  port = 22
}
"#;

#[derive(Deserialize, Debug, PartialEq)]
struct Cidr {
    block: String,
}

#[derive(Deserialize, Debug, PartialEq)]
struct Ingress {
    #[serde(rename = "$label")]
    name: String,
    port: u16,
    #[serde(default)]
    cidr: Vec<Cidr>,
}

#[derive(Deserialize, Debug, PartialEq)]
struct Group {
    name: String,
    ingress: Vec<Ingress>,
}

#[test]
fn dynamic_blocks_through_serde() {
    let on = hcl::de::Options::new().with_dynamic_blocks(true);
    let g = Group::deserialize(hcl::Deserializer::from_str(DYNAMIC).with_options(&on)).unwrap();
    let names: Vec<&str> = g.ingress.iter().map(|i| i.name.as_str()).collect();
    assert_eq!(names, ["http", "https", "ssh"]);
    assert_eq!(g.ingress[1].port, 443);
    let blocks: Vec<&str> = g.ingress[1].cidr.iter().map(|c| c.block.as_str()).collect();
    assert_eq!(blocks, ["https:10.0.0.0/8", "https:192.168.0.0/16"]);
    assert!(g.ingress[2].cidr.is_empty());

    // As a map keyed by label, and as a `Value` (HCL's JSON shape).
    #[derive(Deserialize)]
    struct ByName {
        ingress: BTreeMap<String, Value>,
    }
    let m = ByName::deserialize(hcl::Deserializer::from_str(DYNAMIC).with_dynamic_blocks(true))
        .unwrap();
    assert_eq!(m.ingress["http"]["port"], 80);
    assert_eq!(m.ingress["https"]["cidr"][0]["block"], "https:10.0.0.0/8");

    // Several files, one of them JSON: `from_files` with the option.
    let s = sources(&[
        ("a.tf", DYNAMIC),
        ("b.tf.json", r#"{"ingress": {"db": {"port": 5432}}}"#),
    ]);
    let g = Group::deserialize(hcl::Deserializer::from_files(&s).with_options(&on)).unwrap();
    let names: Vec<&str> = g.ingress.iter().map(|i| i.name.as_str()).collect();
    assert_eq!(names, ["http", "https", "ssh", "db"]);

    // `from_dir` with the options.
    let dir = std::env::temp_dir().join(format!("hcl-de-dynamic-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("a.tf"), DYNAMIC).unwrap();
    let g: Group = hcl::de::from_dir_with_options(&dir, &["tf"], None, &on).unwrap();
    assert_eq!(g.ingress.len(), 3);
    std::fs::remove_dir_all(&dir).ok();

    // Without the option a `dynamic` block is a block as any other.
    let g: Group = hcl::from_str(DYNAMIC).unwrap();
    let names: Vec<&str> = g.ingress.iter().map(|i| i.name.as_str()).collect();
    assert_eq!(names, ["ssh"]);
}

#[test]
fn dynamic_block_errors_through_serde() {
    // The expansion's own messages (`ext::dynblock`'s), at their place.
    let text = "dynamic \"ingress\" {\n  for_each = 5\n  content {}\n}\n";
    let de = hcl::Deserializer::from_str(text)
        .with_dynamic_blocks(true)
        .with_file_name("sg.tf");
    let e = Value::deserialize(de).unwrap_err();
    assert!(
        e.message().starts_with("Invalid dynamic for_each value"),
        "{e}"
    );
    assert_eq!(
        (e.file(), e.line(), e.column()),
        (Some("sg.tf"), Some(2), Some(14))
    );
    let text = "dynamic \"ingress\" {\n  for_each = [1]\n}\n";
    let e = Value::deserialize(hcl::Deserializer::from_str(text).with_dynamic_blocks(true))
        .unwrap_err();
    assert!(
        e.message().starts_with("Missing dynamic content block"),
        "{e}"
    );
}

// The same `dynamic` block in the JSON syntax (a file's body): through
// serde and through the schema API's expansion (`ext::dynblock`), the
// same blocks in the same order (the native text's, as
// `hcl-oracle dynblock` gives them above).
#[test]
fn dynamic_blocks_through_serde_in_json() {
    let json = r#"{
  "name": "sg",
  "dynamic": {
    "ingress": {
      "for_each": "${{http = 80, https = 443}}",
      "iterator": "rule",
      "labels": ["${rule.key}"],
      "content": {"port": "${rule.value}"}
    }
  },
  "ingress": {"ssh": {"port": 22}}
}"#;
    let ctx = Context::new();
    let de = hcl::Deserializer::from_str(json)
        .with_syntax(hcl::Syntax::Json)
        .with_context(&ctx)
        .with_dynamic_blocks(true);
    let g = Group::deserialize(de).unwrap();
    let got: Vec<(&str, u16)> = g
        .ingress
        .iter()
        .map(|i| (i.name.as_str(), i.port))
        .collect();
    assert_eq!(got, [("http", 80), ("https", 443), ("ssh", 22)]);

    let file = hcl::schema::File::parse(json, hcl::Syntax::Json).unwrap();
    let shared = std::sync::Arc::new(Context::new());
    let body = hcl::ext::dynblock::expand(&file.body(), &shared);
    let schema = hcl::schema::BodySchema::new()
        .attribute("name", true)
        .block("ingress", &["name"]);
    let content = body.content(&schema).unwrap();
    let labels: Vec<&str> = content
        .blocks
        .iter()
        .map(|b| b.labels[0].as_str())
        .collect();
    assert_eq!(labels, ["http", "https", "ssh"]);

    // A mixed module: the JSON file's generated blocks join the native
    // file's group.
    let s = sources(&[
        ("a.tf", "ingress \"db\" {\n  port = 5432\n}\n"),
        ("b.tf.json", json),
    ]);
    let on = hcl::de::Options::new().with_dynamic_blocks(true);
    let de = hcl::Deserializer::from_files(&s)
        .with_context(&ctx)
        .with_options(&on);
    let g = Group::deserialize(de).unwrap();
    let names: Vec<&str> = g.ingress.iter().map(|i| i.name.as_str()).collect();
    assert_eq!(names, ["db", "http", "https", "ssh"]);
}

/// One JSON file's names appear once (the single-file rule): the error
/// is at the second, naming the first's place in its file; a `dynamic`
/// property is a name like any other there.
#[test]
fn a_name_repeated_in_one_json_file_names_the_first() {
    for (text, name, first) in [
        (r#"{"a": 1, "b": 2, "a": 3}"#, "a", "x.tf.json:1,2-5"),
        (
            "{\n  \"dynamic\": {},\n  \"b\": 1,\n  \"dynamic\": {}\n}",
            "dynamic",
            "x.tf.json:2,3-12",
        ),
    ] {
        let s = sources(&[("x.tf.json", text)]);
        let e = hcl::from_files::<Value>(&s).unwrap_err();
        assert!(
            e.to_string().contains(&format!(
                "duplicate property `{name}` (first defined at {first})"
            )),
            "{e}"
        );
    }
}
