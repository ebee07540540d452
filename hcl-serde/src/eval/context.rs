//! The evaluation context: variables, functions and limits.

use super::func::FuncDef;
use crate::value::{Map, Value};
use std::sync::Arc;

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
///
/// A context can have a parent ([`Context::child`], the reference's
/// `EvalContext.NewChild`): its own variables and functions shadow the
/// parent's, and names it does not define are looked up in the parent,
/// which is shared, not copied.
#[derive(Debug, Clone)]
pub struct Context {
    vars: Option<Map<String, Value>>,
    funcs: Option<Map<String, FuncDef>>,
    options: EvalOptions,
    parent: Option<Arc<Context>>,
    /// Whether a declared variable is or holds an unknown value.
    unknowns: bool,
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
            parent: None,
            unknowns: false,
        }
    }

    /// A context that supports neither variables nor functions: what
    /// evaluating "without a context" means.
    pub fn none() -> Context {
        Context {
            vars: None,
            funcs: None,
            options: EvalOptions::default(),
            parent: None,
            unknowns: false,
        }
    }

    /// A context whose parent is `parent`: it sees the parent's variables
    /// and functions (and the parent's parents'), and those it declares
    /// itself shadow them. Nothing is copied: the parent is shared through
    /// its `Arc`. The child starts with the parent's [`EvalOptions`] and
    /// supports variables (functions) exactly when the parent does, until
    /// it declares one of its own.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use hcl::{eval::eval_expr_str, Context, Value};
    ///
    /// let mut root = Context::new();
    /// root.declare_var("region", "eu-west-1");
    /// root.declare_var("name", "web");
    /// let root = Arc::new(root);
    ///
    /// let mut child = Context::child(&root);
    /// child.declare_var("name", "db"); // shadows the parent's `name`
    /// assert_eq!(eval_expr_str("\"${name}-${region}\"", &child)?, Value::from("db-eu-west-1"));
    /// assert_eq!(eval_expr_str("name", &root)?, Value::from("web"));
    /// # Ok::<(), hcl::Error>(())
    /// ```
    pub fn child(parent: &Arc<Context>) -> Context {
        Context {
            vars: None,
            funcs: None,
            options: parent.options,
            parent: Some(Arc::clone(parent)),
            unknowns: false,
        }
    }

    /// The parent of a context made by [`Context::child`].
    pub fn parent(&self) -> Option<&Arc<Context>> {
        self.parent.as_ref()
    }

    /// This context and its ancestors, nearest first.
    fn chain(&self) -> impl Iterator<Item = &Context> {
        std::iter::successors(Some(self), |c| c.parent.as_deref())
    }

    /// The names of every variable visible here (shadowed ones included),
    /// for "did you mean" suggestions.
    pub(crate) fn var_names(&self) -> impl Iterator<Item = &str> {
        self.chain()
            .filter_map(|c| c.vars.as_ref())
            .flat_map(|m| m.keys().map(String::as_str))
    }

    /// The names of every function visible here, as
    /// [`var_names`](Context::var_names).
    pub(crate) fn func_names(&self) -> impl Iterator<Item = &str> {
        self.chain()
            .filter_map(|c| c.funcs.as_ref())
            .flat_map(|m| m.keys().map(String::as_str))
    }

    /// Defines (or replaces) the variable `name`. Turns variable support on
    /// for a [`Context::none`].
    ///
    /// Every string in `value` is normalized to NFC, as the reference
    /// (go-cty) holds every string.
    ///
    /// The value may be, or hold, an unknown value
    /// ([`Value::unknown`]): results that depend on it are then unknown
    /// instead of errors, as with go-cty's unknown values.
    pub fn declare_var(&mut self, name: impl Into<String>, value: impl Into<Value>) {
        let mut value = value.into();
        crate::value::nfc::nfc_value(&mut value);
        self.unknowns |= !value.is_wholly_known();
        self.vars
            .get_or_insert_with(Map::new)
            .insert(name.into(), value);
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

    /// The variable `name`: this context's own, or else its parent's.
    pub fn var(&self, name: &str) -> Option<&Value> {
        self.chain()
            .find_map(|c| c.vars.as_ref().and_then(|v| v.get(name)))
    }

    /// The function `name`: this context's own, or else its parent's.
    pub fn func(&self, name: &str) -> Option<&FuncDef> {
        self.chain()
            .find_map(|c| c.funcs.as_ref().and_then(|f| f.get(name)))
    }

    /// This context's own variables (not its parent's), or `None` if it
    /// has none and does not support them.
    pub fn vars(&self) -> Option<&Map<String, Value>> {
        self.vars.as_ref()
    }

    /// This context's own functions (not its parent's), or `None` if it
    /// has none and does not support them.
    pub fn funcs(&self) -> Option<&Map<String, FuncDef>> {
        self.funcs.as_ref()
    }

    /// Whether a variable declared here or in a parent is, or holds, an
    /// unknown value (an evaluation without any needs no unknown checks).
    pub(crate) fn has_unknowns(&self) -> bool {
        self.chain().any(|c| c.unknowns)
    }

    /// Whether variables are supported (see [`Context::none`]), here or
    /// in a parent.
    pub fn supports_vars(&self) -> bool {
        self.chain().any(|c| c.vars.is_some())
    }

    /// Whether functions are supported (see [`Context::none`]), here or
    /// in a parent.
    pub fn supports_funcs(&self) -> bool {
        self.chain().any(|c| c.funcs.is_some())
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
