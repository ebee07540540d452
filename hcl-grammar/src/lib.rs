//! A parser for the HCL native syntax (the language of Terraform, Packer,
//! Nomad and Vault files), producing a spanned syntax tree that borrows
//! from its input.
//!
//! This crate knows nothing of evaluation or serde: it turns text into a
//! [`Body`], an [`Expr`] or a [`Template`], or into an [`Error`] that says
//! what is wrong and where. The `hcl` crate (package `hcl-serde`) evaluates
//! the tree and deserializes it into Rust types.

pub mod ast;
mod error;
mod span;

pub use ast::*;
pub use error::Error;
pub use span::{Position, Span};

/// The result type of this crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;
