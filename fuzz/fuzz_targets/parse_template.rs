//! `hcl_grammar::parse_template_bytes` on any bytes.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Err(e) = hcl_grammar::parse_template_bytes(data) {
        assert!(e.line() >= 1 && e.column() >= 1);
        assert!(e.span().start() <= data.len());
    }
});
