//! Evaluation of HCL expressions, templates and bodies.
//!
//! The entry points take a syntax tree from [`hcl_grammar`] and a
//! [`Context`]:
//!
//! - [`eval_expr`]: an expression to a [`Value`];
//! - [`eval_template`]: a standalone template (the unwrapping rule
//!   applies: a template that is one interpolation yields its value);
//! - [`eval_body`]: a body to an object in the shape of HCL's JSON form.
//!
//! Errors carry a span; attach the source with
//! [`Error::with_source`](crate::Error::with_source) to get line, column and
//! a snippet (the string helpers in the crate root do it).
//!
//! # Types
//!
//! [`Value`] has the six kinds of JSON, but HCL distinguishes lists from
//! tuples and sets, maps from objects, and typed nulls from `null`. The
//! evaluator carries a [`Type`] beside a value only where the value's type
//! is not the one implied by its kind ([`Type::of`]): the result of a
//! function declared to return `set(string)`, a `null` converted by a
//! conditional, a list produced by a conversion. Values without such a tag
//! (literals, variables, most results) cost nothing extra. The tag is
//! dropped when a [`Value`] leaves the evaluator.
//!
//! # Limits
//!
//! Every evaluation is bounded by the context's [`EvalOptions`]: nesting
//! depth (256), elements of a produced collection (1,000,000), bytes of a
//! produced string (16 MiB) and total `for` iterations (1,000,000), so
//! `[for i in range(100000000): i]` or a template loop that doubles its
//! output fails with an error instead of exhausting memory or time.
//!
//! # Behaviour
//!
//! Evaluation follows the reference (hcl 2.14.1 with go-cty 1.12.1), checked
//! against its conformance cases and by differential testing: operators
//! convert their operands (`"1" + 2` is 3, `"true" && true`), equality does
//! not (`1 == "1"` is false) and compares collections deeply; a conditional
//! evaluates both results and unifies their types (`true ? 1 : "one"` is
//! `"1"`) but reports only the taken branch's error; `for` visits objects
//! in bytewise key order; splats treat `null` as an empty list and any
//! other non-list as a one-element list. Errors use the evaluation guide's
//! words: "variables are not allowed here" without a context supporting
//! them, "there is no variable named `x`; did you mean `y`?" with one.

mod context;
pub(crate) mod convert;
mod expr;
mod func;
mod unify;
pub(crate) mod unknown;

pub use crate::value::types::Type;
pub use context::{Context, EvalOptions};
pub use func::{FuncArgs, FuncDef, FuncError, FuncImpl, Param, ReturnTypeFn};

use crate::error::{Error, Result};
use crate::value::{Map, Value};
use hcl_grammar::{Body, Expr, Structure, Template};

pub(crate) use expr::Evaluator;
use expr::TVal;

/// Evaluates an expression.
///
/// ```
/// use hcl_grammar::{Expr, ExprKind, BinaryExpr, BinaryOp, Span};
/// use hcl::{eval::eval_expr, Context, Value};
///
/// // 1 + 2, built by hand (the parser produces the same tree).
/// let num = |s, at| Expr { kind: ExprKind::Number(s), span: Span::new(at, at + 1) };
/// let sum = Expr {
///     kind: ExprKind::Binary(Box::new(BinaryExpr {
///         op: BinaryOp::Add,
///         lhs: num("1", 0),
///         rhs: num("2", 4),
///         op_span: Span::new(2, 3),
///     })),
///     span: Span::new(0, 5),
/// };
/// assert_eq!(eval_expr(&sum, &Context::none())?, Value::from(3));
/// # Ok::<(), hcl::Error>(())
/// ```
///
/// # Errors
///
/// An evaluation error with the span of the offending expression: an
/// unknown variable or function, a type mismatch, a division by zero, a
/// limit of the context's [`EvalOptions`] exceeded.
pub fn eval_expr(expr: &Expr<'_>, ctx: &Context) -> Result<Value> {
    Evaluator::new(ctx).eval(expr).map(TVal::into_value)
}

/// [`eval_expr`] with the result's type, which tells a set from a list
/// and a map from an object (`ext::dynblock` needs it for a set's keys).
pub(crate) fn eval_expr_typed(expr: &Expr<'_>, ctx: &Context) -> Result<(Value, Type)> {
    Evaluator::new(ctx).eval(expr).map(|t| {
        let ty = t.ty();
        (t.into_value(), ty)
    })
}

/// Evaluates a standalone template. A template that is exactly one
/// interpolation yields the interpolated value unconverted; any other
/// yields a string.
///
/// # Errors
///
/// As [`eval_expr`]; also an interpolated value that is not a string,
/// number or bool, and a directive condition that is not a bool.
pub fn eval_template(template: &Template<'_>, ctx: &Context) -> Result<Value> {
    Evaluator::new(ctx).template(template).map(TVal::into_value)
}

/// Evaluates every attribute of a body and its blocks into an object in
/// the shape of HCL's JSON form: attributes are keys; a block is nested
/// under its type, then under each label; a block whose type and labels
/// repeat becomes an array of bodies.
///
/// ```text
/// port = 8080                      {"port": 8080,
/// service "web" { x = 1 }    =>     "service": {"web": {"x": 1}},
/// rule { a = 1 }                    "rule": [{"a": 1}, {"a": 2}]}
/// rule { a = 2 }
/// ```
///
/// # Errors
///
/// The first evaluation error in source order, or a block type that is
/// also an attribute name of the same body.
pub fn eval_body(body: &Body<'_>, ctx: &Context) -> Result<Value> {
    let ev = Evaluator::new(ctx);
    body_value(&ev, body, 0).map(Value::Object)
}

fn body_value<'a>(
    ev: &Evaluator<'_, 'a>,
    body: &'a Body<'a>,
    depth: usize,
) -> Result<Map<String, Value>> {
    if depth > ev.options().max_depth() {
        return Err(Error::eval(
            format!(
                "blocks are nested more than {} levels deep",
                ev.options().max_depth()
            ),
            body.span,
        ));
    }
    let mut out = Map::with_capacity(body.items.len());
    // Attribute names, to detect a block type that is also an attribute
    // (built only when the body has both).
    let mut attr_names: Option<std::collections::HashSet<&str>> = None;
    for item in &body.items {
        match item {
            Structure::Attribute(a) => {
                let v = ev.eval(&a.expr)?.into_value();
                out.insert(a.name.name.to_owned(), v);
            }
            Structure::Block(b) => {
                let names = attr_names
                    .get_or_insert_with(|| body.attributes().map(|a| a.name.name).collect());
                if names.contains(b.ident.name) {
                    return Err(Error::eval(
                        format!(
                            "`{}` is both an attribute and a block type in this body",
                            b.ident.name
                        ),
                        b.ident.span,
                    ));
                }
                let inner = Value::Object(body_value(ev, &b.body, depth + 1)?);
                let mut map = &mut out;
                let mut key = b.ident.name;
                for label in &b.labels {
                    let slot = map
                        .entry(key.to_owned())
                        .or_insert_with(|| Value::Object(Map::new()));
                    let Value::Object(m) = slot else {
                        return Err(Error::eval(
                            format!(
                                "blocks of type `{}` have inconsistent numbers of labels",
                                b.ident.name
                            ),
                            label.span(),
                        ));
                    };
                    map = m;
                    key = label.as_str();
                }
                match map.entry(key.to_owned()) {
                    crate::value::map::Entry::Vacant(e) => {
                        e.insert(inner);
                    }
                    crate::value::map::Entry::Occupied(mut e) => match e.get_mut() {
                        Value::Array(a) => a.push(inner),
                        other => {
                            let first = other.take();
                            *other = Value::Array(vec![first, inner]);
                        }
                    },
                }
            }
        }
    }
    Ok(out)
}

/// Parses `src` as a standalone expression and evaluates it; errors carry
/// their line, column and source line.
///
/// ```
/// use hcl::{eval::eval_expr_str, Context, Value};
/// let mut ctx = Context::new();
/// ctx.declare_var("ports", vec![80, 443]);
/// assert_eq!(eval_expr_str("[for p in ports: p + 1]", &ctx)?, Value::from(vec![81, 444]));
/// assert_eq!(eval_expr_str("true ? 1 : \"one\"", &ctx)?, Value::from("1"));
///
/// let err = eval_expr_str("1 +\n nmae", &Context::none()).unwrap_err();
/// assert_eq!(err.line(), Some(2));
/// # Ok::<(), hcl::Error>(())
/// ```
///
/// # Errors
///
/// A syntax error, or an evaluation error as [`eval_expr`].
pub fn eval_expr_str(src: &str, ctx: &Context) -> Result<Value> {
    let expr = hcl_grammar::parse_expr(src, &Default::default())?;
    eval_expr(&expr, ctx).map_err(|e| e.with_source(src))
}

/// Parses `src` as a standalone template (taken byte for byte, a
/// trailing newline included) and evaluates it; errors carry their line,
/// column and source line.
///
/// ```
/// use hcl::{eval::eval_template_str, Context, Value};
/// let mut ctx = Context::new();
/// ctx.declare_var("names", vec!["a", "b"]);
/// let v = eval_template_str("%{ for n in names }<${n}>%{ endfor }", &ctx)?;
/// assert_eq!(v, Value::from("<a><b>"));
/// # Ok::<(), hcl::Error>(())
/// ```
///
/// # Errors
///
/// A syntax error, or an evaluation error as [`eval_template`].
pub fn eval_template_str(src: &str, ctx: &Context) -> Result<Value> {
    let template = hcl_grammar::parse_template(src, &Default::default())?;
    eval_template(&template, ctx).map_err(|e| e.with_source(src))
}

/// Parses `src` as a config file and evaluates it into HCL's JSON shape
/// (see [`eval_body`]); errors carry their line, column and source line.
///
/// ```
/// use hcl::{eval::eval_body_str, Context};
/// let v = eval_body_str("port = 8000 + 80\nservice \"web\" {\n  replicas = 2\n}\n", &Context::none())?;
/// assert_eq!(v.to_string(), r#"{ port = 8080, service = { web = { replicas = 2 } } }"#);
/// # Ok::<(), hcl::Error>(())
/// ```
///
/// # Errors
///
/// A syntax error, or an evaluation error as [`eval_body`].
pub fn eval_body_str(src: &str, ctx: &Context) -> Result<Value> {
    let body = hcl_grammar::parse_body(src, &Default::default())?;
    eval_body(&body, ctx).map_err(|e| e.with_source(src))
}

/// Types that can be evaluated in a [`Context`]: expressions, templates
/// and bodies of the syntax tree.
///
/// ```
/// use hcl_grammar::{Expr, ExprKind, Span};
/// use hcl::{eval::Evaluate, Context, Value};
/// let e = Expr { kind: ExprKind::Bool(true), span: Span::new(0, 4) };
/// assert_eq!(e.evaluate(&Context::none())?, Value::Bool(true));
/// # Ok::<(), hcl::Error>(())
/// ```
pub trait Evaluate {
    /// Evaluates `self`.
    ///
    /// # Errors
    /// See [`eval_expr`], [`eval_template`], [`eval_body`].
    fn evaluate(&self, ctx: &Context) -> Result<Value>;
}

impl Evaluate for Expr<'_> {
    fn evaluate(&self, ctx: &Context) -> Result<Value> {
        eval_expr(self, ctx)
    }
}

impl Evaluate for Template<'_> {
    fn evaluate(&self, ctx: &Context) -> Result<Value> {
        eval_template(self, ctx)
    }
}

impl Evaluate for Body<'_> {
    fn evaluate(&self, ctx: &Context) -> Result<Value> {
        eval_body(self, ctx)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use hcl_grammar::{
        BinaryExpr, BinaryOp, Conditional, ExprKind, ForExpr, FuncCall, Ident, Span,
    };

    // Hand-built trees; spans are arbitrary but distinct where a test
    // checks them.
    fn e(kind: ExprKind<'static>, at: usize) -> Expr<'static> {
        Expr {
            kind,
            span: Span::new(at, at + 1),
        }
    }
    fn num(s: &'static str) -> Expr<'static> {
        e(ExprKind::Number(s), 0)
    }
    fn string(s: &'static str) -> Expr<'static> {
        e(ExprKind::String(s.into()), 0)
    }
    fn ident(name: &'static str, at: usize) -> Ident<'static> {
        Ident {
            name,
            span: Span::new(at, at + name.len()),
        }
    }
    fn var(name: &'static str, at: usize) -> Expr<'static> {
        e(ExprKind::Variable(ident(name, at)), at)
    }
    fn bin(op: BinaryOp, lhs: Expr<'static>, rhs: Expr<'static>) -> Expr<'static> {
        e(
            ExprKind::Binary(Box::new(BinaryExpr {
                op,
                lhs,
                rhs,
                op_span: Span::new(0, 1),
            })),
            0,
        )
    }

    #[test]
    fn contexts_can_be_shared_between_threads() {
        fn shared<T: Send + Sync>() {}
        shared::<Context>();
        shared::<FuncDef>();
        shared::<Error>();
    }

    #[test]
    fn variables_without_and_with_context() {
        let x = var("nmae", 3);
        let err = eval_expr(&x, &Context::none()).unwrap_err();
        assert!(
            err.message().starts_with("variables are not allowed here"),
            "{err}"
        );
        assert_eq!(err.span(), Some(Span::new(3, 7)));
        let mut ctx = Context::new();
        ctx.declare_var("name", "x");
        let err = eval_expr(&x, &ctx).unwrap_err();
        assert_eq!(
            err.message(),
            "there is no variable named `nmae`; did you mean `name`?"
        );
    }

    #[test]
    fn arithmetic_converts_strings() {
        // "1" + 2 is 3 (spec: operators convert operands to number).
        assert_eq!(
            eval_expr(&bin(BinaryOp::Add, string("1"), num("2")), &Context::none()),
            Ok(Value::from(3))
        );
        // 1 == "1" is false: equality does not convert.
        assert_eq!(
            eval_expr(&bin(BinaryOp::Eq, num("1"), string("1")), &Context::none()),
            Ok(Value::Bool(false))
        );
        // oracle: tostring(1/0) is "+Inf": division by zero is infinity.
        assert_eq!(
            eval_expr(&bin(BinaryOp::Div, num("1"), num("0")), &Context::none()),
            Ok(Value::Number(crate::Number::INFINITY))
        );
    }

    #[test]
    fn conditional_unifies_types() {
        // oracle: `true ? 1 : "one"` is "1".
        let c = e(
            ExprKind::Conditional(Box::new(Conditional {
                cond: e(ExprKind::Bool(true), 0),
                then_expr: num("1"),
                else_expr: string("one"),
            })),
            0,
        );
        assert_eq!(eval_expr(&c, &Context::none()), Ok(Value::from("1")));
    }

    #[test]
    fn for_visits_objects_in_key_order() {
        // [for k, v in {b = 1, a = 2}: k]  => ["a", "b"]
        let obj = e(
            ExprKind::Object(
                vec![
                    hcl_grammar::ObjectItem {
                        key: hcl_grammar::ObjectKey::Ident(ident("b", 0)),
                        value: num("1"),
                    },
                    hcl_grammar::ObjectItem {
                        key: hcl_grammar::ObjectKey::Ident(ident("a", 0)),
                        value: num("2"),
                    },
                ]
                .into(),
            ),
            0,
        );
        let f = e(
            ExprKind::For(Box::new(ForExpr {
                key_var: Some(ident("k", 0)),
                value_var: ident("v", 0),
                collection: obj,
                key_expr: None,
                value_expr: var("k", 0),
                grouping: false,
                cond: None,
                intro: Span::new(0, 1),
            })),
            0,
        );
        assert_eq!(
            eval_expr(&f, &Context::none()),
            Ok(Value::from(vec!["a", "b"]))
        );
    }

    #[test]
    fn function_arguments_are_converted_and_checked() {
        let mut ctx = Context::new();
        ctx.declare_func(
            "upper",
            FuncDef::new(|args| Ok(args.str(0)?.to_uppercase().into()))
                .param(Param::new("str", Type::String)),
        );
        let call = |arg: Expr<'static>| {
            e(
                ExprKind::Call(Box::new(FuncCall {
                    name: ident("upper", 0),
                    args: vec![arg].into(),
                    expand_final: false,
                    parens: Span::new(5, 12),
                })),
                0,
            )
        };
        assert_eq!(eval_expr(&call(num("15")), &ctx), Ok(Value::from("15")));
        let bad = e(ExprKind::Tuple(vec![].into()), 6);
        let err = eval_expr(&call(bad), &ctx).unwrap_err();
        assert_eq!(err.span(), Some(Span::new(6, 7)), "{err}");
        let err = eval_expr(&call(num("1")), &Context::none()).unwrap_err();
        assert!(err.message().starts_with("functions are not allowed here"));
    }

    #[test]
    fn iteration_limit() {
        // [for x in [1, 2, 3]: x] with a limit of 2 iterations.
        let f = e(
            ExprKind::For(Box::new(ForExpr {
                key_var: None,
                value_var: ident("x", 0),
                collection: e(
                    ExprKind::Tuple(vec![num("1"), num("2"), num("3")].into()),
                    0,
                ),
                key_expr: None,
                value_expr: var("x", 0),
                grouping: false,
                cond: None,
                intro: Span::new(0, 1),
            })),
            0,
        );
        let ctx = Context::none().with_options(EvalOptions::default().with_max_iterations(2));
        assert!(eval_expr(&f, &ctx).is_err());
        assert_eq!(
            eval_expr(&f, &Context::none()),
            Ok(Value::from(vec![1, 2, 3]))
        );
    }
}
