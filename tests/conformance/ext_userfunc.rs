//! `conformance-ext/userfunc/`: the top-level `function` blocks decoded,
//! then the rest of the body evaluated with them. As the suite's setup,
//! results are evaluated with the case's variables and the standard
//! functions only (a child of that context), not the user functions.

use crate::ext::{judge, Outcome, Phase};
use crate::json::Json;
use hcl::ext::userfunc;
use hcl::Context;
use std::path::Path;
use std::sync::Arc;

pub fn check(path: &Path, input: &[u8], expected: &Json) -> Outcome {
    let Ok(src) = std::str::from_utf8(input) else {
        return Outcome::of(Err("input is not UTF-8".to_owned()));
    };
    let vars_path = {
        let s = path.to_string_lossy();
        let base = s.strip_suffix(".ufn.hcl").unwrap_or(&s);
        std::path::PathBuf::from(format!("{base}.vars.json"))
    };
    let vars = if vars_path.exists() {
        match std::fs::read(&vars_path)
            .map_err(|e| e.to_string())
            .and_then(|b| crate::json::parse(&b))
        {
            Ok(v) => Some(v),
            Err(e) => return Outcome::of(Err(format!("cannot read the variables: {e}"))),
        }
    } else {
        None
    };
    let base = match crate::values::context(vars.as_ref()) {
        Ok(c) => Arc::new(c),
        Err(e) => return Outcome::of(Err(e)),
    };
    judge(expected, run(src, &base))
}

fn run(src: &str, base: &Arc<Context>) -> Result<hcl::Value, Phase<'static>> {
    let body = hcl_grammar::parse_body(src, &Default::default())
        .map_err(|e| ("parse", e.message().to_owned(), e.line()))?;
    let line = |e: hcl::Error| {
        let e = e.with_source(src);
        (e.message().to_owned(), e.line().unwrap_or(0))
    };
    let funcs = userfunc::decode(&body, src).map_err(|e| {
        let (m, l) = line(e);
        ("decode", m, l)
    })?;
    let mut ctx = Context::child(base);
    userfunc::declare(&funcs, &mut ctx, base);
    crate::values::body_document(&userfunc::remaining(&body), &ctx).map_err(|e| {
        let (m, l) = line(e);
        ("eval", m, l)
    })
}
