//! The encoding functions.

use super::Table;

/// This family's functions: name and constructor.
pub(super) const ENCODING: Table = &[];
