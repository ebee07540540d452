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
}

impl Default for Options {
    fn default() -> Options {
        Options {
            max_depth: DEFAULT_MAX_DEPTH,
            max_input_len: ParseOptions::DEFAULT_MAX_INPUT_LEN,
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

    /// The depth limit.
    pub fn max_depth(&self) -> usize {
        self.max_depth
    }

    /// The input limit, in bytes.
    pub fn max_input_len(&self) -> usize {
        self.max_input_len
    }
}
