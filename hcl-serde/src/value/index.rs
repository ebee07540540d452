//! Indexing a [`Value`] by position or key: [`Value::get`], `v[0]`,
//! `v["key"]`, with serde_json's conventions.

use super::{Map, Value};
use std::ops;

/// Something that can index into a [`Value`]: a `usize` into arrays, a
/// string into objects. See [`Value::get`] and the `[]` operator.
///
/// Sealed: implemented for `usize`, `str`, `String` and references to them.
pub trait Index: private::Sealed {
    #[doc(hidden)]
    fn index_into<'v>(&self, v: &'v Value) -> Option<&'v Value>;

    #[doc(hidden)]
    fn index_into_mut<'v>(&self, v: &'v mut Value) -> Option<&'v mut Value>;

    /// The slot for `v[self] = ...`: a string key inserts `null` into an
    /// object (a `null` value first becomes an empty object); a position
    /// must be in bounds.
    #[doc(hidden)]
    fn index_or_insert<'v>(&self, v: &'v mut Value) -> &'v mut Value;
}

mod private {
    pub trait Sealed {}
    impl Sealed for usize {}
    impl Sealed for str {}
    impl Sealed for String {}
    impl<T: Sealed + ?Sized> Sealed for &T {}
}

impl Index for usize {
    fn index_into<'v>(&self, v: &'v Value) -> Option<&'v Value> {
        v.as_array().and_then(|a| a.get(*self))
    }

    fn index_into_mut<'v>(&self, v: &'v mut Value) -> Option<&'v mut Value> {
        v.as_array_mut().and_then(|a| a.get_mut(*self))
    }

    fn index_or_insert<'v>(&self, v: &'v mut Value) -> &'v mut Value {
        match v {
            Value::Array(a) => {
                let len = a.len();
                a.get_mut(*self).unwrap_or_else(|| {
                    panic!("cannot access index {self} of an array of length {len}")
                })
            }
            other => panic!("cannot access index {self} of {}", other.kind_name()),
        }
    }
}

impl Index for str {
    fn index_into<'v>(&self, v: &'v Value) -> Option<&'v Value> {
        v.as_object().and_then(|o| o.get(self))
    }

    fn index_into_mut<'v>(&self, v: &'v mut Value) -> Option<&'v mut Value> {
        v.as_object_mut().and_then(|o| o.get_mut(self))
    }

    fn index_or_insert<'v>(&self, v: &'v mut Value) -> &'v mut Value {
        if v.is_null() {
            *v = Value::Object(Map::new());
        }
        match v {
            Value::Object(o) => o.entry(self.to_owned()).or_insert(Value::Null),
            other => panic!("cannot access key {self:?} of {}", other.kind_name()),
        }
    }
}

impl Index for String {
    fn index_into<'v>(&self, v: &'v Value) -> Option<&'v Value> {
        self.as_str().index_into(v)
    }

    fn index_into_mut<'v>(&self, v: &'v mut Value) -> Option<&'v mut Value> {
        self.as_str().index_into_mut(v)
    }

    fn index_or_insert<'v>(&self, v: &'v mut Value) -> &'v mut Value {
        self.as_str().index_or_insert(v)
    }
}

impl<T: Index + ?Sized> Index for &T {
    fn index_into<'v>(&self, v: &'v Value) -> Option<&'v Value> {
        (**self).index_into(v)
    }

    fn index_into_mut<'v>(&self, v: &'v mut Value) -> Option<&'v mut Value> {
        (**self).index_into_mut(v)
    }

    fn index_or_insert<'v>(&self, v: &'v mut Value) -> &'v mut Value {
        (**self).index_or_insert(v)
    }
}

impl Value {
    /// The element at `index` of an array, or the entry `key` of an object.
    ///
    /// ```
    /// use hcl::Value;
    /// let v = Value::from_iter([("a", 1)]);
    /// assert_eq!(v.get("a"), Some(&Value::from(1)));
    /// assert_eq!(v.get("b"), None);
    /// ```
    pub fn get<I: Index>(&self, index: I) -> Option<&Value> {
        index.index_into(self)
    }

    /// [`Value::get`], mutably.
    ///
    /// ```
    /// use hcl::Value;
    /// let mut v = Value::from(vec![1, 2]);
    /// *v.get_mut(1).unwrap() = Value::from("two");
    /// assert_eq!(v[1], "two");
    /// ```
    pub fn get_mut<I: Index>(&mut self, index: I) -> Option<&mut Value> {
        index.index_into_mut(self)
    }
}

/// The value `v[i]` reads when there is none, as in serde_json.
static NULL: Value = Value::Null;

impl<I: Index> ops::Index<I> for Value {
    type Output = Value;

    /// `v["key"]` or `v[0]`: the entry, or `null` when the key or position
    /// is missing or the value is not an object or array (as serde_json).
    ///
    /// ```
    /// let v: hcl::Value = hcl::from_str("service \"web\" {\n  port = 8080\n}\n")?;
    /// assert_eq!(v["service"]["web"]["port"], 8080);
    /// assert!(v["service"]["db"]["port"].is_null());
    /// assert!(v[3].is_null());
    /// # Ok::<(), hcl::Error>(())
    /// ```
    fn index(&self, index: I) -> &Value {
        index.index_into(self).unwrap_or(&NULL)
    }
}

impl<I: Index> ops::IndexMut<I> for Value {
    /// `v["key"] = ...` inserts into an object (a `null` becomes an empty
    /// object first); `v[0] = ...` replaces an array element.
    ///
    /// # Panics
    ///
    /// As serde_json: a key into a value that is neither an object nor
    /// `null`, a position into a value that is not an array, or a position
    /// out of bounds.
    ///
    /// ```
    /// let mut v = hcl::Value::Null;
    /// v["name"] = "web".into();
    /// v["ports"] = vec![80, 443].into();
    /// v["ports"][1] = 8443.into();
    /// assert_eq!(v.to_string(), r#"{ name = "web", ports = [80, 8443] }"#);
    /// ```
    fn index_mut(&mut self, index: I) -> &mut Value {
        index.index_or_insert(self)
    }
}

#[cfg(test)]
#[allow(clippy::indexing_slicing)] // the operators under test
mod tests {
    use super::*;

    #[test]
    fn a_miss_reads_as_null() {
        let v = Value::from_iter([("a", Value::from(vec![1, 2]))]);
        assert_eq!(v["a"][1], Value::from(2));
        assert!(v["a"][2].is_null());
        assert!(v["b"].is_null());
        assert!(v["a"]["x"].is_null());
        assert!(v[0].is_null());
        assert_eq!(v.get(String::from("a")), Some(&Value::from(vec![1, 2])));
    }

    #[test]
    fn index_mut_inserts_keys_and_replaces_elements() {
        let mut v = Value::Null;
        v["a"]["b"] = Value::from(true);
        assert_eq!(
            v,
            Value::from_iter([("a", Value::from_iter([("b", true)]))])
        );
        v["a"]["b"] = Value::from(vec![0, 0]);
        v["a"]["b"][0] = Value::from(7);
        assert_eq!(v["a"]["b"], Value::from(vec![7, 0]));
    }

    #[test]
    #[should_panic(expected = "cannot access index 2 of an array of length 2")]
    fn index_mut_out_of_bounds_panics_as_serde_json() {
        let mut v = Value::from(vec![1, 2]);
        v[2] = Value::Null;
    }

    #[test]
    #[should_panic(expected = "cannot access key \"a\" of number")]
    fn index_mut_key_into_a_number_panics() {
        let mut v = Value::from(1);
        v["a"] = Value::Null;
    }
}
