//! Terraform's filesystem functions, confined to a granted base directory:
//! `file filebase64 fileexists fileset filemd5 filesha1 filesha256
//! filesha512 filebase64sha256 filebase64sha512 templatefile abspath
//! pathexpand` (Terraform's `funcs/filesystem.go`, `crypto.go`).
//!
//! Every path is resolved against the base directory, cleaned
//! lexically (as Go's `filepath.Clean`), then its symbolic links are
//! resolved: a path whose real location is not inside the (real) base
//! directory is an error before anything is read.

use super::crypto::{hex, md5_bytes, sha1_bytes, sha256_bytes, sha512_bytes, HashFn};
use super::encoding::b64;
use super::glob::Glob;
use super::TerraformFunctions;
use crate::eval::{Context, FuncArgs, FuncDef, FuncError, Param, Type};
use crate::Value;
use std::io::Read;
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

/// The most directory entries `fileset` visits.
const MAX_WALK: usize = 100_000;

/// The granted directories.
struct Fs {
    base: PathBuf,
    home: Option<PathBuf>,
}

/// A path cleaned lexically: `.` dropped, `..` removing the element
/// before it (never above the root).
fn clean(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            other => out.push(other),
        }
    }
    out
}

impl Fs {
    /// `~` and `~/...` expanded with the home directory.
    fn expand(&self, path: &str, arg: usize) -> Result<PathBuf, FuncError> {
        let Some(rest) = path.strip_prefix('~') else {
            return Ok(PathBuf::from(path));
        };
        if !(rest.is_empty() || rest.starts_with('/')) {
            return Err(FuncError::arg(
                arg,
                "failed to expand ~: cannot expand user-specific home dir",
            ));
        }
        let home = self.home.as_ref().ok_or_else(|| {
            FuncError::arg(arg, "failed to expand ~: no home directory was granted")
        })?;
        Ok(home.join(rest.trim_start_matches('/')))
    }

    /// The real base directory.
    fn real_base(&self) -> Result<PathBuf, FuncError> {
        self.base.canonicalize().map_err(|e| {
            FuncError::new(format!(
                "the base directory {} is not available: {e}",
                self.base.display()
            ))
        })
    }

    /// The real location of `path`, which must be inside the base
    /// directory; also the lexical (unresolved) absolute path.
    fn resolve(&self, path: &str, arg: usize) -> Result<(PathBuf, PathBuf), FuncError> {
        let base = self.real_base()?;
        let expanded = self.expand(path, arg)?;
        let lexical = clean(&base.join(expanded));
        // Resolve the links of the longest existing ancestor.
        let mut existing = lexical.clone();
        let mut rest = Vec::new();
        let real = loop {
            match existing.canonicalize() {
                Ok(r) => break r,
                Err(_) => {
                    let Some(name) = existing.file_name().map(ToOwned::to_owned) else {
                        break existing.clone();
                    };
                    rest.push(name);
                    if !existing.pop() {
                        break existing.clone();
                    }
                }
            }
        };
        let mut real = real;
        for name in rest.into_iter().rev() {
            real.push(name);
        }
        if !real.starts_with(&base) {
            return Err(FuncError::arg(
                arg,
                format!("the path {path:?} is outside the directory granted to the file functions"),
            ));
        }
        Ok((real, lexical))
    }

    /// The bytes of a file inside the base directory.
    fn read(&self, path: &str, limit: usize) -> Result<Vec<u8>, FuncError> {
        let (real, _) = self.resolve(path, 0)?;
        let file = std::fs::File::open(&real).map_err(|e| {
            if e.kind() == std::io::ErrorKind::NotFound {
                FuncError::arg(0, format!("no file exists at {path:?}"))
            } else {
                FuncError::arg(0, format!("failed to read file: {e}"))
            }
        })?;
        let mut bytes = Vec::new();
        let cap = u64::try_from(limit).unwrap_or(u64::MAX).saturating_add(1);
        file.take(cap)
            .read_to_end(&mut bytes)
            .map_err(|e| FuncError::arg(0, format!("failed to read file: {e}")))?;
        if bytes.len() > limit {
            return Err(FuncError::arg(
                0,
                format!("the file {path:?} is larger than the limit of {limit} bytes"),
            ));
        }
        Ok(bytes)
    }
}

/// Text from bytes (hex, Base64).
type Encoder = fn(&[u8]) -> String;

/// The file functions as `tf` configures them (a base directory granted).
pub(super) fn functions(tf: &TerraformFunctions) -> Vec<(&'static str, FuncDef)> {
    let Some(base) = tf.base_dir.clone() else {
        return Vec::new();
    };
    let fs = Arc::new(Fs {
        base,
        home: tf.home_dir.clone(),
    });
    let hashes: [(&'static str, HashFn, Encoder); 6] = [
        ("filemd5", md5_bytes, hex),
        ("filesha1", sha1_bytes, hex),
        ("filesha256", sha256_bytes, hex),
        ("filesha512", sha512_bytes, hex),
        ("filebase64sha256", sha256_bytes, b64),
        ("filebase64sha512", sha512_bytes, b64),
    ];
    let mut out = vec![
        ("file", file(Arc::clone(&fs))),
        ("filebase64", file_with(Arc::clone(&fs), b64)),
        ("fileexists", fileexists(Arc::clone(&fs))),
        ("fileset", fileset(Arc::clone(&fs))),
        ("abspath", abspath(Arc::clone(&fs))),
        ("pathexpand", pathexpand(Arc::clone(&fs))),
        ("templatefile", templatefile(Arc::clone(&fs), tf.clone())),
    ];
    for (name, h, enc) in hashes {
        out.push((name, file_with(Arc::clone(&fs), move |b| enc(&h(b)))));
    }
    out
}

fn path_param() -> Param {
    Param::new("path", Type::String)
}

/// `file(path)`: the file's text (it must be UTF-8).
fn file(fs: Arc<Fs>) -> FuncDef {
    FuncDef::new(move |args| {
        let path = args.str(0)?;
        let bytes = fs.read(path, args.options().max_string_len())?;
        String::from_utf8(bytes).map(Value::from).map_err(|_| {
            FuncError::arg(
                0,
                format!("contents of {path} are not valid UTF-8; use the filebase64 function to obtain the Base64 encoded contents or the other file functions (e.g. filemd5, filesha256) to obtain file hashing results instead"),
            )
        })
    })
    .param(path_param())
    .returns(Type::String)
}

/// A function of a file's bytes.
fn file_with<F>(fs: Arc<Fs>, f: F) -> FuncDef
where
    F: Fn(&[u8]) -> String + Send + Sync + 'static,
{
    FuncDef::new(move |args| {
        let bytes = fs.read(args.str(0)?, args.options().max_string_len())?;
        Ok(Value::from(f(&bytes)))
    })
    .param(path_param())
    .returns(Type::String)
}

/// `fileexists(path)`: whether a regular file exists there.
fn fileexists(fs: Arc<Fs>) -> FuncDef {
    FuncDef::new(move |args| {
        let path = args.str(0)?;
        let (real, _) = fs.resolve(path, 0)?;
        match std::fs::metadata(&real) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Value::Bool(false)),
            Err(_) => Err(FuncError::arg(0, format!("failed to stat {path}"))),
            Ok(m) if m.is_file() => Ok(Value::Bool(true)),
            Ok(m) if m.is_dir() => Err(FuncError::arg(
                0,
                format!("{path} is a directory, not a file"),
            )),
            Ok(_) => Err(FuncError::arg(0, format!("{path} is not a regular file"))),
        }
    })
    .param(path_param())
    .returns(Type::Bool)
}

/// Collects the regular files under `dir` (relative paths with `/`),
/// not following symbolic links to directories.
fn walk(
    dir: &Path,
    prefix: &str,
    out: &mut Vec<String>,
    seen: &mut usize,
) -> Result<(), FuncError> {
    let entries = std::fs::read_dir(dir)
        .map_err(|e| FuncError::new(format!("failed to read directory: {e}")))?;
    for entry in entries {
        let entry = entry.map_err(|e| FuncError::new(format!("failed to read directory: {e}")))?;
        *seen += 1;
        if *seen > MAX_WALK {
            return Err(FuncError::new(format!(
                "fileset visited more than {MAX_WALK} directory entries"
            )));
        }
        let name = entry.file_name().to_string_lossy().into_owned();
        let rel = if prefix.is_empty() {
            name
        } else {
            format!("{prefix}/{name}")
        };
        let ft = entry
            .file_type()
            .map_err(|e| FuncError::new(format!("failed to stat {rel}: {e}")))?;
        if ft.is_dir() {
            walk(&entry.path(), &rel, out, seen)?;
        } else if ft.is_file() {
            out.push(rel);
        }
    }
    Ok(())
}

/// `fileset(path, pattern)`: the files under `path` matching the glob
/// `pattern`, relative to `path`, sorted.
fn fileset(fs: Arc<Fs>) -> FuncDef {
    FuncDef::new(move |args| {
        let path = args.str(0)?;
        let (real, _) = fs.resolve(path, 0)?;
        let glob = Glob::new(args.str(1)?).map_err(|m| FuncError::arg(1, m))?;
        let mut files = Vec::new();
        if real.is_dir() {
            walk(&real, "", &mut files, &mut 0)?;
        }
        let mut out = Vec::new();
        for f in files {
            if glob.matches(&f) {
                out.push(f);
            }
        }
        out.sort();
        Ok(Value::Array(out.into_iter().map(Value::from).collect()))
    })
    .param(path_param())
    .param(Param::new("pattern", Type::String))
    .returns(Type::set(Type::String))
}

/// `abspath(path)`: the absolute path, relative paths taken from the base
/// directory (which stands for Terraform's working directory).
fn abspath(fs: Arc<Fs>) -> FuncDef {
    FuncDef::new(move |args| {
        let (_, lexical) = fs.resolve(args.str(0)?, 0)?;
        Ok(Value::from(lexical.to_string_lossy().replace('\\', "/")))
    })
    .param(path_param())
    .returns(Type::String)
}

/// `pathexpand(path)`: `~` replaced by the granted home directory.
fn pathexpand(fs: Arc<Fs>) -> FuncDef {
    FuncDef::new(move |args| {
        let p = fs.expand(args.str(0)?, 0)?;
        Ok(Value::from(p.to_string_lossy().into_owned()))
    })
    .param(path_param())
    .returns(Type::String)
}

/// `templatefile(path, vars)`: the file rendered as an HCL template with
/// the variables of `vars` and Terraform's functions (a nested
/// `templatefile` call is an error).
fn templatefile(fs: Arc<Fs>, tf: TerraformFunctions) -> FuncDef {
    FuncDef::new(move |args: FuncArgs<'_>| {
        let path = args.str(0)?;
        let bytes = fs.read(path, args.options().max_string_len())?;
        let src = String::from_utf8(bytes)
            .map_err(|_| FuncError::arg(0, format!("contents of {path} are not valid UTF-8")))?;
        let vars = match args.get(1) {
            Some(Value::Object(m)) => m,
            _ => return Err(FuncError::arg(1, "invalid vars value: must be a map")),
        };
        let mut ctx = Context::new().with_options(*args.options());
        for (name, v) in vars {
            if !hcl_grammar::is_identifier(name) {
                return Err(FuncError::arg(
                    1,
                    format!("invalid template variable name {name:?}: must start with a letter, followed by zero or more letters, digits, and underscores"),
                ));
            }
            ctx.declare_var(name.clone(), v.clone());
        }
        ctx.add_terraform_functions(&tf);
        ctx.declare_func(
            "templatefile",
            FuncDef::new(|_| {
                Err(FuncError::new(
                    "cannot recursively call templatefile from inside templatefile call",
                ))
            })
            .param(path_param())
            .param(Param::new("vars", Type::Any)),
        );
        crate::eval::eval_template_str(&src, &ctx)
            .map_err(|e| FuncError::new(format!("{path}: {e}")))
    })
    .param(path_param())
    .param(Param::new("vars", Type::Any))
}
