//! Conformance runner (see `tests/conformance/`).
fn main() {}
