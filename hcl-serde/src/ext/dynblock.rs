//! Dynamic blocks (the reference's `ext/dynblock`): a body wrapped by
//! [`expand`] turns each
//!
//! ```hcl
//! dynamic "NAME" {
//!   for_each = COLLECTION
//!   iterator = IT          # optional, default NAME
//!   labels   = [LABEL...]  # when NAME blocks have labels
//!   content { ... }
//! }
//! ```
//!
//! into one `NAME` block per element of the collection, in its place among
//! the body's blocks, when the application decodes the body with a schema
//! that has `NAME` blocks. Inside `content` (and in `labels`) the iterator
//! is a variable, an object with `key` (the index of a list or tuple, the
//! key of a map or object, the element of a set) and `value`; maps and
//! objects are iterated in bytewise key order. Nested `dynamic` blocks see
//! the outer iterators. Everything about a `dynamic` block, `for_each` and
//! `labels` included, is checked when the body is decoded; the generated
//! blocks' attributes are evaluated when the application asks.
//!
//! A `for_each` that is unknown ([`Value::Unknown`](crate::Value::Unknown)
//! of a collection type or of any type) generates one block, as the
//! reference's `unknownBody`: a block cannot itself be unknown, so every
//! attribute inside it (nested blocks included) evaluates to an unknown
//! value of any type, while its schema is still checked. Its labels must
//! be known (`labels = ["fixed"]`); one that depends on the iterator is an
//! error, as in the reference.
//!
//! ```
//! use hcl::ext::dynblock;
//! use hcl::schema::{BodySchema, File};
//! use hcl::{Context, Syntax};
//! use std::sync::Arc;
//!
//! let src = r#"
//! dynamic "ingress" {
//!   for_each = [80, 443]
//!   iterator = port
//!   content {
//!     from = port.value
//!   }
//! }
//! "#;
//! let file = File::parse(src, Syntax::Native)?;
//! let ctx = Arc::new(Context::new());
//! let body = dynblock::expand(&file.body(), &ctx);
//! let content = body.content(&BodySchema::new().block("ingress", &[]))?;
//! let ports: Vec<_> = content
//!     .blocks
//!     .iter()
//!     .map(|b| b.body.just_attributes()?[0].evaluate(Some(&ctx)))
//!     .collect::<Result<_, _>>()?;
//! assert_eq!(ports, [80, 443]);
//! # Ok::<(), hcl::Error>(())
//! ```

use crate::eval::Context;
use crate::schema::SchemaBody;
use std::sync::Arc;

// The expansion itself is `body/dynamic.rs`: a body's `content` runs it
// when `expand` has marked the body, so `schema` never names `ext`.

/// `body`, with its `dynamic` blocks (and those of every block inside it)
/// expanded when it is decoded. `for_each` and `labels` are evaluated in
/// `ctx`; the generated blocks' attributes see the iterators on top of the
/// context they are evaluated with. Other attributes are unchanged.
pub fn expand<'a>(body: &SchemaBody<'a>, ctx: &Arc<Context>) -> SchemaBody<'a> {
    let mut out = body.clone();
    out.dynamic = Some(Arc::clone(ctx));
    out
}
