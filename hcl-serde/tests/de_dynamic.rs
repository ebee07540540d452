//! `dynamic` blocks through serde (`Options::with_dynamic_blocks`) where
//! the JSON syntax nests them and where `for_each` is unknown. Expected
//! values: `hcl-oracle dynblock` on the native text (the oracle reads the
//! native syntax only), and the schema API's expansion (`ext::dynblock`)
//! on the same document, which the reference's `dynblock` is.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use hcl::eval::Type;
use hcl::schema::{BodySchema, File};
use hcl::{Context, Syntax, Value};
use serde::Deserialize;
use std::sync::Arc;

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
    ingress: Vec<Ingress>,
}

/// A `dynamic` property inside a JSON block's body. The native text
///
/// ```hcl
/// ingress "web" {
///   port = 80
///   dynamic "cidr" {
///     for_each = ["10.0.0.0/8", "192.168.0.0/16"]
///     content {
///       block = cidr.value
///     }
///   }
/// }
/// ```
///
/// is, by `hcl-oracle dynblock`, one `ingress` block whose body has
/// `port = 80` and two `cidr` blocks, `block = "10.0.0.0/8"` then
/// `"192.168.0.0/16"`.
const NESTED: &str = r#"{
  "ingress": {
    "web": {
      "port": 80,
      "dynamic": {
        "cidr": {
          "for_each": "${[\"10.0.0.0/8\", \"192.168.0.0/16\"]}",
          "content": {"block": "${cidr.value}"}
        }
      }
    }
  }
}"#;

fn json_de<'de>(text: &'de str, ctx: &'de Context) -> hcl::Deserializer<'de, 'de> {
    hcl::Deserializer::from_str(text)
        .with_syntax(Syntax::Json)
        .with_context(ctx)
        .with_dynamic_blocks(true)
}

#[test]
fn a_dynamic_property_in_a_json_block_body_expands() {
    let ctx = Context::new();
    let g = Group::deserialize(json_de(NESTED, &ctx)).unwrap();
    let want = Group {
        ingress: vec![Ingress {
            name: "web".to_owned(),
            port: 80,
            cidr: vec![
                Cidr {
                    block: "10.0.0.0/8".to_owned(),
                },
                Cidr {
                    block: "192.168.0.0/16".to_owned(),
                },
            ],
        }],
    };
    assert_eq!(g, want);

    // A block without labels (read as a struct with no `$label`), and a
    // map keyed by label.
    #[derive(Deserialize)]
    struct Plain {
        cidr: Vec<Cidr>,
    }
    #[derive(Deserialize)]
    struct ByName {
        ingress: std::collections::BTreeMap<String, Plain>,
    }
    let m = ByName::deserialize(json_de(NESTED, &ctx)).unwrap();
    let blocks: Vec<&str> = m.ingress["web"]
        .cidr
        .iter()
        .map(|c| c.block.as_str())
        .collect();
    assert_eq!(blocks, ["10.0.0.0/8", "192.168.0.0/16"]);

    // The schema API's expansion of the same document agrees.
    let file = File::parse(NESTED, Syntax::Json).unwrap();
    let body = hcl::ext::dynblock::expand(&file.body(), &Arc::new(Context::new()));
    let schema = BodySchema::new().block("ingress", &["name"]);
    let content = body.content(&schema).unwrap();
    let inner = BodySchema::new().attribute("port", true).block("cidr", &[]);
    let inner = content.blocks[0].body.content(&inner).unwrap();
    let blocks: Vec<Value> = inner
        .blocks
        .iter()
        .map(|b| {
            b.body.just_attributes().unwrap()[0]
                .evaluate(Some(&ctx))
                .unwrap()
        })
        .collect();
    assert_eq!(
        blocks,
        [Value::from("10.0.0.0/8"), Value::from("192.168.0.0/16")]
    );

    // Without the option, `dynamic` is a property as any other (here one
    // the struct does not name).
    let de = hcl::Deserializer::from_str(NESTED)
        .with_syntax(Syntax::Json)
        .with_context(&ctx);
    assert!(Group::deserialize(de).unwrap().ingress[0].cidr.is_empty());
}

/// The attributes of the one block a `dynamic` block with an unknown
/// `for_each` generates, through the schema API (the reference's
/// `unknownBody`: every attribute unknown).
fn schema_unknowns(text: &str, syntax: Syntax, ctx: &Context) -> Vec<(String, Value)> {
    let file = File::parse(text, syntax).unwrap();
    let body = hcl::ext::dynblock::expand(&file.body(), &Arc::new(ctx.clone()));
    let schema = BodySchema::new().block("ingress", &[]);
    let content = body.content(&schema).unwrap();
    assert_eq!(content.blocks.len(), 1);
    let inner = BodySchema::new()
        .attribute("port", false)
        .attribute("name", false);
    let inner = content.blocks[0].body.content(&inner).unwrap();
    inner
        .attributes
        .iter()
        .map(|a| (a.name.clone(), a.evaluate(Some(ctx)).unwrap()))
        .collect()
}

#[test]
fn an_unknown_for_each_makes_every_attribute_unknown() {
    let mut ctx = Context::new();
    ctx.declare_var("rules", Value::unknown(Type::Any));
    let native = "dynamic \"ingress\" {\n  for_each = rules\n  content {\n    port = 80\n    name = ingress.value.name\n  }\n}\n";
    let json = r#"{"dynamic": {"ingress": {"for_each": "${rules}", "content": {"port": 80, "name": "${ingress.value.name}"}}}}"#;
    let unknown = Value::unknown(Type::Any);
    for (text, syntax) in [(native, Syntax::Native), (json, Syntax::Json)] {
        let want = [
            ("port".to_owned(), unknown.clone()),
            ("name".to_owned(), unknown.clone()),
        ];
        assert_eq!(schema_unknowns(text, syntax, &ctx), want, "{text}");

        #[derive(Deserialize)]
        struct Rule {
            port: Value,
            name: Value,
        }
        #[derive(Deserialize)]
        struct Rules {
            ingress: Vec<Rule>,
        }
        let de = hcl::Deserializer::from_str(text)
            .with_syntax(syntax)
            .with_context(&ctx)
            .with_dynamic_blocks(true);
        let r = Rules::deserialize(de).unwrap();
        assert_eq!(r.ingress.len(), 1, "{text}");
        assert_eq!(
            (&r.ingress[0].port, &r.ingress[0].name),
            (&unknown, &unknown),
            "{text}"
        );

        // A typed field cannot hold an unknown value: the error says so.
        #[derive(Deserialize, Debug)]
        struct Typed {
            #[allow(dead_code)]
            port: u16,
        }
        #[derive(Deserialize, Debug)]
        struct TypedRules {
            #[allow(dead_code)]
            ingress: Vec<Typed>,
        }
        let de = hcl::Deserializer::from_str(text)
            .with_syntax(syntax)
            .with_context(&ctx)
            .with_dynamic_blocks(true);
        let e = TypedRules::deserialize(de).unwrap_err();
        assert!(e.message().contains("the value is unknown"), "{e}");
    }
}

/// The block an unknown `for_each` generates, read whole (into a `Value`
/// or a map, through `deserialize_any`): every attribute unknown in both
/// syntaxes, as a struct reads it and as the reference's `unknownBody`
/// makes it (the literal `80` included).
#[test]
fn an_unknown_for_each_block_read_whole_is_unknown_in_both_syntaxes() {
    let mut ctx = Context::new();
    ctx.declare_var("rules", Value::unknown(Type::Any));
    let native = "dynamic \"ingress\" {\n  for_each = rules\n  content {\n    port = 80\n    name = ingress.value.name\n  }\n}\n";
    let json = r#"{"dynamic": {"ingress": {"for_each": "${rules}", "content": {"port": 80, "name": "${ingress.value.name}"}}}}"#;
    let unknown = Value::unknown(Type::Any);
    for (text, syntax) in [(native, Syntax::Native), (json, Syntax::Json)] {
        let de = || {
            hcl::Deserializer::from_str(text)
                .with_syntax(syntax)
                .with_context(&ctx)
                .with_dynamic_blocks(true)
        };
        let v = Value::deserialize(de()).unwrap();
        let mut block = hcl::Map::new();
        block.insert("port".to_owned(), unknown.clone());
        block.insert("name".to_owned(), unknown.clone());
        let mut want = hcl::Map::new();
        want.insert("ingress".to_owned(), Value::Object(block));
        assert_eq!(v, Value::Object(want), "{text}");

        #[derive(Deserialize)]
        struct Rules {
            ingress: Vec<std::collections::BTreeMap<String, Value>>,
        }
        let r = Rules::deserialize(de()).unwrap();
        assert_eq!(r.ingress.len(), 1, "{text}");
        let got: Vec<_> = r.ingress[0].iter().collect();
        assert_eq!(
            got,
            [
                (&"name".to_owned(), &unknown),
                (&"port".to_owned(), &unknown)
            ],
            "{text}"
        );
    }
}

/// A `dynamic` block inside a generated block, the outer one read whole
/// into a `Value`: the inner one is expanded too, in both syntaxes (its
/// `for_each` of two names gives two `rule` blocks).
#[test]
fn a_dynamic_block_inside_a_generated_block_read_whole_is_expanded() {
    let native = "dynamic \"group\" {\n  for_each = [\"g\"]\n  content {\n    name = group.value\n    dynamic \"rule\" {\n      for_each = [\"a\", \"b\"]\n      content {\n        id = rule.value\n      }\n    }\n  }\n}\n";
    let json = r#"{"dynamic": {"group": {"for_each": "${[\"g\"]}", "content": {"name": "${group.value}", "dynamic": {"rule": {"for_each": "${[\"a\", \"b\"]}", "content": {"id": "${rule.value}"}}}}}}}"#;
    let ctx = Context::new();
    let rule = |id: &str| {
        let mut m = hcl::Map::new();
        m.insert("id".to_owned(), Value::from(id));
        Value::Object(m)
    };
    let mut group = hcl::Map::new();
    group.insert("name".to_owned(), Value::from("g"));
    group.insert("rule".to_owned(), Value::Array(vec![rule("a"), rule("b")]));
    let mut want = hcl::Map::new();
    want.insert("group".to_owned(), Value::Object(group));
    for (text, syntax) in [(native, Syntax::Native), (json, Syntax::Json)] {
        let de = hcl::Deserializer::from_str(text)
            .with_syntax(syntax)
            .with_context(&ctx)
            .with_dynamic_blocks(true);
        let v = Value::deserialize(de).unwrap();
        assert_eq!(v, Value::Object(want.clone()), "{text}");
    }
}

/// Static properties of a type beside a `dynamic` property of it in a
/// JSON body: one after a generated block joins the type's group, in
/// order; two before any generated block are the repeated-name error
/// (at the second, naming the first's byte), as without `dynamic`; so
/// is a repeated property of another name, after the expansion.
#[test]
fn static_and_generated_blocks_of_one_json_type() {
    let ctx = Context::new();
    let dynamic = r#""dynamic": {"ingress": {"for_each": "${[\"b\"]}", "labels": ["${ingress.value}"], "content": {"port": 2}}}"#;
    let text = format!(
        r#"{{"ingress": {{"a": {{"port": 1}}}}, {dynamic}, "ingress": {{"c": {{"port": 3}}}}}}"#
    );
    let g = Group::deserialize(json_de(&text, &ctx)).unwrap();
    let got: Vec<(&str, u16)> = g
        .ingress
        .iter()
        .map(|i| (i.name.as_str(), i.port))
        .collect();
    assert_eq!(got, [("a", 1), ("b", 2), ("c", 3)]);
    let text = format!(
        r#"{{"ingress": {{"a": {{"port": 1}}}}, "ingress": {{"c": {{"port": 3}}}}, {dynamic}}}"#
    );
    let e = Group::deserialize(json_de(&text, &ctx)).unwrap_err();
    assert!(
        e.to_string()
            .contains("duplicate property `ingress` (first defined at byte 1)"),
        "{e}"
    );
    let text = format!(r#"{{"x": 1, {dynamic}, "x": 2}}"#);
    let e = Value::deserialize(json_de(&text, &ctx)).unwrap_err();
    assert!(
        e.to_string()
            .contains("duplicate property `x` (first defined at byte 1)"),
        "{e}"
    );
}
