//! Read HCL, the HashiCorp Configuration Language, into typed Rust values
//! with serde.

pub use hcl_grammar as grammar;
