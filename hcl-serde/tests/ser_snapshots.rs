//! Snapshots of `hcl::to_string`: the README's config and a Terraform-like
//! module. Each snapshot was reviewed by hand, and each output is also
//! checked here to be unchanged by the reference formatter (`hcl-oracle
//! fmt`, skipped with a message when the oracle is absent) and to read
//! back as the value written.

#![allow(clippy::expect_used, clippy::unwrap_used)]

use hcl::ser::Block;
use hcl::RawExpression;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

fn assert_reference_layout(name: &str, text: &str) {
    assert_eq!(hcl::format(text).expect("format"), text, "hcl::format");
    // `HCL_ORACLE` first (a built oracle elsewhere), as `number_range`.
    let bin = std::env::var_os("HCL_ORACLE").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/oracle/bin/hcl-oracle"),
        std::path::PathBuf::from,
    );
    if !bin.is_file() {
        hcl_test_support::not_run(format!(
            "ser_snapshots: oracle check skipped, no oracle at {}",
            bin.display()
        ));
        return;
    }
    let file = std::env::temp_dir().join(format!("hcl-ser-snap-{name}-{}.hcl", std::process::id()));
    std::fs::write(&file, text).expect("write");
    let out = Command::new(&bin)
        .arg("fmt")
        .arg(&file)
        .output()
        .expect("oracle");
    let _ = std::fs::remove_file(&file);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout), text);
}

// The README's config (README.md, "Usage").
#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Config {
    name: String,
    service: Vec<Service>,
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Service {
    #[serde(rename = "$label")]
    name: String,
    port: u16,
    #[serde(default)]
    listener: Vec<Listener>,
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Listener {
    protocol: String,
}

#[test]
fn readme_config() {
    let config = Config {
        name: "shop-prod".into(),
        service: vec![
            Service {
                name: "web".into(),
                port: 8080,
                listener: vec![
                    Listener {
                        protocol: "http".into(),
                    },
                    Listener {
                        protocol: "HTTPS".into(),
                    },
                ],
            },
            Service {
                name: "metrics".into(),
                port: 9100,
                listener: vec![],
            },
        ],
    };
    let text = hcl::to_string(&config).expect("serialize");
    insta::assert_snapshot!(text);
    assert_reference_layout("readme", &text);
    assert_eq!(hcl::from_str::<Config>(&text).expect("read back"), config);
}

// A Terraform-like module: typed blocks whose attribute values are
// expressions, written back unevaluated.
#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Module {
    terraform: Terraform,
    variable: BTreeMap<String, Variable>,
    resource: BTreeMap<String, BTreeMap<String, Resource>>,
    locals: Block<BTreeMap<String, RawExpression>>,
    output: BTreeMap<String, Output>,
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Terraform {
    required_version: String,
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Variable {
    #[serde(rename = "type")]
    ty: RawExpression,
    default: Option<hcl::Value>,
    description: String,
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Resource {
    count: Option<RawExpression>,
    ami: Option<RawExpression>,
    instance_type: Option<RawExpression>,
    tags: Option<BTreeMap<String, RawExpression>>,
    #[serde(default)]
    ingress: Vec<Ingress>,
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Ingress {
    from_port: u16,
    to_port: u16,
    cidr_blocks: Vec<String>,
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Output {
    value: RawExpression,
    sensitive: Option<bool>,
}

fn e(s: &str) -> RawExpression {
    RawExpression::parse(s).expect("expression")
}

#[test]
fn terraform_module() {
    let module = Module {
        terraform: Terraform {
            required_version: ">= 1.5".into(),
        },
        variable: BTreeMap::from([
            (
                "instance_count".into(),
                Variable {
                    ty: e("number"),
                    default: Some(hcl::Value::from(2)),
                    description: "How many web servers".into(),
                },
            ),
            (
                "region".into(),
                Variable {
                    ty: e("string"),
                    default: None,
                    description: "The AWS region, e.g. \"eu-west-1\"".into(),
                },
            ),
        ]),
        resource: BTreeMap::from([
            (
                "aws_instance".into(),
                BTreeMap::from([(
                    "web".into(),
                    Resource {
                        count: Some(e("var.instance_count")),
                        ami: Some(e("data.aws_ami.ubuntu.id")),
                        instance_type: Some(e("\"t3.micro\"")),
                        tags: Some(BTreeMap::from([
                            ("Name".into(), e("\"web-${count.index}\"")),
                            ("Environment".into(), e("local.env")),
                        ])),
                        ingress: vec![],
                    },
                )]),
            ),
            (
                "aws_security_group".into(),
                BTreeMap::from([(
                    "web".into(),
                    Resource {
                        count: None,
                        ami: None,
                        instance_type: None,
                        tags: None,
                        ingress: vec![
                            Ingress {
                                from_port: 80,
                                to_port: 80,
                                cidr_blocks: vec!["0.0.0.0/0".into()],
                            },
                            Ingress {
                                from_port: 443,
                                to_port: 443,
                                cidr_blocks: vec!["10.0.0.0/8".into(), "192.168.0.0/16".into()],
                            },
                        ],
                    },
                )]),
            ),
        ]),
        locals: Block(BTreeMap::from([
            ("env".into(), e("terraform.workspace")),
            ("name_prefix".into(), e("\"app-${local.env}\"")),
        ])),
        output: BTreeMap::from([(
            "instance_ids".into(),
            Output {
                value: e("aws_instance.web[*].id"),
                sensitive: Some(false),
            },
        )]),
    };
    let text = hcl::to_string(&module).expect("serialize");
    insta::assert_snapshot!(text);
    assert_reference_layout("module", &text);
    // An RawExpression's equality includes its place in the file: compare
    // what the module read back writes.
    let back: Module = hcl::from_str(&text).expect("read back");
    assert_eq!(hcl::to_string(&back).expect("serialize again"), text);
}
