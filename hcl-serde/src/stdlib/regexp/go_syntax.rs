//! Go's RE2 pattern syntax (Go 1.19) rewritten for the `regex` crate.

/// Rewrites a pattern in Go's RE2 syntax (Go 1.19) into the `regex`
/// crate's, so that it means what it means in Go:
///
/// - `\d \s \w \b` and their negations are ASCII-only;
/// - `\Q...\E` quotes text;
/// - a `{` that does not start a repetition count is a literal, counts
///   stop at 1000, and a repetition of a repetition (`a**`) is an error;
/// - `(?P<name>...)` names are any word characters (renamed here, as the
///   crate wants a letter first and unique names; the returned list maps
///   `hclgroupN` back), `(?<name>...)` is an error;
/// - the flags are `i m s U` only;
/// - `&&`, `--` and `~~` in classes are literal (set operations for the
///   crate).
pub(super) fn translate_pattern(p: &str) -> Result<(String, Vec<String>), String> {
    check_repeat_sizes(p)?;
    let mut out = String::with_capacity(p.len() + 8);
    let mut names: Vec<String> = Vec::new();
    let mut chars = p.char_indices().peekable();
    let mut in_class = false;
    // After a repetition operator (and after its lazy `?`).
    let mut after_repeat = false;
    let mut after_lazy = false;
    let mut pending_flags = String::new();
    while let Some((at, c)) = chars.next() {
        let rest = p.get(at..).unwrap_or_default();
        if in_class {
            match c {
                '\\' => match chars.next().map(|(_, c)| c) {
                    Some('d') => out.push_str("0-9"),
                    Some('D') => out.push_str("[^0-9]"),
                    Some('s') => out.push_str("\\t\\n\\f\\r "),
                    Some('S') => out.push_str("[^\\t\\n\\f\\r ]"),
                    Some('w') => out.push_str("0-9A-Za-z_"),
                    Some('W') => out.push_str("[^0-9A-Za-z_]"),
                    Some(other) => {
                        out.push('\\');
                        out.push(other);
                        if matches!(other, 'x' | 'p' | 'P')
                            && rest.get(2..).is_some_and(|r| r.starts_with('{'))
                        {
                            let len = rest.find('}').map_or(rest.len(), |i| i + 1);
                            out.push_str(rest.get(2..len).unwrap_or_default());
                            while chars.peek().is_some_and(|&(i, _)| i < at + len) {
                                chars.next();
                            }
                        }
                    }
                    None => out.push('\\'),
                },
                '[' if rest.starts_with("[:") => {
                    // A POSIX class `[:alpha:]`: copy it whole.
                    let len = rest.find(":]").map_or(1, |i| i + 2);
                    out.push_str(rest.get(..len).unwrap_or("["));
                    while chars.peek().is_some_and(|&(i, _)| i < at + len) {
                        chars.next();
                    }
                }
                '[' | '&' | '~' => {
                    out.push('\\');
                    out.push(c);
                }
                '-' if rest.starts_with("--") => {
                    // Go reads `a--` as a range ending at `-`.
                    out.push_str("-\\-");
                    chars.next();
                }
                ']' => {
                    in_class = false;
                    out.push(']');
                }
                other => out.push(other),
            }
            continue;
        }
        // A flag group (`(?s)`) is transparent to a repetition that
        // follows it in Go: `a(?s)*` repeats `a`. It is emitted after that
        // repetition, where it means the same.
        let is_repeat = matches!(c, '*' | '+' | '?') || (c == '{' && repeat_count(rest).is_some());
        if !is_repeat && !pending_flags.is_empty() {
            out.push_str(&pending_flags);
            pending_flags.clear();
        }
        let was_repeat = after_repeat;
        let was_lazy = after_lazy;
        after_repeat = false;
        after_lazy = false;
        match c {
            '*' | '+' | '?' => {
                if c == '?' && was_repeat && !was_lazy {
                    after_repeat = true;
                    after_lazy = true;
                } else if was_repeat {
                    return Err(format!("invalid nested repetition operator in {rest}"));
                } else {
                    after_repeat = true;
                }
                out.push(c);
            }
            '{' => match repeat_count(rest) {
                Some(len) => {
                    if was_repeat {
                        return Err(format!("invalid nested repetition operator in {rest}"));
                    }
                    let body = rest.get(1..len - 1).unwrap_or_default();
                    if body
                        .split(',')
                        .any(|n| n.len() > 4 || n.parse::<u32>().is_ok_and(|n| n > 1000))
                    {
                        return Err(format!("invalid repeat count in {{{body}}}"));
                    }
                    out.push_str(rest.get(..len).unwrap_or_default());
                    while chars.peek().is_some_and(|&(i, _)| i < at + len) {
                        chars.next();
                    }
                    after_repeat = true;
                }
                None => out.push_str("\\{"),
            },
            '\\' => match chars.next().map(|(_, c)| c) {
                Some('d') => out.push_str("[0-9]"),
                Some('D') => out.push_str("[^0-9]"),
                Some('s') => out.push_str("[\\t\\n\\f\\r ]"),
                Some('S') => out.push_str("[^\\t\\n\\f\\r ]"),
                Some('w') => out.push_str("[0-9A-Za-z_]"),
                Some('W') => out.push_str("[^0-9A-Za-z_]"),
                Some('b') => out.push_str("(?-u:\\b)"),
                Some('B') => out.push_str("(?-u:\\B)"),
                Some(d @ '0'..='7')
                    if d == '0'
                        || rest
                            .as_bytes()
                            .get(2)
                            .is_some_and(|b| (b'0'..=b'7').contains(b)) =>
                {
                    // An octal escape: `\0` or a digit and more digits (up
                    // to three); a lone `\1`..`\9` is a backreference.
                    let mut code = u32::from(d) - u32::from('0');
                    let mut len = 2;
                    while len < 4 {
                        match rest.as_bytes().get(len) {
                            Some(b @ b'0'..=b'7') => {
                                code = code * 8 + u32::from(b - b'0');
                                len += 1;
                            }
                            _ => break,
                        }
                    }
                    out.push_str(&format!("\\x{{{code:x}}}"));
                    while chars.peek().is_some_and(|&(i, _)| i < at + len) {
                        chars.next();
                    }
                }
                Some(c @ ('<' | '>')) => out.push(c),
                Some('Q') => {
                    let quoted = rest.get(2..).unwrap_or_default();
                    let (lit, len) = match quoted.find("\\E") {
                        Some(i) => (quoted.get(..i).unwrap_or_default(), i + 2),
                        None => (quoted, quoted.len()),
                    };
                    out.push_str(&regex::escape(lit));
                    let stop = at + 2 + len;
                    while chars.peek().is_some_and(|&(i, _)| i < stop) {
                        chars.next();
                    }
                }
                Some(other) => {
                    out.push('\\');
                    out.push(other);
                    // `\x{e9}`, `\p{Greek}`: copy the braces.
                    if matches!(other, 'x' | 'p' | 'P')
                        && rest.get(2..).is_some_and(|r| r.starts_with('{'))
                    {
                        let len = rest.find('}').map_or(rest.len(), |i| i + 1);
                        out.push_str(rest.get(2..len).unwrap_or_default());
                        while chars.peek().is_some_and(|&(i, _)| i < at + len) {
                            chars.next();
                        }
                    }
                }
                None => out.push('\\'),
            },
            '[' => {
                in_class = true;
                out.push('[');
                // A `]` right after `[` or `[^` is a literal.
                if chars.peek().is_some_and(|&(_, c)| c == '^') {
                    out.push('^');
                    chars.next();
                }
                if chars.peek().is_some_and(|&(_, c)| c == ']') {
                    out.push_str("\\]");
                    chars.next();
                }
            }
            '(' if rest.starts_with("(?P<") => {
                let after = rest.get(4..).unwrap_or_default();
                let Some(end) = after.find('>') else {
                    return Err(format!("invalid named capture in {rest}"));
                };
                let name = after.get(..end).unwrap_or_default();
                if name.is_empty() || !name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
                {
                    return Err(format!("invalid named capture in (?P<{name}>"));
                }
                out.push_str(&format!("(?P<hclgroup{}>", names.len()));
                names.push(name.to_owned());
                let stop = at + 4 + end + 1;
                while chars.peek().is_some_and(|&(i, _)| i < stop) {
                    chars.next();
                }
            }
            '(' if rest.starts_with("(?") => {
                let flags: String = rest
                    .get(2..)
                    .unwrap_or_default()
                    .chars()
                    .take_while(|c| *c != ':' && *c != ')')
                    .collect();
                let closes_with_colon = rest
                    .get(2 + flags.len()..)
                    .is_some_and(|r| r.starts_with(':'));
                if (flags.is_empty() && !closes_with_colon)
                    || !flags.chars().all(|c| "imsU-".contains(c))
                {
                    let next = rest.get(2..).and_then(|r| r.chars().next());
                    return Err(format!(
                        "invalid or unsupported Perl syntax in (?{}",
                        next.map(String::from).unwrap_or_default()
                    ));
                }
                if closes_with_colon {
                    out.push('(');
                } else {
                    let len = 2 + flags.len() + 1;
                    pending_flags.push_str(rest.get(..len).unwrap_or_default());
                    while chars.peek().is_some_and(|&(i, _)| i < at + len) {
                        chars.next();
                    }
                    after_repeat = was_repeat;
                    after_lazy = was_lazy;
                }
            }
            other => out.push(other),
        }
    }
    out.push_str(&pending_flags);
    Ok((out, names))
}

/// Go's limit on nested repetition counts: `(a{500}){3}` would repeat
/// `a` 1500 times, more than 1000 (`*`, `+` and `?` do not count).
fn check_repeat_sizes(p: &str) -> Result<(), String> {
    // For each open group, the largest repetition weight inside it.
    let mut groups: Vec<u64> = vec![1];
    // The weight of the last atom (a group's weight once closed).
    let mut atom: u64 = 1;
    let mut chars = p.char_indices().peekable();
    let mut in_class = false;
    while let Some((at, c)) = chars.next() {
        let rest = p.get(at..).unwrap_or_default();
        if in_class {
            match c {
                '\\' => {
                    chars.next();
                }
                ']' => in_class = false,
                _ => {}
            }
            continue;
        }
        match c {
            '\\' => {
                chars.next();
                atom = 1;
            }
            '[' => {
                in_class = true;
                atom = 1;
                if chars.peek().is_some_and(|&(_, c)| c == '^') {
                    chars.next();
                }
                if chars.peek().is_some_and(|&(_, c)| c == ']') {
                    chars.next();
                }
            }
            '(' => {
                groups.push(1);
                atom = 1;
            }
            ')' => {
                atom = groups.pop().unwrap_or(1);
                if groups.is_empty() {
                    groups.push(1);
                }
            }
            '{' => {
                if let Some(len) = repeat_count(rest) {
                    let body = rest.get(1..len - 1).unwrap_or_default();
                    let (lo, hi) = body.split_once(',').unwrap_or((body, body));
                    let m = if hi.is_empty() { lo } else { hi };
                    let m: u64 = m.parse().unwrap_or(u64::MAX);
                    if m > 0 {
                        let w = atom.saturating_mul(m);
                        if w > 1000 {
                            return Err(format!(
                                "invalid repeat count in {}",
                                rest.get(..len).unwrap_or_default()
                            ));
                        }
                        atom = w;
                    }
                    while chars.peek().is_some_and(|&(i, _)| i < at + len) {
                        chars.next();
                    }
                } else {
                    atom = 1;
                }
            }
            '*' | '+' | '?' | '|' => {}
            _ => atom = 1,
        }
        if let Some(top) = groups.last_mut() {
            *top = (*top).max(atom);
        }
    }
    Ok(())
}

/// The length of a repetition count (`{n}`, `{n,}`, `{n,m}`) at the start
/// of `s`, if there is one.
fn repeat_count(s: &str) -> Option<usize> {
    let body = s.strip_prefix('{')?;
    let end = body.find('}')?;
    let inner = body.get(..end)?;
    let (lo, hi) = match inner.split_once(',') {
        Some((lo, hi)) => (lo, Some(hi)),
        None => (inner, None),
    };
    let digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    let ok = digits(lo) && hi.is_none_or(|h| h.is_empty() || digits(h));
    ok.then_some(end + 2)
}
