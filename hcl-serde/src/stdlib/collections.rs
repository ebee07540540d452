//! The collections functions.
//!
//! Convention of every family file: one `pub fn NAME() -> FuncDef` per
//! function (re-exported as `hcl::stdlib::NAME`, documented with an
//! example), and the table below listing `("name", NAME)` for each, which
//! `stdlib/mod.rs` reads for `all()`, `Context::add_stdlib()`; the
//! constructor type is `fn() -> FuncDef` (`use crate::eval::FuncDef`).
//! Functions whose Rust name would be a keyword (`try`) take a trailing
//! underscore (`try_`) and keep their HCL name in the table.

use super::Table;

/// This family's functions: name and constructor.
pub(super) const COLLECTIONS: Table = &[];
