//! A conditional types both results, the one not taken and a failed one
//! included, and refuses inconsistent types (issue #22): the reference
//! evaluates on after an error and returns a placeholder of the failed
//! operation's type (a tuple of its elements, a splat's result type, any
//! type for a failed call), which takes part in the unification. Every
//! expected outcome below is `hcl-oracle expr --funcs stdlib`'s.

#![allow(clippy::expect_used)]

use hcl::{Context, Value};

fn ctx() -> Context {
    let mut ctx = Context::with_stdlib();
    let vars = hcl::from_str::<Value>(
        r#"
        nested = { arr = [[1, 2], [3], []] }
        nul    = null
        mixed  = [1, "a", true, null, { k = "v" }, [2]]
        m      = { a = 1, b = "two" }
        z      = null
        "#,
    )
    .expect("variables");
    if let Value::Object(vars) = vars {
        for (k, v) in vars {
            ctx.declare_var(k, v);
        }
    }
    ctx
}

fn eval(src: &str) -> Result<Value, String> {
    hcl::eval::eval_expr_str(src, &ctx()).map_err(|e| e.to_string())
}

/// `(expression, the start of our message)`: the reference fails with
/// "Inconsistent conditional result types" and the detail quoted.
const REFUSED: &[(&str, &str)] = &[
    // "The 'true' value is tuple, but the 'false' value is number."
    (
        r#"false ? nested.arr.*.name : jsondecode("1e3")"#,
        "the true and false results of a conditional must have consistent types: \
         the true result is tuple and the false result is number",
    ),
    // "The 'true' tuple has length 1, but the 'false' tuple has length 2."
    (
        r#"true ? [toset(["a"])] : [[nul, mixed, "a"], merge(tolist([]), {})]"#,
        "the true and false results of a conditional must have consistent types: \
         the true result is a tuple of length 1 and the false result a tuple of length 2",
    ),
    // The inner conditional's failed result converted to its result type:
    // "The 'true' value is map of tuple, but the 'false' value is object."
    (
        r#"false ? "true" ? {a = mixed.*.k} : {c = z} : {a = {c = m}}"#,
        "the true and false results of a conditional must have consistent types: \
         the true result is map of tuple and the false result is object",
    ),
    // "The 'true' value includes object attribute "a", which is absent in
    // the 'false' value."
    (
        "true ? {a = 1} : {b = [1]}",
        "the true and false results of a conditional must have consistent types: \
         the true result has attribute `a`, which the false result lacks",
    ),
];

#[test]
fn failed_results_take_part_in_the_unification() {
    for (src, want) in REFUSED {
        match eval(src) {
            Ok(v) => panic!("{src}: evaluates to {v:?}, the reference refuses it"),
            Err(e) => assert!(e.starts_with(want), "{src}: {e}"),
        }
    }
}

/// Results the reference gives although the branch not taken fails.
#[test]
fn consistent_failed_results_are_not_reported() {
    let cases: &[(&str, Value)] = &[
        ("true ? [1] : nested.arr.*.name", Value::from(vec![1])),
        (
            "true ? {a = 1} : {a = 2, b = upper([])}",
            hcl::from_str::<Value>("a = 1").expect("value"),
        ),
        ("false ? upper([]) : 1", Value::from(1)),
    ];
    for (src, want) in cases {
        assert_eq!(eval(src).as_ref(), Ok(want), "{src}");
    }
}

/// A `for` expression whose elements fail still has a type, as in the
/// reference (hcl's `ForExpr.Value` evaluates every element and returns
/// the tuple or object of what they gave, a failed template being a
/// string): only a failed condition or key makes it any type. Expected
/// values and types are `hcl-oracle expr --funcs stdlib --types`'s (the
/// type in the comment).
#[test]
fn failed_for_expressions_have_the_type_of_their_elements() {
    const M: &str = "{a = [1, 2], c = null}";
    let cases: &[(String, &str)] = &[
        // ["tuple", ["string", "string"]]
        (
            format!(r#"true ? ["1", 2.25] : [for k, v in {M} : "${{v}}x"]"#),
            r#"["1", "2.25"]"#,
        ),
        // ["list", "string"]: tuples of lengths 3 and 2.
        (
            format!(r#"true ? ["1", 2.25, "x"] : [for k, v in {M} : "${{v}}x"]"#),
            r#"["1", "2.25", "x"]"#,
        ),
        // ["map", "string"]
        (
            format!(r#"true ? {{a = "1", b = 2.25}} : {{for k, v in {M} : k => "${{v}}x"}}"#),
            r#"{a = "1", b = "2.25"}"#,
        ),
        // ["object", {"a": ["tuple", ["string"]], "c": ["tuple", ["string"]]}]
        (
            format!(
                r#"true ? {{a = ["1"], c = [2.25]}} : {{for k, v in {M} : k => "${{v}}x"...}}"#
            ),
            r#"{a = ["1"], c = ["2.25"]}"#,
        ),
        // ["map", "string"]: the duplicate key fails, {a = string} is left.
        (
            format!(r#"true ? {{a = "1", c = 2.25}} : {{for k, v in {M} : "a" => "${{v}}x"}}"#),
            r#"{a = "1", c = "2.25"}"#,
        ),
        // ["tuple", ["string", "number"]]: a failed condition, any type.
        (
            format!(r#"true ? ["1", 2.25] : [for k, v in {M} : "${{v}}x" if v]"#),
            r#"["1", 2.25]"#,
        ),
        // ["object", {"a": "string", "c": "string"}]: a failed template
        // key is its text without the parts that fail ("a", "c").
        (
            format!(
                r#"true ? {{a = "1", c = 2.25}} : {{for k, v in {M} : "${{v}}${{k}}" => "x"}}"#
            ),
            r#"{a = "1", c = "2.25"}"#,
        ),
        // ["map", "string"]: both keys "k", a duplicate.
        (
            format!(r#"true ? {{a = "1", c = 2.25}} : {{for k, v in {M} : "${{v}}k" => "x"}}"#),
            r#"{a = "1", c = "2.25"}"#,
        ),
        // ["object", {"a": "string", "c": "number"}]: a part whose
        // evaluation fails is unknown, so is the key: any type.
        (
            format!(
                r#"true ? {{a = "1", c = 2.25}} : {{for k, v in {M} : "${{k.q}}${{k}}" => "x"}}"#
            ),
            r#"{a = "1", c = 2.25}"#,
        ),
    ];
    for (src, want) in cases {
        let want = hcl::from_str::<Value>(&format!("v = {want}")).expect("value");
        let want = want.get("v").expect("v");
        assert_eq!(eval(src).as_ref(), Ok(want), "{src}");
    }
    // "Inconsistent conditional result types": "Type mismatch for tuple
    // element 0: The 'true' value is number, but the 'false' value is
    // tuple."; "The 'true' value is number, but the 'false' value is
    // object." (a duplicate key); "... is tuple." (elements that fail).
    let refused = [
        format!("true ? [1, 2.25] : [for k, v in {M} : [v + 1]]"),
        r#"true ? 1.5 : {for k, v in ["a", "b"] : "x" => v}"#.to_owned(),
        "true ? 7 : [for v in [1, {}] : v.a]".to_owned(),
        "false ? 7 : [for v in [1, {}] : v.a]".to_owned(),
    ];
    for src in &refused {
        match eval(src) {
            Ok(v) => panic!("{src}: evaluates to {v:?}, the reference refuses it"),
            Err(e) => assert!(
                e.starts_with(
                    "the true and false results of a conditional must have consistent types"
                ),
                "{src}: {e}"
            ),
        }
    }
}

/// A `for` expression over a tuple or object constructor that fails
/// iterates, in the reference, over what the constructor still gives (its
/// failed elements unknown): it has the type of what its elements give.
/// Expected outcomes are `hcl-oracle expr --funcs stdlib --types`'s.
#[test]
fn for_expressions_over_failed_constructors_have_a_type() {
    let cases: &[(&str, &str)] = &[
        // ["list", "number"]
        ("true ? [1] : [for v in [upper([]), 2] : v]", "[1]"),
        // ["list", "string"]
        (
            r#"true ? ["a"] : [for v in [upper([]), 2] : v + 1]"#,
            r#"["a"]"#,
        ),
        // ["tuple", ["string", "string"]]
        (
            r#"true ? ["a", "b"] : [for v in [upper([]), 2] : v]"#,
            r#"["a", "b"]"#,
        ),
        // ["map", "string"]
        (
            r#"true ? {a = "x"} : {for k, v in {a = upper([]), b = 2} : k => v}"#,
            r#"{a = "x"}"#,
        ),
        // ["object", {"a": "string"}]: a key that depends on an unknown
        // element, any type.
        (
            r#"true ? {a = "x"} : {for k, v in {a = upper([]), b = 2} : v => k}"#,
            r#"{a = "x"}"#,
        ),
    ];
    for (src, want) in cases {
        let want = hcl::from_str::<Value>(&format!("v = {want}")).expect("value");
        let want = want.get("v").expect("v");
        assert_eq!(eval(src).as_ref(), Ok(want), "{src}");
    }
    // "The 'true' value is bool (tuple), but the 'false' value is object."
    for src in [
        r#"true ? true : {for k, v in [tomap(), trimsuffix("q", "true")] : k => 1.5}"#,
        r#"true ? 7[*] : {for k, v in [lookup(m, "x", {"k" = "\n", (m) = z})] : "x" => m...}"#,
    ] {
        match eval(src) {
            Ok(v) => panic!("{src}: evaluates to {v:?}, the reference refuses it"),
            Err(e) => assert!(
                e.starts_with(
                    "the true and false results of a conditional must have consistent types"
                ),
                "{src}: {e}"
            ),
        }
    }
}

/// A failed expression keeps what the reference still gives beside its
/// error: a `for` over a failed conditional, `for` or index iterates the
/// known elements, a failed template as a `for` key keeps the text of its
/// other parts (directives and nested templates included), and `merge`
/// after an untyped `null` iterates its later arguments unchecked.
/// Expected outcomes are `hcl-oracle expr --funcs stdlib`'s.
#[test]
fn failed_expressions_keep_their_partial_value() {
    let cases: &[(&str, &str)] = &[
        (
            r#"false ? {for v in ["a", "b"] : "a%{ if v == "a" }b${null}%{ else }c${[]}%{ endif }" => v} : {ab = 1, ac = 1}"#,
            r#"{ab = "1", ac = "1"}"#,
        ),
        (
            r#"false ? [for v in (true ? [1, nope] : ["a", "b"]) : v] : [1]"#,
            r#"["1"]"#,
        ),
        (r#"false ? [1, nope][1] : [1]"#, "[1]"),
        (r#"merge(null, [], {a = 1})"#, "{a = 1}"),
        (
            r#"false ? merge(null, toset(["a"])) : {a = 1}"#,
            r#"{a = "1"}"#,
        ),
    ];
    for (src, want) in cases {
        let want = hcl::from_str::<Value>(&format!("v = {want}")).expect("value");
        let want = want.get("v").expect("v");
        assert_eq!(eval(src).as_ref(), Ok(want), "{src}");
    }
    // "Inconsistent conditional result types" in the reference.
    for src in [
        r#"false ? [for v in (true ? [1, nope] : [2, 3]) : v] : "x""#,
        r#"false ? [for v in [for x in [1, nope] : x] : v] : "x""#,
        r#"false ? [for v in {a = [1, 2], b = nope}.a : v] : "x""#,
        r#"false ? [1, nope][0] : [1]"#,
        r#"false ? {for v in [1] : "a${"b${null}"}" => v} : "x""#,
        r#"false ? {for v in [1] : "%{ for x in [1, nope] }a%{ endfor }" => v} : "x""#,
        r#"false ? merge(null, []) : "x""#,
    ] {
        match eval(src) {
            Ok(v) => panic!("{src}: evaluates to {v:?}, the reference refuses it"),
            Err(e) => assert!(
                e.starts_with(
                    "the true and false results of a conditional must have consistent types"
                ),
                "{src}: {e}"
            ),
        }
    }
    // go-cty panics ("not a string"): an error here.
    assert!(eval("merge(null, [1])").is_err());
}
