//! User functions (`hcl::ext::userfunc`). The suite in
//! `../shared/conformance-ext/userfunc/` (checked by
//! `tests/conformance.rs`) covers decoding and calls against the
//! reference; these tests cover what the suite cannot: recursion when the
//! application puts user functions in their own context.

use hcl::eval::eval_expr_str;
use hcl::ext::userfunc::{self, MAX_NESTED_CALLS};
use hcl::{Context, Value};
use std::sync::Arc;

#[test]
fn recursion_stops_with_an_error() -> hcl::Result<()> {
    // HCL evaluates both results of a conditional, so a function that
    // can call itself never stops unless nesting is bounded.
    let funcs = userfunc::parse(
        "function \"fact\" {\n  params = [n]\n  result = n <= 1 ? 1 : n * fact(n - 1)\n}\n",
    )?;
    // Each context's `fact` evaluates in its parent, which holds a
    // `fact` too: a chain deeper than the limit recurses as deep as it
    // is asked to.
    let mut level = Arc::new(Context::new());
    for _ in 0..MAX_NESTED_CALLS + 5 {
        let mut next = Context::child(&level);
        userfunc::declare(&funcs, &mut next, &level);
        level = Arc::new(next);
    }
    let msg = eval_expr_str("fact(100)", &level).map_err(|e| e.message().to_owned());
    let Err(msg) = msg else {
        panic!("fact(100) must fail");
    };
    assert!(
        msg.contains(&format!("nested more than {MAX_NESTED_CALLS} calls deep")),
        "{msg}"
    );
    // Within the limit, it works.
    assert_eq!(eval_expr_str("fact(5)", &level)?, Value::from(120));
    Ok(())
}

#[test]
fn accessors() -> hcl::Result<()> {
    let funcs = userfunc::parse(
        "function \"j\" {\n  params = [sep]\n  variadic_param = parts\n  result = join(sep, parts)\n}\nx = 1\n",
    )?;
    let [f] = funcs.as_slice() else {
        panic!("one function expected");
    };
    assert_eq!(f.name(), "j");
    assert_eq!(f.params(), ["sep"]);
    assert_eq!(f.variadic_param(), Some("parts"));
    assert_eq!(f.result_text(), "join(sep, parts)");
    Ok(())
}
