//! `hcl_grammar::format` on any bytes: formatted output or a syntax
//! error with a position, never a panic. The output differs from the
//! input only in spaces and tabs (and a dropped byte order mark), and
//! formatting it again changes nothing when it parses (it may not: the
//! reference's `b . 0 . 1` becomes `b.0.1`, which it rejects). Without the
//! syntax check, any bytes format and only whitespace changes.
#![no_main]

use hcl_grammar::{format, FormatOptions};
use libfuzzer_sys::fuzz_target;

/// The bytes without spaces and tabs; `input`: without a leading byte
/// order mark too (the formatter drops it; one anywhere else is an
/// invalid character, kept).
fn strip(bytes: &[u8], input: bool) -> Vec<u8> {
    let bytes = match input {
        true => bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes),
        false => bytes,
    };
    bytes
        .iter()
        .copied()
        .filter(|b| !matches!(b, b' ' | b'\t'))
        .collect()
}

fuzz_target!(|data: &[u8]| {
    match format(data, &FormatOptions::default()) {
        Ok(out) => {
            assert_eq!(
                strip(&out, false),
                strip(data, true),
                "only whitespace may change"
            );
            if let Ok(again) = format(&out, &FormatOptions::default()) {
                assert_eq!(again, out, "formatting is idempotent");
            }
        }
        Err(e) => {
            assert!(e.line() >= 1 && e.column() >= 1);
            assert!(e.span().start() <= data.len());
        }
    }
    let unchecked = FormatOptions::default().with_check_syntax(false);
    if let Ok(out) = format(data, &unchecked) {
        assert_eq!(
            strip(&out, false),
            strip(data, true),
            "only whitespace may change"
        );
    }
});
