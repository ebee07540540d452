//! A JSON value read into a `Value` target, built whole when its visits
//! would be plain (`json_value.rs`'s `deserialize_newtype_struct`, then
//! `ValueVisitor`): the same `Value`, without a visit per node.

use super::json_value::{text_of, JsonDeserializer};
use super::key::Str;
use super::Shared;
use crate::body::json::{self, COMMENT};
use crate::body::json_ref::JsonRef;
use crate::error::Result;
use crate::value::de::object_value;
use crate::value::Map;
use crate::{Number, Value};
use hcl_grammar::json::JsonKind;

impl JsonDeserializer<'_, '_> {
    /// [`JsonDeserializer::plain_value`] when the newtype `name` is a
    /// `Value`'s own (the target is a `Value`) and values are built
    /// directly (always, outside the tests that compare both routes).
    pub(super) fn plain_target(&self, name: &str) -> Option<Value> {
        if crate::reserved::is_value_target(name) && super::direct::on() {
            self.plain_value()
        } else {
            None
        }
    }

    /// The `Value` that the visits of this value would build, built here
    /// without them, for the values whose visits are plain: null, bools,
    /// numbers in range, literal strings (not templates), and arrays and
    /// objects of them (an object's keys literal and distinct). `None` for anything else,
    /// and for a container too deep, whose error the visits give.
    pub(super) fn plain_value(&self) -> Option<Value> {
        match self.v.kind {
            JsonKind::Array(_) => {
                if self.depth >= self.sh.max_depth {
                    return None;
                }
                let items = self.v.array()?;
                let mut out = Vec::with_capacity(items.len());
                for item in items {
                    let item = JsonDeserializer::new(item, self.sh, self.depth + 1);
                    out.push(match item.v.kind {
                        JsonKind::Array(_) | JsonKind::Object(_) => item.plain_value()?,
                        _ => item.plain_scalar()?,
                    });
                }
                Some(Value::Array(out))
            }
            JsonKind::Object(_) => {
                if self.depth >= self.sh.max_depth {
                    return None;
                }
                // As `MapAccess` over an object value (`static_object`):
                // keys are strings (NFC), none a template, distinct (a
                // repeated one, which the map finds, is left to the
                // evaluation's error).
                let props = self.v.object()?;
                if self.sh.templates && props.any_name(|n| json::is_template(n, true)) {
                    return None;
                }
                let mut map = Map::with_capacity(props.len());
                for p in props {
                    let item = JsonDeserializer::new(p.value(), self.sh, self.depth + 1);
                    let value = match item.v.kind {
                        JsonKind::Array(_) | JsonKind::Object(_) => item.plain_value()?,
                        _ => item.plain_scalar()?,
                    };
                    if map
                        .insert(owned(text_of(p.name_str(), p.value())), value)
                        .is_some()
                    {
                        return None;
                    }
                }
                // `ValueVisitor::visit_map`'s reading of a private key.
                Some(object_value(map))
            }
            _ => self.plain_scalar(),
        }
    }

    /// [`JsonDeserializer::plain_value`] of a scalar (inline in the loops
    /// over elements and properties); `None` for a container.
    #[inline(always)]
    fn plain_scalar(&self) -> Option<Value> {
        Some(match self.v.kind {
            JsonKind::Null => Value::Null,
            JsonKind::Bool(b) => Value::Bool(b),
            JsonKind::Number => number_of(self.v.number()?)?,
            JsonKind::String(_) => {
                let s = self.v.string_str()?;
                if json::is_template(s.as_str(), self.sh.templates) {
                    return None;
                }
                Value::String(owned(text_of(s, self.v)))
            }
            JsonKind::Array(_) | JsonKind::Object(_) => return None,
        })
    }
}

/// The `Value` that a JSON body (a file's root object) read into a
/// `Value` target gets from its visits (`body.rs`'s `visit_body`, then
/// `ValueVisitor::visit_map` over `BodyAccess`), built here without
/// them: its properties, `"//"` comments left out, keyed by their names
/// as written, each value at `depth` built whole when it is plain and
/// read by `Value::deserialize` otherwise, with the visits' error
/// (span, file, path). `None` (the visits decide, and report any error)
/// for anything but an object whose names are distinct as written: a
/// root array, a repeated name (an error), a repeated comment when a
/// value is not plain.
pub(super) fn body_value(
    v: JsonRef<'_, '_>,
    sh: &Shared<'_>,
    depth: usize,
) -> Option<Result<Value>> {
    let props = v.object()?;
    // The visits check every name before reading a value: before the
    // first value that may fail, so does this (a repeated name is their
    // error); plain values cannot fail, and the map finds a repeated name.
    let mut checked = false;
    let mut map = Map::with_capacity(props.len());
    for p in props {
        if p.name_is(COMMENT) {
            continue;
        }
        let item = JsonDeserializer::new(p.value(), sh, depth);
        let plain = match item.v.kind {
            JsonKind::Array(_) | JsonKind::Object(_) => item.plain_value(),
            _ => item.plain_scalar(),
        };
        let value = match plain {
            Some(value) => value,
            None => {
                if !checked {
                    if !props.distinct_names() {
                        return None;
                    }
                    checked = true;
                }
                match <Value as serde::Deserialize>::deserialize(item) {
                    Ok(value) => value,
                    Err(e) => {
                        return Some(Err(sh
                            .place(e.with_span(p.value.span))
                            .prepend_key(p.name())))
                    }
                }
            }
        };
        if map.insert(owned(p.name_str()), value).is_some() {
            return None;
        }
    }
    // `ValueVisitor::visit_map`'s reading of a private key.
    Some(Ok(object_value(map)))
}

/// The `Value` of the number written `t`, as `deserialize_newtype_struct`
/// gives it: `visit_i64`, the exact text (`ExactNumberAccess`), or what
/// `visit_number_exact` gives (`direct::number_value`); `None` for a
/// number out of range (the visits' error).
#[inline(always)]
pub(super) fn number_of(t: &str) -> Option<Value> {
    Some(match json::small_int(t) {
        Some(i) => Value::from(i),
        None if json::exact_as_written(t) => Value::Number(Number::from_exact_text(t)?),
        None => match json::integral(t) {
            Some(int) => int_value(int),
            None => rare_number(t)?,
        },
    })
}

/// The value of the integer with sign `neg` and magnitude `m` (from
/// `json::integral`), as `direct::number_value` gives it: the first of
/// `i64`, `u64`, `i128`, `u128` that holds it.
#[inline(never)]
pub(super) fn int_value((neg, m): (bool, u128)) -> Value {
    if neg {
        // `integral` gives at most `i128::MIN`'s magnitude.
        let i = 0i128.wrapping_sub_unsigned(m);
        // An `i64` when it fits (`Number`'s fast conversion), else the
        // `i128` itself.
        match i64::try_from(i) {
            Ok(i) => Value::from(i),
            Err(_) => Value::from(i),
        }
    } else if let Ok(i) = i64::try_from(m) {
        Value::from(i)
    } else if let Ok(u) = u64::try_from(m) {
        Value::from(u)
    } else if let Ok(i) = i128::try_from(m) {
        Value::from(i)
    } else {
        Value::from(m)
    }
}

/// A number that is neither a short integer nor exact as written
/// (`1e3`, `1.50`, a long one), as `visit_number_exact` gives it; `None`
/// out of range. Out of line: rare, and its parse is large.
#[inline(never)]
fn rare_number(t: &str) -> Option<Value> {
    Some(super::direct::number_value(&json::number(t)?))
}

/// The text of `s`, owned.
fn owned(s: Str<'_, '_>) -> String {
    match s {
        Str::Owned(text) => text,
        text => text.as_str().to_owned(),
    }
}
