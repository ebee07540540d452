//! A JSON number's value: exact (`Number`), with the fast paths the
//! readers of the JSON syntax take for the common cases (an integer that
//! fits an `i64`, a short decimal, a fraction whose text is already
//! exact).

use crate::Number;

/// A JSON number's exact value.
pub(crate) fn number(text: &str) -> Option<Number> {
    if let Some(n) = short_decimal(text) {
        return Some(n);
    }
    match text.strip_prefix('-') {
        Some(rest) => Number::from_literal(rest).map(|n| n.neg()),
        None => Number::from_literal(text),
    }
}

/// The common case of [`number`] without its general parser: no exponent
/// and at most 18 digits, so that the digits fit an `i64`. The value is
/// the one `Number::from_literal` gives: zeros at the end of the fraction
/// dropped (`1.50` is `1.5`), a zero signed as written.
fn short_decimal(text: &str) -> Option<Number> {
    let (neg, body) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let (int, frac) = body.split_once('.').unwrap_or((body, ""));
    if int.is_empty() || int.len() + frac.len() > 18 {
        return None;
    }
    let mut m: i64 = 0;
    for b in int.bytes().chain(frac.bytes()) {
        if !b.is_ascii_digit() {
            return None;
        }
        m = m * 10 + i64::from(b - b'0');
    }
    let mut scale = u32::try_from(frac.len()).ok()?;
    while scale > 0 && m % 10 == 0 {
        m /= 10;
        scale -= 1;
    }
    let mut d = rust_decimal::Decimal::new(if neg { -m } else { m }, scale);
    if m == 0 {
        d = rust_decimal::Decimal::ZERO;
        d.set_sign_negative(neg);
    }
    Some(Number::from(d))
}

/// A JSON integer of at most 18 characters other than `-0`, read without
/// the general number parser: it fits an `i64`, which is how
/// `visit_number` and `visit_number_exact` hand it over.
pub(crate) fn small_int(t: &str) -> Option<i64> {
    if t.len() > 18 || t == "-0" {
        return None;
    }
    let (neg, digits) = match t.strip_prefix('-') {
        Some(d) => (true, d),
        None => (false, t),
    };
    if digits.is_empty() {
        return None;
    }
    let mut n: i64 = 0;
    for b in digits.bytes() {
        if !b.is_ascii_digit() {
            return None;
        }
        // At most 18 digits: below 10^18, no overflow.
        n = n * 10 + i64::from(b - b'0');
    }
    Some(if neg { -n } else { n })
}

/// Whether a JSON number's text is already the exact text of its
/// [`number`] (`Number::to_exact_text`, which a `Value` target receives):
/// a fraction of at most 18 digits in all, without exponent, whose last
/// digit is not `0` (so neither zero nor an integer, and with no zero for
/// [`short_decimal`] to drop).
pub(crate) fn exact_as_written(text: &str) -> bool {
    let digits = text.strip_prefix('-').unwrap_or(text);
    let Some((int, frac)) = digits.split_once('.') else {
        return false;
    };
    int.len() + frac.len() <= 18
        && !frac.ends_with('0')
        && int.bytes().chain(frac.bytes()).all(|b| b.is_ascii_digit())
}

/// A JSON number whose value is an integer within `u128` or `i128`
/// (`10.0`, `1e3`, `2.5e+2`, a long integer), other than a zero written
/// negative: its sign (`true`, negative) and magnitude. `None` for any
/// other number (and for one too long to read here).
pub(crate) fn integral(t: &str) -> Option<(bool, u128)> {
    let (neg, body) = match t.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, t),
    };
    let (mantissa, exp) = match body.find(['e', 'E']) {
        Some(at) => (body.get(..at)?, body.get(at + 1..)?),
        None => (body, "0"),
    };
    let exp_digits = exp.strip_prefix(['+', '-']).unwrap_or(exp);
    if exp_digits.is_empty()
        || exp_digits.len() > 3
        || !exp_digits.bytes().all(|b| b.is_ascii_digit())
    {
        return None;
    }
    let exp: i32 = exp.parse().ok()?;
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    if int.is_empty() || int.len() + frac.len() > 60 {
        return None;
    }
    // The digits `m`, worth `m * 10^-scale`; zeros at the end of the
    // fraction dropped first (as they do not count toward `m`'s range).
    let frac = frac.trim_end_matches('0');
    let mut m: u128 = 0;
    for b in int.bytes().chain(frac.bytes()) {
        if !b.is_ascii_digit() {
            return None;
        }
        m = m.checked_mul(10)?.checked_add(u128::from(b - b'0'))?;
    }
    let mut scale = i32::try_from(frac.len()).ok()? - exp;
    while scale > 0 && m % 10 == 0 && m != 0 {
        m /= 10;
        scale -= 1;
    }
    if m == 0 {
        // Zero, whatever its scale: not a negative one.
        return (!neg).then_some((false, 0));
    }
    if scale > 0 {
        return None;
    }
    while scale < 0 {
        m = m.checked_mul(10)?;
        scale += 1;
    }
    if neg && m > i128::MIN.unsigned_abs() {
        return None;
    }
    Some((neg, m))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fast path reads every number it takes as the general parser
    /// does, in the same form (scale and sign of zero included).
    #[test]
    fn short_decimal_is_the_general_parse() {
        let general = |t: &str| match t.strip_prefix('-') {
            Some(rest) => Number::from_literal(rest).map(|n| n.neg()),
            None => Number::from_literal(t),
        };
        let cases = [
            "0",
            "-0",
            "0.0",
            "-0.000",
            "1",
            "-1",
            "10",
            "120",
            "1.20",
            "10.0",
            "0.25",
            "12.5",
            "-12.50",
            "0.001",
            "100.001",
            "123456789012345678",
            "-123456789012345678",
            "999999999999999999",
            "0.00000000000000001",
            "1.00000000000000000",
            "1234567890123456789",
            "1e5",
            "1.5E-3",
            "-0e0",
        ];
        for t in cases {
            let fast = short_decimal(t);
            let slow = general(t);
            if let Some(f) = &fast {
                let s = slow.as_ref().map(Number::to_exact_text);
                assert_eq!(Some(f.to_exact_text()), s, "{t}");
            }
            assert_eq!(
                number(t).map(|n| n.to_exact_text()),
                slow.map(|n| n.to_exact_text()),
                "{t}"
            );
        }
        assert!(short_decimal("1234567890123456789").is_none());
        assert!(short_decimal("1e5").is_none());
    }

    /// The integer fast path reads what `str::parse` reads.
    #[test]
    fn small_int_is_parse() {
        for t in [
            "0",
            "-0",
            "7",
            "-7",
            "10",
            "120",
            "-120",
            "999999999999999999",
            "-99999999999999999",
            "1000000000000000000",
            "1.5",
            "1e5",
            "-",
            "",
        ] {
            let expected = (t.len() <= 18 && t != "-0")
                .then(|| t.parse::<i64>().ok())
                .flatten();
            assert_eq!(small_int(t), expected, "{t}");
        }
    }

    /// A number whose text is taken as its exact text has that text.
    #[test]
    fn exact_as_written_is_the_exact_text() {
        let mut taken = 0;
        for int in ["0", "1", "12", "100", "123456789", "12345678901234567"] {
            for frac in [
                "",
                "0",
                "5",
                "25",
                "50",
                "001",
                "0100",
                "1",
                "05",
                "00000000000000001",
            ] {
                for sign in ["", "-"] {
                    let t = match frac {
                        "" => format!("{sign}{int}"),
                        f => format!("{sign}{int}.{f}"),
                    };
                    let exact = number(&t).map(|n| n.to_exact_text());
                    if exact_as_written(&t) {
                        taken += 1;
                        assert_eq!(exact.as_deref(), Some(t.as_str()), "{t}");
                    }
                }
            }
        }
        assert!(taken > 20);
        for t in [
            "1e5",
            "1.5e2",
            "0.0",
            "-0.0",
            "1.50",
            "12",
            "1234567890.123456789",
        ] {
            assert!(!exact_as_written(t), "{t}");
        }
    }
}
