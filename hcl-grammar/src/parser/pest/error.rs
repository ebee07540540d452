//! pest's errors in words: what was expected and what was found, never a
//! rule name.

use super::Rule;
use crate::error::Error;
use crate::parser::prescan::{self, Open};
use crate::scan;
use crate::span::Span;
use pest::error::{ErrorVariant, InputLocation};

/// Converts a pest error into an [`Error`] at the same position.
#[cold]
pub(super) fn from_pest(e: pest::error::Error<Rule>, entry: Rule, text: &str) -> Error {
    let pos = match e.location {
        InputLocation::Pos(p) => p,
        InputLocation::Span((s, _)) => s,
    };
    let positives = match e.variant {
        ErrorVariant::ParsingError { positives, .. } => positives,
        ErrorVariant::CustomError { message } => {
            // Only when another part of the program set pest's
            // process-wide call limit (this crate never does).
            if message.contains("call limit") {
                return Error::new(
                    "input too complex: the parser gave up (pest's call limit, set elsewhere in this program, was reached)",
                    Span::at(pos, pos),
                    text,
                );
            }
            // pest 2.9's own stack guard (the depth pre-scan stops
            // ordinary input first).
            if message.contains("stack limit") {
                return Error::new(
                    "nesting too deep: the parser ran out of stack",
                    Span::at(pos, pos),
                    text,
                );
            }
            Vec::new()
        }
    };
    let mut pos = pos.min(text.len());
    let open = prescan::open_at(entry, text, pos);
    let innermost = open.last().copied();

    // Where newlines are ignored, point at the next token, as the
    // reference does.
    let newlines_ignored = !matches!(innermost, Some(Open::Quote(_)))
        && (entry == Rule::expr_file
            || matches!(
                innermost,
                Some(Open::Bracket(b'(' | b'[', _) | Open::Sequence(_))
            ));
    if newlines_ignored {
        pos = skip_trivia(text, pos);
    }
    let found = found_at(text, pos);

    if let Some(Open::Quote(_)) = innermost {
        if text
            .get(pos..)
            .is_some_and(|r| r.starts_with('\n') || r.starts_with("\r\n"))
        {
            return Error::new(
                "unterminated string: a quoted string cannot span lines (use `\\n`, or a heredoc for multi-line text)",
                Span::at(pos, pos + found.1),
                text,
            );
        }
    }
    if pos >= text.len() {
        match innermost {
            Some(Open::Bracket(b'{', at)) if is_block_brace(text, at) => {
                return Error::new(
                    "unclosed block: this `{` has no matching `}`",
                    Span::at(at, at + 1),
                    text,
                );
            }
            Some(Open::Bracket(b'(', at)) if is_call_paren(text, at) => {
                let name_start = call_name_start(text, at);
                return Error::new(
                    "unclosed function call: this `(` has no matching `)`",
                    Span::at(name_start, at + 1),
                    text,
                );
            }
            Some(Open::Bracket(b'[', at)) if !is_call_paren(text, at) => {
                return Error::new(
                    "unclosed tuple: this `[` has no matching `]`",
                    Span::at(at, at + 1),
                    text,
                );
            }
            Some(Open::Bracket(b'{', at)) => {
                let line = Span::at(at, at).start_pos(text).line;
                return Error::new(
                    format!("unclosed object: expected `}}` to close the `{{` at line {line}"),
                    Span::at(pos, pos),
                    text,
                );
            }
            Some(Open::Sequence(at)) => {
                let what = if text.get(at..).is_some_and(|r| r.starts_with('%')) {
                    "`%{`"
                } else {
                    "`${`"
                };
                return Error::new(
                    format!("unclosed template sequence: this {what} has no matching `}}`"),
                    Span::at(at, at + 2),
                    text,
                );
            }
            Some(Open::Heredoc(_)) => {
                return Error::new(
                    "unclosed heredoc: no line holds only its closing marker (followed by a newline)",
                    Span::at(pos, pos),
                    text,
                );
            }
            _ => {}
        }
    }

    let end = pos + found.1;
    let rest = text.get(pos..).unwrap_or_default();
    if rest.starts_with("...")
        || (rest.starts_with('.')
            && text
                .get(pos.saturating_sub(1)..)
                .is_some_and(|r| r.starts_with("...")))
    {
        return Error::new(
            "unexpected `...`: it may only follow the last argument of a function call, or the value of an object `for` expression",
            Span::at(pos, end),
            text,
        );
    }
    if rest.starts_with("<<") {
        return Error::new(
            "invalid heredoc: `<<` or `<<-` must be followed by a marker name and then directly by a newline",
            Span::at(pos, pos + 2),
            text,
        );
    }
    let expected = expected_words(&positives, entry);
    if rest.starts_with(|c: char| c.is_ascii_digit())
        && expected
            .as_deref()
            .is_some_and(|w| w.contains("an expression"))
    {
        return Error::new(
            format!("invalid number literal {}", found.0),
            Span::at(pos, end),
            text,
        );
    }
    if positives.contains(&Rule::block_close) && !positives.contains(&Rule::expected_item) {
        return Error::new(
            format!("expected `}}`, found {}: a block opened and given an attribute on one line holds only that attribute and must close on the same line", found.0),
            Span::at(pos, end),
            text,
        );
    }
    if positives.contains(&Rule::block_open) {
        return Error::new(
            format!("expected `=` (to set an attribute) or `{{` (to open a block, after any labels), found {}", found.0),
            Span::at(pos, end),
            text,
        );
    }
    if positives.contains(&Rule::expected_item) {
        return Error::new(
            format!(
                "expected an attribute or block definition, found {}",
                found.0
            ),
            Span::at(pos, end),
            text,
        );
    }
    let message = match expected {
        Some(exp) => format!("expected {exp}, found {}", found.0),
        None => format!("unexpected {}", found.0),
    };
    Error::new(message, Span::at(pos, end), text)
}

/// Skips spaces, newlines and comments.
fn skip_trivia(text: &str, mut pos: usize) -> usize {
    let b = text.as_bytes();
    loop {
        match b.get(pos) {
            Some(b' ' | b'\t' | b'\n' | b'\r') => pos += 1,
            _ => match scan::comment_end(b, pos) {
                Some(end) => pos = end,
                None => return pos,
            },
        }
    }
}

/// The last significant byte before `at`.
fn prev_significant(text: &str, at: usize) -> Option<u8> {
    text.get(..at)?
        .bytes()
        .rev()
        .find(|c| !matches!(c, b' ' | b'\t'))
}

/// Whether the `{` at `at` opens a block body (not an object).
fn is_block_brace(text: &str, at: usize) -> bool {
    !matches!(
        prev_significant(text, at),
        None | Some(b'=' | b'(' | b'[' | b',' | b':' | b'?' | b'{' | b'\n')
    )
}

/// Whether the `(` at `at` opens a call's arguments.
fn is_call_paren(text: &str, at: usize) -> bool {
    prev_significant(text, at).is_some_and(scan::is_ident_byte)
}

/// The start of the function name before the `(` at `at`.
fn call_name_start(text: &str, at: usize) -> usize {
    let b = text.as_bytes();
    let mut i = at;
    while i > 0 && matches!(b.get(i - 1), Some(b' ' | b'\t')) {
        i -= 1;
    }
    while i > 0
        && b.get(i - 1).is_some_and(|&c| {
            c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b':') || c >= 0x80
        })
    {
        i -= 1;
    }
    i
}

/// A description of what is at `pos`, and its length in bytes.
fn found_at(text: &str, pos: usize) -> (String, usize) {
    let rest = text.get(pos..).unwrap_or_default();
    let Some(c) = rest.chars().next() else {
        return ("the end of the input".to_owned(), 0);
    };
    match c {
        '\n' => ("a newline".to_owned(), 1),
        '\r' if rest.starts_with("\r\n") => ("a newline".to_owned(), 2),
        '\r' => (
            "a carriage return that is not part of a newline".to_owned(),
            1,
        ),
        '\\' if rest.get(1..).is_some_and(|r| r.starts_with(['\r', '\n'])) => (
            "`\\` before a line break: a quoted string cannot continue on the next line".to_owned(),
            1,
        ),
        '"' => ("a quoted string".to_owned(), 1),
        '\'' => ("`'`: strings are quoted with double quotes".to_owned(), 1),
        ';' => ("`;`: HCL separates arguments with newlines".to_owned(), 1),
        c if c.is_alphabetic() || c == '_' => {
            let word: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '-')
                .collect();
            let n = word.len();
            (format!("`{word}`"), n)
        }
        c if c.is_ascii_digit() => {
            let word: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '.')
                .collect();
            let n = word.len();
            (format!("`{word}`"), n)
        }
        c if c.is_whitespace() => (format!("the character U+{:04X}", c as u32), c.len_utf8()),
        c => (format!("`{c}`"), c.len_utf8()),
    }
}

/// Words for the rules pest expected.
fn expected_words(positives: &[Rule], entry: Rule) -> Option<String> {
    let mut words: Vec<&str> = Vec::new();
    for r in positives {
        let w = match r {
            Rule::EOI | Rule::expected_newline => match entry {
                Rule::config_file => "a newline",
                _ => "the end of the input",
            },
            Rule::for_intro if positives.len() > 1 => continue,
            Rule::attribute | Rule::block | Rule::body => "an attribute or block definition",
            Rule::identifier | Rule::function_name | Rule::expected_name => "a name",
            Rule::expected_paren_close => "`)`",
            Rule::expected_expression => "an expression",
            Rule::expected_quote_close => "the closing `\"` of the string",
            Rule::expected_args_close => "`,` or `)`",
            Rule::expected_tuple_close => "`,` or `]`",
            Rule::expected_object_close => "a newline, `,` or `}`",
            Rule::expected_object_equals => "`=` or `:`",
            Rule::expected_bracket_close => "`]`",
            Rule::expected_brace_close => "`}`",
            Rule::expected_fat_arrow => "`=>`",
            Rule::expected_in => "`in`",
            Rule::expected_colon => "`:`",
            Rule::expression
            | Rule::expression_nl
            | Rule::name_expr
            | Rule::name_expr_ws
            | Rule::numeric_lit
            | Rule::quoted_template
            | Rule::heredoc_template
            | Rule::tuple
            | Rule::object
            | Rule::paren_expr
            | Rule::for_tuple_expr
            | Rule::for_object_expr
            | Rule::unary_op => "an expression",
            Rule::binary_op if positives.len() > 1 => continue,
            Rule::binary_op => "an operator",
            Rule::get_attr
            | Rule::legacy_index
            | Rule::attr_splat
            | Rule::full_splat
            | Rule::index => "`.`, `[`",
            Rule::arguments => "`(`",
            Rule::ellipsis => "`...`",
            Rule::block_open => "`{`",
            Rule::block_close => "`}`",
            Rule::block_body => "a block body",
            Rule::object_elem => "an object element `key = value`",
            Rule::for_intro => "`for`",
            Rule::for_cond => "`if`",
            Rule::quoted_literal | Rule::template_interpolation | Rule::template_directive => {
                "the closing `\"` of the string"
            }
            Rule::heredoc_literal | Rule::heredoc_eol => "the heredoc's closing marker",
            Rule::interp_open | Rule::directive_open => "a template sequence",
            Rule::seq_close => "`}`",
            Rule::directive_if
            | Rule::directive_else
            | Rule::directive_endif
            | Rule::directive_for
            | Rule::directive_endfor => {
                "a template directive keyword (`if`, `else`, `endif`, `for`, `endfor`)"
            }
            _ => continue,
        };
        if !words.contains(&w) {
            words.push(w);
        }
    }
    match words.len() {
        0 => None,
        1 => words.first().map(|w| (*w).to_owned()),
        n => {
            let (last, init) = words.split_last()?;
            let _ = n;
            Some(format!("{}, or {}", init.join(", "), last))
        }
    }
}
