//! `hcl::from_slice::<hcl::Value>` on any bytes.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Err(e) = hcl::from_slice::<hcl::Value>(data) {
        assert!(e.line().is_some() && e.column().is_some(), "{e}");
    }
});
