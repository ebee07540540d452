//! Spacing: one space or none between two neighbours of a cell, decided
//! by the pair (and, for a `-` or the keyword `in`, by the token before
//! them). [`space_after`] is the rule; [`spaces`] answers most pairs
//! from a table built from it at compile time.

use crate::tokens::TokenKind as K;

/// Every token kind, in declaration order (`ALL[k as usize] == k`, which a
/// test checks).
const ALL: [K; 47] = [
    K::Whitespace,
    K::ByteOrderMark,
    K::Newline,
    K::Comment,
    K::Ident,
    K::NumberLit,
    K::OBrace,
    K::CBrace,
    K::OBrack,
    K::CBrack,
    K::OParen,
    K::CParen,
    K::OQuote,
    K::CQuote,
    K::OHeredoc,
    K::CHeredoc,
    K::QuotedLit,
    K::StringLit,
    K::QuotedNewline,
    K::TemplateInterp,
    K::TemplateControl,
    K::TemplateSeqEnd,
    K::Equal,
    K::EqualOp,
    K::NotEqual,
    K::LessThan,
    K::LessThanEq,
    K::GreaterThan,
    K::GreaterThanEq,
    K::And,
    K::Or,
    K::Bang,
    K::Plus,
    K::Minus,
    K::Star,
    K::Slash,
    K::Percent,
    K::Dot,
    K::Ellipsis,
    K::Comma,
    K::Question,
    K::Colon,
    K::DoubleColon,
    K::FatArrow,
    K::OtherSymbol,
    K::Invalid,
    K::BadUtf8,
];

const N: usize = ALL.len();

/// For each `(subject, after)` pair: 0 (no space) or 1 (a space) when
/// `space_after` gives that for every `before` (and, for an identifier,
/// whether it is `in`), else 2.
static TABLE: [[u8; N]; N] = table();

#[allow(clippy::indexing_slicing)] // `i`, `j` < N, `b` <= N
const fn table() -> [[u8; N]; N] {
    let mut t = [[0; N]; N];
    let mut i = 0;
    while i < N {
        let mut j = 0;
        while j < N {
            let first = space_after(ALL[i], false, None, ALL[j]);
            let mut same = true;
            // Only an identifier can be `in`.
            let ins = if matches!(ALL[i], K::Ident) { 2 } else { 1 };
            let mut b = 0;
            while b <= N {
                let before = if b == N { None } else { Some(ALL[b]) };
                let mut is_in = 0;
                while is_in < ins {
                    if space_after(ALL[i], is_in == 1, before, ALL[j]) != first {
                        same = false;
                    }
                    is_in += 1;
                }
                b += 1;
            }
            t[i][j] = if same { first as u8 } else { 2 };
            j += 1;
        }
        i += 1;
    }
    t
}

/// The spaces between `subject` and `after` ([`space_after`]).
#[inline]
pub(super) fn spaces(subject: K, subject_is_in: bool, before: Option<K>, after: K) -> usize {
    let pair = TABLE
        .get(subject as usize)
        .and_then(|row| row.get(after as usize));
    match pair {
        Some(&known @ (0 | 1)) => usize::from(known),
        _ => usize::from(space_after(subject, subject_is_in, before, after)),
    }
}

const fn is_literal(k: K) -> bool {
    matches!(k, K::QuotedLit | K::StringLit)
}

/// Whether a space goes between `subject` and `after`; `before` is the
/// token before `subject` in its cell, if any.
const fn space_after(subject: K, subject_is_in: bool, before: Option<K>, after: K) -> bool {
    match (subject, after) {
        (_, K::Newline) => false,
        (K::Ident, K::OParen) => false,
        (K::Dot, _) | (_, K::Dot) => false,
        (K::DoubleColon, _) | (_, K::DoubleColon) => false,
        (_, K::Comma | K::Ellipsis) => false,
        (K::Comma, _) => true,
        (K::OQuote | K::OHeredoc, _) | (_, K::CQuote | K::CHeredoc) => false,
        _ if is_literal(subject) || is_literal(after) => false,
        // `[for x in [a]: x]`: `in` is a keyword, not a name to index.
        _ if subject_is_in && matches!(before, Some(K::Ident)) => true,
        (K::Ident | K::NumberLit, K::OBrack) => false,
        (_, K::OBrack) if subject.bracket_change() < 0 => false,
        (K::Bang, _) => false,
        (K::Minus, _) => !matches!(
            before,
            None | Some(
                K::OParen
                    | K::OBrace
                    | K::OBrack
                    | K::Equal
                    | K::Colon
                    | K::Comma
                    | K::Question
                    | K::Plus
                    | K::Star
                    | K::Slash
                    | K::Percent
                    | K::Minus
                    | K::EqualOp
                    | K::NotEqual
                    | K::GreaterThan
                    | K::GreaterThanEq
                    | K::LessThan
                    | K::LessThanEq
                    | K::And
                    | K::Or
                    | K::Bang
            )
        ),
        (K::OBrace, K::CBrace) => false,
        (K::OBrace, _) | (_, K::CBrace) => true,
        (K::TemplateInterp | K::TemplateControl, K::OBrace) => true,
        (K::CBrace, K::TemplateSeqEnd) => true,
        (K::TemplateSeqEnd, K::TemplateInterp | K::TemplateControl) => false,
        _ if subject.bracket_change() > 0 => false,
        _ if after.bracket_change() < 0 => false,
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn all_kinds_in_order() {
        for (i, k) in ALL.iter().enumerate() {
            assert_eq!(*k as usize, i);
        }
        // A kind added after `BadUtf8` would be missing from `ALL`.
        assert_eq!(K::BadUtf8 as usize, N - 1);
    }

    #[test]
    fn table_agrees_with_the_rule() {
        let befores = std::iter::once(None).chain(ALL.iter().copied().map(Some));
        for before in befores {
            for &subject in &ALL {
                for &after in &ALL {
                    for is_in in [false, subject == K::Ident] {
                        assert_eq!(
                            spaces(subject, is_in, before, after),
                            usize::from(space_after(subject, is_in, before, after))
                        );
                    }
                }
            }
        }
    }
}
