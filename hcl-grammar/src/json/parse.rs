//! The JSON parser: one pass over the bytes, each value handed to a
//! [`JsonBuilder`] as it is read: the document's ([`DocBuilder`]), or a
//! reader's own (`build_json`).

use super::build::{between_quotes, index, DocBuilder, JsonBuilder, JsonText};
use super::bytes::{show_byte, valid_number};
use super::lists::{sized, Room, Spare};
use super::unescape::{hex4, is_high_surrogate, lone, pair, unescape_into};
use super::{JsonDocument, JsonKind, JsonStr, JsonValue};
use crate::{Error, ParseOptions, Result, Span};

/// Parses JSON text into a spanned document, within the limits of `options`
/// (depth and input length), of the part of `input` that
/// [`ParseOptions::with_span`] names if it names one.
///
/// ```
/// use hcl_grammar::{json::parse_json, ParseOptions};
/// let options = ParseOptions::default().with_max_depth(2);
/// assert!(parse_json("[[1]]", &options).is_ok());
/// assert!(parse_json("[[[1]]]", &options).is_err());
/// ```
///
/// # Errors
///
/// A syntax error with its position: see the [module docs](crate::json).
pub fn parse_json<'i>(input: &'i str, options: &ParseOptions) -> Result<JsonDocument<'i>> {
    let span = checked(input, options)?;
    // A thread's spare buffers (none the first time): a small document
    // allocates nothing once one like it has come and gone.
    super::lists::with_spare(|spare| parse_in(input, span, options, spare))
}

/// Parses JSON text as [`parse_json`] does (the same syntax, limits and
/// errors), handing each value to `builder` as it is read instead of
/// making a document: the value returned is what the builder made of the
/// root. See [`JsonBuilder`] for an example.
///
/// # Errors
///
/// A syntax error (as [`parse_json`]'s, converted), or the builder's.
pub fn build_json<'i, B: JsonBuilder<'i>>(
    input: &'i str,
    options: &ParseOptions,
    builder: &mut B,
) -> std::result::Result<B::Value, B::Error> {
    let span = checked(input, options)?;
    super::lists::with_spare(|spare| {
        // Only the buffers of decoded names are used: taken from the
        // thread's spare room, given back (empty) after.
        let decoded = std::mem::take(&mut spare.room.decoded);
        let ends = std::mem::take(&mut spare.room.ends);
        let ran = run(input, span, options, builder, decoded, ends);
        spare.keep_text(ran.decoded, ran.ends);
        ran.root
    })
}

/// The span of `input` to parse, within the input length limit.
fn checked(input: &str, options: &ParseOptions) -> Result<Span> {
    let span = options.region(input).map_err(|e| e.in_file(options))?;
    if span.len() > options.max_input_len() {
        let piece = input.get(span.range()).unwrap_or_default();
        let e = Error::too_large(piece.as_bytes(), options.max_input_len());
        return Err(e.shifted(span.start(), input).in_file(options));
    }
    Ok(span)
}

/// What [`run`] gives: the root's value, the buffers of decoded names,
/// and the strings' bytes OR-ed (see [`Parser::high`]).
struct Ran<T, E> {
    root: std::result::Result<T, E>,
    decoded: String,
    ends: Vec<u32>,
    high: u64,
}

/// Parses `span` of `input` with `builder`, the decoded text of names
/// written with escapes going to `decoded` and `ends`.
#[inline(always)]
fn run<'i, B: JsonBuilder<'i>>(
    input: &'i str,
    span: Span,
    options: &ParseOptions,
    builder: &mut B,
    decoded: String,
    ends: Vec<u32>,
) -> Ran<B::Value, B::Error> {
    let mut p = Parser {
        src: input,
        // Nothing past the span is read.
        bytes: input.as_bytes().get(..span.end()).unwrap_or_default(),
        pos: span.start(),
        depth: 0,
        max_depth: options.max_depth(),
        options,
        decoded,
        ends,
        high: 0,
        b: builder,
    };
    let root = p.document();
    Ran {
        root,
        decoded: p.decoded,
        ends: p.ends,
        high: p.high,
    }
}

/// [`parse_json`] of `span` of `input` with the room of `spare`.
fn parse_in<'i>(
    input: &'i str,
    span: Span,
    options: &ParseOptions,
    spare: &mut Spare,
) -> Result<JsonDocument<'i>> {
    // A large document's arenas start with room in proportion to its
    // size, so that they are seldom copied as they grow (a realloc below
    // glibc's mmap threshold copies): in Terraform's JSON a property
    // takes about 28 bytes of text, an array element 100 or more; room
    // for one per 20 and 40 bytes. A small one's are the spare ones, or
    // allocated (or not) as they fill.
    let mut room = std::mem::take(&mut spare.room);
    let mut doc = DocBuilder {
        items: &mut spare.items,
        props: &mut spare.props,
        values: sized(std::mem::take(&mut room.values), reserve(span.len() / 40)),
        properties: sized(
            std::mem::take(&mut room.properties),
            reserve(span.len() / 20),
        ),
    };
    let decoded = std::mem::take(&mut room.decoded);
    let ends = std::mem::take(&mut room.ends);
    let Ran {
        root,
        decoded,
        ends,
        high,
    } = run(input, span, options, &mut doc, decoded, ends);
    let DocBuilder {
        values, properties, ..
    } = doc;
    spare.settle();
    let room = Room {
        values,
        properties,
        decoded,
        ends,
    };
    match root {
        Ok(root) => Ok(JsonDocument {
            src: input,
            root,
            room,
            ascii: high & HIGHS == 0,
        }),
        Err(e) => {
            // The room back, for the next parse.
            spare.keep(room);
            Err(e)
        }
    }
}

struct Parser<'i, 'b, B> {
    src: &'i str,
    bytes: &'i [u8],
    pos: usize,
    depth: usize,
    max_depth: usize,
    /// For the file name of errors.
    options: &'b ParseOptions,
    /// The text of the names with escapes read so far, decoded.
    decoded: String,
    /// Where each of those ends in `decoded`.
    ends: Vec<u32>,
    /// The strings' bytes OR-ed together (some, conservatively): no
    /// [`HIGHS`] bit set, every string is ASCII.
    high: u64,
    /// What the values become.
    b: &'b mut B,
}

impl<'i, B: JsonBuilder<'i>> Parser<'i, '_, B> {
    /// The one value of the text, with nothing but spaces around it.
    fn document(&mut self) -> Res<'i, B> {
        self.skip_ws();
        if self.pos >= self.bytes.len() {
            return Err(self.err_here("Invalid JSON: empty input, expected a value"));
        }
        let v = self.value()?;
        self.skip_ws();
        if self.pos < self.bytes.len() {
            return Err(self.err(
                "Extraneous data after value: only one JSON value is allowed",
                Span::new(self.pos, self.pos + 1),
            ));
        }
        Ok(v)
    }

    #[cold]
    fn err(&self, message: impl Into<String>, span: Span) -> B::Error {
        Error::new(message, span, self.src)
            .in_file(self.options)
            .into()
    }

    #[cold]
    fn err_here(&self, message: impl Into<String>) -> B::Error {
        let end = (self.pos + 1).min(self.bytes.len()).max(self.pos);
        self.err(message, Span::new(self.pos, end))
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    #[inline]
    fn skip_ws(&mut self) {
        // A local position: `pos` is stored once, not per byte.
        let mut pos = self.pos;
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.bytes.get(pos) {
            pos += 1;
        }
        self.pos = pos;
    }

    /// A value: strings and numbers here, inline in the loops of arrays
    /// and objects; the rest in [`Parser::other`].
    #[inline(always)]
    fn value(&mut self) -> Res<'i, B> {
        let start = self.pos;
        match self.peek() {
            Some(b'"') => {
                let s = self.string()?;
                let v = JsonValue {
                    kind: JsonKind::String(s),
                    span: Span::at(start, self.pos),
                };
                self.scalar(v)
            }
            Some(b'-' | b'0'..=b'9') => {
                let v = self.number()?;
                self.scalar(v)
            }
            _ => self.other(),
        }
    }

    /// Hands the scalar `v` to the builder.
    #[inline(always)]
    fn scalar(&mut self, v: JsonValue) -> Res<'i, B> {
        self.b
            .scalar(v, &text(self.src, &self.decoded, &self.ends, self.high))
    }

    /// A value other than a string or a number: an object, an array, a
    /// keyword, or an error.
    #[inline(never)]
    fn other(&mut self) -> Res<'i, B> {
        match self.peek() {
            Some(b'{') => self.object(),
            Some(b'[') => self.array(),
            Some(b'a'..=b'z' | b'A'..=b'Z' | b'_') => {
                let v = self.keyword()?;
                self.scalar(v)
            }
            Some(b'/') => {
                Err(self.err_here("Invalid start of value: comments are not allowed in JSON"))
            }
            Some(b'\'') => {
                Err(self.err_here("Invalid start of value: strings must use double quotes (\")"))
            }
            Some(b) => Err(self.err_here(format!(
                "Invalid start of value: {} cannot start a JSON value",
                show_byte(self.src, self.pos, b)
            ))),
            None => Err(self.err_here("Unexpected end of input: expected a value")),
        }
    }

    fn keyword(&mut self) -> Fallible<'i, JsonValue, B> {
        let start = self.pos;
        while let Some(b'a'..=b'z' | b'A'..=b'Z' | b'_' | b'0'..=b'9') = self.peek() {
            self.pos += 1;
        }
        let word = self.src.get(start..self.pos).unwrap_or_default();
        let span = Span::at(start, self.pos);
        let kind = match word {
            "null" => JsonKind::Null,
            "true" => JsonKind::Bool(true),
            "false" => JsonKind::Bool(false),
            _ => {
                return Err(self.err(
                    format!(
                        "Invalid JSON keyword: {word:?} is not a value (the keywords are true, false and null)"
                    ),
                    span,
                ))
            }
        };
        Ok(JsonValue { kind, span })
    }

    fn number(&mut self) -> Fallible<'i, JsonValue, B> {
        let start = self.pos;
        // Most numbers are integers: digits after an optional `-`, not
        // followed by another byte of a number, without a leading zero
        // (the run below would end at the same place and find it valid).
        let bytes = self.bytes;
        let mut pos = start + usize::from(bytes.get(start) == Some(&b'-'));
        let digits = pos;
        while let Some(b'0'..=b'9') = bytes.get(pos) {
            pos += 1;
        }
        let integer = pos > digits
            && !matches!(bytes.get(pos), Some(b'-' | b'+' | b'.' | b'e' | b'E'))
            && (pos == digits + 1 || bytes.get(digits) != Some(&b'0'));
        if integer {
            self.pos = pos;
            return Ok(JsonValue {
                kind: JsonKind::Number,
                span: Span::at(start, pos),
            });
        }
        // Take the longest run of number-like bytes, then check its shape,
        // so that `012`, `1.`, `1e5e5` are one bad token.
        while let Some(b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E') = self.peek() {
            self.pos += 1;
        }
        let text = self.src.get(start..self.pos).unwrap_or_default();
        let span = Span::at(start, self.pos);
        if !valid_number(text.as_bytes()) {
            return Err(self.err(format!("Invalid JSON number {text:?}"), span));
        }
        Ok(JsonValue {
            kind: JsonKind::Number,
            span,
        })
    }

    /// A string value starting at the current `"`; leaves `pos` after
    /// the closing quote. One written with escapes is decoded when it is
    /// read ([`JsonStr::LAZY`]), not here.
    #[inline]
    fn string(&mut self) -> Fallible<'i, JsonStr, B> {
        let open = self.pos;
        if self.plain_string() {
            return Ok(JsonStr::SOURCE);
        }
        self.escaped_string(open)?;
        Ok(JsonStr::LAZY)
    }

    /// A property name starting at the current `"`, as [`Parser::string`];
    /// one written with escapes is decoded now, into the document's
    /// decoded text, so that every name can be lent as a `&str`.
    #[inline]
    fn name(&mut self) -> Fallible<'i, JsonStr, B> {
        let open = self.pos;
        if self.plain_string() {
            return Ok(JsonStr::SOURCE);
        }
        self.escaped_name(open)
    }

    /// The rest of [`Parser::name`] from the first escape (or error).
    #[inline(never)]
    fn escaped_name(&mut self, open: usize) -> Fallible<'i, JsonStr, B> {
        self.escaped_string(open)?;
        let content = between_quotes(self.src, Span::new(open, self.pos));
        unescape_into(content, &mut self.decoded);
        // The decoded text is at most as long as the input (an escape is
        // never shorter than its character), so its offsets fit a `u32`
        // as the input's do.
        self.ends.push(index(self.decoded.len()));
        Ok(JsonStr::decoded(self.ends.len()))
    }

    /// Moves `pos` past the string starting at the current `"` if it is
    /// written without escapes (most are: scanned to the closing quote,
    /// whose text is then borrowed), and says so; otherwise leaves `pos`
    /// at its first escape (or error). Any byte from 0x20 up other than
    /// `"` and `\` is plain text (bytes of multi-byte characters
    /// included: the input is a `str`).
    #[inline(always)]
    fn plain_string(&mut self) -> bool {
        let content_start = self.pos + 1;
        let rest = self.bytes.get(content_start..).unwrap_or_default();
        let (n, seen) = plain_run(rest);
        self.high |= seen;
        let end = content_start + n;
        if rest.get(n) == Some(&b'"') {
            self.pos = end + 1;
            return true;
        }
        self.pos = end;
        false
    }

    /// The rest of a string (opened at `open`) from its first escape (or
    /// error): the escapes are checked and `pos` left after the closing
    /// quote. The text is decoded by `unescape.rs`, which decodes each
    /// escape as it is checked here.
    #[inline(never)]
    fn escaped_string(&mut self, open: usize) -> Fallible<'i, (), B> {
        loop {
            let Some(b) = self.peek() else {
                return Err(self.err(
                    "Unterminated string: the string has no closing quote",
                    Span::new(open, open + 1),
                ));
            };
            match b {
                b'"' => {
                    self.pos += 1;
                    return Ok(());
                }
                b'\\' => {
                    let esc_start = self.pos;
                    let Some(e) = self.bytes.get(self.pos + 1).copied() else {
                        self.pos += 1;
                        continue;
                    };
                    self.pos += 2;
                    match e {
                        b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => {}
                        b'u' => {
                            if !self.unicode_escape(esc_start)?.is_ascii() {
                                self.high = HIGHS;
                            }
                        }
                        _ => {
                            return Err(self.err(
                                "Invalid JSON string: invalid escape sequence",
                                Span::new(esc_start, self.pos),
                            ))
                        }
                    }
                    self.plain_run();
                }
                0..=0x1f => {
                    return Err(self.err(
                        "Invalid JSON string: control characters (tabs, newlines) must be escaped in strings",
                        Span::new(self.pos, self.pos + 1),
                    ))
                }
                _ => self.plain_run(),
            }
        }
    }

    /// Moves `pos` past a run of plain string text (whole characters: it
    /// ends before an ASCII byte), noting its bytes in `high`.
    #[inline(always)]
    fn plain_run(&mut self) {
        let (n, seen) = self.bytes.get(self.pos..).map_or((0, 0), plain_run);
        self.high |= seen;
        self.pos += n;
    }

    /// The character of a `\uXXXX` escape (and its pair, for a surrogate);
    /// a lone surrogate becomes U+FFFD, as in the reference.
    fn unicode_escape(&mut self, esc_start: usize) -> Fallible<'i, char, B> {
        let hi = self.hex4(esc_start)?;
        if is_high_surrogate(hi)
            && self.bytes.get(self.pos) == Some(&b'\\')
            && self.bytes.get(self.pos + 1) == Some(&b'u')
        {
            let save = self.pos;
            self.pos += 2;
            let lo = self.hex4(esc_start)?;
            if let Some(c) = pair(hi, lo) {
                return Ok(c);
            }
            self.pos = save;
        }
        Ok(lone(hi))
    }

    fn hex4(&mut self, esc_start: usize) -> Fallible<'i, u32, B> {
        match hex4(self.bytes.get(self.pos..self.pos + 4)) {
            Some(v) => {
                self.pos += 4;
                Ok(v)
            }
            None => Err(self.err(
                "Invalid JSON string: \\u must be followed by four hexadecimal digits",
                Span::new(esc_start, (self.pos + 4).min(self.bytes.len())),
            )),
        }
    }

    fn enter(&mut self) -> Fallible<'i, (), B> {
        self.depth += 1;
        if self.depth > self.max_depth {
            return Err(self.err_here(format!(
                "nesting too deep: JSON arrays and objects may nest at most {} levels deep",
                self.max_depth
            )));
        }
        Ok(())
    }

    fn array(&mut self) -> Res<'i, B> {
        let start = self.pos;
        self.enter()?;
        self.pos += 1;
        let d = self.depth;
        let mut array = self.b.array(d);
        self.skip_ws();
        if self.peek() == Some(b']') {
            self.pos += 1;
        } else {
            let mut comma = start;
            loop {
                self.skip_ws();
                if self.peek() == Some(b']') {
                    return Err(self.err(
                        "Trailing comma in array: JSON does not permit a trailing comma after the final value in an array",
                        Span::new(comma, comma + 1),
                    ));
                }
                let item = self.value()?;
                self.b.item(&mut array, d, item)?;
                self.skip_ws();
                match self.peek() {
                    Some(b',') => {
                        comma = self.pos;
                        self.pos += 1;
                    }
                    Some(b']') => {
                        self.pos += 1;
                        break;
                    }
                    None => {
                        return Err(self.err(
                            "Unclosed array: the '[' has no matching ']'",
                            Span::new(start, start + 1),
                        ))
                    }
                    Some(_) => {
                        return Err(self.err_here(
                            "Missing comma or closing bracket: expected ',' or ']' after an array element",
                        ))
                    }
                }
            }
        }
        self.depth -= 1;
        self.b.end_array(array, d, Span::at(start, self.pos))
    }

    fn object(&mut self) -> Res<'i, B> {
        let start = self.pos;
        self.enter()?;
        self.pos += 1;
        let d = self.depth;
        let mut object = self.b.object(d);
        self.skip_ws();
        if self.peek() == Some(b'}') {
            self.pos += 1;
        } else {
            let mut comma = start;
            loop {
                self.skip_ws();
                let name_start = self.pos;
                let name = match self.peek() {
                    Some(b'"') => self.name()?,
                    Some(b'}') => {
                        return Err(self.err(
                            "Trailing comma in object: JSON does not permit a trailing comma after the final property in an object",
                            Span::new(comma, comma + 1),
                        ))
                    }
                    None => {
                        return Err(self.err(
                            "Unclosed object: the '{' has no matching '}'",
                            Span::new(start, start + 1),
                        ))
                    }
                    Some(_) => {
                        return Err(self.err_here(
                            "Invalid object property name: property names must be double-quoted strings",
                        ))
                    }
                };
                let name_span = Span::at(name_start, self.pos);
                self.skip_ws();
                match self.peek() {
                    Some(b':') => self.pos += 1,
                    None => {
                        return Err(self.err(
                            "Unclosed object: the '{' has no matching '}'",
                            Span::new(start, start + 1),
                        ))
                    }
                    Some(_) => {
                        return Err(self.err_here(
                            "Missing property value colon: expected ':' after the property name",
                        ))
                    }
                }
                self.skip_ws();
                let value = self.value()?;
                let text = text(self.src, &self.decoded, &self.ends, self.high);
                self.b
                    .property(&mut object, d, name, name_span, value, &text)?;
                self.skip_ws();
                match self.peek() {
                    Some(b',') => {
                        comma = self.pos;
                        self.pos += 1;
                    }
                    Some(b'}') => {
                        self.pos += 1;
                        break;
                    }
                    None => {
                        return Err(self.err(
                            "Unclosed object: the '{' has no matching '}'",
                            Span::new(start, start + 1),
                        ))
                    }
                    Some(_) => return Err(self.err_here(
                        "Missing attribute seperator comma: expected ',' or '}' after a property",
                    )),
                }
            }
        }
        self.depth -= 1;
        self.b.end_object(object, d, Span::at(start, self.pos))
    }
}

/// What a parse with the builder `B` gives of a value.
type Res<'i, B> = Fallible<'i, <B as JsonBuilder<'i>>::Value, B>;

/// A result of a parse with the builder `B`.
type Fallible<'i, T, B> = std::result::Result<T, <B as JsonBuilder<'i>>::Error>;

/// The text a builder reads strings and numbers from.
#[inline(always)]
fn text<'a, 'i>(src: &'i str, decoded: &'a str, ends: &'a [u32], high: u64) -> JsonText<'a, 'i> {
    JsonText {
        src,
        decoded,
        ends,
        ascii: high & HIGHS == 0,
    }
}

/// The capacity to start an arena with, `n` estimated: none below 64
/// (the first children allocate it).
fn reserve(n: usize) -> usize {
    if n < 64 {
        0
    } else {
        n
    }
}

/// A byte's high bit in each of a word's eight bytes.
const HIGHS: u64 = 0x8080_8080_8080_8080;

/// The length of the run of plain string text at the start of `bytes`:
/// bytes other than `"`, `\\` and control characters (below 0x20). Eight
/// bytes at a time: in each, a byte's high bit is set by the subtractions
/// below when it is one of those, and the lowest one set is exact.
///
/// With it, the bytes read OR-ed together, whose [`HIGHS`] bits are set
/// if a byte of the run is not ASCII (and may be for a byte past it).
fn plain_run(bytes: &[u8]) -> (usize, u64) {
    const ONES: u64 = 0x0101_0101_0101_0101;
    let mut chunks = bytes.chunks_exact(8);
    let mut n = 0;
    let mut seen = 0;
    for chunk in chunks.by_ref() {
        let x = u64::from_le_bytes(chunk.try_into().unwrap_or([0; 8]));
        seen |= x;
        let ctrl = x.wrapping_sub(ONES * 0x20) & !x;
        let q = x ^ (ONES * u64::from(b'"'));
        let quote = q.wrapping_sub(ONES) & !q;
        let b = x ^ (ONES * u64::from(b'\\'));
        let backslash = b.wrapping_sub(ONES) & !b;
        let found = (ctrl | quote | backslash) & HIGHS;
        if found != 0 {
            return (n + (found.trailing_zeros() / 8) as usize, seen);
        }
        n += 8;
    }
    for &b in chunks.remainder() {
        if b < 0x20 || b == b'"' || b == b'\\' {
            break;
        }
        seen |= u64::from(b);
        n += 1;
    }
    (n, seen)
}

#[cfg(test)]
#[path = "parse_tests.rs"]
mod tests;
