//! Every kind of evaluation failure returns an error with a position, and
//! never panics. Expected failures and messages follow the reference
//! (`hcl-oracle expr`), worded our way; the line/column is where the
//! reference points, unless noted.

use hcl::eval::{EvalOptions, FuncDef, Param, Type};
use hcl::{Context, Value};

/// Parses and evaluates an expression; the error has its source attached.
fn eval(src: &str, ctx: &Context) -> Result<Value, hcl::Error> {
    let expr = hcl_grammar::parse_expr(src, &Default::default()).map_err(hcl::Error::from)?;
    hcl::eval::eval_expr(&expr, ctx).map_err(|e| e.with_source(src))
}

fn ctx() -> Context {
    let mut ctx = Context::new();
    ctx.declare_var("name", "x");
    ctx.declare_var("nothing", Value::Null);
    ctx.declare_var("zones", Value::from(vec!["a", "b", "c"]));
    ctx.declare_var("server", Value::from_iter([("name", "web")]));
    ctx.declare_func(
        "upper",
        FuncDef::new(|args| Ok(args.str(0)?.to_uppercase().into()))
            .param(Param::new("str", Type::String)),
    );
    ctx.declare_func(
        "toset",
        FuncDef::new(|args| Ok(args.get(0).cloned().unwrap_or_default()))
            .param(Param::new("v", Type::set(Type::Any)))
            .returns(Type::set(Type::Any)),
    );
    ctx
}

/// `(source, message prefix, line, column)`: the evaluation must fail
/// with a message starting with the prefix, at that position (the
/// reference's, checked with `hcl-oracle expr`; an argument that is a
/// quoted string is pointed at inside its quotes, as the reference does).
const FAILURES: &[(&str, &str, usize, usize)] = &[
    // arithmetic
    // (`1 / 0` is an infinity, as in the reference; `0 / 0` is not a number.)
    (
        "0 / 0",
        "cannot compute `0 / 0`: the result is not a number",
        1,
        1,
    ),
    ("true + 1", "unsuitable value for the left operand", 1, 1),
    ("\"abc\" + 1", "unsuitable value for the left operand", 1, 1),
    ("1 + null", "unsuitable value for the right operand", 1, 1),
    ("-true", "unsuitable value for the operand", 1, 2),
    ("!1", "unsuitable value for the operand", 1, 2),
    ("1 < 2 < 3", "unsuitable value for the left operand", 1, 1),
    (
        "\"a\" < \"b\"",
        "unsuitable value for the left operand",
        1,
        1,
    ),
    ("1 && true", "unsuitable value for the left operand", 1, 1),
    // variables and functions
    (
        "nmae",
        "there is no variable named `nmae`; did you mean `name`?",
        1,
        1,
    ),
    ("nosuch", "there is no variable named `nosuch`", 1, 1),
    (
        "uper(\"a\")",
        "there is no function named `uper`; did you mean `upper`?",
        1,
        1,
    ),
    (
        "upper()",
        "in the call to `upper`: not enough function arguments",
        1,
        7,
    ),
    (
        "upper(\"a\", \"b\")",
        "in the call to `upper`: too many function arguments",
        1,
        13,
    ),
    (
        "upper([1])",
        "invalid value for parameter `str` of `upper`",
        1,
        7,
    ),
    (
        "upper(null)",
        "invalid value for parameter `str` of `upper`",
        1,
        7,
    ),
    ("upper(nothing...)", "the expanding argument", 1, 7),
    ("upper(5...)", "the expanding argument", 1, 7),
    // attributes and indexes
    (
        "server.nmae",
        "this object does not have an attribute named `nmae`; did you mean `name`?",
        1,
        7,
    ),
    ("nothing.a", "cannot get attribute `a` of null", 1, 8),
    (
        "name.length",
        "cannot access attribute `length` on a primitive-typed value",
        1,
        5,
    ),
    (
        "zones.first",
        "cannot access attribute `first` on a list",
        1,
        6,
    ),
    ("zones[3]", "the index 3 is out of range", 1, 6),
    ("zones[-1]", "the index -1 is negative", 1, 6),
    ("zones[0.5]", "the index 0.5 is not a whole number", 1, 6),
    (
        "zones[1e30]",
        "the index 1000000000000000000000000000000 is out of range",
        1,
        6,
    ),
    ("zones[\"x\"]", "a tuple index must be a number", 1, 6),
    ("zones[null]", "cannot use a null value as an index", 1, 6),
    ("nothing[0]", "cannot index a null value", 1, 8),
    ("\"abc\"[0]", "a string value cannot be indexed", 1, 6),
    (
        "{a = 1}[\"b\"]",
        "the object does not have an element with the key \"b\"",
        1,
        8,
    ),
    (
        "toset([1, 2])[0]",
        "elements of a set are identified only by their value",
        1,
        14,
    ),
    // collections
    (
        "{(zones) = 1}",
        "an object key must be a string, not tuple",
        1,
        2,
    ),
    ("{(nothing) = 1}", "an object key must not be null", 1, 14),
    ("{server.name = 1}", "ambiguous object key", 1, 2),
    // conditionals
    ("1 ? 2 : 3", "the condition must be a bool", 1, 1),
    ("null ? 2 : 3", "the condition is null", 1, 1),
    (
        "true ? 1 : [1]",
        "the true and false results of a conditional must have consistent types",
        1,
        8,
    ),
    (
        "true ? nosuch : 1",
        "there is no variable named `nosuch`",
        1,
        8,
    ),
    // A failed branch still has a type (the reference's unknown value of
    // the operation's type) that must unify with the other branch.
    (
        "name == \"x\" ? 3 : \"abc\" <= -1",
        "the true and false results of a conditional",
        1,
        15,
    ),
    (
        "true ? 1 : ([2.5] ? nothing : (1 || 2))",
        "the true and false results of a conditional",
        1,
        8,
    ),
    (
        "false ? [0.1, \"x\"[0]] : {b = 1}",
        "the true and false results of a conditional",
        1,
        9,
    ),
    (
        "true ? 1 : [nosuch]",
        "the true and false results of a conditional",
        1,
        8,
    ),
    // for
    (
        "[for v in nothing: v]",
        "a null value cannot be used as the collection",
        1,
        11,
    ),
    (
        "[for c in \"abc\": c]",
        "a value of type string cannot be used as the collection",
        1,
        11,
    ),
    (
        "[for v in [1]: v if v]",
        "the `if` condition of a `for` expression must be a bool",
        1,
        21,
    ),
    (
        "{for v in [1]: null => v}",
        "the key of a `for` expression must not be null",
        1,
        16,
    ),
    (
        "{for v in [1]: [v] => v}",
        "the key of a `for` expression must be a string",
        1,
        16,
    ),
    (
        "{for v in [\"a\", \"a\"]: v => 1}",
        "two elements produce the key \"a\"",
        1,
        23,
    ),
    (
        "[[for v in [1]: v], v]",
        "there is no variable named `v`",
        1,
        21,
    ),
    // splat
    (
        "(true ? null : [1])[*]",
        "a splat expression cannot be applied to a null sequence",
        1,
        1,
    ),
    (
        "[{a = 1}, {b = 2}][*].a",
        "this object does not have an attribute named `a`",
        1,
        22,
    ),
    // templates
    (
        "\"x${null}\"",
        "cannot include a null value in a string template",
        1,
        5,
    ),
    (
        "\"x${[1]}\"",
        "cannot include a tuple in a string template",
        1,
        5,
    ),
    (
        "\"%{ if 1 }x%{ endif }\"",
        "the condition of an `if` directive must be a bool",
        1,
        8,
    ),
    (
        "\"%{ for v in nothing }${v}%{ endfor }\"",
        "a null value cannot be used as the collection",
        1,
        14,
    ),
];

#[test]
fn every_failure_kind_is_an_error_with_a_position() {
    let ctx = ctx();
    let mut problems = Vec::new();
    for (src, prefix, line, column) in FAILURES {
        match eval(src, &ctx) {
            Ok(v) => problems.push(format!("{src}: evaluated to {v}")),
            Err(e) => {
                if !e.message().starts_with(prefix) {
                    problems.push(format!("{src}: message {:?}", e.message()));
                }
                if e.line() != Some(*line) || e.column() != Some(*column) {
                    problems.push(format!(
                        "{src}: at {:?}:{:?}, expected {line}:{column}",
                        e.line(),
                        e.column()
                    ));
                }
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn without_a_context_references_are_not_allowed() {
    let none = Context::none();
    let e = eval("a + 1", &none).err().map(|e| e.message().to_owned());
    assert_eq!(
        e.as_deref(),
        Some("variables are not allowed here (found `a`)")
    );
    let e = eval("f(1)", &none).err().map(|e| e.message().to_owned());
    assert_eq!(
        e.as_deref(),
        Some("functions are not allowed here (found a call to `f`)")
    );
    // A failed branch of dynamic type does not convert the result
    // (oracle: `true ? 1 : "${nosuch}"` is the number 1).
    assert_eq!(eval("true ? 1 : \"${nosuch}\"", &ctx()), Ok(Value::from(1)));
    // Expressions over literals still evaluate.
    assert_eq!(
        eval("[for x in [1, 2]: x * 2]", &none),
        Ok(Value::from(vec![2, 4]))
    );
}

#[test]
fn limits_stop_runaway_evaluation() {
    let small = |o: EvalOptions| ctx().with_options(o);
    // Iterations: nested loops multiply.
    let c = small(EvalOptions::default().with_max_iterations(1000));
    let e = eval("[for a in [1,2,3,4,5,6,7,8,9,10]: [for b in [1,2,3,4,5,6,7,8,9,10]: [for c in [1,2,3,4,5,6,7,8,9,10]: c]]]", &c);
    assert!(e.is_err_and(|e| e.message().contains("iterations")));
    // Collection length.
    let c = small(EvalOptions::default().with_max_collection_len(3));
    assert!(eval("[1, 2, 3, 4]", &c).is_err_and(|e| e.message().contains("limit of 3 elements")));
    assert!(eval("[for x in [1, 2, 3, 4]: x]", &c).is_err());
    // String length: a template loop that doubles.
    let c = small(EvalOptions::default().with_max_string_len(64));
    let src = "\"%{ for a in [1,2,3,4] }%{ for b in [1,2,3,4] }%{ for c in [1,2,3,4] }xx%{ endfor }%{ endfor }%{ endfor }\"";
    assert!(eval(src, &c).is_err_and(|e| e.message().contains("64 bytes")));
    // Depth.
    let c = small(EvalOptions::default().with_max_depth(10));
    let deep = format!("{}1{}", "(".repeat(20), ")".repeat(20));
    assert!(eval(&deep, &c).is_err_and(|e| e.message().contains("nested too deeply")));
}

#[test]
fn numbers_never_panic() {
    let ctx = ctx();
    for src in [
        // The reference's exponent range is wider than f64's: it evaluates
        // this; we report an overflow (documented in `Number`).
        "1e308 * 10",
        "1e308 * 1e308",
        "-1e308 * 1e308",
        "1e-320 / 1e300",
        "340282366920938463463374607431768211455 * 340282366920938463463374607431768211455",
        "340282366920938463463374607431768211455 + 1",
        "-340282366920938463463374607431768211455 - 1",
        "79228162514264337593543950335 + 1",
        "79228162514264337593543950335 * 79228162514264337593543950335",
        "0.0000000000000000000000000001 / 79228162514264337593543950335",
        "5 % 0",
        "0 / 0",
        "1e400",
        "1e-400",
        "zones[340282366920938463463374607431768211455]",
        "zones[\"1e400\"]",
        "\"${1e-30 * 1e-30}\"",
    ] {
        // Any outcome but a panic is fine here; the result must render.
        match eval(src, &ctx) {
            Ok(v) => drop(v.to_string()),
            Err(e) => drop(e.to_string()),
        }
    }
}
