//! The variables an expression reads, without evaluating it (the
//! reference's `Expression.Variables()` / `hclsyntax.Variables`).

use crate::number::Number;
use crate::value::Value;
use hcl_grammar::{
    Body, Expr, ExprKind, Ident, ObjectKey, Span, Structure, Template, TemplatePart,
};
use std::fmt;

/// One step of a [`Traversal`] after its root.
#[derive(Debug, Clone, PartialEq)]
pub enum Step {
    /// `.name`
    Attr(String),
    /// `[KEY]` (or the legacy `.0`) with a literal key: a number, string,
    /// bool or `null`.
    Index(Value),
}

/// A variable reference: a root name followed by attribute and literal
/// index steps (`var.subnets[0].id`), as the reference's
/// `hcl.Traversal`.
#[derive(Debug, Clone, PartialEq)]
pub struct Traversal {
    /// The root variable's name (`var`).
    pub root: String,
    /// The steps after the root, in source order.
    pub steps: Vec<Step>,
    /// The traversal's source span: from the root to the end of its last
    /// step.
    pub span: Span,
}

impl fmt::Display for Traversal {
    /// The traversal in HCL syntax: `var.subnets[0].id`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.root)?;
        for step in &self.steps {
            match step {
                Step::Attr(name) => write!(f, ".{name}")?,
                Step::Index(Value::String(s)) => write!(f, "[{}]", crate::eval::convert::quote(s))?,
                Step::Index(Value::Null) => f.write_str("[null]")?,
                Step::Index(k) => write!(f, "[{k}]")?,
            }
        }
        Ok(())
    }
}

/// Every variable traversal `expr` reads, in the reference's order
/// (the syntax tree's: a conditional's condition, then its results; an
/// index's collection, then its key; arguments and elements left to
/// right), duplicates kept.
///
/// Names bound by an enclosing `for` (its key and value symbols) are not
/// variables inside its key, value and condition expressions; the
/// collection is outside their scope. Nothing after a splat, a call or
/// parentheses is part of a traversal (`f(x).y` reads `x`).
///
/// ```
/// use hcl::ext::variables::{variables, Step};
/// let expr = hcl_grammar::parse_expr("[for s in var.subnets : s.id if s.az == local.az]", &Default::default())?;
/// let refs = variables(&expr);
/// let names: Vec<String> = refs.iter().map(|t| t.to_string()).collect();
/// assert_eq!(names, ["var.subnets", "local.az"]);
/// assert_eq!(refs[0].steps, [Step::Attr("subnets".into())]);
/// # Ok::<(), hcl_grammar::Error>(())
/// ```
pub fn variables(expr: &Expr<'_>) -> Vec<Traversal> {
    let mut w = Walker::default();
    w.expr(expr);
    w.out
}

/// Every variable traversal read by the attributes of `body` and of its
/// blocks, nested ones included, in source order.
pub fn body_variables(body: &Body<'_>) -> Vec<Traversal> {
    let mut w = Walker::default();
    let mut stack = vec![body.items.iter()];
    // An explicit stack: block nesting is bounded by the parser, but a
    // loop costs nothing.
    while let Some(items) = stack.last_mut() {
        match items.next() {
            Some(Structure::Attribute(a)) => w.expr(&a.expr),
            Some(Structure::Block(b)) => stack.push(b.body.items.iter()),
            None => {
                stack.pop();
            }
        }
    }
    w.out
}

impl crate::RawExpression {
    /// Every variable traversal the expression reads, without evaluating
    /// it (see [`variables`]); spans are in the file it was read from.
    ///
    /// ```
    /// let e = hcl::RawExpression::parse("var.a ? local.b[0] : c")?;
    /// let names: Vec<String> = e.variables().iter().map(|t| t.to_string()).collect();
    /// assert_eq!(names, ["var.a", "local.b[0]", "c"]);
    /// # Ok::<(), hcl::Error>(())
    /// ```
    pub fn variables(&self) -> Vec<Traversal> {
        // A heredoc needs a newline after its closing marker.
        let text = format!("{}\n", self.as_str());
        // It parsed when it was captured; a failure here reads nothing.
        let Ok(expr) = hcl_grammar::parse_expr(&text, &Default::default()) else {
            return Vec::new();
        };
        in_file(variables(&expr), self.span().start())
    }
}

impl crate::RawBody {
    /// Every variable traversal read by the body's attributes, those of
    /// nested blocks included, in source order, without evaluating them
    /// (see [`body_variables`]); spans are in the file it was read from.
    pub fn variables(&self) -> Vec<Traversal> {
        let text = format!("{}\n", self.as_str());
        let Ok(body) = hcl_grammar::parse_body(&text, &Default::default()) else {
            return Vec::new();
        };
        in_file(body_variables(&body), self.span().start())
    }
}

/// Traversals found in a capture's text, moved to the capture's place in
/// its file (`start`, the byte where the text begins).
fn in_file(mut refs: Vec<Traversal>, start: usize) -> Vec<Traversal> {
    for t in &mut refs {
        t.span = Span::new(t.span.start() + start, t.span.end() + start);
    }
    refs
}

/// The literal key of an index step, if the key is one (the reference's
/// parser makes a traversal step only of a literal or a string template
/// without interpolations).
pub(crate) fn literal_key(key: &Expr<'_>) -> Option<Value> {
    match &key.kind {
        ExprKind::Null => Some(Value::Null),
        ExprKind::Bool(b) => Some(Value::Bool(*b)),
        ExprKind::Number(n) => Number::from_literal(n).map(Value::Number),
        ExprKind::String(s) => Some(Value::String(s.as_ref().to_owned())),
        ExprKind::Template(t)
            if t.heredoc.is_none()
                && t.template
                    .parts
                    .iter()
                    .all(|p| matches!(p, TemplatePart::Literal(_))) =>
        {
            let mut s = String::new();
            for p in &t.template.parts {
                if let TemplatePart::Literal(l) = p {
                    s.push_str(&l.value);
                }
            }
            Some(Value::String(s))
        }
        _ => None,
    }
}

/// The traversal `expr` is, when it is a variable followed only by
/// attribute and literal index steps.
fn as_traversal<'e, 'i>(expr: &'e Expr<'i>) -> Option<(&'e Ident<'i>, Vec<Step>)> {
    let mut steps = Vec::new();
    let mut at = expr;
    loop {
        match &at.kind {
            ExprKind::Variable(id) => {
                steps.reverse();
                return Some((id, steps));
            }
            ExprKind::GetAttr(g) => {
                steps.push(Step::Attr(g.name.name.to_owned()));
                at = &g.object;
            }
            ExprKind::Index(ix) => {
                steps.push(Step::Index(literal_key(&ix.key)?));
                at = &ix.collection;
            }
            _ => return None,
        }
    }
}

#[derive(Default)]
struct Walker<'i> {
    /// Names bound by the enclosing `for`s.
    locals: Vec<&'i str>,
    out: Vec<Traversal>,
}

impl<'i> Walker<'i> {
    /// Recursion as deep as the expression, which the parser bounds.
    fn expr(&mut self, e: &Expr<'i>) {
        if let Some((root, steps)) = as_traversal(e) {
            if !self.locals.contains(&root.name) {
                self.out.push(Traversal {
                    root: root.name.to_owned(),
                    steps,
                    span: e.span,
                });
            }
            return;
        }
        match &e.kind {
            ExprKind::Null
            | ExprKind::Bool(_)
            | ExprKind::Number(_)
            | ExprKind::String(_)
            | ExprKind::SplatItem
            | ExprKind::Variable(_) => {}
            ExprKind::Template(t) => self.template(&t.template),
            ExprKind::Tuple(items) => items.iter().for_each(|i| self.expr(i)),
            ExprKind::Object(items) => {
                for item in items {
                    if let ObjectKey::Expr(k) = &item.key {
                        self.expr(k);
                    }
                    self.expr(&item.value);
                }
            }
            ExprKind::Call(c) => c.args.iter().for_each(|a| self.expr(a)),
            ExprKind::For(f) => {
                self.expr(&f.collection);
                let n = self.locals.len();
                self.locals.extend(f.key_var.map(|k| k.name));
                self.locals.push(f.value_var.name);
                if let Some(k) = &f.key_expr {
                    self.expr(k);
                }
                self.expr(&f.value_expr);
                if let Some(c) = &f.cond {
                    self.expr(c);
                }
                self.locals.truncate(n);
            }
            ExprKind::Index(ix) => {
                self.expr(&ix.collection);
                self.expr(&ix.key);
            }
            ExprKind::GetAttr(g) => self.expr(&g.object),
            ExprKind::Splat(s) => {
                self.expr(&s.source);
                self.expr(&s.each);
            }
            ExprKind::Unary(u) => self.expr(&u.operand),
            ExprKind::Binary(b) => {
                self.expr(&b.lhs);
                self.expr(&b.rhs);
            }
            ExprKind::Conditional(c) => {
                self.expr(&c.cond);
                self.expr(&c.then_expr);
                self.expr(&c.else_expr);
            }
            ExprKind::Parens(inner) => self.expr(inner),
        }
    }

    fn template(&mut self, t: &Template<'i>) {
        for part in &t.parts {
            match part {
                TemplatePart::Literal(_) => {}
                TemplatePart::Interpolation(i) => self.expr(&i.expr),
                TemplatePart::If(i) => {
                    self.expr(&i.cond);
                    self.template(&i.then_template);
                    if let Some(e) = &i.else_template {
                        self.template(e);
                    }
                }
                TemplatePart::For(f) => {
                    self.expr(&f.collection);
                    let n = self.locals.len();
                    self.locals.extend(f.key_var.map(|k| k.name));
                    self.locals.push(f.value_var.name);
                    self.template(&f.body);
                    self.locals.truncate(n);
                }
            }
        }
    }
}
