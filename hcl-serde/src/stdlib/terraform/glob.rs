//! Glob patterns for `fileset`, as the doublestar library Terraform uses
//! reads them: `*` (any characters but `/`), `?` (one character),
//! `[abc]`, `[a-z]`, `[^a-z]` / `[!a-z]`, `{a,b}` alternatives, `\`
//! escapes, and `**` as a whole path element: zero or more directories.

/// The most alternatives `{...}` may expand to.
const MAX_ALTERNATIVES: usize = 1024;

/// One piece of a pattern element.
enum Token {
    /// `*`
    Star,
    /// `?`
    Any,
    /// `[...]`: ranges, negated or not.
    Class(Vec<(char, char)>, bool),
    /// A literal character.
    Lit(char),
}

/// A pattern element: `**`, or tokens matching one path element.
enum Elem {
    Globstar,
    Tokens(Vec<Token>),
}

/// A compiled pattern: its alternatives, each split into path elements.
pub(super) struct Glob {
    alternatives: Vec<Vec<Elem>>,
}

impl Glob {
    /// Compiles a pattern.
    ///
    /// # Errors
    ///
    /// An unclosed `{` or `[`, or too many alternatives.
    pub(super) fn new(pattern: &str) -> Result<Glob, String> {
        let chars: Vec<char> = pattern.chars().collect();
        let mut alts = Vec::new();
        expand(&chars, &mut alts)?;
        let mut alternatives = Vec::new();
        for a in alts {
            let s: String = a.into_iter().collect();
            let elems = s
                .split('/')
                .filter(|e| !e.is_empty() && *e != ".")
                .map(|e| {
                    if e == "**" {
                        Ok(Elem::Globstar)
                    } else {
                        tokens(e).map(Elem::Tokens)
                    }
                })
                .collect::<Result<Vec<_>, String>>()?;
            alternatives.push(elems);
        }
        Ok(Glob { alternatives })
    }

    /// Whether the relative path `path` (elements joined with `/`)
    /// matches.
    pub(super) fn matches(&self, path: &str) -> bool {
        let elems: Vec<Vec<char>> = path.split('/').map(|e| e.chars().collect()).collect();
        self.alternatives.iter().any(|alt| match_path(alt, &elems))
    }
}

/// The tokens of one pattern element.
fn tokens(e: &str) -> Result<Vec<Token>, String> {
    let mut out = Vec::new();
    let mut it = e.chars().peekable();
    while let Some(c) = it.next() {
        out.push(match c {
            '*' => Token::Star,
            '?' => Token::Any,
            '\\' => Token::Lit(it.next().ok_or("syntax error in pattern: trailing \\")?),
            '[' => {
                let negate = matches!(it.peek(), Some('^' | '!'));
                if negate {
                    it.next();
                }
                let mut ranges = Vec::new();
                let mut first = true;
                loop {
                    let a = it.next().ok_or("syntax error in pattern: unclosed [")?;
                    if a == ']' && !first {
                        break;
                    }
                    first = false;
                    let a = if a == '\\' {
                        it.next().ok_or("syntax error in pattern")?
                    } else {
                        a
                    };
                    if it.peek() == Some(&'-') {
                        it.next();
                        match it.next() {
                            Some(']') => {
                                ranges.push((a, a));
                                ranges.push(('-', '-'));
                                break;
                            }
                            Some(b) => ranges.push((a, b)),
                            None => return Err("syntax error in pattern: unclosed [".to_owned()),
                        }
                    } else {
                        ranges.push((a, a));
                    }
                }
                Token::Class(ranges, negate)
            }
            c => Token::Lit(c),
        });
    }
    Ok(out)
}

/// Expands the first `{a,b}` group of `p`, recursively.
fn expand(p: &[char], out: &mut Vec<Vec<char>>) -> Result<(), String> {
    let mut i = 0;
    while let Some(&c) = p.get(i) {
        match c {
            '\\' => i += 2,
            '[' => {
                // Skip the class: braces inside are literal.
                let mut j = i + 1;
                while p.get(j).is_some_and(|c| *c != ']') {
                    j += 1;
                }
                i = j + 1;
            }
            '{' => {
                let mut depth = 0;
                let mut parts = Vec::new();
                let mut start = i + 1;
                let mut j = i;
                loop {
                    j += 1;
                    match p.get(j) {
                        None => return Err("syntax error in pattern: unclosed {".to_owned()),
                        Some('\\') => j += 1,
                        Some('{') => depth += 1,
                        Some(',') if depth == 0 => {
                            parts.push(p.get(start..j).unwrap_or(&[]));
                            start = j + 1;
                        }
                        Some('}') if depth == 0 => {
                            parts.push(p.get(start..j).unwrap_or(&[]));
                            break;
                        }
                        Some('}') => depth -= 1,
                        Some(_) => {}
                    }
                }
                for part in parts {
                    let mut next = p.get(..i).unwrap_or(&[]).to_vec();
                    next.extend_from_slice(part);
                    next.extend_from_slice(p.get(j + 1..).unwrap_or(&[]));
                    expand(&next, out)?;
                    if out.len() > MAX_ALTERNATIVES {
                        return Err("the pattern has too many {} alternatives".to_owned());
                    }
                }
                return Ok(());
            }
            _ => i += 1,
        }
    }
    out.push(p.to_vec());
    Ok(())
}

/// A dynamic-programming row with only the empty prefix matched.
fn start_row(len: usize) -> Vec<bool> {
    let mut ok = vec![false; len + 1];
    if let Some(first) = ok.first_mut() {
        *first = true;
    }
    ok
}

/// The row after a token matching any run (`*`, `**`).
fn star_row(ok: &[bool]) -> Vec<bool> {
    let mut any = false;
    ok.iter()
        .map(|o| {
            any |= *o;
            any
        })
        .collect()
}

/// The row after a token matching one item for which `f` holds.
fn step_row<T>(ok: &[bool], items: &[T], f: impl Fn(&T) -> bool) -> Vec<bool> {
    std::iter::once(false)
        .chain(ok.iter().zip(items).map(|(o, x)| *o && f(x)))
        .collect()
}

/// Matches path elements against pattern elements, `**` spanning zero or
/// more elements (dynamic programming: linear in the product of sizes).
fn match_path(pat: &[Elem], path: &[Vec<char>]) -> bool {
    let mut ok = start_row(path.len());
    for p in pat {
        ok = match p {
            Elem::Globstar => star_row(&ok),
            Elem::Tokens(t) => step_row(&ok, path, |e| match_elem(t, e)),
        };
    }
    ok.last().copied().unwrap_or(false)
}

/// Matches one path element (no `/`) against one pattern element.
fn match_elem(p: &[Token], s: &[char]) -> bool {
    let mut ok = start_row(s.len());
    for t in p {
        ok = match t {
            Token::Star => star_row(&ok),
            Token::Any => step_row(&ok, s, |_| true),
            Token::Lit(l) => step_row(&ok, s, |c| c == l),
            Token::Class(ranges, negate) => step_row(&ok, s, |c| {
                ranges.iter().any(|(a, b)| a <= c && c <= b) != *negate
            }),
        };
    }
    ok.last().copied().unwrap_or(false)
}

#[cfg(test)]
mod tests {
    use super::Glob;

    fn m(p: &str, s: &str) -> bool {
        Glob::new(p).is_ok_and(|g| g.matches(s))
    }

    #[test]
    fn patterns() {
        assert!(m("*.txt", "a.txt"));
        assert!(!m("*.txt", "d/a.txt"));
        assert!(m("**/*.txt", "a.txt"));
        assert!(m("**/*.txt", "d/e/a.txt"));
        assert!(m("**", "d/e/a.txt"));
        assert!(m("files/{hello,world}.txt", "files/world.txt"));
        assert!(m("[a-c]?.txt", "bz.txt"));
        assert!(!m("[^a-c]?.txt", "bz.txt"));
        assert!(m("a\\*", "a*"));
        assert!(!m("a\\*", "ab"));
        assert!(Glob::new("{a").is_err());
    }
}
