//! `hcledit`: reads, changes and formats HCL files from the command line,
//! keeping their comments and layout (in the spirit of minamijoyo/hcledit,
//! built on `hcl::edit`).
//!
//! ```text
//! cargo run --example hcledit -- [-f FILE] [-u] [--keep-layout] COMMAND
//!
//!   attribute get ADDRESS          print the attribute's expression
//!   attribute set ADDRESS EXPR     set (or add) the attribute to EXPR
//!   attribute rm ADDRESS           remove the attribute and its comments
//!   block append PARENT CHILD      append an empty block CHILD in PARENT
//!   block rm ADDRESS               remove the first block ADDRESS names
//!   fmt                            format the file
//! ```
//!
//! An address is a block path then a name, dot-separated: the type, then
//! the labels of each block (`resource.aws_instance.web.ami` is attribute
//! `ami` of `resource "aws_instance" "web"`); a block of the address is
//! the first one whose type and labels match. For `block append`, PARENT
//! `.` is the file itself and CHILD is the new block's type and labels
//! (`lifecycle`, `provisioner.local-exec`).
//!
//! The input is FILE (`-f`), or standard input; the output goes to
//! standard output, or back into FILE with `-u`. The output is formatted
//! as `terraform fmt` would (as minamijoyo/hcledit and Go's `hclwrite`
//! write it); `--keep-layout` keeps everything the edit did not touch
//! exactly as it was.
//!
//! Exit status: 0 done; 1 for a syntax error (file, line, column and a
//! caret under the spot), an address that names nothing, or a file that
//! cannot be read or written; 2 for bad usage.

use hcl::edit::{Body, Document};
use std::io::{Read, Write};
use std::process::ExitCode;

const USAGE: &str = "usage: hcledit [-f FILE] [-u] [--keep-layout] COMMAND
  attribute get ADDRESS
  attribute set ADDRESS EXPR
  attribute rm ADDRESS
  block append PARENT CHILD
  block rm ADDRESS
  fmt";

struct Args {
    file: Option<String>,
    update: bool,
    keep_layout: bool,
    command: Vec<String>,
}

fn main() -> ExitCode {
    let args = match parse_args(std::env::args().skip(1)) {
        Ok(a) => a,
        Err(message) => {
            eprintln!("hcledit: {message}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Usage(m)) => {
            eprintln!("hcledit: {m}\n{USAGE}");
            ExitCode::from(2)
        }
        Err(Failure::Other(m)) => {
            eprintln!("{m}");
            ExitCode::FAILURE
        }
    }
}

fn parse_args(mut it: impl Iterator<Item = String>) -> Result<Args, String> {
    let mut args = Args {
        file: None,
        update: false,
        keep_layout: false,
        command: Vec::new(),
    };
    while let Some(a) = it.next() {
        match a.as_str() {
            "-f" | "--file" => args.file = Some(it.next().ok_or("-f needs a FILE")?),
            "-u" | "--update" => args.update = true,
            "--keep-layout" => args.keep_layout = true,
            "-h" | "--help" => return Err("help".to_owned()),
            s if s.starts_with('-') && s.len() > 1 => return Err(format!("unknown option {s}")),
            _ => args.command.push(a),
        }
    }
    if args.update && args.file.is_none() {
        return Err("-u needs -f FILE".to_owned());
    }
    Ok(args)
}

/// The document, or the parser's error as the library prints it: the
/// message, then `--> FILE:LINE:COLUMN`, the source line and a caret.
pub(crate) fn parse_document(name: &str, src: &str) -> Result<Document, String> {
    Document::parse(src).map_err(|e| hcl::Error::from(e).with_file(name).to_string())
}

enum Failure {
    Usage(String),
    Other(String),
}

fn run(args: &Args) -> Result<(), Failure> {
    let name = args.file.as_deref().unwrap_or("<stdin>");
    let other = |m: String| Failure::Other(m);
    let src = match &args.file {
        Some(f) => std::fs::read_to_string(f).map_err(|e| other(format!("hcledit: {f}: {e}")))?,
        None => {
            let mut s = String::new();
            std::io::stdin()
                .read_to_string(&mut s)
                .map_err(|e| other(format!("hcledit: <stdin>: {e}")))?;
            s
        }
    };
    let mut doc = parse_document(name, &src).map_err(other)?;
    let words: Vec<&str> = args.command.iter().map(String::as_str).collect();
    let usage = |m: &str| Failure::Usage(m.to_owned());
    match words.as_slice() {
        ["attribute", "get", address] => {
            let (path, attr) = split(address)?;
            let body = find(doc.body(), &path).ok_or_else(|| not_found(name, address))?;
            let a = body
                .get_attribute(attr)
                .ok_or_else(|| not_found(name, address))?;
            println!("{}", a.expr());
            return Ok(());
        }
        ["attribute", "set", address, expr] => {
            let (path, attr) = split(address)?;
            let body = find_mut(doc.body_mut(), &path).ok_or_else(|| not_found(name, address))?;
            if body.get_attribute(attr).is_none() && !body.ends_with_newline() {
                // A new attribute on a line of its own (the body's last
                // line has no newline: a file without a final newline).
                body.append_newline();
            }
            body.set_attribute_raw(attr, expr)
                .map_err(|e| other(format!("hcledit: the expression: {e}")))?;
        }
        ["attribute", "rm", address] => {
            let (path, attr) = split(address)?;
            let body = find_mut(doc.body_mut(), &path).ok_or_else(|| not_found(name, address))?;
            body.remove_attribute(attr);
        }
        ["block", "append", parent, child] => {
            let parent_path = if *parent == "." {
                Vec::new()
            } else {
                segments(parent)
            };
            let body =
                find_mut(doc.body_mut(), &parent_path).ok_or_else(|| not_found(name, parent))?;
            let child = segments(child);
            let (ty, labels) = child.split_first().ok_or_else(|| usage("empty CHILD"))?;
            if !body.ends_with_newline() {
                body.append_newline();
            }
            body.append_block(ty, labels)
                .map_err(|e| other(format!("hcledit: the block type: {e}")))?;
        }
        ["block", "rm", address] => {
            let path = segments(address);
            let resolved = resolve(doc.body(), &path).ok_or_else(|| not_found(name, address))?;
            let (last, parents) = resolved
                .split_last()
                .ok_or_else(|| not_found(name, address))?;
            let parent =
                walk_mut(doc.body_mut(), parents).ok_or_else(|| not_found(name, address))?;
            parent.remove_block(last.0, &last.1);
        }
        ["fmt"] => {}
        [] => return Err(usage("no command")),
        _ => return Err(usage(&format!("unknown command: {}", words.join(" ")))),
    }
    let out = if args.keep_layout {
        doc.to_string()
    } else {
        doc.to_formatted_string()
            .map_err(|e| other(format!("{name}: {e}")))?
    };
    match (&args.file, args.update) {
        (Some(f), true) => {
            std::fs::write(f, out).map_err(|e| other(format!("hcledit: {f}: {e}")))?;
        }
        _ => {
            std::io::stdout()
                .lock()
                .write_all(out.as_bytes())
                .map_err(|e| other(format!("hcledit: {e}")))?;
        }
    }
    Ok(())
}

fn not_found(file: &str, address: &str) -> Failure {
    Failure::Other(format!("{file}: nothing at address {address}"))
}

fn segments(address: &str) -> Vec<&str> {
    address.split('.').collect()
}

/// An attribute address: its block path and its name.
fn split(address: &str) -> Result<(Vec<&str>, &str), Failure> {
    let mut path = segments(address);
    let attr = path
        .pop()
        .filter(|a| !a.is_empty())
        .ok_or_else(|| Failure::Usage(format!("bad address {address}")))?;
    Ok((path, attr))
}

/// The blocks (type and labels) that `path` names from `body`: each the
/// first block whose type and labels match the next segments, longest
/// label list first; all of `path` is consumed.
fn resolve<'p>(body: &Body, path: &[&'p str]) -> Option<Vec<(&'p str, Vec<&'p str>)>> {
    let (ty, rest) = path.split_first()?;
    for n in (0..=rest.len()).rev() {
        let labels = rest.get(..n)?;
        if let Some(block) = body.first_matching_block(ty, labels) {
            let after = rest.get(n..)?;
            if after.is_empty() {
                return Some(vec![(ty, labels.to_vec())]);
            }
            if let Some(mut more) = resolve(block.body(), after) {
                more.insert(0, (ty, labels.to_vec()));
                return Some(more);
            }
        }
    }
    None
}

fn find<'b>(body: &'b Body, path: &[&str]) -> Option<&'b Body> {
    if path.is_empty() {
        return Some(body);
    }
    let mut body = body;
    for (ty, labels) in resolve(body, path)? {
        body = body.first_matching_block(ty, &labels)?.body();
    }
    Some(body)
}

fn find_mut<'b>(body: &'b mut Body, path: &[&str]) -> Option<&'b mut Body> {
    if path.is_empty() {
        return Some(body);
    }
    let resolved = resolve(body, path)?;
    walk_mut(body, &resolved)
}

fn walk_mut<'b>(mut body: &'b mut Body, blocks: &[(&str, Vec<&str>)]) -> Option<&'b mut Body> {
    for (ty, labels) in blocks {
        body = body.first_matching_block_mut(ty, labels)?.body_mut();
    }
    Some(body)
}
