//! The fast path against the pest route on any input: the first byte picks
//! the mode (body, expression, template), whether the input is placed
//! inside a larger text and parsed with `ParseOptions::with_span` (as the
//! JSON syntax reads its strings), and a small `max_depth` now and then;
//! the rest, as UTF-8, is parsed both ways. When the fast path
//! builds a tree, pest must accept the input and build the same tree; when
//! pest rejects the input, the fast path must give up (`None`).
#![no_main]

use hcl_grammar::__private::{
    parse_body_fast, parse_body_pest, parse_expr_fast, parse_expr_pest, parse_template_fast, parse_template_pest,
};
use hcl_grammar::ParseOptions;
use libfuzzer_sys::fuzz_target;

fn compare<T: PartialEq + std::fmt::Debug>(fast: Option<T>, pest: hcl_grammar::Result<T>) {
    match (fast, pest) {
        (Some(f), Ok(p)) => assert!(f == p, "different trees\nfast: {f:#?}\npest: {p:#?}"),
        (Some(f), Err(e)) => panic!("the fast path accepted what pest rejects ({e})\nfast: {f:#?}"),
        (None, _) => {}
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let Ok(src) = std::str::from_utf8(rest) else {
        return;
    };
    let options = match first >> 4 {
        0 => ParseOptions::default().with_max_depth(usize::from(first & 7)),
        _ => ParseOptions::default(),
    };
    // Bit 3: the input between two texts that are not HCL, which the
    // span keeps out of the parse.
    let (text, options) = if first & 8 != 0 {
        let text = format!("[\"{src}\"]");
        let span = hcl_grammar::Span::new(2, 2 + src.len());
        (text, options.with_span(span))
    } else {
        (src.to_owned(), options)
    };
    let src = text.as_str();
    match first % 3 {
        0 => compare(
            parse_body_fast(src, &options),
            parse_body_pest(src, &options),
        ),
        1 => compare(
            parse_expr_fast(src, &options),
            parse_expr_pest(src, &options),
        ),
        _ => compare(
            parse_template_fast(src, &options),
            parse_template_pest(src, &options),
        ),
    }
});
