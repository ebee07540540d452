//! The errors of several files as one body (`hcl::schema::merge`) and of
//! dynamic blocks (`hcl::ext::dynblock`), rendered in full. Each snapshot
//! was reviewed by hand: the file is the one the reference names, the
//! caret sits where the reference's diagnostic points, the words say what
//! it says.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use hcl::ext::dynblock;
use hcl::schema::{merge, BodySchema, File, SchemaBody};
use hcl::{Context, Syntax};
use std::sync::Arc;

fn render(err: &hcl::Error) -> String {
    format!("[{:?}] {err}", err.category())
}

/// Decodes every block with `inner` after the root with `root`, then
/// evaluates every attribute: the first error.
fn first_error(body: &SchemaBody<'_>, root: &BodySchema, inner: &BodySchema) -> String {
    let ctx = Context::new();
    let run = || -> hcl::Result<()> {
        let content = body.content(root)?;
        for a in &content.attributes {
            a.evaluate(Some(&ctx))?;
        }
        for b in &content.blocks {
            for a in b.body.content(inner)?.attributes {
                a.evaluate(Some(&ctx))?;
            }
        }
        Ok(())
    };
    render(&run().unwrap_err())
}

fn merged_error(files: &[(&str, &str)], root: &BodySchema) -> String {
    let files: Vec<File<'_>> = files
        .iter()
        .map(|(n, t)| File::parse_named(*n, t, Syntax::Native).unwrap())
        .collect();
    first_error(&merge(&files), root, &BodySchema::new())
}

fn dynamic_error(src: &str, root: &BodySchema, inner: &BodySchema) -> String {
    let file = File::parse_named("main.tf", src, Syntax::Native).unwrap();
    let ctx = Arc::new(Context::new());
    first_error(&dynblock::expand(&file.body(), &ctx), root, inner)
}

#[test]
fn merge_duplicate_attribute_names_both_files() {
    insta::assert_snapshot!(merged_error(
        &[
            ("a.tf", "region = \"eu\"\n"),
            ("b.tf", "\n  region = \"us\"\n")
        ],
        &BodySchema::new().attribute("region", false),
    ));
}

#[test]
fn merge_unsupported_block_in_second_file() {
    insta::assert_snapshot!(merged_error(
        &[("a.tf", "name = 1\n"), ("b.tf", "resorce \"x\" {\n}\n")],
        &BodySchema::new()
            .attribute("name", false)
            .block("resource", &["type"]),
    ));
}

#[test]
fn merge_required_attribute_in_no_file() {
    insta::assert_snapshot!(merged_error(
        &[("a.tf", ""), ("b.tf", "")],
        &BodySchema::new().attribute("name", true),
    ));
}

#[test]
fn merge_eval_error_in_third_file() {
    insta::assert_snapshot!(merged_error(
        &[
            ("a.tf", "a = 1\n"),
            ("b.tf", "b = 2\n"),
            ("c.tf", "\nc = 1 + \"x\"\n")
        ],
        &BodySchema::new()
            .attribute("a", false)
            .attribute("b", false)
            .attribute("c", false),
    ));
}

#[test]
fn merge_parse_error_names_its_file() {
    let err = File::parse_named("broken.tf", "a = 1\nb = \n", Syntax::Native).unwrap_err();
    insta::assert_snapshot!(render(&err));
}

fn ingress() -> BodySchema {
    BodySchema::new().block("ingress", &[])
}

#[test]
fn dynamic_for_each_null() {
    insta::assert_snapshot!(dynamic_error(
        "dynamic \"ingress\" {\n  for_each = null\n  content {}\n}\n",
        &ingress(),
        &BodySchema::new(),
    ));
}

#[test]
fn dynamic_for_each_string() {
    insta::assert_snapshot!(dynamic_error(
        "dynamic \"ingress\" {\n  for_each = \"80\"\n  content {}\n}\n",
        &ingress(),
        &BodySchema::new(),
    ));
}

#[test]
fn dynamic_missing_content() {
    insta::assert_snapshot!(dynamic_error(
        "dynamic \"ingress\" {\n  for_each = [1]\n}\n",
        &ingress(),
        &BodySchema::new(),
    ));
}

#[test]
fn dynamic_two_contents() {
    insta::assert_snapshot!(dynamic_error(
        "dynamic \"ingress\" {\n  for_each = [1]\n  content {}\n  content {}\n}\n",
        &ingress(),
        &BodySchema::new(),
    ));
}

#[test]
fn dynamic_iterator_not_a_name() {
    insta::assert_snapshot!(dynamic_error(
        "dynamic \"ingress\" {\n  for_each = [1]\n  iterator = it.x\n  content {}\n}\n",
        &ingress(),
        &BodySchema::new(),
    ));
}

#[test]
fn dynamic_labels_not_a_list_expression() {
    insta::assert_snapshot!(dynamic_error(
        "dynamic \"service\" {\n  for_each = [1]\n  labels = var.names\n  content {}\n}\n",
        &BodySchema::new().block("service", &["name"]),
        &BodySchema::new(),
    ));
}

#[test]
fn dynamic_label_null() {
    insta::assert_snapshot!(dynamic_error(
        "dynamic \"service\" {\n  for_each = [1]\n  labels = [null]\n  content {}\n}\n",
        &BodySchema::new().block("service", &["name"]),
        &BodySchema::new(),
    ));
}

#[test]
fn dynamic_unsupported_block_type() {
    insta::assert_snapshot!(dynamic_error(
        "dynamic \"egress\" {\n  for_each = [1]\n  content {}\n}\n",
        &ingress(),
        &BodySchema::new(),
    ));
}

#[test]
fn dynamic_content_error_uses_iterator() {
    insta::assert_snapshot!(dynamic_error(
        "dynamic \"ingress\" {\n  for_each = [1]\n  content {\n    port = ingress.value + \"x\"\n  }\n}\n",
        &ingress(),
        &BodySchema::new().attribute("port", false),
    ));
}

#[test]
fn dynamic_content_missing_required_attribute() {
    insta::assert_snapshot!(dynamic_error(
        "dynamic \"ingress\" {\n  for_each = [1]\n  content {\n    note = \"x\"\n  }\n}\n",
        &ingress(),
        &BodySchema::new()
            .attribute("port", true)
            .attribute("note", false),
    ));
}
