//! The errors of issue #13's extensions (type constraints, user
//! functions), rendered in full. Each snapshot was reviewed by hand: the
//! caret must sit under the offending text, the words say what the
//! reference's diagnostic says.
#![allow(clippy::unwrap_used, clippy::expect_used, dead_code)]

use hcl::ext::typeexpr::TypeConstraint;
use serde::Deserialize;

fn type_error(text: &str) -> String {
    let err = TypeConstraint::parse(text).unwrap_err();
    format!("[{:?}] {err}", err.category())
}

fn convert_error(ty: &str, value: &str) -> String {
    let t = TypeConstraint::parse(ty).unwrap();
    let v = hcl::eval::eval_expr_str(value, &hcl::Context::none()).unwrap();
    let err = t.convert(v).unwrap_err();
    format!("[{:?}] {err}", err.category())
}

#[test]
fn type_unknown_keyword() {
    insta::assert_snapshot!(type_error("map(object({ a = strng }))"));
}

#[test]
fn type_constructor_argument_count() {
    insta::assert_snapshot!(type_error("list(string, number)"));
}

#[test]
fn type_optional_outside_object() {
    insta::assert_snapshot!(type_error("list(optional(string))"));
}

#[test]
fn type_default_not_convertible() {
    insta::assert_snapshot!(type_error(
        "object({\n  size = optional(number, \"big\")\n})"
    ));
}

#[test]
fn type_default_uses_a_variable() {
    insta::assert_snapshot!(type_error("object({ size = optional(number, var.size) })"));
}

#[test]
fn convert_missing_nested_attribute() {
    insta::assert_snapshot!(convert_error(
        "map(object({ name = string, size = optional(number, 1) }))",
        r#"{ a = { name = "x" }, b = { size = 2 } }"#
    ));
}

#[test]
fn convert_bool_from_capitalised_string() {
    insta::assert_snapshot!(convert_error("bool", r#""True""#));
}

#[test]
fn type_from_an_attribute() {
    let de = hcl::Deserializer::from_str("variable {\n  type = list(strin)\n}\n")
        .with_file_name("main.tf");
    #[derive(Deserialize, Debug)]
    struct M {
        variable: V,
    }
    #[derive(Deserialize, Debug)]
    struct V {
        #[serde(rename = "type")]
        ty: TypeConstraint,
    }
    let err = M::deserialize(de).unwrap_err();
    insta::assert_snapshot!(format!("[{:?}] {err}", err.category()));
}

fn userfunc_error(src: &str) -> String {
    let err = hcl::ext::userfunc::parse(src).unwrap_err();
    format!("[{:?}] {err}", err.category())
}

#[test]
fn userfunc_missing_result() {
    insta::assert_snapshot!(userfunc_error("function \"f\" {\n  params = [a]\n}\n"));
}

#[test]
fn userfunc_param_not_a_name() {
    insta::assert_snapshot!(userfunc_error(
        "function \"f\" {\n  params = [a, \"b\"]\n  result = a\n}\n"
    ));
}

#[test]
fn userfunc_extra_label() {
    insta::assert_snapshot!(userfunc_error(
        "function \"f\" \"g\" {\n  params = []\n  result = 1\n}\n"
    ));
}

#[test]
fn userfunc_error_inside_result() {
    let src = "function \"bad\" {\n  params = [s]\n  result = s + 1\n}\n";
    let funcs = hcl::ext::userfunc::parse(src).unwrap();
    let base = std::sync::Arc::new(hcl::Context::new());
    let mut ctx = hcl::Context::child(&base);
    hcl::ext::userfunc::declare(&funcs, &mut ctx, &base);
    let err = hcl::eval::eval_expr_str("bad(\"abc\")", &ctx).unwrap_err();
    insta::assert_snapshot!(format!("[{:?}] {err}", err.category()));
}
