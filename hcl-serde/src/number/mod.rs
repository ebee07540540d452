//! HCL numbers: exact decimals, and the reference's big binary floats
//! beyond them.
//!
//! The reference (go-cty) computes every number as a 512-bit binary float
//! with a practically unbounded exponent. [`Number`] keeps a
//! [`rust_decimal::Decimal`] (96-bit integer mantissa, up to 28 digits
//! after the point) wherever a value is one exactly, which makes
//! `0.1 + 0.2 == 0.3` and `1.1 * 3 == 3.3` exact, and falls back to a
//! binary float computed as the reference computes it (dashu's `FBig`,
//! see `binary.rs`) for everything else.
//!
//! | value | held as | precision |
//! | --- | --- | --- |
//! | fits a `Decimal` (magnitude up to about 7.9e28, 28 decimal places) | `Decimal` | exact |
//! | anything else finite (`1/3`, `2^128`, `1e400`, `1e-400`) | binary float | 512 bits (53 for `f64` results of functions), as the reference |
//! | `1/0`, `-1/0`, results beyond about `1e39456` | ±infinity | |
//!
//! An operation on two decimals whose exact result is a decimal gives
//! that decimal; otherwise it computes at 512 bits, with each decimal
//! operand rounded to 512 bits as the reference reads it. A binary result
//! that is exactly a decimal becomes one again (`(1/3) * 3` is `1`).
//!
//! Conversions to `u64`/`i64`/`u128`/`i128` are exact whenever the value is
//! an integer in the target's range, and to `f64` correctly rounded.
//!
//! ```
//! use hcl::{Number, Value};
//!
//! let v: Value = hcl::eval::eval_expr_str("0.1 + 0.2", &hcl::Context::new())?;
//! assert_eq!(v, Value::Number(Number::parse("0.3").unwrap_or(Number::ZERO)));
//!
//! let big = hcl::eval::eval_expr_str("2 * 170141183460469231731687303715884105728", &hcl::Context::new())?;
//! assert_eq!(big.to_string(), "340282366920938463463374607431768211456");
//!
//! let third = hcl::eval::eval_expr_str("1 / 3", &hcl::Context::new())?;
//! assert!(third.to_string().starts_with("0.333333333333333333333333333333"));
//!
//! assert_eq!(hcl::eval::eval_expr_str("1 / 0", &hcl::Context::new())?, Value::Number(Number::INFINITY));
//! # Ok::<(), hcl::Error>(())
//! ```
//!
//! # Printing
//!
//! Numbers print in plain decimal notation, without exponent or trailing
//! zeros (`1.5`, `1000000000000000000000000000000`, `-0`), as the
//! reference converts numbers to strings: a binary float as the shortest
//! decimal that reads back as the same float at its precision (155 digits
//! for `1 / 3`), an infinity as `+Inf` or `-Inf`.
//!
//! # Where the reference differs
//!
//! - Exact decimal results stay exact (`0.1 + 0.2` is `0.3`, where the
//!   reference's 512-bit sum differs from `0.3` in its 155th digit).
//! - The exponent is bounded at `2^±131072` (about `1e±39456`, the
//!   reference: `2^±2147483647`), so that printing any number takes
//!   bounded time and memory: beyond it a result is an infinity or a zero.
//! - `0/0`, `inf - inf`, `0 * inf` and a remainder with an infinite
//!   operand are errors ([`NumberError::NotANumber`]), as in the reference.
//! - `x % 0` is `x`, as in the reference.

mod arith;
mod binary;
mod traits;

pub(crate) use traits::take_number;

use binary::{Bf, Out};
use rust_decimal::prelude::ToPrimitive;
use rust_decimal::Decimal;
use std::fmt;

/// An HCL number: an exact decimal, a big binary float beyond it, or an
/// infinity. Not `Copy` (a binary float owns its digits): clone it.
///
/// ```
/// use hcl::Number;
/// let a = Number::from_literal("0.1").unwrap();
/// let b = Number::from_literal("0.2").unwrap();
/// assert_eq!(a.checked_add(&b).unwrap(), Number::from_literal("0.3").unwrap());
/// assert_eq!(Number::from(42u8).as_u64(), Some(42));
/// // Integers stay exact to 512 bits:
/// let big = Number::from_literal("340282366920938463463374607431768211455").unwrap();
/// assert_eq!(big.as_u128(), Some(u128::MAX));
/// // Beyond f64's range, as the reference:
/// let huge = Number::from_literal("1e400").unwrap();
/// assert_eq!(huge.to_string().len(), 401);
/// ```
#[derive(Clone)]
pub struct Number(N);

#[derive(Clone)]
enum N {
    Dec(Decimal),
    /// Finite, non-zero, not exactly a `Decimal` (when of 512 bits),
    /// within the exponent bound. Boxed so that `Value` stays small.
    Bin(Box<Bf>),
    /// An infinity; `true` is `-inf`.
    Inf(bool),
}

/// Why an arithmetic operation on [`Number`]s failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum NumberError {
    /// Division by zero. Not returned any more: as in the reference, `x / 0`
    /// is an infinity (and `0 / 0` is [`NumberError::NotANumber`]).
    DivideByZero,
    /// The result is too large. Not returned any more: a result beyond
    /// every finite number is an infinity, as in the reference.
    Overflow,
    /// The result is not a number: `0 / 0`, `inf / inf`, `inf - inf`,
    /// `0 * inf`, a remainder with an infinite operand.
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

/// A binary value: a float, or a zero or an infinity with its sign.
fn from_out(o: Out) -> Number {
    match o {
        Out::Val(v) => Number::from_bin(v),
        Out::Zero(neg) => Number::signed_zero(neg),
        Out::Inf(neg) => Number(N::Inf(neg)),
    }
}

impl Number {
    /// Zero.
    pub const ZERO: Number = Number(N::Dec(Decimal::ZERO));

    /// Positive infinity (`1 / 0` in the reference).
    pub const INFINITY: Number = Number(N::Inf(false));

    /// Negative infinity (`-1 / 0`).
    pub const NEG_INFINITY: Number = Number(N::Inf(true));

    fn signed_zero(neg: bool) -> Number {
        let mut z = Decimal::ZERO;
        z.set_sign_negative(neg);
        Number(N::Dec(z))
    }

    /// A finite binary value, as a decimal when it is exactly one and has
    /// the reference's precision.
    fn from_bin(v: Bf) -> Number {
        if v.precision() >= binary::PREC {
            if let Some(d) = binary::to_decimal(&v) {
                return Number(N::Dec(d));
            }
        }
        if v.repr().significand().is_zero() {
            return Number::ZERO;
        }
        Number(N::Bin(Box::new(v)))
    }

    /// The value as a binary float, `None` for an infinity.
    fn bin(&self) -> Option<std::borrow::Cow<'_, Bf>> {
        match &self.0 {
            N::Dec(d) => Some(std::borrow::Cow::Owned(binary::from_decimal(*d))),
            N::Bin(b) => Some(std::borrow::Cow::Borrowed(b)),
            N::Inf(_) => None,
        }
    }

    /// Parses number text as the reference does, both for number literals
    /// and for converting a string to a number (Go's `ParseFloat`, base
    /// 10, 512 bits): an optional sign, then digits with an optional point
    /// (`1.`, `.5`) and exponent (`1e30`, `2.5E-3`), or `Inf`/`inf`.
    /// Nothing around it. Exactly when the value is a `Decimal`; as a
    /// 512-bit float otherwise. `None` for anything else.
    ///
    /// ```
    /// use hcl::Number;
    /// assert_eq!(Number::parse("1.5e3"), Some(Number::from(1500)));
    /// assert_eq!(Number::parse("-inf"), Some(Number::NEG_INFINITY));
    /// assert!(Number::parse("1e400").is_some());
    /// assert!(Number::parse(" 1").is_none());
    /// assert!(Number::parse("0x10").is_none());
    /// ```
    pub fn parse(text: &str) -> Option<Number> {
        let (neg, digits, exp10) = match binary::scan(text)? {
            binary::Parsed::Inf(neg) => return Some(Number(N::Inf(neg))),
            binary::Parsed::Finite { neg, digits, exp10 } => (neg, digits, exp10),
        };
        if digits.is_empty() {
            return Some(Number::signed_zero(neg));
        }
        if let Some(d) = exact_decimal(neg, &digits, exp10) {
            return Some(Number(N::Dec(d)));
        }
        Some(from_out(binary::parse(neg, &digits, exp10)))
    }

    /// Parses a number literal; the same as [`Number::parse`].
    ///
    /// ```
    /// use hcl::Number;
    /// assert_eq!(Number::from_literal("1.5e3"), Some(Number::from(1500)));
    /// assert_eq!(Number::from_literal("1e30").and_then(|n| n.as_u128()), Some(10u128.pow(30)));
    /// assert!(Number::from_literal("abc").is_none());
    /// ```
    pub fn from_literal(text: &str) -> Option<Number> {
        Number::parse(text)
    }

    /// A number from an `f64`; `None` if it is NaN. An infinity is an
    /// infinite number. Within `Decimal`'s range the decimal is the
    /// shortest one that round-trips (`0.1f64` is `0.1`); beyond it, the
    /// exact value of the `f64`, which prints with the digits of its 53
    /// bits, as the reference prints results computed in `f64`.
    pub fn from_f64(f: f64) -> Option<Number> {
        if f.is_nan() {
            return None;
        }
        if f.is_infinite() {
            return Some(Number(N::Inf(f < 0.0)));
        }
        if f == 0.0 {
            return Some(Number::signed_zero(f.is_sign_negative()));
        }
        // The shortest decimal that reads back as `f`, where a `Decimal`
        // holds it exactly.
        if let Some(binary::Parsed::Finite { neg, digits, exp10 }) = binary::scan(&format!("{f:e}"))
        {
            if let Some(d) = exact_decimal(neg, &digits, exp10) {
                return Some(Number(N::Dec(d)));
            }
        }
        binary::from_f64(f).map(|b| Number(N::Bin(Box::new(b))))
    }

    /// A result computed in `f64` as the reference holds one: its exact
    /// binary value at 53 bits (it prints as the shortest decimal that
    /// reads back as the `f64`, and computes on with all its bits:
    /// `pow(2, 0.5) * pow(2, 0.5)` is `2.00000000000000027343234630647693`).
    /// A value that is exactly a `Decimal` with the same text is one.
    /// `None` for NaN.
    pub(crate) fn from_f64_binary(f: f64) -> Option<Number> {
        if !f.is_finite() || f == 0.0 {
            return Number::from_f64(f);
        }
        let b = binary::from_f64(f)?;
        // A decimal only where it prints as the reference prints the float
        // (`pow(2, 80)` is `1208925819614629200000000` there).
        Some(match binary::to_decimal(&b) {
            Some(d) if d.normalize().to_string() == binary::text(&b) => Number(N::Dec(d)),
            _ => Number(N::Bin(Box::new(b))),
        })
    }

    /// The decimal value, if the number is held exactly as one.
    pub fn as_decimal(&self) -> Option<Decimal> {
        match self.0 {
            N::Dec(d) => Some(d),
            _ => None,
        }
    }

    /// Whether the number is an infinity.
    pub fn is_infinite(&self) -> bool {
        matches!(self.0, N::Inf(_))
    }

    /// Whether the number is finite (not an infinity).
    pub fn is_finite(&self) -> bool {
        !self.is_infinite()
    }

    /// Whether the number is an integer (an infinity is not).
    pub fn is_integer(&self) -> bool {
        match &self.0 {
            N::Dec(d) => d.fract().is_zero(),
            N::Bin(b) => b.repr().is_int(),
            N::Inf(_) => false,
        }
    }

    /// Whether the number is zero.
    pub fn is_zero(&self) -> bool {
        match self.0 {
            N::Dec(d) => d.is_zero(),
            _ => false,
        }
    }

    /// Whether the number is below zero.
    pub fn is_negative(&self) -> bool {
        match &self.0 {
            N::Dec(d) => d.is_sign_negative() && !d.is_zero(),
            N::Bin(b) => b.repr().sign() == dashu_int::Sign::Negative,
            N::Inf(neg) => *neg,
        }
    }

    /// The value as an integer, if it is one of at most 129 bits.
    fn as_ibig(&self) -> Option<dashu_int::IBig> {
        match &self.0 {
            N::Dec(d) if d.fract().is_zero() => d.to_i128().map(dashu_int::IBig::from),
            N::Bin(b) if b.repr().is_int() => {
                let bits = b.repr().exponent() + binary::bits(b.repr().significand()) as isize;
                if bits > 129 {
                    return None;
                }
                Some(b.repr().to_int().value())
            }
            _ => None,
        }
    }

    /// The value as an `i128`, if it is an integer in range.
    pub fn as_i128(&self) -> Option<i128> {
        self.as_ibig().and_then(|i| i128::try_from(&i).ok())
    }

    /// The value as a `u128`, if it is a non-negative integer in range.
    pub fn as_u128(&self) -> Option<u128> {
        self.as_ibig().and_then(|i| u128::try_from(&i).ok())
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

    /// The nearest `f64` (correctly rounded; an infinity beyond `f64`'s
    /// range).
    pub fn as_f64(&self) -> f64 {
        match &self.0 {
            N::Dec(d) => {
                // Going through the text rounds correctly; `to_f64` may not.
                let f = d
                    .to_string()
                    .parse()
                    .unwrap_or_else(|_| d.to_f64().unwrap_or(0.0));
                if d.is_zero() && d.is_sign_negative() {
                    -0.0
                } else {
                    f
                }
            }
            N::Bin(b) => b.to_f64().value(),
            N::Inf(false) => f64::INFINITY,
            N::Inf(true) => f64::NEG_INFINITY,
        }
    }

    /// The sign bit, including that of a negative zero.
    fn sign_negative(&self) -> bool {
        match &self.0 {
            N::Dec(d) => d.is_sign_negative(),
            _ => self.is_negative(),
        }
    }

    /// Whether the number is a zero with its sign bit set (`-0`).
    pub(crate) fn is_negative_zero(&self) -> bool {
        self.is_zero() && self.sign_negative()
    }
}

/// `±digits × 10^exp10` as a `Decimal`, if it is one exactly.
fn exact_decimal(neg: bool, digits: &str, exp10: i64) -> Option<Decimal> {
    if digits.len() > 29 || !(-28..=28).contains(&exp10) {
        return None;
    }
    let mut m: u128 = digits.parse().ok()?;
    let scale = if exp10 < 0 {
        exp10.unsigned_abs() as u32
    } else {
        for _ in 0..exp10 {
            m = m.checked_mul(10)?;
        }
        0
    };
    if m >= 1 << 96 {
        return None;
    }
    let m = m as i128;
    Decimal::try_from_i128_with_scale(if neg { -m } else { m }, scale).ok()
}

impl Number {
    /// The number as text that [`Number::from_exact_text`] turns back into
    /// the same number in the same form, for the private serde encoding
    /// that hands numbers to a [`Value`](crate::Value) target exactly (see
    /// `value/de.rs`): a decimal as written with its scale and sign
    /// (`0.30`, `-0`), a binary float as `b<precision>:<significand>p<exp>`,
    /// an infinity as `inf` or `-inf`.
    pub(crate) fn to_exact_text(&self) -> String {
        match &self.0 {
            // `Decimal` prints a negative zero without its sign.
            N::Dec(d) if d.is_zero() && d.is_sign_negative() => format!("-{}", d.abs()),
            N::Dec(d) => d.to_string(),
            N::Bin(b) => binary::exact_text(b),
            N::Inf(false) => "inf".to_owned(),
            N::Inf(true) => "-inf".to_owned(),
        }
    }

    /// The inverse of [`Number::to_exact_text`]; `None` for any other text.
    pub(crate) fn from_exact_text(text: &str) -> Option<Number> {
        match text {
            "inf" => return Some(Number::INFINITY),
            "-inf" => return Some(Number::NEG_INFINITY),
            _ => {}
        }
        let (neg, body) = match text.strip_prefix('-') {
            Some(r) => (true, r),
            None => (false, text),
        };
        if body.starts_with('b') {
            let b = binary::from_exact_text(body)?;
            let n = Number(N::Bin(Box::new(b)));
            return Some(if neg { n.neg() } else { n });
        }
        if !body.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
            return None;
        }
        let mut d = Decimal::from_str_exact(text).ok()?;
        if d.is_zero() && neg {
            d.set_sign_negative(true);
        }
        Some(Number(N::Dec(d)))
    }
}

#[cfg(test)]
mod tests;
