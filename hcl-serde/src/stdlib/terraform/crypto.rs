//! Terraform's hash and identifier functions: `md5 sha1 sha256 sha512
//! base64sha256 base64sha512 uuidv5`, and with the random source `uuid`,
//! `bcrypt` (Terraform's `funcs/crypto.go`).

use super::super::Table;
use super::encoding::b64;
use super::RandomSource;
use crate::eval::{FuncDef, FuncError, Param, Type};
use crate::Value;
use ::sha1::Digest;
use std::sync::Arc;

/// This family's functions (`uuid` and `bcrypt` need the random source:
/// see [`super::TerraformFunctions`]).
pub(super) const CRYPTO: Table = &[
    ("md5", md5),
    ("sha1", sha1),
    ("sha256", sha256),
    ("sha512", sha512),
    ("base64sha256", base64sha256),
    ("base64sha512", base64sha512),
    ("uuidv5", uuidv5),
];

/// A hash of bytes.
pub(super) type HashFn = fn(&[u8]) -> Vec<u8>;

pub(super) fn md5_bytes(b: &[u8]) -> Vec<u8> {
    ::md5::Md5::digest(b).to_vec()
}
pub(super) fn sha1_bytes(b: &[u8]) -> Vec<u8> {
    ::sha1::Sha1::digest(b).to_vec()
}
pub(super) fn sha256_bytes(b: &[u8]) -> Vec<u8> {
    ::sha2::Sha256::digest(b).to_vec()
}
pub(super) fn sha512_bytes(b: &[u8]) -> Vec<u8> {
    ::sha2::Sha512::digest(b).to_vec()
}

/// Lower-case hexadecimal.
pub(super) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn string_hash(h: HashFn, enc: fn(&[u8]) -> String) -> FuncDef {
    FuncDef::new(move |args| Ok(Value::from(enc(&h(args.str(0)?.as_bytes())))))
        .param(Param::new("str", Type::String))
        .returns(Type::String)
}

/// `md5(str)`: the hex MD5 digest of the UTF-8 bytes.
pub(super) fn md5() -> FuncDef {
    string_hash(md5_bytes, hex)
}
/// `sha1(str)`: the hex SHA-1 digest.
pub(super) fn sha1() -> FuncDef {
    string_hash(sha1_bytes, hex)
}
/// `sha256(str)`: the hex SHA-256 digest.
pub(super) fn sha256() -> FuncDef {
    string_hash(sha256_bytes, hex)
}
/// `sha512(str)`: the hex SHA-512 digest.
pub(super) fn sha512() -> FuncDef {
    string_hash(sha512_bytes, hex)
}
/// `base64sha256(str)`: the Base64 SHA-256 digest.
pub(super) fn base64sha256() -> FuncDef {
    string_hash(sha256_bytes, b64)
}
/// `base64sha512(str)`: the Base64 SHA-512 digest.
pub(super) fn base64sha512() -> FuncDef {
    string_hash(sha512_bytes, b64)
}

/// A UUID's canonical text.
fn uuid_text(b: &[u8; 16]) -> String {
    let h = hex(b);
    format!(
        "{}-{}-{}-{}-{}",
        &h[0..8],
        &h[8..12],
        &h[12..16],
        &h[16..20],
        &h[20..32]
    )
}

/// Parses a UUID as Go's `uuid.Parse` (github.com/google/uuid) does:
/// canonical, `urn:uuid:` prefixed, braced, or 32 hex digits.
fn parse_uuid(s: &str) -> Option<[u8; 16]> {
    let body = match s.len() {
        36 => s.to_owned(),
        45 => s
            .get(..9)
            .filter(|p| p.eq_ignore_ascii_case("urn:uuid:"))
            .and(s.get(9..))?
            .to_owned(),
        38 => s.strip_prefix('{')?.strip_suffix('}')?.to_owned(),
        32 => {
            let mut out = [0u8; 16];
            for (i, o) in out.iter_mut().enumerate() {
                *o = u8::from_str_radix(s.get(i * 2..i * 2 + 2)?, 16).ok()?;
            }
            return Some(out);
        }
        _ => return None,
    };
    let b = body.as_bytes();
    if [8, 13, 18, 23].iter().any(|i| b.get(*i) != Some(&b'-')) {
        return None;
    }
    let digits: String = body.chars().filter(|c| *c != '-').collect();
    if digits.len() != 32 {
        return None;
    }
    let mut out = [0u8; 16];
    for (i, o) in out.iter_mut().enumerate() {
        let pair = digits.get(i * 2..i * 2 + 2)?;
        if !pair.bytes().all(|c| c.is_ascii_hexdigit()) {
            return None;
        }
        *o = u8::from_str_radix(pair, 16).ok()?;
    }
    Some(out)
}

/// `uuidv5(namespace, name)`: the name-based (SHA-1) UUID of `name` in
/// the namespace `dns`, `url`, `oid`, `x500` or a UUID.
pub(super) fn uuidv5() -> FuncDef {
    FuncDef::new(|args| {
        let ns_text = args.str(0)?;
        let ns = match ns_text {
            "dns" => "6ba7b810-9dad-11d1-80b4-00c04fd430c8",
            "url" => "6ba7b811-9dad-11d1-80b4-00c04fd430c8",
            "oid" => "6ba7b812-9dad-11d1-80b4-00c04fd430c8",
            "x500" => "6ba7b814-9dad-11d1-80b4-00c04fd430c8",
            other => other,
        };
        let ns = parse_uuid(ns).ok_or_else(|| {
            FuncError::arg(
                0,
                format!("uuidv5() doesn't support namespace {ns_text} (invalid UUID format)"),
            )
        })?;
        let mut input = ns.to_vec();
        input.extend_from_slice(args.str(1)?.as_bytes());
        let digest = sha1_bytes(&input);
        let mut u = [0u8; 16];
        for (o, d) in u.iter_mut().zip(digest.iter()) {
            *o = *d;
        }
        u[6] = (u[6] & 0x0f) | 0x50;
        u[8] = (u[8] & 0x3f) | 0x80;
        Ok(Value::from(uuid_text(&u)))
    })
    .param(Param::new("namespace", Type::String))
    .param(Param::new("name", Type::String))
    .returns(Type::String)
}

/// `uuid()`: a random (version 4) UUID.
pub(super) fn uuid(random: Arc<RandomSource>) -> FuncDef {
    FuncDef::new(move |_| {
        let mut u = [0u8; 16];
        random(&mut u);
        u[6] = (u[6] & 0x0f) | 0x40;
        u[8] = (u[8] & 0x3f) | 0x80;
        Ok(Value::from(uuid_text(&u)))
    })
    .returns(Type::String)
}

/// The highest bcrypt cost accepted: each step doubles the time, and an
/// evaluation must stay bounded (Terraform accepts up to 31).
pub(super) const MAX_BCRYPT_COST: i64 = 16;

/// `bcrypt(str[, cost])`: a `$2a$` bcrypt hash, salted from the random
/// source; a cost below 4 means the default, 10.
pub(super) fn bcrypt(random: Arc<RandomSource>) -> FuncDef {
    FuncDef::new(move |args| {
        if args.len() > 2 {
            return Err(FuncError::new("bcrypt() takes no more than two arguments"));
        }
        let mut cost = 10;
        if args.len() == 2 {
            cost = super::super::strings::int_arg(&args, 1)?;
        }
        if cost < 4 {
            cost = 10;
        }
        if cost > 31 {
            return Err(FuncError::new(format!(
                "error occured generating password crypto/bcrypt: cost {cost} is outside allowed range (4,31)"
            )));
        }
        if cost > MAX_BCRYPT_COST {
            return Err(FuncError::arg(
                1,
                format!("a bcrypt cost above {MAX_BCRYPT_COST} is refused here: each step doubles the time"),
            ));
        }
        let mut salt = [0u8; 16];
        random(&mut salt);
        let cost = u32::try_from(cost).unwrap_or(10);
        ::bcrypt::hash_with_salt(args.str(0)?.as_bytes(), cost, salt)
            .map(|h| Value::from(h.format_for_version(::bcrypt::Version::TwoA)))
            .map_err(|e| FuncError::new(format!("error occured generating password {e}")))
    })
    .param(Param::new("str", Type::String))
    .variadic(Param::new("cost", Type::Number))
    .returns(Type::String)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uuid_forms() {
        let canon = parse_uuid("6ba7b810-9dad-11d1-80b4-00c04fd430c8");
        assert!(canon.is_some());
        assert_eq!(parse_uuid("{6ba7b810-9dad-11d1-80b4-00c04fd430c8}"), canon);
        assert_eq!(
            parse_uuid("urn:uuid:6ba7b810-9dad-11d1-80b4-00c04fd430c8"),
            canon
        );
        assert_eq!(parse_uuid("6ba7b8109dad11d180b400c04fd430c8"), canon);
        assert_eq!(parse_uuid("6ba7b810-9dad-11d1-80b4-00c04fd430cX"), None);
    }
}
