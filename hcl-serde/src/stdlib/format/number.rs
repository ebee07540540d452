//! Go's `fmt` number verbs over `math/big` values: decimal digits, rounding as the
//! reference's binary floats round, and the integer bases.

use super::verb::Verb;
use crate::Number;

/// A number's decimal digits: value = 0.`mant` × 10^`exp`, `mant` without
/// leading or trailing zeros (empty for zero). Go's `big` `decimal`.
struct Digits {
    neg: bool,
    mant: Vec<u8>,
    exp: i64,
    /// Where the magnitude of the reference's 512-bit binary value lies
    /// against this decimal's: `Some(true)` above, `Some(false)` below,
    /// `None` equal (or unknown). Decides ties when rounding, as Go rounds the exact
    /// decimal expansion of the binary value.
    above: Option<bool>,
}

impl Digits {
    fn of(n: &Number) -> Digits {
        let text = n.to_string();
        let (neg, text) = match text.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, text.as_str()),
        };
        let (int, frac) = text.split_once('.').unwrap_or((text, ""));
        let mut mant: Vec<u8> = int.bytes().chain(frac.bytes()).collect();
        let mut exp = i64::try_from(int.len()).unwrap_or(i64::MAX);
        let lead = mant.iter().take_while(|&&d| d == b'0').count();
        mant.drain(..lead);
        exp = exp.saturating_sub(i64::try_from(lead).unwrap_or(0));
        while mant.last() == Some(&b'0') {
            mant.pop();
        }
        if mant.is_empty() {
            exp = 0;
        }
        Digits {
            neg,
            mant,
            exp,
            above: binary_above(n),
        }
    }

    /// The digit at `i` (`0` outside the mantissa).
    fn at(&self, i: i64) -> u8 {
        usize::try_from(i)
            .ok()
            .and_then(|i| self.mant.get(i).copied())
            .unwrap_or(b'0')
    }

    /// Rounds to `n` digits, half to even on exact ties.
    fn round(&mut self, n: i64) {
        let Ok(n) = usize::try_from(n) else { return };
        if n >= self.mant.len() {
            return;
        }
        let d = self.mant.get(n).copied().unwrap_or(b'0');
        let up = if d == b'5' && n + 1 == self.mant.len() {
            match self.above {
                // |x| is above or below the tie: away from or toward zero.
                Some(above) => above,
                None => n > 0 && self.mant.get(n - 1).is_some_and(|p| (p - b'0') % 2 == 1),
            }
        } else {
            d >= b'5'
        };
        if up {
            let mut k = n;
            while k > 0 && self.mant.get(k - 1) == Some(&b'9') {
                k -= 1;
            }
            if k == 0 {
                self.mant = vec![b'1'];
                self.exp += 1;
                return;
            }
            self.mant.truncate(k);
            if let Some(last) = self.mant.last_mut() {
                *last += 1;
            }
        } else {
            self.mant.truncate(n);
            while self.mant.last() == Some(&b'0') {
                self.mant.pop();
            }
        }
    }

    /// `%e`: `d.ddde±dd` with `prec` digits after the point.
    fn fmt_e(&self, upper: bool, prec: i64, out: &mut String) {
        out.push(char::from(self.mant.first().copied().unwrap_or(b'0')));
        if prec > 0 {
            out.push('.');
            for i in 1..=prec {
                out.push(char::from(self.at(i)));
            }
        }
        out.push(if upper { 'E' } else { 'e' });
        let exp = if self.mant.is_empty() {
            0
        } else {
            self.exp - 1
        };
        out.push(if exp < 0 { '-' } else { '+' });
        let e = exp.unsigned_abs();
        if e < 10 {
            out.push('0');
        }
        out.push_str(&e.to_string());
    }

    /// `%f`: `ddd.ddd` with `prec` digits after the point.
    fn fmt_f(&self, prec: i64, out: &mut String) {
        if self.exp > 0 {
            for i in 0..self.exp {
                out.push(char::from(self.at(i)));
            }
        } else {
            out.push('0');
        }
        if prec > 0 {
            out.push('.');
            for i in 0..prec {
                out.push(char::from(self.at(self.exp + i)));
            }
        }
    }

    fn len(&self) -> i64 {
        i64::try_from(self.mant.len()).unwrap_or(i64::MAX)
    }

    /// `big.Float.Text` for `e`, `f` and `g` (`prec` < 0: shortest).
    fn text(mut self, fmt: u8, prec: Option<i64>) -> String {
        let mut out = String::new();
        if self.neg {
            out.push('-');
        }
        let shortest = prec.is_none();
        let mut prec = match prec {
            None => match fmt {
                b'e' | b'E' => self.len() - 1,
                b'f' => (self.len() - self.exp).max(0),
                _ => self.len(),
            },
            Some(p) => {
                match fmt {
                    b'e' | b'E' => self.round(1 + p),
                    b'f' => self.round(self.exp + p),
                    _ => self.round(p.max(1)),
                }
                if matches!(fmt, b'g' | b'G') {
                    p.max(1)
                } else {
                    p
                }
            }
        };
        match fmt {
            b'e' | b'E' => self.fmt_e(fmt == b'E', prec, &mut out),
            b'f' => self.fmt_f(prec, &mut out),
            _ => {
                let mut eprec = prec;
                if eprec > self.len() && self.len() >= self.exp {
                    eprec = self.len();
                }
                if shortest {
                    eprec = 6;
                }
                let exp = self.exp - 1;
                if exp < -4 || exp >= eprec {
                    if prec > self.len() {
                        prec = self.len();
                    }
                    self.fmt_e(fmt == b'G', prec - 1, &mut out);
                } else {
                    if prec > self.exp {
                        prec = self.len();
                    }
                    self.fmt_f((prec - self.exp).max(0), &mut out);
                }
            }
        }
        out
    }
}

/// Where the 512-bit binary float nearest to `n` (as the reference parses
/// a literal) lies against `n`: `Some(true)` above, `Some(false)` below,
/// `None` when `n` is exact in binary or not a decimal of at most 28
/// digits.
fn binary_above(n: &Number) -> Option<bool> {
    let d = n.as_decimal()?;
    let scale = d.scale();
    if scale == 0 {
        return None;
    }
    let m = d.mantissa().unsigned_abs();
    let p = 10u128.checked_pow(scale)?;
    if m == 0 {
        return None;
    }
    // Find s with 2^511 <= m * 2^s / p < 2^512, i.e. the binary exponent
    // that gives a 512-bit mantissa: compare m * 2^a with p for a = s - 511.
    let bits = |x: u128| i64::from(128 - x.leading_zeros());
    let mut a = bits(p) - bits(m);
    let ge = |a: i64| -> Option<bool> {
        // m * 2^a >= p ?
        if a >= 0 {
            let sh = u32::try_from(a).ok()?;
            Some(m.checked_shl(sh).filter(|v| v >> sh == m)? >= p)
        } else {
            let sh = u32::try_from(-a).ok()?;
            Some(m >= p.checked_shl(sh).filter(|v| v >> sh == p)?)
        }
    };
    if !ge(a)? {
        a += 1;
    } else if ge(a - 1)? {
        a -= 1;
    }
    let s = a + 511;
    // r = (m * 2^s) mod p; the mantissa rounds up when 2r > p.
    let mut r = m % p;
    if s >= 0 {
        for _ in 0..s {
            r = (r * 2) % p;
        }
    } else {
        // A value below 2^-511 cannot come from a 28-digit decimal.
        return None;
    }
    if r == 0 {
        return None;
    }
    Some(2 * r > p)
}

/// `%v` of a number: `big.Float.Text('g', -1)`.
pub(super) fn shortest_g(n: &Number) -> String {
    Digits::of(n).text(b'g', None)
}

/// Go's `fmt` with a `*big.Float`: `%e %E %f %g %G` with flags, width and
/// precision.
pub(super) fn format_float(verb: &Verb, n: &Number) -> String {
    let prec = if verb.has_prec {
        Some(i64::try_from(verb.prec).unwrap_or(i64::MAX))
    } else if matches!(verb.mode, b'g' | b'G') {
        None
    } else {
        Some(6)
    };
    let text = Digits::of(n).text(verb.mode, prec);
    let (sign, body) = match text.strip_prefix('-') {
        Some(rest) => ("-", rest.to_owned()),
        None if verb.plus => ("+", text),
        None if verb.space => (" ", text),
        None => ("", text),
    };
    let width = if verb.has_width { verb.width } else { 0 };
    let padding = width.saturating_sub(sign.len() + body.len());
    // Go's fmt drops the `0` flag when `-` is present.
    if verb.zero && !verb.minus {
        format!("{sign}{}{body}", "0".repeat(padding))
    } else if verb.minus {
        format!("{sign}{body}{}", " ".repeat(padding))
    } else {
        format!("{}{sign}{body}", " ".repeat(padding))
    }
}

/// Go's `fmt` with a `*big.Int`: `%b %d %o %x %X` with flags, width and
/// precision (minimum digits). `None` if `n` is not an integer.
pub(super) fn format_integer(verb: &Verb, n: &Number) -> Option<String> {
    if !n.is_integer() {
        return None;
    }
    let neg = n.is_negative() && !n.is_zero();
    let digits = match n.as_i128() {
        Some(v) => {
            let a = v.unsigned_abs();
            match verb.mode {
                b'b' => format!("{a:b}"),
                b'o' => format!("{a:o}"),
                b'x' => format!("{a:x}"),
                b'X' => format!("{a:X}"),
                _ => a.to_string(),
            }
        }
        // Beyond 128 bits: convert the decimal digits.
        None => {
            let t = n.to_string();
            let dec = t.trim_start_matches('-');
            if !dec.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            match verb.mode {
                b'b' => to_base(dec, 2, false),
                b'o' => to_base(dec, 8, false),
                b'x' => to_base(dec, 16, false),
                b'X' => to_base(dec, 16, true),
                _ => dec.to_owned(),
            }
        }
    };
    Some(finish_int(verb, neg, digits))
}

/// Converts decimal digits to another base by repeated division.
fn to_base(dec: &str, base: u32, upper: bool) -> String {
    let mut num: Vec<u32> = dec.bytes().map(|b| u32::from(b - b'0')).collect();
    let mut out = Vec::new();
    while num.iter().any(|&d| d != 0) {
        let mut rem = 0u32;
        for d in &mut num {
            let cur = rem * 10 + *d;
            *d = cur / base;
            rem = cur % base;
        }
        out.push(rem);
        let lead = num.iter().take_while(|&&d| d == 0).count();
        num.drain(..lead);
    }
    if out.is_empty() {
        out.push(0);
    }
    out.iter()
        .rev()
        .map(|&r| {
            let c = char::from_digit(r, base).unwrap_or('0');
            if upper {
                c.to_ascii_uppercase()
            } else {
                c
            }
        })
        .collect()
}

/// Sign, prefix, precision and width around an integer's digits.
fn finish_int(verb: &Verb, neg: bool, digits: String) -> String {
    let sign = if neg {
        "-"
    } else if verb.plus {
        "+"
    } else if verb.space {
        " "
    } else {
        ""
    };
    let prefix = match (verb.sharp, verb.mode) {
        (true, b'b') => "0b",
        (true, b'o') => "0",
        (true, b'x') => "0x",
        (true, b'X') => "0X",
        _ => "",
    };
    let mut zeros = 0usize;
    if verb.has_prec {
        if digits.len() < verb.prec {
            zeros = verb.prec - digits.len();
        } else if digits == "0" && verb.prec == 0 {
            return String::new();
        }
    }
    let length = sign.len() + prefix.len() + zeros + digits.len();
    let (mut left, mut right) = (0usize, 0usize);
    if verb.has_width && length < verb.width {
        let d = verb.width - length;
        if verb.minus {
            right = d;
        } else if verb.zero && !verb.has_prec {
            zeros = d;
        } else {
            left = d;
        }
    }
    format!(
        "{}{sign}{prefix}{}{digits}{}",
        " ".repeat(left),
        "0".repeat(zeros),
        " ".repeat(right)
    )
}
