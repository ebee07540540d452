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
//! `f64` with ports of Go's `math.Log`, `math.Pow` and amd64 `math.Exp`,
//! so their last digits are the reference's. An infinite result is an
//! infinity, as in the reference; one that is not a number is an error
//! (the reference fails with a Go panic message).

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

/// A number computed in `f64` (of 53 bits, as the reference's): an error
/// when it is NaN.
fn from_float(f: f64) -> Result<Value, FuncError> {
    if f.is_nan() {
        return Err(FuncError::new("the result is not a number (NaN)"));
    }
    Number::from_f64_binary(f)
        .map(Value::Number)
        .ok_or_else(|| FuncError::new("the result is not a number (NaN)"))
}

/// Go's `math.Frexp`: `f = frac * 2^exp` with `frac` in `[0.5, 1)`.
fn frexp(f: f64) -> (f64, i32) {
    if f == 0.0 || !f.is_finite() {
        return (f, 0);
    }
    let (f, mut exp) = if f.abs() < f64::MIN_POSITIVE {
        (f * (1u64 << 52) as f64, -52)
    } else {
        (f, 0)
    };
    let bits = f.to_bits();
    exp += i32::try_from((bits >> 52) & 0x7ff).unwrap_or(0) - 1022;
    let bits = (bits & !(0x7ff << 52)) | (1022 << 52);
    (f64::from_bits(bits), exp)
}

/// `frac * 2^exp`, scaling in steps that stay within `f64`'s range.
fn ldexp(mut frac: f64, mut exp: i32) -> f64 {
    while exp > 1000 {
        frac *= 2f64.powi(1000);
        exp -= 1000;
    }
    while exp < -1000 {
        frac *= 2f64.powi(-1000);
        exp += 1000;
    }
    frac * 2f64.powi(exp)
}

/// Go's `math.Log` (the FreeBSD algorithm that Go implements, in
/// assembly on amd64): the reference computes `log` with it, and its last
/// digit can differ from the platform's `ln`.
fn go_log(x: f64) -> f64 {
    const LN2_HI: f64 = f64::from_bits(0x3fe6_2e42_fee0_0000);
    const LN2_LO: f64 = f64::from_bits(0x3dea_39ef_3579_3c76);
    const L1: f64 = f64::from_bits(0x3FE5_5555_5555_5593);
    const L2: f64 = f64::from_bits(0x3FD9_9999_9997_FA04);
    const L3: f64 = f64::from_bits(0x3FD2_4924_9422_9359);
    const L4: f64 = f64::from_bits(0x3FCC_71C5_1D8E_78AF);
    const L5: f64 = f64::from_bits(0x3FC7_4664_96CB_03DE);
    const L6: f64 = f64::from_bits(0x3FC3_9A09_D078_C69F);
    const L7: f64 = f64::from_bits(0x3FC2_F112_DF3E_5244);
    if x.is_nan() || x == f64::INFINITY {
        return x;
    }
    if x < 0.0 {
        return f64::NAN;
    }
    if x == 0.0 {
        return f64::NEG_INFINITY;
    }
    let (mut f1, mut ki) = frexp(x);
    if f1 < std::f64::consts::SQRT_2 / 2.0 {
        f1 *= 2.0;
        ki -= 1;
    }
    let f = f1 - 1.0;
    let k = f64::from(ki);
    let s = f / (2.0 + f);
    let s2 = s * s;
    let s4 = s2 * s2;
    let t1 = s2 * (L1 + s4 * (L3 + s4 * (L5 + s4 * L7)));
    let t2 = s4 * (L2 + s4 * (L4 + s4 * L6));
    let r = t1 + t2;
    let hfsq = 0.5 * f * f;
    k * LN2_HI - ((hfsq - (s * (hfsq + r) + k * LN2_LO)) - f)
}

/// Go's `math.Exp` as its amd64 assembly computes it on a CPU with FMA
/// (the path the reference takes on this project's machines): a reduction
/// by `ln 2`, a Taylor polynomial of `x/16`, squared back four times.
// The constants are Go's decimal text verbatim, so they round to the same
// `f64`s.
#[allow(clippy::excessive_precision)]
fn go_exp(x: f64) -> f64 {
    const LOG2E: f64 = std::f64::consts::LOG2_E;
    const LN2U: f64 = 0.693_147_180_559_662_956_511_601_805_686_950_683_593_75;
    const LN2L: f64 = 0.282_352_905_630_315_771_225_884_481_750_134_360_255_254_120_68e-12;
    const OVERFLOW: f64 = 7.097_827_128_933_84e2;
    const C: [f64; 7] = [
        2.480_158_730_158_730_158_7e-5,
        1.984_126_984_126_984_127e-4,
        1.388_888_888_888_888_888_9e-3,
        8.333_333_333_333_333_333_3e-3,
        4.166_666_666_666_666_666_7e-2,
        1.666_666_666_666_666_666_7e-1,
        0.5,
    ];
    if x.is_nan() || x == f64::INFINITY {
        return x;
    }
    if x == f64::NEG_INFINITY {
        return 0.0;
    }
    if x > OVERFLOW {
        return f64::INFINITY;
    }
    // CVTSD2SL: round to nearest even; out of range gives i32::MIN.
    let t = (LOG2E * x).round_ties_even();
    let mut k: i64 = if (-2_147_483_648.0..=2_147_483_647.0).contains(&t) {
        t as i64
    } else {
        i64::from(i32::MIN)
    };
    let kf = k as f64;
    let mut r = (-kf).mul_add(LN2U, x);
    r = (-kf).mul_add(LN2L, r);
    r *= 0.0625;
    let mut p = C[0];
    for c in &C[1..] {
        p = p.mul_add(r, *c);
    }
    p = p.mul_add(r, 1.0);
    r *= p;
    for _ in 0..3 {
        let q = r + 2.0;
        r *= q;
    }
    let q = r + 2.0;
    r = r.mul_add(q, 1.0);
    // r * 2^k
    k += 0x3ff;
    if k <= 0 {
        if k < -52 {
            return 0.0;
        }
        let scale = f64::from_bits(u64::try_from(k + 0x3fe).unwrap_or(0) << 52);
        return r * scale * f64::from_bits(1 << 52);
    }
    if k >= 0x7ff {
        return f64::INFINITY;
    }
    r * f64::from_bits(u64::try_from(k).unwrap_or(0) << 52)
}

/// Whether `y` is an odd integer (Go's `isOddInt`).
fn is_odd_int(y: f64) -> bool {
    if y.abs() >= (1u64 << 53) as f64 {
        return false;
    }
    y.fract() == 0.0 && (y.trunc() as i64) & 1 == 1
}

/// Go's `math.Pow`: integer powers by repeated squaring with exact
/// binary normalisation, so `pow(1e30, 9)` has the reference's last digits;
/// a fractional part of the power goes through `exp(yf * log(x))`.
fn go_pow(x: f64, y: f64) -> f64 {
    if y == 0.0 || x == 1.0 {
        return 1.0;
    }
    if y == 1.0 {
        return x;
    }
    if x.is_nan() || y.is_nan() {
        return f64::NAN;
    }
    if x == 0.0 {
        return if y < 0.0 {
            if is_odd_int(y) {
                f64::INFINITY.copysign(x)
            } else {
                f64::INFINITY
            }
        } else if is_odd_int(y) {
            x
        } else {
            0.0
        };
    }
    if y.is_infinite() {
        return if x == -1.0 {
            1.0
        } else if (x.abs() < 1.0) == (y > 0.0) {
            0.0
        } else {
            f64::INFINITY
        };
    }
    if x.is_infinite() {
        if x < 0.0 {
            return go_pow(1.0 / x, -y);
        }
        return if y < 0.0 { 0.0 } else { f64::INFINITY };
    }
    if y == 0.5 {
        return x.sqrt();
    }
    if y == -0.5 {
        return 1.0 / x.sqrt();
    }
    let mut yi = y.abs().trunc();
    let mut yf = y.abs() - yi;
    if yf != 0.0 && x < 0.0 {
        return f64::NAN;
    }
    if yi >= 2f64.powi(63) {
        return if x == -1.0 {
            1.0
        } else if (x.abs() < 1.0) == (y > 0.0) {
            0.0
        } else {
            f64::INFINITY
        };
    }
    let mut a1 = 1.0;
    let mut ae: i32 = 0;
    if yf != 0.0 {
        if yf > 0.5 {
            yf -= 1.0;
            yi += 1.0;
        }
        a1 = go_exp(yf * go_log(x));
    }
    let (mut x1, mut xe) = frexp(x);
    let mut i = yi as i64;
    while i != 0 {
        if !(-(1 << 12)..=(1 << 12)).contains(&xe) {
            ae = ae.saturating_add(xe);
            break;
        }
        if i & 1 == 1 {
            a1 *= x1;
            ae += xe;
        }
        x1 *= x1;
        xe <<= 1;
        if x1 < 0.5 {
            x1 += x1;
            xe -= 1;
        }
        i >>= 1;
    }
    if y < 0.0 {
        a1 = 1.0 / a1;
        ae = -ae;
    }
    ldexp(a1, ae)
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
    best.map(|n| Value::Number(n.clone()))
        .ok_or_else(|| FuncError::new("must pass at least one number"))
}

pub(crate) fn min() -> FuncDef {
    FuncDef::new(|args| extreme(&args, false))
        .variadic(Param::new("numbers", Type::Number))
        .returns(Type::Number)
}

pub(crate) fn max() -> FuncDef {
    FuncDef::new(|args| extreme(&args, true))
        .variadic(Param::new("numbers", Type::Number))
        .returns(Type::Number)
}

pub(crate) fn abs() -> FuncDef {
    FuncDef::new(|args| {
        let n = args.number(0)?;
        Ok(Value::Number(unsigned_zero(if n.is_negative() {
            n.neg()
        } else {
            n.clone()
        })))
    })
    .param(Param::new("num", Type::Number))
    .returns(Type::Number)
}

/// `ceil` or `floor`: as go-cty, the result is made from an integer, so
/// `-0` comes out as `0`.
fn round(n: &Number, up: bool) -> Number {
    if n.is_integer() {
        return unsigned_zero(n.clone());
    }
    unsigned_zero(if up { n.ceil() } else { n.floor() })
}

pub(crate) fn ceil() -> FuncDef {
    FuncDef::new(|args| Ok(Value::Number(round(args.number(0)?, true))))
        .param(Param::new("num", Type::Number))
        .returns(Type::Number)
}

pub(crate) fn floor() -> FuncDef {
    FuncDef::new(|args| Ok(Value::Number(round(args.number(0)?, false))))
        .param(Param::new("num", Type::Number))
        .returns(Type::Number)
}

pub(crate) fn log() -> FuncDef {
    FuncDef::new(|args| {
        let num = args.number(0)?.as_f64();
        let base = args.number(1)?.as_f64();
        from_float(go_log(num) / go_log(base))
    })
    .param(Param::new("num", Type::Number))
    .param(Param::new("base", Type::Number))
    .returns(Type::Number)
}

pub(crate) fn pow() -> FuncDef {
    FuncDef::new(|args| {
        let num = args.number(0)?.as_f64();
        let power = args.number(1)?.as_f64();
        from_float(go_pow(num, power))
    })
    .param(Param::new("num", Type::Number))
    .param(Param::new("power", Type::Number))
    .returns(Type::Number)
}

pub(crate) fn signum() -> FuncDef {
    FuncDef::new(|args| {
        let n = whole(args.number(0)?)?;
        Ok(Value::from(n.signum()))
    })
    .param(Param::new("num", Type::Number))
    .returns(Type::Number)
}

pub(crate) fn parseint() -> FuncDef {
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
        // Go's `big.Int` has no negative zero: `parseint("-0", 10)` is 0.
        return Ok(if neg && mag != 0 { n.neg() } else { n });
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
