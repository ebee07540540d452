//! Exact decimal numbers.
//!
//! HCL numbers are arbitrary-precision in the reference implementation
//! (512-bit binary floats). [`Number`] stores a [`rust_decimal::Decimal`]
//! (96-bit integer mantissa, up to 28 digits after the point), which makes
//! `0.1 + 0.2 == 0.3` and `1.1 * 3 == 3.3` exact and gives `1 / 3` to 28
//! significant digits.
//!
//! | value | held as | precision |
//! | --- | --- | --- |
//! | fits a `Decimal` (magnitude up to about 7.9e28, 28 decimal places) | `Decimal` | exact |
//! | an integer beyond that, up to `u128::MAX` (`1e30`, `2^64 * 10^12`) | sign and `u128` | exact |
//! | anything else finite (`1e40`, `1e-40`, `1e30 + 0.5`) | `f64` | 15 to 17 digits |
//!
//! Conversions to `u64`/`i64`/`u128`/`i128` are exact whenever the value is
//! an integer in the target's range, and to `f64` correctly rounded.
//!
//! # Printing
//!
//! Numbers print in plain decimal notation, without exponent or trailing
//! zeros (`1.5`, `1000000000000000000000000000000`, `-0`), as the
//! reference converts numbers to strings. A quotient that does not
//! terminate (`1 / 3`) prints as the reference prints it, with the digits
//! of its 512-bit binary value (155 for `1 / 3`); it computes as its
//! 28-digit decimal.
//!
//! # Where the reference differs
//!
//! - Division by zero and a result beyond the `f64` range (`1e308 * 10`)
//!   are errors ([`NumberError`]); the reference computes infinities and
//!   has a wider exponent range.
//! - Results that are not exact decimals of 28 places (products of tiny
//!   numbers, sums with values beyond `Decimal`) lose digits beyond the
//!   28th (or the 15th as `f64`), where the reference keeps about 155.
//!   Values agree to those digits, but their text can differ.
//! - `x % 0` is `x`, as in the reference.

mod binary;

use rust_decimal::prelude::ToPrimitive;
use rust_decimal::Decimal;
use std::cmp::Ordering;
use std::fmt;
use std::str::FromStr;

/// An HCL number: an exact decimal, an exact big integer, or an `f64`
/// beyond both.
///
/// ```
/// use hcl::Number;
/// let a = Number::from_literal("0.1").unwrap();
/// let b = Number::from_literal("0.2").unwrap();
/// assert_eq!(a.checked_add(&b).unwrap(), Number::from_literal("0.3").unwrap());
/// assert_eq!(Number::from(42u8).as_u64(), Some(42));
/// // Integers beyond Decimal's range stay exact up to the u128 range:
/// let big = Number::from_literal("340282366920938463463374607431768211455").unwrap();
/// assert_eq!(big.as_u128(), Some(u128::MAX));
/// ```
#[derive(Clone, Copy)]
pub struct Number(N);

#[derive(Clone, Copy)]
enum N {
    Dec(Decimal),
    /// An integer whose magnitude is too large for a `Decimal` but fits a
    /// `u128`: sign (true = negative) and magnitude (as two `u64`, high
    /// first, so the type stays 8-byte aligned and `Value` small).
    Big(bool, [u64; 2]),
    /// Always finite; used only where neither of the above can hold the
    /// value.
    Float(f64),
    /// An inexact quotient `a / b` of two decimals. It behaves as the
    /// decimal `a / b` (rounded to 28 digits) everywhere, except that it
    /// prints as the reference prints the quotient (see `binary.rs`).
    Quot(Decimal, Decimal),
}

/// The value of an `N`, with a quotient as its decimal.
#[derive(Clone, Copy)]
enum V {
    Dec(Decimal),
    Big(bool, [u64; 2]),
    Float(f64),
}

impl N {
    /// The value without the quotient's printing form.
    fn norm(self) -> V {
        match self {
            N::Dec(d) => V::Dec(d),
            N::Big(neg, mag) => V::Big(neg, mag),
            N::Float(f) => V::Float(f),
            N::Quot(a, b) => V::Dec(a.checked_div(b).unwrap_or(Decimal::ZERO)),
        }
    }
}

fn u128_parts(x: u128) -> [u64; 2] {
    [(x >> 64) as u64, x as u64]
}

fn u128_of(p: [u64; 2]) -> u128 {
    (u128::from(p[0]) << 64) | u128::from(p[1])
}

/// Why an arithmetic operation on [`Number`]s failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum NumberError {
    /// Division by zero.
    DivideByZero,
    /// The result is too large (infinite even as an `f64`).
    Overflow,
    /// The result is not a number (for example `0 / 0`).
    NotANumber,
}

impl fmt::Display for NumberError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            NumberError::DivideByZero => "division by zero",
            NumberError::Overflow => "the result is too large to be represented as a number",
            NumberError::NotANumber => "the result is not a number",
        })
    }
}

impl std::error::Error for NumberError {}

/// The largest magnitude a `Decimal` holds, as a `u128` (2^96 - 1).
const DEC_MAX: u128 = (1u128 << 96) - 1;

impl Number {
    /// Zero.
    pub const ZERO: Number = Number(N::Dec(Decimal::ZERO));

    /// An integer from sign and magnitude, in the narrowest exact form.
    fn int(neg: bool, mag: u128) -> Number {
        if mag <= DEC_MAX {
            let i = mag as i128; // mag < 2^96 fits
            Number(N::Dec(Decimal::from_i128_with_scale(
                if neg { -i } else { i },
                0,
            )))
        } else {
            Number(N::Big(neg, u128_parts(mag)))
        }
    }

    /// Sign and magnitude, if the number is an integer held exactly.
    fn as_sign_mag(&self) -> Option<(bool, u128)> {
        match self.0.norm() {
            V::Dec(d) if d.fract().is_zero() => {
                let i = d.to_i128()?;
                Some((i < 0, i.unsigned_abs()))
            }
            V::Big(neg, mag) => Some((neg, u128_of(mag))),
            _ => None,
        }
    }

    /// Parses a number literal (`"15"`, `"1.5"`, `"1e30"`, `"2.5E-3"`):
    /// exactly when it fits a `Decimal` or is an integer that fits a
    /// `u128`, as an `f64` otherwise. A leading `-` is accepted. Returns
    /// `None` for text that is not a number or is infinite even as an
    /// `f64`.
    ///
    /// ```
    /// use hcl::Number;
    /// assert_eq!(Number::from_literal("1.5e3"), Some(Number::from(1500)));
    /// assert_eq!(Number::from_literal("1e30").and_then(|n| n.as_u128()), Some(10u128.pow(30)));
    /// assert!(Number::from_literal("abc").is_none());
    /// ```
    pub fn from_literal(text: &str) -> Option<Number> {
        let bytes = text.as_bytes();
        let chars_ok = !bytes.is_empty()
            && bytes
                .iter()
                .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'E' | b'+' | b'-'))
            && bytes.iter().any(u8::is_ascii_digit);
        if !chars_ok {
            return None;
        }
        let has_exp = bytes.iter().any(|b| matches!(b, b'e' | b'E'));
        let dec = if has_exp {
            Decimal::from_scientific(text).ok()
        } else {
            Decimal::from_str_exact(text)
                .ok()
                .or_else(|| Decimal::from_str(text).ok())
        };
        if let Some(d) = dec {
            // A non-zero literal rounded to zero, or to very few digits,
            // lost its value: use another form instead.
            let nonzero_text = text
                .split(['e', 'E'])
                .next()
                .is_some_and(|m| m.bytes().any(|b| (b'1'..=b'9').contains(&b)));
            let lost = d.is_zero() && nonzero_text;
            if !lost && !tiny(d) {
                return Some(Number(N::Dec(d)));
            }
        }
        if let Some(n) = big_integer_literal(text) {
            return Some(n);
        }
        let f: f64 = text.parse().ok()?;
        Number::from_f64(f)
    }

    /// A number from an `f64`; `None` if it is NaN or infinite. The
    /// decimal is the shortest one that round-trips (`0.1f64` is `0.1`).
    pub fn from_f64(f: f64) -> Option<Number> {
        if !f.is_finite() {
            return None;
        }
        if f == 0.0 {
            return Some(Number::ZERO);
        }
        let text = format!("{f:e}");
        match Decimal::from_scientific(&text) {
            Ok(d) if !d.is_zero() && !tiny(d) => Some(Number(N::Dec(d))),
            _ => Some(Number(N::Float(f))),
        }
    }

    /// The decimal value, if the number is held exactly as one.
    pub fn as_decimal(&self) -> Option<Decimal> {
        match self.0.norm() {
            V::Dec(d) => Some(d),
            V::Big(..) | V::Float(_) => None,
        }
    }

    /// Whether the number is an integer.
    pub fn is_integer(&self) -> bool {
        match self.0.norm() {
            V::Dec(d) => d.fract().is_zero(),
            V::Big(..) => true,
            V::Float(f) => f.fract() == 0.0,
        }
    }

    /// Whether the number is zero.
    pub fn is_zero(&self) -> bool {
        match self.0.norm() {
            V::Dec(d) => d.is_zero(),
            V::Big(..) => false,
            V::Float(f) => f == 0.0,
        }
    }

    /// Whether the number is below zero.
    pub fn is_negative(&self) -> bool {
        match self.0.norm() {
            V::Dec(d) => d.is_sign_negative() && !d.is_zero(),
            V::Big(neg, _) => neg,
            V::Float(f) => f < 0.0,
        }
    }

    /// The value as an `i128`, if it is an integer in range.
    pub fn as_i128(&self) -> Option<i128> {
        match self.0.norm() {
            V::Float(f) => {
                // 2^127 is exactly representable; the range check is exact.
                if f.fract() == 0.0 && (-1.7014118346046923e38..1.7014118346046923e38).contains(&f)
                {
                    Some(f as i128)
                } else {
                    None
                }
            }
            _ => {
                let (neg, mag) = self.as_sign_mag()?;
                if neg {
                    0i128.checked_sub_unsigned(mag)
                } else {
                    i128::try_from(mag).ok()
                }
            }
        }
    }

    /// The value as a `u128`, if it is a non-negative integer in range.
    pub fn as_u128(&self) -> Option<u128> {
        match self.0.norm() {
            V::Float(f) => {
                if f.fract() == 0.0 && (0.0..3.402823669209385e38).contains(&f) {
                    Some(f as u128)
                } else {
                    None
                }
            }
            _ => match self.as_sign_mag()? {
                (true, 0) | (false, _) => Some(self.as_sign_mag()?.1),
                (true, _) => None,
            },
        }
    }

    /// The value as an `i64`, if it is an integer in range.
    ///
    /// ```
    /// use hcl::Number;
    /// assert_eq!(Number::from(-3).as_i64(), Some(-3));
    /// assert_eq!(Number::from_literal("1.5").unwrap().as_i64(), None);
    /// ```
    pub fn as_i64(&self) -> Option<i64> {
        self.as_i128().and_then(|i| i64::try_from(i).ok())
    }

    /// The value as a `u64`, if it is a non-negative integer in range.
    pub fn as_u64(&self) -> Option<u64> {
        self.as_u128().and_then(|i| u64::try_from(i).ok())
    }

    /// The nearest `f64` (correctly rounded).
    pub fn as_f64(&self) -> f64 {
        match self.0.norm() {
            V::Dec(d) => {
                // Going through the text rounds correctly; `to_f64` may not.
                d.to_string()
                    .parse()
                    .unwrap_or_else(|_| d.to_f64().unwrap_or(0.0))
            }
            V::Big(neg, mag) => {
                let f = u128_of(mag) as f64;
                if neg {
                    -f
                } else {
                    f
                }
            }
            V::Float(f) => f,
        }
    }

    fn from_float_result(f: f64) -> Result<Number, NumberError> {
        if f.is_nan() {
            Err(NumberError::NotANumber)
        } else if f.is_infinite() {
            Err(NumberError::Overflow)
        } else {
            Ok(Number::from_f64(f).unwrap_or(Number::ZERO))
        }
    }

    /// `rounds`: whether the decimal operation can round (a product or a
    /// quotient): a zero or tiny result then means lost digits, and the
    /// float path is taken. Sums, differences and remainders are exact.
    fn op(
        &self,
        other: &Number,
        rounds: bool,
        dec: impl Fn(Decimal, Decimal) -> Option<Decimal>,
        int: impl Fn(i128, i128) -> Option<i128>,
        float: impl Fn(f64, f64) -> f64,
    ) -> Result<Number, NumberError> {
        if let (V::Dec(a), V::Dec(b)) = (self.0.norm(), other.0.norm()) {
            if let Some(r) = dec(a, b) {
                let lost = rounds && (tiny(r) || (r.is_zero() && !a.is_zero() && !b.is_zero()));
                if !lost {
                    return Ok(Number(N::Dec(r)));
                }
            }
        }
        // Exact integer arithmetic beyond Decimal, within i128 (with the
        // magnitudes up to u128 handled by the float path).
        if let (Some(a), Some(b)) = (self.as_i128(), other.as_i128()) {
            if self.as_sign_mag().is_some() && other.as_sign_mag().is_some() {
                if let Some(r) = int(a, b) {
                    return Ok(Number::int(r < 0, r.unsigned_abs()));
                }
            }
        }
        Number::from_float_result(float(self.as_f64(), other.as_f64()))
    }

    /// `self + other`.
    ///
    /// # Errors
    /// [`NumberError::Overflow`] if the result is infinite.
    pub fn checked_add(&self, other: &Number) -> Result<Number, NumberError> {
        self.op(
            other,
            false,
            |a, b| a.checked_add(b),
            |a, b| a.checked_add(b),
            |a, b| a + b,
        )
    }

    /// `self - other`.
    ///
    /// # Errors
    /// [`NumberError::Overflow`] if the result is infinite.
    pub fn checked_sub(&self, other: &Number) -> Result<Number, NumberError> {
        self.op(
            other,
            false,
            |a, b| a.checked_sub(b),
            |a, b| a.checked_sub(b),
            |a, b| a - b,
        )
    }

    /// `self * other`.
    ///
    /// # Errors
    /// [`NumberError::Overflow`] if the result is infinite.
    pub fn checked_mul(&self, other: &Number) -> Result<Number, NumberError> {
        let r = self.op(
            other,
            true,
            |a, b| a.checked_mul(b),
            |a, b| a.checked_mul(b),
            |a, b| a * b,
        )?;
        // As the reference's binary floats: a zero product has the sign of
        // the operands' signs combined (`-1 * 0` is `-0`).
        if r.is_zero() && (self.sign_negative() != other.sign_negative()) {
            let mut z = Decimal::ZERO;
            z.set_sign_negative(true);
            return Ok(Number(N::Dec(z)));
        }
        Ok(r)
    }

    /// The sign bit, including that of a negative zero.
    fn sign_negative(&self) -> bool {
        match self.0.norm() {
            V::Dec(d) => d.is_sign_negative(),
            V::Big(neg, _) => neg,
            V::Float(f) => f.is_sign_negative(),
        }
    }

    /// `self / other`.
    ///
    /// # Errors
    /// [`NumberError::DivideByZero`] if `other` is zero,
    /// [`NumberError::Overflow`] if the result is infinite.
    pub fn checked_div(&self, other: &Number) -> Result<Number, NumberError> {
        if other.is_zero() {
            return Err(NumberError::DivideByZero);
        }
        if let (V::Dec(a), V::Dec(b)) = (self.0.norm(), other.0.norm()) {
            if let Some(q) = a.checked_div(b) {
                let exact = q.checked_mul(b) == Some(a);
                if !exact && !q.is_zero() && !tiny(q) {
                    return Ok(Number(N::Quot(a, b)));
                }
            }
        }
        self.op(
            other,
            true,
            |a, b| a.checked_div(b),
            // Exact only when the division is.
            |a, b| {
                if a.checked_rem(b)? == 0 {
                    a.checked_div(b)
                } else {
                    None
                }
            },
            |a, b| a / b,
        )
    }

    /// The remainder of `self / other`, with the sign of `self` (truncated
    /// division, as the reference). As in the reference, `x % 0` is `x`.
    ///
    /// # Errors
    /// [`NumberError::NotANumber`] if the remainder cannot be computed.
    pub fn checked_rem(&self, other: &Number) -> Result<Number, NumberError> {
        if other.is_zero() {
            return Ok(*self);
        }
        self.op(
            other,
            false,
            |a, b| a.checked_rem(b),
            |a, b| a.checked_rem(b),
            |a, b| a % b,
        )
    }

    /// `-self`.
    pub fn neg(&self) -> Number {
        match self.0.norm() {
            V::Dec(d) => Number(N::Dec(-d)),
            V::Big(neg, mag) => Number(N::Big(!neg, mag)),
            V::Float(f) => Number(N::Float(-f)),
        }
    }
}

impl Number {
    /// The number as text that [`Number::from_exact_text`] turns back into
    /// the same number in the same form, for the private serde encoding
    /// that hands numbers to a [`Value`](crate::Value) target exactly (see
    /// `value/de.rs`): a decimal as written with its scale and sign
    /// (`0.30`, `-0`), an integer beyond `Decimal` in digits, an `f64` in
    /// Rust's shortest round-trip exponent form (`1e-40`), a quotient as
    /// `a/b`.
    pub(crate) fn to_exact_text(self) -> String {
        match self.0 {
            // `Decimal` prints a negative zero without its sign.
            N::Dec(d) if d.is_zero() && d.is_sign_negative() => format!("-{}", d.abs()),
            N::Dec(d) => d.to_string(),
            N::Big(neg, mag) => format!("{}{}", if neg { "-" } else { "" }, u128_of(mag)),
            N::Float(f) => format!("{f:e}"),
            N::Quot(a, b) => format!("{a}/{b}"),
        }
    }

    /// Whether the number is a zero with its sign bit set (`-0`).
    pub(crate) fn is_negative_zero(&self) -> bool {
        self.is_zero() && self.sign_negative()
    }

    /// The inverse of [`Number::to_exact_text`]; `None` for any other text.
    pub(crate) fn from_exact_text(text: &str) -> Option<Number> {
        if let Some((a, b)) = text.split_once('/') {
            let a = Decimal::from_str_exact(a).ok()?;
            let b = Decimal::from_str_exact(b).ok()?;
            // Division rebuilds the quotient form only where it belongs.
            return Number(N::Dec(a)).checked_div(&Number(N::Dec(b))).ok();
        }
        if text.contains(['e', 'E']) {
            let f: f64 = text.parse().ok()?;
            return Number::from_f64(f).map(|n| match n.0 {
                // Keep the f64 form even where a Decimal could hold it.
                N::Dec(_) if f != 0.0 => Number(N::Float(f)),
                _ => n,
            });
        }
        if let Ok(mut d) = Decimal::from_str_exact(text) {
            if d.is_zero() && text.starts_with('-') {
                d.set_sign_negative(true);
            }
            return Some(Number(N::Dec(d)));
        }
        let (neg, digits) = match text.strip_prefix('-') {
            Some(r) => (true, r),
            None => (false, text),
        };
        if !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        Some(Number::int(neg, digits.parse().ok()?))
    }
}

/// An integer literal (digits, optionally a fraction of zeros and an
/// exponent) too large for a `Decimal` but within `u128`.
fn big_integer_literal(text: &str) -> Option<Number> {
    let (neg, rest) = match text.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, text),
    };
    let (mantissa, exp) = match rest.find(['e', 'E']) {
        Some(i) => (rest.get(..i)?, rest.get(i + 1..)?.parse::<i32>().ok()?),
        None => (rest, 0),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let frac = frac.trim_end_matches('0');
    // value = int.frac * 10^exp; integral when the fraction's digits are
    // all covered by the exponent.
    let shift = exp.checked_sub(i32::try_from(frac.len()).ok()?)?;
    if shift < 0 {
        return None;
    }
    let mut mag: u128 = 0;
    for b in int.bytes().chain(frac.bytes()) {
        let d = u128::from(b.checked_sub(b'0').filter(|d| *d <= 9)?);
        mag = mag.checked_mul(10)?.checked_add(d)?;
    }
    for _ in 0..shift {
        mag = mag.checked_mul(10)?;
    }
    Some(Number::int(neg, mag))
}

/// Whether a non-zero decimal is so small that it has lost most of its
/// significant digits to `Decimal`'s 28-digit scale limit.
fn tiny(d: Decimal) -> bool {
    d.scale() >= 28 && !d.is_zero() && d.abs() < Decimal::new(1, 20)
}

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
    fn cmp(&self, other: &Number) -> Ordering {
        match (self.0.norm(), other.0.norm()) {
            (V::Dec(a), V::Dec(b)) => a.cmp(&b),
            (V::Big(na, a), V::Big(nb, b)) => match (na, nb) {
                (false, false) => a.cmp(&b),
                (true, true) => b.cmp(&a),
                (true, false) => Ordering::Less,
                (false, true) => Ordering::Greater,
            },
            // A Big is beyond every Decimal.
            (V::Big(neg, _), V::Dec(_)) => {
                if neg {
                    Ordering::Less
                } else {
                    Ordering::Greater
                }
            }
            (V::Dec(_), V::Big(neg, _)) => {
                if neg {
                    Ordering::Greater
                } else {
                    Ordering::Less
                }
            }
            _ => self.as_f64().total_cmp(&other.as_f64()),
        }
    }
}

impl std::hash::Hash for Number {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        match self.0.norm() {
            V::Dec(d) => d.normalize().hash(state),
            V::Big(neg, mag) => (neg, mag).hash(state),
            V::Float(f) => f.to_bits().hash(state),
        }
    }
}

impl fmt::Display for Number {
    /// Plain decimal notation without exponent or trailing zeros, as the
    /// reference converts numbers to strings: `1.5`, `1000`, `0.001`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            // The reference keeps the sign of zero: `-0` prints as "-0".
            N::Dec(d) if d.is_zero() && d.is_sign_negative() => f.write_str("-0"),
            N::Dec(d) => fmt::Display::fmt(&d.normalize(), f),
            N::Big(neg, mag) => write!(f, "{}{}", if neg { "-" } else { "" }, u128_of(mag)),
            N::Quot(a, b) => match binary::quotient_text(a, b) {
                Some(text) => f.write_str(&text),
                None => match a.checked_div(b) {
                    Some(q) => fmt::Display::fmt(&q.normalize(), f),
                    None => f.write_str("0"),
                },
            },
            N::Float(x) => fmt::Display::fmt(&x, f),
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
        Number::from_literal(s).ok_or_else(|| format!("`{s}` is not a valid number"))
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
        Number::int(i < 0, i.unsigned_abs())
    }
}

impl From<u128> for Number {
    fn from(i: u128) -> Number {
        Number::int(false, i)
    }
}

impl serde::Serialize for Number {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        // This crate's serializers take the number exactly (see `ser`).
        if crate::ser::active() {
            return crate::ser::serialize_number(self, s);
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
                Number::from_f64(v).ok_or_else(|| E::custom("a number must be finite"))
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Number, E> {
                Number::from_literal(v).ok_or_else(|| E::custom(format!("`{v}` is not a number")))
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
                if key.as_deref() == Some(crate::value::de::NUMBER_KEY) {
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
        d.deserialize_newtype_struct(crate::value::de::VALUE_NAME, V)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(s: &str) -> Number {
        Number::from_literal(s).unwrap_or_else(|| panic!("bad literal {s}"))
    }

    #[test]
    fn exact_text_round_trips_every_form() {
        let third = n("1").checked_div(&n("3")).unwrap_or(Number::ZERO);
        let neg_zero = n("0").neg();
        let float = n("1e-40");
        let cases = [
            n("0.30"),
            n("-2.5"),
            neg_zero,
            n("1e30"),
            n("-1e30"),
            float,
            n("1e300"),
            third,
        ];
        for x in cases {
            let text = x.to_exact_text();
            let back = Number::from_exact_text(&text).unwrap_or_else(|| panic!("{text}"));
            assert_eq!(back, x, "{text}");
            assert_eq!(back.to_string(), x.to_string(), "{text}");
            assert_eq!(back.to_exact_text(), text);
        }
        assert_eq!(neg_zero.to_exact_text(), "-0");
        assert_eq!(third.to_exact_text(), "1/3");
        assert_eq!(float.to_exact_text(), "1e-40");
        for bad in ["", "-", "abc", "1/0", "1/x", "1e999", "--1", "0x10"] {
            assert!(Number::from_exact_text(bad).is_none(), "{bad}");
        }
    }

    #[test]
    fn exact_decimal_arithmetic() {
        assert_eq!(n("0.1").checked_add(&n("0.2")), Ok(n("0.3")));
        assert_eq!(n("1.1").checked_mul(&n("3")), Ok(n("3.3")));
        // 1/3 computes to 28 digits...
        let third = n("1").checked_div(&n("3"));
        assert_eq!(
            third.map(|x| x.as_decimal().map(|d| d.to_string())),
            Ok(Some("0.3333333333333333333333333333".to_owned()))
        );
        // ...and prints as the reference prints it (155 digits, from its
        // 512-bit binary quotient; conformance
        // templates/interpolation_one_third_full_precision).
        let text = third.map(|x| x.to_string()).unwrap_or_default();
        assert_eq!(text.len(), 157);
        assert!(
            text.starts_with("0.3333") && text.ends_with("3335"),
            "{text}"
        );
        // 1/8 is exact: plain decimal.
        assert_eq!(
            n("1").checked_div(&n("8")).map(|x| x.to_string()),
            Ok("0.125".to_owned())
        );
        // A quotient is equal to its decimal value.
        assert_eq!(third, Ok(Number::from(Decimal::ONE / Decimal::from(3))));
    }

    #[test]
    fn beyond_decimal_range() {
        assert_eq!(n("1e30").to_string(), "1000000000000000000000000000000");
        assert_eq!(n("1e-40").as_f64(), 1e-40);
        let big = n("18446744073709551616").checked_mul(&n("1000000000000"));
        assert_eq!(
            big.map(|x| x.as_u128()),
            Ok(Some(18446744073709551616u128 * 1000000000000))
        );
        assert_eq!(
            big.map(|x| x.to_string()),
            Ok("18446744073709551616000000000000".to_owned())
        );
        // Beyond u128: f64.
        assert_eq!(
            n("1e40").checked_mul(&n("10")).map(|x| x.as_f64()),
            Ok(1e41)
        );
        assert_eq!(n("1e308").checked_mul(&n("10")), Err(NumberError::Overflow));
    }

    #[test]
    fn division_and_remainder() {
        assert_eq!(n("1").checked_div(&n("0")), Err(NumberError::DivideByZero));
        // The reference gives `5 % 0 == 5` (conformance operators/modulo_by_zero).
        assert_eq!(n("5").checked_rem(&n("0")), Ok(n("5")));
        assert_eq!(n("-7").checked_rem(&n("3")), Ok(n("-1")));
        assert_eq!(n("7").checked_rem(&n("-3")), Ok(n("1")));
        // An exact zero remainder or difference is not an underflow
        // (oracle: `3 % (0.1 % 1e3)` is 0).
        assert_eq!(n("3").checked_rem(&n("0.1")).map(|x| x.is_zero()), Ok(true));
        assert_eq!(
            n("5")
                .checked_rem(&n("0.00001"))
                .map(|x| x.as_decimal().is_some()),
            Ok(true)
        );
        assert_eq!(
            n("0.1")
                .checked_sub(&n("0.1"))
                .map(|x| x.as_decimal().is_some()),
            Ok(true)
        );
    }

    #[test]
    fn conversions() {
        assert_eq!(n("18446744073709551615").as_u64(), Some(u64::MAX));
        assert_eq!(n("18446744073709551616").as_u64(), None);
        assert_eq!(n("-9223372036854775808").as_i64(), Some(i64::MIN));
        // Integers beyond Decimal stay exact within u128.
        assert_eq!(n("1e30").as_u128(), Some(10u128.pow(30)));
        assert_eq!(
            n("340282366920938463463374607431768211455").as_u128(),
            Some(u128::MAX)
        );
        assert_eq!(
            n("-170141183460469231731687303715884105728").as_i128(),
            Some(i128::MIN)
        );
        assert_eq!(n("340282366920938463463374607431768211456").as_u128(), None);
        assert_eq!(n("2.5").as_f64(), 2.5);
        assert_eq!(n("2.5").as_i64(), None);
        assert_eq!(Number::from_f64(0.1), Some(n("0.1")));
        assert_eq!(Number::from_f64(f64::NAN), None);
        assert_eq!(n("1.50").to_string(), "1.5");
        // oracle: "${-0}" is "-0", "${-1 * 0}" too, "${-1 * -0}" is "0"
        assert_eq!(n("0").neg().to_string(), "-0");
        assert_eq!(
            n("-1").checked_mul(&n("0")).map(|x| x.to_string()),
            Ok("-0".to_owned())
        );
        assert_eq!(
            n("-1").checked_mul(&n("0").neg()).map(|x| x.to_string()),
            Ok("0".to_owned())
        );
    }
}
