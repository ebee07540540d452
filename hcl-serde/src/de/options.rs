//! [`Options`]: the settings every entry point accepts, so that a program
//! reading a path, a directory or a stream sets them as it would on a
//! [`Deserializer`](super::Deserializer).

use super::DEFAULT_MAX_DEPTH;
use hcl_grammar::ParseOptions;

/// The settings of a read, accepted by every entry point:
/// [`Deserializer::with_options`](super::Deserializer::with_options),
/// [`from_path_with_options`](super::from_path_with_options),
/// [`from_dir_with_options`](super::from_dir_with_options) and
/// [`from_reader_with_options`](super::from_reader_with_options).
///
/// ```no_run
/// // A generated file larger than the default 8 MiB limit.
/// let options = hcl::de::Options::new().with_max_input_len(64 << 20);
/// let v: hcl::Value = hcl::de::from_path_with_options("big.tf.json", None, &options)?;
/// # Ok::<(), hcl::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Options {
    pub(crate) max_depth: usize,
    pub(crate) max_input_len: usize,
    pub(crate) dynamic_blocks: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            max_depth: DEFAULT_MAX_DEPTH,
            max_input_len: ParseOptions::DEFAULT_MAX_INPUT_LEN,
            dynamic_blocks: false,
        }
    }
}

impl Options {
    /// The defaults: depth limit [`DEFAULT_MAX_DEPTH`] (128), input limit
    /// [`ParseOptions::DEFAULT_MAX_INPUT_LEN`] (8 MiB).
    pub fn new() -> Options {
        Options::default()
    }

    /// How deeply blocks and values may nest (as
    /// [`Deserializer::with_max_depth`](super::Deserializer::with_max_depth)).
    #[must_use]
    pub fn with_max_depth(mut self, depth: usize) -> Options {
        self.max_depth = depth;
        self
    }

    /// The longest input accepted, in bytes, for each file (as
    /// [`Deserializer::with_max_input_len`](super::Deserializer::with_max_input_len));
    /// a stream is read no further than this plus one byte.
    #[must_use]
    pub fn with_max_input_len(mut self, len: usize) -> Options {
        self.max_input_len = len;
        self
    }

    /// Expands `dynamic` blocks (Terraform's, the reference's
    /// `ext/dynblock`) as the target reads the body: each
    /// `dynamic "NAME" { for_each = ..., iterator = ..., labels = [...], content { ... } }`
    /// is read as one `NAME` block per element of `for_each`, in its place
    /// among the `NAME` blocks, and the generated blocks' attributes see
    /// the iterator (an object with `key` and `value`) as a variable. The
    /// rules and messages are [`ext::dynblock`](crate::ext::dynblock)'s
    /// (the schema API's expansion); the generated blocks take as many
    /// labels as `labels` lists. Off by default: without it a `dynamic`
    /// block is an ordinary block.
    ///
    /// In both syntaxes and in modules mixing them, at any depth: native
    /// `dynamic` blocks, and in the JSON syntax `dynamic` properties (of a
    /// file's body or of a block's). A `dynamic` block whose `for_each` is
    /// unknown generates one block whose attributes are all unknown, of
    /// any type (the reference's `unknownBody`): a [`Value`](crate::Value)
    /// field holds the unknown value, a typed field is an error that says
    /// the value is unknown.
    ///
    /// ```
    /// use serde::Deserialize;
    ///
    /// #[derive(Deserialize)]
    /// struct Rule { port: u16 }
    /// #[derive(Deserialize)]
    /// struct Group { ingress: Vec<Rule> }
    ///
    /// let text = "dynamic \"ingress\" {\n  for_each = [80, 443]\n  content {\n    port = ingress.value\n  }\n}\n";
    /// let options = hcl::de::Options::new().with_dynamic_blocks(true);
    /// let g = Group::deserialize(hcl::Deserializer::from_str(text).with_options(&options))?;
    /// assert_eq!(g.ingress.iter().map(|r| r.port).collect::<Vec<_>>(), [80, 443]);
    /// # Ok::<(), hcl::Error>(())
    /// ```
    #[must_use]
    pub fn with_dynamic_blocks(mut self, on: bool) -> Options {
        self.dynamic_blocks = on;
        self
    }

    /// Whether `dynamic` blocks are expanded.
    pub fn dynamic_blocks(&self) -> bool {
        self.dynamic_blocks
    }

    /// The depth limit.
    pub fn max_depth(&self) -> usize {
        self.max_depth
    }

    /// The input limit, in bytes.
    pub fn max_input_len(&self) -> usize {
        self.max_input_len
    }
}
