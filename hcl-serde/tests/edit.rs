//! `hcl::edit`: attributes set from serde values, read back as expressions
//! and evaluated. Expected outputs are `hclwrite`'s for the same edits
//! (`shared/oracle/bin/hcl-oracle edit F OPS.json`), quoted here.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use hcl::edit::{value_expression, AttributeExt, BodyExt, Document};
use hcl::{Context, Value};
use serde::Serialize;
use std::collections::BTreeMap;

#[derive(Serialize)]
struct Service {
    name: String,
    ports: Vec<u16>,
    weight: f64,
    on: bool,
    tags: BTreeMap<String, Option<String>>,
}

#[test]
fn a_struct_is_written_as_hclwrite_writes_its_value() {
    // hcl-oracle: set_value b to {"name": "web", "ports": [80, 443],
    // "weight": 0.5, "on": true, "tags": {"Team": "x", "a-b": null}}.
    let mut doc: Document = "a = <<EOT\nhello\nEOT\nb = 1 # c\n".parse().unwrap();
    let service = Service {
        name: "web".into(),
        ports: vec![80, 443],
        weight: 0.5,
        on: true,
        tags: BTreeMap::from([("Team".into(), Some("x".into())), ("a-b".into(), None)]),
    };
    doc.body_mut().set_attribute_value("b", &service).unwrap();
    assert_eq!(
        doc.to_formatted_string().unwrap(),
        "a = <<EOT\nhello\nEOT\nb = {\n  name  = \"web\"\n  on    = true\n  ports = [80, 443]\n  tags = {\n    Team = \"x\"\n    a-b  = null\n  }\n  weight = 0.5\n} # c\n"
    );
    let b = doc.body().get_attribute("b").unwrap();
    let v = b.evaluate(&Context::none()).unwrap();
    assert_eq!(v["ports"][1], Value::from(443));
    let a = doc.body().get_attribute("a").unwrap();
    assert_eq!(
        a.evaluate(&Context::none()).unwrap(),
        Value::from("hello\n")
    );
    assert_eq!(a.raw_expression().unwrap().as_str(), "<<EOT\nhello\nEOT\n");
}

#[test]
fn values_that_cannot_be_written() {
    assert!(value_expression(&Value::unknown(hcl::eval::Type::Any)).is_err());
    let inf = Value::Number(hcl::Number::INFINITY);
    assert!(value_expression(&inf).is_err());
    let mut doc = Document::default();
    assert!(doc.body_mut().set_attribute_value("not ok", &1).is_err());
    assert_eq!(doc.to_string(), "");
}

#[test]
fn evaluating_with_a_context() {
    let doc: Document = "port = var.base + 1\n".parse().unwrap();
    let mut ctx = Context::new();
    ctx.declare_var("var", Value::from_iter([("base", 8079)]));
    let port = doc.body().get_attribute("port").unwrap();
    assert_eq!(port.evaluate(&ctx).unwrap(), Value::from(8080));
}
