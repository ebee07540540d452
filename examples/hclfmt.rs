//! `hclfmt`: formats HCL files in the canonical layout (that of
//! `terraform fmt` and `packer fmt`).
//!
//! ```text
//! cargo run --example hclfmt -- [--check] [--diff] [--write] PATH...
//! ```
//!
//! A directory is searched recursively for `.tf`, `.tfvars`, `.hcl`
//! (except `.pkrtpl.hcl` templates) and `.nomad` files; `-` reads standard
//! input. Without options, the formatted text is printed. `--write`
//! rewrites the files that change, `--diff` prints what would change
//! (formatting never moves a line break, so the diff is line by line),
//! `--check` lists the files that are not formatted and changes nothing.
//!
//! Exit status: 0 done; 3 with `--check` when a file is not formatted; 1
//! when a file has a syntax error (printed as the library prints it) or
//! cannot be read or written; 2 for bad usage.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Default)]
struct Options {
    check: bool,
    diff: bool,
    write: bool,
}

fn main() -> ExitCode {
    let mut options = Options::default();
    let mut paths = Vec::new();
    for arg in std::env::args().skip(1) {
        match arg.as_str() {
            "--check" => options.check = true,
            "--diff" => options.diff = true,
            "--write" => options.write = true,
            "-h" | "--help" => {
                println!("usage: hclfmt [--check] [--diff] [--write] PATH...");
                return ExitCode::SUCCESS;
            }
            s if s.starts_with("--") => {
                eprintln!("hclfmt: unknown option {s}\nusage: hclfmt [--check] [--diff] [--write] PATH...");
                return ExitCode::from(2);
            }
            _ => paths.push(PathBuf::from(arg)),
        }
    }
    if paths.is_empty() {
        eprintln!("usage: hclfmt [--check] [--diff] [--write] PATH...");
        return ExitCode::from(2);
    }

    let mut files = Vec::new();
    for path in &paths {
        if path.is_dir() {
            if let Err(e) = walk(path, &mut files) {
                eprintln!("hclfmt: {}: {e}", path.display());
                return ExitCode::FAILURE;
            }
        } else {
            files.push(path.clone());
        }
    }

    let mut failed = false;
    let mut unformatted = false;
    for file in &files {
        match run(file, &options) {
            Ok(changed) => unformatted |= changed,
            Err(message) => {
                eprintln!("{message}");
                failed = true;
            }
        }
    }
    if failed {
        ExitCode::FAILURE
    } else if options.check && unformatted {
        ExitCode::from(3)
    } else {
        ExitCode::SUCCESS
    }
}

/// Formats one file; whether it was not already formatted.
fn run(file: &Path, options: &Options) -> Result<bool, String> {
    let stdin = file == Path::new("-");
    let name = file.display();
    let src = if stdin {
        let mut buf = Vec::new();
        std::io::stdin()
            .read_to_end(&mut buf)
            .map_err(|e| format!("hclfmt: <stdin>: {e}"))?;
        buf
    } else {
        std::fs::read(file).map_err(|e| format!("hclfmt: {name}: {e}"))?
    };
    let shown = if stdin {
        "<stdin>".to_owned()
    } else {
        name.to_string()
    };
    let formatted = format_source(&shown, &src)?;
    let changed = formatted != src;
    let mut out = std::io::stdout().lock();
    let io = |e: std::io::Error| format!("hclfmt: {e}");
    if options.check || options.write || options.diff {
        if changed && (options.check || options.write) && !stdin {
            writeln!(out, "{name}").map_err(io)?;
        }
        if changed && options.diff {
            write_diff(&mut out, &name.to_string(), &src, &formatted).map_err(io)?;
        }
        if changed && options.write && !options.check && !stdin {
            std::fs::write(file, &formatted).map_err(|e| format!("hclfmt: {name}: {e}"))?;
        }
    } else {
        out.write_all(&formatted).map_err(io)?;
    }
    Ok(changed)
}

/// `src` formatted; a syntax error as the library prints it, naming the
/// file (`--> app.hcl:3:3`).
pub(crate) fn format_source(name: &str, src: &[u8]) -> Result<Vec<u8>, String> {
    hcl_grammar::format(src, &Default::default())
        .map_err(|e| hcl::Error::from(e).with_file(name).to_string())
}

/// A unified diff: formatting keeps every line break, so line `n` of the
/// output is line `n` of the input, reformatted.
fn write_diff(out: &mut impl Write, name: &str, old: &[u8], new: &[u8]) -> std::io::Result<()> {
    writeln!(out, "--- old/{name}\n+++ new/{name}")?;
    let old_lines: Vec<&[u8]> = old.split_inclusive(|&b| b == b'\n').collect();
    let new_lines: Vec<&[u8]> = new.split_inclusive(|&b| b == b'\n').collect();
    let mut i = 0;
    while i < old_lines.len().max(new_lines.len()) {
        if old_lines.get(i) == new_lines.get(i) {
            i += 1;
            continue;
        }
        let start = i;
        while i < old_lines.len().max(new_lines.len()) && old_lines.get(i) != new_lines.get(i) {
            i += 1;
        }
        let len = i - start;
        writeln!(out, "@@ -{},{len} +{},{len} @@", start + 1, start + 1)?;
        for (sign, lines) in [("-", &old_lines), ("+", &new_lines)] {
            for line in lines.get(start..i).unwrap_or_default() {
                out.write_all(sign.as_bytes())?;
                out.write_all(line)?;
                if !line.ends_with(b"\n") {
                    out.write_all(b"\n\\ No newline at end of file\n")?;
                }
            }
        }
    }
    Ok(())
}

/// The HCL files under `dir`, recursively, sorted.
fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)?
        .map(|e| e.map(|e| e.path()))
        .collect::<Result<_, _>>()?;
    entries.sort();
    for path in entries {
        if path.is_dir() {
            walk(&path, out)?;
        } else {
            let name = path
                .file_name()
                .map(|n| n.to_string_lossy())
                .unwrap_or_default();
            let wanted = [".tf", ".tfvars", ".hcl", ".nomad"]
                .iter()
                .any(|ext| name.ends_with(ext))
                && !name.ends_with(".pkrtpl.hcl");
            if wanted {
                out.push(path);
            }
        }
    }
    Ok(())
}
