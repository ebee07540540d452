//! Functions that an application makes available to expressions.

use super::context::EvalOptions;
use super::convert;
use crate::error::Error;
use crate::value::types::Type;
use crate::value::{Map, Value};
use crate::Number;
use std::cell::RefCell;
use std::fmt;
use std::sync::Arc;

/// The signature of a function's implementation: it receives the checked
/// and converted arguments and returns a value or a [`FuncError`].
pub type FuncImpl = dyn Fn(FuncArgs<'_>) -> Result<Value, FuncError> + Send + Sync;

/// A function definition: its parameters, an optional variadic parameter,
/// its result type and the Rust closure that implements it.
///
/// Before the closure runs, the evaluator checks the number of arguments,
/// rejects `null` for parameters that are not [nullable](Param::nullable),
/// and converts each argument to its parameter's type with HCL's
/// conversions (a `string` parameter receives `15` as `"15"`, a
/// `list(number)` parameter receives `["1", 2]` as `[1, 2]`). A failure
/// points at the offending argument.
///
/// The closure may capture state; it must be `Send + Sync` so a
/// [`Context`](crate::Context) can be shared between threads.
///
/// ```
/// use hcl::eval::{FuncDef, Param, Type};
/// use hcl::Value;
///
/// let upper = FuncDef::new(|args| Ok(Value::from(args.str(0)?.to_uppercase())))
///     .param(Param::new("str", Type::String));
/// assert_eq!(upper.call(vec![Value::from("abc")]), Ok(Value::from("ABC")));
/// // Arguments are converted to the parameter type first:
/// assert_eq!(upper.call(vec![Value::from(15)]), Ok(Value::from("15")));
/// ```
#[derive(Clone)]
pub struct FuncDef {
    params: Vec<Param>,
    variadic: Option<Param>,
    returns: Type,
    returns_with: Option<Arc<ReturnTypeFn>>,
    func: Arc<FuncImpl>,
    /// Whether the result type is computed even for an argument of unknown
    /// type (cty's `AllowDynamicType`); otherwise such a call is of
    /// unknown type. Matters only for unknown values (see `eval::unknown`).
    allow_dynamic_type: bool,
    /// Whether the function is called with a known collection that holds
    /// unknown values (go-cty calls every function so; ours only those
    /// that pass elements through untouched). Otherwise such a call is
    /// unknown.
    allow_unknown_elements: bool,
}

/// Computes a function's result type from its arguments' types (see
/// [`FuncDef::returns_with`]).
pub type ReturnTypeFn = dyn Fn(&[Type]) -> Type + Send + Sync;

impl FuncDef {
    /// A function implemented by `f`, with no parameters yet: add them with
    /// [`param`](FuncDef::param) and [`variadic`](FuncDef::variadic).
    pub fn new<F>(f: F) -> FuncDef
    where
        F: Fn(FuncArgs<'_>) -> Result<Value, FuncError> + Send + Sync + 'static,
    {
        FuncDef {
            params: Vec::new(),
            variadic: None,
            returns: Type::Any,
            returns_with: None,
            func: Arc::new(f),
            allow_dynamic_type: false,
            allow_unknown_elements: false,
        }
    }

    /// Computes the result type even for arguments of unknown type, as
    /// cty's parameters with `AllowDynamicType` (see `allow_dynamic_type`).
    #[must_use]
    pub(crate) fn allowing_dynamic_type(mut self) -> FuncDef {
        self.allow_dynamic_type = true;
        self
    }

    /// See [`allowing_dynamic_type`](FuncDef::allowing_dynamic_type).
    pub(crate) fn allows_dynamic_type(&self) -> bool {
        self.allow_dynamic_type
    }

    /// Calls the function even with collections that hold unknown values
    /// (see `allow_unknown_elements`).
    #[must_use]
    pub(crate) fn allowing_unknown_elements(mut self) -> FuncDef {
        self.allow_unknown_elements = true;
        self
    }

    /// See [`allowing_unknown_elements`](FuncDef::allowing_unknown_elements).
    pub(crate) fn allows_unknown_elements(&self) -> bool {
        self.allow_unknown_elements
    }

    /// Adds a positional parameter.
    #[must_use]
    pub fn param(mut self, p: Param) -> FuncDef {
        self.params.push(p);
        self
    }

    /// Sets the variadic parameter, which takes every argument after the
    /// positional ones (zero or more), each checked against it.
    #[must_use]
    pub fn variadic(mut self, p: Param) -> FuncDef {
        self.variadic = Some(p);
        self
    }

    /// Declares the result type (default [`Type::Any`]: the type implied
    /// by the returned value). Declaring, for example, `set(string)` makes
    /// the evaluator treat the returned array as a set (no indexing,
    /// lexicographic iteration), as the reference would. [`Type::Any`]
    /// inside the declared type is refined from the value.
    #[must_use]
    pub fn returns(mut self, t: Type) -> FuncDef {
        self.returns = t;
        self
    }

    /// Declares the result type as a function of the argument types
    /// (after conversion to the parameter types), for functions whose
    /// result type depends on their arguments, as `concat` returns a list
    /// for lists and a tuple for tuples. Takes precedence over
    /// [`returns`](FuncDef::returns).
    ///
    /// ```
    /// use hcl::eval::{FuncDef, Param, Type};
    /// // identity keeps the list/set/map type of its argument
    /// let id = FuncDef::new(|args| Ok(args.get(0).cloned().unwrap_or_default()))
    ///     .param(Param::new("v", Type::Any))
    ///     .returns_with(|types| types.first().cloned().unwrap_or(Type::Any));
    /// # let _ = id;
    /// ```
    #[must_use]
    pub fn returns_with<F>(mut self, f: F) -> FuncDef
    where
        F: Fn(&[Type]) -> Type + Send + Sync + 'static,
    {
        self.returns_with = Some(Arc::new(f));
        self
    }

    /// The result type for arguments of types `types`.
    pub fn return_type_for(&self, types: &[Type]) -> Type {
        match &self.returns_with {
            Some(f) => f(types),
            None => self.returns.clone(),
        }
    }

    /// The positional parameters.
    pub fn params(&self) -> &[Param] {
        &self.params
    }

    /// The variadic parameter, if any.
    pub fn variadic_param(&self) -> Option<&Param> {
        self.variadic.as_ref()
    }

    /// The declared result type.
    pub fn return_type(&self) -> &Type {
        &self.returns
    }

    /// The parameter that argument `i` binds to.
    pub fn param_for(&self, i: usize) -> Option<&Param> {
        self.params.get(i).or(self.variadic.as_ref())
    }

    /// Calls the function directly with already evaluated arguments,
    /// checking and converting them as an evaluation would. Useful in tests
    /// and to call one function from another.
    ///
    /// # Errors
    ///
    /// A wrong number of arguments, an argument that does not convert to
    /// its parameter's type, a `null` for a non-nullable parameter, or the
    /// function's own error.
    pub fn call(&self, args: Vec<Value>) -> Result<Value, FuncError> {
        let (values, types) = self.check_args(args)?;
        let result_type = RefCell::new(None);
        self.invoke(FuncArgs {
            values,
            types,
            lazy: Vec::new(),
            name: "",
            options: EvalOptions::DEFAULT,
            result_type: &result_type,
        })
    }

    /// Checks the count, nullability and types of `args`, converting each.
    pub(crate) fn check_args(
        &self,
        args: Vec<Value>,
    ) -> Result<(Vec<Value>, Vec<Type>), FuncError> {
        self.check_count(args.len())?;
        let mut values = Vec::with_capacity(args.len());
        let mut types = Vec::with_capacity(args.len());
        for (i, v) in args.into_iter().enumerate() {
            let Some(p) = self.param_for(i) else {
                return Err(FuncError::new("too many arguments"));
            };
            let (v, t) = p.check(v).map_err(|m| FuncError::arg(i, m))?;
            values.push(v);
            types.push(t);
        }
        Ok((values, types))
    }

    /// Checks the number of arguments.
    pub(crate) fn check_count(&self, n: usize) -> Result<(), FuncError> {
        let want = self.params.len();
        if n < want {
            let missing = self.params.get(n).map_or("", |p| p.name.as_str());
            return Err(FuncError::new(format!(
                "not enough function arguments: the function requires {}{} argument{}; missing `{missing}`",
                if self.variadic.is_some() { "at least " } else { "" },
                want,
                if want == 1 { "" } else { "s" },
            )));
        }
        if n > want && self.variadic.is_none() {
            return Err(FuncError::arg(
                want,
                format!(
                    "too many function arguments: the function takes {want} argument{}",
                    if want == 1 { "" } else { "s" }
                ),
            ));
        }
        Ok(())
    }

    /// Runs the closure.
    pub(crate) fn invoke(&self, args: FuncArgs<'_>) -> Result<Value, FuncError> {
        (self.func)(args)
    }
}

impl fmt::Debug for FuncDef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FuncDef")
            .field("params", &self.params)
            .field("variadic", &self.variadic)
            .field("returns", &self.returns)
            .finish_non_exhaustive()
    }
}

/// A function parameter: a name (for messages), a type, whether `null` is
/// accepted, and whether the argument is passed unevaluated.
#[derive(Debug, Clone, PartialEq)]
pub struct Param {
    name: String,
    ty: Type,
    nullable: bool,
    lazy: bool,
}

impl Param {
    /// A parameter named `name` of type `ty`, not nullable.
    pub fn new(name: impl Into<String>, ty: Type) -> Param {
        Param {
            name: name.into(),
            ty,
            nullable: false,
            lazy: false,
        }
    }

    /// Accepts `null` (passed to the function as [`Value::Null`]).
    #[must_use]
    pub fn nullable(mut self) -> Param {
        self.nullable = true;
        self
    }

    /// Passes the argument unevaluated: the function evaluates it with
    /// [`FuncArgs::eval`] and sees its error, if any, as a value (the way
    /// `try` and `can` work). The parameter's type is not checked.
    #[must_use]
    pub fn lazy(mut self) -> Param {
        self.lazy = true;
        self
    }

    /// The parameter's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The parameter's type.
    pub fn ty(&self) -> &Type {
        &self.ty
    }

    /// Whether `null` is accepted.
    pub fn is_nullable(&self) -> bool {
        self.nullable
    }

    /// Whether the argument is passed unevaluated.
    pub fn is_lazy(&self) -> bool {
        self.lazy
    }

    /// Checks and converts one argument value.
    pub(crate) fn check(&self, v: Value) -> Result<(Value, Type), String> {
        if v.is_null() {
            if self.nullable {
                return Ok((v, self.ty.clone()));
            }
            return Err(format!("argument `{}` must not be null", self.name));
        }
        convert::convert(v, &self.ty)
            .map_err(|m| format!("invalid value for parameter `{}`: {m}", self.name))
    }
}

/// An argument that the function evaluates itself (see [`Param::lazy`]):
/// its value and exact type.
pub(crate) type LazyArg<'a> = Box<dyn Fn() -> Result<(Value, Type), Error> + 'a>;

/// The arguments of one call, checked and converted to the parameter
/// types. Arguments beyond the positional parameters are the variadic ones.
pub struct FuncArgs<'a> {
    values: Vec<Value>,
    types: Vec<Type>,
    /// For each argument, its unevaluated form if its parameter is lazy.
    lazy: Vec<Option<LazyArg<'a>>>,
    name: &'a str,
    options: EvalOptions,
    /// Where [`set_result_type`](FuncArgs::set_result_type) leaves the
    /// type of the result, for the caller.
    result_type: &'a RefCell<Option<Type>>,
}

impl<'a> FuncArgs<'a> {
    pub(crate) fn new(
        values: Vec<Value>,
        types: Vec<Type>,
        lazy: Vec<Option<LazyArg<'a>>>,
        name: &'a str,
        options: EvalOptions,
        result_type: &'a RefCell<Option<Type>>,
    ) -> FuncArgs<'a> {
        FuncArgs {
            values,
            types,
            lazy,
            name,
            options,
            result_type,
        }
    }

    /// Declares the exact type of the value this call returns, for
    /// functions whose result type depends on the argument *values* (which
    /// argument `coalescelist` picks, which attribute `lookup` reads):
    /// overrides [`FuncDef::returns`] and [`FuncDef::returns_with`] for
    /// this call. The evaluator converts the returned value to it, so a
    /// map stays a map and a set a set inside the result.
    ///
    /// ```
    /// use hcl::eval::{FuncDef, Param, Type};
    /// use hcl::Value;
    /// // the first argument, keeping its exact type
    /// let first = FuncDef::new(|args| {
    ///     if let Some(t) = args.arg_type(0) {
    ///         args.set_result_type(t.clone());
    ///     }
    ///     Ok(args.get(0).cloned().unwrap_or_default())
    /// })
    /// .param(Param::new("v", Type::Any));
    /// assert_eq!(first.call(vec![Value::from(1)]), Ok(Value::from(1)));
    /// ```
    pub fn set_result_type(&self, t: Type) {
        *self.result_type.borrow_mut() = Some(t);
    }

    /// The limits of the evaluation that calls the function: a function
    /// that builds a collection or a string from its arguments (`range`,
    /// `format`...) should check the size against them before building it
    /// and fail with a [`FuncError`] if it exceeds them.
    pub fn options(&self) -> &EvalOptions {
        &self.options
    }

    /// The name the function was called by (empty for
    /// [`FuncDef::call`]).
    pub fn name(&self) -> &str {
        self.name
    }

    /// The number of arguments.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Whether there is no argument.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// All argument values (a lazy argument is `null` here: use
    /// [`eval`](FuncArgs::eval)).
    pub fn values(&self) -> &[Value] {
        &self.values
    }

    /// Takes the argument values.
    pub fn into_values(self) -> Vec<Value> {
        self.values
    }

    /// Argument `i`.
    pub fn get(&self, i: usize) -> Option<&Value> {
        self.values.get(i)
    }

    /// The type of argument `i`: its parameter's type, refined from the
    /// value where that type contains `any`; the list, set or map type
    /// where the argument was one.
    pub fn arg_type(&self, i: usize) -> Option<&Type> {
        self.types.get(i)
    }

    /// Evaluates argument `i`, which must belong to a
    /// [lazy](Param::lazy) parameter (for any other argument this returns
    /// its value).
    ///
    /// # Errors
    ///
    /// The argument's evaluation error; [`FuncError`] turns it back into
    /// the call's error with `?`.
    pub fn eval(&self, i: usize) -> Result<Value, Error> {
        self.eval_typed(i).map(|(v, _)| v)
    }

    /// Evaluates argument `i` as [`eval`](FuncArgs::eval) does, with its
    /// exact type (a list stays distinct from a tuple, a map from an
    /// object): what `try` needs to return the value unchanged, with
    /// [`set_result_type`](FuncArgs::set_result_type).
    ///
    /// # Errors
    ///
    /// The argument's evaluation error.
    pub fn eval_typed(&self, i: usize) -> Result<(Value, Type), Error> {
        match self.lazy.get(i) {
            Some(Some(f)) => f(),
            _ => {
                let v = self.values.get(i).cloned().unwrap_or_default();
                let t = self.types.get(i).cloned().unwrap_or_else(|| Type::of(&v));
                Ok((v, t))
            }
        }
    }

    fn expect<'s, T>(
        &'s self,
        i: usize,
        what: &str,
        f: impl FnOnce(&'s Value) -> Option<T>,
    ) -> Result<T, FuncError> {
        let v = self
            .values
            .get(i)
            .ok_or_else(|| FuncError::new(format!("missing argument {}", i + 1)))?;
        f(v).ok_or_else(|| FuncError::arg(i, format!("{what} required")))
    }

    /// Argument `i` as a string.
    ///
    /// # Errors
    /// If there is no such argument or it is not a string (which cannot
    /// happen for a parameter declared [`Type::String`] and not nullable).
    pub fn str(&self, i: usize) -> Result<&str, FuncError> {
        self.expect(i, "a string", Value::as_str)
    }

    /// Argument `i` as a number.
    ///
    /// # Errors
    /// If there is no such argument or it is not a number.
    pub fn number(&self, i: usize) -> Result<&Number, FuncError> {
        self.expect(i, "a number", Value::as_number)
    }

    /// Argument `i` as a bool.
    ///
    /// # Errors
    /// If there is no such argument or it is not a bool.
    pub fn bool(&self, i: usize) -> Result<bool, FuncError> {
        self.expect(i, "a bool", Value::as_bool)
    }

    /// Argument `i` as an array (list, tuple or set).
    ///
    /// # Errors
    /// If there is no such argument or it is not an array.
    pub fn array(&self, i: usize) -> Result<&Vec<Value>, FuncError> {
        self.expect(i, "a list", Value::as_array)
    }

    /// Argument `i` as an object (map or object).
    ///
    /// # Errors
    /// If there is no such argument or it is not an object.
    pub fn object(&self, i: usize) -> Result<&Map<String, Value>, FuncError> {
        self.expect(i, "a map", Value::as_object)
    }
}

impl fmt::Debug for FuncArgs<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FuncArgs")
            .field("name", &self.name)
            .field("values", &self.values)
            .field("types", &self.types)
            .finish_non_exhaustive()
    }
}

/// A function's failure: a message, optionally the index of the argument
/// at fault (the error then points at that argument).
///
/// This is how a function's implementation fails: [`FuncError::new`] for
/// the call as a whole, [`FuncError::arg`] for one argument. The evaluator
/// turns it into an evaluation [`Error`] at the call (or at the argument);
/// an evaluation error of a lazy argument passes through unchanged.
///
/// ```
/// use hcl::eval::{eval_expr_str, FuncDef, FuncError, Param, Type};
/// use hcl::{Context, Value};
///
/// let port = FuncDef::new(|args| match args.number(0)?.as_u64() {
///     Some(n @ 1..=65535) => Ok(Value::from(n)),
///     _ => Err(FuncError::arg(0, "not a port number")),
/// })
/// .param(Param::new("n", Type::Number));
/// let mut ctx = Context::new();
/// ctx.declare_func("port", port);
/// let err = eval_expr_str("port(70000)", &ctx).unwrap_err();
/// assert!(err.is_eval());
/// assert!(err.message().contains("not a port number"), "{err}");
/// assert_eq!(err.column(), Some(6)); // at the argument
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct FuncError {
    message: String,
    arg: Option<usize>,
    source: Option<Error>,
}

impl FuncError {
    /// A failure of the call as a whole.
    pub fn new(message: impl Into<String>) -> FuncError {
        FuncError {
            message: message.into(),
            arg: None,
            source: None,
        }
    }

    /// A failure caused by argument `index` (0-based, counting expanded
    /// arguments).
    pub fn arg(index: usize, message: impl Into<String>) -> FuncError {
        FuncError {
            message: message.into(),
            arg: Some(index),
            source: None,
        }
    }

    /// The message.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The index of the argument at fault, if any.
    pub fn arg_index(&self) -> Option<usize> {
        self.arg
    }

    /// The evaluation error this wraps, if it came from
    /// [`FuncArgs::eval`].
    pub fn source_error(&self) -> Option<&Error> {
        self.source.as_ref()
    }

    pub(crate) fn into_source(self) -> Result<Error, FuncError> {
        match self.source {
            Some(e) => Ok(e),
            None => Err(self),
        }
    }
}

impl fmt::Display for FuncError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for FuncError {}

impl From<String> for FuncError {
    fn from(message: String) -> FuncError {
        FuncError::new(message)
    }
}

impl From<&str> for FuncError {
    fn from(message: &str) -> FuncError {
        FuncError::new(message)
    }
}

impl From<Error> for FuncError {
    /// Propagates an evaluation error (from [`FuncArgs::eval`]) unchanged.
    fn from(e: Error) -> FuncError {
        FuncError {
            message: e.message().to_owned(),
            arg: None,
            source: Some(e),
        }
    }
}
