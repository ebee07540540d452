//! `hcl::value!` builds the same `Value` as the constructors it stands for.

use hcl::{value, Map, Value};

fn object(entries: Vec<(&str, Value)>) -> Value {
    Value::Object(
        entries
            .into_iter()
            .map(|(k, v)| (k.to_owned(), v))
            .collect::<Map>(),
    )
}

#[test]
fn literals_and_expressions() {
    assert_eq!(value!(null), Value::Null);
    assert_eq!(value!(true), Value::Bool(true));
    assert_eq!(value!(false), Value::Bool(false));
    assert_eq!(value!(2 + 3), Value::from(5));
    assert_eq!(value!(-1), Value::from(-1));
    assert_eq!(value!("x"), Value::from("x"));
    assert_eq!(value!(Some(1.5)), Value::from(1.5));
    assert_eq!(value!(None::<i32>), Value::Null);
}

#[test]
fn arrays() {
    assert_eq!(value!([]), Value::Array(vec![]));
    assert_eq!(
        value!([1, -2, "three", null, [true], {}, 4 * 2,]),
        Value::Array(vec![
            Value::from(1),
            Value::from(-2),
            Value::from("three"),
            Value::Null,
            Value::Array(vec![Value::Bool(true)]),
            object(vec![]),
            Value::from(8),
        ])
    );
}

#[test]
fn objects_keep_key_order_and_accept_every_key_form() {
    let key = String::from("computed");
    let v = value!({
        zeta: 1,
        "with space": [false],
        (key.clone()): { inner: null },
        ["a".to_owned() + "b"]: -0.5,
        alpha: vec![1, 2],
    });
    let expected = object(vec![
        ("zeta", Value::from(1)),
        ("with space", Value::Array(vec![Value::Bool(false)])),
        ("computed", object(vec![("inner", Value::Null)])),
        ("ab", Value::from(-0.5)),
        ("alpha", Value::Array(vec![Value::from(1), Value::from(2)])),
    ]);
    assert_eq!(v, expected);
    let keys: Vec<&str> = v
        .as_object()
        .into_iter()
        .flat_map(|o| o.keys())
        .map(String::as_str)
        .collect();
    assert_eq!(keys, ["zeta", "with space", "computed", "ab", "alpha"]);
}

#[test]
fn a_repeated_key_keeps_the_last_value() {
    assert_eq!(value!({ a: 1, a: 2 }), object(vec![("a", Value::from(2))]));
}
