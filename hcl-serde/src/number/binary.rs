//! The reference's text for an inexact quotient.
//!
//! The reference (go-cty) computes with 512-bit binary floats and prints a
//! number as the shortest decimal that reads back as the same 512-bit
//! float (Go's `big.Float.Text('f', -1)`). For exact decimals that is the
//! decimal itself, which is what [`Number`](super::Number) prints. A
//! quotient that does not terminate (`1 / 3`) is different: the reference
//! prints `0.333…335` with about 155 digits. This module reproduces that
//! text from the exact operands: it rounds `a / b` to a 512-bit binary
//! float (nearest, ties to even) and applies Go's shortest-decimal
//! algorithm (`math/big/ftoa.go`, `roundShortest`).
//!
//! Only this formatting uses it; arithmetic stays decimal.

use rust_decimal::Decimal;
use std::cmp::Ordering;

/// The reference's mantissa precision, in bits.
const PREC: u64 = 512;

/// A small unsigned big integer, little-endian 32-bit limbs, no leading
/// zero limb.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Big(Vec<u32>);

impl Big {
    fn from_u128(mut x: u128) -> Big {
        let mut v = Vec::new();
        while x > 0 {
            v.push(x as u32);
            x >>= 32;
        }
        Big(v)
    }

    fn is_zero(&self) -> bool {
        self.0.is_empty()
    }

    fn trim(mut self) -> Big {
        while self.0.last() == Some(&0) {
            self.0.pop();
        }
        self
    }

    fn bits(&self) -> u64 {
        match self.0.last() {
            None => 0,
            Some(top) => (self.0.len() as u64 - 1) * 32 + u64::from(32 - top.leading_zeros()),
        }
    }

    fn bit(&self, i: u64) -> bool {
        let limb = (i / 32) as usize;
        self.0.get(limb).is_some_and(|l| (l >> (i % 32)) & 1 == 1)
    }

    fn shl(&self, n: u64) -> Big {
        if self.is_zero() {
            return Big(Vec::new());
        }
        let limbs = (n / 32) as usize;
        let bits = (n % 32) as u32;
        let mut v = vec![0u32; limbs];
        let mut carry = 0u32;
        for &l in &self.0 {
            if bits == 0 {
                v.push(l);
            } else {
                v.push((l << bits) | carry);
                carry = l >> (32 - bits);
            }
        }
        if carry != 0 {
            v.push(carry);
        }
        Big(v).trim()
    }

    fn shr(&self, n: u64) -> Big {
        let limbs = (n / 32) as usize;
        let bits = (n % 32) as u32;
        let src = self.0.get(limbs..).unwrap_or_default();
        let mut v = Vec::with_capacity(src.len());
        for (i, &l) in src.iter().enumerate() {
            let hi = src.get(i + 1).copied().unwrap_or(0);
            v.push(if bits == 0 {
                l
            } else {
                (l >> bits) | (hi << (32 - bits))
            });
        }
        Big(v).trim()
    }

    fn cmp(&self, o: &Big) -> Ordering {
        self.0
            .len()
            .cmp(&o.0.len())
            .then_with(|| self.0.iter().rev().cmp(o.0.iter().rev()))
    }

    fn add(&self, o: &Big) -> Big {
        let n = self.0.len().max(o.0.len());
        let mut v = Vec::with_capacity(n + 1);
        let mut carry = 0u64;
        for i in 0..n {
            let s = u64::from(self.0.get(i).copied().unwrap_or(0))
                + u64::from(o.0.get(i).copied().unwrap_or(0))
                + carry;
            v.push(s as u32);
            carry = s >> 32;
        }
        if carry != 0 {
            v.push(carry as u32);
        }
        Big(v).trim()
    }

    /// `self - o`; `o` must not exceed `self`.
    fn sub(&self, o: &Big) -> Big {
        let mut v = Vec::with_capacity(self.0.len());
        let mut borrow = 0i64;
        for (i, &l) in self.0.iter().enumerate() {
            let mut d = i64::from(l) - i64::from(o.0.get(i).copied().unwrap_or(0)) - borrow;
            borrow = 0;
            if d < 0 {
                d += 1 << 32;
                borrow = 1;
            }
            v.push(d as u32);
        }
        Big(v).trim()
    }

    fn mul_small(&self, m: u32) -> Big {
        let mut v = Vec::with_capacity(self.0.len() + 1);
        let mut carry = 0u64;
        for &l in &self.0 {
            let p = u64::from(l) * u64::from(m) + carry;
            v.push(p as u32);
            carry = p >> 32;
        }
        if carry != 0 {
            v.push(carry as u32);
        }
        Big(v).trim()
    }

    fn pow(base: u32, mut e: u64) -> Big {
        let mut r = Big::from_u128(1);
        while e > 0 {
            r = r.mul_small(base);
            e -= 1;
        }
        r
    }

    /// Quotient and remainder, by binary long division (the numbers here
    /// have about a thousand bits; this runs only to print a quotient).
    fn divrem(&self, d: &Big) -> (Big, Big) {
        let mut q = vec![0u32; self.0.len()];
        let mut r = Big(Vec::new());
        for i in (0..self.bits()).rev() {
            r = r.shl(1);
            if self.bit(i) {
                r = r.add(&Big::from_u128(1));
            }
            if r.cmp(d) != Ordering::Less {
                r = r.sub(d);
                if let Some(limb) = q.get_mut((i / 32) as usize) {
                    *limb |= 1 << (i % 32);
                }
            }
        }
        (Big(q).trim(), r)
    }

    /// `(quotient, remainder)` of division by a small number.
    fn divrem_small(&self, d: u32) -> (Big, u32) {
        let mut q = vec![0u32; self.0.len()];
        let mut r = 0u64;
        for (i, &l) in self.0.iter().enumerate().rev() {
            let cur = (r << 32) | u64::from(l);
            if let Some(slot) = q.get_mut(i) {
                *slot = (cur / u64::from(d)) as u32;
            }
            r = cur % u64::from(d);
        }
        (Big(q).trim(), r as u32)
    }

    /// Decimal digits (most significant first), empty for zero.
    fn digits(&self) -> Vec<u8> {
        let mut out = Vec::new();
        let mut x = self.clone();
        while !x.is_zero() {
            let (q, r) = x.divrem_small(1_000_000_000);
            let mut chunk = r;
            let last = q.is_zero();
            for _ in 0..9 {
                out.push((chunk % 10) as u8);
                chunk /= 10;
                if last && chunk == 0 {
                    break;
                }
            }
            x = q;
        }
        while out.last() == Some(&0) {
            out.pop();
        }
        out.reverse();
        out
    }
}

/// A decimal as Go's `math/big` `decimal`: digits (no leading or trailing
/// zeros) and `exp` such that the value is `0.digits × 10^exp`.
struct Dec {
    mant: Vec<u8>,
    exp: i64,
}

impl Dec {
    /// The exact decimal of `m × 2^shift`.
    fn of(m: &Big, shift: i64) -> Dec {
        let (digits, point) = if shift >= 0 {
            let d = m.shl(shift.unsigned_abs()).digits();
            let n = d.len() as i64;
            (d, n)
        } else {
            let k = shift.unsigned_abs();
            let d = m.mul_big(&Big::pow(5, k)).digits();
            let n = d.len() as i64;
            (d, n - k as i64)
        };
        let mut mant = digits;
        while mant.last() == Some(&0) {
            mant.pop();
        }
        Dec { mant, exp: point }
    }

    fn at(&self, i: usize) -> u8 {
        self.mant.get(i).copied().unwrap_or(0)
    }

    fn round_down(&mut self, n: usize) {
        self.mant.truncate(n);
        while self.mant.last() == Some(&0) {
            self.mant.pop();
        }
    }

    fn round_up(&mut self, n: usize) {
        self.mant.truncate(n);
        // Add one at position n-1, carrying.
        while let Some(last) = self.mant.last_mut() {
            if *last < 9 {
                *last += 1;
                return;
            }
            self.mant.pop();
        }
        // All nines: 0.999 -> 1.
        self.mant.push(1);
        self.exp += 1;
    }

    fn round(&mut self, n: usize) {
        let up = match self.mant.get(n) {
            Some(5) if n + 1 == self.mant.len() => {
                n > 0 && self.mant.get(n - 1).is_some_and(|d| d % 2 == 1)
            }
            Some(d) => *d >= 5,
            None => false,
        };
        if up {
            self.round_up(n);
        } else {
            self.round_down(n);
        }
    }

    /// `%f` with as many fraction digits as needed (Go's `fmtF` for the
    /// shortest form).
    fn format(&self, neg: bool) -> String {
        let mut s = String::new();
        if neg {
            s.push('-');
        }
        let digit = |d: u8| char::from(b'0' + d);
        if self.exp > 0 {
            for i in 0..self.exp {
                s.push(digit(self.at(i as usize)));
            }
        } else {
            s.push('0');
        }
        let frac = (self.mant.len() as i64 - self.exp).max(0);
        if frac > 0 {
            s.push('.');
            for i in 0..frac {
                let idx = self.exp + i;
                s.push(if idx < 0 {
                    '0'
                } else {
                    digit(self.at(idx as usize))
                });
            }
        }
        s
    }
}

impl Big {
    fn mul_big(&self, o: &Big) -> Big {
        let mut v = vec![0u32; self.0.len() + o.0.len()];
        for (i, &a) in self.0.iter().enumerate() {
            let mut carry = 0u64;
            for (j, &b) in o.0.iter().enumerate() {
                if let Some(slot) = v.get_mut(i + j) {
                    let t = u64::from(*slot) + u64::from(a) * u64::from(b) + carry;
                    *slot = t as u32;
                    carry = t >> 32;
                }
            }
            let mut k = i + o.0.len();
            while carry != 0 {
                if let Some(slot) = v.get_mut(k) {
                    let t = u64::from(*slot) + carry;
                    *slot = t as u32;
                    carry = t >> 32;
                    k += 1;
                } else {
                    break;
                }
            }
        }
        Big(v).trim()
    }
}

/// `num / den` rounded to a PREC-bit mantissa `m` (top bit set), nearest
/// with ties to even: returns `(m, e)` with `num / den ≈ m × 2^e`.
fn round_prec(num: &Big, den: &Big) -> Option<(Big, i64)> {
    if num.is_zero() || den.is_zero() {
        return None;
    }
    // A quotient of PREC + 2 or PREC + 3 bits, then round to PREC.
    let k = i64::try_from(PREC + 2 + den.bits()).ok()? - i64::try_from(num.bits()).ok()?;
    let (q, r) = if k >= 0 {
        num.shl(k.unsigned_abs()).divrem(den)
    } else {
        num.divrem(&den.shl(k.unsigned_abs()))
    };
    let extra = q.bits().checked_sub(PREC)?;
    let mut m = q.shr(extra);
    let half = extra > 0 && q.bit(extra - 1);
    let sticky = !r.is_zero() || (0..extra.saturating_sub(1)).any(|i| q.bit(i));
    let mut e = i64::try_from(extra).ok()? - k;
    if half && (sticky || m.bit(0)) {
        m = m.add(&Big::from_u128(1));
        if m.bits() > PREC {
            m = m.shr(1);
            e += 1;
        }
    }
    Some((m, e))
}

/// The reference's text for `a / b` (`b` not zero), computed as go-cty
/// does: each operand and the quotient rounded to 512-bit binary floats,
/// then printed as the shortest decimal that reads back as that float.
pub(crate) fn quotient_text(a: Decimal, b: Decimal) -> Option<String> {
    if b.is_zero() {
        return None;
    }
    let neg = a.is_sign_negative() != b.is_sign_negative() && !a.is_zero();
    if a.is_zero() {
        return Some("0".to_owned());
    }
    // As the reference: each operand rounded to PREC bits, then the
    // quotient of those rounded to PREC bits.
    let ten = |s: u32| Big::pow(10, u64::from(s));
    let (ma, ea) = round_prec(
        &Big::from_u128(a.mantissa().unsigned_abs()),
        &ten(a.scale()),
    )?;
    let (mb, eb) = round_prec(
        &Big::from_u128(b.mantissa().unsigned_abs()),
        &ten(b.scale()),
    )?;
    let (m, eq) = round_prec(&ma, &mb)?;
    let e = eq + ea - eb;
    // x = m * 2^e with PREC bits. Go's roundShortest:
    let d_exact = Dec::of(&m, e);
    let mant2 = m.shl(1); // lsb = 1/2 ulp
    let exp2 = e - 1;
    let lower = Dec::of(&mant2.sub(&Big::from_u128(1)), exp2);
    let upper = Dec::of(&mant2.add(&Big::from_u128(1)), exp2);
    let inclusive = !m.bit(0);
    let mut d = d_exact;
    let n = d.mant.len();
    for i in 0..n {
        let md = d.at(i);
        let l = lower.at(i);
        let u = upper.at(i);
        let okdown = l != md || (inclusive && i + 1 == lower.mant.len());
        let okup = md != u && (inclusive || md + 1 < u || i + 1 < upper.mant.len());
        if okdown && okup {
            d.round(i + 1);
            break;
        } else if okdown {
            d.round_down(i + 1);
            break;
        } else if okup {
            d.round_up(i + 1);
            break;
        }
    }
    Some(d.format(neg))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(a: &str, b: &str) -> Option<String> {
        let a: Decimal = a.parse().ok()?;
        let b: Decimal = b.parse().ok()?;
        quotient_text(a, b)
    }

    #[test]
    fn one_third_as_the_reference() {
        // conformance templates/interpolation_one_third_full_precision
        let third = "0.33333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333335";
        assert_eq!(q("1", "3").as_deref(), Some(third));
    }

    #[test]
    fn other_quotients_match_the_oracle() {
        // Values from `hcl-oracle expr` on "${A / B}".
        for (a, b, want) in ORACLE {
            assert_eq!(q(a, b).as_deref(), Some(*want), "{a} / {b}");
        }
    }

    #[rustfmt::skip]
    const ORACLE: &[(&str, &str, &str)] = &[
        ("1", "3", "0.33333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333335"),
        ("2", "3", "0.6666666666666666666666666666666666666666666666666666666666666666666666666666666666666666666666666666666666666666666666666666666666666666666666666666666667"),
        ("10", "3", "3.3333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333332"),
        ("1", "7", "0.14285714285714285714285714285714285714285714285714285714285714285714285714285714285714285714285714285714285714285714285714285714285714285714285714285714285"),
        ("0.1", "0.3", "0.3333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333"),
        ("22", "7", "3.1428571428571428571428571428571428571428571428571428571428571428571428571428571428571428571428571428571428571428571428571428571428571428571428571428571428"),
        ("-1", "3", "-0.33333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333335"),
        ("1", "6", "0.16666666666666666666666666666666666666666666666666666666666666666666666666666666666666666666666666666666666666666666666666666666666666666666666666666666667"),
        ("5", "9", "0.55555555555555555555555555555555555555555555555555555555555555555555555555555555555555555555555555555555555555555555555555555555555555555555555555555555554"),
        ("0.00001", "3", "0.0000033333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333332"),
        ("123456789", "1000003", "123.45641863074410776767669696990909027272918181245456263631209106372680881957354127937616187151438545684362946911159266522200433398699803900588298235105295"),
        ("1", "81", "0.012345679012345679012345679012345679012345679012345679012345679012345679012345679012345679012345679012345679012345679012345679012345679012345679012345679013"),
        ("100", "7", "14.285714285714285714285714285714285714285714285714285714285714285714285714285714285714285714285714285714285714285714285714285714285714285714285714285714286"),
        ("1.5", "0.7", "2.1428571428571428571428571428571428571428571428571428571428571428571428571428571428571428571428571428571428571428571428571428571428571428571428571428571428"),
        ("7", "0.3", "23.333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333332"),
        ("1", "3000000000000000000000000000", "0.00000000000000000000000000033333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333"),
    ];
}
