//! `hcl_grammar::parse_expr` on any bytes.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Err(e) = hcl_grammar::parse_expr(data, &Default::default()) {
        assert!(e.line() >= 1 && e.column() >= 1);
        assert!(e.span().start() <= data.len());
    }
});
