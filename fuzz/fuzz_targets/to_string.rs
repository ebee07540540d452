//! The serializer: any `hcl::Value` body built from the fuzz input,
//! written by `hcl::to_string` and read back by `hcl::from_str`, is the
//! same value (strings and keys in NFC, as every string read is).
//! `to_string` may refuse a value (a key that is not an identifier at the
//! top level) with a data error, never a panic; `to_vec` and `to_writer`
//! write the same bytes, and `Serializer` (the whole tree, then its
//! text) the same as `to_string` (in pieces).
#![no_main]

use hcl::{Map, Number, Value};
use libfuzzer_sys::arbitrary::{Result, Unstructured};
use libfuzzer_sys::fuzz_target;
use std::borrow::Cow;

/// Characters the escaper and the reader treat specially, more often than
/// arbitrary strings would hold them.
const PIECES: &[&str] = &[
    "a", "_", "-", "0", " ", "\"", "\\", "\n", "\r", "\t", "$", "%", "{", "}", "${", "%{", "$${",
    "\u{0}", "\u{1f}", "\u{7f}", "\u{85}", "\u{9f}", "é", "e\u{301}", "😀", "null", "true", "for",
    "<<EOT", "#", "//", "/*",
];

fn nfc(s: String) -> String {
    hcl_grammar::__private::nfc(Cow::Owned(s)).into_owned()
}

fn string(u: &mut Unstructured<'_>) -> Result<String> {
    let mut s = String::new();
    for _ in 0..u.int_in_range(0..=6)? {
        if u.ratio(1, 3)? {
            s.push_str(u.arbitrary::<&str>()?);
        } else {
            s.push_str(u.choose(PIECES)?);
        }
    }
    Ok(nfc(s))
}

/// An identifier (a top-level name must be one).
fn ident(u: &mut Unstructured<'_>) -> Result<String> {
    let first = *u.choose(&['a', 'b', '_', 'x', 'é'])?;
    let mut s = first.to_string();
    for _ in 0..u.int_in_range(0..=4)? {
        s.push(*u.choose(&['a', 'z', '0', '9', '_', '-'])?);
    }
    Ok(nfc(s))
}

fn number(u: &mut Unstructured<'_>) -> Result<Number> {
    Ok(match u.int_in_range(0..=3)? {
        0 => Number::from(u.arbitrary::<i64>()?),
        1 => Number::from(u.arbitrary::<u64>()?),
        // An f64 that is a decimal. One beyond `Decimal`'s range is a
        // binary float of 53 bits, written as its shortest text at that
        // precision, which reads back as a different 512-bit float
        // (`6.047857570742699e-320`). The reference does the same (go-cty
        // holds `NumberFloatVal` at 53 bits, hclwrite writes
        // `Text('f', -1)`, reading gives 512 bits), so it is left out.
        2 => Number::from_f64(u.arbitrary::<f64>()?)
            .filter(|n| n.as_decimal().is_some())
            .unwrap_or(Number::ZERO),
        _ => {
            // Literal text: long integers, many decimals, exponents.
            let int: u64 = u.arbitrary()?;
            let frac: u32 = u.arbitrary()?;
            let exp: i16 = u.int_in_range(-400..=400)?;
            let text = format!("{int}.{frac}e{exp}");
            Number::from_literal(&text).unwrap_or(Number::ZERO)
        }
    })
}

fn value(u: &mut Unstructured<'_>, depth: usize) -> Result<Value> {
    let top = if depth >= 5 { 3 } else { 5 };
    Ok(match u.int_in_range(0..=top)? {
        0 => Value::Null,
        1 => Value::Bool(u.arbitrary()?),
        2 => Value::Number(number(u)?),
        3 => Value::String(string(u)?),
        4 => {
            let mut items = Vec::new();
            for _ in 0..u.int_in_range(0..=4)? {
                items.push(value(u, depth + 1)?);
            }
            Value::Array(items)
        }
        _ => Value::Object(object(u, depth + 1, false)?),
    })
}

fn object(u: &mut Unstructured<'_>, depth: usize, idents: bool) -> Result<Map> {
    let mut map = Map::new();
    for _ in 0..u.int_in_range(0..=5)? {
        let key = if idents || u.ratio(2, 3)? {
            ident(u)?
        } else {
            string(u)?
        };
        map.insert(key, value(u, depth)?);
    }
    Ok(map)
}

fuzz_target!(|data: &[u8]| {
    let mut u = Unstructured::new(data);
    let idents = u.ratio(7, 8).unwrap_or(true);
    let Ok(body) = object(&mut u, 0, idents) else {
        return;
    };
    let body = Value::Object(body);
    let text = match hcl::to_string(&body) {
        Ok(text) => text,
        Err(e) => {
            assert!(!idents, "{body:?}: {e}");
            return;
        }
    };
    let back: Value = match hcl::from_str(&text) {
        Ok(v) => v,
        Err(e) => panic!("{body:?}\n{text}\n{e}"),
    };
    assert_eq!(back, body, "{text}");
    assert_eq!(hcl::to_vec(&body).ok().as_deref(), Some(text.as_bytes()));
    let mut out = Vec::new();
    assert!(hcl::to_writer(&mut out, &body).is_ok());
    assert_eq!(out, text.as_bytes());
    // Written in pieces (`to_string`; its bounds are small under
    // `cfg(fuzzing)`) or whole (`Serializer`): the same text.
    let mut whole = hcl::Serializer::new(Vec::new());
    assert!(serde::Serialize::serialize(&body, &mut whole).is_ok());
    assert_eq!(whole.into_inner(), text.as_bytes(), "{body:?}");
});
