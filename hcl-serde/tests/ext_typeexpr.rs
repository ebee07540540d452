//! Type constraints (`hcl::ext::typeexpr`): expected values are the
//! output of `hcl-oracle typeexpr FILE --convert VALUE.json` on the same
//! inputs (hcl 2.14.1, go-cty 1.12.1). The suite in
//! `../shared/conformance-ext/typeexpr/` is run by `tests/conformance.rs`.

use hcl::eval::{eval_expr_str, Type};
use hcl::ext::typeexpr::TypeConstraint;
use hcl::{Context, Value};
use serde::Deserialize;

fn value(text: &str) -> hcl::Result<Value> {
    eval_expr_str(text, &Context::none())
}

#[test]
fn typed_null_default_gets_nested_defaults() -> hcl::Result<()> {
    // The reference: a null default of object type is a typed null, which
    // the defaults transformer fills (unlike an untyped null value).
    let t = TypeConstraint::parse(
        r#"object({ cfg = optional(object({ x = optional(number, 7) }), null), m = optional(map(object({ y = optional(string, "d") })), { k = {} }) })"#,
    )?;
    assert_eq!(
        t.convert(value("{}")?)?,
        value(r#"{ cfg = { x = 7 }, m = { k = { y = "d" } } }"#)?
    );
    let d: Vec<(String, String, Value)> = t
        .defaults()
        .into_iter()
        .map(|d| (d.path, d.attribute, d.value))
        .collect();
    assert_eq!(
        d,
        [
            ("".into(), "cfg".into(), Value::Null),
            ("".into(), "m".into(), value(r#"{ k = { y = null } }"#)?),
            (".cfg".into(), "x".into(), value("7")?),
            (".m[*]".into(), "y".into(), value(r#""d""#)?),
        ]
    );
    Ok(())
}

#[test]
fn set_of_objects_fills_absent_optional_attributes() -> hcl::Result<()> {
    let t = TypeConstraint::parse("set(object({ a = optional(list(number)) }))")?;
    let (v, ty) = t.convert_typed(value(r#"[{ a = [1] }, {}, null]"#)?)?;
    assert_eq!(v, value("[{ a = [1] }, { a = null }, null]")?);
    let obj = Type::Object(
        [("a".to_owned(), Type::list(Type::Number))]
            .into_iter()
            .collect(),
    );
    assert_eq!(ty, Type::set(obj));
    Ok(())
}

#[test]
fn display_round_trips() -> hcl::Result<()> {
    let text = "map(object({a=optional(list(string)), b=tuple([number, any]), c=set(bool)}))";
    let t = TypeConstraint::parse(text)?;
    assert_eq!(t.to_string(), text);
    assert_eq!(TypeConstraint::parse(&t.to_string())?, t);
    Ok(())
}

#[test]
fn deserializes_from_an_attribute() -> hcl::Result<()> {
    #[derive(Deserialize)]
    struct Variable {
        #[serde(rename = "$label")]
        name: String,
        #[serde(rename = "type")]
        ty: TypeConstraint,
    }
    #[derive(Deserialize)]
    struct Module {
        variable: Vec<Variable>,
    }
    let m: Module = hcl::from_str(
        "variable \"ports\" {\n  type = list(number)\n}\nvariable \"tags\" {\n  type = map(string)\n}\n",
    )?;
    assert_eq!(m.variable[0].name, "ports");
    assert_eq!(
        m.variable[0].ty,
        TypeConstraint::List(Box::new(TypeConstraint::Number))
    );
    assert_eq!(m.variable[1].ty.to_type(), Type::map(Type::String));
    // From another format: a string holding the expression.
    let t: TypeConstraint = hcl::from_value(Value::from("set(string)"))?;
    assert_eq!(t, TypeConstraint::Set(Box::new(TypeConstraint::String)));
    Ok(())
}

/// `Display` writes defaults, and its text parses back to the same
/// constraint (issue #22: `optional(number, 2)` printed as
/// `optional(number)`). Each expected text was given to `hcl-oracle
/// typeexpr`, which reads it to the same type and defaults as the input.
#[test]
fn display_keeps_defaults_and_round_trips() -> hcl::Result<()> {
    let cases = [
        (
            "object({a=optional(number, 2)})",
            "object({a=optional(number, 2)})",
        ),
        (
            r#"list(object({ name = string, tags = optional(set(string), ["b", "a", "b"]) }))"#,
            r#"list(object({name=string, tags=optional(set(string), ["a", "b"])}))"#,
        ),
        (
            r#"object({ s = optional(string, "q\"$${x}%%{y}\n"), n = optional(number, "1.50"), z = optional(bool, null) })"#,
            r#"object({n=optional(number, 1.5), s=optional(string, "q\"$${x}%%{y}\n"), z=optional(bool, null)})"#,
        ),
        (
            r#"object({ cfg = optional(object({ x = optional(number, 7) }), null), m = optional(map(object({ y = optional(string, "d") })), { k = {} }) })"#,
            r#"object({cfg=optional(object({x=optional(number, 7)}), null), m=optional(map(object({y=optional(string, "d")})), { k = { y = null } })})"#,
        ),
        (
            r#"tuple([object({ o = optional(map(number), { "a b" = 1, c = -0.25 }) }), any])"#,
            r#"tuple([object({o=optional(map(number), { "a b" = 1, c = -0.25 })}), any])"#,
        ),
    ];
    for (input, want) in cases {
        let t = TypeConstraint::parse(input)?;
        let text = t.to_string();
        assert_eq!(text, want, "{input}");
        assert_eq!(
            TypeConstraint::parse(&text)?,
            t,
            "{text} reads back differently"
        );
    }
    Ok(())
}
