//! Numbers reach an `hcl::Value` target exactly, through every path of
//! this crate's deserializers (see the `Deserialize` impl of `Value`), and
//! foreign formats and buffering targets keep working with plain numbers.
//!
//! Expected texts come from the reference implementation (`hcl-oracle body`
//! on the same attributes), except where the `Number` module documents that
//! we keep an exact decimal (`1.1 * 3` is exactly `3.3`).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use hcl::{Context, Number, RawExpression, Value};
use serde::Deserialize;

fn num(text: &str) -> Value {
    Value::Number(Number::from_literal(text).unwrap())
}

/// What evaluating `expr` on its own gives (the value the deserializer
/// must hand over unchanged).
fn eval(expr: &str) -> Value {
    RawExpression::parse(expr)
        .unwrap()
        .evaluate(&Context::none())
        .unwrap()
}

/// Asserts that `v` is a number equal to `want` and prints as `text`.
fn assert_number(v: &Value, want: &Value, text: &str) {
    assert!(matches!(v, Value::Number(_)), "not a number: {v:?}");
    assert_eq!(v, want);
    assert_eq!(v.as_number().unwrap().to_string(), text);
}

/// Attribute, expression and the reference's printing of its value.
const CASES: &[(&str, &str, &str)] = &[
    ("sum", "0.1 + 0.2", "0.3"),
    // The reference prints 3.3000...0002 (binary floats); our Number keeps
    // the exact decimal, as documented in the number module.
    ("product", "1.1 * 3", "3.3"),
    (
        "long",
        "0.1000000000000000000000000001",
        "0.1000000000000000000000000001",
    ),
    ("big", "1e30", "1000000000000000000000000000000"),
    ("tiny", "1e-40", "0.0000000000000000000000000000000000000001"),
    (
        "third",
        "1 / 3",
        "0.33333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333335",
    ),
    ("negzero", "-0", "-0"),
    ("half", "-2.5", "-2.5"),
];

fn file() -> String {
    CASES
        .iter()
        .map(|(name, expr, _)| format!("{name} = {expr}\n"))
        .collect()
}

#[test]
fn top_level_attributes_from_str() {
    let v: Value = hcl::from_str(&file()).unwrap();
    for (name, expr, text) in CASES {
        assert_number(v.get(*name).unwrap(), &eval(expr), text);
    }
    // The f64 route would lose these (what `visit_f64` used to give).
    for name in ["long", "third"] {
        let n = v.get(name).unwrap().as_number().unwrap().clone();
        let via_f64 = Number::from_f64(n.as_f64()).unwrap();
        assert_ne!(via_f64.to_string(), n.to_string(), "{name}");
    }
}

#[test]
fn nested_in_arrays_objects_and_blocks() {
    let exprs: Vec<&str> = CASES.iter().map(|c| c.1).collect();
    let list = exprs.join(", ");
    let object: String = CASES
        .iter()
        .map(|(name, expr, _)| format!("{name} = {expr}, "))
        .collect();
    let text = format!(
        "list = [{list}]\nobject = {{ {object} }}\ncomputed = [for x in [{list}]: x]\nblock \"a\" {{\n  inner {{\n{}  }}\n}}\n",
        file()
    );
    let v: Value = hcl::from_str(&text).unwrap();
    for (i, (name, expr, printed)) in CASES.iter().enumerate() {
        let want = eval(expr);
        assert_number(v.get("list").unwrap().get(i).unwrap(), &want, printed);
        assert_number(v.get("object").unwrap().get(*name).unwrap(), &want, printed);
        assert_number(v.get("computed").unwrap().get(i).unwrap(), &want, printed);
        assert_number(
            v.get("block")
                .unwrap()
                .get("a")
                .unwrap()
                .get("inner")
                .unwrap()
                .get(*name)
                .unwrap(),
            &want,
            printed,
        );
    }
}

#[test]
fn from_value_keeps_every_number() {
    let original: Value =
        hcl::from_str(&format!("root = [{{ {} }}]\n", file().replace('\n', ", "))).unwrap();
    let copy: Value = hcl::from_value(original.clone()).unwrap();
    assert_eq!(copy, original);
    for (name, expr, text) in CASES {
        assert_number(
            copy.get("root")
                .unwrap()
                .get(0)
                .unwrap()
                .get(*name)
                .unwrap(),
            &eval(expr),
            text,
        );
    }
}

#[test]
fn expression_and_body_evaluation_paths() {
    #[derive(Deserialize)]
    struct Captures {
        expr: RawExpression,
        body: hcl::RawBody,
        opt: Option<Value>,
        spanned: serde_spanned::Spanned<Value>,
    }
    let text =
        "expr = [0.1 + 0.2, 1e-40]\nbody {\n  x = 1 / 3\n}\nopt = 1.1 * 3\nspanned = 0.1 + 0.2\n";
    let c: Captures = hcl::from_str(text).unwrap();
    let ctx = Context::none();

    let v: Value = c.expr.evaluate_into(&ctx).unwrap();
    assert_number(v.get(0).unwrap(), &num("0.3"), "0.3");
    assert_number(
        v.get(1).unwrap(),
        &eval("1e-40"),
        "0.0000000000000000000000000000000000000001",
    );

    let b: Value = c.body.deserialize_with(&ctx).unwrap();
    assert_eq!(*b.get("x").unwrap(), eval("1 / 3"));
    assert_eq!(*b.get("x").unwrap().to_string(), eval("1 / 3").to_string());

    assert_number(c.opt.as_ref().unwrap(), &num("3.3"), "3.3");
    assert_number(c.spanned.get_ref(), &num("0.3"), "0.3");
}

#[test]
fn values_from_the_context_arrive_exactly() {
    let mut ctx = Context::new();
    ctx.declare_var("third", eval("1 / 3"));
    ctx.declare_var("tiny", eval("1e-40"));
    let v: Value = hcl::from_str_with("x = third\ny = [tiny]\n", &ctx).unwrap();
    assert_eq!(*v.get("x").unwrap().to_string(), eval("1 / 3").to_string());
    assert_eq!(*v.get("y").unwrap().get(0).unwrap(), eval("1e-40"));
}

#[test]
fn integers_stay_integers() {
    let v: Value =
        hcl::from_str("a = 3\nb = -7\nc = 18446744073709551615\nd = 1e30\ne = -1e30\nf = 2.0\n")
            .unwrap();
    assert_eq!(*v.get("a").unwrap(), Value::from(3));
    assert_eq!(*v.get("b").unwrap(), Value::from(-7));
    assert_eq!(*v.get("c").unwrap(), Value::from(u64::MAX));
    assert_eq!(*v.get("d").unwrap(), Value::from(10u128.pow(30)));
    assert_eq!(*v.get("e").unwrap(), Value::from(-(10i128.pow(30))));
    assert_eq!(*v.get("f").unwrap(), Value::from(2));
}

#[test]
fn foreign_formats_feed_a_value() {
    let v: Value =
        serde_json::from_str(r#"{"a": 0.5, "b": [1, -2, 1e300], "c": null, "d": {"e": "x"}}"#)
            .unwrap();
    assert_eq!(*v.get("a").unwrap(), num("0.5"));
    assert_eq!(*v.get("b").unwrap().get(0).unwrap(), Value::from(1));
    assert_eq!(*v.get("b").unwrap().get(1).unwrap(), Value::from(-2));
    assert_eq!(
        *v.get("b").unwrap().get(2).unwrap(),
        Value::Number(Number::from_f64(1e300).unwrap())
    );
    assert_eq!(*v.get("c").unwrap(), Value::Null);
    assert_eq!(*v.get("d").unwrap().get("e").unwrap(), Value::from("x"));

    let json = serde_json::json!({"a": 0.25, "b": [true, "s"]});
    let v = Value::deserialize(json).unwrap();
    assert_eq!(*v.get("a").unwrap(), num("0.25"));
    assert_eq!(*v.get("b").unwrap().get(0).unwrap(), Value::Bool(true));
    assert_eq!(*v.get("b").unwrap().get(1).unwrap(), Value::from("s"));

    // The private key as another format's only entry reads as the number
    // when its text is one; any other map with it stays an object.
    let v: Value = serde_json::from_str(r#"{"$__hcl_private_Number": "0.3"}"#).unwrap();
    assert_eq!(v, num("0.3"));
    let v: Value = serde_json::from_str(r#"{"$__hcl_private_Number": "abc"}"#).unwrap();
    assert_eq!(*v.get("$__hcl_private_Number").unwrap(), Value::from("abc"));
    let v: Value = serde_json::from_str(r#"{"$__hcl_private_Number": "0.3", "k": 1}"#).unwrap();
    assert_eq!(*v.get("$__hcl_private_Number").unwrap(), Value::from("0.3"));
    assert_eq!(*v.get("k").unwrap(), Value::from(1));
    let v: Value = serde_json::from_str("{}").unwrap();
    assert_eq!(v, Value::Object(hcl::Map::new()));
}

#[test]
fn buffering_targets_get_plain_numbers() {
    // serde_json::Value does not announce itself: it gets an f64.
    let j: serde_json::Value = hcl::from_str("x = 0.1 + 0.2\ny = [1.5]\n").unwrap();
    assert_eq!(*j.get("x").unwrap(), serde_json::json!(0.3));
    assert_eq!(*j.get("y").unwrap().get(0).unwrap(), serde_json::json!(1.5));

    #[derive(Deserialize, Debug)]
    #[serde(untagged)]
    enum Either {
        Num(f64),
        Other(Value),
    }
    let e: std::collections::BTreeMap<String, Either> =
        hcl::from_str("x = 0.5\ny = [0.25]\n").unwrap();
    assert!(
        matches!(e.get("x").unwrap(), Either::Num(f) if *f == 0.5),
        "{e:?}"
    );
    match e.get("y").unwrap() {
        Either::Other(v) => assert_eq!(*v, Value::Array(vec![num("0.25")])),
        other => panic!("{other:?}"),
    }

    #[derive(Deserialize, Debug)]
    struct Flat {
        name: String,
        #[serde(flatten)]
        rest: std::collections::BTreeMap<String, Value>,
    }
    let f: Flat = hcl::from_str("name = \"a\"\nratio = 0.25\n").unwrap();
    assert_eq!(f.name, "a");
    assert_eq!(*f.rest.get("ratio").unwrap(), num("0.25"));
}

#[test]
fn number_targets_are_exact_too() {
    #[derive(Deserialize, Debug)]
    struct C {
        third: Number,
        long: Number,
        list: Vec<Number>,
        text: Number,
    }
    let c: C = hcl::from_str(
        "third = 1 / 3\nlong = 0.1000000000000000000000000001\nlist = [1e-40, 7]\ntext = \"2.5\"\n",
    )
    .unwrap();
    assert_eq!(c.third.to_string(), eval("1 / 3").to_string());
    assert_eq!(c.long.to_string(), "0.1000000000000000000000000001");
    assert_eq!(Value::Number(c.list[0].clone()), eval("1e-40"));
    assert_eq!(c.list[1], Number::from(7));
    assert_eq!(c.text, Number::from_literal("2.5").unwrap());
    let n: Number = serde_json::from_str("0.5").unwrap();
    assert_eq!(n, Number::from_literal("0.5").unwrap());
    let err = hcl::from_str::<C>("third = {a = 1}\nlong = 1\nlist = []\ntext = 1\n").unwrap_err();
    assert!(err.to_string().contains("expected a number"), "{err}");
}
