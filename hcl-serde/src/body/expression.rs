//! An attribute's expression in either syntax (the reference's
//! `hcl.Expression`): its span, its file, its value in a context.

use super::json_ref::JsonRef;
use super::{json, SchemaBody};
use crate::error::Result;
use crate::eval::Context;
use crate::source::locate;
use crate::Value;
use hcl_grammar::Span;
use std::sync::Arc;

/// An attribute, evaluated on demand.
#[derive(Debug, Clone)]
pub struct Attribute<'a> {
    /// Its name.
    pub name: String,
    /// The span of its name.
    pub name_span: Span,
    pub(crate) src: &'a str,
    /// The name of its file, for errors.
    pub(crate) file: Option<&'a str>,
    pub(crate) expr: AttrExpr<'a>,
    /// The `dynamic` iterators it sees (see [`SchemaBody`]).
    pub(crate) iterators: Option<Arc<Vec<(String, Value)>>>,
    /// In a block generated for an unknown `for_each` (see [`SchemaBody`]).
    pub(crate) unknown: bool,
}

#[derive(Debug, Clone)]
pub(crate) enum AttrExpr<'a> {
    Native(&'a hcl_grammar::Expr<'a>),
    Json(JsonRef<'a, 'a>),
}

impl<'a> Attribute<'a> {
    /// The name of the file it is in, if the file was given a name.
    pub fn file(&self) -> Option<&'a str> {
        self.file
    }

    /// The span of the value.
    pub fn span(&self) -> Span {
        match &self.expr {
            AttrExpr::Native(e) => e.span,
            AttrExpr::Json(v) => v.span,
        }
    }

    /// Evaluates the value. `None` is the reference's nil context: native
    /// expressions may not use variables or functions, and JSON strings are
    /// literal text; with a context, JSON strings are templates.
    ///
    /// # Errors
    ///
    /// An evaluation error, with its line and column in the file.
    ///
    /// In a block that a `dynamic` block generated
    /// ([`crate::ext::dynblock`]), the iterators are variables on top of
    /// `ctx` (which is then copied, as a child context needs its parent
    /// shared). In a block generated for an unknown `for_each`, every
    /// attribute is an unknown value of any type
    /// ([`Value::Unknown`]), whatever its
    /// expression.
    pub fn evaluate(&self, ctx: Option<&Context>) -> Result<Value> {
        if self.unknown {
            return Ok(Value::unknown(crate::eval::Type::Any));
        }
        let scoped;
        let ctx = match &self.iterators {
            Some(its) => {
                let mut c = ctx.cloned().unwrap_or_else(Context::none);
                for (name, value) in its.iter() {
                    c.declare_var(name.clone(), value.clone());
                }
                scoped = c;
                Some(&scoped)
            }
            None => ctx,
        };
        let r = match &self.expr {
            AttrExpr::Native(e) => {
                let none;
                let ctx = match ctx {
                    Some(c) => c,
                    None => {
                        none = Context::none();
                        &none
                    }
                };
                crate::eval::eval_expr(e, ctx)
            }
            AttrExpr::Json(v) => json::evaluate(*v, ctx, 0),
        };
        r.map_err(|e| locate(e, self.src, self.file))
    }
}

/// A block: its type, labels and body.
#[derive(Debug, Clone)]
pub struct Block<'a> {
    /// The block type.
    pub type_name: String,
    /// The labels.
    pub labels: Vec<String>,
    /// The span of each label (a JSON property's name; for a block that a
    /// `dynamic` block generated, the label's expression).
    pub label_spans: Vec<Span>,
    /// The span of the type (the JSON property's name).
    pub type_span: Span,
    /// The block's body, to decode with the block type's schema.
    pub body: SchemaBody<'a>,
}
