//! [`ParseOptions`]: the limits applied while parsing.

/// Limits applied while parsing, set with `with_*` builder methods and read
/// with the methods of the same name without the prefix (the style of every
/// options type in these crates).
///
/// ```
/// use hcl_grammar::{parse_expr, ParseOptions};
/// let options = ParseOptions::default().with_max_depth(4);
/// assert!(parse_expr("[[[1]]]", &options).is_ok());
/// assert!(parse_expr("[[[[[1]]]]]", &options).is_err());
///
/// let small = ParseOptions::default().with_max_input_len(8);
/// assert_eq!(small.max_input_len(), 8);
/// let err = parse_expr("[1, 2, 3, 4]", &small).unwrap_err();
/// assert!(err.message().starts_with("input too large"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseOptions {
    pub(crate) max_depth: usize,
    pub(crate) max_input_len: usize,
    pub(crate) chunk_len: usize,
    pub(crate) file_name: Option<std::sync::Arc<str>>,
    pub(crate) span: Option<crate::Span>,
}

impl ParseOptions {
    /// The default for [`ParseOptions::with_max_depth`].
    pub const DEFAULT_MAX_DEPTH: usize = 128;
    /// The default for [`ParseOptions::with_max_input_len`]: 8 MiB.
    pub const DEFAULT_MAX_INPUT_LEN: usize = 8 * 1024 * 1024;
    /// The default for [`ParseOptions::with_chunk_len`]: 16 KiB.
    #[doc(hidden)]
    pub const DEFAULT_CHUNK_LEN: usize = 16 * 1024;

    /// The deepest nesting accepted. Each of these is one level: a
    /// bracket, brace or parenthesis (collections, calls, indexes,
    /// blocks), a quoted string or heredoc, a template sequence (`${`,
    /// `%{`), a conditional's `?`; the operators and traversal steps of one
    /// expression also count, as they nest in the tree. So 128 nested
    /// `(` or `[` parse, and 64 nested `"${`. Deeper input is a syntax error
    /// rather than a stack overflow (checked in debug builds on a 2 MiB
    /// stack). Default: [`ParseOptions::DEFAULT_MAX_DEPTH`] (128).
    #[must_use]
    pub fn with_max_depth(mut self, depth: usize) -> Self {
        self.max_depth = depth;
        self
    }

    /// The longest input accepted, in bytes; longer input is an error
    /// ("input too large") pointing at the first byte past the limit,
    /// before any parsing. Parsing holds the tree and pest's token queue of
    /// one piece (see [`ParseOptions::with_chunk_len`]): about 12 to 30
    /// bytes per input byte for ordinary configs, up to about 160 for the
    /// densest shapes (one huge attribute: a long list, object or
    /// template). The default, [`ParseOptions::DEFAULT_MAX_INPUT_LEN`]
    /// (8 MiB, four times the largest real configuration file we know of),
    /// keeps every parse under about 2 GiB; raise it for trusted, larger
    /// generated files. Spans hold 32-bit offsets, so a larger value than
    /// [`Span::MAX_OFFSET`](crate::Span::MAX_OFFSET) (4 GiB - 1) is taken
    /// as that: longer input is always an error, never a panic.
    #[must_use]
    pub fn with_max_input_len(mut self, len: usize) -> Self {
        self.max_input_len = len.min(crate::Span::MAX_OFFSET);
        self
    }

    /// A config file longer than this many bytes is parsed in pieces of at
    /// least this size, cut between top-level items: pest's token queue
    /// (20 to 200 bytes per input byte) then holds one piece at a time, so
    /// parsing memory grows with the tree alone and the time per byte of a
    /// large file stays that of a small one. The tree and the errors are
    /// the same for every value (a piece that fails is parsed again as part
    /// of the whole file). Expressions and templates are always parsed
    /// whole. Default: [`ParseOptions::DEFAULT_CHUNK_LEN`] (16 KiB).
    #[must_use]
    #[doc(hidden)]
    pub fn with_chunk_len(mut self, len: usize) -> Self {
        self.chunk_len = len;
        self
    }

    /// The name of the file being parsed, for errors: an error's
    /// [`Error::file_name`](crate::Error::file_name) and its rendering
    /// (` --> main.tf:3:7` instead of ` --> 3:7`). Default: none.
    ///
    /// ```
    /// use hcl_grammar::{parse_body, ParseOptions};
    /// let options = ParseOptions::default().with_file_name("main.tf");
    /// let err = parse_body("a = [\n", &options).unwrap_err();
    /// assert_eq!(err.file_name(), Some("main.tf"));
    /// assert!(err.to_string().contains(" --> main.tf:1:5\n"));
    /// ```
    #[must_use]
    pub fn with_file_name(mut self, name: impl Into<String>) -> Self {
        self.file_name = Some(std::sync::Arc::from(name.into()));
        self
    }

    /// Every entry point ([`parse_body`](crate::parse_body),
    /// [`parse_expr`](crate::parse_expr),
    /// [`parse_template`](crate::parse_template),
    /// [`json::parse_json`](crate::json::parse_json)) then parses only the
    /// part of the input at `span` (its start offset and end), as though the rest were not there, with every span of the
    /// tree and every error position still in the whole input: for a piece
    /// of a larger file, such as an expression cut out of a line or a JSON
    /// string's template, positioned in that file. This is the
    /// reference's `start` position, given as the whole text and a range
    /// so that the tree keeps borrowing from what it parsed, its spans
    /// indexing it. Lines and columns are counted from the input's start;
    /// bytes outside the span are not read (invalid UTF-8 there is no
    /// error); the size limit applies to the span. A span past the end of
    /// the input, or not between characters, is an error. Default: none,
    /// the whole input. [`format()`](crate::format()) always checks the
    /// whole input.
    ///
    /// ```
    /// use hcl_grammar::{parse_expr, ParseOptions, Span};
    /// let line = "port = 80 + var.offset # the web port";
    /// let options = ParseOptions::default().with_span(Span::new(7, 22));
    /// let e = parse_expr(line, &options).unwrap();
    /// assert_eq!(e.span, Span::new(7, 22));
    ///
    /// let err = parse_expr(line, &ParseOptions::default().with_span(Span::new(7, 12))).unwrap_err();
    /// assert_eq!((err.line(), err.column()), (1, 13));
    /// ```
    #[must_use]
    pub fn with_span(mut self, span: crate::Span) -> Self {
        self.span = Some(span);
        self
    }

    /// The part of the input parsed: see [`ParseOptions::with_span`].
    pub fn span(&self) -> Option<crate::Span> {
        self.span
    }

    /// The part of `text` to parse: [`ParseOptions::with_span`]'s span, or
    /// the whole text. A span past the end or off a character boundary is
    /// an error, at the end of the text.
    pub(crate) fn region(&self, text: &str) -> crate::Result<crate::Span> {
        let Some(span) = self.span else {
            return Ok(crate::Span::new(0, text.len()));
        };
        if span.start() <= span.end() && text.get(span.range()).is_some() {
            return Ok(span);
        }
        let at = text.len();
        Err(crate::Error::new(
            format!(
                "the span to parse, {}..{}, is not a range of the input ({at} bytes) between characters",
                span.start(),
                span.end()
            ),
            crate::Span::new(at, at),
            text,
        ))
    }

    /// The file name: see [`ParseOptions::with_file_name`].
    pub fn file_name(&self) -> Option<&str> {
        self.file_name.as_deref()
    }

    /// The nesting limit: see [`ParseOptions::with_max_depth`].
    pub fn max_depth(&self) -> usize {
        self.max_depth
    }

    /// The input size limit: see [`ParseOptions::with_max_input_len`].
    pub fn max_input_len(&self) -> usize {
        self.max_input_len
    }

    /// The piece size: see [`ParseOptions::with_chunk_len`].
    #[doc(hidden)]
    pub fn chunk_len(&self) -> usize {
        self.chunk_len
    }
}

impl Default for ParseOptions {
    fn default() -> Self {
        ParseOptions {
            max_depth: Self::DEFAULT_MAX_DEPTH,
            max_input_len: Self::DEFAULT_MAX_INPUT_LEN,
            chunk_len: Self::DEFAULT_CHUNK_LEN,
            file_name: None,
            span: None,
        }
    }
}
