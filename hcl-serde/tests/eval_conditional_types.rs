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
