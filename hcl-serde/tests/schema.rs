//! `hcl::schema`: decoding with a dynamic schema, for both syntaxes. The
//! rules are the reference's `hcl.BodySchema` (`Content`,
//! `PartialContent`, `JustAttributes`); the JSON side is checked case by
//! case against the reference by the conformance runner
//! (`../shared/conformance-json`), so this file checks the native side and
//! the API itself: the same schema reads the same data from both syntaxes.

#![allow(clippy::expect_used, clippy::unwrap_used)]

use hcl::schema::{BodySchema, File};
use hcl::{Context, Syntax, Value};

const NATIVE: &str = r#"
region = "eu-${zone}"
service "web" "v1" {
  port = 80
}
service "api" "v2" {
  port = 81
}
tags = { a = 1 }
"#;

const JSON: &str = r#"{
  "region": "eu-${zone}",
  "service": {"web": {"v1": {"port": 80}}, "api": {"v2": {"port": 81}}},
  "tags": {"a": 1}
}"#;

fn schema() -> BodySchema {
    BodySchema::new()
        .attribute("region", true)
        .attribute("tags", false)
        .block("service", &["name", "version"])
}

fn ctx() -> Context {
    let mut c = Context::new();
    c.declare_var("zone", "west");
    c
}

#[test]
fn both_syntaxes_give_the_same_content() {
    for (text, syntax) in [(NATIVE, Syntax::Native), (JSON, Syntax::Json)] {
        let file = File::parse(text, syntax).unwrap();
        let content = file.body().content(&schema()).unwrap();
        let names: Vec<_> = content.attributes.iter().map(|a| a.name.as_str()).collect();
        assert_eq!(names, ["region", "tags"], "{syntax:?}");
        assert_eq!(
            content.attributes[0].evaluate(Some(&ctx())).unwrap(),
            "eu-west"
        );
        let labels: Vec<_> = content.blocks.iter().map(|b| b.labels.join("/")).collect();
        assert_eq!(labels, ["web/v1", "api/v2"], "{syntax:?}");
        let port = content.blocks[1].body.just_attributes().unwrap();
        assert_eq!(port[0].name, "port");
        assert_eq!(port[0].evaluate(None).unwrap(), 81);
    }
}

#[test]
fn json_strings_are_literal_without_a_context() {
    let file = File::parse(JSON, Syntax::Json).unwrap();
    let content = file.body().content(&schema()).unwrap();
    assert_eq!(content.attributes[0].evaluate(None).unwrap(), "eu-${zone}");
    // A native expression needs its variables either way.
    let file = File::parse(NATIVE, Syntax::Native).unwrap();
    let content = file.body().content(&schema()).unwrap();
    assert!(content.attributes[0].evaluate(None).unwrap_err().is_eval());
}

#[test]
fn unknown_names_are_errors_with_suggestions() {
    let text = "regoin = \"x\"\n";
    let e = File::parse(text, Syntax::Native)
        .unwrap()
        .body()
        .content(&schema())
        .unwrap_err();
    assert!(e.to_string().contains("Did you mean \"region\""), "{e}");
    assert_eq!(e.line(), Some(1));
    let e = File::parse("{\n  \"region\": \"x\",\n  \"servce\": {}\n}", Syntax::Json)
        .unwrap()
        .body()
        .content(&schema())
        .unwrap_err();
    assert!(e.to_string().contains("Did you mean \"service\""), "{e}");
    assert_eq!((e.line(), e.column()), (Some(3), Some(3)), "{e}");
}

#[test]
fn required_attributes_and_label_counts_are_checked() {
    let e = File::parse("tags = {}\n", Syntax::Native)
        .unwrap()
        .body()
        .content(&schema())
        .unwrap_err();
    assert!(e.to_string().contains("Missing required argument"), "{e}");
    let e = File::parse("region = \"x\"\nservice \"web\" {}\n", Syntax::Native)
        .unwrap()
        .body()
        .content(&schema())
        .unwrap_err();
    assert!(e.to_string().contains("Missing version for service"), "{e}");
    let e = File::parse(r#"{"region": "x", "service": {"web": []}}"#, Syntax::Json)
        .unwrap()
        .body()
        .content(&schema())
        .unwrap_err();
    assert!(e.to_string().contains("Missing block label"), "{e}");
}

#[test]
fn partial_content_leaves_the_rest_for_just_attributes() {
    let only_blocks = BodySchema::new().block("service", &["name", "version"]);
    for (text, syntax) in [(NATIVE, Syntax::Native), (JSON, Syntax::Json)] {
        let file = File::parse(text, syntax).unwrap();
        let (content, rest) = file.body().partial_content(&only_blocks).unwrap();
        assert_eq!(content.blocks.len(), 2);
        assert!(content.attributes.is_empty());
        let attrs = rest.just_attributes().unwrap();
        let names: Vec<_> = attrs.iter().map(|a| a.name.as_str()).collect();
        assert_eq!(names, ["region", "tags"], "{syntax:?}");
        let tags = attrs[1].evaluate(Some(&ctx())).unwrap();
        assert_eq!(tags["a"], Value::from(1));
    }
    // A native body with a block cannot be read as attributes alone.
    let file = File::parse(NATIVE, Syntax::Native).unwrap();
    assert!(file.body().just_attributes().is_err());
}

#[test]
fn json_evaluation_errors_point_into_the_string() {
    let text = "{\n  \"region\": \"a-${nope}\"\n}";
    let file = File::parse(text, Syntax::Json).unwrap();
    let content = file.body().content(&schema()).unwrap();
    let e = content.attributes[0].evaluate(Some(&ctx())).unwrap_err();
    assert!(e.is_eval());
    // `nope` starts at byte 19: line 2, column 18.
    assert_eq!((e.line(), e.column()), (Some(2), Some(18)), "{e}");
}
