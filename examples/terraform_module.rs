//! Loads a Terraform module directory and prints a summary: its
//! variables (type constraints applied to their defaults), its locals
//! (evaluated in dependency order, found with `variables()`), and its
//! resources and outputs.
//!
//!     cargo run --example terraform_module -- examples/terraform_module
//!
//! Every `.tf` file of the directory is read, in bytewise order of their
//! names (`hcl::schema::Sources`); the variables are read from all of them
//! as one body through serde (`hcl::from_files`), the resources through
//! the schema API (`hcl::schema::merge`) with their `dynamic` blocks
//! expanded (`hcl::ext::dynblock`). On an error, prints it and exits 1.

use hcl::ext::dynblock;
use hcl::ext::typeexpr::TypeConstraint;
use hcl::ext::variables::{body_variables, variables, Step};
use hcl::schema::{merge, BodySchema, Sources};
use hcl::{Context, Map, RawExpression, Value};
use hcl_grammar::{Body, Expr, Structure};
use serde::Deserialize;
use std::collections::BTreeSet;
use std::sync::Arc;

/// A `variable` block, through serde: the type constraint deserializes
/// from the unevaluated `type = ...` expression; the default is captured
/// with its file and line, for the message if it does not convert.
#[derive(Deserialize)]
struct Variable {
    #[serde(rename = "$label")]
    name: String,
    #[serde(rename = "type")]
    ty: Option<TypeConstraint>,
    default: Option<RawExpression>,
    description: Option<String>,
}

#[derive(Deserialize)]
struct Variables {
    #[serde(default)]
    variable: Vec<Variable>,
}

fn main() {
    if let Err(e) = run() {
        eprintln!("{e}");
        std::process::exit(1);
    }
}

fn run() -> Result<(), String> {
    let dir = std::env::args()
        .nth(1)
        .ok_or("usage: terraform_module DIR")?;
    let sources = Sources::read_dir(&dir, &["tf"]).map_err(|e| e.to_string())?;
    let files: Vec<(String, String)> = sources
        .files()
        .map(|(n, t)| (n.to_owned(), t.to_owned()))
        .collect();
    let mut ctx = Context::new();
    ctx.add_stdlib();

    // Variables: the `variable` blocks of all the files, defaults
    // converted to their type.
    let mut vars = Map::new();
    println!("variables:");
    let module: Variables = hcl::from_files(&sources).map_err(|e| e.to_string())?;
    for v in module.variable {
        let ty = v.ty.unwrap_or(TypeConstraint::Any);
        let value = match v.default {
            Some(d) => {
                let value = d.evaluate(&Context::none()).map_err(|e| e.to_string())?;
                ty.convert(value).map_err(|e| {
                    let file = d.file().unwrap_or_default();
                    format!(
                        "{file}:{}: variable `{}`: {}",
                        d.line(),
                        v.name,
                        e.message()
                    )
                })?
            }
            None => Value::Null,
        };
        println!("  {} : {ty} = {value}", v.name);
        if let Some(d) = v.description {
            println!("      {d}");
        }
        vars.insert(v.name, value);
    }
    ctx.declare_var("var", Value::Object(vars));

    // Every file parsed once; the trees borrow the texts.
    let mut bodies = Vec::new();
    for (name, text) in &files {
        let body = hcl_grammar::parse_body(text, &Default::default()).map_err(|e| {
            hcl::Error::from(e)
                .with_source(text)
                .with_file(name.as_str())
                .to_string()
        })?;
        bodies.push((name, text, body));
    }

    // Locals: every `locals` block's attributes, evaluated once all the
    // locals they read are known.
    let mut pending: Vec<(&str, &Expr<'_>, &str, &str)> = Vec::new();
    for (name, text, body) in &bodies {
        for b in body.blocks().filter(|b| b.ident.name == "locals") {
            for a in b.body.attributes() {
                pending.push((a.name.name, &a.expr, name.as_str(), text.as_str()));
            }
        }
    }
    let mut locals = Map::new();
    println!("locals (in evaluation order):");
    while !pending.is_empty() {
        let ready = pending.iter().position(|(_, expr, _, _)| {
            local_deps(expr)
                .iter()
                .all(|d| locals.contains_key(d) || !pending.iter().any(|(n, ..)| n == d))
        });
        let Some(i) = ready else {
            let names: Vec<&str> = pending.iter().map(|(n, ..)| *n).collect();
            return Err(format!(
                "locals depend on each other in a cycle: {}",
                names.join(", ")
            ));
        };
        let (lname, expr, file, text) = pending.remove(i);
        ctx.declare_var("local", Value::Object(locals.clone()));
        let v = hcl::eval::eval_expr(expr, &ctx)
            .map_err(|e| e.with_source(text).with_file(file).to_string())?;
        println!("  {lname} = {v}");
        locals.insert(lname.to_owned(), v);
    }

    // Resources: read from all the files as one body, `dynamic` blocks
    // expanded with the variables and locals; what each reads.
    ctx.declare_var("local", Value::Object(locals.clone()));
    let parsed = sources.parse().map_err(|e| e.to_string())?;
    let ectx = Arc::new(ctx.clone());
    let module = dynblock::expand(&merge(&parsed), &ectx);
    let (content, _rest) = module
        .partial_content(&BodySchema::new().block("resource", &["type", "name"]))
        .map_err(|e| e.to_string())?;
    // A resource's nested block types come from its provider's schema in
    // Terraform; here, every type written in the module.
    let mut nested = BodySchema::new();
    for name in nested_block_types(&bodies) {
        nested = nested.block(name, &[]);
    }
    println!("resources:");
    for (r, (_, _, body)) in content.blocks.iter().zip(resource_bodies(&bodies)) {
        let (inner, _) = r.body.partial_content(&nested).map_err(|e| e.to_string())?;
        let mut reads: Vec<String> = body_variables(body).iter().map(|t| t.to_string()).collect();
        reads.sort();
        reads.dedup();
        println!("  {}: reads {}", r.labels.join("."), reads.join(", "));
        for b in &inner.blocks {
            let (_, rest) = b.body.partial_content(&nested).map_err(|e| e.to_string())?;
            let mut attrs = Vec::new();
            for a in rest.just_attributes().map_err(|e| e.to_string())? {
                let v = a.evaluate(Some(&ctx)).map_err(|e| e.to_string())?;
                attrs.push(format!("{} = {v}", a.name));
            }
            println!("    {} {{ {} }}", b.type_name, attrs.join(", "));
        }
    }
    println!("outputs:");
    for (name, text, body) in &bodies {
        for b in body.blocks().filter(|b| b.ident.name == "output") {
            let Some(a) = b.body.attribute("value") else {
                continue;
            };
            let v = hcl::eval::eval_expr(&a.expr, &ctx)
                .map_err(|e| e.with_source(text).with_file(name.as_str()).to_string())?;
            println!("  {} = {v}", b.labels.first().map_or("", |l| l.as_str()));
        }
    }
    Ok(())
}

/// The locals an expression reads (`local.NAME...`).
fn local_deps(expr: &Expr<'_>) -> Vec<String> {
    variables(expr)
        .into_iter()
        .filter(|t| t.root == "local")
        .filter_map(|t| match t.steps.first() {
            Some(Step::Attr(name)) => Some(name.clone()),
            _ => None,
        })
        .collect()
}

/// Every `resource` block's body of the files, in file order (the order
/// of the merged body's resources).
fn resource_bodies<'b, 'i>(
    bodies: &'b [(&String, &String, Body<'i>)],
) -> impl Iterator<Item = (&'b str, &'b str, &'b Body<'i>)> {
    bodies.iter().flat_map(|(name, text, body)| {
        body.blocks()
            .filter(|b| b.ident.name == "resource")
            .map(move |b| (name.as_str(), text.as_str(), &b.body))
    })
}

/// The block types written inside resources (a `dynamic` block's label
/// included), at any depth.
fn nested_block_types<'i>(bodies: &[(&String, &String, Body<'i>)]) -> BTreeSet<String> {
    fn walk(body: &Body<'_>, out: &mut BTreeSet<String>) {
        for item in &body.items {
            if let Structure::Block(b) = item {
                if b.ident.name == "dynamic" {
                    if let Some(l) = b.labels.first() {
                        out.insert(l.as_str().to_owned());
                    }
                    // The `content` block's own blocks.
                    for inner in b.body.blocks() {
                        walk(&inner.body, out);
                    }
                } else {
                    out.insert(b.ident.name.to_owned());
                    walk(&b.body, out);
                }
            }
        }
    }
    let mut out = BTreeSet::new();
    for (_, _, body) in resource_bodies(bodies) {
        walk(body, &mut out);
    }
    out
}
