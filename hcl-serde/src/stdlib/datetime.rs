//! The datetime functions.

use super::Table;

/// This family's functions: name and constructor.
pub(super) const DATETIME: Table = &[];
