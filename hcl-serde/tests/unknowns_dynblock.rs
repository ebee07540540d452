//! Dynamic blocks whose `for_each` is unknown.
//!
//! hcl-oracle cannot declare unknown variables, so the expectations follow
//! the reference's source (hcl 2.14.1, `ext/dynblock`): `expand_body.go`
//! generates, for an unknown `for_each`, one block whose iterator's key and
//! value are `cty.DynamicVal` and whose body is an `unknownBody`
//! (`unknown_body.go`: every attribute, in nested blocks too, becomes
//! `cty.DynamicVal`; the schema is still checked); `expand_spec.go` refuses
//! an unknown label ("This value is not yet known") and a `for_each` whose
//! type cannot be iterated, even unknown ("Cannot use a string value").
#![allow(clippy::unwrap_used, clippy::expect_used)]

use hcl::eval::Type;
use hcl::ext::dynblock;
use hcl::schema::{BodySchema, File, SchemaBody};
use hcl::{Context, Syntax, Value};
use std::sync::Arc;

fn ctx() -> Arc<Context> {
    let mut ctx = Context::new();
    ctx.declare_var("ports", Value::unknown(Type::list(Type::Number)));
    ctx.declare_var("any", Value::unknown(Type::Any));
    ctx.declare_var("name", Value::unknown(Type::String));
    Arc::new(ctx)
}

fn attrs(body: &SchemaBody<'_>, ctx: &Context) -> Vec<(String, Value)> {
    body.just_attributes()
        .unwrap()
        .iter()
        .map(|a| (a.name.clone(), a.evaluate(Some(ctx)).unwrap()))
        .collect()
}

fn any() -> Value {
    Value::unknown(Type::Any)
}

#[test]
fn an_unknown_for_each_generates_one_block_of_unknown_attributes() {
    let src = "dynamic \"ingress\" {\n  for_each = ports\n  content {\n    from = ingress.value\n    fixed = 1\n  }\n}\nstatic = 2\n";
    let file = File::parse(src, Syntax::Native).unwrap();
    let ctx = ctx();
    let body = dynblock::expand(&file.body(), &ctx);
    let content = body
        .content(
            &BodySchema::new()
                .block("ingress", &[])
                .attribute("static", true),
        )
        .unwrap();
    assert_eq!(content.blocks.len(), 1);
    assert_eq!(
        attrs(&content.blocks[0].body, &ctx),
        [("from".to_owned(), any()), ("fixed".to_owned(), any())]
    );
    // Outside the generated block nothing changes.
    assert_eq!(
        content.attributes[0].evaluate(Some(&ctx)).unwrap(),
        Value::from(2)
    );
}

#[test]
fn an_unknown_of_any_type_and_a_constant_label() {
    let src = "dynamic \"svc\" {\n  for_each = any\n  labels = [\"fixed\"]\n  content {\n    v = svc.key\n  }\n}\n";
    let file = File::parse(src, Syntax::Native).unwrap();
    let ctx = ctx();
    let body = dynblock::expand(&file.body(), &ctx);
    let content = body
        .content(&BodySchema::new().block("svc", &["name"]))
        .unwrap();
    assert_eq!(content.blocks.len(), 1);
    assert_eq!(content.blocks[0].labels, ["fixed"]);
    assert_eq!(
        attrs(&content.blocks[0].body, &ctx),
        [("v".to_owned(), any())]
    );
}

#[test]
fn nested_blocks_of_an_unknown_block_are_unknown_too() {
    // The inner `for_each` is known: it still generates its two blocks,
    // whose attributes are unknown because they lie in the unknown block.
    let src = "dynamic \"outer\" {\n  for_each = ports\n  content {\n    dynamic \"inner\" {\n      for_each = [1, 2]\n      content {\n        v = inner.value\n      }\n    }\n    plain {\n      w = 3\n    }\n  }\n}\n";
    let file = File::parse(src, Syntax::Native).unwrap();
    let ctx = ctx();
    let body = dynblock::expand(&file.body(), &ctx);
    let content = body
        .content(&BodySchema::new().block("outer", &[]))
        .unwrap();
    assert_eq!(content.blocks.len(), 1);
    let inner = content.blocks[0]
        .body
        .content(&BodySchema::new().block("inner", &[]).block("plain", &[]))
        .unwrap();
    assert_eq!(inner.blocks.len(), 3);
    for b in &inner.blocks {
        for (_, v) in attrs(&b.body, &ctx) {
            assert_eq!(v, any(), "in block {}", b.type_name);
        }
    }
}

#[test]
fn unknown_labels_and_non_collections_are_refused() {
    let ctx = ctx();
    let schema = BodySchema::new().block("svc", &["name"]);
    let file = File::parse(
        "dynamic \"svc\" {\n  for_each = ports\n  labels = [svc.key]\n  content {}\n}\n",
        Syntax::Native,
    )
    .unwrap();
    let e = dynblock::expand(&file.body(), &ctx)
        .content(&schema)
        .unwrap_err();
    assert!(
        e.message()
            .contains("Invalid dynamic block label: This value is not yet known"),
        "{e}"
    );
    assert_eq!((e.line(), e.column()), (Some(3), Some(13)));

    let file = File::parse(
        "dynamic \"svc\" {\n  for_each = [\"a\", name]\n  labels = [svc.value]\n  content {}\n}\n",
        Syntax::Native,
    )
    .unwrap();
    let e = dynblock::expand(&file.body(), &ctx)
        .content(&schema)
        .unwrap_err();
    assert!(e.message().contains("This value is not yet known"), "{e}");

    let file = File::parse(
        "dynamic \"svc\" {\n  for_each = name\n  labels = [\"x\"]\n  content {}\n}\n",
        Syntax::Native,
    )
    .unwrap();
    let e = dynblock::expand(&file.body(), &ctx)
        .content(&schema)
        .unwrap_err();
    assert!(
        e.message()
            .contains("Cannot use a string value in for_each. An iterable collection is required."),
        "{e}"
    );
}

#[test]
fn a_known_for_each_with_unknown_elements_iterates_them() {
    let src = "dynamic \"b\" {\n  for_each = [name, \"x\"]\n  content {\n    v = b.value\n  }\n}\n";
    let file = File::parse(src, Syntax::Native).unwrap();
    let ctx = ctx();
    let content = dynblock::expand(&file.body(), &ctx)
        .content(&BodySchema::new().block("b", &[]))
        .unwrap();
    let got: Vec<Value> = content
        .blocks
        .iter()
        .map(|b| attrs(&b.body, &ctx).remove(0).1)
        .collect();
    assert_eq!(got, [Value::unknown(Type::String), Value::from("x")]);
}
