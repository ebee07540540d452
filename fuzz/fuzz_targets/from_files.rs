//! Several files as one body on any bytes: the input cut at each `0xFF`
//! byte (never in UTF-8 text) into up to four files, named in turn
//! `a.hcl`, `b.tf.json`, `c.hcl`, `d.tf.json`, read with
//! `hcl::from_files` into `hcl::Value` and, with a context, into a typed
//! struct. Nothing may panic; every error of a `Value` target has a
//! position and names its file.
#![no_main]

use libfuzzer_sys::fuzz_target;
use serde::Deserialize;

#[derive(Deserialize)]
#[allow(dead_code)]
struct Typed {
    a: Option<hcl::Value>,
    #[serde(default)]
    b: Vec<Nested>,
    #[serde(default)]
    c: std::collections::BTreeMap<String, Nested>,
    d: Option<hcl::RawExpression>,
}

#[derive(Deserialize)]
#[allow(dead_code)]
struct Nested {
    #[serde(rename = "$labels", default)]
    labels: Vec<String>,
    a: Option<hcl::Value>,
    #[serde(default)]
    b: Vec<Nested>,
}

const NAMES: [&str; 4] = ["a.hcl", "b.tf.json", "c.hcl", "d.tf.json"];

fuzz_target!(|data: &[u8]| {
    let mut sources = hcl::schema::Sources::new();
    for (name, part) in NAMES.iter().zip(data.splitn(NAMES.len(), |&b| b == 0xFF)) {
        sources.add(*name, String::from_utf8_lossy(part));
    }
    if let Err(e) = hcl::from_files::<hcl::Value>(&sources) {
        assert!(e.line().is_some() && e.column().is_some(), "{e}");
        assert!(e.file().is_some(), "{e}");
    }
    let ctx = hcl::Context::with_stdlib();
    if let Err(e) = hcl::from_files_with::<Typed>(&sources, &ctx) {
        if e.line().is_some() {
            assert!(e.file().is_some(), "{e}");
        }
    }
});
