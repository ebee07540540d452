//! The standard functions against the reference, case by case.
//!
//! Each `stdlib/*.cases` file lists expressions, each followed by what the
//! reference implementation (hcl 2.14.1 with go-cty 1.12.1's stdlib)
//! gives for it, recorded by `stdlib/regen.py` from the reference's CLI:
//! a value (written as an HCL expression) or an error with its line and
//! column.
//!
//! An expected error must be an evaluation error on the same line, at the
//! same column: the reference points at the call or at the argument at
//! fault (inside the quotes of a quoted string).

use hcl::eval::eval_expr_str;
use hcl::{Context, Value};

/// One case: the expression, its line in the file, the expectation.
struct Case<'a> {
    expr: &'a str,
    line: usize,
    expected: &'a str,
}

fn cases(text: &str) -> Vec<Case<'_>> {
    let mut out = Vec::new();
    let mut pending: Option<(usize, &str)> = None;
    for (i, line) in text.lines().enumerate() {
        if let Some(exp) = line.strip_prefix("=> ") {
            let Some((l, expr)) = pending.take() else {
                panic!("line {}: an expectation without a case", i + 1);
            };
            out.push(Case {
                expr,
                line: l,
                expected: exp,
            });
        } else if !line.trim().is_empty() && !line.starts_with('#') {
            assert!(
                pending.is_none(),
                "line {}: no expectation for the case above",
                i
            );
            pending = Some((i + 1, line));
        }
    }
    assert!(pending.is_none(), "the last case has no expectation");
    out
}

/// Checks every case of a file, reporting all failures at once.
fn check(file: &str, text: &str) {
    let ctx = Context::with_stdlib();
    let plain = Context::new();
    let mut failures = Vec::new();
    let all = cases(text);
    assert!(!all.is_empty(), "{file}: no case");
    for case in &all {
        let got = eval_expr_str(case.expr, &ctx);
        if let Some(err) = case.expected.strip_prefix("error ") {
            let (pos, _detail) = err.split_once(' ').unwrap_or((err, ""));
            let (l, c) = pos.split_once(':').unwrap_or((pos, "0"));
            let want_line: usize = l.parse().unwrap_or(0);
            let want_col: usize = c.parse().unwrap_or(0);
            match got {
                Ok(v) => failures.push(format!(
                    "{file}:{}: `{}` gave {v}, the reference fails: {err}",
                    case.line, case.expr
                )),
                Err(e) => {
                    let (line, col) = (e.line().unwrap_or(0), e.column().unwrap_or(0));
                    // At an opening quote, the reference points inside
                    // the quotes (after them for an empty string).
                    let ch = |c: usize| case.expr.chars().nth(c.saturating_sub(1));
                    let at_quote = ch(col) == Some('"')
                        && (col + 1 == want_col
                            || (col + 2 == want_col && ch(col + 1) == Some('"')));
                    if !e.is_eval() || line != want_line || (col != want_col && !at_quote) {
                        failures.push(format!(
                            "{file}:{}: `{}` failed at {line}:{col} ({}), the reference at {err}",
                            case.line,
                            case.expr,
                            e.message()
                        ));
                    }
                }
            }
        } else {
            let want: Value = match eval_expr_str(case.expected, &plain) {
                Ok(v) => v,
                Err(e) => panic!("{file}:{}: bad expectation: {e}", case.line + 1),
            };
            match got {
                Ok(v) if v == want => {}
                Ok(v) => failures.push(format!(
                    "{file}:{}: `{}` gave {v}, the reference {want}",
                    case.line, case.expr
                )),
                Err(e) => failures.push(format!(
                    "{file}:{}: `{}` failed ({e}), the reference gives {want}",
                    case.line, case.expr
                )),
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases differ from the reference:\n{}",
        failures.len(),
        all.len(),
        failures.join("\n")
    );
}

#[test]
fn strings_as_the_reference() {
    check("strings.cases", include_str!("stdlib/strings.cases"));
}

#[test]
fn encoding_as_the_reference() {
    check("encoding.cases", include_str!("stdlib/encoding.cases"));
}

#[test]
fn datetime_as_the_reference() {
    check("datetime.cases", include_str!("stdlib/datetime.cases"));
}

#[test]
fn interplay_as_the_reference() {
    check("interplay.cases", include_str!("stdlib/interplay.cases"));
}

#[test]
fn random_expressions_as_the_reference() {
    check("random.cases", include_str!("stdlib/random.cases"));
}

#[test]
fn case_mappings_as_the_reference() {
    check("unicode.cases", include_str!("stdlib/unicode.cases"));
}

#[test]
fn types_as_the_reference() {
    check("types.cases", include_str!("stdlib/types.cases"));
}

#[test]
fn random_type_rules_as_the_reference() {
    check(
        "types_random.cases",
        include_str!("stdlib/types_random.cases"),
    );
}
