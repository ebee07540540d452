//! The string, encoding and date functions on hostile input: results
//! beyond the context's limits are errors, built only after checking the
//! size; deep or huge input is bounded.

use hcl::eval::{eval_expr_str, EvalOptions};
use hcl::{Context, Value};

fn small() -> Context {
    Context::with_stdlib().with_options(
        EvalOptions::default()
            .with_max_string_len(1000)
            .with_max_collection_len(100)
            .with_max_depth(64),
    )
}

/// `expr` fails in `ctx` with a message containing `what`.
fn fails(ctx: &Context, expr: &str, what: &str) {
    let short: String = expr.chars().take(80).collect();
    match eval_expr_str(expr, ctx) {
        Ok(_) => panic!("`{short}` gave a value, expected an error about {what:?}"),
        Err(e) => assert!(
            e.message().contains(what),
            "`{short}` failed with {:?}, expected {what:?}",
            e.message()
        ),
    }
}

#[test]
fn format_widths_and_precisions_are_bounded() {
    let ctx = small();
    for expr in [
        r#"format("%999999999999999999999d", 1)"#,
        r#"format("%.999999999d", 1)"#,
        r#"format("%.99999999e", 1)"#,
        r#"format("%.2000f", 1)"#,
        r#"format("%2000s", "x")"#,
        r#"formatlist("%600s", ["a", "b"])"#,
    ] {
        fails(&ctx, expr, "limit");
    }
    // Within the limit, the width is honoured.
    assert_eq!(
        eval_expr_str(r#"strlen(format("%999s", "x"))"#, &ctx).ok(),
        Some(Value::from(999))
    );
}

#[test]
fn string_results_are_bounded() {
    let ctx = small();
    fails(
        &ctx,
        &format!(r#"replace("{}", "", "xx")"#, "a".repeat(400)),
        "limit",
    );
    fails(&ctx, r#"indent(600, "a\nb\n")"#, "limit");
    fails(
        &ctx,
        &format!(r#"join("{}", ["a", "b", "c"])"#, "-".repeat(600)),
        "limit",
    );
    fails(
        &ctx,
        &format!(r#"jsonencode("{}")"#, "<".repeat(200)),
        "limit",
    );
}

#[test]
fn collection_results_are_bounded() {
    let ctx = small();
    fails(
        &ctx,
        &format!(r#"split(",", "{}")"#, ",".repeat(200)),
        "limit",
    );
    fails(
        &ctx,
        &format!(r#"regexall("a", "{}")"#, "a".repeat(200)),
        "limit",
    );
    let csv = format!("a\\n{}", "1\\n".repeat(150));
    fails(&ctx, &format!(r#"csvdecode("{csv}")"#), "limit");
}

#[test]
fn deep_json_is_an_error_not_a_crash() {
    let ctx = small();
    let deep = format!("{}{}", "[".repeat(400), "]".repeat(400));
    fails(&ctx, &format!(r#"jsondecode("{deep}")"#), "deeper");
    let ok = format!("{}{}", "[".repeat(10), "]".repeat(10));
    assert!(eval_expr_str(&format!(r#"jsondecode("{ok}")"#), &ctx).is_ok());
}

#[test]
fn regex_patterns_are_bounded() {
    let ctx = small();
    fails(
        &ctx,
        r#"regex("a{1000}{1000}{1000}", "a")"#,
        "invalid regexp pattern",
    );
    fails(&ctx, r#"regex("a{1001}", "a")"#, "invalid repeat count");
    // Backtracking-prone patterns run in linear time: no match is quick.
    let text = "a".repeat(200);
    fails(
        &ctx,
        &format!(r#"regex("(a*)*b", "{text}")"#),
        "did not match",
    );
}

#[test]
fn long_csv_lines_are_linear() {
    // 20 000 quoted fields on one line: quadratic copying would take
    // seconds even in an optimized build.
    let ctx = Context::with_stdlib();
    let header = vec!["\\\"h\\\""; 20_000].join(",");
    let row = vec!["\\\"v\\\""; 20_000].join(",");
    let expr = format!(r#"length(csvdecode("{header}\n{row}"))"#);
    // The header repeats the name: the reference's error.
    fails(&ctx, &expr, "duplicate column name");
    let header: Vec<String> = (0..20_000).map(|i| format!("\\\"h{i}\\\"")).collect();
    let expr = format!(r#"csvdecode("{}\n{row}")[0].h19999"#, header.join(","));
    let got = eval_expr_str(&expr, &ctx).map_err(|e| e.message().to_owned());
    assert_eq!(got, Ok(Value::from("v")));
}

#[test]
fn compiled_patterns_are_reused_and_kept_apart() {
    // More distinct patterns than the cache holds, in turn, twice over:
    // each call must use its own pattern.
    let ctx = Context::with_stdlib();
    let expr = r#"[for i in concat(range(20), range(20)): regex("(x{${i % 12 + 1}})", "xxxxxxxxxxxxxxx")[0]]"#;
    let got = eval_expr_str(expr, &ctx).map_err(|e| e.message().to_owned());
    let want: Vec<Value> = (0..40)
        .map(|i| Value::from("x".repeat(i % 20 % 12 + 1)))
        .collect();
    assert_eq!(got, Ok(Value::Array(want)));
}
