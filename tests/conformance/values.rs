//! Value checking (issue #3): a case that parses is evaluated with its
//! variables and compared with the reference's document.
//!
//! - Variables come from `NAME.vars.json` (JSON arrays are tuples, objects
//!   are objects, numbers exact), in a context that supports variables and
//!   functions, as the oracle's (so an unknown name is "there is no
//!   variable named", not "not allowed").
//! - Values compare as the conformance README says: objects as maps,
//!   arrays element-wise, strings exactly, numbers to 25 significant digits
//!   (15 where the reference's magnitude is above 7.9e28 or below 1e-28).
//!   A number on a rounding boundary at that digit is accepted if it agrees
//!   to one digit fewer.
//! - A case that calls a standard function (the oracle's `--funcs stdlib`
//!   table) that our context does not define is *pending*: listed, neither
//!   passed nor failed.

use crate::json::Json;
use hcl::{Context, Map, Number, Value};
use hcl_grammar::{Body, Expr, ExprKind, ObjectKey, Structure, Template, TemplatePart};

/// The functions of the oracle's `--funcs stdlib` table (`hcl-oracle
/// funcs`).
pub const STDLIB: &[&str] = &[
    "abs",
    "can",
    "ceil",
    "chomp",
    "chunklist",
    "coalesce",
    "coalescelist",
    "compact",
    "concat",
    "contains",
    "csvdecode",
    "distinct",
    "element",
    "flatten",
    "floor",
    "format",
    "formatdate",
    "formatlist",
    "indent",
    "join",
    "jsondecode",
    "jsonencode",
    "keys",
    "length",
    "log",
    "lookup",
    "lower",
    "max",
    "merge",
    "min",
    "parseint",
    "pow",
    "range",
    "regex",
    "regexall",
    "replace",
    "reverse",
    "setintersection",
    "setproduct",
    "setsubtract",
    "setsymmetricdifference",
    "setunion",
    "signum",
    "slice",
    "sort",
    "split",
    "strlen",
    "strrev",
    "substr",
    "timeadd",
    "title",
    "tobool",
    "tolist",
    "tomap",
    "tonumber",
    "toset",
    "tostring",
    "trim",
    "trimprefix",
    "trimspace",
    "trimsuffix",
    "try",
    "upper",
    "values",
    "zipmap",
];

/// The evaluation context of a case: its variables, and whatever standard
/// functions the crate provides.
pub fn context(vars: Option<&Json>) -> Result<Context, String> {
    let mut ctx = Context::new();
    add_stdlib(&mut ctx);
    if let Some(vars) = vars {
        let Json::Object(members) = vars else {
            return Err("the vars file is not a JSON object".to_owned());
        };
        for (name, v) in members {
            ctx.declare_var(name.clone(), json_to_value(v)?);
        }
    }
    Ok(ctx)
}

/// Adds the crate's standard functions (issue #4); a case calling one not
/// yet implemented stays pending.
fn add_stdlib(ctx: &mut Context) {
    ctx.add_stdlib();
}

/// A JSON document as a value, numbers exact.
pub fn json_to_value(j: &Json) -> Result<Value, String> {
    Ok(match j {
        Json::Null => Value::Null,
        Json::Bool(b) => Value::Bool(*b),
        Json::Number(text) => Value::Number(
            Number::from_literal(text).ok_or_else(|| format!("number `{text}` out of range"))?,
        ),
        Json::String(s) => Value::String(s.clone()),
        Json::Array(items) => {
            Value::Array(items.iter().map(json_to_value).collect::<Result<_, _>>()?)
        }
        Json::Object(members) => Value::Object(
            members
                .iter()
                .map(|(k, v)| Ok((k.clone(), json_to_value(v)?)))
                .collect::<Result<Map<_, _>, String>>()?,
        ),
    })
}

/// The standard functions a case calls that `ctx` lacks, if any.
pub fn missing_functions(ctx: &Context, names: &[&str]) -> Vec<String> {
    let mut out: Vec<String> = names
        .iter()
        .filter(|n| STDLIB.contains(n) && ctx.func(n).is_none())
        .map(|n| (*n).to_owned())
        .collect();
    out.sort();
    out.dedup();
    out
}

/// Every function name called in a body.
pub fn calls_in_body<'a>(body: &'a Body<'a>, out: &mut Vec<&'a str>) {
    for item in &body.items {
        match item {
            Structure::Attribute(a) => calls_in_expr(&a.expr, out),
            Structure::Block(b) => calls_in_body(&b.body, out),
        }
    }
}

/// Every function name called in a template.
pub fn calls_in_template<'a>(t: &'a Template<'a>, out: &mut Vec<&'a str>) {
    for part in &t.parts {
        match part {
            TemplatePart::Literal(_) => {}
            TemplatePart::Interpolation(i) => calls_in_expr(&i.expr, out),
            TemplatePart::If(d) => {
                calls_in_expr(&d.cond, out);
                calls_in_template(&d.then_template, out);
                if let Some(e) = &d.else_template {
                    calls_in_template(e, out);
                }
            }
            TemplatePart::For(d) => {
                calls_in_expr(&d.collection, out);
                calls_in_template(&d.body, out);
            }
        }
    }
}

/// Every function name called in an expression.
pub fn calls_in_expr<'a>(e: &'a Expr<'a>, out: &mut Vec<&'a str>) {
    match &e.kind {
        ExprKind::Null
        | ExprKind::Bool(_)
        | ExprKind::Number(_)
        | ExprKind::String(_)
        | ExprKind::Variable(_)
        | ExprKind::SplatItem => {}
        ExprKind::Template(t) => calls_in_template(&t.template, out),
        ExprKind::Tuple(items) => items.iter().for_each(|i| calls_in_expr(i, out)),
        ExprKind::Object(items) => {
            for item in items {
                if let ObjectKey::Expr(k) = &item.key {
                    calls_in_expr(k, out);
                }
                calls_in_expr(&item.value, out);
            }
        }
        ExprKind::Call(c) => {
            out.push(c.name.name);
            c.args.iter().for_each(|a| calls_in_expr(a, out));
        }
        ExprKind::For(f) => {
            calls_in_expr(&f.collection, out);
            if let Some(k) = &f.key_expr {
                calls_in_expr(k, out);
            }
            calls_in_expr(&f.value_expr, out);
            if let Some(c) = &f.cond {
                calls_in_expr(c, out);
            }
        }
        ExprKind::Index(ix) => {
            calls_in_expr(&ix.collection, out);
            calls_in_expr(&ix.key, out);
        }
        ExprKind::GetAttr(g) => calls_in_expr(&g.object, out),
        ExprKind::Splat(s) => {
            calls_in_expr(&s.source, out);
            calls_in_expr(&s.each, out);
        }
        ExprKind::Unary(u) => calls_in_expr(&u.operand, out),
        ExprKind::Binary(b) => {
            calls_in_expr(&b.lhs, out);
            calls_in_expr(&b.rhs, out);
        }
        ExprKind::Conditional(c) => {
            calls_in_expr(&c.cond, out);
            calls_in_expr(&c.then_expr, out);
            calls_in_expr(&c.else_expr, out);
        }
        ExprKind::Parens(inner) => calls_in_expr(inner, out),
    }
}

/// A body as the oracle prints it: `{"attributes": {...}, "blocks":
/// [{"type", "labels", "body"}, ...]}`, attributes evaluated in source
/// order (the first error wins).
pub fn body_document(body: &Body<'_>, ctx: &Context) -> Result<Value, hcl::Error> {
    let mut attributes = Map::new();
    let mut blocks = Vec::new();
    for item in &body.items {
        match item {
            Structure::Attribute(a) => {
                attributes.insert(a.name.name.to_owned(), hcl::eval::eval_expr(&a.expr, ctx)?);
            }
            Structure::Block(b) => {
                let mut block = Map::new();
                block.insert("type".to_owned(), Value::from(b.ident.name));
                block.insert(
                    "labels".to_owned(),
                    b.labels.iter().map(|l| l.as_str().to_owned()).collect(),
                );
                block.insert("body".to_owned(), body_document(&b.body, ctx)?);
                blocks.push(Value::Object(block));
            }
        }
    }
    let mut doc = Map::new();
    doc.insert("attributes".to_owned(), Value::Object(attributes));
    doc.insert("blocks".to_owned(), Value::Array(blocks));
    Ok(Value::Object(doc))
}

/// Compares our value with the reference's, saying where they differ.
pub fn compare(expected: &Json, ours: &Value) -> Result<(), String> {
    compare_at(expected, ours, &mut String::from("$"))
}

fn compare_at(expected: &Json, ours: &Value, path: &mut String) -> Result<(), String> {
    let differ = |path: &str| {
        Err(format!(
            "at {path}: expected {}, got {}",
            crate::report::excerpt(&show_json(expected), 80),
            crate::report::excerpt(&ours.to_string(), 80)
        ))
    };
    match (expected, ours) {
        (Json::Null, Value::Null) => Ok(()),
        (Json::Bool(a), Value::Bool(b)) if a == b => Ok(()),
        (Json::String(a), Value::String(b)) if a == b => Ok(()),
        (Json::Number(text), Value::Number(n)) if numbers_agree(text, n) => Ok(()),
        (Json::Array(items), Value::Array(ours_items)) if items.len() == ours_items.len() => {
            for (i, (e, o)) in items.iter().zip(ours_items).enumerate() {
                let len = path.len();
                path.push_str(&format!("[{i}]"));
                compare_at(e, o, path)?;
                path.truncate(len);
            }
            Ok(())
        }
        (Json::Object(members), Value::Object(m)) if members.len() == m.len() => {
            for (k, e) in members {
                let Some(o) = m.get(k) else {
                    return differ(path);
                };
                let len = path.len();
                path.push_str(&format!(".{k}"));
                compare_at(e, o, path)?;
                path.truncate(len);
            }
            Ok(())
        }
        _ => differ(path),
    }
}

fn show_json(j: &Json) -> String {
    match j {
        Json::Null => "null".to_owned(),
        Json::Bool(b) => b.to_string(),
        Json::Number(n) => n.clone(),
        Json::String(s) => format!("{s:?}"),
        Json::Array(items) => format!(
            "[{}]",
            items.iter().map(show_json).collect::<Vec<_>>().join(", ")
        ),
        Json::Object(members) => format!(
            "{{{}}}",
            members
                .iter()
                .map(|(k, v)| format!("{k:?}: {}", show_json(v)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// A decimal as sign, significant digits (no leading or trailing zeros)
/// and the exponent of its first digit: `-0.0123` is (true, "123", -2),
/// meaning 1.23e-2. `None` for zero or bad text.
fn decompose(text: &str) -> Option<(bool, Vec<u8>, i64)> {
    let (neg, rest) = match text.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, text),
    };
    let (mantissa, exp) = match rest.find(['e', 'E']) {
        Some(i) => (rest.get(..i)?, rest.get(i + 1..)?.parse::<i64>().ok()?),
        None => (rest, 0),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let all: Vec<u8> = int
        .bytes()
        .chain(frac.bytes())
        .map(|b| b.wrapping_sub(b'0'))
        .collect();
    if all.iter().any(|d| *d > 9) {
        return None;
    }
    let lead = all.iter().position(|d| *d != 0)?;
    let digits: Vec<u8> = {
        let d = all.get(lead..)?;
        let end = d.iter().rposition(|x| *x != 0).map_or(0, |i| i + 1);
        d.get(..end)?.to_vec()
    };
    // Position of the first significant digit relative to the point.
    let first_exp = int.len() as i64 - 1 - lead as i64 + exp;
    Some((neg, digits, first_exp))
}

/// Rounds significant digits to `n` (half up), adjusting the exponent on
/// carry. Trailing zeros are removed.
fn round_digits(digits: &[u8], exp: i64, n: usize) -> (Vec<u8>, i64) {
    if digits.len() <= n {
        return (digits.to_vec(), exp);
    }
    let mut out: Vec<u8> = digits.iter().take(n).copied().collect();
    let mut exp = exp;
    if digits.get(n).is_some_and(|d| *d >= 5) {
        let mut i = out.len();
        loop {
            if i == 0 {
                out.insert(0, 1);
                out.pop();
                exp += 1;
                break;
            }
            i -= 1;
            if let Some(d) = out.get_mut(i) {
                if *d == 9 {
                    *d = 0;
                } else {
                    *d += 1;
                    break;
                }
            }
        }
    }
    while out.last() == Some(&0) {
        out.pop();
    }
    (out, exp)
}

/// Whether our number agrees with the reference's text as the conformance
/// README defines.
pub fn numbers_agree(expected: &str, ours: &Number) -> bool {
    let theirs = decompose(expected);
    let mine = decompose(&ours.to_string());
    match (theirs, mine) {
        (None, None) => true,
        (Some((n1, d1, e1)), Some((n2, d2, e2))) => {
            if n1 != n2 {
                return false;
            }
            // 7.9e28 is the largest Decimal; below 1e-28 it has no digits.
            let beyond = e1 > 28 || (e1 == 28 && d1.first().is_some_and(|d| *d >= 8)) || e1 < -28;
            let n = if beyond { 15 } else { 25 };
            round_digits(&d1, e1, n) == round_digits(&d2, e2, n)
                || round_digits(&d1, e1, n - 1) == round_digits(&d2, e2, n - 1)
        }
        _ => false,
    }
}

/// Whether a value holds an infinite number anywhere.
fn has_infinity(v: &Value) -> bool {
    match v {
        Value::Number(n) => n.is_infinite(),
        Value::Array(items) => items.iter().any(has_infinity),
        Value::Object(members) => members.values().any(has_infinity),
        _ => false,
    }
}

/// Checks of the number comparison itself.
pub fn self_test() -> Result<(), String> {
    let n = |s: &str| Number::from_literal(s).ok_or_else(|| format!("bad literal {s}"));
    let cases: &[(&str, &str, bool)] = &[
        ("0.3", "0.3", true),
        ("-0", "0", true),
        (
            "0.33333333333333333333333333333333333333333333335",
            "0.3333333333333333333333333333",
            true,
        ),
        ("0.099999999999999999999999999999999999955", "0.1", true),
        ("10", "9.999999999999999999999999999", true),
        (
            "123456789012345678901234567890",
            "1.2345678901234568e29",
            true,
        ),
        ("0.3", "0.30000000000000001", false),
        ("0.3", "0.3000000000000000000001", false),
        ("1", "2", false),
        ("-1", "1", false),
    ];
    for (expected, ours, agree) in cases {
        if numbers_agree(expected, &n(ours)?) != *agree {
            return Err(format!(
                "number comparison self-test: {expected} vs {ours} should {}agree",
                if *agree { "" } else { "not " }
            ));
        }
    }
    Ok(())
}

/// Evaluates a case that parses and compares the result with the
/// reference's document.
pub fn check(case: &crate::cases::Case) -> crate::cases::Verdict {
    use crate::cases::{Expected, Verdict};
    use crate::grammar::Mode;
    let verdict = |outcome, error_lines| Verdict {
        outcome,
        error_lines,
        pending: None,
    };
    let ctx = match context(case.vars.as_ref()) {
        Ok(c) => c,
        Err(e) => return verdict(Err(format!("bad variables: {e}")), None),
    };
    let src_text = String::from_utf8_lossy(&case.input);
    let mut calls = Vec::new();
    let result: Result<Value, hcl::Error> = match case.mode {
        Mode::Body => match hcl_grammar::parse_body(&case.input, &Default::default()) {
            Ok(body) => {
                calls_in_body(&body, &mut calls);
                let missing = missing_functions(&ctx, &calls);
                if !missing.is_empty() {
                    return pending(&missing);
                }
                body_document(&body, &ctx)
            }
            Err(e) => Err(e.into()),
        },
        Mode::Expr => match hcl_grammar::parse_expr(&case.input, &Default::default()) {
            Ok(expr) => {
                calls_in_expr(&expr, &mut calls);
                let missing = missing_functions(&ctx, &calls);
                if !missing.is_empty() {
                    return pending(&missing);
                }
                hcl::eval::eval_expr(&expr, &ctx)
            }
            Err(e) => Err(e.into()),
        },
        Mode::Template => match hcl_grammar::parse_template(&case.input, &Default::default()) {
            Ok(t) => {
                calls_in_template(&t, &mut calls);
                let missing = missing_functions(&ctx, &calls);
                if !missing.is_empty() {
                    return pending(&missing);
                }
                hcl::eval::eval_template(&t, &ctx)
            }
            Err(e) => Err(e.into()),
        },
    };
    let result = result.map_err(|e| e.with_source(&src_text));
    match (&case.expected, result) {
        (Expected::Value(doc), Ok(v)) => {
            let expected = match case.mode {
                Mode::Body => Some(doc),
                Mode::Expr | Mode::Template => doc.get("value"),
            };
            match expected {
                Some(e) => verdict(compare(e, &v), None),
                None => verdict(Err("expected document without a value".to_owned()), None),
            }
        }
        (Expected::Value(_), Err(e)) => verdict(
            Err(format!(
                "fails ({}:{}: {}), but the reference gives a value",
                e.line().unwrap_or(0),
                e.column().unwrap_or(0),
                e.message()
            )),
            None,
        ),
        // The oracle writes plain JSON, which has no infinities: a result
        // holding one is its error document (see the conformance README).
        (Expected::Eval(diag), Ok(v))
            if diag.summary == "Value not representable as plain JSON" && has_infinity(&v) =>
        {
            verdict(Ok(()), None)
        }
        (Expected::Eval(diag), Ok(v)) => verdict(
            Err(format!(
                "evaluates to {}, but the reference fails: {}",
                crate::report::excerpt(&v.to_string(), 60),
                diag.summary
            )),
            None,
        ),
        (Expected::Eval(diag), Err(e)) => {
            if e.is_syntax() {
                return verdict(
                    Err(format!(
                        "rejected by the parser ({}), but the reference fails only at evaluation: {}",
                        e.message(),
                        diag.summary
                    )),
                    None,
                );
            }
            verdict(Ok(()), diag.line.map(|l| (l, e.line().unwrap_or(0))))
        }
        (Expected::Parse(_), _) => verdict(Err("internal: parse case evaluated".to_owned()), None),
    }
}

fn pending(missing: &[String]) -> crate::cases::Verdict {
    crate::cases::Verdict {
        outcome: Ok(()),
        error_lines: None,
        pending: Some(format!("needs {}", missing.join(", "))),
    }
}
