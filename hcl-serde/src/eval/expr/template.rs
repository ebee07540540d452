//! Templates: interpolations and the `if` and `for` directives.

use super::{Evaluator, Failed, Outcome, TVal};
use crate::error::{Error, Result};
use crate::eval::convert;
use crate::eval::unknown;
use crate::value::types::Type;
use crate::value::Value;
use hcl_grammar::{Span, Template, TemplateFor, TemplateIf, TemplatePart};

impl<'c, 'a> Evaluator<'c, 'a> {
    /// [`template`](Evaluator::template) as an expression: a failed
    /// template is a string, a failed lone interpolation has the type its
    /// expression's failed value has.
    pub(super) fn template_failing(&self, t: &'a Template<'a>) -> Outcome {
        if let [TemplatePart::Interpolation(i)] = &*t.parts {
            return self.eval_failing(&i.expr);
        }
        self.template(t).map_err(|err| Failed {
            err,
            ty: Some(Type::String),
        })
    }

    /// Evaluates a template, applying the unwrapping rule.
    pub(crate) fn template(&self, t: &'a Template<'a>) -> Result<TVal> {
        if let [TemplatePart::Interpolation(i)] = &*t.parts {
            return self.eval(&i.expr);
        }
        let mut out = String::new();
        let outer = self.template_unknown.replace(false);
        let r = self.template_into(t, &mut out);
        let unknown = self.template_unknown.replace(outer);
        r?;
        // A concatenation can join a base character and a combining mark
        // (`"e${"\u0301"}"`): normalized as a whole, as cty.StringVal does.
        Ok(if unknown {
            TVal::unknown(Type::String)
        } else {
            TVal::plain(Value::String(crate::value::nfc::nfc_string(out)))
        })
    }

    fn template_into(&self, t: &'a Template<'a>, out: &mut String) -> Result<()> {
        for part in &t.parts {
            match part {
                TemplatePart::Literal(l) => out.push_str(&l.value),
                TemplatePart::Interpolation(i) => {
                    // A variable traversal to a primitive is appended in
                    // place, without cloning.
                    if self.traverse_ref(&i.expr, |v, _| push_primitive(out, v)) == Some(true) {
                        self.check_string_len(out.len(), t.span)?;
                        continue;
                    }
                    let v = self.eval(&i.expr)?;
                    if v.is_unknown() {
                        unknown::check_convertible(&v.ty(), &Type::String).map_err(|_| {
                            Error::eval(
                                format!(
                                    "cannot include a {} in a string template: a string is required",
                                    v.ty().friendly_name()
                                ),
                                i.expr.span,
                            )
                        })?;
                        self.template_unknown.set(true);
                        continue;
                    }
                    match &v.v {
                        Value::String(s) => out.push_str(s),
                        Value::Number(n) => {
                            use std::fmt::Write;
                            let _ = write!(out, "{n}");
                        }
                        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
                        Value::Null => {
                            return Err(Error::eval(
                                "cannot include a null value in a string template",
                                i.expr.span,
                            ))
                        }
                        _ => {
                            return Err(Error::eval(
                                format!(
                                "cannot include a {} in a string template: a string is required",
                                v.ty().friendly_name()
                            ),
                                i.expr.span,
                            ))
                        }
                    }
                }
                TemplatePart::If(d) => self.template_if(d, out)?,
                TemplatePart::For(d) => self.template_for(d, out)?,
            }
            self.check_string_len(out.len(), t.span)?;
        }
        Ok(())
    }

    fn template_if(&self, d: &'a TemplateIf<'a>, out: &mut String) -> Result<()> {
        let c = self.eval(&d.cond)?;
        if c.is_unknown() {
            self.template_unknown.set(true);
            return Ok(());
        }
        let b = match &c.v {
            Value::Null => {
                return Err(Error::eval(
                    "the condition of an `if` directive must not be null",
                    d.cond.span,
                ))
            }
            v => convert::to_bool(v).map_err(|_| {
                Error::eval(
                    format!(
                        "the condition of an `if` directive must be a bool, not {}",
                        c.ty().friendly_name()
                    ),
                    d.cond.span,
                )
            })?,
        };
        self.nested(d.if_span, || {
            if b {
                self.template_into(&d.then_template, out)
            } else if let Some(e) = &d.else_template {
                self.template_into(e, out)
            } else {
                Ok(())
            }
        })
    }

    fn template_for(&self, d: &'a TemplateFor<'a>, out: &mut String) -> Result<()> {
        let coll = self.eval(&d.collection)?;
        if coll.is_unknown() {
            self.template_unknown.set(true);
            return Ok(());
        }
        let items = self.iteration_items(coll, d.collection.span, "`for` directive")?;
        self.nested(d.for_span, || {
            for (key, value) in items {
                self.count_iteration(d.for_span)?;
                self.with_locals(d.key_var.as_ref(), &d.value_var, key, value, || {
                    self.template_into(&d.body, out)
                })?;
            }
            Ok(())
        })
    }

    /// Runs `f` one nesting level deeper (template directives recurse
    /// without going through [`eval`](Evaluator::eval)).
    fn nested<T>(&self, span: Span, f: impl FnOnce() -> Result<T>) -> Result<T> {
        let d = self.depth.get() + 1;
        if d > self.opts.max_depth() {
            return Err(Error::eval(
                format!(
                    "the template is nested too deeply to evaluate (limit: {} levels)",
                    self.opts.max_depth()
                ),
                span,
            ));
        }
        self.depth.set(d);
        let r = f();
        self.depth.set(d - 1);
        r
    }
}

/// Appends a string, number or bool to a template's output; `false` (and
/// nothing appended) for any other value.
fn push_primitive(out: &mut String, v: &Value) -> bool {
    match v {
        Value::String(s) => out.push_str(s),
        Value::Number(n) => {
            use std::fmt::Write;
            let _ = write!(out, "{n}");
        }
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        _ => return false,
    }
    true
}
