//! Expressions of a document: parsing expression text, spelling values and
//! references as `hclwrite` does, and renaming references.

use super::text::Text;
use super::tree::{check_identifier, Expression};
use crate::ast::{Expr, ExprKind, Ident, ObjectKey, Template, TemplatePart};
use crate::{Error, ParseOptions, Result, Span};
use std::fmt::Write;

/// The prefix put before an expression's text to parse it as an attribute,
/// as `hclwrite`'s callers do (`x = EXPR` and a newline).
const WRAP: &str = "x = ";

impl Expression {
    pub(crate) fn from_text(text: impl Into<Text>) -> Expression {
        Expression { text: text.into() }
    }

    /// Parses expression source: the expression `name = text` gives an
    /// attribute (a comment after it is not part of it).
    ///
    /// ```
    /// use hcl_grammar::edit::Expression;
    /// assert_eq!(Expression::parse("a + 1").unwrap().as_str(), "a + 1");
    /// assert!(Expression::parse("a +").is_err());
    /// ```
    ///
    /// # Errors
    ///
    /// A syntax error, positioned in `text`.
    pub fn parse(text: &str) -> Result<Expression> {
        Self::parse_with(text, &ParseOptions::default())
    }

    /// [`Expression::parse`] with the parser's limits.
    ///
    /// # Errors
    ///
    /// A syntax error, positioned in `text`, or a limit passed.
    pub fn parse_with(text: &str, options: &ParseOptions) -> Result<Expression> {
        let wrapped = wrap(text);
        let body = crate::parse_body(&wrapped, options).map_err(|e| unwrap_error(&e, text))?;
        let span = match body.attribute("x") {
            Some(a) => a.expr.span,
            None => return Err(Error::new("not one expression", Span::new(0, 0), text)),
        };
        let inner = wrapped
            .get(span.start()..span.end())
            .unwrap_or_default()
            .to_owned();
        Ok(Expression { text: inner.into() })
    }

    /// A reference such as `var.a.b[0]` or `local.m["key"]`, spelled as
    /// `hclwrite`'s `TokensForTraversal` spells it.
    ///
    /// ```
    /// use hcl_grammar::edit::Expression;
    /// assert_eq!(Expression::traversal("var.a[0][\"k\"]").unwrap().as_str(), "var.a[0][\"k\"]");
    /// assert!(Expression::traversal("var.a + 1").is_err());
    /// ```
    ///
    /// # Errors
    ///
    /// When `text` is not a variable followed by `.name`, `[number]` and
    /// `["string"]` steps (the legacy `.0` is refused, as the reference
    /// refuses it).
    pub fn traversal(text: &str) -> Result<Expression> {
        let expr = crate::parse_expr(text, &Default::default())?;
        let mut steps = Vec::new();
        let mut cur = &expr;
        loop {
            match &cur.kind {
                ExprKind::GetAttr(g) => {
                    steps.push(format!(".{}", g.name.name));
                    cur = &g.object;
                }
                ExprKind::Index(ix) if !ix.legacy => {
                    let key = match &ix.key.kind {
                        ExprKind::Number(n) => normalize_number(n),
                        ExprKind::String(s) => quote(s),
                        _ => return Err(not_traversal(text, ix.key.span)),
                    };
                    steps.push(format!("[{key}]"));
                    cur = &ix.collection;
                }
                ExprKind::Variable(root) => {
                    let mut out = root.name.to_owned();
                    for s in steps.iter().rev() {
                        out.push_str(s);
                    }
                    return Ok(Expression { text: out.into() });
                }
                _ => return Err(not_traversal(text, cur.span)),
            }
        }
    }

    /// `null`.
    pub fn null() -> Expression {
        Expression::from_text("null".to_owned())
    }

    /// `true` or `false`.
    pub fn bool(b: bool) -> Expression {
        Expression::from_text(if b { "true" } else { "false" }.to_owned())
    }

    /// A number, written as given (`-1.5`, `100`): an optional `-`, then a
    /// number literal.
    ///
    /// # Errors
    ///
    /// When `text` is not a number.
    pub fn number(text: &str) -> Result<Expression> {
        let digits = text.strip_prefix('-').unwrap_or(text);
        match crate::parse_expr(digits, &Default::default()) {
            Ok(Expr {
                kind: ExprKind::Number(n),
                ..
            }) if n == digits => Ok(Expression::from_text(text.to_owned())),
            _ => Err(Error::new("not a number", Span::new(0, text.len()), text)),
        }
    }

    /// A quoted string, escaped as `hclwrite` escapes one: `\n`, `\r`,
    /// `\t`, `\"`, `\\`, `$${` and `%%{`, and `\uXXXX` for characters that
    /// are not printable.
    ///
    /// ```
    /// use hcl_grammar::edit::Expression;
    /// assert_eq!(Expression::string("a\"${b}").as_str(), r#""a\"$${b}""#);
    /// ```
    pub fn string(s: &str) -> Expression {
        Expression::from_text(quote(s))
    }

    /// A tuple, `[a, b]`.
    pub fn tuple(items: impl IntoIterator<Item = Expression>) -> Expression {
        let mut out = String::from("[");
        for (i, e) in items.into_iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            out.push_str(&e.text);
        }
        out.push(']');
        Expression::from_text(out)
    }

    /// An object, one `key = value` per line, in the order given (keys
    /// bare when they are identifiers, quoted otherwise), as `hclwrite`
    /// writes one; `{}` when empty.
    ///
    /// ```
    /// use hcl_grammar::edit::Expression;
    /// let o = Expression::object([("a".to_owned(), Expression::bool(true)), ("b c".to_owned(), Expression::null())]);
    /// assert_eq!(o.as_str(), "{\na = true\n\"b c\" = null\n}");
    /// ```
    pub fn object(items: impl IntoIterator<Item = (String, Expression)>) -> Expression {
        let mut out = String::from("{");
        let mut any = false;
        for (k, v) in items {
            if !any {
                out.push('\n');
                any = true;
            }
            if crate::is_identifier(&k) {
                out.push_str(&k);
            } else {
                out.push_str(&quote(&k));
            }
            out.push_str(" = ");
            out.push_str(&v.text);
            out.push('\n');
        }
        out.push('}');
        Expression::from_text(out)
    }

    /// The expression's source text.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// In every reference of the expression that starts with the names
    /// `from` (`["var", "a"]` matches `var.a` and `var.a.b[0]`), puts the
    /// names `to` instead (`hclwrite`'s `RenameVariablePrefix`). Names
    /// bound by a `for` are not references. Returns how many references
    /// changed; nothing changes when `from` and `to` differ in length or
    /// a name of `to` is not an identifier.
    ///
    /// ```
    /// use hcl_grammar::edit::Expression;
    /// let mut e = Expression::parse("var.a.b + var.ab + [for var in x : var.a]").unwrap();
    /// assert_eq!(e.rename_variable_prefix(&["var", "a"], &["local", "c"]), 1);
    /// assert_eq!(e.as_str(), "local.c.b + var.ab + [for var in x : var.a]");
    /// ```
    pub fn rename_variable_prefix(&mut self, from: &[&str], to: &[&str]) -> usize {
        if from.len() != to.len() || from.is_empty() {
            return 0;
        }
        if to.iter().any(|n| check_identifier(n, "name").is_err()) {
            return 0;
        }
        let wrapped = wrap(&self.text);
        let Ok(body) = crate::parse_body(&wrapped, &Default::default()) else {
            return 0;
        };
        let Some(attr) = body.attribute("x") else {
            return 0;
        };
        let mut refs = Vec::new();
        let mut scopes = Vec::new();
        references(&attr.expr, &mut scopes, &mut refs);
        let mut edits: Vec<(Span, &str)> = Vec::new();
        let mut count = 0;
        for names in refs {
            if names.len() >= from.len() && names.iter().zip(from).all(|(n, f)| n.name == *f) {
                count += 1;
                edits.extend(names.iter().zip(to).map(|(n, t)| (n.span, *t)));
            }
        }
        edits.sort_by_key(|(s, _)| s.start());
        let mut out = String::with_capacity(self.text.len());
        let mut at = WRAP.len();
        for (span, name) in edits {
            out.push_str(wrapped.get(at..span.start()).unwrap_or_default());
            out.push_str(name);
            at = span.end();
        }
        let end = WRAP.len() + self.text.len();
        out.push_str(wrapped.get(at..end).unwrap_or_default());
        self.text = out.into();
        count
    }
}

/// `expr` laid out for the unformatted print of a body at `depth`: a
/// multi-line expression formatted and indented to its place (only
/// whitespace changes, so the formatted print is the same). Heredocs are
/// left as they are (their lines are their value).
pub(crate) fn laid_out(expr: Expression, depth: usize) -> Expression {
    if !expr.text.contains('\n') || expr.text.contains("<<") {
        return expr;
    }
    let options = crate::FormatOptions::default().with_check_syntax(false);
    let Ok(formatted) = crate::format(&wrap(&expr.text), &options) else {
        return expr;
    };
    let Some(inner) = formatted
        .strip_prefix(WRAP)
        .and_then(|f| f.strip_suffix('\n'))
    else {
        return expr;
    };
    let pad = "  ".repeat(depth);
    let mut text = String::with_capacity(inner.len() + 16);
    for (i, line) in inner.split('\n').enumerate() {
        if i > 0 {
            text.push('\n');
            if !line.is_empty() {
                text.push_str(&pad);
            }
        }
        text.push_str(line);
    }
    Expression { text: text.into() }
}

impl std::fmt::Display for Expression {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text)
    }
}

fn wrap(text: &str) -> String {
    let mut s = String::with_capacity(text.len() + WRAP.len() + 1);
    s.push_str(WRAP);
    s.push_str(text);
    s.push('\n');
    s
}

/// An error of the wrapped text, positioned in `text`.
fn unwrap_error(e: &Error, text: &str) -> Error {
    let shift = |b: usize| b.saturating_sub(WRAP.len()).min(text.len());
    let span = e.span();
    Error::new(
        e.message().to_owned(),
        Span::new(shift(span.start()), shift(span.end())),
        text,
    )
}

fn not_traversal(text: &str, span: Span) -> Error {
    Error::new(
        "not a reference: a variable, then `.name`, `[number]` or `[\"string\"]` steps",
        span,
        text,
    )
}

/// The names at the start of every reference in `e` (a variable, then
/// its `.name` steps up to the first index), as the reference's
/// `Variables` finds them: not those whose root a `for` binds.
fn references<'e, 'i>(
    e: &'e Expr<'i>,
    scopes: &mut Vec<&'i str>,
    out: &mut Vec<Vec<&'e Ident<'i>>>,
) {
    match &e.kind {
        ExprKind::Variable(_) | ExprKind::GetAttr(_) | ExprKind::Index(_) => {
            let mut steps = Vec::new();
            let mut cur = e;
            loop {
                match &cur.kind {
                    ExprKind::GetAttr(g) => {
                        steps.push(Some(&g.name));
                        cur = &g.object;
                    }
                    ExprKind::Index(ix) => {
                        references(&ix.key, scopes, out);
                        steps.push(None);
                        cur = &ix.collection;
                    }
                    _ => break,
                }
            }
            match &cur.kind {
                ExprKind::Variable(root) => {
                    if !scopes.contains(&root.name) {
                        let mut names = vec![root];
                        names.extend(steps.iter().rev().map_while(|s| *s));
                        out.push(names);
                    }
                }
                _ => references(cur, scopes, out),
            }
        }
        ExprKind::Null
        | ExprKind::Bool(_)
        | ExprKind::Number(_)
        | ExprKind::String(_)
        | ExprKind::SplatItem => {}
        ExprKind::Template(t) => template_references(&t.template, scopes, out),
        ExprKind::Tuple(items) => {
            for i in items {
                references(i, scopes, out);
            }
        }
        ExprKind::Object(items) => {
            for i in items {
                if let ObjectKey::Expr(k) = &i.key {
                    references(k, scopes, out);
                }
                references(&i.value, scopes, out);
            }
        }
        ExprKind::Call(c) => {
            for a in &c.args {
                references(a, scopes, out);
            }
        }
        ExprKind::For(f) => {
            references(&f.collection, scopes, out);
            let n = scopes.len();
            scopes.extend(f.key_var.iter().map(|k| k.name));
            scopes.push(f.value_var.name);
            if let Some(k) = &f.key_expr {
                references(k, scopes, out);
            }
            references(&f.value_expr, scopes, out);
            if let Some(c) = &f.cond {
                references(c, scopes, out);
            }
            scopes.truncate(n);
        }
        ExprKind::Splat(s) => {
            references(&s.source, scopes, out);
            references(&s.each, scopes, out);
        }
        ExprKind::Unary(u) => references(&u.operand, scopes, out),
        ExprKind::Binary(b) => {
            references(&b.lhs, scopes, out);
            references(&b.rhs, scopes, out);
        }
        ExprKind::Conditional(c) => {
            references(&c.cond, scopes, out);
            references(&c.then_expr, scopes, out);
            references(&c.else_expr, scopes, out);
        }
        ExprKind::Parens(inner) => references(inner, scopes, out),
    }
}

fn template_references<'e, 'i>(
    t: &'e Template<'i>,
    scopes: &mut Vec<&'i str>,
    out: &mut Vec<Vec<&'e Ident<'i>>>,
) {
    for part in &t.parts {
        match part {
            TemplatePart::Literal(_) => {}
            TemplatePart::Interpolation(i) => references(&i.expr, scopes, out),
            TemplatePart::If(i) => {
                references(&i.cond, scopes, out);
                template_references(&i.then_template, scopes, out);
                if let Some(e) = &i.else_template {
                    template_references(e, scopes, out);
                }
            }
            TemplatePart::For(f) => {
                references(&f.collection, scopes, out);
                let n = scopes.len();
                scopes.extend(f.key_var.iter().map(|k| k.name));
                scopes.push(f.value_var.name);
                template_references(&f.body, scopes, out);
                scopes.truncate(n);
            }
        }
    }
}

/// `s` as a quoted string, escaped as `hclwrite` escapes one.
pub(crate) fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '$' | '%' => {
                out.push(c);
                if chars.peek() == Some(&'{') {
                    out.push(c);
                }
            }
            c if !is_print(c) => {
                let _ = if (c as u32) < 0x10000 {
                    write!(out, "\\u{:04x}", c as u32)
                } else {
                    write!(out, "\\U{:08x}", c as u32)
                };
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Go's `unicode.IsPrint` without its tables: letters, marks, numbers,
/// punctuation, symbols and the ASCII space. Controls, separators other
/// than the space, format characters and private-use characters are not
/// printable; unassigned code points (which Go also counts as not
/// printable) are taken as printable here.
fn is_print(c: char) -> bool {
    if c == ' ' {
        return true;
    }
    if c.is_control() || c.is_whitespace() {
        return false;
    }
    !matches!(c as u32,
        0xAD | 0x600..=0x605 | 0x61C | 0x6DD | 0x70F | 0x890..=0x891 | 0x8E2 | 0x180E
        | 0x200B..=0x200F | 0x202A..=0x202E | 0x2060..=0x2064 | 0x2066..=0x206F
        | 0xFEFF | 0xFFF9..=0xFFFB | 0x110BD | 0x110CD | 0x13430..=0x1343F
        | 0x1BCA0..=0x1BCA3 | 0x1D173..=0x1D17A | 0xE0001 | 0xE0020..=0xE007F
        | 0xE000..=0xF8FF | 0xF0000..=0x10FFFF)
}

/// A number literal as the reference writes a parsed number (Go's
/// `big.Float.Text('f', -1)`): plain decimal notation, no exponent, no
/// leading or trailing zeros. Literals with exponents beyond ±4096 stay as
/// written (their plain text would be huge).
pub(crate) fn normalize_number(text: &str) -> String {
    let (mantissa, exp) = match text.find(['e', 'E']) {
        Some(i) => (
            text.get(..i).unwrap_or_default(),
            text.get(i + 1..).unwrap_or_default(),
        ),
        None => (text, "0"),
    };
    let Ok(exp) = exp.trim_start_matches('+').parse::<i64>() else {
        return text.to_owned();
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let mut digits: String = int.chars().chain(frac.chars()).collect();
    if !digits.bytes().all(|b| b.is_ascii_digit()) || exp.abs() > 4096 {
        return text.to_owned();
    }
    let Ok(frac_len) = i64::try_from(frac.len()) else {
        return text.to_owned();
    };
    let mut exp10 = exp - frac_len;
    let trimmed = digits.trim_start_matches('0').len();
    digits.drain(..digits.len() - trimmed);
    if digits.is_empty() {
        return "0".to_owned();
    }
    while digits.ends_with('0') {
        digits.pop();
        exp10 += 1;
    }
    if exp10 >= 0 {
        let zeros = usize::try_from(exp10).unwrap_or(0);
        digits + &"0".repeat(zeros)
    } else {
        let point = usize::try_from(-exp10).unwrap_or(0);
        if digits.len() > point {
            let (a, b) = digits.split_at(digits.len() - point);
            format!("{a}.{b}")
        } else {
            format!("0.{}{digits}", "0".repeat(point - digits.len()))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_as_the_reference_writes_them() {
        for (text, want) in [
            ("1", "1"),
            ("007", "7"),
            ("1.50", "1.5"),
            ("1e2", "100"),
            ("1.5e-3", "0.0015"),
            ("0.000", "0"),
            ("12.5E+1", "125"),
        ] {
            assert_eq!(normalize_number(text), want, "{text}");
        }
    }

    #[test]
    fn strings_as_the_reference_escapes_them() {
        assert_eq!(quote("a\u{a0}b\u{1}"), "\"a\\u00a0b\\u0001\"");
        assert_eq!(quote("%{ x }$x"), "\"%%{ x }$x\"");
        assert_eq!(quote("ünï 😀"), "\"ünï 😀\"");
    }
}
