//! Unit tests of `Number`; expected values from `hcl-oracle expr`.

use super::*;

fn n(s: &str) -> Number {
    Number::parse(s).unwrap_or_else(|| panic!("bad literal {s}"))
}

#[test]
fn exact_text_round_trips_every_form() {
    let third = n("1").checked_div(&n("3")).unwrap_or(Number::ZERO);
    let neg_zero = n("0").neg();
    let cases = [
        n("0.30"),
        n("-2.5"),
        neg_zero.clone(),
        n("1e30"),
        n("-1e30"),
        n("1e-40"),
        n("1e400"),
        third.clone(),
        third.neg(),
        Number::INFINITY,
        Number::NEG_INFINITY,
        Number::from_f64(2f64.powi(128)).unwrap_or(Number::ZERO),
    ];
    for x in cases {
        let text = x.to_exact_text();
        let back = Number::from_exact_text(&text).unwrap_or_else(|| panic!("{text}"));
        assert_eq!(back, x, "{text}");
        assert_eq!(back.to_string(), x.to_string(), "{text}");
        assert_eq!(back.to_exact_text(), text);
    }
    assert_eq!(neg_zero.to_exact_text(), "-0");
    for bad in [
        "", "-", "abc", "1/0", "1/x", "1e999", "--1", "0x10", "b512:0p1",
    ] {
        assert!(Number::from_exact_text(bad).is_none(), "{bad}");
    }
}

#[test]
fn exact_decimal_arithmetic() {
    assert_eq!(n("0.1").checked_add(&n("0.2")), Ok(n("0.3")));
    assert_eq!(n("1.1").checked_mul(&n("3")), Ok(n("3.3")));
    assert!(n("0.1")
        .checked_add(&n("0.2"))
        .is_ok_and(|x| x.as_decimal().is_some()));
    // 1/3 is a 512-bit float, printed as the reference prints it (155
    // digits; conformance templates/interpolation_one_third_full_precision)
    let third = n("1").checked_div(&n("3")).unwrap_or(Number::ZERO);
    let text = third.to_string();
    assert_eq!(text.len(), 157);
    assert!(
        text.starts_with("0.3333") && text.ends_with("3335"),
        "{text}"
    );
    assert!(third.as_decimal().is_none());
    // oracle: (1/3)*3 is 1
    assert_eq!(
        third.checked_mul(&n("3")).map(|x| x.to_string()),
        Ok("1".to_owned())
    );
    // 1/8 is exact: plain decimal.
    assert_eq!(
        n("1").checked_div(&n("8")).map(|x| x.to_string()),
        Ok("0.125".to_owned())
    );
}

#[test]
fn beyond_decimal_range() {
    assert_eq!(n("1e30").to_string(), "1000000000000000000000000000000");
    assert_eq!(n("1e-40").as_f64(), 1e-40);
    let big = n("18446744073709551616").checked_mul(&n("1000000000000"));
    assert_eq!(
        big.clone().map(|x| x.as_u128()),
        Ok(Some(18446744073709551616u128 * 1000000000000))
    );
    assert_eq!(
        big.map(|x| x.to_string()),
        Ok("18446744073709551616000000000000".to_owned())
    );
    // oracle: 340282366920938463463374607431768211456 / 18446744073709551616
    assert_eq!(
        n("340282366920938463463374607431768211456")
            .checked_div(&n("18446744073709551616"))
            .map(|x| x.to_string()),
        Ok("18446744073709551616".to_owned())
    );
    // oracle: "${1e-400}" and 1e400 print all their digits.
    let tiny = n("1e-400").to_string();
    assert_eq!(tiny.len(), 402);
    assert!(tiny.starts_with("0.000") && tiny.ends_with("0001"));
    assert_eq!(n("1e400").to_string(), format!("1{}", "0".repeat(400)));
    assert_eq!(
        n("1e308").checked_mul(&n("10")).map(|x| x.as_f64()),
        Ok(f64::INFINITY)
    );
    assert_eq!(
        n("1e308").checked_mul(&n("10")).map(|x| x.to_string()),
        Ok(format!("1{}", "0".repeat(309)))
    );
    // oracle: 1/300000000000000000
    assert_eq!(
        n("1").checked_div(&n("300000000000000000")).map(|x| x.to_string()),
        Ok("0.0000000000000000033333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333334".to_owned())
    );
    // Beyond the exponent bound: infinity, zero.
    assert_eq!(n("1e400000"), Number::INFINITY);
    assert!(n("-1e-400000").is_negative_zero());
}

#[test]
fn infinities() {
    assert_eq!(n("1").checked_div(&n("0")), Ok(Number::INFINITY));
    assert_eq!(n("-1").checked_div(&n("0")), Ok(Number::NEG_INFINITY));
    assert_eq!(n("1").checked_div(&n("0").neg()), Ok(Number::NEG_INFINITY));
    assert_eq!(n("0").checked_div(&n("0")), Err(NumberError::NotANumber));
    let inf = Number::INFINITY;
    assert_eq!(inf.checked_sub(&inf), Err(NumberError::NotANumber));
    assert_eq!(inf.checked_add(&inf), Ok(Number::INFINITY));
    assert_eq!(inf.checked_mul(&n("0")), Err(NumberError::NotANumber));
    assert_eq!(inf.checked_rem(&n("5")), Err(NumberError::NotANumber));
    assert_eq!(n("5").checked_rem(&inf), Err(NumberError::NotANumber));
    assert!(n("1").checked_div(&inf).is_ok_and(|x| x.is_zero()));
    assert!(inf > n("1e400") && inf.neg() < n("-1e400"));
    assert_eq!(inf.to_string(), "+Inf");
    assert_eq!(inf.neg().to_string(), "-Inf");
    assert_eq!(Number::parse("Inf"), Some(Number::INFINITY));
    assert_eq!(Number::parse("-inf"), Some(Number::NEG_INFINITY));
    assert!(Number::parse("infinity").is_none() && Number::parse("INF").is_none());
    assert!(!inf.is_integer() && inf.as_i64().is_none());
}

#[test]
fn parse_as_the_reference() {
    // oracle: tonumber(...)
    assert_eq!(Number::parse("1."), Some(n("1")));
    assert_eq!(Number::parse(".5"), Some(n("0.5")));
    assert_eq!(Number::parse("+5"), Some(n("5")));
    for bad in [
        "", ".", "1e", "1e+", " 1", "1 ", "0x10", "1_0", "NaN", "e5", "--1", "1.2.3",
    ] {
        assert!(Number::parse(bad).is_none(), "{bad}");
    }
    assert!(Number::parse("1e99999999999999999999").is_none());
}

#[test]
fn division_and_remainder() {
    // The reference gives `5 % 0 == 5` (conformance operators/modulo_by_zero).
    assert_eq!(n("5").checked_rem(&n("0")), Ok(n("5")));
    assert_eq!(n("-7").checked_rem(&n("3")), Ok(n("-1")));
    assert_eq!(n("7").checked_rem(&n("-3")), Ok(n("1")));
    // oracle: 1e30 % 3.3 is 1, -1e30 % 3.3 is -1
    assert_eq!(n("1e30").checked_rem(&n("3.3")), Ok(n("1")));
    assert_eq!(n("-1e30").checked_rem(&n("3.3")), Ok(n("-1")));
    // An exact zero remainder (oracle: `3 % (0.1 % 1e3)` is 0).
    assert_eq!(n("3").checked_rem(&n("0.1")).map(|x| x.is_zero()), Ok(true));
}

#[test]
fn conversions() {
    assert_eq!(n("18446744073709551615").as_u64(), Some(u64::MAX));
    assert_eq!(n("18446744073709551616").as_u64(), None);
    assert_eq!(n("-9223372036854775808").as_i64(), Some(i64::MIN));
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
    assert_eq!(Number::from(u128::MAX).to_string(), u128::MAX.to_string());
    assert_eq!(n("2.5").as_f64(), 2.5);
    assert_eq!(n("2.5").as_i64(), None);
    assert_eq!(Number::from_f64(0.1), Some(n("0.1")));
    assert_eq!(Number::from_f64(f64::NAN), None);
    assert_eq!(Number::from_f64(f64::INFINITY), Some(Number::INFINITY));
    // oracle: pow(2, 128) (an f64 result) prints with its 53 bits' digits
    assert_eq!(
        Number::from_f64(2f64.powi(128)).map(|x| x.to_string()),
        Some("340282366920938500000000000000000000000".to_owned())
    );
    assert_eq!(n("1.50").to_string(), "1.5");
    // oracle: "=${-0 - 0}" is "=-0", "=${-0 + 0}" is "=0", "=${-0 - -0}" "=0"
    let zero_sum = |a: &str, b: &str, sub: bool| {
        let (a, b) = (n(a), n(b));
        let r = if sub {
            a.checked_sub(&b)
        } else {
            a.checked_add(&b)
        };
        r.map(|x| x.to_string()).unwrap_or_default()
    };
    assert_eq!(zero_sum("-0", "0", true), "-0");
    assert_eq!(zero_sum("-0", "0", false), "0");
    assert_eq!(zero_sum("-0", "-0", true), "0");
    assert_eq!(zero_sum("-0", "-0", false), "-0");
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

#[test]
fn equal_numbers_hash_alike() {
    use std::collections::HashSet;
    let third = n("1").checked_div(&n("3")).unwrap_or(Number::ZERO);
    let one = third.checked_mul(&n("3")).unwrap_or(Number::ZERO);
    let set: HashSet<Number> = [n("1"), one, n("1.0"), n("0"), n("0").neg()]
        .into_iter()
        .collect();
    assert_eq!(set.len(), 2);
}
