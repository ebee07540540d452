//! The reference's extensions that Terraform, Packer and Nomad build on
//! (issue #13): what an expression reads ([`variables`]), type
//! constraints ([`typeexpr`]) and functions declared in HCL
//! ([`userfunc`]). Child contexts are [`Context::child`](crate::Context::child).

pub mod typeexpr;
pub mod userfunc;
pub mod variables;
