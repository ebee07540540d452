//! The structural language's shared checks: identifiers against UAX #31
//! (the grammar reads any non-ASCII character as an identifier's) and
//! attribute names set at most once per body.

use crate::ast::{Attribute, Structure};
use crate::parser::Ctx;
use crate::span::Span;
use crate::Result;
use std::collections::HashSet;

/// "Attribute redefined": each attribute name at most once per body.
pub(in crate::parser) fn check_duplicates(
    ctx: &Ctx<'_, '_>,
    items: &[Structure<'_>],
) -> Result<()> {
    let attrs = || {
        items.iter().filter_map(|s| match s {
            Structure::Attribute(a) => Some(a),
            Structure::Block(_) => None,
        })
    };
    let n = attrs().count();
    if n < 2 {
        return Ok(());
    }
    let redefined = |a: &Attribute<'_>, first: &Attribute<'_>| {
        let pos = first.name.span.start_pos(ctx.text);
        ctx.err(
            format!(
                "attribute `{}` redefined: it was already set at line {}, column {}; each attribute may be set only once",
                a.name.name, pos.line, pos.column
            ),
            a.name.span,
        )
    };
    if n <= 16 {
        for (i, a) in attrs().enumerate() {
            if let Some(first) = attrs().take(i).find(|b| b.name.name == a.name.name) {
                return Err(redefined(a, first));
            }
        }
    } else {
        let mut seen = HashSet::with_capacity(n);
        for a in attrs() {
            if !seen.insert(a.name.name) {
                if let Some(first) = attrs().find(|b| b.name.name == a.name.name) {
                    return Err(redefined(a, first));
                }
            }
        }
    }
    Ok(())
}

/// Identifier = ID_Start (ID_Continue | '-')*; the grammar accepts any
/// non-ASCII character, so they are checked here.
pub(in crate::parser) fn check_ident(ctx: &Ctx<'_, '_>, name: &str, span: Span) -> Result<()> {
    if name.is_ascii() {
        return Ok(());
    }
    for (i, c) in name.char_indices() {
        let ok = if i == 0 {
            crate::ident::is_id_start(c)
        } else {
            crate::ident::is_id_continue(c)
        };
        if !ok {
            let at = span.start() + i;
            return Err(ctx.err(
                format!(
                    "invalid character {:?} (U+{:04X}): this character is not used within the language",
                    c, c as u32
                ),
                Span::at(at, at + c.len_utf8()),
            ));
        }
    }
    Ok(())
}
