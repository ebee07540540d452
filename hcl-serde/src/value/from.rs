//! Conversions from Rust values into [`Value`].

use super::{Map, Value};
use crate::Number;
use std::borrow::Cow;

macro_rules! from_number {
    ($($t:ty)*) => {$(
        impl From<$t> for Value {
            fn from(n: $t) -> Value {
                Value::Number(Number::from(n))
            }
        }
    )*};
}
from_number!(i8 i16 i32 i64 i128 isize u8 u16 u32 u64 u128 usize);

impl From<f64> for Value {
    /// A finite float becomes a number; NaN and infinities become `null`.
    fn from(f: f64) -> Value {
        Number::from_f64(f).map_or(Value::Null, Value::Number)
    }
}

impl From<f32> for Value {
    /// A finite float becomes a number (`0.1f32` is `0.1`); NaN and
    /// infinities become `null`.
    fn from(f: f32) -> Value {
        // Via the shortest decimal of the f32, so 0.1f32 is 0.1, not 0.10000000149.
        f.to_string()
            .parse::<f64>()
            .ok()
            .and_then(Number::from_f64)
            .map_or(Value::Null, Value::Number)
    }
}

impl From<Number> for Value {
    fn from(n: Number) -> Value {
        Value::Number(n)
    }
}

impl From<bool> for Value {
    fn from(b: bool) -> Value {
        Value::Bool(b)
    }
}

impl From<String> for Value {
    fn from(s: String) -> Value {
        Value::String(s)
    }
}

impl From<&str> for Value {
    fn from(s: &str) -> Value {
        Value::String(s.to_owned())
    }
}

impl From<Cow<'_, str>> for Value {
    fn from(s: Cow<'_, str>) -> Value {
        Value::String(s.into_owned())
    }
}

impl From<char> for Value {
    fn from(c: char) -> Value {
        Value::String(c.to_string())
    }
}

impl From<()> for Value {
    fn from(_: ()) -> Value {
        Value::Null
    }
}

impl<T: Into<Value>> From<Option<T>> for Value {
    /// `None` is `null`.
    fn from(o: Option<T>) -> Value {
        o.map_or(Value::Null, Into::into)
    }
}

impl<T: Into<Value>> From<Vec<T>> for Value {
    fn from(v: Vec<T>) -> Value {
        Value::Array(v.into_iter().map(Into::into).collect())
    }
}

impl<T: Into<Value> + Clone> From<&[T]> for Value {
    fn from(v: &[T]) -> Value {
        Value::Array(v.iter().cloned().map(Into::into).collect())
    }
}

impl<K: Into<String>, V: Into<Value>> From<Map<K, V>> for Value {
    fn from(m: Map<K, V>) -> Value {
        Value::Object(m.into_iter().map(|(k, v)| (k.into(), v.into())).collect())
    }
}

impl<K: Into<String>, V: Into<Value>> From<std::collections::BTreeMap<K, V>> for Value {
    fn from(m: std::collections::BTreeMap<K, V>) -> Value {
        Value::Object(m.into_iter().map(|(k, v)| (k.into(), v.into())).collect())
    }
}

impl<K: Into<String>, V: Into<Value>, S> From<std::collections::HashMap<K, V, S>> for Value {
    /// Hash maps have no order: the keys are sorted so the result is
    /// deterministic.
    fn from(m: std::collections::HashMap<K, V, S>) -> Value {
        let mut entries: Vec<(String, Value)> =
            m.into_iter().map(|(k, v)| (k.into(), v.into())).collect();
        entries.sort_by(|a, b| a.0.cmp(&b.0));
        Value::Object(entries.into_iter().collect())
    }
}

impl<V: Into<Value>> FromIterator<V> for Value {
    /// Collects into an array.
    fn from_iter<I: IntoIterator<Item = V>>(iter: I) -> Value {
        Value::Array(iter.into_iter().map(Into::into).collect())
    }
}

impl<K: Into<String>, V: Into<Value>> FromIterator<(K, V)> for Value {
    /// Collects pairs into an object.
    fn from_iter<I: IntoIterator<Item = (K, V)>>(iter: I) -> Value {
        Value::Object(
            iter.into_iter()
                .map(|(k, v)| (k.into(), v.into()))
                .collect(),
        )
    }
}
