//! Unicode normalization form C for every string value, as the reference
//! has it: every go-cty string is NFC (`cty.StringVal` normalizes), so
//! strings from the application's variables, template concatenations and
//! function results are normalized too, not only literals (which the
//! parser normalizes). The normalization itself is the grammar's
//! ([`hcl_grammar::__private::nfc`]), defined once.

use super::{Map, Value};
use hcl_grammar::__private::nfc;
use std::borrow::Cow;

/// Whether `s` is NFC already: the cheap path that keeps the common case
/// allocation-free.
fn is_nfc(s: &str) -> bool {
    matches!(nfc(Cow::Borrowed(s)), Cow::Borrowed(_))
}

/// `s` in NFC.
pub(crate) fn nfc_string(s: String) -> String {
    nfc(Cow::Owned(s)).into_owned()
}

/// Normalizes every string inside `v` (object keys too), in place.
pub(crate) fn nfc_value(v: &mut Value) {
    match v {
        Value::String(s) => {
            if let Cow::Owned(composed) = nfc(Cow::Borrowed(s)) {
                *s = composed;
            }
        }
        Value::Array(items) => items.iter_mut().for_each(nfc_value),
        Value::Object(m) => {
            if m.keys().all(|k| is_nfc(k)) {
                m.values_mut().for_each(nfc_value);
            } else {
                let old = std::mem::take(m);
                let mut out = Map::with_capacity(old.len());
                for (k, mut item) in old {
                    nfc_value(&mut item);
                    out.insert(nfc_string(k), item);
                }
                *m = out;
            }
        }
        Value::Null | Value::Bool(_) | Value::Number(_) | Value::Unknown(_) => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decomposed_strings_compose_everywhere_in_a_value() {
        let mut v = Value::Array(vec![
            Value::String("cafe\u{301}".to_owned()),
            Value::Object(Map::from_iter([(
                "e\u{301}".to_owned(),
                Value::String("a\u{30a}".to_owned()),
            )])),
        ]);
        nfc_value(&mut v);
        assert_eq!(
            v,
            Value::Array(vec![
                Value::String("caf\u{e9}".to_owned()),
                Value::Object(Map::from_iter([(
                    "\u{e9}".to_owned(),
                    Value::String("\u{e5}".to_owned())
                )])),
            ])
        );
    }

    #[test]
    fn a_mark_without_a_composed_form_stays() {
        assert_eq!(nfc_string("x\u{301}".to_owned()), "x\u{301}");
    }
}
