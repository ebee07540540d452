//! The numeric functions: `min max abs ceil floor log pow signum
//! parseint` (go-cty 1.12.1 `stdlib/number.go`).
//!
//! Convention of every family file: one `pub fn NAME() -> FuncDef` per
//! function (re-exported as `hcl::stdlib::NAME`, documented with an
//! example), and the table below listing `("name", NAME)` for each, which
//! `stdlib/mod.rs` reads for `all()`, `Context::add_stdlib()`.
//!
//! Numbers are exact decimals where the reference keeps them exact (`min`,
//! `max`, `abs`, `ceil`, `floor`, `parseint`); `log` and `pow` compute in
//! `f64`, as the reference does. A result that is infinite or not a
//! number is an error here (the reference produces an infinity, which
//! cannot be written as JSON, or fails with a Go panic message).

use crate::eval::{FuncArgs, FuncDef, FuncError, Param, Type};
use crate::{Number, Value};

/// This family's functions: name and constructor.
pub(super) const NUMERIC: super::Table = &[
    ("min", min),
    ("max", max),
    ("abs", abs),
    ("ceil", ceil),
    ("floor", floor),
    ("log", log),
    ("pow", pow),
    ("signum", signum),
    ("parseint", parseint),
];

/// The reference's message for a number that is not a whole `i64`
/// (go-cty's `gocty.FromCtyValue` into an `int`).
pub(super) const NOT_WHOLE: &str =
    "value must be a whole number, between -9223372036854775808 and 9223372036854775807";

/// A number as a whole `i64`, or the reference's message.
pub(super) fn whole(n: &Number) -> Result<i64, &'static str> {
    if n.is_integer() {
        n.as_i64().ok_or(NOT_WHOLE)
    } else {
        Err(NOT_WHOLE)
    }
}

/// A number computed in `f64`: an error when it is infinite or NaN.
fn from_float(f: f64) -> Result<Value, FuncError> {
    if f.is_nan() {
        return Err(FuncError::new("the result is not a number (NaN)"));
    }
    Number::from_f64(f)
        .map(Value::Number)
        .ok_or_else(|| FuncError::new("the result is infinite, which HCL cannot represent"))
}

/// Zero without a sign: rounding `-0.5` up gives `0`, not `-0`.
fn unsigned_zero(n: Number) -> Number {
    if n.is_zero() {
        Number::from(0)
    } else {
        n
    }
}

fn extreme(args: &FuncArgs<'_>, greatest: bool) -> Result<Value, FuncError> {
    let mut best: Option<&Number> = None;
    for i in 0..args.len() {
        let n = args.number(i)?;
        best = match best {
            Some(b) if (greatest && n > b) || (!greatest && n < b) => Some(n),
            Some(b) => Some(b),
            None => Some(n),
        };
    }
    best.map(|n| Value::Number(*n))
        .ok_or_else(|| FuncError::new("must pass at least one number"))
}

/// `min(numbers...)`: the smallest of one or more numbers.
///
/// Arguments convert to numbers (`"1"` is `1`); `min()` with no argument
/// is an error.
///
/// ```
/// use hcl::{eval::eval_expr_str, Context, Value};
/// let ctx = Context::with_stdlib();
/// assert_eq!(eval_expr_str(r#"min(3, "1", 2)"#, &ctx)?, Value::from(1));
/// assert_eq!(eval_expr_str("min([5, 4]...)", &ctx)?, Value::from(4));
/// assert!(eval_expr_str("min()", &ctx).is_err());
/// # Ok::<(), hcl::Error>(())
/// ```
pub fn min() -> FuncDef {
    FuncDef::new(|args| extreme(&args, false))
        .variadic(Param::new("numbers", Type::Number))
        .returns(Type::Number)
}

/// `max(numbers...)`: the greatest of one or more numbers.
///
/// ```
/// use hcl::{eval::eval_expr_str, Context, Value};
/// let ctx = Context::with_stdlib();
/// assert_eq!(eval_expr_str("max(12, 54, 3)", &ctx)?, Value::from(54));
/// # Ok::<(), hcl::Error>(())
/// ```
pub fn max() -> FuncDef {
    FuncDef::new(|args| extreme(&args, true))
        .variadic(Param::new("numbers", Type::Number))
        .returns(Type::Number)
}

/// `abs(num)`: the absolute value.
///
/// ```
/// use hcl::{eval::eval_expr_str, Context, Value};
/// let ctx = Context::with_stdlib();
/// assert_eq!(eval_expr_str("abs(-12.4)", &ctx)?, eval_expr_str("12.4", &ctx)?);
/// # Ok::<(), hcl::Error>(())
/// ```
pub fn abs() -> FuncDef {
    FuncDef::new(|args| {
        let n = args.number(0)?;
        Ok(Value::Number(unsigned_zero(if n.is_negative() {
            n.neg()
        } else {
            *n
        })))
    })
    .param(Param::new("num", Type::Number))
    .returns(Type::Number)
}

fn round(n: &Number, up: bool) -> Number {
    if n.is_integer() {
        return *n;
    }
    let r = match n.as_decimal() {
        Some(d) => Number::from(if up { d.ceil() } else { d.floor() }),
        None => {
            let f = n.as_f64();
            Number::from_f64(if up { f.ceil() } else { f.floor() }).unwrap_or(*n)
        }
    };
    unsigned_zero(r)
}

/// `ceil(num)`: the smallest whole number greater than or equal to `num`.
///
/// ```
/// use hcl::{eval::eval_expr_str, Context, Value};
/// let ctx = Context::with_stdlib();
/// assert_eq!(eval_expr_str("ceil(4.1)", &ctx)?, Value::from(5));
/// assert_eq!(eval_expr_str("ceil(-0.5)", &ctx)?, Value::from(0));
/// # Ok::<(), hcl::Error>(())
/// ```
pub fn ceil() -> FuncDef {
    FuncDef::new(|args| Ok(Value::Number(round(args.number(0)?, true))))
        .param(Param::new("num", Type::Number))
        .returns(Type::Number)
}

/// `floor(num)`: the greatest whole number less than or equal to `num`.
///
/// ```
/// use hcl::{eval::eval_expr_str, Context, Value};
/// let ctx = Context::with_stdlib();
/// assert_eq!(eval_expr_str("floor(-1.5)", &ctx)?, Value::from(-2));
/// # Ok::<(), hcl::Error>(())
/// ```
pub fn floor() -> FuncDef {
    FuncDef::new(|args| Ok(Value::Number(round(args.number(0)?, false))))
        .param(Param::new("num", Type::Number))
        .returns(Type::Number)
}

/// `log(num, base)`: the logarithm of `num` in `base`, computed in `f64`
/// as `ln(num) / ln(base)` (as the reference does, so `log(8, 2)` is `3`
/// and `log(2, 10)` is `0.30102999566398114`).
///
/// A result that is infinite (`log(0, 10)`) or not a number
/// (`log(-1, 10)`) is an error.
///
/// ```
/// use hcl::{eval::eval_expr_str, Context, Value};
/// let ctx = Context::with_stdlib();
/// assert_eq!(eval_expr_str("log(100, 10)", &ctx)?, Value::from(2));
/// assert!(eval_expr_str("log(-1, 10)", &ctx).is_err());
/// # Ok::<(), hcl::Error>(())
/// ```
pub fn log() -> FuncDef {
    FuncDef::new(|args| {
        let num = args.number(0)?.as_f64();
        let base = args.number(1)?.as_f64();
        from_float(num.ln() / base.ln())
    })
    .param(Param::new("num", Type::Number))
    .param(Param::new("base", Type::Number))
    .returns(Type::Number)
}

/// `pow(num, power)`: `num` raised to `power`, computed in `f64` as the
/// reference does. An infinite or NaN result is an error.
///
/// ```
/// use hcl::{eval::eval_expr_str, Context, Value};
/// let ctx = Context::with_stdlib();
/// assert_eq!(eval_expr_str("pow(2, 10)", &ctx)?, Value::from(1024));
/// assert!(eval_expr_str("pow(0, -1)", &ctx).is_err());
/// # Ok::<(), hcl::Error>(())
/// ```
pub fn pow() -> FuncDef {
    FuncDef::new(|args| {
        let num = args.number(0)?.as_f64();
        let power = args.number(1)?.as_f64();
        from_float(num.powf(power))
    })
    .param(Param::new("num", Type::Number))
    .param(Param::new("power", Type::Number))
    .returns(Type::Number)
}

/// `signum(num)`: `-1`, `0` or `1` by the sign of `num`, which must be a
/// whole number within the `i64` range (as the reference requires).
///
/// ```
/// use hcl::{eval::eval_expr_str, Context, Value};
/// let ctx = Context::with_stdlib();
/// assert_eq!(eval_expr_str("signum(-42)", &ctx)?, Value::from(-1));
/// assert!(eval_expr_str("signum(0.5)", &ctx).is_err());
/// # Ok::<(), hcl::Error>(())
/// ```
pub fn signum() -> FuncDef {
    FuncDef::new(|args| {
        let n = whole(args.number(0)?)?;
        Ok(Value::from(n.signum()))
    })
    .param(Param::new("num", Type::Number))
    .returns(Type::Number)
}

/// `parseint(number, base)`: parses a string of digits in `base` (2 to 62)
/// into a number, as Go's `big.Int.SetString`: an optional `+` or `-`,
/// then digits `0-9`, letters `a-z` (and, up to base 36, `A-Z` for the
/// same values; from base 37, `A-Z` are the digits 36 to 61). No prefix
/// (`0x`), no underscores, no spaces.
///
/// The first argument must be a string (a number is an error, not
/// converted).
///
/// ```
/// use hcl::{eval::eval_expr_str, Context, Value};
/// let ctx = Context::with_stdlib();
/// assert_eq!(eval_expr_str(r#"parseint("FF", 16)"#, &ctx)?, Value::from(255));
/// assert_eq!(eval_expr_str(r#"parseint("-1010", 2)"#, &ctx)?, Value::from(-10));
/// assert!(eval_expr_str(r#"parseint("0x10", 16)"#, &ctx).is_err());
/// # Ok::<(), hcl::Error>(())
/// ```
pub fn parseint() -> FuncDef {
    FuncDef::new(|args| {
        let Some(text) = args.get(0).and_then(Value::as_str) else {
            let what = args
                .arg_type(0)
                .map_or_else(|| "dynamic".to_owned(), Type::friendly_name);
            return Err(FuncError::arg(
                0,
                format!("first argument must be a string, not {what}"),
            ));
        };
        let base = whole(args.number(1)?).map_err(|m| FuncError::arg(1, m))?;
        let base = u32::try_from(base)
            .ok()
            .filter(|b| (2..=62).contains(b))
            .ok_or_else(|| {
                FuncError::arg(1, "base must be a whole number between 2 and 62 inclusive")
            })?;
        parse_int(text, base).map(Value::Number).map_err(|too_big| {
            FuncError::arg(
                0,
                if too_big {
                    format!(
                        "{} is too large a number",
                        crate::eval::convert::quote(text)
                    )
                } else {
                    format!(
                        "cannot parse {} as a base {base} integer",
                        crate::eval::convert::quote(text)
                    )
                },
            )
        })
    })
    .param(Param::new("number", Type::Any))
    .param(Param::new("base", Type::Number))
    .returns(Type::Number)
}

/// The value of one digit in `base`, as Go's `big.Int.SetString`.
fn digit_value(c: u8, base: u32) -> Option<u32> {
    let d = match c {
        b'0'..=b'9' => u32::from(c - b'0'),
        b'a'..=b'z' => u32::from(c - b'a') + 10,
        b'A'..=b'Z' if base <= 36 => u32::from(c - b'A') + 10,
        b'A'..=b'Z' => u32::from(c - b'A') + 36,
        _ => return None,
    };
    (d < base).then_some(d)
}

/// Parses `text` in `base`; `Err(false)` for a malformed string,
/// `Err(true)` for a number beyond what [`Number`] holds.
fn parse_int(text: &str, base: u32) -> Result<Number, bool> {
    let (neg, digits) = match text.as_bytes().first() {
        Some(b'-') => (true, text.get(1..).unwrap_or("")),
        Some(b'+') => (false, text.get(1..).unwrap_or("")),
        _ => (false, text),
    };
    if digits.is_empty() {
        return Err(false);
    }
    let mut values = Vec::with_capacity(digits.len());
    for c in digits.bytes() {
        values.push(digit_value(c, base).ok_or(false)?);
    }
    // Exact in a u128 where it fits (the common case).
    let mut small: Option<u128> = Some(0);
    for &d in &values {
        small = small
            .and_then(|m| m.checked_mul(u128::from(base)))
            .and_then(|m| m.checked_add(u128::from(d)));
        if small.is_none() {
            break;
        }
    }
    if let Some(mag) = small {
        let n = Number::from(mag);
        return Ok(if neg { n.neg() } else { n });
    }
    // Beyond u128: a big integer in base 10^9 limbs, then its decimal text.
    // Numbers beyond f64's range cannot be held, so the work is bounded.
    let significant = values.iter().skip_while(|d| **d == 0).count();
    let bits = f64::from(base).log2() * significant as f64;
    if bits > 1030.0 {
        return Err(true);
    }
    const LIMB: u64 = 1_000_000_000;
    let mut limbs: Vec<u64> = vec![0]; // little endian
    for &d in &values {
        let mut carry = u64::from(d);
        for limb in &mut limbs {
            let v = *limb * u64::from(base) + carry;
            *limb = v % LIMB;
            carry = v / LIMB;
        }
        while carry > 0 {
            limbs.push(carry % LIMB);
            carry /= LIMB;
        }
    }
    let mut s = String::with_capacity(limbs.len() * 9 + 1);
    if neg {
        s.push('-');
    }
    let mut iter = limbs.iter().rev();
    if let Some(top) = iter.next() {
        s.push_str(&top.to_string());
    }
    for limb in iter {
        s.push_str(&format!("{limb:09}"));
    }
    Number::from_literal(&s).ok_or(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_int_as_go() {
        // oracle: parseint("zz", 36) = 1295, parseint("ZZ", 62) = 3843.
        assert_eq!(parse_int("zz", 36), Ok(Number::from(1295)));
        assert_eq!(parse_int("ZZ", 36), Ok(Number::from(1295)));
        assert_eq!(parse_int("ZZ", 62), Ok(Number::from(3843)));
        assert_eq!(parse_int("+5", 10), Ok(Number::from(5)));
        assert_eq!(parse_int("", 10), Err(false));
        assert_eq!(parse_int("-", 10), Err(false));
        assert_eq!(parse_int("1_000", 10), Err(false));
        assert_eq!(parse_int("12", 2), Err(false));
        // Beyond u128: 2^130 = 1361129467683753853853498429727072845824.
        let n = parse_int(&format!("1{}", "0".repeat(130)), 2);
        let want = Number::from_literal("1361129467683753853853498429727072845824");
        assert_eq!(n.ok(), want);
        assert_eq!(parse_int(&"f".repeat(400), 16), Err(true));
    }

    #[test]
    fn rounding_keeps_exact_values() {
        let n = |s: &str| Number::from_literal(s).unwrap_or_else(|| panic!("{s}"));
        assert_eq!(round(&n("1.2"), true), n("2"));
        assert_eq!(round(&n("-1.2"), true), n("-1"));
        assert_eq!(round(&n("-1.5"), false), n("-2"));
        assert_eq!(round(&n("-0.5"), true).to_string(), "0");
    }
}
