//! pest's errors in words: what was expected and what was found, never a
//! rule name.

use super::Rule;
use crate::error::Error;
use crate::span::Span;
use pest::error::{ErrorVariant, InputLocation};

/// Converts a pest error into an [`Error`] at the same position.
#[cold]
pub(super) fn from_pest(e: pest::error::Error<Rule>, entry: Rule, text: &str) -> Error {
    let pos = match e.location {
        InputLocation::Pos(p) => p,
        InputLocation::Span((s, _)) => s,
    };
    let (positives, negatives) = match &e.variant {
        ErrorVariant::ParsingError {
            positives,
            negatives,
        } => (positives.clone(), negatives.clone()),
        ErrorVariant::CustomError { message } => {
            if message.contains("call limit") {
                return Error::new(
                    "input too complex: the parser gave up (call limit reached)",
                    Span::new(pos, pos),
                    text,
                );
            }
            (Vec::new(), Vec::new())
        }
    };
    let _ = negatives;
    let found = found_at(text, pos);
    let end = pos + found.1;
    let expected = expected_words(&positives, entry);
    let message = match expected {
        Some(exp) => format!("expected {exp}, found {}", found.0),
        None => format!("unexpected {}", found.0),
    };
    Error::new(message, Span::new(pos, end), text)
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
            Rule::EOI => match entry {
                Rule::config_file => "a newline or the end of the input",
                _ => "the end of the input",
            },
            Rule::attribute | Rule::block | Rule::identifier | Rule::body => {
                "an attribute or block definition"
            }
            Rule::expression
            | Rule::expression_nl
            | Rule::name_expr
            | Rule::numeric_lit
            | Rule::quoted_template
            | Rule::heredoc_template
            | Rule::tuple
            | Rule::object
            | Rule::paren_expr
            | Rule::for_tuple_expr
            | Rule::for_object_expr
            | Rule::unary_op => "an expression",
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
            Some(format!("{} or {}", init.join(", "), last))
        }
    }
}
