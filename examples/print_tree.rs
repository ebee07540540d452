//! Parses an HCL file and prints its syntax tree.
//!
//! ```text
//! cargo run --example print_tree -- examples/service.hcl
//! echo 'a = 1 + 2' | cargo run --example print_tree
//! ```
//!
//! With no file argument, reads standard input. On a syntax error, prints
//! the error (message, line and column, the source line with a caret) and
//! exits with status 1.

use std::io::Read;
use std::process::ExitCode;

fn main() -> ExitCode {
    let path = std::env::args_os().nth(1);
    let (name, bytes) = match &path {
        Some(p) => (p.to_string_lossy().into_owned(), std::fs::read(p)),
        None => {
            let mut buf = Vec::new();
            let read = std::io::stdin().read_to_end(&mut buf).map(|_| buf);
            ("<stdin>".to_owned(), read)
        }
    };
    let bytes = match bytes {
        Ok(b) => b,
        Err(e) => {
            eprintln!("error: cannot read {name}: {e}");
            return ExitCode::from(2);
        }
    };
    // The bytes variant: invalid UTF-8 is a syntax error with its position
    // (except inside comments, where HCL tolerates it).
    match hcl_grammar::parse_body(&bytes, &Default::default()) {
        Ok(body) => {
            println!("{body:#?}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error in {name}: {e}");
            ExitCode::FAILURE
        }
    }
}
