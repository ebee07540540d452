//! The reference's extensions that Terraform, Packer and Nomad build on
//! (issue #13): what an expression reads ([`variables`]), type
//! constraints ([`typeexpr`]) and functions declared in HCL
//! ([`userfunc`]), dynamic blocks ([`dynblock`], over [`crate::schema`]).
//! Several files as one body is [`crate::schema::merge`]. Child contexts are [`Context::child`](crate::Context::child).

pub mod dynblock;
pub mod typeexpr;
pub mod userfunc;
pub mod variables;
