//! Several files as one body (the reference's `hcl.MergeFiles`; the rule
//! itself is the body abstraction's, `body/merged.rs`).
//!
//! [`Sources`] owns the text of the files (read from a directory, or added
//! one by one) so that the parsed [`File`]s can borrow it.

use super::{BodyKind, File, SchemaBody};
use crate::error::Result;
use crate::source::{syntax_of, Sources};

/// The files of `files` as one body, in the given order (the reference's
/// `hcl.MergeFiles`). Give the files names ([`File::parse_named`]) so that
/// errors say which file they are in.
///
/// ```
/// use hcl::schema::{merge, BodySchema, File};
/// use hcl::Syntax;
///
/// let a = File::parse_named("a.tf", "region = \"eu\"\n", Syntax::Native)?;
/// let b = File::parse_named("b.tf", "region = \"us\"\n", Syntax::Native)?;
/// let files = [a, b];
/// let err = merge(&files)
///     .content(&BodySchema::new().attribute("region", true))
///     .unwrap_err();
/// assert_eq!(err.file(), Some("b.tf"));
/// assert!(err.message().contains("already set at a.tf:1,1-7"));
/// # Ok::<(), hcl::Error>(())
/// ```
pub fn merge<'a>(files: &'a [File<'_>]) -> SchemaBody<'a> {
    SchemaBody {
        src: "",
        file: None,
        kind: BodyKind::Merged(files.iter().map(File::body).collect()),
        hidden: Vec::new(),
        dynamic: None,
        iterators: None,
        unknown: false,
    }
}

// `Sources` itself lives in `source/`, which the serde route for several
// files (`de/files.rs`) shares; parsing into schema `File`s is this API's.
impl Sources {
    /// Parses every file, in order, named ([`File::parse_named`]).
    ///
    /// # Errors
    ///
    /// The first file's syntax error, naming the file.
    pub fn parse(&self) -> Result<Vec<File<'_>>> {
        self.files()
            .map(|(name, text)| File::parse_named(name, text, syntax_of(name)))
            .collect()
    }
}
