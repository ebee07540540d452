//! What an HCL identifier is, defined once for both crates:
//! `Identifier = ID_Start (ID_Continue | '-')*` (UAX #31, with `_` allowed
//! first as in the reference).

/// Whether `c` may start an identifier.
pub(crate) fn is_id_start(c: char) -> bool {
    // ASCII's XID_Start members are the letters: no table for them.
    if c.is_ascii() {
        return c.is_ascii_alphabetic() || c == '_';
    }
    unicode_xid::UnicodeXID::is_xid_start(c)
}

/// Whether `c` may continue an identifier.
pub(crate) fn is_id_continue(c: char) -> bool {
    // ASCII's XID_Continue members are letters, digits and `_`.
    if c.is_ascii() {
        return c.is_ascii_alphanumeric() || c == '_' || c == '-';
    }
    unicode_xid::UnicodeXID::is_xid_continue(c)
}

/// Whether `s` is an HCL identifier: a name that can be written unquoted
/// (an attribute, a variable, an object key).
///
/// ```
/// assert!(hcl_grammar::is_identifier("my-name_2"));
/// assert!(hcl_grammar::is_identifier("caf\u{e9}"));
/// assert!(!hcl_grammar::is_identifier("2x"));
/// assert!(!hcl_grammar::is_identifier(""));
/// ```
#[inline]
pub fn is_identifier(s: &str) -> bool {
    let Some((&first, rest)) = s.as_bytes().split_first() else {
        return false;
    };
    // ASCII by table, without the Unicode tables: most names are ASCII.
    // A byte indexes 256 entries.
    #[allow(clippy::indexing_slicing)]
    if crate::scan::ASCII_IDENT_START[usize::from(first)] {
        let stop = rest
            .iter()
            .find(|&&c| !crate::scan::ASCII_IDENT_BYTE[usize::from(c)]);
        match stop {
            None => return true,
            Some(&c) if c < 0x80 => return false,
            // Not ASCII: the whole rule below.
            Some(_) => {}
        }
    } else if first < 0x80 {
        return false;
    }
    let mut chars = s.chars();
    chars.next().is_some_and(is_id_start) && chars.all(is_id_continue)
}

#[cfg(test)]
mod tests {
    /// The ASCII shortcut agrees with the character rule.
    #[test]
    fn the_ascii_path_is_the_rule() {
        let rule = |s: &str| {
            let mut chars = s.chars();
            chars.next().is_some_and(super::is_id_start) && chars.all(super::is_id_continue)
        };
        let pieces = [
            "a", "Z", "_", "-", "0", "9", " ", ".", "\u{e9}", "\u{301}", "\u{7f}", "$",
        ];
        for a in pieces {
            for b in pieces {
                for c in pieces {
                    let s = format!("{a}{b}{c}");
                    assert_eq!(super::is_identifier(&s), rule(&s), "{s:?}");
                }
            }
        }
    }

    #[test]
    fn ascii_classes_are_the_tables() {
        for b in 0u8..0x80 {
            let c = char::from(b);
            assert_eq!(
                super::is_id_start(c),
                unicode_xid::UnicodeXID::is_xid_start(c) || c == '_',
                "{c:?}"
            );
            assert_eq!(
                super::is_id_continue(c),
                unicode_xid::UnicodeXID::is_xid_continue(c) || c == '-',
                "{c:?}"
            );
        }
    }
}
