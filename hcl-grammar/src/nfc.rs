//! Unicode normalization form C: the one definition, for both crates.

use std::borrow::Cow;
use unicode_normalization::{is_nfc_quick, IsNormalized, UnicodeNormalization};

/// `s` in Unicode normalization form C, borrowed when it already is.
/// HCL's template parser normalizes every literal it reads, so a JSON
/// string read as a template (with an evaluation context) is normalized
/// even when it holds no template sequence, as in the reference.
///
/// ```
/// use hcl_grammar::__private::nfc;
/// assert_eq!(nfc("e\u{301}".into()), "\u{e9}");
/// ```
pub fn nfc(s: Cow<'_, str>) -> Cow<'_, str> {
    // ASCII and text the quick check passes stay as they are (borrowed).
    if s.is_ascii() || is_nfc_quick(s.chars()) == IsNormalized::Yes {
        return s;
    }
    Cow::Owned(s.nfc().collect())
}
