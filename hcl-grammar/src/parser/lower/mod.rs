//! The lowering both routes share: every rule that turns syntax into tree
//! nodes, defined once. The pest route ([`super::pest`]) and the fast path
//! ([`super::fast`]) each read the text their own way and call these
//! builders, so the trees they build are the same by construction (and
//! `tests/fast_vs_pest.rs` checks it).
//!
//! - [`expr`]: operator precedence, keyword literals, object keys, postfix
//!   steps and splats;
//! - [`template`]: the flat tokens of a template, strip markers, heredoc
//!   indentation and directive nesting;
//! - [`structure`]: identifier checks and attribute repeats;
//! - [`string`]: literal decoding (escapes, `$${`, NFC);
//! - [`number`]: number literals.

pub(in crate::parser) mod expr;
pub(in crate::parser) mod number;
pub(in crate::parser) mod string;
pub(in crate::parser) mod structure;
pub(in crate::parser) mod template;
