//! Comparing a [`Value`] with Rust primitives: `v == "web"`, `v == 8080`,
//! `v == true`, in both directions, as serde_json does.

use super::Value;
use crate::Number;

impl PartialEq<str> for Value {
    /// A string value equal to `other`.
    ///
    /// ```
    /// let v: hcl::Value = hcl::from_str("name = \"web\"\nport = 8080\nok = true\nr = 0.5\n")?;
    /// assert!(v["name"] == "web" && "web" == v["name"]);
    /// assert!(v["port"] == 8080 && v["port"] == 8080u16 && v["port"] != 8080.5);
    /// assert!(v["ok"] == true && v["r"] == 0.5);
    /// # Ok::<(), hcl::Error>(())
    /// ```
    fn eq(&self, other: &str) -> bool {
        self.as_str() == Some(other)
    }
}

impl PartialEq<&str> for Value {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == Some(*other)
    }
}

impl PartialEq<String> for Value {
    fn eq(&self, other: &String) -> bool {
        self.as_str() == Some(other.as_str())
    }
}

impl PartialEq<Value> for str {
    fn eq(&self, other: &Value) -> bool {
        other == self
    }
}

impl PartialEq<Value> for &str {
    fn eq(&self, other: &Value) -> bool {
        other == *self
    }
}

impl PartialEq<Value> for String {
    fn eq(&self, other: &Value) -> bool {
        other == self
    }
}

impl PartialEq<bool> for Value {
    fn eq(&self, other: &bool) -> bool {
        self.as_bool() == Some(*other)
    }
}

impl PartialEq<Value> for bool {
    fn eq(&self, other: &Value) -> bool {
        other == self
    }
}

impl PartialEq<Number> for Value {
    fn eq(&self, other: &Number) -> bool {
        self.as_number() == Some(other)
    }
}

impl PartialEq<Value> for Number {
    fn eq(&self, other: &Value) -> bool {
        other == self
    }
}

/// Integers compare exactly (`Number` equality), whatever their size.
macro_rules! eq_integer {
    ($($t:ty)*) => {$(
        impl PartialEq<$t> for Value {
            fn eq(&self, other: &$t) -> bool {
                self.as_number().is_some_and(|n| *n == Number::from(*other))
            }
        }

        impl PartialEq<Value> for $t {
            fn eq(&self, other: &Value) -> bool {
                other == self
            }
        }
    )*};
}
eq_integer!(i8 i16 i32 i64 i128 isize u8 u16 u32 u64 u128 usize);

/// Floats compare with the number converted to `f64`, as serde_json does.
macro_rules! eq_float {
    ($($t:ty)*) => {$(
        impl PartialEq<$t> for Value {
            fn eq(&self, other: &$t) -> bool {
                self.as_f64() == Some(f64::from(*other))
            }
        }

        impl PartialEq<Value> for $t {
            fn eq(&self, other: &Value) -> bool {
                other == self
            }
        }
    )*};
}
eq_float!(f32 f64);

#[cfg(test)]
#[allow(clippy::cmp_owned)] // comparing with a String is the point
mod tests {
    use super::*;

    #[test]
    fn primitives_compare_by_kind_and_value() {
        let v = Value::from(8080);
        assert!(v == 8080 && 8080u64 == v && v == 8080i128 && v == 8080.0);
        assert!(v != "8080" && v != 8081 && v != true);
        let s = Value::from("a");
        assert!(s == "a" && s == "a".to_owned() && *"a" == s && s != 1);
        assert!(Value::Bool(false) == false && Value::Null != false);
    }

    #[test]
    fn big_integers_compare_exactly() {
        let big = Value::from(u128::MAX);
        assert!(big == u128::MAX);
        assert!(big != u128::MAX - 1);
    }
}
