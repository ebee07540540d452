//! Prints an HCL file, evaluated, as JSON in HCL's JSON shape (block type,
//! then labels, as keys; repeated blocks as arrays).
//!
//!     cargo run --example hcl2json -- FILE [--json] [--var NAME=VALUE]... [--var-file VARS.json] [--stdlib]
//!
//! A FILE whose name ends in `.json` is read in HCL's JSON syntax (its
//! strings evaluated as templates, as with any context), anything else in
//! the native syntax; `--json` reads standard input as JSON syntax.
//! With no FILE (or `-`), reads standard input. `--var` values are parsed
//! as JSON when they are valid JSON (`--var n=3`, `--var tags='["a"]'`),
//! as strings otherwise. On an error, prints it to stderr and exits 1.

use std::io::Read;

fn main() {
    if let Err(e) = run() {
        eprintln!("{e}");
        std::process::exit(1);
    }
}

fn run() -> Result<(), String> {
    let mut file = None;
    let mut json = false;
    let mut ctx = hcl::Context::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--stdlib" => ctx.add_stdlib(),
            "--json" => json = true,
            "--var" => {
                let spec = args.next().ok_or("--var needs NAME=VALUE")?;
                let (name, value) = spec
                    .split_once('=')
                    .ok_or_else(|| format!("--var {spec}: expected NAME=VALUE"))?;
                let value = serde_json::from_str::<hcl::Value>(value)
                    .unwrap_or_else(|_| hcl::Value::from(value));
                ctx.declare_var(name, value);
            }
            "--var-file" => {
                let path = args.next().ok_or("--var-file needs a file")?;
                let text = std::fs::read_to_string(&path)
                    .map_err(|e| format!("cannot read {path}: {e}"))?;
                let vars: hcl::Map<String, hcl::Value> = serde_json::from_str(&text)
                    .map_err(|e| format!("{path}: not a JSON object: {e}"))?;
                for (name, value) in vars {
                    ctx.declare_var(name, value);
                }
            }
            "-h" | "--help" => {
                println!("usage: hcl2json [FILE] [--json] [--var NAME=VALUE]... [--var-file VARS.json] [--stdlib]");
                return Ok(());
            }
            _ if file.is_none() => file = Some(arg),
            _ => return Err(format!("unexpected argument `{arg}`")),
        }
    }
    let (name, text) = match file.as_deref() {
        None | Some("-") => {
            let mut s = Vec::new();
            std::io::stdin()
                .read_to_end(&mut s)
                .map_err(|e| format!("cannot read standard input: {e}"))?;
            ("<stdin>".to_owned(), s)
        }
        Some(path) => (
            path.to_owned(),
            std::fs::read(path).map_err(|e| format!("cannot read {path}: {e}"))?,
        ),
    };
    let syntax = if json {
        hcl::Syntax::Json
    } else {
        hcl::Syntax::from_path(&name)
    };
    let de = hcl::Deserializer::from_slice(&text)
        .with_syntax(syntax)
        .with_context(&ctx)
        .with_file_name(name);
    let value: hcl::Value = serde::Deserialize::deserialize(de).map_err(|e| e.to_string())?;
    let json = serde_json::to_string_pretty(&Json(&value)).map_err(|e| e.to_string())?;
    println!("{json}");
    Ok(())
}

/// A value written as JSON with every number exact: in the reference's
/// plain decimal text (`2^128` with all its digits, `1/3` with 155), as
/// JSON allows; an infinity, which JSON cannot write, is an error.
struct Json<'a>(&'a hcl::Value);

impl serde::Serialize for Json<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::{Error, SerializeMap, SerializeSeq};
        match self.0 {
            hcl::Value::Number(n) if n.is_infinite() => Err(S::Error::custom(format!(
                "number is {n} (infinite) and cannot be written as JSON"
            ))),
            hcl::Value::Number(n) => match (n.as_i64(), n.as_u64()) {
                (Some(i), _) => s.serialize_i64(i),
                (_, Some(u)) => s.serialize_u64(u),
                _ => serde_json::value::RawValue::from_string(n.to_string())
                    .map_err(S::Error::custom)?
                    .serialize(s),
            },
            hcl::Value::Array(items) => {
                let mut seq = s.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(&Json(item))?;
                }
                seq.end()
            }
            hcl::Value::Object(members) => {
                let mut map = s.serialize_map(Some(members.len()))?;
                for (k, v) in members {
                    map.serialize_entry(k, &Json(v))?;
                }
                map.end()
            }
            other => other.serialize(s),
        }
    }
}
