//! Formatting HCL text in the canonical layout, byte for byte that of the
//! reference formatter (`hclwrite.Format`, behind `terraform fmt` and
//! `packer fmt`): aligned `=` signs, two-space indentation, one space or
//! none between tokens, comments kept and aligned, line breaks never
//! moved. The formatter itself is `hcl_grammar::format`;
//! these functions return this crate's [`Error`](crate::Error).
//!
//! ```
//! let src = "resource \"aws_instance\" \"web\" {\nami=\"ami-123\"\ninstance_type = \"t3.micro\" # small\n}\n";
//! assert_eq!(
//!     hcl::format(src)?,
//!     "resource \"aws_instance\" \"web\" {\n  ami           = \"ami-123\"\n  instance_type = \"t3.micro\" # small\n}\n"
//! );
//! # Ok::<(), hcl::Error>(())
//! ```

use crate::Result;

#[doc(inline)]
pub use hcl_grammar::FormatOptions;

/// Formats a config file in the canonical layout. A file with a syntax
/// error is refused with that error, as `terraform fmt` does.
///
/// ```
/// let err = hcl::format("a = 1\nb = \n").unwrap_err();
/// assert_eq!(err.line(), Some(2));
/// ```
pub fn format(src: &str) -> Result<String> {
    Ok(hcl_grammar::format(src, &Default::default())?)
}

/// [`format()`] with options (e.g. formatting without the syntax check).
pub fn format_with(src: &str, options: &FormatOptions) -> Result<String> {
    Ok(hcl_grammar::format(src, options)?)
}

/// [`format()`] for bytes that may not be UTF-8 (the reference accepts any
/// bytes inside comments).
pub fn format_bytes(src: &[u8]) -> Result<Vec<u8>> {
    Ok(hcl_grammar::format(src, &Default::default())?)
}

/// [`format_bytes`] with options.
pub fn format_bytes_with(src: &[u8], options: &FormatOptions) -> Result<Vec<u8>> {
    Ok(hcl_grammar::format(src, options)?)
}
