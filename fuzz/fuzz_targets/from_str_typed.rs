//! `hcl::from_str` into a typed struct with nested blocks, labels, enums
//! and options.
#![no_main]

use libfuzzer_sys::fuzz_target;
use serde::Deserialize;
use std::collections::BTreeMap;

#[derive(Deserialize, Debug)]
#[allow(dead_code)]
struct Config {
    name: Option<String>,
    port: Option<u16>,
    enabled: Option<bool>,
    ratio: Option<f64>,
    tags: Option<BTreeMap<String, String>>,
    list: Option<Vec<i64>>,
    mode: Option<Mode>,
    #[serde(default)]
    service: Vec<Service>,
    #[serde(default)]
    listener: Vec<Listener>,
    #[serde(default)]
    resource: BTreeMap<String, BTreeMap<String, Vec<hcl::RawBody>>>,
    #[serde(default)]
    locals: Vec<BTreeMap<String, hcl::RawExpression>>,
}

#[derive(Deserialize, Debug)]
#[allow(dead_code)]
struct Service {
    #[serde(rename = "$label")]
    label: String,
    port: Option<u16>,
    value: Option<hcl::Value>,
    #[serde(default)]
    service: Vec<Service>,
}

#[derive(Deserialize, Debug)]
#[serde(rename_all = "lowercase")]
#[allow(dead_code)]
enum Mode {
    Fast,
    Safe,
    Custom { level: u8 },
}

#[derive(Deserialize, Debug)]
#[serde(rename_all = "lowercase")]
#[allow(dead_code)]
enum Listener {
    Tcp { port: u16 },
    Unix { path: String },
    Off,
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Err(e) = hcl::from_str::<Config>(text) {
        assert!(e.line().is_some() && e.column().is_some(), "{e}");
    }
});
