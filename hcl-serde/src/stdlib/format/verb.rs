//! One `%` sequence of a format specification, as the state machine reads it.

/// One `%` sequence.
#[derive(Default)]
pub(super) struct Verb {
    /// Byte offset of the `%`.
    pub(super) start: usize,
    /// Byte offset after the verb letter.
    pub(super) end: usize,
    /// 1-based index of the value.
    pub(super) arg_num: usize,
    pub(super) mode: u8,
    pub(super) zero: bool,
    pub(super) sharp: bool,
    pub(super) plus: bool,
    pub(super) minus: bool,
    pub(super) space: bool,
    pub(super) has_prec: bool,
    pub(super) prec: usize,
    pub(super) has_width: bool,
    pub(super) width: usize,
}
