//! Terraform's `cidr*` functions on IPv4-mapped IPv6 networks and negative
//! IPv6 subnet numbers (issue #22). Go's `net` package reads
//! `::ffff:a.b.c.d` as an IPv4 address wherever it calls `To4`, and
//! go-cidr follows it unevenly; every expected outcome here is Terraform's
//! (`../shared/oracle/terraform/bin/tforacle expr`).
#![cfg(feature = "terraform")]

use hcl::eval::eval_expr_str;
use hcl::{Context, Value};

/// `(expression, Terraform's value)`.
const VALUES: &[(&str, &str)] = &[
    // A mapped network prints as IPv4, its prefix counted in the last 32
    // bits (Go's `IPNet.String`).
    (
        r#"cidrsubnet("::ffff:192.168.0.0/112", 8, 6)"#,
        "192.168.6.0/24",
    ),
    (r#"cidrsubnet("::ffff:c0a8:0/112", 8, 6)"#, "192.168.6.0/24"),
    (
        r#"cidrsubnet("::ffff:192.168.0.0/120", 4, 3)"#,
        "192.168.0.48/28",
    ),
    (r#"cidrsubnet("::ffff:192.168.0.0/96", 8, 6)"#, "6.0.0.0/8"),
    (
        r#"cidrsubnet("::ffff:192.168.0.0/112", 0, 0)"#,
        "192.168.0.0/16",
    ),
    (r#"cidrsubnet("::ffff:0:0/80", 16, 65535)"#, "0.0.0.0/0"),
    (r#"cidrsubnet("::ffff:192.168.0.0/95", 1, 1)"#, "0.0.0.0/0"),
    // Leaving the mapped range, an IPv6 network again.
    (r#"cidrsubnet("::ffff:0:0/64", 8, 1)"#, "::100:0:0:0/72"),
    (
        r#"cidrsubnet("::ffff:192.168.0.0/95", 1, 0)"#,
        "::fffe:0:0/96",
    ),
    // A negative subnet number, IPv6 as IPv4: Go ORs its two's
    // complement into the address.
    (r#"cidrsubnet("::ffff:10.0.0.0/104", 8, -1)"#, "::1:0/112"),
    (r#"cidrsubnet("fd00::/16", 8, -1)"#, "0:100::/24"),
    (r#"cidrsubnet("fd00::/120", 8, -255)"#, "::ff/128"),
    // go-cidr places a mapped network's host number for a 32-bit width
    // but shifts it within the 16 bytes.
    (
        r#"cidrhost("::ffff:192.168.0.0/112", 5)"#,
        "0:5::ffff:c0a8:0",
    ),
    (
        r#"cidrhost("::ffff:192.168.0.0/112", -1)"#,
        "0:ffff::ffff:c0a8:0",
    ),
    (r#"cidrhost("::ffff:0:0/64", 5)"#, "::5"),
    // A mapped network has a netmask: its 16 bytes.
    (
        r#"cidrnetmask("::ffff:192.168.0.0/112")"#,
        "ffff:ffff:ffff:ffff:ffff:ffff:ffff:0",
    ),
    (
        r#"cidrsubnets("::ffff:192.168.0.0/95", 1)"#,
        "[\"::fffe:0:0/96\"]",
    ),
    (
        r#"cidrsubnets("::fffe:192.168.0.0/112", 8)"#,
        "[\"::fffe:c0a8:0/120\"]",
    ),
];

/// `(expression, the end of Terraform's message)`.
const ERRORS: &[(&str, &str)] = &[
    (
        r#"cidrnetmask("::ffff:192.168.0.0/64")"#,
        "IPv6 addresses cannot have a netmask: ::ffff:192.168.0.0/64",
    ),
    // A mapped network has no subnets: go-cidr's first step masks its
    // 4-byte form with a mask of more than 32 bits, which gives none.
    (
        r#"cidrsubnets("::ffff:192.168.0.0/112", 8, 8, 4)"#,
        "not enough remaining address space for a subnet with a prefix of 120 bits after <nil>",
    ),
    (
        r#"cidrsubnets("::ffff:0.0.0.0/96", 1)"#,
        "not enough remaining address space for a subnet with a prefix of 97 bits after <nil>",
    ),
    // A subnet landing on a mapped address is not inside an IPv6 network.
    (
        r#"cidrsubnets("::ffff:192.168.0.0/95", 1, 1)"#,
        "not enough remaining address space for a subnet with a prefix of 96 bits after ::fffe:0:0/96",
    ),
    (
        r#"cidrsubnets("::ffff:0:0/64", 32, 32)"#,
        "not enough remaining address space for a subnet with a prefix of 96 bits after ffff:ffff:ffff:ffff:ffff:ffff::/96",
    ),
    (
        r#"cidrhost("::/128", -2)"#,
        "prefix of 128 does not accommodate a host numbered -1",
    ),
    (
        r#"cidrhost("255.168.168.255/30", -224)"#,
        "prefix of 30 does not accommodate a host numbered -220",
    ),
];

fn text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Array(items) => format!(
            "[{}]",
            items
                .iter()
                .map(|i| format!("{:?}", text(i)))
                .collect::<Vec<_>>()
                .join(",")
        ),
        other => format!("{other:?}"),
    }
}

#[test]
fn mapped_networks_as_terraform() {
    let ctx = Context::with_terraform_functions();
    for (src, want) in VALUES {
        match eval_expr_str(src, &ctx) {
            Ok(v) => assert_eq!(text(&v), *want, "{src}"),
            Err(e) => panic!("{src}: {e}"),
        }
    }
    for (src, want) in ERRORS {
        match eval_expr_str(src, &ctx) {
            Ok(v) => panic!("{src}: {v:?}, Terraform fails"),
            Err(e) => assert!(e.to_string().contains(want), "{src}: {e}"),
        }
    }
}
