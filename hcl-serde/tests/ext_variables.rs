//! `variables()` on captured expressions and bodies: spans are in the
//! file the capture was read from. Expected spans from `hcl-oracle
//! variables-body` on the same text.

use hcl::ext::variables::{Step, Traversal};
use hcl::Value;
use hcl_grammar::Span;
use serde::Deserialize;

const SRC: &str = "x = 1\nblk {\n  y = var.a + local.b[\"k\"] + [for v in v : v.x]\n}\n";

fn expected() -> Vec<Traversal> {
    vec![
        Traversal {
            root: "var".into(),
            steps: vec![Step::Attr("a".into())],
            span: Span::new(18, 23),
        },
        Traversal {
            root: "local".into(),
            steps: vec![Step::Attr("b".into()), Step::Index(Value::from("k"))],
            span: Span::new(26, 38),
        },
        Traversal {
            root: "v".into(),
            steps: vec![],
            span: Span::new(51, 52),
        },
    ]
}

#[test]
fn captured_expression_spans_are_in_the_file() -> hcl::Result<()> {
    #[derive(Deserialize)]
    struct Blk {
        y: hcl::RawExpression,
    }
    #[derive(Deserialize)]
    struct Config {
        blk: Blk,
    }
    let c: Config = hcl::from_str(SRC)?;
    assert_eq!(c.blk.y.variables(), expected());
    Ok(())
}

#[test]
fn captured_body_spans_are_in_the_file() -> hcl::Result<()> {
    #[derive(Deserialize)]
    struct Config {
        blk: hcl::RawBody,
    }
    let c: Config = hcl::from_str(SRC)?;
    assert_eq!(c.blk.variables(), expected());
    Ok(())
}

#[test]
fn whole_file_body() -> Result<(), hcl_grammar::Error> {
    let body = hcl_grammar::parse_body(SRC, &Default::default())?;
    assert_eq!(hcl::ext::variables::body_variables(&body), expected());
    Ok(())
}

#[test]
fn display_is_hcl_syntax() -> Result<(), hcl_grammar::Error> {
    let e = hcl_grammar::parse_expr("a.b[0][\"k\\\"\"][true][null][1.5].c", &Default::default())?;
    let refs = hcl::ext::variables::variables(&e);
    assert_eq!(refs.len(), 1);
    assert_eq!(refs[0].to_string(), "a.b[0][\"k\\\"\"][true][null][1.5].c");
    Ok(())
}
