//! Grapheme clusters as the reference counts them.
//!
//! The reference (go-textseg v13) follows Unicode 13's segmentation rules;
//! `unicode-segmentation` follows a newer version, whose rule GB9c joins
//! an Indic consonant to a preceding virama (`क्ष` is one cluster there,
//! two in Unicode 13). This module splits those clusters again, so lengths
//! and offsets match the reference.

use unicode_segmentation::UnicodeSegmentation;

/// Whether `c` is an Indic consonant that rule GB9c (Unicode 15.1) joins
/// to a preceding virama (`Indic_Conjunct_Break=Consonant`).
fn is_incb_consonant(c: char) -> bool {
    matches!(u32::from(c),
        0x0915..=0x0939 | 0x0958..=0x095F | 0x0978..=0x097F // Devanagari
        | 0x0995..=0x09A8 | 0x09AA..=0x09B0 | 0x09B2 | 0x09B6..=0x09B9
        | 0x09DC..=0x09DD | 0x09DF | 0x09F0..=0x09F1 // Bengali
        | 0x0A95..=0x0AA8 | 0x0AAA..=0x0AB0 | 0x0AB2..=0x0AB3 | 0x0AB5..=0x0AB9
        | 0x0AF9 // Gujarati
        | 0x0B15..=0x0B28 | 0x0B2A..=0x0B30 | 0x0B32..=0x0B33 | 0x0B35..=0x0B39
        | 0x0B5C..=0x0B5D | 0x0B5F | 0x0B71 // Oriya
        | 0x0C15..=0x0C28 | 0x0C2A..=0x0C39 | 0x0C58..=0x0C5A // Telugu
        | 0x0D15..=0x0D3A // Malayalam
    )
}

/// Whether `c` is a `Prepend` character that precedes consonants (the
/// Malayalam dot reph): such a pair is one cluster in Unicode 13 too.
fn is_prepend(c: char) -> bool {
    c == '\u{0D4E}'
}

/// The grapheme clusters of `s`, by Unicode 13's rules.
pub(super) fn graphemes(s: &str) -> impl DoubleEndedIterator<Item = &str> + '_ {
    s.graphemes(true).flat_map(split_conjuncts)
}

/// A cluster, split before each consonant joined by rule GB9c: one part
/// (no allocation) for all but Indic conjuncts.
fn split_conjuncts(g: &str) -> Parts<'_> {
    let first = g.chars().next();
    let mut rest = g.char_indices().skip(1);
    if !rest.any(|(_, c)| is_incb_consonant(c)) {
        return Parts::One(Some(g));
    }
    let mut parts = Vec::new();
    let mut start = 0;
    let mut prev = first;
    for (i, c) in g.char_indices().skip(1) {
        if is_incb_consonant(c) && !prev.is_some_and(is_prepend) {
            parts.push(g.get(start..i).unwrap_or_default());
            start = i;
        }
        prev = Some(c);
    }
    parts.push(g.get(start..).unwrap_or_default());
    Parts::Many(parts.into_iter())
}

/// The parts of one cluster.
enum Parts<'a> {
    One(Option<&'a str>),
    Many(std::vec::IntoIter<&'a str>),
}

impl<'a> Iterator for Parts<'a> {
    type Item = &'a str;
    fn next(&mut self) -> Option<&'a str> {
        match self {
            Parts::One(g) => g.take(),
            Parts::Many(it) => it.next(),
        }
    }
}

impl DoubleEndedIterator for Parts<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        match self {
            Parts::One(g) => g.take(),
            Parts::Many(it) => it.next_back(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::graphemes;

    #[test]
    fn conjuncts_are_split_as_in_unicode_13() {
        // The reference: strlen("क्ष") is 2, strrev gives "षक्".
        assert_eq!(graphemes("क्ष").collect::<Vec<_>>(), ["क्", "ष"]);
        assert_eq!(graphemes("e\u{301}x").count(), 2);
        assert_eq!(graphemes("👨‍👩‍👧").count(), 1);
    }
}
