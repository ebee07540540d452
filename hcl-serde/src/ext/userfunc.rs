//! Functions declared in HCL (the reference's `ext/userfunc`):
//!
//! ```hcl
//! function "join_with" {
//!   params         = [sep]
//!   variadic_param = parts
//!   result         = join(sep, parts)
//! }
//! ```
//!
//! [`decode`] reads the top-level `function` blocks of a body; each
//! [`UserFunction`] becomes a [`FuncDef`] that evaluates its `result` in a
//! child of a context the application chooses, with the parameters as
//! variables.

use crate::error::{Error, Result};
use crate::eval::{Context, FuncDef, FuncError, Param, Type};
use crate::value::Value;
use hcl_grammar::{Block, Body, Expr, ExprKind, Position, Structure};
use std::cell::Cell;
use std::sync::Arc;

/// How many user function calls may be nested (a function whose context
/// holds user functions could call itself, and HCL evaluates both results
/// of a conditional, so recursion would never end).
pub const MAX_NESTED_CALLS: usize = 32;

thread_local! {
    static NESTED_CALLS: Cell<usize> = const { Cell::new(0) };
}

/// A function declared by a `function "NAME" { ... }` block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UserFunction {
    name: String,
    params: Vec<String>,
    variadic: Option<String>,
    result: Arc<ResultExpr>,
}

/// The `result` expression's source, and where it starts in its file.
#[derive(Debug, PartialEq, Eq)]
struct ResultExpr {
    text: String,
    line: usize,
    column: usize,
}

impl UserFunction {
    /// The block's label: the name the function is called by.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The names of the positional parameters.
    pub fn params(&self) -> &[String] {
        &self.params
    }

    /// The name of the variadic parameter, if any: a tuple of the
    /// arguments after the positional ones.
    pub fn variadic_param(&self) -> Option<&str> {
        self.variadic.as_deref()
    }

    /// The `result` expression's source text.
    pub fn result_text(&self) -> &str {
        &self.result.text
    }

    /// The function, callable from expressions: its `result` is evaluated
    /// in a child of `base` (see [`Context::child`]) whose variables are
    /// the parameters. Arguments are not converted; `null` is rejected.
    /// An error inside the result is reported at the call, with its own
    /// line and column in the message.
    pub fn to_func_def(&self, base: &Arc<Context>) -> FuncDef {
        let base = Arc::clone(base);
        let params = self.params.clone();
        let variadic = self.variadic.clone();
        let result = Arc::clone(&self.result);
        let mut def = FuncDef::new(move |args| {
            let mut ctx = Context::child(&base);
            let mut values = args.into_values().into_iter();
            for p in &params {
                ctx.declare_var(p.clone(), values.next().unwrap_or_default());
            }
            if let Some(v) = &variadic {
                ctx.declare_var(v.clone(), Value::Array(values.collect()));
            }
            result.evaluate(&ctx)
        });
        for p in &self.params {
            def = def.param(Param::new(p.clone(), Type::Any));
        }
        if let Some(v) = &self.variadic {
            def = def.variadic(Param::new(v.clone(), Type::Any));
        }
        def
    }
}

impl ResultExpr {
    fn evaluate(&self, ctx: &Context) -> std::result::Result<Value, FuncError> {
        let depth = NESTED_CALLS.with(Cell::get);
        if depth >= MAX_NESTED_CALLS {
            return Err(FuncError::new(format!(
                "user functions are nested more than {MAX_NESTED_CALLS} calls deep \
                 (does one call itself?)"
            )));
        }
        NESTED_CALLS.with(|c| c.set(depth + 1));
        let mut text = String::with_capacity(self.text.len() + 1);
        text.push_str(&self.text);
        // A heredoc needs a newline after its closing marker.
        text.push('\n');
        let out = hcl_grammar::parse_expr(&text, &Default::default())
            .map_err(Error::from)
            .and_then(|e| crate::eval::eval_expr(&e, ctx));
        NESTED_CALLS.with(|c| c.set(depth));
        out.map_err(|e| {
            let at = match e.span() {
                Some(span) => {
                    let p = Position::of(&text, span.start());
                    let column = if p.line == 1 {
                        p.column + self.column - 1
                    } else {
                        p.column
                    };
                    format!(" (at {}:{column})", p.line + self.line - 1)
                }
                None => String::new(),
            };
            FuncError::new(format!("{}{at}", e.message()))
        })
    }
}

/// Reads the `function` blocks of the top level of `body` (those in other
/// blocks are ordinary blocks), in source order; `src` is the text `body`
/// was parsed from. A later function of the same name replaces an
/// earlier one when declared with [`declare`], as in the reference.
///
/// # Errors
///
/// The first malformed `function` block, at the offending part: no name
/// or more than one label, a missing `params` or `result`, any other
/// attribute or a nested block, `params` not a list of bare names,
/// `variadic_param` not a bare name.
pub fn decode(body: &Body<'_>, src: &str) -> Result<Vec<UserFunction>> {
    let blocks: Vec<&Block<'_>> = body
        .blocks()
        .filter(|b| b.ident.name == "function")
        .collect();
    // As the reference, label errors stop decoding before any body is
    // read; then the first error by position.
    let mut errors: Vec<Error> = blocks.iter().filter_map(|b| label_error(b)).collect();
    let mut funcs = Vec::new();
    if errors.is_empty() {
        for b in &blocks {
            match decode_one(b, src) {
                Ok(f) => funcs.push(f),
                Err(e) => errors.push(e),
            }
        }
    }
    match errors
        .into_iter()
        .min_by_key(|e| e.span().map_or(usize::MAX, |s| s.start()))
    {
        Some(e) => Err(e),
        None => Ok(funcs),
    }
}

/// Parses `src` as a body and [`decode`]s its `function` blocks.
///
/// ```
/// use std::sync::Arc;
/// use hcl::{ext::userfunc, Context, Value};
///
/// let src = "function \"greet\" {\n  params = [who]\n  result = \"hello, ${who}\"\n}\n";
/// let funcs = userfunc::parse(src)?;
/// let base = Arc::new(Context::new());
/// let mut ctx = Context::child(&base);
/// userfunc::declare(&funcs, &mut ctx, &base);
/// assert_eq!(hcl::eval::eval_expr_str("greet(\"world\")", &ctx)?, Value::from("hello, world"));
/// # Ok::<(), hcl::Error>(())
/// ```
///
/// # Errors
///
/// A syntax error, or as [`decode`].
pub fn parse(src: &str) -> Result<Vec<UserFunction>> {
    let body = hcl_grammar::parse_body(src, &Default::default())
        .map_err(|e| Error::from(e).with_source(src))?;
    decode(&body, src).map_err(|e| e.with_source(src))
}

/// Declares every function in `ctx` (a later one replaces an earlier one
/// of the same name, and any function of `ctx` of that name), each
/// evaluating its result in a child of `base`.
pub fn declare(funcs: &[UserFunction], ctx: &mut Context, base: &Arc<Context>) {
    for f in funcs {
        ctx.declare_func(f.name.clone(), f.to_func_def(base));
    }
}

/// The body without its top-level `function` blocks: what the rest of
/// the application decodes.
pub fn remaining<'i>(body: &Body<'i>) -> Body<'i> {
    Body {
        items: body
            .items
            .iter()
            .filter(|i| !matches!(i, Structure::Block(b) if b.ident.name == "function"))
            .cloned()
            .collect(),
        span: body.span,
    }
}

fn label_error(b: &Block<'_>) -> Option<Error> {
    match &*b.labels {
        [] => Some(Error::eval(
            "missing name for function: a function block takes one label, its name",
            b.open_brace,
        )),
        [_] => None,
        [_, extra, ..] => Some(Error::eval(
            "extraneous label for function: a function block takes one label, its name",
            extra.span(),
        )),
    }
}

fn decode_one(b: &Block<'_>, src: &str) -> Result<UserFunction> {
    let mut params_expr = None;
    let mut variadic_expr = None;
    let mut result_expr = None;
    for item in &b.body.items {
        match item {
            Structure::Attribute(a) => match a.name.name {
                "params" => params_expr = Some(&a.expr),
                "variadic_param" => variadic_expr = Some(&a.expr),
                "result" => result_expr = Some(&a.expr),
                other => {
                    return Err(Error::eval(
                        format!(
                            "unsupported argument `{other}` in function `{}`: a function \
                             block takes `params`, `variadic_param` and `result`",
                            b.labels.first().map_or("", |l| l.as_str())
                        ),
                        a.name.span,
                    ))
                }
            },
            Structure::Block(inner) => {
                return Err(Error::eval(
                    format!(
                        "unsupported block type `{}`: a function block takes no blocks",
                        inner.ident.name
                    ),
                    inner.ident.span,
                ))
            }
        }
    }
    let missing = |what: &str| {
        Error::eval(
            format!("the argument `{what}` is required in a function block"),
            b.open_brace,
        )
    };
    let params_expr = params_expr.ok_or_else(|| missing("params"))?;
    let result_expr = result_expr.ok_or_else(|| missing("result"))?;
    let ExprKind::Tuple(items) = &params_expr.kind else {
        return Err(Error::eval(
            "`params` must be a list of parameter names, such as [a, b]",
            params_expr.span,
        ));
    };
    let params = items
        .iter()
        .map(|p| {
            bare_name(p).map(str::to_owned).ok_or_else(|| {
                Error::eval(
                    "invalid param element: each parameter name must be an identifier",
                    p.span,
                )
            })
        })
        .collect::<Result<Vec<_>>>()?;
    let variadic = variadic_expr
        .map(|v| {
            bare_name(v).map(str::to_owned).ok_or_else(|| {
                Error::eval(
                    "invalid variadic_param: the variadic parameter name must be an identifier",
                    v.span,
                )
            })
        })
        .transpose()?;
    let start = Position::of(src, result_expr.span.start());
    Ok(UserFunction {
        name: b.labels.first().map_or("", |l| l.as_str()).to_owned(),
        params,
        variadic,
        result: Arc::new(ResultExpr {
            text: src
                .get(result_expr.span.range())
                .unwrap_or_default()
                .to_owned(),
            line: start.line,
            column: start.column,
        }),
    })
}

fn bare_name<'e>(e: &'e Expr<'_>) -> Option<&'e str> {
    match &e.kind {
        ExprKind::Variable(id) => Some(id.name),
        _ => None,
    }
}
