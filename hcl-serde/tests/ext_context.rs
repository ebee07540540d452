//! Child contexts (`Context::child`, the reference's
//! `EvalContext.NewChild`): lookups fall through to the parent, the
//! child's own names shadow it, and the parent is shared, not copied.

use hcl::eval::{eval_expr_str, FuncDef, Param, Type};
use hcl::{Context, Value};
use std::sync::Arc;

fn root() -> Arc<Context> {
    let mut root = Context::new();
    root.declare_var("region", "eu-west-1");
    root.declare_var("name", "web");
    root.declare_func(
        "upper",
        FuncDef::new(|args| Ok(args.str(0)?.to_uppercase().into()))
            .param(Param::new("str", Type::String)),
    );
    Arc::new(root)
}

#[test]
fn child_sees_parent_and_shadows_it() -> hcl::Result<()> {
    let root = root();
    let mut child = Context::child(&root);
    child.declare_var("name", "db");
    assert_eq!(
        eval_expr_str("upper(\"${name}-${region}\")", &child)?,
        Value::from("DB-EU-WEST-1")
    );
    // The parent is unchanged and shared, not copied.
    assert_eq!(eval_expr_str("name", &root)?, Value::from("web"));
    assert_eq!(Arc::strong_count(&root), 2);
    assert!(child.parent().is_some_and(|p| Arc::ptr_eq(p, &root)));
    Ok(())
}

#[test]
fn child_functions_shadow_the_parents() -> hcl::Result<()> {
    let root = root();
    let mut child = Context::child(&root);
    child.declare_func(
        "upper",
        FuncDef::new(|_| Ok("shadowed".into())).param(Param::new("str", Type::String)),
    );
    assert_eq!(
        eval_expr_str("upper(name)", &child)?,
        Value::from("shadowed")
    );
    assert_eq!(eval_expr_str("upper(name)", &root)?, Value::from("WEB"));
    Ok(())
}

#[test]
fn grandchild_sees_every_ancestor() -> hcl::Result<()> {
    let mut child = Context::child(&root());
    child.declare_var("tier", "b");
    let mut grandchild = Context::child(&Arc::new(child));
    grandchild.declare_var("name", "c");
    assert_eq!(
        eval_expr_str("\"${name}/${tier}/${region}\"", &grandchild)?,
        Value::from("c/b/eu-west-1")
    );
    Ok(())
}

#[test]
fn unknown_name_suggests_from_ancestors() {
    let child = Context::child(&root());
    let err = eval_expr_str("regoin", &child).map(drop);
    let msg = err.map_err(|e| e.message().to_owned());
    assert_eq!(
        msg,
        Err("there is no variable named `regoin`; did you mean `region`?".to_owned())
    );
    let msg = eval_expr_str("uper(name)", &child).map_err(|e| e.message().to_owned());
    assert_eq!(
        msg,
        Err("there is no function named `uper`; did you mean `upper`?".to_owned())
    );
}

#[test]
fn child_of_none_supports_nothing_until_it_declares() {
    let none = Arc::new(Context::none());
    let mut child = Context::child(&none);
    assert!(!child.supports_vars());
    let msg = eval_expr_str("x", &child).map_err(|e| e.message().to_owned());
    assert_eq!(
        msg,
        Err("variables are not allowed here (found `x`)".to_owned())
    );
    child.declare_var("x", 1);
    assert!(child.supports_vars());
    assert!(!child.supports_funcs());
    assert_eq!(eval_expr_str("x", &child).ok(), Some(Value::from(1)));
}

#[test]
fn child_keeps_the_parents_limits() {
    let root = Arc::new(
        Context::new().with_options(hcl::eval::EvalOptions::default().with_max_collection_len(3)),
    );
    let child = Context::child(&root);
    assert_eq!(child.options().max_collection_len(), 3);
}
