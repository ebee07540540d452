//! Several files as one body (`hcl::schema::merge`, `Sources`) and dynamic
//! blocks (`hcl::ext::dynblock`) through the schema API. Expected values
//! follow the reference's behaviour as `../shared/conformance-ext/README.md`
//! states it (file order, bytewise key order, a set's key is its element).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use hcl::ext::dynblock;
use hcl::schema::{merge, BodySchema, File, SchemaBody, Sources};
use hcl::{Context, Syntax, Value};
use std::sync::Arc;

fn parse<'t>(name: &str, text: &'t str) -> File<'t> {
    File::parse_named(name, text, Syntax::Native).unwrap()
}

fn attrs(body: &SchemaBody<'_>, ctx: &Context) -> Vec<(String, Value)> {
    body.just_attributes()
        .unwrap()
        .iter()
        .map(|a| (a.name.clone(), a.evaluate(Some(ctx)).unwrap()))
        .collect()
}

#[test]
fn merged_blocks_keep_file_order_and_partial_content_leaves_the_rest() {
    let files = [
        parse("a.tf", "x = 1\nresource \"r\" \"one\" {}\n"),
        parse("b.tf", "resource \"r\" \"two\" {}\ny = 2\n"),
    ];
    let body = merge(&files);
    let schema = BodySchema::new().block("resource", &["type", "name"]);
    let (content, rest) = body.partial_content(&schema).unwrap();
    let names: Vec<_> = content
        .blocks
        .iter()
        .map(|b| b.labels[1].as_str())
        .collect();
    assert_eq!(names, ["one", "two"]);
    assert_eq!(content.blocks[1].body.file(), Some("b.tf"));
    let ctx = Context::new();
    assert_eq!(
        attrs(&rest, &ctx),
        [
            ("x".to_owned(), Value::from(1)),
            ("y".to_owned(), Value::from(2))
        ]
    );
}

#[test]
fn merged_just_attributes_refuses_a_repeated_name() {
    let files = [parse("a.tf", "x = 1\n"), parse("b.tf", "x = 2\n")];
    let err = merge(&files).just_attributes().unwrap_err();
    assert_eq!(err.file(), Some("b.tf"));
    assert_eq!(err.line(), Some(1));
    assert!(err.message().contains("a.tf:1,1-2"), "{err}");
}

#[test]
fn merged_required_attribute_may_come_from_any_file() {
    let files = [parse("a.tf", ""), parse("b.tf", "name = \"n\"\n")];
    let content = merge(&files)
        .content(&BodySchema::new().attribute("name", true))
        .unwrap();
    assert_eq!(content.attributes[0].file(), Some("b.tf"));
}

#[test]
fn sources_read_a_directory_sorted_and_filtered() {
    let dir = std::env::temp_dir().join(format!("hcl-sources-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (name, text) in [
        ("b.tf", "b = 2\n"),
        ("a.tf", "a = 1\n"),
        ("c.tf.json", "{\"c\": 3}"),
        ("notes.txt", "not HCL"),
        (".tf", "hidden = 0\n"),
    ] {
        std::fs::write(dir.join(name), text).unwrap();
    }
    let sources = Sources::read_dir(&dir, &["tf", "tf.json"]).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(
        sources.names().collect::<Vec<_>>(),
        ["a.tf", "b.tf", "c.tf.json"]
    );
    let files = sources.parse().unwrap();
    let got = attrs(&merge(&files), &Context::new());
    let names: Vec<_> = got.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["a", "b", "c"]);
}

fn expanded_blocks(src: &str, schema: &BodySchema, ctx: Context) -> Vec<(Vec<String>, Value)> {
    let file = parse("main.tf", src);
    let ctx = Arc::new(ctx);
    let body = dynblock::expand(&file.body(), &ctx);
    body.content(schema)
        .unwrap()
        .blocks
        .iter()
        .map(|b| {
            let v: hcl::Map<String, Value> = attrs(&b.body, &ctx).into_iter().collect();
            (b.labels.clone(), Value::Object(v))
        })
        .collect()
}

#[test]
fn dynamic_over_an_object_iterates_in_bytewise_key_order_with_labels() {
    let got = expanded_blocks(
        "dynamic \"svc\" {\n  for_each = {b = 1, B = 2, a = 3}\n  labels = [svc.key]\n  content {\n    v = svc.value\n  }\n}\n",
        &BodySchema::new().block("svc", &["name"]),
        Context::new(),
    );
    let labels: Vec<_> = got.iter().map(|(l, _)| l[0].as_str()).collect();
    assert_eq!(labels, ["B", "a", "b"]);
    assert_eq!(got[0].1["v"], Value::from(2));
}

#[test]
fn dynamic_over_a_set_keys_each_element_by_itself() {
    let mut ctx = Context::new();
    ctx.add_stdlib();
    let got = expanded_blocks(
        "dynamic \"p\" {\n  for_each = toset([\"x\", \"y\"])\n  content {\n    k = p.key\n  }\n}\n",
        &BodySchema::new().block("p", &[]),
        ctx,
    );
    let keys: Vec<_> = got.iter().map(|(_, v)| v["k"].clone()).collect();
    assert_eq!(keys, [Value::from("x"), Value::from("y")]);
}

#[test]
fn nested_dynamic_sees_the_outer_iterator_and_static_blocks_stay_in_place() {
    let src = r#"
rule "first" {}
dynamic "rule" {
  for_each = ["a", "b"]
  iterator = outer
  labels = [outer.value]
  content {
    dynamic "port" {
      for_each = [1, 2]
      content {
        name = "${outer.value}${port.value}"
      }
    }
  }
}
rule "last" {}
"#;
    let file = parse("main.tf", src);
    let ctx = Arc::new(Context::new());
    let body = dynblock::expand(&file.body(), &ctx);
    let rules = body
        .content(&BodySchema::new().block("rule", &["name"]))
        .unwrap()
        .blocks;
    let labels: Vec<_> = rules.iter().map(|b| b.labels[0].as_str()).collect();
    assert_eq!(labels, ["first", "a", "b", "last"]);
    // A static label's span is its quoted text; a generated one's, the
    // label expression's.
    assert_eq!(&src[rules[0].label_spans[0].range()], "\"first\"");
    assert_eq!(&src[rules[1].label_spans[0].range()], "outer.value");
    let ports = rules[2]
        .body
        .content(&BodySchema::new().block("port", &[]))
        .unwrap()
        .blocks;
    let names: Vec<_> = ports
        .iter()
        .map(|p| attrs(&p.body, &ctx)[0].1.clone())
        .collect();
    assert_eq!(names, [Value::from("b1"), Value::from("b2")]);
}

#[test]
fn dynamic_blocks_in_merged_files_expand() {
    let files = [
        parse(
            "a.tf",
            "dynamic \"d\" {\n  for_each = [1]\n  content {}\n}\n",
        ),
        parse(
            "b.tf",
            "outer {\n  dynamic \"d\" {\n    for_each = [1, 2]\n    content {}\n  }\n}\n",
        ),
    ];
    let ctx = Arc::new(Context::new());
    let body = dynblock::expand(&merge(&files), &ctx);
    let schema = BodySchema::new().block("d", &[]).block("outer", &[]);
    let content = body.content(&schema).unwrap();
    let types: Vec<_> = content
        .blocks
        .iter()
        .map(|b| b.type_name.as_str())
        .collect();
    assert_eq!(types, ["d", "outer"]);
    let inner = content.blocks[1].body.content(&schema).unwrap();
    assert_eq!(inner.blocks.len(), 2);
}

#[test]
fn dynamic_blocks_in_the_json_syntax() {
    let src = r#"{"dynamic": {"d": {"for_each": "${[3, 4]}", "iterator": "it", "content": {"v": "${it.value}"}}}}"#;
    let file = File::parse(src, Syntax::Json).unwrap();
    let ctx = Arc::new(Context::new());
    let body = dynblock::expand(&file.body(), &ctx);
    let blocks = body
        .content(&BodySchema::new().block("d", &[]))
        .unwrap()
        .blocks;
    let vs: Vec<_> = blocks
        .iter()
        .map(|b| attrs(&b.body, &ctx)[0].1.clone())
        .collect();
    assert_eq!(vs, [Value::from(3), Value::from(4)]);
}

#[test]
fn without_expand_dynamic_is_a_plain_block() {
    let file = parse(
        "main.tf",
        "dynamic \"d\" {\n  for_each = [1]\n  content {}\n}\n",
    );
    let err = file
        .body()
        .content(&BodySchema::new().block("d", &[]))
        .unwrap_err();
    assert!(err.message().contains("Unsupported block type"), "{err}");
}

/// One merge rule (`body/merged.rs`) for serde's `from_files` and the
/// schema API's `merge`: a second attribute, native or JSON, is the same
/// error at the same place through both.
#[test]
fn serde_and_the_schema_api_merge_by_one_rule() {
    let cases: [&[(&str, &str)]; 3] = [
        &[("a.tf", "name = 1\n"), ("b.tf", "\nname = 2\n")],
        &[("a.tf.json", "{\"name\": 1}"), ("b.tf", "name = 2\n")],
        &[
            ("a.tf", "x = 0\nname = 1\n"),
            ("b.tf.json", "{\n \"name\": 2}"),
        ],
    ];
    for case in cases {
        let mut sources = Sources::new();
        for (name, text) in case {
            sources.add(*name, *text);
        }
        let serde_err = hcl::from_files::<Value>(&sources).unwrap_err();
        let files = sources.parse().unwrap();
        let schema = BodySchema::new()
            .attribute("name", false)
            .attribute("x", false);
        let schema_err = merge(&files).content(&schema).unwrap_err();
        assert_eq!(serde_err.message(), schema_err.message(), "{case:?}");
        assert!(
            serde_err.message().starts_with("Duplicate argument"),
            "{serde_err}"
        );
        assert_eq!(serde_err.file(), schema_err.file(), "{case:?}");
        assert_eq!(serde_err.span(), schema_err.span(), "{case:?}");
        assert_eq!(serde_err.line(), schema_err.line(), "{case:?}");
    }
}
