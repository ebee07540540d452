//! Attribute values: literals are visited directly, anything else is
//! evaluated when (and only when) the target asks for its value.

use super::capture;
use super::enums::EnumDeserializer;
use super::key::{KeyDeserializer, Str};
use super::value::{to_f32, visit_int, visit_number, visit_number_exact, ValueDeserializer};
use super::Shared;
use crate::error::{Error, Result};
use crate::{Number, Value};
use hcl_grammar::{Expr, ExprKind, ObjectItem, ObjectKey, TemplatePart, UnaryOp};
use serde::de::{self, Visitor};

/// The deserializer of one expression.
pub(crate) struct ExprDeserializer<'a, 'de> {
    pub(crate) expr: &'a Expr<'de>,
    pub(crate) sh: &'a Shared<'a>,
    pub(crate) depth: usize,
    /// The value, when `deserialize_option` already evaluated it.
    cached: Option<Value>,
}

impl<'a, 'de> ExprDeserializer<'a, 'de> {
    pub(crate) fn new(expr: &'a Expr<'de>, sh: &'a Shared<'a>, depth: usize) -> Self {
        ExprDeserializer {
            expr,
            sh,
            depth,
            cached: None,
        }
    }

    /// Evaluates the expression with the run's context.
    fn eval(&self) -> Result<Value> {
        crate::eval::eval_expr(self.expr, self.sh.ctx)
    }

    /// The evaluated value, ready to be deserialized.
    fn value(self) -> Result<ValueDeserializer> {
        let v = match self.cached {
            Some(v) => v,
            None => self.eval()?,
        };
        Ok(ValueDeserializer::at(
            v,
            self.expr.span,
            self.depth,
            self.sh.max_depth,
        ))
    }

    /// The number, if the expression is a number literal (or a negated
    /// one).
    pub(super) fn literal_number(&self) -> Option<Number> {
        match &self.expr.kind {
            ExprKind::Number(text) => Number::from_literal(text),
            ExprKind::Unary(u) if u.op == UnaryOp::Neg => match &u.operand.kind {
                ExprKind::Number(text) => Number::from_literal(text).map(|n| n.neg()),
                _ => None,
            },
            _ => None,
        }
    }

    /// The string, if the expression is a string literal or a heredoc
    /// without interpolation.
    pub(super) fn literal_str(&self) -> Option<Str<'a, 'de>> {
        match &self.expr.kind {
            ExprKind::String(s) => Some(Str::from_cow(s)),
            ExprKind::Template(t) => match &*t.template.parts {
                [TemplatePart::Literal(l)] if t.heredoc.is_some() => Some(Str::from_cow(&l.value)),
                _ => None,
            },
            _ => None,
        }
    }

    /// The items of an object constructor whose keys are all literal and
    /// distinct, so that it can be visited without evaluation.
    pub(super) fn static_object(&self) -> Option<&'a [ObjectItem<'de>]> {
        let ExprKind::Object(items) = &self.expr.kind else {
            return None;
        };
        if items.len() <= 16 {
            // Small objects (most): compared pairwise, nothing allocated.
            for (i, item) in items.iter().enumerate() {
                let k = static_key(&item.key)?;
                if items
                    .get(..i)?
                    .iter()
                    .any(|earlier| static_key(&earlier.key) == Some(k))
                {
                    return None;
                }
            }
            return Some(items);
        }
        let mut keys = Vec::with_capacity(items.len());
        for item in items {
            keys.push(static_key(&item.key)?);
        }
        let mut seen = std::collections::HashSet::with_capacity(keys.len());
        keys.iter().all(|k| seen.insert(*k)).then_some(items)
    }

    /// Whether `expr` is a traversal or call whose root the context lacks,
    /// so that evaluating it is certain to fail.
    fn unresolvable(&self, expr: &Expr<'_>) -> bool {
        match &expr.kind {
            ExprKind::Variable(v) => self.sh.ctx.var(v.name).is_none(),
            ExprKind::Call(c) => self.sh.ctx.func(c.name.name).is_none(),
            ExprKind::GetAttr(g) => self.unresolvable(&g.object),
            ExprKind::Index(i) => self.unresolvable(&i.collection),
            ExprKind::Splat(s) => self.unresolvable(&s.source),
            _ => false,
        }
    }

    pub(super) fn check_depth(&self) -> Result<()> {
        if self.depth >= self.sh.max_depth {
            Err(self.sh.too_deep(self.expr.span))
        } else {
            Ok(())
        }
    }

    fn visit_tuple<V: Visitor<'de>>(self, items: &'a [Expr<'de>], v: V) -> Result<V::Value> {
        self.check_depth()?;
        let mut access = ExprSeqAccess {
            items: items.iter(),
            index: 0,
            sh: self.sh,
            depth: self.depth + 1,
        };
        let out = v.visit_seq(&mut access)?;
        match access.items.len() {
            0 => Ok(out),
            rest => Err(de::Error::invalid_length(
                access.index + rest,
                &"fewer elements",
            )),
        }
    }

    fn visit_object<V: Visitor<'de>>(self, items: &'a [ObjectItem<'de>], v: V) -> Result<V::Value> {
        self.check_depth()?;
        v.visit_map(ExprMapAccess::new(items, self.sh, self.depth + 1))
    }
}

/// The text of a literal object key.
fn static_key<'a>(key: &'a ObjectKey<'_>) -> Option<&'a str> {
    match key {
        ObjectKey::Ident(i) => Some(i.name),
        ObjectKey::Expr(e) => match &e.kind {
            ExprKind::String(s) => Some(s),
            _ => None,
        },
    }
}

/// A static key naming an enum variant, borrowed from the input when it
/// can be.
fn static_variant<'a, 'de>(key: &'a ObjectKey<'de>) -> Option<Str<'a, 'de>> {
    match key {
        ObjectKey::Ident(i) => Some(Str::Borrowed(i.name)),
        ObjectKey::Expr(e) => match &e.kind {
            ExprKind::String(s) => Some(Str::from_cow(s)),
            _ => None,
        },
    }
}

macro_rules! expr_int {
    ($($method:ident $ty:ty,)*) => {
        $(
            fn $method<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
                match self.literal_number() {
                    Some(n) => visit_int::<$ty, V>(&n, v, stringify!($ty))
                        .map_err(|e| e.with_span(self.expr.span)),
                    None => self.value()?.$method(v),
                }
            }
        )*
    };
}

impl<'de> de::Deserializer<'de> for ExprDeserializer<'_, 'de> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        match &self.expr.kind {
            ExprKind::Null => v.visit_unit(),
            ExprKind::Bool(b) => v.visit_bool(*b),
            ExprKind::Tuple(items) => self.visit_tuple(items, v),
            _ => {
                if let Some(n) = self.literal_number() {
                    return visit_number(&n, v);
                }
                if let Some(s) = self.literal_str() {
                    return s.visit(v);
                }
                if let Some(items) = self.static_object() {
                    return self.visit_object(items, v);
                }
                self.value()?.deserialize_any(v)
            }
        }
    }

    fn deserialize_bool<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        match &self.expr.kind {
            ExprKind::Bool(b) => v.visit_bool(*b),
            _ => self.value()?.deserialize_bool(v),
        }
    }

    expr_int! {
        deserialize_i8 i8, deserialize_i16 i16, deserialize_i32 i32,
        deserialize_i64 i64, deserialize_i128 i128,
        deserialize_u8 u8, deserialize_u16 u16, deserialize_u32 u32,
        deserialize_u64 u64, deserialize_u128 u128,
    }

    literal_scalars!(literal_number, expr);

    fn deserialize_option<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        match &self.expr.kind {
            ExprKind::Null => v.visit_none(),
            ExprKind::Bool(_)
            | ExprKind::Number(_)
            | ExprKind::String(_)
            | ExprKind::Tuple(_)
            | ExprKind::Object(_) => v.visit_some(self),
            // A reference the context cannot resolve would fail: leave it to
            // the inner type (a capture takes it; anything else reports the
            // error) without paying for the error twice.
            _ if self.unresolvable(self.expr) => v.visit_some(self),
            _ => match self.eval() {
                Ok(Value::Null) => v.visit_none(),
                // Keep the expression (not only its value), so that an
                // `Option<Expression>` still captures the source.
                Ok(value) => v.visit_some(ExprDeserializer {
                    cached: Some(value),
                    ..self
                }),
                // An expression that cannot be evaluated here may still be
                // captured; any other target reports the same error again.
                Err(_) => v.visit_some(self),
            },
        }
    }

    fn deserialize_unit<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        match &self.expr.kind {
            ExprKind::Null => v.visit_unit(),
            _ => self.value()?.deserialize_unit(v),
        }
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        v: V,
    ) -> Result<V::Value> {
        self.deserialize_unit(v)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        v: V,
    ) -> Result<V::Value> {
        if capture::is_capture(name) {
            return self.deserialize_struct(name, &[], v);
        }
        if crate::reserved::is_value_target(name) && super::direct::on() {
            // A `Value` target: built whole (`direct.rs`).
            let value = super::direct::expr_value(self.expr, self.sh, self.depth, self.cached)?;
            return super::direct::hand_over(value, v);
        }
        if crate::reserved::is_value_name(name) {
            // A `Number` target: a number literal arrives exactly; anything
            // evaluated goes through `ValueDeserializer`, which does the
            // same.
            if let Some(n) = self.literal_number() {
                return visit_number_exact(&n, v).map_err(|e| e.with_span(self.expr.span));
            }
            if let ExprKind::Null | ExprKind::Bool(_) | ExprKind::Tuple(_) = &self.expr.kind {
                return self.deserialize_any(v);
            }
            if let Some(s) = self.literal_str() {
                return s.visit(v);
            }
            if let Some(items) = self.static_object() {
                return self.visit_object(items, v);
            }
            return self.value()?.deserialize_newtype_struct(name, v);
        }
        v.visit_newtype_struct(self)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        match &self.expr.kind {
            ExprKind::Tuple(items) => self.visit_tuple(items, v),
            _ => self.value()?.deserialize_seq(v),
        }
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _len: usize, v: V) -> Result<V::Value> {
        self.deserialize_seq(v)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _len: usize,
        v: V,
    ) -> Result<V::Value> {
        self.deserialize_seq(v)
    }

    fn deserialize_map<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        match self.static_object() {
            Some(items) => self.visit_object(items, v),
            None => self.value()?.deserialize_map(v),
        }
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        v: V,
    ) -> Result<V::Value> {
        if capture::is_spanned(name, fields) {
            let span = self.expr.span;
            return v.visit_map(capture::SpannedAccess::new(span, self));
        }
        if name == capture::EXPRESSION_NAME {
            return v.visit_map(capture::CaptureAccess::new(
                self.sh,
                self.expr.span,
                self.expr.span,
                false,
            ));
        }
        if name == capture::BODY_NAME {
            return Err(Error::data_at(
                "a `hcl::RawBody` captures the body of a block, but this is an attribute's value",
                self.expr.span,
            ));
        }
        self.deserialize_map(v)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        v: V,
    ) -> Result<V::Value> {
        if let Some(s) = self.literal_str() {
            return v.visit_enum(EnumDeserializer::unit(s, Some(self.expr.span)));
        }
        // A one-item object with a static key names the variant; anything
        // else is evaluated first.
        if let Some((item, key)) = self
            .static_object()
            .and_then(|items| match items {
                [item] => Some(item),
                _ => None,
            })
            .and_then(|item| Some((item, static_variant(&item.key)?)))
        {
            let span = item.key.span();
            let content = ExprDeserializer::new(&item.value, self.sh, self.depth + 1);
            return v.visit_enum(EnumDeserializer::new(key, Some(span), content));
        }
        self.value()?.deserialize_enum(name, variants, v)
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        self.deserialize_str(v)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        // Never evaluated: an expression nobody reads cannot fail.
        v.visit_unit()
    }
}

struct ExprSeqAccess<'a, 'de> {
    items: std::slice::Iter<'a, Expr<'de>>,
    index: usize,
    sh: &'a Shared<'a>,
    depth: usize,
}

impl<'de> de::SeqAccess<'de> for ExprSeqAccess<'_, 'de> {
    type Error = Error;

    fn next_element_seed<T: de::DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>> {
        let Some(expr) = self.items.next() else {
            return Ok(None);
        };
        let i = self.index;
        self.index += 1;
        seed.deserialize(ExprDeserializer::new(expr, self.sh, self.depth))
            .map(Some)
            .map_err(|e| e.with_span(expr.span).prepend_index(i))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.items.len())
    }
}

pub(crate) struct ExprMapAccess<'a, 'de> {
    items: std::slice::Iter<'a, ObjectItem<'de>>,
    value: Option<&'a ObjectItem<'de>>,
    sh: &'a Shared<'a>,
    depth: usize,
}

impl<'a, 'de> ExprMapAccess<'a, 'de> {
    pub(crate) fn new(items: &'a [ObjectItem<'de>], sh: &'a Shared<'a>, depth: usize) -> Self {
        ExprMapAccess {
            items: items.iter(),
            value: None,
            sh,
            depth,
        }
    }
}

impl<'de> de::MapAccess<'de> for ExprMapAccess<'_, 'de> {
    type Error = Error;

    fn next_key_seed<K: de::DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        let Some(item) = self.items.next() else {
            return Ok(None);
        };
        self.value = Some(item);
        let key = match &item.key {
            ObjectKey::Ident(i) => Str::Borrowed(i.name),
            ObjectKey::Expr(e) => match &e.kind {
                ExprKind::String(s) => Str::from_cow(s),
                _ => return Err(Error::data_at("unexpected computed key", e.span)),
            },
        };
        let span = item.key.span();
        seed.deserialize(KeyDeserializer::new(key, Some(span)))
            .map(Some)
            .map_err(|e| {
                e.with_span(span)
                    .prepend_key(static_key(&item.key).unwrap_or_default())
            })
    }

    fn next_value_seed<T: de::DeserializeSeed<'de>>(&mut self, seed: T) -> Result<T::Value> {
        let Some(item) = self.value.take() else {
            return Err(Error::data("a map value was requested before its key"));
        };
        seed.deserialize(ExprDeserializer::new(&item.value, self.sh, self.depth))
            .map_err(|e| {
                let e = e.with_span(item.value.span);
                match static_key(&item.key) {
                    Some(k) => e.prepend_key(k),
                    None => e,
                }
            })
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.items.len())
    }
}
