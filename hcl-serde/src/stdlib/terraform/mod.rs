//! Terraform's function library (Terraform 1.5, the last MPL-2.0 state of
//! its `internal/lang/functions.go`), as an opt-in table beside the
//! reference's go-cty table ([`crate::stdlib`]).
//!
//! ```
//! use hcl::{Context, Value};
//! use hcl::eval::eval_expr_str;
//!
//! let ctx = Context::with_terraform_functions();
//! assert_eq!(
//!     eval_expr_str(r#"cidrsubnet("10.1.2.0/24", 4, 15)"#, &ctx)?,
//!     Value::from("10.1.2.240/28"),
//! );
//! // Terraform's `length` counts the characters of a string:
//! assert_eq!(eval_expr_str(r#"length("héllo")"#, &ctx)?, Value::from(5));
//! # Ok::<(), hcl::Error>(())
//! ```
//!
//! The table holds 116 of Terraform's 118 functions: the 63 it shares with
//! go-cty (the same code as [`crate::stdlib`]), Terraform's own `coalesce`,
//! `length`, `lookup`, `replace` and `index`, and the rest below. Not
//! provided: `type` (console only; it returns a type, not a value) and
//! `rsadecrypt` (RSA private-key decryption: a cryptographic dependency
//! for one rarely used function). `sensitive` returns its argument
//! unchanged and `nonsensitive` always fails, as Terraform's does for a
//! value that is not marked sensitive: this library has no sensitivity
//! marks. `list` and `map` fail as in Terraform (removed in 0.12).
//!
//! # Configuration: files, time and randomness
//!
//! [`TerraformFunctions`] configures the functions that touch the world:
//!
//! - Filesystem functions (`file`, `filebase64`, `fileexists`, `fileset`,
//!   `filemd5`, `filesha1`, `filesha256`, `filesha512`,
//!   `filebase64sha256`, `filebase64sha512`, `templatefile`, `abspath`,
//!   `pathexpand`) exist only when the application grants a base
//!   directory ([`TerraformFunctions::base_dir`]). Relative paths are
//!   resolved against it; a path that leaves it (`..`, an absolute path
//!   elsewhere, a symbolic link pointing out) is an error, never a read.
//!   `~` expands to [`TerraformFunctions::home_dir`] (an error when none
//!   is set).
//! - `timestamp` and `plantimestamp` read an injectable clock
//!   ([`TerraformFunctions::clock`], [`TerraformFunctions::fixed_time`]);
//!   `uuid` and `bcrypt`'s salt an injectable random source
//!   ([`TerraformFunctions::random`]), so tests are deterministic.
//!
//! ```
//! use hcl::{Context, Value};
//! use hcl::eval::eval_expr_str;
//! use hcl::stdlib::terraform::TerraformFunctions;
//! use std::time::{Duration, UNIX_EPOCH};
//!
//! let funcs = TerraformFunctions::new()
//!     .fixed_time(UNIX_EPOCH + Duration::from_secs(1_500_000_000))
//!     .random(|buf: &mut [u8]| buf.fill(0x42));
//! let mut ctx = Context::new();
//! ctx.add_terraform_functions(&funcs);
//! assert_eq!(eval_expr_str("timestamp()", &ctx)?, Value::from("2017-07-14T02:40:00Z"));
//! assert_eq!(
//!     eval_expr_str("uuid()", &ctx)?,
//!     Value::from("42424242-4242-4242-8242-424242424242"),
//! );
//! // No base directory granted: no filesystem function.
//! assert!(ctx.func("file").is_none());
//! # Ok::<(), hcl::Error>(())
//! ```
//!
//! # The functions beyond go-cty's
//!
//! | Family | Function | What the code does |
//! | --- | --- | --- |
//! | collections | `alltrue`, `anytrue` | whether all / any element of a list of bools is true (`null` counts as false) |
//! | collections | `coalesce` | the first argument not null and not `""` (Terraform's: empty strings are skipped) |
//! | collections | `index` | the index of the first element equal to a value |
//! | collections | `length` | elements of a collection, attributes of an object, characters (grapheme clusters) of a string |
//! | collections | `lookup` | a map element or object attribute; the default optional (missing key without one: error) |
//! | collections | `matchkeys` | the elements of a list whose key, in a parallel list, is in a search set |
//! | collections | `one` | the only element of a collection, `null` when empty, an error beyond one |
//! | collections | `sum` | the sum of a collection of numbers (empty: error) |
//! | collections | `transpose` | a map of lists of strings turned inside out |
//! | collections | `list`, `map` | always an error (removed in Terraform 0.12) |
//! | strings | `startswith`, `endswith`, `strcontains` | substring tests |
//! | strings | `replace` | as go-cty's, but a substring written `/re/` is a regular expression (`$1` expands) |
//! | strings | `basename`, `dirname` | the last element / all but the last element of a `/` path (Go's `filepath.Base`, `Dir`) |
//! | encoding | `base64encode`, `base64decode` | standard Base64 of a string's UTF-8 bytes; decoding must give UTF-8 |
//! | encoding | `base64gzip` | Base64 of the gzip-compressed string |
//! | encoding | `textencodebase64`, `textdecodebase64` | Base64 of a string in another encoding (UTF-8, UTF-16 variants, ISO-8859-1, windows-1252, US-ASCII) |
//! | encoding | `urlencode` | percent-encoding of a query string (Go's `url.QueryEscape`) |
//! | encoding | `yamlencode`, `yamldecode` | YAML text from a value / a value from YAML (go-cty-yaml's rules) |
//! | hashes | `md5`, `sha1`, `sha256`, `sha512` | the hex digest of a string's UTF-8 bytes |
//! | hashes | `base64sha256`, `base64sha512` | the Base64 digest |
//! | hashes | `uuidv5` | a name-based UUID (SHA-1) in the `dns`, `url`, `oid`, `x500` or a given namespace |
//! | hashes | `bcrypt` | a bcrypt hash (`$2a$`, cost 10 by default, 4 to 31) with a salt from the random source |
//! | random | `uuid` | a random (version 4) UUID from the random source |
//! | network | `cidrhost`, `cidrnetmask`, `cidrsubnet`, `cidrsubnets` | IPv4/IPv6 prefix arithmetic (Go's lenient IPv4 syntax: `010` is 10) |
//! | time | `timestamp`, `plantimestamp` | the clock's time as RFC 3339 UTC |
//! | time | `timecmp` | -1, 0 or 1 comparing two RFC 3339 timestamps |
//! | filesystem | `file`, `filebase64` | a file's text (UTF-8 required) / Base64 bytes |
//! | filesystem | `filemd5` ... `filebase64sha512` | a file's digest, as the string hashes |
//! | filesystem | `fileexists` | whether a regular file exists (a directory is an error) |
//! | filesystem | `fileset` | the files under a directory matching a glob (`*`, `?`, `[a-z]`, `{a,b}`, `**`), sorted |
//! | filesystem | `templatefile` | a file rendered as an HCL template with variables and these functions (not itself) |
//! | filesystem | `abspath` | the absolute path, relative paths taken from the base directory |
//! | filesystem | `pathexpand` | `~` replaced by the home directory |
//! | other | `sensitive`, `nonsensitive` | the argument unchanged / always an error (no marks here) |
//!
//! Where they differ from Terraform:
//!
//! - `base64gzip` compresses with flate2, whose bytes differ from Go's
//!   compressor (both are valid gzip of the same text).
//! - `abspath` answers from the base directory instead of the process's
//!   working directory; `fileset` lists regular files only and follows no
//!   symbolic link (Terraform follows them).
//! - `textencodebase64` and `textdecodebase64` know UTF-8, UTF-16 (LE, BE,
//!   with a byte order mark), US-ASCII, ISO-8859-1 and windows-1252, not
//!   every IANA character set.
//! - `bcrypt` refuses a cost above 16 (each step doubles the time; an
//!   evaluation must stay bounded).
//! - `yamlencode` writes a mapping key that spans lines or passes 128
//!   characters as a simple double-quoted key, where go-yaml writes a
//!   complex (`? `) key; `yamldecode` does not apply `<<` merge keys.

mod cidr;
mod collections;
mod crypto;
mod encoding;
mod filesystem;
mod glob;
mod strings;
mod time;
mod yaml;
mod yaml_resolve;

use crate::eval::{Context, FuncDef};
use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::SystemTime;

/// A clock: the current time.
pub type Clock = dyn Fn() -> SystemTime + Send + Sync;

/// A random source: fills the buffer with random bytes.
pub type RandomSource = dyn Fn(&mut [u8]) + Send + Sync;

/// The configuration of Terraform's function table: which directory the
/// filesystem functions may read, the home directory for `~`, the clock
/// and the random source. [`TerraformFunctions::new`] grants no directory
/// and uses the system clock and the operating system's random source.
#[derive(Clone)]
pub struct TerraformFunctions {
    base_dir: Option<PathBuf>,
    home_dir: Option<PathBuf>,
    clock: Arc<Clock>,
    random: Arc<RandomSource>,
}

impl Default for TerraformFunctions {
    fn default() -> TerraformFunctions {
        TerraformFunctions::new()
    }
}

impl fmt::Debug for TerraformFunctions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TerraformFunctions")
            .field("base_dir", &self.base_dir)
            .field("home_dir", &self.home_dir)
            .finish_non_exhaustive()
    }
}

/// The operating system's random source. If it fails, the buffer is
/// filled from the clock and a counter mixed by SHA-256: never panics.
fn os_random(buf: &mut [u8]) {
    if getrandom::fill(buf).is_err() {
        use sha2::Digest;
        use std::sync::atomic::{AtomicU64, Ordering};
        static COUNTER: AtomicU64 = AtomicU64::new(0);
        let mut seed = format!("{:?}", SystemTime::now()).into_bytes();
        seed.extend(COUNTER.fetch_add(1, Ordering::Relaxed).to_le_bytes());
        for (i, chunk) in buf.chunks_mut(32).enumerate() {
            let mut h = sha2::Sha256::new();
            h.update(&seed);
            h.update(i.to_le_bytes());
            let d = h.finalize();
            for (b, x) in chunk.iter_mut().zip(d.iter()) {
                *b = *x;
            }
        }
    }
}

impl TerraformFunctions {
    /// No directory granted, the system clock, the OS random source.
    pub fn new() -> TerraformFunctions {
        TerraformFunctions {
            base_dir: None,
            home_dir: None,
            clock: Arc::new(SystemTime::now),
            random: Arc::new(os_random),
        }
    }

    /// Grants the filesystem functions the directory `dir`: relative paths
    /// are resolved against it, and no path outside it is read.
    #[must_use]
    pub fn base_dir(mut self, dir: impl Into<PathBuf>) -> TerraformFunctions {
        self.base_dir = Some(dir.into());
        self
    }

    /// The directory that `~` stands for in paths (`pathexpand`, and the
    /// file functions, which still refuse it unless it is inside the base
    /// directory).
    #[must_use]
    pub fn home_dir(mut self, dir: impl Into<PathBuf>) -> TerraformFunctions {
        self.home_dir = Some(dir.into());
        self
    }

    /// The clock `timestamp` and `plantimestamp` read.
    #[must_use]
    pub fn clock<F>(mut self, clock: F) -> TerraformFunctions
    where
        F: Fn() -> SystemTime + Send + Sync + 'static,
    {
        self.clock = Arc::new(clock);
        self
    }

    /// A clock stopped at `t`.
    #[must_use]
    pub fn fixed_time(self, t: SystemTime) -> TerraformFunctions {
        self.clock(move || t)
    }

    /// The random source of `uuid` and of `bcrypt`'s salts.
    #[must_use]
    pub fn random<F>(mut self, random: F) -> TerraformFunctions
    where
        F: Fn(&mut [u8]) + Send + Sync + 'static,
    {
        self.random = Arc::new(random);
        self
    }

    /// The granted base directory, if any.
    pub fn get_base_dir(&self) -> Option<&std::path::Path> {
        self.base_dir.as_deref()
    }

    /// Every function of the table under this configuration: name and
    /// definition. Filesystem functions only with a base directory.
    pub fn functions(&self) -> Vec<(&'static str, FuncDef)> {
        let mut out: Vec<(&'static str, FuncDef)> = Vec::new();
        for (name, def) in super::all() {
            // go-cty names Terraform does not register.
            if matches!(name, "strlen" | "setsymmetricdifference") {
                continue;
            }
            out.push((name, def));
        }
        let mut set =
            |name: &'static str, def: FuncDef| match out.iter_mut().find(|(n, _)| *n == name) {
                Some(slot) => slot.1 = def,
                None => out.push((name, def)),
            };
        for table in [
            collections::COLLECTIONS,
            strings::STRINGS,
            encoding::ENCODING,
            yaml::YAML,
            crypto::CRYPTO,
            cidr::CIDR,
            time::TIME,
        ] {
            for (name, make) in table {
                set(name, make());
            }
        }
        for (name, def) in self.world_functions() {
            set(name, def);
        }
        out
    }

    /// The functions that read the clock, the random source or files.
    fn world_functions(&self) -> Vec<(&'static str, FuncDef)> {
        let mut out = vec![
            ("timestamp", time::timestamp(Arc::clone(&self.clock))),
            ("plantimestamp", time::timestamp(Arc::clone(&self.clock))),
            ("uuid", crypto::uuid(Arc::clone(&self.random))),
            ("bcrypt", crypto::bcrypt(Arc::clone(&self.random))),
        ];
        if self.base_dir.is_some() {
            out.extend(filesystem::functions(self));
        }
        out
    }

    /// The names of the functions [`functions`](Self::functions) returns.
    pub fn names(&self) -> Vec<&'static str> {
        self.functions().into_iter().map(|(n, _)| n).collect()
    }
}

impl Context {
    /// A context that supports variables and functions, with Terraform's
    /// functions declared (see [`crate::stdlib::terraform`]): no
    /// filesystem function, the system clock and random source.
    pub fn with_terraform_functions() -> Context {
        let mut ctx = Context::new();
        ctx.add_terraform_functions(&TerraformFunctions::new());
        ctx
    }

    /// Declares Terraform's functions as `funcs` configures them,
    /// replacing functions of the same names.
    pub fn add_terraform_functions(&mut self, funcs: &TerraformFunctions) {
        for (name, def) in funcs.functions() {
            self.declare_func(name, def);
        }
    }
}
