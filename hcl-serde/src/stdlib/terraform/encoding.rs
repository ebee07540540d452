//! Terraform's encoding functions: `base64encode base64decode base64gzip
//! textencodebase64 textdecodebase64 urlencode` (Terraform's
//! `funcs/encoding.go`).

use super::super::Table;
use crate::eval::{FuncDef, FuncError, Param, Type};
use crate::Value;
use base64::engine::general_purpose::{GeneralPurpose, GeneralPurposeConfig, STANDARD};
use base64::engine::DecodePaddingMode;
use base64::Engine;
use std::io::Write;

/// This family's functions.
pub(super) const ENCODING: Table = &[
    ("base64encode", base64encode),
    ("base64decode", base64decode),
    ("base64gzip", base64gzip),
    ("textencodebase64", textencodebase64),
    ("textdecodebase64", textdecodebase64),
    ("urlencode", urlencode),
];

/// Go's `base64.StdEncoding` decoder: padding required, non-zero trailing
/// bits accepted, line breaks skipped.
const GO_STD: GeneralPurpose = GeneralPurpose::new(
    &base64::alphabet::STANDARD,
    GeneralPurposeConfig::new()
        .with_decode_allow_trailing_bits(true)
        .with_decode_padding_mode(DecodePaddingMode::RequireCanonical),
);

/// Standard Base64 of `bytes`.
pub(super) fn b64(bytes: &[u8]) -> String {
    STANDARD.encode(bytes)
}

/// Decodes standard Base64 as Go does (`\r` and `\n` are skipped).
fn unb64(s: &str) -> Option<Vec<u8>> {
    let cleaned: String = s.chars().filter(|c| *c != '\r' && *c != '\n').collect();
    GO_STD.decode(cleaned).ok()
}

/// A function of one string returning a string, or an error.
fn string_fn(f: fn(&str) -> Result<String, FuncError>) -> FuncDef {
    FuncDef::new(move |args| f(args.str(0)?).map(Value::from))
        .param(Param::new("str", Type::String))
        .returns(Type::String)
}

/// `base64encode(str)`: standard Base64 of the UTF-8 bytes.
pub(super) fn base64encode() -> FuncDef {
    string_fn(|s| Ok(b64(s.as_bytes())))
}

/// `base64decode(str)`: the UTF-8 text a Base64 string encodes.
pub(super) fn base64decode() -> FuncDef {
    string_fn(|s| {
        let bytes = unb64(s).ok_or_else(|| {
            FuncError::arg(0, "failed to decode base64 data: illegal base64 data")
        })?;
        String::from_utf8(bytes).map_err(|_| {
            FuncError::arg(
                0,
                "the result of decoding the provided string is not valid UTF-8",
            )
        })
    })
}

/// `base64gzip(str)`: Base64 of the gzip-compressed UTF-8 bytes.
pub(super) fn base64gzip() -> FuncDef {
    string_fn(|s| {
        let mut gz = flate2::GzBuilder::new()
            .operating_system(255)
            .write(Vec::new(), flate2::Compression::default());
        gz.write_all(s.as_bytes())
            .and_then(|()| gz.finish())
            .map(|bytes| b64(&bytes))
            .map_err(|e| FuncError::new(format!("failed to write gzip raw data: {e}")))
    })
}

/// `urlencode(str)`: Go's `url.QueryEscape`.
pub(super) fn urlencode() -> FuncDef {
    string_fn(|s| {
        let mut out = String::with_capacity(s.len());
        for b in s.bytes() {
            match b {
                b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                    out.push(char::from(b));
                }
                b' ' => out.push('+'),
                _ => out.push_str(&format!("%{b:02X}")),
            }
        }
        Ok(out)
    })
}

/// A character encoding `textencodebase64` knows.
#[derive(Clone, Copy)]
enum Charset {
    Utf8,
    Utf16Le,
    Utf16Be,
    /// UTF-16 with a byte order mark (big endian when encoding).
    Utf16,
    Ascii,
    Latin1,
    Windows1252,
}

/// Windows-1252's characters for bytes 0x80 to 0x9F (`None`: unassigned).
const CP1252: [Option<char>; 32] = [
    Some('€'),
    None,
    Some('‚'),
    Some('ƒ'),
    Some('„'),
    Some('…'),
    Some('†'),
    Some('‡'),
    Some('ˆ'),
    Some('‰'),
    Some('Š'),
    Some('‹'),
    Some('Œ'),
    None,
    Some('Ž'),
    None,
    None,
    Some('‘'),
    Some('’'),
    Some('“'),
    Some('”'),
    Some('•'),
    Some('–'),
    Some('—'),
    Some('˜'),
    Some('™'),
    Some('š'),
    Some('›'),
    Some('œ'),
    None,
    Some('ž'),
    Some('Ÿ'),
];

impl Charset {
    /// The encoding an IANA name or alias stands for (case-insensitive).
    fn by_name(name: &str) -> Option<(Charset, &'static str)> {
        let n = name.to_ascii_lowercase();
        Some(match n.as_str() {
            "utf-8" | "csutf8" => (Charset::Utf8, "UTF-8"),
            "utf-16le" | "csutf16le" => (Charset::Utf16Le, "UTF-16LE"),
            "utf-16be" | "csutf16be" => (Charset::Utf16Be, "UTF-16BE"),
            "utf-16" | "csutf16" => (Charset::Utf16, "UTF-16"),
            "us-ascii" | "ascii" | "iso-ir-6" | "ansi_x3.4-1968" | "ansi_x3.4-1986"
            | "iso_646.irv:1991" | "iso646-us" | "us" | "ibm367" | "cp367" | "csascii" => {
                (Charset::Ascii, "US-ASCII")
            }
            "iso-8859-1" | "iso_8859-1:1987" | "iso-ir-100" | "iso_8859-1" | "latin1" | "l1"
            | "ibm819" | "cp819" | "csisolatin1" => (Charset::Latin1, "ISO-8859-1"),
            "windows-1252" | "cswindows1252" => (Charset::Windows1252, "windows-1252"),
            _ => return None,
        })
    }

    fn encode(self, s: &str) -> Option<Vec<u8>> {
        let units = |be: bool| -> Vec<u8> {
            s.encode_utf16()
                .flat_map(|u| if be { u.to_be_bytes() } else { u.to_le_bytes() })
                .collect()
        };
        match self {
            Charset::Utf8 => Some(s.as_bytes().to_vec()),
            Charset::Utf16Le => Some(units(false)),
            Charset::Utf16Be => Some(units(true)),
            Charset::Utf16 => {
                let mut out = vec![0xFE, 0xFF];
                out.extend(units(true));
                Some(out)
            }
            Charset::Ascii => s
                .chars()
                .map(|c| u8::try_from(c).ok().filter(u8::is_ascii))
                .collect(),
            Charset::Latin1 => s.chars().map(|c| u8::try_from(c).ok()).collect(),
            Charset::Windows1252 => s
                .chars()
                .map(|c| {
                    let pos = CP1252.iter().position(|x| *x == Some(c));
                    match (pos, u8::try_from(c)) {
                        (Some(i), _) => u8::try_from(0x80 + i).ok(),
                        (None, Ok(b)) if !(0x80..0xA0).contains(&b) => Some(b),
                        _ => None,
                    }
                })
                .collect(),
        }
    }

    /// The text of `b`; `None` where it is not valid in the encoding, or
    /// holds U+FFFD: Terraform refuses any result with a replacement
    /// character, even one the source encodes (`77+9` in UTF-8).
    fn decode(self, b: &[u8]) -> Option<String> {
        self.decode_all(b).filter(|s| !s.contains('\u{FFFD}'))
    }

    /// The text of `b`, undefined bytes as U+FFFD; `None` where it is not
    /// valid in the encoding.
    fn decode_all(self, b: &[u8]) -> Option<String> {
        let utf16 = |b: &[u8], be: bool| -> Option<String> {
            if b.len() & 1 == 1 {
                return None;
            }
            let units = b.chunks(2).map(|c| match c {
                [x, y] if be => u16::from_be_bytes([*x, *y]),
                [x, y] => u16::from_le_bytes([*x, *y]),
                _ => 0xFFFD,
            });
            char::decode_utf16(units)
                .collect::<Result<String, _>>()
                .ok()
        };
        match self {
            Charset::Utf8 => String::from_utf8(b.to_vec()).ok(),
            Charset::Utf16Le => utf16(b, false),
            Charset::Utf16Be => utf16(b, true),
            Charset::Utf16 => match b {
                [0xFF, 0xFE, rest @ ..] => utf16(rest, false),
                [0xFE, 0xFF, rest @ ..] => utf16(rest, true),
                _ => utf16(b, true),
            },
            Charset::Ascii => Some(
                b.iter()
                    .map(|&x| {
                        if x.is_ascii() {
                            char::from(x)
                        } else {
                            '\u{FFFD}'
                        }
                    })
                    .collect(),
            ),
            Charset::Latin1 => Some(b.iter().map(|x| char::from(*x)).collect()),
            Charset::Windows1252 => Some(
                b.iter()
                    .map(|x| match x {
                        0x80..=0x9F => CP1252
                            .get(usize::from(x - 0x80))
                            .copied()
                            .flatten()
                            .unwrap_or('\u{FFFD}'),
                        _ => char::from(*x),
                    })
                    .collect(),
            ),
        }
    }
}

fn charset(name: &str) -> Result<(Charset, &'static str), FuncError> {
    Charset::by_name(name).ok_or_else(|| {
        FuncError::arg(
            1,
            format!(
                "{name:?} is not a supported IANA encoding name or alias in this Terraform version"
            ),
        )
    })
}

/// `textencodebase64(string, encoding)`: Base64 of the string encoded in
/// a character encoding.
pub(super) fn textencodebase64() -> FuncDef {
    FuncDef::new(|args| {
        let (cs, name) = charset(args.str(1)?)?;
        let bytes = cs.encode(args.str(0)?).ok_or_else(|| {
            FuncError::arg(
                0,
                format!(
                    "the given string contains characters that cannot be represented in {name}"
                ),
            )
        })?;
        Ok(Value::from(b64(&bytes)))
    })
    .param(Param::new("string", Type::String))
    .param(Param::new("encoding", Type::String))
    .returns(Type::String)
}

/// `textdecodebase64(source, encoding)`: the text that Base64 bytes in a
/// character encoding stand for.
pub(super) fn textdecodebase64() -> FuncDef {
    FuncDef::new(|args| {
        let (cs, name) = charset(args.str(1)?)?;
        let bytes = unb64(args.str(0)?)
            .ok_or_else(|| FuncError::arg(0, "the given value has an invalid base64 symbol"))?;
        cs.decode(&bytes).map(Value::from).ok_or_else(|| {
            FuncError::arg(
                0,
                format!("the given string contains symbols that are not defined for {name}"),
            )
        })
    })
    .param(Param::new("source", Type::String))
    .param(Param::new("encoding", Type::String))
    .returns(Type::String)
}
