//! `hcl_grammar::parse_body` on any bytes: a tree or an error with
//! a position inside the input, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Err(e) = hcl_grammar::parse_body(data, &Default::default()) {
        assert!(e.line() >= 1 && e.column() >= 1);
        assert!(e.span().start() <= data.len());
    }
});
