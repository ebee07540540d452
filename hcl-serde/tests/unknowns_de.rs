//! Unknown values through serde: a typed target gets an error that names
//! the unknown value's place (snapshots reviewed by hand: path, line and
//! column must point at the expression that depends on the unknown
//! variable); a `hcl::Value` target holds it; serializing one fails.
#![allow(clippy::unwrap_used, clippy::expect_used, dead_code)]

use hcl::eval::Type;
use hcl::{Context, Value};
use serde::Deserialize;

#[derive(Deserialize, Debug)]
struct Listener {
    port: u16,
    address: String,
}

#[derive(Deserialize, Debug)]
struct Service {
    #[serde(rename = "$label")]
    name: String,
    listener: Vec<Listener>,
}

#[derive(Deserialize, Debug)]
struct Config {
    service: Vec<Service>,
}

fn ctx() -> Context {
    let mut ctx = Context::with_stdlib();
    ctx.declare_var("ip", Value::unknown(Type::String));
    ctx.declare_var("ports", Value::unknown(Type::list(Type::Number)));
    ctx
}

const CONFIG: &str = r#"service "web" {
  listener {
    port    = 80
    address = "10.0.0.1"
  }
  listener {
    port    = 8080
    address = "${ip}:8080"
  }
}
"#;

fn render<T: for<'de> Deserialize<'de> + std::fmt::Debug>(text: &str) -> String {
    let ctx = ctx();
    let de = hcl::Deserializer::from_str(text)
        .with_file_name("app.hcl")
        .with_context(&ctx);
    let err = T::deserialize(de).unwrap_err();
    format!("[{:?}] {err}", err.category())
}

#[test]
fn an_unknown_value_in_a_typed_field_is_an_error_at_its_place() {
    insta::assert_snapshot!(render::<Config>(CONFIG));
}

#[test]
fn an_unknown_number_for_an_integer_field() {
    insta::assert_snapshot!(render::<Config>(
        "service \"db\" {\n  listener {\n    port    = ports[0]\n    address = \"x\"\n  }\n}\n"
    ));
}

#[test]
fn option_and_serde_json_targets_refuse_it_too() {
    #[derive(Deserialize, Debug)]
    struct Opt {
        a: Option<String>,
    }
    let ctx = ctx();
    let e = hcl::from_str_with::<Opt>("a = ip\n", &ctx).unwrap_err();
    assert!(e.to_string().contains("the value is unknown"), "{e}");
    let e = hcl::from_str_with::<serde_json::Value>("a = [ip]\n", &ctx).unwrap_err();
    assert!(e.to_string().contains("the value is unknown"), "{e}");
    // An ignored field is never evaluated, so its unknown does not matter.
    #[derive(Deserialize, Debug)]
    struct Other {
        b: u8,
    }
    let ok: Other = hcl::from_str_with("a = ip\nb = 1\n", &ctx).unwrap();
    assert_eq!(ok.b, 1);
}

#[test]
fn a_value_target_holds_unknown_values_with_their_types() {
    let ctx = ctx();
    let v: Value = hcl::from_str_with(CONFIG, &ctx).unwrap();
    let listeners = &v["service"]["web"]["listener"];
    assert_eq!(listeners[0]["address"], "10.0.0.1");
    assert_eq!(listeners[1]["port"], 8080);
    assert_eq!(listeners[1]["address"], Value::unknown(Type::String));
    assert!(!v.is_wholly_known());

    let v: Value = hcl::from_str_with(
        "a = ports\nb = { for p in [1, 2] : p => ip }\nc = length(ports)\nd = [ports[0], 1.5]\n",
        &ctx,
    )
    .unwrap();
    assert_eq!(v["a"], Value::unknown(Type::list(Type::Number)));
    assert_eq!(v["b"]["1"], Value::unknown(Type::String));
    assert_eq!(v["b"]["2"], Value::unknown(Type::String));
    assert_eq!(v["c"], Value::unknown(Type::Number));
    assert_eq!(v["d"][0], Value::unknown(Type::Number));
    // An exact number beside it still arrives exactly.
    assert_eq!(v["d"][1], Value::Number("1.5".parse().unwrap()));

    // Object types keep their attribute names, whatever they are.
    let mut ctx = Context::new();
    let t = Type::Object(
        [
            ("a b".to_owned(), Type::String),
            ("n".to_owned(), Type::set(Type::Bool)),
        ]
        .into_iter()
        .collect(),
    );
    ctx.declare_var("o", Value::unknown(t.clone()));
    let v: Value = hcl::from_str_with("x = o\ny = [o]\n", &ctx).unwrap();
    assert_eq!(v["x"], Value::unknown(t.clone()));
    assert_eq!(v["y"][0], Value::unknown(t));
}

#[test]
fn from_value_and_display() {
    let v = Value::from_iter([("id", Value::unknown(Type::map(Type::String)))]);
    assert_eq!(v.to_string(), "{ id = unknown(map(string)) }");
    #[derive(Deserialize, Debug)]
    struct T {
        id: std::collections::BTreeMap<String, String>,
    }
    let e = hcl::from_value::<T>(v.clone()).unwrap_err();
    assert!(
        e.to_string()
            .contains("the value is unknown (only its type, map(string), is known)"),
        "{e}"
    );
    // A Value round-trips through from_value.
    assert_eq!(hcl::from_value::<Value>(v.clone()).unwrap(), v);
}

#[test]
fn serializing_an_unknown_value_is_an_error() {
    let v = Value::from_iter([("a", Value::from(1)), ("b", Value::unknown(Type::Number))]);
    let e = hcl::to_string(&v).unwrap_err();
    assert!(
        e.to_string()
            .contains("an unknown value (of type number) cannot be serialized"),
        "{e}"
    );
    let e = serde_json::to_string(&v).unwrap_err();
    assert!(e.to_string().contains("cannot be serialized"), "{e}");
}

/// go-cty's `convert.Convert` decides an unknown value's conversion on its
/// type: an unknown string to `number` is an unknown number, to
/// `list(string)` an error; an unknown of any type takes the target type.
/// typeexpr's defaults leave an unknown value alone.
#[test]
fn type_constraints_convert_unknowns_by_type() {
    use hcl::ext::typeexpr::TypeConstraint;
    let num = TypeConstraint::parse("number").unwrap();
    assert_eq!(
        num.convert(Value::unknown(Type::String)).unwrap(),
        Value::unknown(Type::Number)
    );
    let list = TypeConstraint::parse("list(string)").unwrap();
    assert!(list.convert(Value::unknown(Type::String)).is_err());
    assert_eq!(
        list.convert(Value::unknown(Type::Any)).unwrap(),
        Value::unknown(Type::list(Type::String))
    );
    // A known list holding an unknown element keeps it, converted.
    assert_eq!(
        list.convert(Value::Array(vec![
            Value::unknown(Type::Number),
            Value::from(1)
        ]))
        .unwrap(),
        Value::Array(vec![Value::unknown(Type::String), Value::from("1")])
    );
    let obj = TypeConstraint::parse("object({a = optional(string, \"x\"), b = number})").unwrap();
    let got = obj.convert(Value::unknown(Type::Any)).unwrap();
    assert_eq!(got, Value::unknown(obj.to_type()));
}

/// The JSON syntax: an unknown object key makes the object unknown, of any
/// type (hcl's json/structure.go), and templates in strings propagate.
#[test]
fn json_syntax_objects_and_templates() {
    let ctx = ctx();
    let v: Value = hcl::from_json_str_with(
        r#"{"a": {"${ip}": 1, "k": 2}, "b": "x-${ip}", "c": 3}"#,
        &ctx,
    )
    .unwrap();
    assert_eq!(v["a"], Value::unknown(Type::Any));
    assert_eq!(v["b"], Value::unknown(Type::String));
    assert_eq!(v["c"], 3);
}

/// A `RawExpression` built from an evaluated value writes it in HCL; an
/// unknown value has no HCL expression.
#[test]
fn an_unknown_value_cannot_be_captured_as_an_expression() {
    let v = Value::from_iter([("e", Value::unknown(Type::Bool))]);
    #[derive(Deserialize, Debug)]
    struct T {
        e: hcl::RawExpression,
    }
    let e = hcl::from_value::<T>(v).unwrap_err();
    assert!(
        e.to_string().contains("HCL has no expression for it"),
        "{e}"
    );
}
