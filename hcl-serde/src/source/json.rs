//! The JSON syntax's rules that the deserializer and the schema API both
//! follow: the comment property, strings as templates.

use crate::error::{Error, Result};
use crate::eval::Context;
use crate::value::Value;
use hcl_grammar::Span;

/// The name of the comment property, ignored in bodies.
pub(crate) const COMMENT: &str = "//";

/// Evaluates `text`, the decoded content of the JSON string at `span`, as
/// a template. Positions are moved into the JSON text: exact for the part
/// before the first escape, shifted by the escapes after it (as in the
/// reference, which also counts the decoded text).
pub(crate) fn eval_template(text: &str, span: Span, ctx: &Context) -> Result<Value> {
    let base = span.start + 1;
    let template = hcl_grammar::parse_template(text).map_err(|e| {
        let s = e.span();
        Error::eval(e.message(), Span::new(base + s.start, base + s.end))
    })?;
    crate::eval::eval_template(&template, ctx).map_err(|e| e.relocate(0, base, 0))
}
