//! Parse and evaluate a body with a small context (a few variables and
//! every standard function) and small limits, so that each run stays fast.
#![no_main]

use hcl::eval::EvalOptions;
use hcl::{Context, Value};
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

fn ctx() -> &'static Context {
    static CTX: OnceLock<Context> = OnceLock::new();
    CTX.get_or_init(|| {
        let mut ctx = Context::with_stdlib().with_options(
            EvalOptions::default()
                .with_max_collection_len(10_000)
                .with_max_string_len(100_000)
                .with_max_iterations(100_000),
        );
        ctx.declare_var("name", "web");
        ctx.declare_var("ports", vec![80, 443]);
        ctx.declare_var(
            "tags",
            Value::from_iter([("env", "prod"), ("team", "core")]),
        );
        ctx.declare_var("n", 3);
        ctx
    })
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Err(e) = hcl::eval::eval_body_str(text, ctx()) {
        assert!(e.line().is_some() && e.column().is_some(), "{e}");
    }
});
