//! Function calls: arguments, expansion, and the limits on results.

use super::{child_type, did_you_mean, retag, Child, Evaluator, TVal};
use crate::error::{Error, Result};
use crate::eval::convert::{self, kind_of};
use crate::eval::func::{FuncArgs, LazyArg};
use crate::eval::unknown;
use crate::value::types::Type;
use crate::value::Value;
use hcl_grammar::{Expr, ExprKind, FuncCall, Span, TemplatePart};
use std::cell::RefCell;

impl<'c, 'a> Evaluator<'c, 'a> {
    pub(super) fn call(&self, call: &'a FuncCall<'a>, span: Span) -> Result<TVal> {
        let name = call.name.name;
        if !self.ctx.supports_funcs() {
            return Err(Error::eval(
                format!("functions are not allowed here (found a call to `{name}`)"),
                call.name.span,
            ));
        }
        let Some(def) = self.ctx.func(name) else {
            return Err(Error::eval(
                format!(
                    "there is no function named `{name}`{}",
                    did_you_mean(name, self.ctx.func_names())
                ),
                call.name.span,
            ));
        };
        // The order of the reference (hcl's FunctionCallExpr.Value), which
        // decides which error comes first: the expanded argument, the
        // argument count, each argument evaluated then converted to its
        // parameter's type, and only then the null checks.
        let fixed = if call.expand_final {
            call.args.len().saturating_sub(1)
        } else {
            call.args.len()
        };
        let mut expanded: Vec<TVal> = Vec::new();
        let mut expand_span = call.parens;
        if call.expand_final {
            if let Some(arg) = call.args.last() {
                expand_span = arg.span;
                let v = self.eval(arg)?;
                if v.is_unknown() {
                    // The reference cannot know the number of arguments.
                    return Ok(TVal::unknown(Type::Any));
                }
                match v.v {
                    Value::Array(items) => {
                        for (j, item) in items.into_iter().enumerate() {
                            expanded.push(retag(item, child_type(v.t.as_deref(), Child::Index(j))));
                        }
                    }
                    Value::Null => {
                        return Err(Error::eval(
                            "the expanding argument (marked with `...`) must not be null",
                            arg.span,
                        ))
                    }
                    ref other => {
                        return Err(Error::eval(
                            format!(
                                "the expanding argument (marked with `...`) must be a list, set or tuple, not {}",
                                kind_of(other)
                            ),
                            arg.span,
                        ))
                    }
                }
            }
        }
        let total = fixed + expanded.len();
        let call_span = call.name.span.to(call.parens).to(span);
        let arg_span = |i: usize| match call.args.get(i) {
            Some(arg) if i < fixed => start_span(arg),
            _ => expand_span,
        };
        let close_paren = Span::new(call.parens.end().saturating_sub(1), call.parens.end());
        def.check_count(total).map_err(|e| {
            let at = e.arg_index().map_or(close_paren, arg_span);
            Error::eval(format!("in the call to `{name}`: {}", e.message()), at)
        })?;
        let mut args = Vec::with_capacity(total);
        let mut types = Vec::with_capacity(total);
        let mut lazy: Vec<Option<LazyArg<'_>>> = Vec::new();
        let mut expanded = expanded.into_iter();
        // Arguments whose value is unknown: the call's result is unknown.
        let mut unknown_args = vec![false; total];
        // An unknown argument of unknown type: cty gives up on the result
        // type unless the function allows it.
        let mut dynamic_arg = false;
        for i in 0..total {
            let Some(p) = def.param_for(i) else { break };
            let tv = match call.args.get(i) {
                Some(arg) if i < fixed => {
                    if p.is_lazy() {
                        // With unknown variables in scope, an argument that
                        // evaluates to an unknown value makes the call
                        // unknown (`can(x.a)` while checking a `for`
                        // condition); its errors stay the function's.
                        if self.unknowns.get()
                            && self.eval(arg).is_ok_and(|t| self.not_wholly_known(&t))
                        {
                            if let Some(u) = unknown_args.get_mut(i) {
                                *u = true;
                            }
                        }
                        lazy.resize_with(i, || None);
                        lazy.push(Some(Box::new(move || {
                            self.eval(arg).map(|t| {
                                let ty = t.ty();
                                (t.v, ty)
                            })
                        })));
                        args.push(Value::Null);
                        types.push(Type::Any);
                        continue;
                    }
                    self.eval(arg)?
                }
                _ => expanded.next().unwrap_or_else(|| TVal::plain(Value::Null)),
            };
            // A known collection holding an unknown value counts as unknown
            // too, except for the functions that move elements untouched:
            // go-cty calls every function so, ours are not all written for it.
            if tv.is_unknown() || (!def.allows_unknown_elements() && self.not_wholly_known(&tv)) {
                let from = tv.ty();
                unknown::check_convertible(&from, p.ty()).map_err(|m| {
                    Error::eval(
                        format!(
                            "invalid value for parameter `{}` of `{name}`: {m}",
                            p.name()
                        ),
                        arg_span(i),
                    )
                })?;
                if let Some(u) = unknown_args.get_mut(i) {
                    *u = true;
                }
                dynamic_arg |= from == Type::Any;
                args.push(Value::Null);
                types.push(if p.ty().has_any() {
                    from
                } else {
                    p.ty().clone()
                });
                continue;
            }
            if tv.v.is_null() {
                // A typed null keeps its type for the function
                // (`coalesce` and `merge` check it).
                args.push(Value::Null);
                types.push(if *p.ty() == Type::Any {
                    tv.ty()
                } else {
                    p.ty().clone()
                });
                continue;
            }
            let from = tv.ty();
            let (v, t) = convert::convert_typed(tv.v, &from, p.ty()).map_err(|m| {
                Error::eval(
                    format!(
                        "invalid value for parameter `{}` of `{name}`: {m}",
                        p.name()
                    ),
                    arg_span(i),
                )
            })?;
            args.push(v);
            types.push(t);
        }
        for (i, v) in args.iter().enumerate() {
            let is_lazy = lazy.get(i).is_some_and(Option::is_some)
                || unknown_args.get(i).copied().unwrap_or(false);
            match def.param_for(i) {
                Some(p) if v.is_null() && !p.is_nullable() && !is_lazy => {
                    return Err(Error::eval(
                        format!(
                            "invalid value for parameter `{}` of `{name}`: the argument must not be null",
                            p.name()
                        ),
                        arg_span(i),
                    ));
                }
                _ => {}
            }
        }
        lazy.resize_with(args.len(), || None);
        let declared = def.return_type_for(&types);
        if unknown_args.contains(&true) {
            if dynamic_arg && !def.allows_dynamic_type() {
                return Ok(TVal::unknown(Type::Any));
            }
            return Ok(TVal::unknown(declared));
        }
        let result_type = RefCell::new(None);
        let result = def.invoke(FuncArgs::new(
            args,
            types,
            lazy,
            name,
            self.opts,
            &result_type,
        ));
        let declared = result_type.into_inner().unwrap_or(declared);
        match result {
            Ok(mut v) => {
                // Every string a function returns is NFC, as every cty string.
                crate::value::nfc::nfc_value(&mut v);
                match &v {
                    Value::Array(a) => self.check_collection_len(a.len(), call_span)?,
                    Value::Object(o) => self.check_collection_len(o.len(), call_span)?,
                    Value::String(s) => self.check_string_len(s.len(), call_span)?,
                    _ => {}
                }
                if declared == Type::Any {
                    return Ok(TVal::plain(v));
                }
                let (v, t) = convert::convert(v, &declared).map_err(|m| {
                    Error::eval(
                        format!("`{name}` returned a value that is not a {declared}: {m}"),
                        call_span,
                    )
                })?;
                Ok(TVal::typed(v, t))
            }
            Err(e) => {
                let idx = e.arg_index();
                match e.into_source() {
                    Ok(inner) => Err(inner),
                    Err(e) => {
                        let at = idx.map_or(call_span, arg_span);
                        Err(Error::eval(
                            format!("call to function `{name}` failed: {}", e.message()),
                            at,
                        ))
                    }
                }
            }
        }
    }
}

/// Where the reference's diagnostics about a function argument point
/// (hcl's `Expression.StartRange`): for a quoted string, its content, not
/// its opening quote (so `abs("x")` points at `x`); through parentheses.
fn start_span(e: &Expr<'_>) -> Span {
    match &e.kind {
        ExprKind::String(_) => {
            let s = e.span;
            // An empty string's (absent) content is after its closing quote.
            let at = if s.end().saturating_sub(s.start()) <= 2 {
                s.end()
            } else {
                s.start() + 1
            };
            Span::new(at, s.end().max(at))
        }
        ExprKind::Parens(inner) => start_span(inner),
        ExprKind::Template(t) if t.heredoc.is_none() && !t.template.is_unwrappable() => {
            match t.template.parts.first() {
                Some(TemplatePart::Literal(l)) => l.span,
                Some(TemplatePart::Interpolation(i)) => start_span(&i.expr),
                _ => e.span,
            }
        }
        _ => e.span,
    }
}
