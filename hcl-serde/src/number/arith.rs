//! Arithmetic on numbers: exact on decimals, 512-bit binary floats beyond.

use super::binary::{self, Bf, Out};
use super::{from_out, Number, NumberError, N};

impl Number {
    /// `self + other`.
    ///
    /// # Errors
    /// [`NumberError::NotANumber`] for `inf + -inf`.
    pub fn checked_add(&self, other: &Number) -> Result<Number, NumberError> {
        self.add_sub(other, false)
    }

    /// `self - other`.
    ///
    /// # Errors
    /// [`NumberError::NotANumber`] for `inf - inf`.
    pub fn checked_sub(&self, other: &Number) -> Result<Number, NumberError> {
        self.add_sub(other, true)
    }

    fn add_sub(&self, other: &Number, sub: bool) -> Result<Number, NumberError> {
        match (&self.0, &other.0) {
            (N::Inf(a), N::Inf(b)) => {
                if (*a == *b) != sub {
                    Ok(self.clone())
                } else {
                    Err(NumberError::NotANumber)
                }
            }
            (N::Inf(_), _) => Ok(self.clone()),
            (_, N::Inf(b)) => Ok(Number(N::Inf(*b != sub))),
            // An exact zero sum is `+0` unless both terms are `-0` (Go's
            // rounding to nearest): `-0 - 0` is `-0`, `-0 + 0` is `0`.
            (N::Dec(a), N::Dec(b)) if a.is_zero() && b.is_zero() => Ok(Number::signed_zero(
                a.is_sign_negative() && (b.is_sign_negative() != sub),
            )),
            (N::Dec(a), N::Dec(b)) => {
                let r = if sub {
                    a.checked_sub(*b)
                } else {
                    a.checked_add(*b)
                };
                // Exact unless rounded to fewer places than the operands'.
                match r {
                    Some(r) if r.scale() >= a.scale().max(b.scale()) => Ok(Number(N::Dec(r))),
                    _ => Ok(self.binary_op(other, if sub { binary::sub } else { binary::add })),
                }
            }
            _ => Ok(self.binary_op(other, if sub { binary::sub } else { binary::add })),
        }
    }

    /// The operation on both operands as binary floats (both finite).
    fn binary_op(&self, other: &Number, op: fn(&Bf, &Bf) -> Out) -> Number {
        match (self.bin(), other.bin()) {
            (Some(a), Some(b)) => from_out(op(&a, &b)),
            _ => Number::ZERO,
        }
    }

    /// `self * other`.
    ///
    /// # Errors
    /// [`NumberError::NotANumber`] for `0 * inf`.
    pub fn checked_mul(&self, other: &Number) -> Result<Number, NumberError> {
        let neg = self.sign_negative() != other.sign_negative();
        if self.is_infinite() || other.is_infinite() {
            if self.is_zero() || other.is_zero() {
                return Err(NumberError::NotANumber);
            }
            return Ok(Number(N::Inf(neg)));
        }
        // As the reference's binary floats: a zero product has the sign of
        // the operands' signs combined (`-1 * 0` is `-0`).
        if self.is_zero() || other.is_zero() {
            return Ok(Number::signed_zero(neg));
        }
        if let (N::Dec(a), N::Dec(b)) = (&self.0, &other.0) {
            if let Some(r) = a.checked_mul(*b) {
                if r.scale() == a.scale() + b.scale() {
                    return Ok(Number(N::Dec(r)));
                }
            }
        }
        Ok(self.binary_op(other, binary::mul))
    }

    /// `self / other`.
    ///
    /// # Errors
    /// [`NumberError::NotANumber`] for `0 / 0` and `inf / inf`. As in the
    /// reference, `x / 0` is an infinity with the sign of `x` (and of the
    /// zero).
    pub fn checked_div(&self, other: &Number) -> Result<Number, NumberError> {
        let neg = self.sign_negative() != other.sign_negative();
        match (self.is_infinite(), other.is_infinite()) {
            (true, true) => return Err(NumberError::NotANumber),
            (true, false) => return Ok(Number(N::Inf(neg))),
            (false, true) => return Ok(Number::signed_zero(neg)),
            (false, false) => {}
        }
        if other.is_zero() {
            if self.is_zero() {
                return Err(NumberError::NotANumber);
            }
            return Ok(Number(N::Inf(neg)));
        }
        if self.is_zero() {
            return Ok(Number::signed_zero(neg));
        }
        if let (N::Dec(a), N::Dec(b)) = (&self.0, &other.0) {
            if let Some(q) = a.checked_div(*b) {
                let exact = match q.checked_mul(*b) {
                    Some(p) => p == *a && p.scale() == q.scale() + b.scale(),
                    None => false,
                };
                if exact {
                    return Ok(Number(N::Dec(q)));
                }
            }
        }
        Ok(self.binary_op(other, binary::div))
    }

    /// The remainder of `self / other`, with the sign of `self` (truncated
    /// division, as the reference). As in the reference, `x % 0` is `x`.
    ///
    /// # Errors
    /// [`NumberError::NotANumber`] if either operand is infinite (an
    /// error in the reference too).
    pub fn checked_rem(&self, other: &Number) -> Result<Number, NumberError> {
        if self.is_infinite() || other.is_infinite() {
            return Err(NumberError::NotANumber);
        }
        if other.is_zero() {
            return Ok(self.clone());
        }
        if self.is_zero() {
            // go-cty computes `a - trunc(a / b) * b` with signed zeros:
            // `trunc(..)` is +0, times `b` has `b`'s sign, and `-0 - +0` is
            // the one difference that stays negative (`-0 % 2` is `-0`).
            return Ok(Number::signed_zero(
                self.is_negative_zero() && !other.is_negative(),
            ));
        }
        if let (N::Dec(a), N::Dec(b)) = (&self.0, &other.0) {
            if let Some(r) = a.checked_rem(*b) {
                return Ok(Number(N::Dec(r)));
            }
        }
        Ok(self.binary_op(other, binary::rem))
    }

    /// The largest integer not above `self` (an infinity is itself).
    pub fn floor(&self) -> Number {
        match &self.0 {
            N::Dec(d) => Number(N::Dec(d.floor())),
            N::Bin(b) => Number::from_bin(b.floor()),
            N::Inf(_) => self.clone(),
        }
    }

    /// The smallest integer not below `self` (an infinity is itself).
    pub fn ceil(&self) -> Number {
        match &self.0 {
            N::Dec(d) => Number(N::Dec(d.ceil())),
            N::Bin(b) => Number::from_bin(b.ceil()),
            N::Inf(_) => self.clone(),
        }
    }

    /// `-self`.
    pub fn neg(&self) -> Number {
        match &self.0 {
            N::Dec(d) => Number(N::Dec(-*d)),
            N::Bin(b) => Number(N::Bin(Box::new(-b.as_ref().clone()))),
            N::Inf(neg) => Number(N::Inf(!neg)),
        }
    }

    /// Whether two numbers agree to `digits` significant decimal digits
    /// (relative difference below `10^(1 - digits)`), or are equal. For
    /// comparing with the reference's output, which prints 512-bit values
    /// that exact decimals and rounded binaries need not match digit for
    /// digit.
    ///
    /// ```
    /// use hcl::Number;
    /// let a = Number::parse("0.3333333333333333333333333333").unwrap();
    /// let b = Number::from(1).checked_div(&Number::from(3)).unwrap();
    /// assert!(a.reference_eq(&b, 25));
    /// assert!(!a.reference_eq(&b, 30));
    /// ```
    pub fn reference_eq(&self, other: &Number, digits: u32) -> bool {
        if self == other {
            return true;
        }
        if self.is_infinite() || other.is_infinite() {
            return false;
        }
        let (Ok(diff), Some(scale)) = (
            self.checked_sub(other),
            Number::parse(&format!("1e{}", 1 - i64::from(digits))),
        ) else {
            return false;
        };
        let bound = self.abs().max(other.abs()).checked_mul(&scale);
        bound.is_ok_and(|b| diff.abs() <= b)
    }

    fn abs(&self) -> Number {
        if self.sign_negative() {
            self.neg()
        } else {
            self.clone()
        }
    }
}
