//! Templates: interpolations and the `if` and `for` directives.

use super::{Evaluator, Failed, Outcome, TVal};
use crate::error::{Error, Result};
use crate::eval::convert;
use crate::eval::unknown;
use crate::value::types::Type;
use crate::value::Value;
use hcl_grammar::{Expr, Span, Template, TemplateFor, TemplateIf, TemplatePart};

impl<'c, 'a> Evaluator<'c, 'a> {
    /// [`template`](Evaluator::template) as an expression: a failed
    /// template is a string, a failed lone interpolation has the type its
    /// expression's failed value has. As the reference, a part that fails
    /// does not stop the others: the failed template's value is the text
    /// of the others (with what a failed part still gives, see
    /// [`Failed`]), or unknown when a part is; the first error is
    /// reported.
    pub(super) fn template_failing(&self, t: &'a Template<'a>) -> Outcome {
        if let [TemplatePart::Interpolation(i)] = &*t.parts {
            return self.eval_failing(&i.expr);
        }
        let mut out = String::new();
        let mut failed = None;
        let outer = self.template_unknown.replace(false);
        let r = self.template_into(t, &mut out, &mut failed);
        let unknown = self.template_unknown.replace(outer);
        let string = Some(Type::String);
        if let Err(limit) = r {
            return Err(Failed::typed(failed.unwrap_or(limit), string));
        }
        // A concatenation can join a base character and a combining mark
        // (`"e${"\u0301"}"`): normalized as a whole, as cty.StringVal does.
        let value = || TVal::plain(Value::String(crate::value::nfc::nfc_string(out)));
        match failed {
            None if unknown => Ok(TVal::unknown(Type::String)),
            None => Ok(value()),
            Some(err) if unknown => Err(Failed::typed(err, string)),
            Some(err) => Err(Failed::partial(err, value())),
        }
    }

    /// Evaluates a template, applying the unwrapping rule.
    pub(crate) fn template(&self, t: &'a Template<'a>) -> Result<TVal> {
        self.template_failing(t).map_err(|f| f.err)
    }

    /// Appends `t`'s text to `out`; an error of a part goes into `failed`
    /// (the first one kept) and the others are still evaluated. Only a
    /// limit's error is returned.
    fn template_into(
        &self,
        t: &'a Template<'a>,
        out: &mut String,
        failed: &mut Option<Error>,
    ) -> Result<()> {
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
                    let v = match self.eval_failing(&i.expr) {
                        Ok(v) => v,
                        Err(f) => {
                            // What the failed part gives (the reference
                            // skips a null or a value that is not a string).
                            let (err, v) = f.into_value();
                            failed.get_or_insert(err);
                            if v.is_unknown() {
                                self.template_unknown.set(true);
                            } else {
                                push_primitive(out, &v.v);
                            }
                            self.check_string_len(out.len(), t.span)?;
                            continue;
                        }
                    };
                    if v.is_unknown() {
                        match unknown::check_convertible(&v.ty(), &Type::String) {
                            Ok(()) => self.template_unknown.set(true),
                            Err(_) => {
                                failed.get_or_insert_with(|| {
                                    Error::eval(
                                        format!(
                                            "cannot include a {} in a string template: a string is required",
                                            v.ty().friendly_name()
                                        ),
                                        i.expr.span,
                                    )
                                });
                            }
                        }
                        continue;
                    }
                    if !push_primitive(out, &v.v) {
                        failed.get_or_insert_with(|| match &v.v {
                            Value::Null => Error::eval(
                                "cannot include a null value in a string template",
                                i.expr.span,
                            ),
                            _ => Error::eval(
                                format!(
                                    "cannot include a {} in a string template: a string is required",
                                    v.ty().friendly_name()
                                ),
                                i.expr.span,
                            ),
                        });
                    }
                }
                TemplatePart::If(d) => self.template_if(d, out, failed)?,
                TemplatePart::For(d) => self.template_for(d, out, failed)?,
            }
            self.check_string_len(out.len(), t.span)?;
        }
        Ok(())
    }

    /// The value of a directive's expression; a failed one's error is
    /// noted in `failed` (the first wins) and its partial value given,
    /// as the reference goes on with it.
    fn eval_noting(&self, e: &'a Expr<'a>, failed: &mut Option<Error>) -> TVal {
        self.eval_failing(e).unwrap_or_else(|f| {
            let (err, v) = f.into_value();
            failed.get_or_insert(err);
            v
        })
    }

    /// An `if` directive. As the reference (a conditional between two
    /// templates), a condition that fails, is null or is not a bool makes
    /// the template unknown.
    fn template_if(
        &self,
        d: &'a TemplateIf<'a>,
        out: &mut String,
        failed: &mut Option<Error>,
    ) -> Result<()> {
        let c = self.eval_noting(&d.cond, failed);
        if c.is_unknown() {
            self.template_unknown.set(true);
            return Ok(());
        }
        let b = match &c.v {
            Value::Null => Err(Error::eval(
                "the condition of an `if` directive must not be null",
                d.cond.span,
            )),
            v => convert::to_bool(v).map_err(|_| {
                Error::eval(
                    format!(
                        "the condition of an `if` directive must be a bool, not {}",
                        c.ty().friendly_name()
                    ),
                    d.cond.span,
                )
            }),
        };
        let b = match b {
            Ok(b) => b,
            Err(e) => {
                failed.get_or_insert(e);
                self.template_unknown.set(true);
                return Ok(());
            }
        };
        self.nested(d.if_span, || {
            if b {
                self.template_into(&d.then_template, out, failed)
            } else if let Some(e) = &d.else_template {
                self.template_into(e, out, failed)
            } else {
                Ok(())
            }
        })
    }

    /// A `for` directive. As the reference (a `for` expression joined), a
    /// collection that fails to be one makes the template unknown; a
    /// failed collection's partial value is iterated.
    fn template_for(
        &self,
        d: &'a TemplateFor<'a>,
        out: &mut String,
        failed: &mut Option<Error>,
    ) -> Result<()> {
        let coll = self.eval_noting(&d.collection, failed);
        if coll.is_unknown() {
            self.template_unknown.set(true);
            return Ok(());
        }
        let items = match self.iteration_items(coll, d.collection.span, "`for` directive") {
            Ok(items) => items,
            Err(e) => {
                failed.get_or_insert(e);
                self.template_unknown.set(true);
                return Ok(());
            }
        };
        self.nested(d.for_span, || {
            for (key, value) in items {
                self.count_iteration(d.for_span)?;
                self.with_locals(d.key_var.as_ref(), &d.value_var, key, value, || {
                    self.template_into(&d.body, out, failed)
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
