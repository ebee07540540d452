//! The text of several files, owned, for the schema API's `merge` and the
//! serde route for several files (`hcl::from_files`).

use std::path::Path;

/// The text of several files, owned, to parse and [`merge`](crate::schema::merge): a Terraform
/// module's directory, a Packer template's files.
///
/// ```no_run
/// use hcl::schema::{merge, BodySchema, Sources};
///
/// let sources = Sources::read_dir("my-module", &["tf"])?;
/// let files = sources.parse()?;
/// let body = merge(&files);
/// let (content, _rest) = body.partial_content(&BodySchema::new().block("variable", &["name"]))?;
/// println!("{} variables", content.blocks.len());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Default)]
pub struct Sources {
    files: Vec<(String, String)>,
}

impl Sources {
    /// No files.
    pub fn new() -> Sources {
        Sources::default()
    }

    /// Adds a file named `name` (the name errors give; a name ending in
    /// `.json` is read in the JSON syntax).
    pub fn add(&mut self, name: impl Into<String>, text: impl Into<String>) -> &mut Sources {
        self.files.push((name.into(), text.into()));
        self
    }

    /// The regular files directly in `dir` whose names end in `.EXT` for
    /// one of `extensions` (`&["tf", "tf.json"]`), sorted by name (bytewise,
    /// as the reference's tools do), each named by its file name.
    ///
    /// # Errors
    ///
    /// The directory or a file cannot be read, or a file is not UTF-8.
    pub fn read_dir(dir: impl AsRef<Path>, extensions: &[&str]) -> std::io::Result<Sources> {
        let mut names = Vec::new();
        for entry in std::fs::read_dir(dir.as_ref())? {
            let entry = entry?;
            if !entry.file_type()?.is_file() {
                continue;
            }
            let Ok(name) = entry.file_name().into_string() else {
                continue;
            };
            let wanted = extensions.iter().any(|ext| {
                name.strip_suffix(ext)
                    .and_then(|stem| stem.strip_suffix('.'))
                    .is_some_and(|stem| !stem.is_empty())
            });
            if wanted {
                names.push((name, entry.path()));
            }
        }
        names.sort();
        let mut out = Sources::new();
        for (name, path) in names {
            let text = std::fs::read_to_string(&path)
                .map_err(|e| std::io::Error::new(e.kind(), format!("{}: {e}", path.display())))?;
            out.add(name, text);
        }
        Ok(out)
    }

    /// The names of the files, in order.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.files.iter().map(|(n, _)| n.as_str())
    }

    /// The files, in order: name and text.
    pub fn files(&self) -> impl Iterator<Item = (&str, &str)> {
        self.files.iter().map(|(n, t)| (n.as_str(), t.as_str()))
    }
}
