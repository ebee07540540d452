//! How HCL source spells a string or an object key: the one escaper of the serializer and of `Value`'s `Display`.
//!
//! A leaf, so that `value` and `ser` share it without depending on each
//! other.

use std::fmt::{self, Write};

/// Writes `s` as a quoted HCL string that reads back as exactly `s`.
///
/// Quotes, backslashes and control characters are escaped, and the
/// template introducers `${` and `%{` are doubled (`$${`, `%%{`), as the
/// spec requires for them to stay literal.
pub(crate) fn write_quoted<W: Write + ?Sized>(out: &mut W, s: &str) -> fmt::Result {
    out.write_char('"')?;
    // Most strings need no escape: printable ASCII without `"`, `\\`, `$`
    // or `%`.
    if s.bytes()
        .all(|b| (b' '..0x7f).contains(&b) && !matches!(b, b'"' | b'\\' | b'$' | b'%'))
    {
        out.write_str(s)?;
        return out.write_char('"');
    }
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' => out.write_str("\\\"")?,
            '\\' => out.write_str("\\\\")?,
            '\n' => out.write_str("\\n")?,
            '\r' => out.write_str("\\r")?,
            '\t' => out.write_str("\\t")?,
            '$' | '%' if chars.peek() == Some(&'{') => {
                out.write_char(c)?;
                out.write_char(c)?;
            }
            c if c.is_control() => write!(out, "\\u{:04X}", c as u32)?,
            c => out.write_char(c)?,
        }
    }
    out.write_char('"')
}

/// Whether `s` is an HCL identifier (a valid attribute or block type
/// name): the grammar's one rule.
pub(crate) fn is_identifier(s: &str) -> bool {
    hcl_grammar::is_identifier(s)
}

/// Writes an object key: bare when it is an identifier that reads back as
/// that string, quoted otherwise. `null`, `true`, `false` and `for` are
/// quoted: bare, they would be a value or start a `for` expression.
pub(crate) fn write_key<W: Write + ?Sized>(out: &mut W, k: &str) -> fmt::Result {
    if is_bare_key(k) {
        out.write_str(k)
    } else {
        write_quoted(out, k)
    }
}

#[cfg(test)]
#[test]
fn ascii_identifiers_as_the_grammar_says() {
    let mut all: Vec<String> = (0u8..0x80).map(|b| char::from(b).to_string()).collect();
    for a in ["a", "_", "-", "0", "é"] {
        for b in ["", "a", "-", "0", "_", " ", "é", "."] {
            all.push(format!("{a}{b}"));
        }
    }
    all.push(String::new());
    for s in all {
        assert_eq!(is_identifier(&s), hcl_grammar::is_identifier(&s), "{s:?}");
    }
}

/// Whether `k` is written bare as an object key (see [`write_key`]).
pub(crate) fn is_bare_key(k: &str) -> bool {
    is_identifier(k) && !matches!(k, "null" | "true" | "false" | "for")
}
