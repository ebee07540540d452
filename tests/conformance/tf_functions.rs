//! Terraform's function documentation examples
//! (`../shared/conformance-tf-functions/cases.jsonl`, 245 cases) against
//! `hcl::stdlib::terraform`.
//!
//! Each case is evaluated in a context with Terraform's functions; the
//! filesystem cases get the suite's `fixtures/` as base directory, the
//! `pathexpand` case its `HOME` as home directory. Values are compared as
//! the suite's README says (numbers numerically, sets unordered, lists and
//! tuples alike); an error case passes when evaluation fails.

use crate::json::{self, Json};
use crate::report::Part;
use crate::values::{compare, json_to_value};
use hcl::eval::eval_expr_str;
use hcl::stdlib::terraform::TerraformFunctions;
use hcl::{Context, Value};
use std::path::Path;
use std::time::Instant;

/// Runs every case of `dir/cases.jsonl` whose id contains `filter`.
pub fn run(dir: &Path, filter: &str) -> std::io::Result<Part> {
    let mut part = Part::new("Terraform functions: documentation examples", "class");
    let text = std::fs::read_to_string(dir.join("cases.jsonl"))?;
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let case = match json::parse(line.as_bytes()) {
            Ok(c) => c,
            Err(e) => {
                part.record(
                    "unreadable",
                    &format!("line {}", n + 1),
                    Err(e),
                    Default::default(),
                );
                continue;
            }
        };
        let id = case
            .get("id")
            .and_then(Json::as_str)
            .unwrap_or("?")
            .to_owned();
        if !id.contains(filter) {
            continue;
        }
        let class = case
            .get("class")
            .and_then(Json::as_str)
            .unwrap_or("?")
            .to_owned();
        let start = Instant::now();
        let outcome = crate::guarded(|| check(dir, &case)).and_then(|r| r);
        part.record(&class, &id, outcome, start.elapsed());
    }
    Ok(part)
}

/// The context a case runs in.
fn context(dir: &Path, case: &Json) -> Result<Context, String> {
    let mut funcs = TerraformFunctions::new();
    if case.get("base_dir").and_then(Json::as_str) == Some("fixtures") {
        funcs = funcs.base_dir(dir.join("fixtures"));
    }
    if let Some(home) = case
        .get("env")
        .and_then(|e| e.get("HOME"))
        .and_then(Json::as_str)
    {
        // `pathexpand` only: a granted directory is needed for the
        // filesystem functions to exist at all.
        funcs = funcs.home_dir(home).base_dir(dir.join("fixtures"));
    }
    if case.get("class").and_then(Json::as_str) == Some("filesystem")
        && funcs.get_base_dir().is_none()
    {
        funcs = funcs.base_dir(dir.join("fixtures"));
    }
    let mut ctx = Context::new();
    ctx.add_terraform_functions(&funcs);
    if let Some(vars) = case.get("vars").and_then(Json::as_object) {
        for (name, v) in vars {
            ctx.declare_var(name.clone(), json_to_value(v)?);
        }
    }
    Ok(ctx)
}

/// A set's elements in a canonical order, for an unordered comparison.
fn sorted(items: &[Value]) -> Vec<Value> {
    let mut v = items.to_vec();
    v.sort_by_key(|a| a.to_string());
    v
}

fn check(dir: &Path, case: &Json) -> Result<(), String> {
    let expr = case.get("expr").and_then(Json::as_str).ok_or("no expr")?;
    let expected = case.get("expected").ok_or("no expected")?;
    let ctx = context(dir, case)?;
    let ours = eval_expr_str(expr, &ctx);
    if expected.get("error") == Some(&Json::Bool(true)) {
        return match ours {
            Err(_) => Ok(()),
            Ok(v) => Err(format!("expected an error, got {v}")),
        };
    }
    let ours = ours.map_err(|e| format!("unexpected error: {e}"))?;
    let value = expected.get("value").ok_or("no expected value")?;
    if expected.get("kind").and_then(Json::as_str) == Some("set") {
        let theirs = json_to_value(value)?;
        return match (&theirs, &ours) {
            (Value::Array(a), Value::Array(b)) if sorted(a) == sorted(b) => Ok(()),
            _ => Err(format!("expected the set {theirs}, got {ours}")),
        };
    }
    compare(value, &ours)
}
