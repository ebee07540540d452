//! The JSON scanner's (`parse.rs`) checks off its hot path: a number's
//! shape, a byte shown in a message.

/// The character at `pos` for a message.
pub(super) fn show_byte(src: &str, pos: usize, b: u8) -> String {
    match src.get(pos..).and_then(|s| s.chars().next()) {
        Some('\u{FEFF}') => "a byte order mark".to_owned(),
        Some('\u{FFFD}') => "invalid UTF-8".to_owned(),
        Some(c) => format!("{c:?}"),
        None => format!("byte 0x{b:02x}"),
    }
}

/// RFC 8259's number: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
pub(super) fn valid_number(b: &[u8]) -> bool {
    let mut i = 0;
    let digits = |i: &mut usize| {
        let s = *i;
        while b.get(*i).is_some_and(u8::is_ascii_digit) {
            *i += 1;
        }
        *i > s
    };
    if b.get(i) == Some(&b'-') {
        i += 1;
    }
    match b.get(i) {
        Some(b'0') => i += 1,
        Some(b'1'..=b'9') => {
            digits(&mut i);
        }
        _ => return false,
    }
    if b.get(i) == Some(&b'.') {
        i += 1;
        if !digits(&mut i) {
            return false;
        }
    }
    if let Some(b'e' | b'E') = b.get(i) {
        i += 1;
        if let Some(b'+' | b'-') = b.get(i) {
            i += 1;
        }
        if !digits(&mut i) {
            return false;
        }
    }
    i == b.len()
}
