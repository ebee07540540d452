//! Loads a Terraform module directory and prints a summary: its
//! variables (type constraints applied to their defaults), its locals
//! (evaluated in dependency order, found with `variables()`), and its
//! resources and outputs.
//!
//!     cargo run --example terraform_module -- examples/terraform_module
//!
//! Every `.tf` file of the directory is read, in bytewise order of their
//! names. `dynamic` blocks are counted, not expanded (that needs the
//! schema API). On an error, prints it and exits 1.

use hcl::ext::typeexpr::TypeConstraint;
use hcl::ext::variables::{body_variables, variables, Step};
use hcl::grammar::{Body, Expr, Structure};
use hcl::{Context, Map, Value};
use serde::Deserialize;
use std::path::Path;

/// A `variable` block, through serde: the type constraint deserializes
/// from the unevaluated `type = ...` expression.
#[derive(Deserialize)]
struct Variable {
    #[serde(rename = "$label")]
    name: String,
    #[serde(rename = "type")]
    ty: Option<TypeConstraint>,
    default: Option<Value>,
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
    let files = tf_files(Path::new(&dir))?;
    let mut ctx = Context::new();
    ctx.add_stdlib();

    // Variables: every file's `variable` blocks, defaults converted to
    // their type.
    let mut vars = Map::new();
    println!("variables:");
    for (name, text) in &files {
        let de = hcl::Deserializer::from_str(text).with_file_name(name.as_str());
        let file = Variables::deserialize(de).map_err(|e| e.to_string())?;
        for v in file.variable {
            let ty = v.ty.unwrap_or(TypeConstraint::Any);
            let value = match v.default {
                Some(d) => ty
                    .convert(d)
                    .map_err(|e| format!("{name}: variable `{}`: {}", v.name, e.message()))?,
                None => Value::Null,
            };
            println!("  {} : {ty} = {value}", v.name);
            if let Some(d) = v.description {
                println!("      {d}");
            }
            vars.insert(v.name, value);
        }
    }
    ctx.declare_var("var", Value::Object(vars));

    // Every file parsed once; the trees borrow the texts.
    let mut bodies = Vec::new();
    for (name, text) in &files {
        let body = hcl::grammar::parse_body(text).map_err(|e| {
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

    // Resources and outputs: what they read, without evaluating them.
    println!("resources:");
    for (_, _, body) in &bodies {
        for b in body.blocks().filter(|b| b.ident.name == "resource") {
            let labels: Vec<&str> = b.labels.iter().map(|l| l.as_str()).collect();
            let dynamic = count_dynamic(&b.body);
            let mut reads: Vec<String> = body_variables(&b.body)
                .iter()
                .map(|t| t.to_string())
                .collect();
            reads.sort();
            reads.dedup();
            println!(
                "  {}{}: reads {}",
                labels.join("."),
                if dynamic > 0 {
                    format!(" ({dynamic} dynamic block(s), not expanded)")
                } else {
                    String::new()
                },
                reads.join(", ")
            );
        }
    }
    println!("outputs:");
    ctx.declare_var("local", Value::Object(locals));
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

/// The `.tf` files of `dir`, sorted by name, with their text.
fn tf_files(dir: &Path) -> Result<Vec<(String, String)>, String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tf"))
        .collect();
    names.sort();
    names
        .into_iter()
        .map(|n| {
            std::fs::read_to_string(dir.join(&n))
                .map(|t| (n.clone(), t))
                .map_err(|e| format!("{n}: {e}"))
        })
        .collect()
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

fn count_dynamic(body: &Body<'_>) -> usize {
    body.items
        .iter()
        .map(|i| match i {
            Structure::Block(b) if b.ident.name == "dynamic" => 1 + count_dynamic(&b.body),
            Structure::Block(b) => count_dynamic(&b.body),
            Structure::Attribute(_) => 0,
        })
        .sum()
}
