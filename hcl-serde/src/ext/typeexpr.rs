//! Type constraints: `string`, `list(object({a = optional(number, 1)}))`
//! and the rest of the reference's `ext/typeexpr`, and converting a value
//! to one with its defaults applied, as go-cty's `convert` does.

use crate::error::{Error, Result};
use crate::eval::{convert, Context, Type};
use crate::value::{Map, Value};
use hcl_grammar::{Expr, ExprKind, ObjectKey, Span};
use std::fmt;

/// A type constraint, as written in a Terraform `variable` block's `type`
/// (the reference's `typeexpr.TypeConstraintWithDefaults`): an exact type
/// that may contain `any`, and objects whose attributes may be optional,
/// with a default.
///
/// ```
/// use hcl::ext::typeexpr::TypeConstraint;
/// use hcl::Value;
///
/// let t = TypeConstraint::parse(r#"list(object({ name = string, public = optional(bool, false) }))"#)?;
/// let v = hcl::eval::eval_expr_str(r#"[{ name = "a" }, { name = "b", public = "true" }]"#, &hcl::Context::none())?;
/// assert_eq!(
///     t.convert(v)?,
///     hcl::eval::eval_expr_str(r#"[{ name = "a", public = false }, { name = "b", public = true }]"#, &hcl::Context::none())?,
/// );
/// # Ok::<(), hcl::Error>(())
/// ```
///
/// It deserializes from an attribute written as a type expression
/// (`type = map(string)`) or, from other formats, from a string holding
/// one.
#[derive(Debug, Clone, PartialEq)]
pub enum TypeConstraint {
    /// `any`: any value, unchanged (a collection of `any` unifies its
    /// elements' types).
    Any,
    /// `bool`
    Bool,
    /// `number`
    Number,
    /// `string`
    String,
    /// `list(T)`
    List(Box<TypeConstraint>),
    /// `set(T)`
    Set(Box<TypeConstraint>),
    /// `map(T)`
    Map(Box<TypeConstraint>),
    /// `tuple([T, ...])`
    Tuple(Vec<TypeConstraint>),
    /// `object({name = T, ...})`, attributes sorted by name.
    Object(Map<String, Attribute>),
}

/// An attribute of an object [`TypeConstraint`].
#[derive(Debug, Clone, PartialEq)]
pub struct Attribute {
    /// Its type.
    pub ty: TypeConstraint,
    /// Whether it was declared `optional(...)`: absent, it converts to
    /// `null` (or to its default).
    pub optional: bool,
    /// The default of `optional(T, DEFAULT)`, already converted to `T`
    /// (`Some(Value::Null)` for an explicit `null` default).
    pub default: Option<Value>,
}

/// One `optional(T, DEFAULT)` of a constraint, as
/// [`TypeConstraint::defaults`] lists them.
#[derive(Debug, Clone, PartialEq)]
pub struct DefaultValue {
    /// Where the object sits: `""` the root, `.name` an attribute, `[*]`
    /// the element of a list, set or map, `[N]` tuple element N.
    pub path: String,
    /// The attribute's name.
    pub attribute: String,
    /// The default, converted to the attribute's type.
    pub value: Value,
}

const INVALID: &str = "invalid type specification";

fn invalid(detail: impl fmt::Display, span: Span) -> Error {
    Error::eval(format!("{INVALID}: {detail}"), span)
}

impl TypeConstraint {
    /// Parses `text`, one type expression.
    ///
    /// # Errors
    ///
    /// A syntax error, or an evaluation error at the part that is not a
    /// valid type constraint (an unknown keyword, a constructor with the
    /// wrong arguments, a default that is not a constant or does not
    /// convert to its attribute's type).
    pub fn parse(text: &str) -> Result<TypeConstraint> {
        let expr = hcl_grammar::parse_expr(text, &Default::default())
            .map_err(|e| Error::from(e).with_source(text))?;
        TypeConstraint::from_expr(&expr).map_err(|e| e.with_source(text))
    }

    /// Reads a parsed type expression.
    ///
    /// # Errors
    ///
    /// As [`parse`](TypeConstraint::parse), without the syntax errors.
    pub fn from_expr(expr: &Expr<'_>) -> Result<TypeConstraint> {
        read(expr, 0)
    }

    /// The exact type this constraint describes (optional markers and
    /// defaults dropped; `any` kept).
    pub fn to_type(&self) -> Type {
        match self {
            TypeConstraint::Any => Type::Any,
            TypeConstraint::Bool => Type::Bool,
            TypeConstraint::Number => Type::Number,
            TypeConstraint::String => Type::String,
            TypeConstraint::List(t) => Type::list(t.to_type()),
            TypeConstraint::Set(t) => Type::set(t.to_type()),
            TypeConstraint::Map(t) => Type::map(t.to_type()),
            TypeConstraint::Tuple(ts) => Type::Tuple(ts.iter().map(Self::to_type).collect()),
            TypeConstraint::Object(attrs) => Type::Object(
                attrs
                    .iter()
                    .map(|(k, a)| (k.clone(), a.ty.to_type()))
                    .collect(),
            ),
        }
    }

    /// Every default, sorted by path, then attribute name.
    pub fn defaults(&self) -> Vec<DefaultValue> {
        let mut out = Vec::new();
        self.collect_defaults(String::new(), &mut out);
        out.sort_by(|a, b| (&a.path, &a.attribute).cmp(&(&b.path, &b.attribute)));
        out
    }

    fn collect_defaults(&self, path: String, out: &mut Vec<DefaultValue>) {
        match self {
            TypeConstraint::List(t) | TypeConstraint::Set(t) | TypeConstraint::Map(t) => {
                t.collect_defaults(format!("{path}[*]"), out);
            }
            TypeConstraint::Tuple(ts) => {
                for (i, t) in ts.iter().enumerate() {
                    t.collect_defaults(format!("{path}[{i}]"), out);
                }
            }
            TypeConstraint::Object(attrs) => {
                for (name, a) in attrs {
                    if let Some(v) = &a.default {
                        out.push(DefaultValue {
                            path: path.clone(),
                            attribute: name.clone(),
                            value: v.clone(),
                        });
                    }
                    a.ty.collect_defaults(format!("{path}.{name}"), out);
                }
            }
            _ => {}
        }
    }

    /// Converts `v` to this constraint: defaults are applied first (to
    /// absent and `null` attributes, outermost first, so a default object
    /// gets its own nested defaults), then the value is converted as
    /// go-cty does (`"1"` to a number, numbers and bools to strings,
    /// tuples to lists and sets, objects to maps and objects; attributes
    /// the type lacks are dropped, absent optional ones become `null`).
    ///
    /// # Errors
    ///
    /// A data error saying where and why the value does not convert
    /// (`element "b": attribute "name" is required`).
    pub fn convert(&self, v: Value) -> Result<Value> {
        self.convert_typed(v).map(|(v, _)| v)
    }

    /// As [`convert`](TypeConstraint::convert), also returning the
    /// result's exact type (where the constraint says `any`, the value's
    /// own).
    ///
    /// # Errors
    ///
    /// As [`convert`](TypeConstraint::convert).
    pub fn convert_typed(&self, v: Value) -> Result<(Value, Type)> {
        let v = self.apply_defaults(v, None, 0)?;
        self.convert_plain(v)
    }

    /// go-cty's conversion alone, defaults not applied: absent optional
    /// attributes become `null`.
    fn convert_plain(&self, v: Value) -> Result<(Value, Type)> {
        let v = self.fill_optional(v, 0)?;
        convert::convert(v, &self.to_type()).map_err(Error::data)
    }

    /// Applies the defaults of this constraint and those nested in it.
    /// `known` is the value's type when it came from a default (a typed
    /// `null` object gets defaults; an untyped one does not).
    fn apply_defaults(&self, v: Value, known: Option<&Type>, depth: usize) -> Result<Value> {
        check_depth(depth)?;
        match (self, v) {
            (TypeConstraint::Object(attrs), v) => {
                let mut obj = match v {
                    Value::Object(m) => m,
                    Value::Null if matches!(known, Some(Type::Object(_) | Type::Map(_))) => {
                        Map::new()
                    }
                    other => return Ok(other),
                };
                let mut from_default: Vec<(String, Type)> = Vec::new();
                for (name, a) in attrs {
                    let Some(d) = &a.default else { continue };
                    if obj.get(name).is_none_or(Value::is_null) {
                        obj.insert(name.clone(), d.clone());
                        from_default.push((name.clone(), a.ty.to_type()));
                    }
                }
                let mut out = Map::with_capacity(obj.len());
                for (k, item) in obj {
                    let child_known = from_default
                        .iter()
                        .find(|(n, _)| *n == k)
                        .map(|(_, t)| t)
                        .or_else(|| match known {
                            Some(Type::Object(ts)) => ts.get(&k),
                            Some(Type::Map(t)) => Some(&**t),
                            _ => None,
                        });
                    let item = match attrs.get(&k) {
                        Some(a) => a.ty.apply_defaults(item, child_known, depth + 1)?,
                        None => item,
                    };
                    out.insert(k, item);
                }
                Ok(Value::Object(out))
            }
            (TypeConstraint::List(t) | TypeConstraint::Set(t), Value::Array(items)) => {
                let ek = match known {
                    Some(Type::List(e) | Type::Set(e)) => Some(&**e),
                    _ => None,
                };
                items
                    .into_iter()
                    .map(|i| t.apply_defaults(i, ek, depth + 1))
                    .collect::<Result<_>>()
                    .map(Value::Array)
            }
            (TypeConstraint::Map(t), Value::Object(items)) => {
                let ek = match known {
                    Some(Type::Map(e)) => Some(&**e),
                    _ => None,
                };
                items
                    .into_iter()
                    .map(|(k, i)| Ok((k, t.apply_defaults(i, ek, depth + 1)?)))
                    .collect::<Result<_>>()
                    .map(Value::Object)
            }
            (TypeConstraint::Tuple(ts), Value::Array(items)) => items
                .into_iter()
                .enumerate()
                .map(|(i, item)| match ts.get(i) {
                    Some(t) => {
                        let ek = match known {
                            Some(Type::Tuple(ks)) => ks.get(i),
                            _ => None,
                        };
                        t.apply_defaults(item, ek, depth + 1)
                    }
                    None => Ok(item),
                })
                .collect::<Result<_>>()
                .map(Value::Array),
            (_, v) => Ok(v),
        }
    }

    /// Adds `null` for every absent optional attribute, where the value
    /// has the constraint's shape (conversion reports the rest).
    fn fill_optional(&self, v: Value, depth: usize) -> Result<Value> {
        check_depth(depth)?;
        Ok(match (self, v) {
            (TypeConstraint::Object(attrs), Value::Object(mut obj)) => {
                for (name, a) in attrs {
                    match obj.get_mut(name) {
                        Some(item) => *item = a.ty.fill_optional(item.take(), depth + 1)?,
                        None if a.optional => {
                            obj.insert(name.clone(), Value::Null);
                        }
                        None => {}
                    }
                }
                Value::Object(obj)
            }
            (TypeConstraint::List(t) | TypeConstraint::Set(t), Value::Array(items)) => {
                Value::Array(
                    items
                        .into_iter()
                        .map(|i| t.fill_optional(i, depth + 1))
                        .collect::<Result<_>>()?,
                )
            }
            (TypeConstraint::Map(t), Value::Object(items)) => Value::Object(
                items
                    .into_iter()
                    .map(|(k, i)| Ok((k, t.fill_optional(i, depth + 1)?)))
                    .collect::<Result<_>>()?,
            ),
            (TypeConstraint::Tuple(ts), Value::Array(items)) if ts.len() == items.len() => {
                Value::Array(
                    items
                        .into_iter()
                        .zip(ts)
                        .map(|(i, t)| t.fill_optional(i, depth + 1))
                        .collect::<Result<_>>()?,
                )
            }
            (_, v) => v,
        })
    }
}

/// Constraints nest no deeper than the expressions they are read from;
/// values can be deeper (they come from anywhere), so the walk is bounded
/// by the constraint's depth, and this is a guard against a value deeper
/// than the evaluator's own limit.
fn check_depth(depth: usize) -> Result<()> {
    let max = crate::eval::EvalOptions::DEFAULT.max_depth();
    if depth > max {
        return Err(Error::data(format!(
            "the type constraint is nested more than {max} levels deep"
        )));
    }
    Ok(())
}

/// The keyword an expression is, if it is a bare name.
fn keyword<'e>(e: &'e Expr<'_>) -> Option<&'e str> {
    match &e.kind {
        ExprKind::Variable(id) => Some(id.name),
        _ => None,
    }
}

fn read(expr: &Expr<'_>, depth: usize) -> Result<TypeConstraint> {
    if depth > crate::eval::EvalOptions::DEFAULT.max_depth() {
        return Err(invalid("nested too deeply", expr.span));
    }
    if let Some(kw) = keyword(expr) {
        return match kw {
            "bool" => Ok(TypeConstraint::Bool),
            "string" => Ok(TypeConstraint::String),
            "number" => Ok(TypeConstraint::Number),
            "any" => Ok(TypeConstraint::Any),
            "list" | "map" | "set" => Err(invalid(
                format!("the {kw} type constructor requires one argument specifying the element type"),
                expr.span,
            )),
            "object" => Err(invalid(
                "the object type constructor requires one argument specifying the attribute types and values as a map",
                expr.span,
            )),
            "tuple" => Err(invalid(
                "the tuple type constructor requires one argument specifying the element types as a list",
                expr.span,
            )),
            _ => Err(invalid(
                format!("the keyword `{kw}` is not a valid type specification"),
                expr.span,
            )),
        };
    }
    let ExprKind::Call(call) = &expr.kind else {
        return Err(invalid(
            "a type specification is either a primitive type keyword (bool, number, string) \
             or a complex type constructor call, like list(string)",
            expr.span,
        ));
    };
    if call.expand_final {
        return Err(invalid(
            "a type constructor takes no expanded (`...`) argument",
            call.parens,
        ));
    }
    let name = call.name.name;
    match name {
        "bool" | "string" | "number" => {
            return Err(invalid(
                format!("primitive type keyword `{name}` does not expect arguments"),
                call.parens,
            ))
        }
        "any" => {
            return Err(invalid(
                format!("type constraint keyword `{name}` does not expect arguments"),
                call.parens,
            ))
        }
        _ => {}
    }
    let arg = match &*call.args {
        [arg] => Some(arg),
        _ => None,
    };
    let wrong_count = |what: &str| {
        let span = match &*call.args {
            [_, second, .., last] => second.span.to(last.span),
            [_, second] => second.span,
            _ => call.parens,
        };
        invalid(what, span)
    };
    match name {
        "list" | "set" | "map" => {
            let Some(arg) = arg else {
                return Err(wrong_count(&format!(
                    "the {name} type constructor requires one argument specifying the element type"
                )));
            };
            let elem = Box::new(read(arg, depth + 1)?);
            Ok(match name {
                "list" => TypeConstraint::List(elem),
                "set" => TypeConstraint::Set(elem),
                _ => TypeConstraint::Map(elem),
            })
        }
        "object" => {
            let Some(arg) = arg else {
                return Err(wrong_count(
                    "the object type constructor requires one argument specifying the attribute types and values as a map",
                ));
            };
            read_object(arg, depth)
        }
        "tuple" => {
            let Some(arg) = arg else {
                return Err(wrong_count(
                    "the tuple type constructor requires one argument specifying the element types as a list",
                ));
            };
            let ExprKind::Tuple(items) = &arg.kind else {
                return Err(invalid(
                    "the tuple type constructor requires a list of element types",
                    arg.span,
                ));
            };
            items
                .iter()
                .map(|i| read(i, depth + 1))
                .collect::<Result<_>>()
                .map(TypeConstraint::Tuple)
        }
        "optional" => Err(invalid(
            "keyword `optional` is valid only as a modifier for object type attributes",
            call.name.span,
        )),
        _ => Err(invalid(
            format!("keyword `{name}` is not a valid type constructor"),
            expr.span,
        )),
    }
}

fn read_object(arg: &Expr<'_>, depth: usize) -> Result<TypeConstraint> {
    let ExprKind::Object(items) = &arg.kind else {
        return Err(invalid(
            "the object type constructor requires a map whose keys are attribute names and \
             whose values are the corresponding attribute types",
            arg.span,
        ));
    };
    let mut attrs: Map<String, Attribute> = Map::with_capacity(items.len());
    for item in items {
        let ObjectKey::Ident(key) = &item.key else {
            return Err(invalid(
                "object constructor map keys must be attribute names",
                item.key.span(),
            ));
        };
        let mut ty_expr = &item.value;
        let mut optional = false;
        let mut default_expr = None;
        if let ExprKind::Call(call) = &item.value.kind {
            if call.name.name == "optional" && !call.expand_final {
                match &*call.args {
                    [] => return Err(invalid(
                        "optional attribute modifier requires the attribute type as its argument",
                        call.parens,
                    )),
                    [t] => ty_expr = t,
                    [t, d] => {
                        ty_expr = t;
                        default_expr = Some(d);
                    }
                    _ => {
                        return Err(invalid(
                            "optional attribute modifier expects at most two arguments: the \
                             attribute type, and a default value",
                            call.parens,
                        ))
                    }
                }
                optional = true;
            }
        }
        // A default is a constant: no variables, no functions.
        let default = default_expr
            .map(|d| {
                crate::eval::eval_expr(d, &Context::none())
                    .map(|v| (v, d.span))
                    .map_err(|e| {
                        Error::eval(
                            format!(
                                "invalid default value for optional attribute `{}`: a default \
                                 is a constant: {}",
                                key.name,
                                e.message()
                            ),
                            e.span().unwrap_or(d.span),
                        )
                    })
            })
            .transpose()?;
        let ty = read(ty_expr, depth + 1)?;
        let default = match default {
            // Converted as go-cty does; nested defaults apply only when a
            // value is converted.
            Some((v, span)) => Some(ty.convert_plain(v).map(|(v, _)| v).map_err(|e| {
                Error::eval(
                    format!(
                        "invalid default value for optional attribute `{}`: this default value \
                         is not compatible with the attribute's type constraint: {}",
                        key.name,
                        e.message()
                    ),
                    span,
                )
            })?),
            None => None,
        };
        let name = key.name.to_owned();
        // A repeated attribute replaces the earlier one, as in the
        // reference, which keeps an earlier `optional` and default.
        let (optional, default) = match attrs.get(&name) {
            Some(prev) => (prev.optional || optional, default.or(prev.default.clone())),
            None => (optional, default),
        };
        attrs.insert(
            name,
            Attribute {
                ty,
                optional,
                default,
            },
        );
    }
    attrs.sort_keys();
    Ok(TypeConstraint::Object(attrs))
}

impl fmt::Display for TypeConstraint {
    /// The constraint in HCL's syntax, defaults included:
    /// `list(object({a=optional(number, 2)}))`. The text parses back
    /// ([`TypeConstraint::parse`], or the reference's `typeexpr`) to the
    /// same constraint: a default is written as the HCL expression of its
    /// (converted) value.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TypeConstraint::Any => f.write_str("any"),
            TypeConstraint::Bool => f.write_str("bool"),
            TypeConstraint::Number => f.write_str("number"),
            TypeConstraint::String => f.write_str("string"),
            TypeConstraint::List(t) => write!(f, "list({t})"),
            TypeConstraint::Set(t) => write!(f, "set({t})"),
            TypeConstraint::Map(t) => write!(f, "map({t})"),
            TypeConstraint::Tuple(ts) => {
                f.write_str("tuple([")?;
                for (i, t) in ts.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{t}")?;
                }
                f.write_str("])")
            }
            TypeConstraint::Object(attrs) => {
                f.write_str("object({")?;
                for (i, (k, a)) in attrs.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    if a.optional {
                        match &a.default {
                            Some(d) => write!(f, "{k}=optional({}, {d})", a.ty)?,
                            None => write!(f, "{k}=optional({})", a.ty)?,
                        }
                    } else {
                        write!(f, "{k}={}", a.ty)?;
                    }
                }
                f.write_str("})")
            }
        }
    }
}

impl<'de> serde::Deserialize<'de> for TypeConstraint {
    /// Reads the attribute's expression unevaluated (`type = list(string)`).
    /// A quoted string is read as the type expression it holds, so that
    /// other formats (JSON, YAML) can give one as `"list(string)"`; the
    /// reference's own parser ([`TypeConstraint::parse`]) rejects quotes.
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        let expr = crate::RawExpression::deserialize(d)?;
        expr.with_parsed(|e| match &e.kind {
            ExprKind::String(s) => TypeConstraint::parse(s),
            _ => TypeConstraint::from_expr(e),
        })
        .map_err(|e| {
            // The deserializer places the error at the attribute; say
            // where inside it.
            let msg = match (e.line(), e.column()) {
                (Some(l), Some(c)) => format!("{}, at line {l}, column {c}", e.message()),
                _ => e.message().to_owned(),
            };
            serde::de::Error::custom(msg)
        })
    }
}
