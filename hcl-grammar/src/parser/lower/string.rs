//! Decoding of template literals: escapes, `$${`/`%%{`, NFC.

use crate::nfc::nfc;
use crate::parser::Ctx;
use crate::span::Span;
use crate::Result;
use std::borrow::Cow;

/// Decodes a quoted literal (`\n`, `\uNNNN`, `$${`, ...) into NFC.
/// Borrowed when there is nothing to decode. `start` is the literal's byte
/// offset.
pub(in crate::parser) fn unescape_quoted<'i>(
    ctx: &Ctx<'_, 'i>,
    raw: &'i str,
    start: usize,
) -> Result<Cow<'i, str>> {
    decode_quoted(ctx, raw, start).map(nfc)
}

/// [`unescape_quoted`] of a literal the scanner found `plain` (no `\\`,
/// `$` or `%`: nothing to decode) without looking for them again.
#[inline]
pub(in crate::parser) fn unescape_scanned<'i>(
    ctx: &Ctx<'_, 'i>,
    raw: &'i str,
    start: usize,
    plain: bool,
) -> Result<Cow<'i, str>> {
    if plain {
        Ok(nfc(Cow::Borrowed(raw)))
    } else {
        unescape_quoted(ctx, raw, start)
    }
}

/// [`decode_quoted`] of a literal the scanner found `plain`.
#[inline]
pub(in crate::parser) fn decode_scanned<'i>(
    ctx: &Ctx<'_, 'i>,
    raw: &'i str,
    start: usize,
    plain: bool,
) -> Result<Cow<'i, str>> {
    if plain {
        Ok(Cow::Borrowed(raw))
    } else {
        decode_quoted(ctx, raw, start)
    }
}

/// [`unescape_quoted`] without NFC: a block label keeps its characters as
/// written, as in the reference (hclsyntax does not normalize labels).
pub(in crate::parser) fn decode_quoted<'i>(
    ctx: &Ctx<'_, 'i>,
    raw: &'i str,
    start: usize,
) -> Result<Cow<'i, str>> {
    let bytes = raw.as_bytes();
    if !bytes.iter().any(|&b| b == b'\\' || b == b'$' || b == b'%') {
        return Ok(Cow::Borrowed(raw));
    }
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        match c {
            '\\' => {
                let (j, e) = match chars.next() {
                    Some(x) => x,
                    None => {
                        return Err(ctx.err(
                            "incomplete escape sequence: `\\` at the end of the string",
                            Span::at(start + i, start + i + 1),
                        ))
                    }
                };
                match e {
                    'n' => out.push('\n'),
                    'r' => out.push('\r'),
                    't' => out.push('\t'),
                    '"' => out.push('"'),
                    '\\' => out.push('\\'),
                    'u' | 'U' => {
                        let n = if e == 'u' { 4 } else { 8 };
                        let hex_start = j + 1;
                        let hex = raw.get(hex_start..hex_start + n).unwrap_or_default();
                        let valid = hex.len() == n && hex.bytes().all(|b| b.is_ascii_hexdigit());
                        let ch = if valid {
                            u32::from_str_radix(hex, 16).ok().and_then(char::from_u32)
                        } else {
                            None
                        };
                        match ch {
                            Some(ch) => {
                                out.push(ch);
                                for _ in 0..n {
                                    chars.next();
                                }
                            }
                            None => {
                                let end = raw
                                    .get(hex_start..)
                                    .map(|s| {
                                        s.char_indices()
                                            .take(n)
                                            .take_while(|(_, c)| c.is_ascii_hexdigit())
                                            .last()
                                            .map_or(0, |(k, c)| k + c.len_utf8())
                                    })
                                    .unwrap_or(0);
                                let what = if valid {
                                    "is not a valid Unicode scalar value"
                                } else if e == 'u' {
                                    "needs exactly four hexadecimal digits"
                                } else {
                                    "needs exactly eight hexadecimal digits"
                                };
                                return Err(ctx.err(
                                    format!(
                                        "invalid escape sequence `\\{}{}`: `\\{}` {}",
                                        e,
                                        raw.get(hex_start..hex_start + end).unwrap_or_default(),
                                        e,
                                        what
                                    ),
                                    Span::at(start + i, start + hex_start + end),
                                ));
                            }
                        }
                    }
                    other => {
                        let shown = if other == '\n' {
                            "\\<newline>".to_owned()
                        } else {
                            format!("\\{other}")
                        };
                        return Err(ctx.err(
                            format!(
                                "invalid escape sequence `{shown}`: the valid escapes are \\n \\r \\t \\\" \\\\ \\uNNNN and \\UNNNNNNNN"
                            ),
                            Span::at(start + i, start + j + other.len_utf8()),
                        ));
                    }
                }
            }
            '$' | '%' => {
                out.push(c);
                if raw.get(i + 1..i + 3) == Some(if c == '$' { "${" } else { "%{" }) {
                    // `$${` -> `${`, `%%{` -> `%{`: skip the doubled sign.
                    chars.next();
                }
            }
            _ => out.push(c),
        }
    }
    Ok(Cow::Owned(out))
}

/// Decodes a heredoc or standalone-template literal: only `$${` and
/// `%%{` are sequences there.
pub(in crate::parser) fn unescape_raw(raw: &str) -> Cow<'_, str> {
    if !raw.contains("$${") && !raw.contains("%%{") {
        return nfc(Cow::Borrowed(raw));
    }
    nfc(Cow::Owned(raw.replace("$${", "${").replace("%%{", "%{")))
}
