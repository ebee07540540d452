//! `cidrsubnets`, step by step as go-cidr's `PreviousSubnet` and
//! `NextSubnet` walk Go's `net.IP` values: 4 or 16 bytes (or none), an
//! IPv4-mapped IPv6 address shortened to 4 bytes wherever go-cidr calls
//! `To4`. The lengths matter: a network given as an IPv4-mapped address
//! (`::ffff:10.0.0.0/104`) has no subnets there (its first step masks a
//! 4-byte address with a mask of more than 32 bits, which gives no
//! address), and a subnet of an IPv6 network that lands on a mapped
//! address is not inside it.

use super::{ip_text, ones, parse_cidr};
use crate::eval::{FuncArgs, FuncError};
use crate::Value;

/// A Go `net.IP` (or `net.IPMask`): its bytes as a number, and how many
/// bytes there are (0 for `nil`).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Bytes {
    v: u128,
    len: u32,
}

const NIL: Bytes = Bytes { v: 0, len: 0 };

impl Bytes {
    fn bits(self) -> u32 {
        self.len * 8
    }

    /// Whether a 16-byte address is IPv4-mapped (`::ffff:a.b.c.d`).
    fn is_mapped(self) -> bool {
        self.len == 16 && self.v >> 32 == 0xffff
    }

    /// `ip.To4()`.
    fn to4(self) -> Option<Bytes> {
        match self.len {
            4 => Some(self),
            _ if self.is_mapped() => Some(Bytes {
                v: self.v & 0xffff_ffff,
                len: 4,
            }),
            _ => None,
        }
    }

    /// go-cidr's `checkIPv4`.
    fn v4_if_mapped(self) -> Bytes {
        self.to4().unwrap_or(self)
    }

    /// go-cidr's `Inc` (`up`) or `Dec`: wraps around within the length.
    fn step(self, up: bool) -> Bytes {
        let ip = self.v4_if_mapped();
        let width = ones(ip.bits());
        let v = if up {
            ip.v.wrapping_add(1)
        } else {
            ip.v.wrapping_sub(1)
        };
        Bytes {
            v: v & width,
            len: ip.len,
        }
    }

    /// `ip.Equal(net.IPv4zero) || ip.Equal(net.IPv6zero)`.
    fn is_zero_address(self) -> bool {
        match self.len {
            4 => self.v == 0,
            16 => self.v == 0 || self.v == 0xffff_0000_0000,
            _ => false,
        }
    }
}

/// `net.CIDRMask(ones, bits)`: `nil` unless `bits` is 32 or 128 and
/// `ones` fits.
fn cidr_mask(prefix: u32, bits: u32) -> Bytes {
    if (bits != 32 && bits != 128) || prefix > bits {
        return NIL;
    }
    Bytes {
        v: super::mask(prefix, bits),
        len: bits / 8,
    }
}

/// `ip.Mask(mask)`.
fn apply_mask(mut ip: Bytes, mut mask: Bytes) -> Bytes {
    if mask.len == 16 && ip.len == 4 && mask.v >> 32 == ones(96) {
        mask = Bytes {
            v: mask.v & 0xffff_ffff,
            len: 4,
        };
    }
    if mask.len == 4 && ip.is_mapped() {
        ip = Bytes {
            v: ip.v & 0xffff_ffff,
            len: 4,
        };
    }
    if ip.len != mask.len {
        return NIL;
    }
    Bytes {
        v: ip.v & mask.v,
        len: ip.len,
    }
}

/// The prefix length of a (canonical) mask, `mask.Size()`'s first half.
fn prefix_len(mask: Bytes) -> u32 {
    let lead = (mask.v << (128 - mask.bits().max(1))).leading_ones();
    lead.min(mask.bits())
}

/// A Go `net.IPNet`.
#[derive(Clone, Copy, Debug)]
struct GoNet {
    ip: Bytes,
    mask: Bytes,
}

impl GoNet {
    /// `networkNumberAndMask`: the address (4 bytes when mapped) and its
    /// mask of the same length, or `None`.
    fn number_and_mask(self) -> Option<(Bytes, Bytes)> {
        let ip = match self.ip.to4() {
            Some(v4) => v4,
            None if self.ip.len == 16 => self.ip,
            None => return None,
        };
        let mask = match (self.mask.len, ip.len) {
            (4, 4) | (16, 16) => self.mask,
            (16, 4) => Bytes {
                v: self.mask.v & 0xffff_ffff,
                len: 4,
            },
            _ => return None,
        };
        Some((ip, mask))
    }

    /// `n.Contains(ip)`.
    fn contains(self, ip: Bytes) -> bool {
        let Some((nn, m)) = self.number_and_mask() else {
            return false;
        };
        let ip = ip.v4_if_mapped();
        ip.len == nn.len && nn.v & m.v == ip.v & m.v
    }

    /// `n.String()`: a mapped network prints as IPv4, with the mask's
    /// last 32 bits as its prefix length.
    fn text(self) -> String {
        match self.number_and_mask() {
            Some((nn, m)) => format!("{}/{}", ip_text(nn.v, nn.bits()), prefix_len(m)),
            None => "<nil>".to_owned(),
        }
    }

    /// go-cidr's `AddressRange`'s last address; `None` where Go would
    /// fail (an address shorter than its mask).
    fn last(self) -> Option<Bytes> {
        let (prefix, bits) = (prefix_len(self.mask), self.mask.bits());
        if prefix == bits {
            return Some(self.ip);
        }
        if self.ip.len != 4 && self.ip.len != 16 {
            return None;
        }
        let host = self.ip.bits().checked_sub(prefix)?;
        Some(Bytes {
            v: self.ip.v | ones(host),
            len: self.ip.len,
        })
    }

    /// go-cidr's `PreviousSubnet` (without its rollover flag, which
    /// Terraform ignores).
    fn previous(self, prefix: u32) -> GoNet {
        let start = self.ip.v4_if_mapped();
        let mask = cidr_mask(prefix, start.bits());
        GoNet {
            ip: apply_mask(start.step(false), mask),
            mask,
        }
    }

    /// go-cidr's `NextSubnet`: the next subnet of `prefix` bits, and
    /// whether the address wrapped around to zero.
    fn next(self, prefix: u32) -> Option<(GoNet, bool)> {
        let current_last = self.last()?;
        let mask = cidr_mask(prefix, current_last.bits());
        let current = GoNet {
            ip: apply_mask(current_last, mask),
            mask,
        };
        let last = current.last()?.step(true);
        let next = GoNet {
            ip: apply_mask(last, mask),
            mask,
        };
        Some((next, last.is_zero_address()))
    }
}

/// `cidrsubnets(prefix, newbits...)`, as Terraform's.
pub(super) fn cidrsubnets(args: &FuncArgs<'_>) -> Result<Value, FuncError> {
    let net = parse_cidr(args.str(0)?)?;
    // Go's `ParseCIDR`: a 4-byte address for IPv4 text, 16 otherwise.
    let len = net.bits / 8;
    let network = GoNet {
        ip: Bytes { v: net.addr, len },
        mask: cidr_mask(net.prefix, net.bits),
    };
    if args.len() < 2 {
        return Ok(Value::Array(Vec::new()));
    }
    let first = super::super::super::strings::int_arg(args, 1)?;
    let mut current = network.previous(prefix_sum(net.prefix, first));
    let mut out = Vec::with_capacity(args.len() - 1);
    for i in 1..args.len() {
        let extra = super::super::super::strings::int_arg(args, i)?;
        if extra < 1 {
            return Err(FuncError::arg(i, "must extend prefix by at least one bit"));
        }
        if extra > 32 {
            return Err(FuncError::arg(
                i,
                "may not extend prefix by more than 32 bits",
            ));
        }
        let total = i64::from(net.prefix) + extra;
        if total > i64::from(net.bits) {
            let proto = if net.bits == 32 { "IPv4" } else { "IPv6" };
            return Err(FuncError::arg(
                i,
                format!(
                    "would extend prefix to {total} bits, which is too long for an {proto} address"
                ),
            ));
        }
        let prefix = prefix_sum(net.prefix, extra);
        match current.next(prefix) {
            Some((next, false)) if network.contains(next.ip) => {
                current = next;
                out.push(Value::from(current.text()));
            }
            _ => {
                return Err(FuncError::arg(
                    i,
                    format!(
                        "not enough remaining address space for a subnet with a prefix of \
                         {prefix} bits after {}",
                        current.text()
                    ),
                ))
            }
        }
    }
    Ok(Value::Array(out))
}

/// A prefix length plus an extension, as Go's `int` addition; lengths
/// outside `0..=128` give no mask at all (as `CIDRMask` does).
fn prefix_sum(prefix: u32, extra: i64) -> u32 {
    u32::try_from(i64::from(prefix) + extra).unwrap_or(u32::MAX)
}
