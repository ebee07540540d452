//! Editing HCL files while keeping their comments and layout, with values
//! from serde: the counterpart of Go's `hclwrite` and of `toml_edit`.
//!
//! The document itself is the grammar crate's
//! ([`hcl_grammar::edit`], re-exported here: [`Document`], [`Body`],
//! [`Block`], [`Attribute`], [`Expression`]); its module documentation
//! describes the tree, the two prints and the design decisions. This
//! module adds what needs values: [`BodyExt::set_attribute_value`] sets an
//! attribute from any `T: Serialize` or [`Value`], and [`AttributeExt`]
//! reads an attribute's expression as a [`RawExpression`] or evaluates it.
//!
//! ```
//! use hcl::edit::{AttributeExt, BodyExt, Document};
//!
//! let src = "# Pinned for the release.\nmodule \"vpc\" {\n  source  = \"terraform-aws-modules/vpc/aws\"\n  version = \"5.1.0\" # pinned\n}\n";
//! let mut doc: Document = src.parse()?;
//! let vpc = doc.body_mut().first_matching_block_mut("module", &["vpc"]).unwrap();
//! vpc.body_mut().set_attribute_value("version", &"5.2.0")?;
//! vpc.body_mut().set_attribute_value("azs", &["eu-west-1a", "eu-west-1b"])?;
//! assert_eq!(
//!     doc.to_formatted_string()?,
//!     "# Pinned for the release.\nmodule \"vpc\" {\n  source  = \"terraform-aws-modules/vpc/aws\"\n  version = \"5.2.0\" # pinned\n  azs     = [\"eu-west-1a\", \"eu-west-1b\"]\n}\n"
//! );
//!
//! let version = doc.body().first_matching_block("module", &["vpc"]).unwrap()
//!     .body().get_attribute("version").unwrap();
//! assert_eq!(version.evaluate(&hcl::Context::none())?, hcl::Value::from("5.2.0"));
//! # Ok::<(), hcl::Error>(())
//! ```
//!
//! # Values
//!
//! Values are written as `hclwrite`'s `SetAttributeValue` writes them (the
//! reference's output, byte for byte): numbers in plain decimal notation,
//! strings quoted with `\n`, `\t`, `\"`, `\\`, `$${` and `%%{` escapes,
//! sequences as tuples `[a, b]`, and maps and structs as objects with one
//! `key = value` per line, **keys sorted** (go-cty's order: objects have
//! no order there). Unknown values and infinite numbers cannot be
//! written.

use crate::{Context, Error, RawExpression, Result, Value};
use serde::Serialize;

#[doc(inline)]
pub use hcl_grammar::edit::{Attribute, Block, Body, Document, Expression};

/// The expression that writes `value`, as `hclwrite`'s `TokensForValue`
/// writes it (see the [module documentation](self)).
///
/// ```
/// let v = hcl::Value::from_iter([("b", hcl::Value::from(1)), ("a b", hcl::Value::Null)]);
/// assert_eq!(hcl::edit::value_expression(&v)?.as_str(), "{\n\"a b\" = null\nb = 1\n}");
/// # Ok::<(), hcl::Error>(())
/// ```
///
/// # Errors
///
/// For an unknown value or an infinite number.
pub fn value_expression(value: &Value) -> Result<Expression> {
    Ok(match value {
        Value::Null => Expression::null(),
        Value::Bool(b) => Expression::bool(*b),
        Value::Number(n) => {
            if !n.is_finite() {
                return Err(Error::data(format!("cannot write the number {n}")));
            }
            Expression::number(&n.to_string())?
        }
        Value::String(s) => Expression::string(s),
        Value::Array(items) => Expression::tuple(
            items
                .iter()
                .map(value_expression)
                .collect::<Result<Vec<_>>>()?,
        ),
        Value::Object(map) => {
            let mut entries: Vec<(&String, &Value)> = map.iter().collect();
            entries.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
            let items = entries
                .into_iter()
                .map(|(k, v)| Ok((k.clone(), value_expression(v)?)))
                .collect::<Result<Vec<_>>>()?;
            Expression::object(items)
        }
        Value::Unknown(_) => {
            return Err(Error::data("cannot write an unknown value"));
        }
    })
}

/// The expression that writes `value` (any `T: Serialize`, through
/// [`to_value`](crate::to_value)): see [`value_expression`].
///
/// # Errors
///
/// When `value` cannot be serialized, or see [`value_expression`].
pub fn to_expression<T: Serialize + ?Sized>(value: &T) -> Result<Expression> {
    value_expression(&crate::to_value(value)?)
}

/// Setting attributes of a [`Body`] from values.
pub trait BodyExt {
    /// Sets attribute `name` to `value` (any `T: Serialize`, a [`Value`]
    /// too), written as the [module documentation](self) says: replaces
    /// the expression of the attribute (keeping its comments) or appends a
    /// new attribute at the end of the body (`hclwrite`'s
    /// `SetAttributeValue`).
    ///
    /// # Errors
    ///
    /// When `name` is not an identifier, or see [`to_expression`].
    fn set_attribute_value<T: Serialize + ?Sized>(
        &mut self,
        name: &str,
        value: &T,
    ) -> Result<&mut Attribute>;
}

impl BodyExt for Body {
    fn set_attribute_value<T: Serialize + ?Sized>(
        &mut self,
        name: &str,
        value: &T,
    ) -> Result<&mut Attribute> {
        let expr = to_expression(value)?;
        Ok(self.set_attribute(name, expr)?)
    }
}

/// Reading an [`Attribute`]'s expression as a [`RawExpression`].
pub trait AttributeExt {
    /// The attribute's expression as a [`RawExpression`] (its text, and a
    /// newline after a heredoc; spans and lines are those of the
    /// expression alone).
    ///
    /// # Errors
    ///
    /// None in practice: the expression was parsed before.
    fn raw_expression(&self) -> Result<RawExpression>;

    /// Evaluates the attribute's expression with `ctx`.
    ///
    /// # Errors
    ///
    /// An evaluation error.
    fn evaluate(&self, ctx: &Context) -> Result<Value> {
        self.raw_expression()?.evaluate(ctx)
    }
}

impl AttributeExt for Attribute {
    fn raw_expression(&self) -> Result<RawExpression> {
        let text = self.expr().as_str();
        RawExpression::parse(text).or_else(|e| {
            // A heredoc's closing marker needs the newline after it, which
            // is the attribute's line end, not part of the expression.
            RawExpression::parse(&format!("{text}\n")).map_err(|_| e)
        })
    }
}
