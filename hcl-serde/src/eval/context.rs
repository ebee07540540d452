//! The evaluation context: variables, functions and limits.

use super::func::FuncDef;
use crate::value::{Map, Value};

/// The variables and functions available to expressions, and the limits
/// that bound an evaluation.
///
/// As in the reference (`hcl.EvalContext`), a context can support
/// variables and functions or not:
///
/// - [`Context::new`] supports both, with none defined yet: referring to
///   an unknown one fails with "there is no variable named `x`" (with "did
///   you mean `y`?" when a close name exists).
/// - [`Context::none`] supports neither, as evaluating without a context:
///   any reference fails with "variables are not allowed here" or
///   "functions are not allowed here".
///
/// ```
/// use hcl::{Context, Value};
/// use hcl::eval::{FuncDef, Param, Type};
///
/// let mut ctx = Context::new();
/// ctx.declare_var("name", "Ermintrude");
/// ctx.declare_var("path", Value::from_iter([("root", "/srv")]));
/// ctx.declare_func(
///     "upper",
///     FuncDef::new(|args| Ok(args.str(0)?.to_uppercase().into()))
///         .param(Param::new("str", Type::String)),
/// );
/// assert_eq!(ctx.var("name"), Some(&Value::from("Ermintrude")));
/// ```
#[derive(Debug, Clone)]
pub struct Context {
    vars: Option<Map<String, Value>>,
    funcs: Option<Map<String, FuncDef>>,
    options: EvalOptions,
}

impl Default for Context {
    /// Same as [`Context::new`].
    fn default() -> Context {
        Context::new()
    }
}

impl Context {
    /// A context that supports variables and functions, with none defined.
    pub fn new() -> Context {
        Context {
            vars: Some(Map::new()),
            funcs: Some(Map::new()),
            options: EvalOptions::default(),
        }
    }

    /// A context that supports neither variables nor functions: what
    /// evaluating "without a context" means.
    pub fn none() -> Context {
        Context {
            vars: None,
            funcs: None,
            options: EvalOptions::default(),
        }
    }

    /// Defines (or replaces) the variable `name`. Turns variable support on
    /// for a [`Context::none`].
    pub fn declare_var(&mut self, name: impl Into<String>, value: impl Into<Value>) {
        self.vars
            .get_or_insert_with(Map::new)
            .insert(name.into(), value.into());
    }

    /// Defines (or replaces) the function `name`. Turns function support
    /// on for a [`Context::none`].
    pub fn declare_func(&mut self, name: impl Into<String>, func: FuncDef) {
        self.funcs
            .get_or_insert_with(Map::new)
            .insert(name.into(), func);
    }

    /// Removes the function `name`, returning it.
    pub fn remove_func(&mut self, name: &str) -> Option<FuncDef> {
        self.funcs.as_mut().and_then(|f| f.shift_remove(name))
    }

    /// The variable `name`.
    pub fn var(&self, name: &str) -> Option<&Value> {
        self.vars.as_ref().and_then(|v| v.get(name))
    }

    /// The function `name`.
    pub fn func(&self, name: &str) -> Option<&FuncDef> {
        self.funcs.as_ref().and_then(|f| f.get(name))
    }

    /// All variables, or `None` if variables are not supported.
    pub fn vars(&self) -> Option<&Map<String, Value>> {
        self.vars.as_ref()
    }

    /// All functions, or `None` if functions are not supported.
    pub fn funcs(&self) -> Option<&Map<String, FuncDef>> {
        self.funcs.as_ref()
    }

    /// Whether variables are supported (see [`Context::none`]).
    pub fn supports_vars(&self) -> bool {
        self.vars.is_some()
    }

    /// Whether functions are supported (see [`Context::none`]).
    pub fn supports_funcs(&self) -> bool {
        self.funcs.is_some()
    }

    /// The evaluation limits.
    pub fn options(&self) -> &EvalOptions {
        &self.options
    }

    /// The evaluation limits, to change them.
    pub fn options_mut(&mut self) -> &mut EvalOptions {
        &mut self.options
    }

    /// Replaces the evaluation limits.
    #[must_use]
    pub fn with_options(mut self, options: EvalOptions) -> Context {
        self.options = options;
        self
    }
}

/// Limits that bound one evaluation, so that hostile or mistaken input
/// returns an error instead of exhausting the stack, memory or time.
///
/// ```
/// use hcl::eval::EvalOptions;
/// let opts = EvalOptions::default().with_max_collection_len(1000);
/// assert_eq!(opts.max_collection_len(), 1000);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EvalOptions {
    max_depth: usize,
    max_collection_len: usize,
    max_string_len: usize,
    max_iterations: u64,
}

impl EvalOptions {
    /// The defaults: depth 256, collections of 1,000,000 elements, strings
    /// of 16 MiB, 1,000,000 `for` iterations per evaluation (each iteration
    /// can create a value, so this also bounds memory: about 100 MB).
    pub const DEFAULT: EvalOptions = EvalOptions {
        max_depth: 256,
        max_collection_len: 1_000_000,
        max_string_len: 16 << 20,
        max_iterations: 1_000_000,
    };

    /// The deepest nesting of expression evaluation (each operator, call,
    /// `for`, template directive is one level).
    #[must_use]
    pub fn with_max_depth(mut self, n: usize) -> EvalOptions {
        self.max_depth = n;
        self
    }

    /// The largest number of elements in a produced list or object.
    #[must_use]
    pub fn with_max_collection_len(mut self, n: usize) -> EvalOptions {
        self.max_collection_len = n;
        self
    }

    /// The largest produced string, in bytes.
    #[must_use]
    pub fn with_max_string_len(mut self, n: usize) -> EvalOptions {
        self.max_string_len = n;
        self
    }

    /// The largest total number of iterations of `for` expressions and
    /// template `for` directives in one evaluation (bounds time).
    #[must_use]
    pub fn with_max_iterations(mut self, n: u64) -> EvalOptions {
        self.max_iterations = n;
        self
    }

    /// The limit set by [`with_max_depth`](EvalOptions::with_max_depth).
    pub fn max_depth(&self) -> usize {
        self.max_depth
    }

    /// The limit set by [`with_max_collection_len`](EvalOptions::with_max_collection_len).
    pub fn max_collection_len(&self) -> usize {
        self.max_collection_len
    }

    /// The limit set by [`with_max_string_len`](EvalOptions::with_max_string_len).
    pub fn max_string_len(&self) -> usize {
        self.max_string_len
    }

    /// The limit set by [`with_max_iterations`](EvalOptions::with_max_iterations).
    pub fn max_iterations(&self) -> u64 {
        self.max_iterations
    }
}

impl Default for EvalOptions {
    fn default() -> EvalOptions {
        EvalOptions::DEFAULT
    }
}
