//! Every kind of error the deserializer reports, rendered in full (message,
//! path, file, line:column, source line, carets). Each snapshot was
//! reviewed by hand: the caret must sit under the offending text.
#![allow(clippy::unwrap_used, clippy::expect_used, dead_code)]

use serde::Deserialize;

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
struct Listener {
    port: u16,
    protocol: Option<String>,
}

#[derive(Deserialize, Debug)]
struct Service {
    #[serde(rename = "$label")]
    name: String,
    #[serde(default)]
    listener: Vec<Listener>,
    replicas: u8,
}

#[derive(Deserialize, Debug)]
struct Config {
    service: Vec<Service>,
}

fn render<T: for<'de> Deserialize<'de> + std::fmt::Debug>(text: &str) -> String {
    let de = hcl::Deserializer::from_str(text).with_file_name("app.hcl");
    let err = T::deserialize(de).unwrap_err();
    format!("[{:?}] {err}", err.category())
}

#[test]
fn syntax_error() {
    insta::assert_snapshot!(render::<Config>("service \"web\" {\n  replicas = = 2\n}\n"));
}

#[test]
fn evaluation_error_without_context() {
    insta::assert_snapshot!(render::<Config>(
        "service \"web\" {\n  replicas = var.count\n}\n"
    ));
}

#[test]
fn unknown_field_suggests_the_closest_name() {
    insta::assert_snapshot!(render::<Config>(
        "service \"web\" {\n  replicas = 1\n  listener {\n    port = 80\n    protcol = \"tcp\"\n  }\n}\n"
    ));
}

#[test]
fn missing_field_points_at_the_block() {
    insta::assert_snapshot!(render::<Config>(
        "service \"web\" {\n  replicas = 1\n}\nservice \"api\" {\n  listener {\n    port = 1\n  }\n}\n"
    ));
}

#[test]
fn missing_field_at_the_top_level_points_at_the_start_of_the_file() {
    // The reference's MissingItemRange of a file body is its start: line
    // 1, column 1, whatever comes first in the file.
    insta::assert_snapshot!(render::<Config>("# services\nother = 1\nmore {\n}\n"));
}

#[test]
fn missing_field_in_an_empty_file() {
    insta::assert_snapshot!(render::<Config>(""));
}

#[test]
fn out_of_range_with_path() {
    insta::assert_snapshot!(render::<Config>(
        "service \"web\" {\n  replicas = 1\n  listener { port = 80 }\n  listener { port = 70000 }\n}\n"
    ));
}

#[test]
fn invalid_type() {
    insta::assert_snapshot!(render::<Config>(
        "service \"web\" {\n  replicas = [1, 2]\n}\n"
    ));
}

#[test]
fn string_that_is_not_a_number() {
    insta::assert_snapshot!(render::<Config>(
        "service \"web\" {\n  replicas = \"three\"\n}\n"
    ));
}

#[test]
fn duplicate_block_for_a_single_value() {
    #[derive(Deserialize, Debug)]
    struct C {
        listener: Listener,
    }
    insta::assert_snapshot!(render::<C>(
        "listener { port = 1 }\nlistener { port = 2 }\n"
    ));
}

#[test]
fn unexpected_label() {
    #[derive(Deserialize, Debug)]
    struct C {
        listener: Listener,
    }
    insta::assert_snapshot!(render::<C>("listener \"tcp\" {\n  port = 1\n}\n"));
}

#[test]
fn unknown_variant() {
    #[derive(Deserialize, Debug)]
    #[serde(rename_all = "lowercase")]
    enum Mode {
        Fast,
        Safe,
    }
    #[derive(Deserialize, Debug)]
    struct C {
        mode: Mode,
    }
    insta::assert_snapshot!(render::<C>("mode = \"sfae\"\n"));
}

#[test]
fn too_deep() {
    let value = "[".repeat(100) + &"]".repeat(100);
    let text = format!("x = {value}\n");
    let de = hcl::Deserializer::from_str(&text).with_max_depth(10);
    let err = hcl::Value::deserialize(de).unwrap_err();
    assert!(err.is_data());
    insta::assert_snapshot!(format!("[{:?}] {}", err.category(), err.message()));
}

#[test]
fn missing_field_of_a_captured_body_points_at_the_body() {
    #[derive(Deserialize, Debug)]
    struct Outer {
        template: hcl::RawBody,
    }
    #[derive(Deserialize, Debug)]
    struct Page {
        title: String,
        footer: String,
    }
    let outer: Outer = hcl::from_str("x = 1\ntemplate {\n  title = \"t\"\n}\n").unwrap();
    let err = outer
        .template
        .deserialize_with::<Page>(&hcl::Context::none())
        .unwrap_err();
    assert_eq!(err.message(), "missing field `footer`");
    assert_eq!(err.path(), Some("footer"));
    // Just after the `{` of `template {` (line 2, column 10).
    assert_eq!((err.line(), err.column()), (Some(2), Some(11)), "{err}");
}

// Issue 22, item 4: a block without the label a map keyed by label needs
// says so, at the block (not "invalid type: integer `1`, expected struct").
#[test]
fn missing_block_label_for_a_map_keyed_by_label() {
    #[derive(Deserialize, Debug)]
    struct Svc {
        port: u16,
    }
    #[derive(Deserialize, Debug)]
    struct Cfg {
        service: std::collections::HashMap<String, Svc>,
    }
    insta::assert_snapshot!(render::<Cfg>("service {\n  port = 1\n}\n"));
}

// `null` where a string is required is "null", not serde's "unit value".
#[test]
fn null_into_a_string_says_null() {
    #[derive(Deserialize, Debug)]
    struct Cfg {
        name: String,
    }
    insta::assert_snapshot!(render::<Cfg>("name = null\n"));
}

// A repeated label in a map keyed by label: no advice to use a Vec.
#[test]
fn duplicate_label_in_a_map_keyed_by_label() {
    #[derive(Deserialize, Debug)]
    struct Svc {
        port: u16,
    }
    #[derive(Deserialize, Debug)]
    struct Cfg {
        service: std::collections::HashMap<String, Svc>,
    }
    insta::assert_snapshot!(render::<Cfg>(
        "service \"web\" {\n  port = 1\n}\nservice \"web\" {\n  port = 2\n}\n"
    ));
}
