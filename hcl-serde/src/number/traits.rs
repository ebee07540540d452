//! The standard traits of `Number`: order, hashing, printing, conversions, serde.

use super::binary;
use super::{Number, N};
use rust_decimal::Decimal;
use std::cell::RefCell;
use std::cmp::Ordering;
use std::fmt;
use std::str::FromStr;

impl PartialEq for Number {
    fn eq(&self, other: &Number) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Number {}

impl PartialOrd for Number {
    fn partial_cmp(&self, other: &Number) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Number {
    /// The numeric order (`-0 == 0`). A decimal compares with a binary
    /// float as the reference compares them: rounded to 512 bits.
    fn cmp(&self, other: &Number) -> Ordering {
        match (&self.0, &other.0) {
            (N::Dec(a), N::Dec(b)) => a.cmp(b),
            (N::Inf(a), N::Inf(b)) => b.cmp(a),
            (N::Inf(a), _) => {
                if *a {
                    Ordering::Less
                } else {
                    Ordering::Greater
                }
            }
            (_, N::Inf(b)) => {
                if *b {
                    Ordering::Greater
                } else {
                    Ordering::Less
                }
            }
            _ => match (self.bin(), other.bin()) {
                (Some(a), Some(b)) => a
                    .as_ref()
                    .partial_cmp(b.as_ref())
                    .unwrap_or(Ordering::Equal),
                _ => Ordering::Equal,
            },
        }
    }
}

impl std::hash::Hash for Number {
    /// Hashes the nearest `f64`, so that equal numbers in either form hash
    /// alike.
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        let f = self.as_f64();
        (if f == 0.0 { 0.0f64 } else { f }).to_bits().hash(state);
    }
}

impl fmt::Display for Number {
    /// Plain decimal notation without exponent or trailing zeros, as the
    /// reference converts numbers to strings: `1.5`, `1000`, `0.001`,
    /// `0.333…335` (the shortest text of a binary float), `+Inf`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            // The reference keeps the sign of zero: `-0` prints as "-0".
            N::Dec(d) if d.is_zero() && d.is_sign_negative() => f.write_str("-0"),
            N::Dec(d) => fmt::Display::fmt(&d.normalize(), f),
            N::Bin(b) => f.write_str(&binary::text(b)),
            N::Inf(false) => f.write_str("+Inf"),
            N::Inf(true) => f.write_str("-Inf"),
        }
    }
}

impl fmt::Debug for Number {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Number({self})")
    }
}

impl FromStr for Number {
    type Err = String;

    fn from_str(s: &str) -> Result<Number, String> {
        Number::parse(s).ok_or_else(|| format!("`{s}` is not a valid number"))
    }
}

impl From<Decimal> for Number {
    fn from(d: Decimal) -> Number {
        Number(N::Dec(d))
    }
}

macro_rules! from_int {
    ($($t:ty)*) => {$(
        impl From<$t> for Number {
            fn from(i: $t) -> Number {
                Number(N::Dec(Decimal::from(i)))
            }
        }
    )*};
}
from_int!(i8 i16 i32 i64 isize u8 u16 u32 u64 usize);

impl From<i128> for Number {
    fn from(i: i128) -> Number {
        Number::from_bin(binary::from_int(dashu_int::IBig::from(i)))
    }
}

impl From<u128> for Number {
    fn from(i: u128) -> Number {
        Number::from_bin(binary::from_int(dashu_int::IBig::from(i)))
    }
}

impl serde::Serialize for Number {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        // An integer written without a point (`Decimal` scale 0) that fits
        // an `i64`, other than `-0`: every serializer, ours included, takes
        // it as that `i64` (our literal for it is its digits), so it needs
        // no hand-over.
        if let N::Dec(d) = self.0 {
            if d.scale() == 0 && !(d.is_zero() && d.is_sign_negative()) {
                if let Ok(i) = i64::try_from(d.mantissa()) {
                    return s.serialize_i64(i);
                }
            }
        }
        // This crate's serializers take the number exactly (see `ser`).
        if crate::reserved::active() {
            return serialize_number(self, s);
        }
        if self.is_integer() {
            if let Some(i) = self.as_i64() {
                return s.serialize_i64(i);
            }
            if let Some(u) = self.as_u64() {
                return s.serialize_u64(u);
            }
        }
        s.serialize_f64(self.as_f64())
    }
}

impl<'de> serde::Deserialize<'de> for Number {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Number, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = Number;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a number")
            }
            fn visit_i64<E>(self, v: i64) -> Result<Number, E> {
                Ok(Number::from(v))
            }
            fn visit_u64<E>(self, v: u64) -> Result<Number, E> {
                Ok(Number::from(v))
            }
            fn visit_i128<E>(self, v: i128) -> Result<Number, E> {
                Ok(Number::from(v))
            }
            fn visit_u128<E>(self, v: u128) -> Result<Number, E> {
                Ok(Number::from(v))
            }
            fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<Number, E> {
                Number::from_f64(v).ok_or_else(|| E::custom("a number must not be NaN"))
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Number, E> {
                Number::parse(v).ok_or_else(|| E::custom(format!("`{v}` is not a number")))
            }
            fn visit_newtype_struct<D: serde::Deserializer<'de>>(
                self,
                d: D,
            ) -> Result<Number, D::Error> {
                d.deserialize_any(V)
            }
            /// The private exact form (see `Value`'s `Deserialize`).
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<Number, A::Error> {
                use serde::de::Error;
                let key = map.next_key::<String>()?;
                if key.as_deref() == Some(crate::reserved::NUMBER_KEY) {
                    let text = map.next_value::<String>()?;
                    if map.next_key::<String>()?.is_none() {
                        if let Some(n) = Number::from_exact_text(&text) {
                            return Ok(n);
                        }
                    }
                }
                Err(A::Error::invalid_type(serde::de::Unexpected::Map, &self))
            }
        }
        // Asks for exact numbers as `Value` does (see its `Deserialize`).
        d.deserialize_newtype_struct(crate::reserved::VALUE_NAME, V)
    }
}

thread_local! {
    /// The number being serialized, handed from `Number::serialize` to
    /// the serializer beside serde's data model (which has no exact
    /// decimal).
    static NUMBER: RefCell<Option<Number>> = const { RefCell::new(None) };
}

/// `Number`'s `Serialize` while one of our serializers runs: the number
/// itself goes beside the data model, and a newtype with the private name
/// carries its nearest `i64` / `u64` / `f64` for any other serializer
/// nested inside ours.
fn serialize_number<S: serde::Serializer>(n: &Number, s: S) -> Result<S::Ok, S::Error> {
    struct Plain<'a>(&'a Number);
    impl serde::Serialize for Plain<'_> {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            if self.0.is_integer() {
                if let Some(i) = self.0.as_i64() {
                    return s.serialize_i64(i);
                }
                if let Some(u) = self.0.as_u64() {
                    return s.serialize_u64(u);
                }
            }
            s.serialize_f64(self.0.as_f64())
        }
    }
    // `Number` may stop being `Copy` (a big binary float).
    #[allow(clippy::clone_on_copy)]
    NUMBER.with(|slot| *slot.borrow_mut() = Some(n.clone()));
    s.serialize_newtype_struct(crate::reserved::SER_NUMBER_NAME, &Plain(n))
}

/// Takes the number handed over by [`serialize_number`].
pub(crate) fn take_number() -> Option<Number> {
    NUMBER.with(|slot| slot.borrow_mut().take())
}
