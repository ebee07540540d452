//! Unit tests of the conversions, the set order and unification; expected
//! values from the oracle (hcl-oracle) where marked.

use super::*;

#[test]
fn primitive_conversions() {
    assert_eq!(
        convert(Value::from(15), &Type::String).map(|r| r.0),
        Ok(Value::from("15"))
    );
    assert_eq!(
        convert(Value::from("1e3"), &Type::Number).map(|r| r.0),
        Ok(Value::from(1000))
    );
    assert!(convert(Value::from(" 1"), &Type::Number).is_err());
    assert!(convert(Value::from("0x10"), &Type::Number).is_err());
    assert_eq!(
        convert(Value::from("+1"), &Type::Number).map(|r| r.0),
        Ok(Value::from(1))
    );
    assert_eq!(
        convert(Value::from("1"), &Type::Bool).map(|r| r.0),
        Ok(Value::from(true))
    );
    assert!(convert(Value::from(1), &Type::Bool).is_err());
}

#[test]
fn one_string_to_bool_rule() {
    // go-cty: "1" and "0" convert too; `tobool("1")` is true there.
    assert_eq!(string_to_bool("1"), Some(true));
    assert_eq!(string_to_bool("false"), Some(false));
    assert_eq!(string_to_bool("True"), None);
    // Map keys follow the same rule.
    let m: std::collections::BTreeMap<bool, i32> =
        crate::from_str("m = { \"1\" = 5, \"false\" = 6 }")
            .map(|mut o: std::collections::BTreeMap<String, _>| o.remove("m").unwrap_or_default())
            .unwrap_or_default();
    assert_eq!(m.get(&true), Some(&5));
    assert_eq!(m.get(&false), Some(&6));
}

#[test]
fn collection_conversions() {
    // oracle: toset([3,1,2,1]) is [1,2,3]; toset(["b","a","B","10","9"]) sorts bytewise.
    let s = convert(Value::from(vec![3, 1, 2, 1]), &Type::set(Type::Any));
    assert_eq!(s, Ok((Value::from(vec![1, 2, 3]), Type::set(Type::Number))));
    let s = convert(
        Value::from(vec!["b", "a", "B", "10", "9"]),
        &Type::set(Type::Any),
    );
    assert_eq!(
        s.map(|r| r.0),
        Ok(Value::from(vec!["10", "9", "B", "a", "b"]))
    );
    // tolist([1, "a"]) unifies to strings.
    let l = convert(
        Value::Array(vec![Value::from(1), Value::from("a")]),
        &Type::list(Type::Any),
    );
    assert_eq!(
        l,
        Ok((Value::from(vec!["1", "a"]), Type::list(Type::String)))
    );
}

#[test]
fn go_number_text_for_set_order() {
    // Go: big.NewFloat(x).Text('g', 10) for each.
    let cases = [
        ("100", "100"),
        ("0.5", "0.5"),
        ("-2.5", "-2.5"),
        ("1e30", "1e+30"),
        ("1234567890123", "1.23456789e+12"),
        ("0.0001", "0.0001"),
        ("0.00001", "1e-05"),
        ("12345678915", "1.234567892e+10"),
        ("9999999999.5", "1e+10"),
        ("0", "0"),
    ];
    for (input, want) in cases {
        let n = Number::from_literal(input).unwrap_or_else(|| panic!("{input}"));
        assert_eq!(go_g10(&n), want, "{input}");
    }
}

#[test]
fn sets_of_collections_in_the_reference_order() {
    // oracle: toset([[], [1], [0, 2]]) is [[0, 2], [1], []]
    let v = Value::Array(vec![
        Value::Array(vec![]),
        Value::from(vec![1]),
        Value::from(vec![0, 2]),
    ]);
    let s = convert(v, &Type::set(Type::Any)).map(|r| r.0);
    assert_eq!(
        s,
        Ok(Value::Array(vec![
            Value::from(vec![0, 2]),
            Value::from(vec![1]),
            Value::Array(vec![]),
        ]))
    );
}

#[test]
fn unification() {
    use Type::*;
    // oracle: true ? [1] : ["a","b"] is list(string); true ? [1] : ["a"] is tuple([string]).
    assert_eq!(
        unify(&[Tuple(vec![Number]), Tuple(vec![String, String])]),
        Some(Type::list(String))
    );
    assert_eq!(
        unify(&[Tuple(vec![Number]), Tuple(vec![String])]),
        Some(Tuple(vec![String]))
    );
    assert_eq!(unify(&[Number, Bool]), None);
    assert_eq!(unify(&[Number, String]), Some(String));
}
