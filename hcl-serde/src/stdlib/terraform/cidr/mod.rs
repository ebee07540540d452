//! Terraform's IP network functions: `cidrhost cidrnetmask cidrsubnet
//! cidrsubnets` (Terraform's `funcs/cidr.go` over go-cidr and its fork of
//! Go's address parser, which reads IPv4 octets with leading zeros as
//! decimal).

use super::super::Table;
use crate::eval::{FuncArgs, FuncDef, FuncError, Param, Type};
use crate::Value;
use std::net::Ipv6Addr;

mod subnets;

/// This family's functions.
pub(super) const CIDR: Table = &[
    ("cidrhost", cidrhost),
    ("cidrnetmask", cidrnetmask),
    ("cidrsubnet", cidrsubnet),
    ("cidrsubnets", cidrsubnets),
];

/// An IP network: its address (host bits cleared), prefix length and
/// address width (32 or 128).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Net {
    addr: u128,
    prefix: u32,
    bits: u32,
}

/// The all-ones value of `b` bits.
fn ones(b: u32) -> u128 {
    if b >= 128 {
        u128::MAX
    } else {
        (1u128 << b) - 1
    }
}

/// The mask of `prefix` leading ones in a `bits`-wide address.
fn mask(prefix: u32, bits: u32) -> u128 {
    ones(bits) & !ones(bits.saturating_sub(prefix))
}

/// Go's lenient IPv4 parser: four decimal octets of up to three digits.
fn parse_v4(s: &str) -> Option<u32> {
    let mut out = 0u32;
    let mut n = 0;
    for part in s.split('.') {
        n += 1;
        if part.is_empty() || part.len() > 3 || !part.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let v: u32 = part.parse().ok()?;
        if v > 255 {
            return None;
        }
        out = (out << 8) | v;
    }
    (n == 4).then_some(out)
}

/// Parses `addr/len` as Go's `ParseCIDR`.
fn parse_cidr(s: &str) -> Result<Net, FuncError> {
    let invalid = || {
        FuncError::arg(
            0,
            format!("invalid CIDR expression: invalid CIDR address: {s}"),
        )
    };
    let (addr, len) = s.split_once('/').ok_or_else(invalid)?;
    let (ip, bits) = if addr.contains(':') {
        let v6: Ipv6Addr = addr.parse().map_err(|_| invalid())?;
        (u128::from(v6), 128)
    } else {
        (u128::from(parse_v4(addr).ok_or_else(invalid)?), 32)
    };
    if len.is_empty() || len.len() > 3 || !len.bytes().all(|b| b.is_ascii_digit()) {
        return Err(invalid());
    }
    let prefix: u32 = len.parse().map_err(|_| invalid())?;
    if prefix > bits {
        return Err(invalid());
    }
    Ok(Net {
        addr: ip & mask(prefix, bits),
        prefix,
        bits,
    })
}

/// An address as Go's `net.IP.String` writes it (IPv4-mapped IPv6
/// addresses in dotted form).
fn ip_text(addr: u128, bits: u32) -> String {
    let v4 = |a: u32| {
        let [a, b, c, d] = a.to_be_bytes();
        format!("{a}.{b}.{c}.{d}")
    };
    if bits == 32 {
        return v4(u32::try_from(addr).unwrap_or(0));
    }
    if is_mapped(addr) {
        return v4(u32::try_from(addr & 0xffff_ffff).unwrap_or(0));
    }
    let segs = Ipv6Addr::from(addr).segments();
    // The longest run of two or more zero groups (the first of equals).
    let (mut best, mut best_len, mut run_start, mut run) = (0usize, 0usize, 0usize, 0usize);
    for (i, g) in segs.iter().enumerate() {
        if *g == 0 {
            if run == 0 {
                run_start = i;
            }
            run += 1;
            if run > best_len {
                best = run_start;
                best_len = run;
            }
        } else {
            run = 0;
        }
    }
    let hex = |r: &[u16]| {
        r.iter()
            .map(|g| format!("{g:x}"))
            .collect::<Vec<_>>()
            .join(":")
    };
    if best_len < 2 {
        return hex(&segs);
    }
    let (head, tail) = segs.split_at(best);
    format!(
        "{}::{}",
        hex(head),
        hex(tail.get(best_len..).unwrap_or(&[]))
    )
}

/// A network as Go's `IPNet.String` writes it: an IPv4-mapped network is
/// an IPv4 one, its prefix length counted in the last 32 bits
/// (`::ffff:192.168.6.0/120` is `192.168.6.0/24`).
fn net_text(n: Net) -> String {
    let prefix = if n.bits == 128 && is_mapped(n.addr) {
        n.prefix.saturating_sub(96)
    } else {
        n.prefix
    };
    format!("{}/{prefix}", ip_text(n.addr, n.bits))
}

/// Whether a 128-bit address is IPv4-mapped (`::ffff:a.b.c.d`).
fn is_mapped(addr: u128) -> bool {
    addr >> 32 == 0xffff
}

/// Argument `i` as an integer (i128), as `gocty` converts to `*big.Int`.
fn big_int(args: &FuncArgs<'_>, i: usize) -> Result<i128, FuncError> {
    let n = args.number(i)?;
    if !n.is_integer() {
        return Err(FuncError::arg(i, "value must be a whole number"));
    }
    n.as_i128()
        .ok_or_else(|| FuncError::arg(i, "value is too large"))
}

/// Go's `big.Int.Uint64`: the low 64 bits of the magnitude.
fn low64(n: i128) -> u128 {
    n.unsigned_abs() & u128::from(u64::MAX)
}

/// `cidrhost(prefix, hostnum)`: the address of host `hostnum` in a
/// network (negative numbers count from the end).
pub(super) fn cidrhost() -> FuncDef {
    FuncDef::new(|args| {
        let num = big_int(&args, 1)?;
        let negative = num < 0;
        let net = parse_cidr(args.str(0)?)?;
        let host_len = net.bits - net.prefix;
        let max = ones(host_len);
        let (check, num) = if negative {
            let k = num.unsigned_abs() - 1;
            (k, max.wrapping_sub(k))
        } else {
            // Go compares `int64(num.Uint64())`: low 64 bits with the top
            // one set read as a negative number, which passes.
            let low = low64(num);
            let signed_low = if low >> 63 == 1 { 0 } else { low };
            (signed_low, num.unsigned_abs())
        };
        if check > max {
            // Go reports the number it computed: for a negative one,
            // `max - k`, below zero here.
            let shown = if negative {
                format!("-{}", check - max)
            } else {
                num.to_string()
            };
            return Err(FuncError::new(format!(
                "prefix of {} does not accommodate a host numbered {shown}",
                net.prefix
            )));
        }
        // go-cidr places the host number for a 32-bit address width when
        // the network is IPv4-mapped, but shifts it within the 16-byte
        // address: Terraform's `cidrhost("::ffff:10.0.0.0/112", 5)` is
        // `0:5::ffff:a00:0`. A number the address cannot hold (past the
        // check above through its low 64 bits) makes Go panic: an error
        // of the call.
        let out_of_range = || FuncError::arg(1, "hostnum is out of range");
        let num = if net.bits == 128 && is_mapped(net.addr) {
            if num >> 32 != 0 {
                return Err(out_of_range());
            }
            num << 96
        } else {
            num
        };
        let addr = net.addr | num;
        if addr > ones(net.bits) {
            return Err(out_of_range());
        }
        Ok(Value::from(ip_text(addr, net.bits)))
    })
    .param(Param::new("prefix", Type::String))
    .param(Param::new("hostnum", Type::Number))
    .returns(Type::String)
}

/// `cidrnetmask(prefix)`: an IPv4 network's mask in dotted form.
pub(super) fn cidrnetmask() -> FuncDef {
    FuncDef::new(|args| {
        let s = args.str(0)?;
        let net = parse_cidr(s)?;
        if net.bits != 32 && net.addr >> 32 != 0xffff {
            return Err(FuncError::new(format!(
                "IPv6 addresses cannot have a netmask: {s}"
            )));
        }
        if net.bits == 128 {
            // An IPv4-mapped network: Go prints the 16-byte mask.
            return Ok(Value::from(ip_text(mask(net.prefix, 128), 128)));
        }
        Ok(Value::from(ip_text(mask(net.prefix, 32), 32)))
    })
    .param(Param::new("prefix", Type::String))
    .returns(Type::String)
}

/// A subnet of `net`: `newbits` more prefix bits, numbered `num`.
fn subnet(net: Net, newbits: i64, num: i128) -> Result<Net, FuncError> {
    let new_prefix = i64::from(net.prefix) + newbits;
    if new_prefix < 0 || new_prefix > i64::from(net.bits) {
        return Err(FuncError::new(format!(
            "insufficient address space to extend prefix of {} by {}",
            net.prefix, newbits
        )));
    }
    // Go's `uint64(1<<uint64(newbits)) - 1`: a negative count or one of
    // 64 and more shifts the bit out, leaving all ones.
    let max = match u32::try_from(newbits) {
        Ok(b) if b < 64 => ones(b),
        _ => u128::from(u64::MAX),
    };
    if low64(num) > max {
        return Err(FuncError::new(format!(
            "prefix extension of {newbits} does not accommodate a subnet numbered {num}"
        )));
    }
    let new_prefix = u32::try_from(new_prefix).unwrap_or(net.bits);
    let shift = net.bits - new_prefix;
    let width = ones(net.bits);
    // Go writes the result into an address of `bits / 8` bytes and
    // panics (an error of the call) when it needs more: a number past
    // what the check above lets through (`newbits` negative or of 64 and
    // more, or a `netnum` whose low 64 bits are small).
    let out_of_range = || FuncError::arg(2, "netnum is out of range");
    let addr = if num < 0 {
        // Go ORs the two's complement of the shifted negative number `a`
        // into the address and keeps the magnitude of the (negative)
        // result: `a | ip` is `!((|a| - 1) & !ip)`, of magnitude
        // `((|a| - 1) & !ip) + 1`.
        let below = num
            .unsigned_abs()
            .checked_mul(1u128.checked_shl(shift).ok_or_else(out_of_range)?)
            .ok_or_else(out_of_range)?
            - 1;
        let abs = (below & !net.addr)
            .checked_add(1)
            .ok_or_else(out_of_range)?;
        if abs > width {
            return Err(out_of_range());
        }
        abs
    } else {
        let num = num.unsigned_abs();
        let shifted = match num {
            0 => 0,
            _ if shift > num.leading_zeros() => return Err(out_of_range()),
            _ => num << shift,
        };
        let addr = net.addr | shifted;
        if addr > width {
            return Err(out_of_range());
        }
        addr
    };
    Ok(Net {
        addr,
        prefix: new_prefix,
        bits: net.bits,
    })
}

/// `cidrsubnet(prefix, newbits, netnum)`: subnet number `netnum` of the
/// network, with `newbits` more prefix bits.
pub(super) fn cidrsubnet() -> FuncDef {
    FuncDef::new(|args| {
        let newbits = super::super::strings::int_arg(&args, 1)?;
        let num = big_int(&args, 2)?;
        let net = parse_cidr(args.str(0)?)?;
        if i64::from(net.prefix) + newbits < 0 && num == 0 {
            // A prefix below zero passes go-cidr's checks and gives a
            // network without a mask, which Go prints as `<nil>` (any
            // other number does not fit the address: an error below).
            return Ok(Value::from("<nil>"));
        }
        subnet(net, newbits, num).map(|n| Value::from(net_text(n)))
    })
    .param(Param::new("prefix", Type::String))
    .param(Param::new("newbits", Type::Number))
    .param(Param::new("netnum", Type::Number))
    .returns(Type::String)
}

/// `cidrsubnets(prefix, newbits...)`: consecutive subnets with the given
/// extra prefix bits, each aligned after the previous one.
pub(super) fn cidrsubnets() -> FuncDef {
    FuncDef::new(|args| subnets::cidrsubnets(&args))
        .param(Param::new("prefix", Type::String))
        .variadic(Param::new("newbits", Type::Number))
        .returns(Type::list(Type::String))
}
