//! Reads `examples/quickstart.hcl` into typed structs, with variables and
//! functions from a context, and prints them.
//!
//!     cargo run --example quickstart

use serde::Deserialize;

#[derive(Deserialize, Debug)]
#[allow(dead_code)]
struct Config {
    name: String,
    service: Vec<Service>,
}

#[derive(Deserialize, Debug)]
#[allow(dead_code)]
struct Service {
    /// The block's label: `service "web" { ... }`.
    #[serde(rename = "$label")]
    name: String,
    image: String,
    replicas: u32,
    /// `"8080"` converts to a number, as HCL converts when a type asks.
    port: u16,
    /// Computed with `format`, one of the standard functions.
    host: String,
    #[serde(default)]
    listener: Vec<Listener>,
    banner: Option<String>,
    #[serde(default)]
    queues: Vec<String>,
}

#[derive(Deserialize, Debug)]
#[allow(dead_code)]
struct Listener {
    protocol: String,
    port: u16,
}

fn main() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/quickstart.hcl");
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("cannot read {path}: {e}");
            std::process::exit(1);
        }
    };

    // Variables and functions come from the application: here go-cty's
    // standard functions (`upper`, `max`, `format`...). Terraform's own
    // (`cidrsubnet`, `base64encode`, `file`...) are the `terraform` feature
    // of hcl-serde, off by default so that this first build compiles none
    // of their dependencies: `Context::with_terraform_functions()`.
    let mut ctx = hcl::Context::with_stdlib();
    ctx.declare_var("env", "prod");
    ctx.declare_var("region", "eu-west-1");
    ctx.declare_var("version", "2.4.1");
    ctx.declare_var("queues", vec!["Orders", "Emails"]);

    let de = hcl::Deserializer::from_str(&text)
        .with_context(&ctx)
        .with_file_name("examples/quickstart.hcl");
    match Config::deserialize(de) {
        Ok(config) => println!("{config:#?}"),
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(1);
        }
    }
}
