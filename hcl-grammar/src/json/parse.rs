//! The JSON parser: one pass over the bytes, children gathered on two
//! scratch stacks and moved into the document's arenas as each container
//! closes (so that a container's children lie side by side).

use super::lists::{sized, Lists, Room, Spare};
use super::{JsonArray, JsonDocument, JsonKind, JsonObject, JsonProperty, JsonStr, JsonValue};
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
    parse(input, options).map_err(|e| e.in_file(options))
}

/// [`parse_json`] without the file name on its errors.
fn parse<'i>(input: &'i str, options: &ParseOptions) -> Result<JsonDocument<'i>> {
    let span = options.region(input)?;
    if span.len() > options.max_input_len() {
        let piece = input.get(span.range()).unwrap_or_default();
        let e = Error::too_large(piece.as_bytes(), options.max_input_len());
        return Err(e.shifted(span.start(), input));
    }
    // A thread's spare buffers (none the first time): a small document
    // allocates nothing once one like it has come and gone.
    super::lists::with_spare(|spare| parse_in(input, span, options, spare))
}

/// [`parse`] of `span` of `input` with the room of `spare`.
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
    let mut p = Parser {
        src: input,
        // Nothing past the span is read.
        bytes: input.as_bytes().get(..span.end()).unwrap_or_default(),
        pos: span.start(),
        depth: 0,
        max_depth: options.max_depth(),
        items: &mut spare.items,
        props: &mut spare.props,
        values: sized(std::mem::take(&mut room.values), reserve(span.len() / 40)),
        properties: sized(
            std::mem::take(&mut room.properties),
            reserve(span.len() / 20),
        ),
        decoded: std::mem::take(&mut room.decoded),
        ends: std::mem::take(&mut room.ends),
        high: 0,
    };
    let root = p.document();
    let Parser {
        values,
        properties,
        decoded,
        ends,
        high,
        ..
    } = p;
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

struct Parser<'i, 's> {
    src: &'i str,
    bytes: &'i [u8],
    pos: usize,
    depth: usize,
    max_depth: usize,
    /// The elements of the arrays being read, one list per depth (at most
    /// one container is open at each): an array moves its own into
    /// `values` when it closes, in one copy, and leaves the list empty
    /// (its room kept) for the next container at that depth.
    items: &'s mut Lists<JsonValue>,
    /// The same for the properties of objects, into `properties`.
    props: &'s mut Lists<JsonProperty>,
    /// The document's arenas: the elements of the arrays read so far,
    /// each array's side by side.
    values: Vec<JsonValue>,
    /// The properties of the objects read so far.
    properties: Vec<JsonProperty>,
    /// The text of the strings with escapes read so far, decoded.
    decoded: String,
    /// Where each of those ends in `decoded`.
    ends: Vec<u32>,
    /// The strings' bytes OR-ed together (some, conservatively): no
    /// [`HIGHS`] bit set, every string is ASCII.
    high: u64,
}

impl<'i> Parser<'i, '_> {
    /// The one value of the text, with nothing but spaces around it.
    fn document(&mut self) -> Result<JsonValue> {
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
    fn err(&self, message: impl Into<String>, span: Span) -> Error {
        Error::new(message, span, self.src)
    }

    #[cold]
    fn err_here(&self, message: impl Into<String>) -> Error {
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
    fn value(&mut self) -> Result<JsonValue> {
        let start = self.pos;
        match self.peek() {
            Some(b'"') => {
                let s = self.string()?;
                Ok(JsonValue {
                    kind: JsonKind::String(s),
                    span: Span::at(start, self.pos),
                })
            }
            Some(b'-' | b'0'..=b'9') => self.number(),
            _ => self.other(),
        }
    }

    /// A value other than a string or a number: an object, an array, a
    /// keyword, or an error.
    #[inline(never)]
    fn other(&mut self) -> Result<JsonValue> {
        match self.peek() {
            Some(b'{') => self.object(),
            Some(b'[') => self.array(),
            Some(b'a'..=b'z' | b'A'..=b'Z' | b'_') => self.keyword(),
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

    fn keyword(&mut self) -> Result<JsonValue> {
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

    fn number(&mut self) -> Result<JsonValue> {
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

    /// A string starting at the current `"`; leaves `pos` after the
    /// closing quote.
    #[inline]
    fn string(&mut self) -> Result<JsonStr> {
        let open = self.pos;
        let content_start = open + 1;
        // Most strings have no escape: scan to the closing quote and
        // borrow. Any byte from 0x20 up other than `"` and `\` is plain
        // text (bytes of multi-byte characters included: the input is a
        // `str`).
        let rest = self.bytes.get(content_start..).unwrap_or_default();
        let (n, seen) = plain_run(rest);
        self.high |= seen;
        let end = content_start + n;
        if rest.get(n) == Some(&b'"') {
            self.pos = end + 1;
            return Ok(JsonStr::SOURCE);
        }
        self.pos = end;
        self.escaped_string(open, content_start)
    }

    /// The rest of [`Parser::string`] from the first escape (or error):
    /// the text so far, then the rest decoded, at the end of the
    /// document's decoded text.
    #[inline(never)]
    fn escaped_string(&mut self, open: usize, content_start: usize) -> Result<JsonStr> {
        let first = self.decoded.len();
        if first == 0 {
            // The first string with escapes: room for the decoded text of
            // all of them in a small document (it is never longer than
            // the rest of the input), of the first ones in a large one
            // (nothing to do when the spare buffer has it).
            let rest = self.bytes.len().saturating_sub(content_start);
            self.decoded.reserve(rest.min(FIRST_DECODED));
            self.ends.reserve(8);
        }
        // The decoded text is never longer than the input it comes from:
        // a small document's first reservation (the rest of the input) is
        // never outgrown, so no room is asked for beyond the text.
        let buf = &mut self.decoded;
        buf.reserve(self.pos - content_start);
        buf.push_str(self.src.get(content_start..self.pos).unwrap_or_default());
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
                    if !self.decoded.get(first..).is_some_and(str::is_ascii) {
                        self.high = HIGHS;
                    }
                    // The decoded text is at most as long as the input
                    // (an escape is never shorter than its character), so
                    // its offsets fit a `u32` as the input's do.
                    self.ends.push(index(self.decoded.len()));
                    return Ok(JsonStr(index(self.ends.len())));
                }
                b'\\' => {
                    let esc_start = self.pos;
                    self.pos += 1;
                    let Some(e) = self.bytes.get(self.pos).copied() else {
                        continue;
                    };
                    self.pos += 1;
                    let c = match e {
                        b'"' => '"',
                        b'\\' => '\\',
                        b'/' => '/',
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'n' => '\n',
                        b'r' => '\r',
                        b't' => '\t',
                        b'u' => self.unicode_escape(esc_start)?,
                        _ => {
                            return Err(self.err(
                                "Invalid JSON string: invalid escape sequence",
                                Span::new(esc_start, self.pos),
                            ))
                        }
                    };
                    self.decoded.push(c);
                }
                0..=0x1f => {
                    return Err(self.err(
                        "Invalid JSON string: control characters (tabs, newlines) must be escaped in strings",
                        Span::new(self.pos, self.pos + 1),
                    ))
                }
                _ => {
                    // A run of plain text (whole characters: it ends
                    // before an ASCII byte).
                    let from = self.pos;
                    self.pos += self.bytes.get(from..).map_or(0, |b| plain_run(b).0);
                    self.decoded
                        .push_str(self.src.get(from..self.pos).unwrap_or_default());
                }
            }
        }
    }

    /// The character of a `\uXXXX` escape (and its pair, for a surrogate);
    /// a lone surrogate becomes U+FFFD, as in the reference.
    fn unicode_escape(&mut self, esc_start: usize) -> Result<char> {
        let hi = self.hex4(esc_start)?;
        if (0xD800..0xDC00).contains(&hi)
            && self.bytes.get(self.pos) == Some(&b'\\')
            && self.bytes.get(self.pos + 1) == Some(&b'u')
        {
            let save = self.pos;
            self.pos += 2;
            let lo = self.hex4(esc_start)?;
            if (0xDC00..0xE000).contains(&lo) {
                let c = 0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00);
                return Ok(char::from_u32(c).unwrap_or('\u{FFFD}'));
            }
            self.pos = save;
        }
        Ok(char::from_u32(hi).unwrap_or('\u{FFFD}'))
    }

    fn hex4(&mut self, esc_start: usize) -> Result<u32> {
        let digits = self.bytes.get(self.pos..self.pos + 4);
        let value = digits.and_then(|d| {
            d.iter().try_fold(0u32, |acc, &b| {
                char::from(b).to_digit(16).map(|v| acc * 16 + v)
            })
        });
        match value {
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

    fn enter(&mut self) -> Result<()> {
        self.depth += 1;
        if self.depth > self.max_depth {
            return Err(self.err_here(format!(
                "nesting too deep: JSON arrays and objects may nest at most {} levels deep",
                self.max_depth
            )));
        }
        Ok(())
    }

    fn array(&mut self) -> Result<JsonValue> {
        let start = self.pos;
        self.enter()?;
        self.pos += 1;
        let d = self.depth;
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
                if let Some(items) = self.items.at(d) {
                    items.push(item);
                }
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
        let at = self.values.len();
        self.items.close(d, &mut self.values);
        let array = JsonArray {
            start: index(at),
            len: index(self.values.len() - at),
        };
        Ok(JsonValue {
            kind: JsonKind::Array(array),
            span: Span::at(start, self.pos),
        })
    }

    fn object(&mut self) -> Result<JsonValue> {
        let start = self.pos;
        self.enter()?;
        self.pos += 1;
        let d = self.depth;
        self.skip_ws();
        if self.peek() == Some(b'}') {
            self.pos += 1;
        } else {
            let mut comma = start;
            loop {
                self.skip_ws();
                let name_start = self.pos;
                let name = match self.peek() {
                    Some(b'"') => self.string()?,
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
                if let Some(props) = self.props.at(d) {
                    props.push(JsonProperty {
                        name,
                        name_span,
                        value,
                    });
                }
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
        let at = self.properties.len();
        self.props.close(d, &mut self.properties);
        let object = JsonObject {
            start: index(at),
            len: index(self.properties.len() - at),
        };
        Ok(JsonValue {
            kind: JsonKind::Object(object),
            span: Span::at(start, self.pos),
        })
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

/// An arena index: there are fewer values than input bytes, and the
/// input is at most [`Span::MAX_OFFSET`] bytes long (checked first).
fn index(i: usize) -> u32 {
    u32::try_from(i).unwrap_or(u32::MAX)
}

/// The room for decoded text reserved at the first string with escapes
/// (more is added as needed).
const FIRST_DECODED: usize = 4096;

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

/// The character at `pos` for a message.
fn show_byte(src: &str, pos: usize, b: u8) -> String {
    match src.get(pos..).and_then(|s| s.chars().next()) {
        Some('\u{FEFF}') => "a byte order mark".to_owned(),
        Some('\u{FFFD}') => "invalid UTF-8".to_owned(),
        Some(c) => format!("{c:?}"),
        None => format!("byte 0x{b:02x}"),
    }
}

/// RFC 8259's number: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
fn valid_number(b: &[u8]) -> bool {
    let mut i = 0;
    let digits = |i: &mut usize| {
        let s = *i;
        while b.get(*i).is_some_and(u8::is_ascii_digit) {
            *i += 1;
        }
        *i > s
    };
    if b.get(i) == Some(&b'-') {
        i += 1;
    }
    match b.get(i) {
        Some(b'0') => i += 1,
        Some(b'1'..=b'9') => {
            digits(&mut i);
        }
        _ => return false,
    }
    if b.get(i) == Some(&b'.') {
        i += 1;
        if !digits(&mut i) {
            return false;
        }
    }
    if let Some(b'e' | b'E') = b.get(i) {
        i += 1;
        if let Some(b'+' | b'-') = b.get(i) {
            i += 1;
        }
        if !digits(&mut i) {
            return false;
        }
    }
    i == b.len()
}

#[cfg(test)]
#[path = "parse_tests.rs"]
mod tests;
