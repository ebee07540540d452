//! Regression tests for issue #10's text groups: template strip markers,
//! NFC strings, lexing edge cases, argument-count messages. Every expected
//! value was printed by the reference (`hcl-oracle`, hcl 2.14.1 + go-cty
//! 1.12.1); the command is given beside each group.

#![allow(clippy::expect_used, clippy::unwrap_used)]

use hcl::{Context, Value};

fn template(src: &str) -> Result<Value, hcl::Error> {
    let t = hcl_grammar::parse_template(src, &Default::default())?;
    let mut ctx = Context::new();
    ctx.add_stdlib();
    hcl::eval::eval_template(&t, &ctx)
}

fn tmpl_str(src: &str) -> String {
    match template(src) {
        Ok(Value::String(s)) => s,
        other => panic!("template {src:?}: expected a string, got {other:?}"),
    }
}

// Group 1: `hcl-oracle template FILE` on each input, byte for byte.

#[test]
fn strip_after_reaches_one_line_break_only() {
    assert_eq!(tmpl_str("${\"a\"~}\n  b"), "a  b");
    assert_eq!(tmpl_str("${\"a\"~}\n\n b"), "a\n b");
    assert_eq!(tmpl_str("${\"a\"~}   \n"), "a");
}

#[test]
fn strip_before_reaches_back_to_the_line_start_only() {
    assert_eq!(tmpl_str("a  \n  ${~\"b\"}"), "a  \nb");
}

#[test]
fn strip_with_crlf_and_tabs() {
    assert_eq!(tmpl_str("${\"a\"~}\r\n\tb"), "a\tb");
    assert_eq!(tmpl_str("a \t\r\n\t ${~\"b\"}"), "a \t\r\nb");
    // A lone CR is not a line break: the whole run is stripped.
    assert_eq!(tmpl_str("${\"a\"~}\r\r\nb"), "ab");
}

#[test]
fn strip_within_one_line_takes_all_spaces() {
    assert_eq!(tmpl_str("x \t ${~\"a\"~} \t y"), "xay");
}

#[test]
fn strip_around_directives_in_a_standalone_template() {
    assert_eq!(
        tmpl_str("a\n\n  %{~ if true ~}\n  x\n  %{~ endif ~}\n\n y"),
        "a\n\n  x\n\n y"
    );
    assert_eq!(
        tmpl_str("%{ for x in [1,2] ~}\n ${x}\n%{~ endfor }"),
        " 1 2"
    );
}

// Group 2: `hcl-oracle body FILE --vars VARS --funcs stdlib`.

fn eval_with_s(expr: &str) -> Value {
    let e = hcl_grammar::parse_expr(expr, &Default::default()).expect("parses");
    let mut ctx = Context::new();
    ctx.add_stdlib();
    ctx.declare_var("s", "cafe\u{301}");
    ctx.declare_var("l", Value::from(vec!["e\u{301}"]));
    hcl::eval::eval_expr(&e, &ctx).expect("evaluates")
}

#[test]
fn variables_are_nfc() {
    assert_eq!(eval_with_s("s"), Value::from("caf\u{e9}"));
    assert_eq!(eval_with_s("l"), Value::from(vec!["\u{e9}"]));
    assert_eq!(eval_with_s("s == \"caf\\u00e9\""), Value::Bool(true));
    assert_eq!(eval_with_s("strlen(s)"), Value::from(4));
    assert_eq!(eval_with_s("{(s) = 1}"), {
        let mut m = hcl::Map::new();
        m.insert("caf\u{e9}".to_owned(), Value::from(1));
        Value::Object(m)
    });
}

#[test]
fn function_results_are_nfc() {
    assert_eq!(eval_with_s("upper(s)"), Value::from("CAF\u{c9}"));
    assert_eq!(
        eval_with_s("jsondecode(\"\\\"e\\\\u0301\\\"\")"),
        Value::from("\u{e9}")
    );
    assert_eq!(eval_with_s("jsonencode(s)"), Value::from("\"caf\u{e9}\""));
}

#[test]
fn concatenations_are_nfc() {
    assert_eq!(eval_with_s("\"e${\"\\u0301\"}\""), Value::from("\u{e9}"));
    assert_eq!(eval_with_s("\"${s}\""), Value::from("caf\u{e9}"));
    assert_eq!(tmpl_str("e${\"\\u0301\"}"), "\u{e9}");
}

#[test]
fn block_labels_are_not_normalized() {
    // The reference keeps labels as written, escapes decoded.
    let body = hcl_grammar::parse_body(
        "b \"cafe\u{301}\" \"x\\u0301\" \"e\\u0301\" {\n}\n",
        &Default::default(),
    )
    .expect("parses");
    let hcl_grammar::Structure::Block(b) = &body.items[0] else {
        panic!("expected a block");
    };
    let labels: Vec<&str> = b.labels.iter().map(|l| l.as_str()).collect();
    assert_eq!(labels, ["cafe\u{301}", "x\u{301}", "e\u{301}"]);
}

// Group 5: `hcl-oracle body FILE`.

fn body_attr(src: &str) -> Result<Value, hcl::Error> {
    let body = hcl_grammar::parse_body(src, &Default::default())?;
    let hcl_grammar::Structure::Attribute(a) = &body.items[0] else {
        panic!("expected an attribute");
    };
    hcl::eval::eval_expr(&a.expr, &Context::new())
}

#[test]
fn double_slash_starts_a_comment_before_a_division() {
    assert_eq!(body_attr("a = 1 //**/ 2\n").unwrap(), Value::from(1));
    assert_eq!(body_attr("a = 1 /**/ / 2\n").unwrap(), Value::from(0.5));
    assert_eq!(body_attr("a = 4 /*x*/ /2\n").unwrap(), Value::from(2));
}

#[test]
fn a_lone_cr_in_a_quoted_string_is_a_syntax_error() {
    let e = body_attr("a = \"x\ry\"\n").unwrap_err();
    assert!(e.is_syntax(), "{e}");
    let e = body_attr("a = \"x\\\ry\"\n").unwrap_err();
    assert!(e.is_syntax(), "{e}");
}

#[test]
fn a_lone_cr_in_a_heredoc_is_a_syntax_error() {
    let e = body_attr("a = <<E\nx\ry\nE\n").unwrap_err();
    assert!(e.is_syntax(), "{e}");
}

#[test]
fn crlf_heredocs_and_lone_cr_in_comments_and_templates_are_fine() {
    assert_eq!(
        body_attr("a = <<E\r\nx\r\ny\r\nE\r\n").unwrap(),
        Value::from("x\r\ny\r\n")
    );
    assert_eq!(body_attr("a = 1 # c\r d\n").unwrap(), Value::from(1));
    assert_eq!(tmpl_str("x\ry"), "x\ry");
}

// Group 6.

#[test]
fn argument_count_message_names_the_count() {
    let e = hcl_grammar::parse_expr("upper()", &Default::default()).expect("parses");
    let mut ctx = Context::new();
    ctx.add_stdlib();
    let err = hcl::eval::eval_expr(&e, &ctx).unwrap_err();
    let msg = err.to_string();
    assert!(
        msg.contains("the function requires 1 argument; missing `str`"),
        "{msg}"
    );
}

#[test]
fn a_sign_pair_before_a_line_break_is_its_own_token() {
    // hclsyntax's scanner: `$` or `%` and one more character end a line's
    // token before its line break, so `${~` strips the break only.
    assert_eq!(tmpl_str("$ \n${~1}"), "$ 1");
    assert_eq!(tmpl_str("$\t\n${~1}"), "$\t1");
    assert_eq!(tmpl_str("$\r\n${~1}"), "$\r1");
    assert_eq!(tmpl_str("$ \r\n${~1}"), "$ 1");
    assert_eq!(tmpl_str("a $ \n${~1}"), "a $ 1");
    assert_eq!(tmpl_str("$  \n${~1}"), "$1");
    assert_eq!(tmpl_str("$\t \n${~1}"), "$1");
    assert_eq!(tmpl_str("$ \n \n${~1}"), "$ \n1");
    assert_eq!(
        body_attr("a = <<E\nx$\r\n${~1}\nE\n").unwrap(),
        Value::from("x$\r1\n")
    );
    assert_eq!(
        body_attr("a = <<E\n$ \nx${~1}\nE\n").unwrap(),
        Value::from("$ \nx1\n")
    );
}

#[test]
fn expression_and_body_deserialize_from_strings_of_other_formats() {
    #[derive(serde::Deserialize)]
    struct Rule {
        when: hcl::RawExpression,
        page: hcl::RawBody,
    }
    let rule: Rule =
        serde_json::from_str(r#"{"when": "request.size > limit", "page": "title = \"t\"\n"}"#)
            .expect("a JSON string is an expression");
    assert_eq!(rule.when.as_str(), "request.size > limit");
    let mut ctx = Context::new();
    ctx.declare_var("request", Value::from_iter([("size", 12)]));
    ctx.declare_var("limit", 10);
    assert_eq!(rule.when.evaluate(&ctx).unwrap(), Value::Bool(true));
    assert_eq!(rule.page.as_str(), "title = \"t\"\n");
    let bad = serde_json::from_str::<Rule>(r#"{"when": "1 +", "page": ""}"#);
    assert!(bad.is_err());
    // From HCL the expression is still captured, not evaluated.
    let rule: Rule = hcl::from_str("when = a.b\npage {\n  x = 1\n}\n").unwrap();
    assert_eq!(rule.when.as_str(), "a.b");
}

#[test]
fn string_to_bool_is_one_rule_for_values_and_map_keys() {
    // go-cty: "true"/"1" and "false"/"0" (conversion_primitive.go).
    #[derive(serde::Deserialize)]
    struct T {
        flag: bool,
        by_key: std::collections::BTreeMap<bool, i32>,
    }
    let t: T = hcl::from_str("flag = \"1\"\nby_key = { \"1\" = 1, \"0\" = 0 }\n").unwrap();
    assert!(t.flag);
    assert_eq!(t.by_key.get(&true), Some(&1));
    assert_eq!(t.by_key.get(&false), Some(&0));
}

#[test]
fn label_fields_work_beside_a_flattened_field() {
    #[derive(serde::Deserialize, Debug)]
    struct Config {
        service: Vec<Service>,
    }
    #[derive(serde::Deserialize, Debug)]
    struct Service {
        #[serde(rename = "$label")]
        name: String,
        #[serde(flatten)]
        rest: std::collections::BTreeMap<String, Value>,
    }
    let c: Config =
        hcl::from_str("service \"web\" {\n  port = 80\n}\nservice \"db\" {\n  port = 5432\n}\n")
            .expect("labels reach `$label` beside a flattened map");
    assert_eq!(c.service.len(), 2);
    assert_eq!(c.service[0].name, "web");
    assert_eq!(c.service[1].name, "db");
    assert_eq!(c.service[1].rest.get("port"), Some(&Value::from(5432)));
    assert_eq!(c.service[0].rest.len(), 1, "{:?}", c.service[0].rest);

    // A plain map target still nests by label.
    let m: std::collections::BTreeMap<String, std::collections::BTreeMap<String, Value>> =
        hcl::from_str("service \"web\" {\n  port = 80\n}\n")
            .map(|mut c: std::collections::BTreeMap<String, _>| c.remove("service").unwrap())
            .unwrap();
    assert_eq!(m["web"]["port"], Value::from(80));
}
