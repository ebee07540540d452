//! The text errors of issue #10, rendered in full (message, file,
//! line:column, source line, carets). Each snapshot was reviewed by hand:
//! the caret must sit under the offending text, and the message must say
//! what the reference's diagnostic says in our words.
#![allow(clippy::unwrap_used, clippy::expect_used)]

fn render(text: &str) -> String {
    let de = hcl::Deserializer::from_str(text).with_file_name("t.hcl");
    let err = <hcl::Map<String, hcl::Value> as serde::Deserialize>::deserialize(de).unwrap_err();
    format!("[{:?}] {err}", err.category())
}

fn render_eval(text: &str) -> String {
    let mut ctx = hcl::Context::new();
    ctx.add_stdlib();
    let de = hcl::Deserializer::from_str(text)
        .with_context(&ctx)
        .with_file_name("t.hcl");
    let err = <hcl::Map<String, hcl::Value> as serde::Deserialize>::deserialize(de).unwrap_err();
    format!("[{:?}] {err}", err.category())
}

#[test]
fn too_few_arguments() {
    insta::assert_snapshot!(render_eval("a = upper()\n"));
}

#[test]
fn too_few_arguments_of_a_variadic_function() {
    insta::assert_snapshot!(render_eval("a = join()\n"));
}

#[test]
fn too_many_arguments() {
    insta::assert_snapshot!(render_eval("a = upper(\"a\", \"b\")\n"));
}

#[test]
fn lone_cr_in_a_quoted_string() {
    insta::assert_snapshot!(render("a = \"x\ry\"\n"));
}

#[test]
fn lone_cr_in_a_heredoc() {
    insta::assert_snapshot!(render("a = <<EOT\nx\ry\nEOT\n"));
}

#[test]
fn escaped_cr_in_a_quoted_string() {
    insta::assert_snapshot!(render("a = \"x\\\ry\"\n"));
}
