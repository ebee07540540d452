//! The syntax tree of the HCL native syntax.
//!
//! The tree mirrors the structure of the reference implementation's
//! `hclsyntax` package closely enough that an evaluator can reproduce its
//! behaviour exactly, but it is plain data: every node carries its byte
//! [`Span`] and borrows from the input where it can (identifiers and
//! number literals always; string literals when they contain no escape
//! sequence).
//!
//! Conventions that hold for every node:
//!
//! - `span` covers the node's source text from its first token to the end
//!   of its last token, comments and surrounding whitespace excluded. For an
//!   attribute's expression it is exactly the range the reference reports
//!   (`expr.Range()`); heredocs run from `<<` to the end of the closing
//!   marker, without its newline.
//! - Strings are already decoded: escapes replaced, heredoc indentation
//!   removed and strip markers (`~`) applied. No evaluator has to look at
//!   the source again.

use crate::span::Span;
use std::borrow::Cow;

// ---------------------------------------------------------------------------
// Structural language
// ---------------------------------------------------------------------------

/// A body: the attributes and blocks of a file or of a block, in source
/// order.
///
/// Attribute names are unique within one body (the parser rejects a
/// repeated name, as the reference does).
#[derive(Debug, Clone, PartialEq)]
pub struct Body<'i> {
    /// The attributes and blocks, in source order.
    pub items: Box<[Structure<'i>]>,
    /// For a file: the whole input. For a block body: from just after `{`
    /// to just before `}`.
    pub span: Span,
}

impl<'i> Body<'i> {
    /// The attributes of this body, in source order.
    pub fn attributes(&self) -> impl Iterator<Item = &Attribute<'i>> + '_ {
        self.items.iter().filter_map(|s| match s {
            Structure::Attribute(a) => Some(a),
            Structure::Block(_) => None,
        })
    }

    /// The blocks of this body, in source order.
    pub fn blocks(&self) -> impl Iterator<Item = &Block<'i>> + '_ {
        self.items.iter().filter_map(|s| match s {
            Structure::Block(b) => Some(&**b),
            Structure::Attribute(_) => None,
        })
    }

    /// The attribute named `name`, if any.
    pub fn attribute(&self, name: &str) -> Option<&Attribute<'i>> {
        self.attributes().find(|a| a.name.name == name)
    }
}

/// One item of a body.
#[derive(Debug, Clone, PartialEq)]
pub enum Structure<'i> {
    /// `name = expression`
    Attribute(Attribute<'i>),
    /// `type label... { body }`, boxed: blocks are rarer than attributes
    /// and three times their size.
    Block(Box<Block<'i>>),
}

impl Structure<'_> {
    /// The span of the whole item.
    pub fn span(&self) -> Span {
        match self {
            Structure::Attribute(a) => a.span,
            Structure::Block(b) => b.span,
        }
    }
}

/// An attribute definition, `name = expression`.
#[derive(Debug, Clone, PartialEq)]
pub struct Attribute<'i> {
    /// The attribute's name.
    pub name: Ident<'i>,
    /// The value expression, unevaluated.
    pub expr: Expr<'i>,
    /// From the first byte of the name to the end of the expression.
    pub span: Span,
}

/// A block: a type, zero or more labels and a body.
#[derive(Debug, Clone, PartialEq)]
pub struct Block<'i> {
    /// The block type (the leading identifier).
    pub ident: Ident<'i>,
    /// The labels, quoted or bare, in order.
    pub labels: Box<[BlockLabel<'i>]>,
    /// The block's body.
    pub body: Body<'i>,
    /// The `{` of the block.
    pub open_brace: Span,
    /// The `}` of the block.
    pub close_brace: Span,
    /// From the first byte of the type to the end of the closing `}`.
    pub span: Span,
}

/// A block label.
#[derive(Debug, Clone, PartialEq)]
pub enum BlockLabel<'i> {
    /// A bare identifier label: `resource aws_instance { }`.
    Ident(Ident<'i>),
    /// A quoted label: `resource "aws_instance" { }`. Escapes are decoded;
    /// interpolation is not allowed in labels.
    String(StrLit<'i>),
}

impl<'i> BlockLabel<'i> {
    /// The label's text (decoded for quoted labels).
    pub fn as_str(&self) -> &str {
        match self {
            BlockLabel::Ident(i) => i.name,
            BlockLabel::String(s) => &s.value,
        }
    }

    /// The label's span (quotes included for quoted labels).
    pub fn span(&self) -> Span {
        match self {
            BlockLabel::Ident(i) => i.span,
            BlockLabel::String(s) => s.span,
        }
    }
}

/// An identifier, borrowed from the input.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Ident<'i> {
    /// The identifier's text.
    pub name: &'i str,
    /// Where it is.
    pub span: Span,
}

/// A string literal: decoded text, borrowed when the source had no escape.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StrLit<'i> {
    /// The decoded text.
    pub value: Cow<'i, str>,
    /// The span of the literal, quotes included.
    pub span: Span,
}

// ---------------------------------------------------------------------------
// Expression language
// ---------------------------------------------------------------------------

/// An expression: a kind and the span of its source text.
#[derive(Debug, Clone, PartialEq)]
pub struct Expr<'i> {
    /// What the expression is.
    pub kind: ExprKind<'i>,
    /// From its first token to the end of its last.
    pub span: Span,
}

/// The kinds of expression.
///
/// Postfix operators nest outward: `a.b[0]` is
/// `Index { collection: GetAttr { object: Variable(a), name: b }, key: 0 }`.
#[derive(Debug, Clone, PartialEq)]
pub enum ExprKind<'i> {
    /// `null`
    Null,
    /// `true` / `false`
    Bool(bool),
    /// A numeric literal, kept as its source text (`"1.5e3"`), which is
    /// valid by the spec's `NumericLit` production.
    Number(&'i str),
    /// A quoted template that is a single literal string, with escapes
    /// decoded: `"abc"`, `""`, `"a\nb"`. Borrowed when it had no escape.
    String(Cow<'i, str>),
    /// Any other template expression: a quoted template with interpolations
    /// or directives, or a heredoc.
    Template(Box<TemplateExpr<'i>>),
    /// `[a, b, c]`
    Tuple(Box<[Expr<'i>]>),
    /// `{ k = v, ... }`, items in source order (a repeated key is not a
    /// syntax error: the last one wins at evaluation, as in the reference).
    Object(Box<[ObjectItem<'i>]>),
    /// A variable reference.
    Variable(Ident<'i>),
    /// A function call.
    Call(Box<FuncCall<'i>>),
    /// A `for` expression, tuple or object form.
    For(Box<ForExpr<'i>>),
    /// `collection[key]`, or the legacy `collection.0` form.
    Index(Box<IndexExpr<'i>>),
    /// `object.name`
    GetAttr(Box<GetAttrExpr<'i>>),
    /// `source[*]...` or `source.*...`
    Splat(Box<SplatExpr<'i>>),
    /// The placeholder that stands for "the current element" inside
    /// [`SplatExpr::each`]. It appears nowhere else. Its span is the splat
    /// marker's (`[*]` or `.*`).
    SplatItem,
    /// `-x`, `!x`
    Unary(Box<UnaryExpr<'i>>),
    /// `a + b`, `a == b`, `a && b`, ...
    Binary(Box<BinaryExpr<'i>>),
    /// `cond ? a : b`
    Conditional(Box<Conditional<'i>>),
    /// `( expr )`: kept so spans and unwrapping behave as in the reference
    /// (the span of a parenthesised expression includes the parentheses).
    Parens(Box<Expr<'i>>),
}

/// One `key = value` (or `key: value`) item of an object constructor.
#[derive(Debug, Clone, PartialEq)]
pub struct ObjectItem<'i> {
    /// The key.
    pub key: ObjectKey<'i>,
    /// The value.
    pub value: Expr<'i>,
}

/// An object constructor key.
#[derive(Debug, Clone, PartialEq)]
pub enum ObjectKey<'i> {
    /// A bare identifier: the literal attribute name (`{foo = 1}`), never a
    /// variable. Keywords such as `null` or `true` are names here too.
    Ident(Ident<'i>),
    /// Any other expression (`{"a b" = 1}`, `{(var) = 1}`, `{1 = 2}`),
    /// evaluated and converted to a string.
    Expr(Expr<'i>),
}

impl ObjectKey<'_> {
    /// The span of the key.
    pub fn span(&self) -> Span {
        match self {
            ObjectKey::Ident(i) => i.span,
            ObjectKey::Expr(e) => e.span,
        }
    }
}

/// A function call.
#[derive(Debug, Clone, PartialEq)]
pub struct FuncCall<'i> {
    /// The function's name. For a namespaced call
    /// (`provider::aws::arn_parse(x)`, HCL 2.20+) this is the whole name,
    /// `provider::aws::arn_parse`, with `::` and no whitespace inside.
    pub name: Ident<'i>,
    /// The arguments, in order.
    pub args: Box<[Expr<'i>]>,
    /// Whether the final argument was followed by `...`: its elements are
    /// expanded into separate arguments.
    pub expand_final: bool,
    /// From `(` to `)`.
    pub parens: Span,
}

/// A `for` expression.
///
/// `[for k, v in coll: value if cond]` or
/// `{for k, v in coll: key => value... if cond}`.
#[derive(Debug, Clone, PartialEq)]
pub struct ForExpr<'i> {
    /// The key (or index) variable, when two names are given.
    pub key_var: Option<Ident<'i>>,
    /// The value variable.
    pub value_var: Ident<'i>,
    /// The collection iterated over.
    pub collection: Expr<'i>,
    /// For the object form: the key expression (before `=>`). `None` for
    /// the tuple form.
    pub key_expr: Option<Expr<'i>>,
    /// The element expression (object form: after `=>`).
    pub value_expr: Expr<'i>,
    /// `...` after the value expression: grouping mode (object form only).
    pub grouping: bool,
    /// The `if` filter.
    pub cond: Option<Expr<'i>>,
    /// The span of the opening part, from `[`/`{` to the `:`, for errors
    /// about the collection.
    pub intro: Span,
}

impl ForExpr<'_> {
    /// Whether this is the object form (`{for ...: k => v}`).
    pub fn is_object(&self) -> bool {
        self.key_expr.is_some()
    }
}

/// An index operation.
#[derive(Debug, Clone, PartialEq)]
pub struct IndexExpr<'i> {
    /// The collection indexed.
    pub collection: Expr<'i>,
    /// The key. For the legacy form `a.0` this is the number literal `0`.
    pub key: Expr<'i>,
    /// `true` for the legacy `.0` form.
    pub legacy: bool,
    /// From `[` to `]` (or the `.0` for the legacy form).
    pub bracket: Span,
}

/// An attribute access, `object.name`.
#[derive(Debug, Clone, PartialEq)]
pub struct GetAttrExpr<'i> {
    /// The value whose attribute is taken.
    pub object: Expr<'i>,
    /// The attribute name (keywords are names here: `a.null` is fine).
    pub name: Ident<'i>,
}

/// A splat expression.
///
/// As in the reference, the traversal after the marker is an expression
/// [`each`](SplatExpr::each) rooted at [`ExprKind::SplatItem`], evaluated
/// once per element of the source. For a full splat (`[*]`) it takes every
/// following attribute access, index and nested splat; for an
/// attribute-only splat (`.*`) it takes only the following `.name` (and
/// legacy `.0`) steps, and any later index applies to the splat's result:
/// `a.*.b[0]` is `(a.*.b)[0]`.
#[derive(Debug, Clone, PartialEq)]
pub struct SplatExpr<'i> {
    /// The value splatted.
    pub source: Expr<'i>,
    /// The per-element traversal, rooted at [`ExprKind::SplatItem`]; just
    /// `SplatItem` for a bare `a[*]`.
    pub each: Expr<'i>,
    /// `true` for `[*]`, `false` for `.*`.
    pub full: bool,
    /// The `[*]` or `.*` marker.
    pub marker: Span,
}

/// A unary operation.
#[derive(Debug, Clone, PartialEq)]
pub struct UnaryExpr<'i> {
    /// The operator.
    pub op: UnaryOp,
    /// The operand.
    pub operand: Expr<'i>,
    /// The operator token.
    pub op_span: Span,
}

/// Unary operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum UnaryOp {
    /// `-`
    Neg,
    /// `!`
    Not,
}

/// A binary operation.
#[derive(Debug, Clone, PartialEq)]
pub struct BinaryExpr<'i> {
    /// The operator.
    pub op: BinaryOp,
    /// The left operand.
    pub lhs: Expr<'i>,
    /// The right operand.
    pub rhs: Expr<'i>,
    /// The operator token.
    pub op_span: Span,
}

/// Binary operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BinaryOp {
    /// `*`
    Mul,
    /// `/`
    Div,
    /// `%`
    Mod,
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `&&`
    And,
    /// `||`
    Or,
}

impl BinaryOp {
    /// The precedence level from the spec: 6 (`* / %`) binds tightest, 1
    /// (`||`) loosest. All levels associate to the left.
    pub const fn precedence(self) -> u8 {
        match self {
            BinaryOp::Mul | BinaryOp::Div | BinaryOp::Mod => 6,
            BinaryOp::Add | BinaryOp::Sub => 5,
            BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge => 4,
            BinaryOp::Eq | BinaryOp::Ne => 3,
            BinaryOp::And => 2,
            BinaryOp::Or => 1,
        }
    }

    /// The operator as written.
    pub const fn as_str(self) -> &'static str {
        match self {
            BinaryOp::Mul => "*",
            BinaryOp::Div => "/",
            BinaryOp::Mod => "%",
            BinaryOp::Add => "+",
            BinaryOp::Sub => "-",
            BinaryOp::Lt => "<",
            BinaryOp::Le => "<=",
            BinaryOp::Gt => ">",
            BinaryOp::Ge => ">=",
            BinaryOp::Eq => "==",
            BinaryOp::Ne => "!=",
            BinaryOp::And => "&&",
            BinaryOp::Or => "||",
        }
    }
}

/// A conditional, `cond ? then_expr : else_expr`.
#[derive(Debug, Clone, PartialEq)]
pub struct Conditional<'i> {
    /// The predicate.
    pub cond: Expr<'i>,
    /// The result when true.
    pub then_expr: Expr<'i>,
    /// The result when false.
    pub else_expr: Expr<'i>,
}

// ---------------------------------------------------------------------------
// Template language
// ---------------------------------------------------------------------------

/// A template expression: a quoted template with interpolations or
/// directives, or a heredoc.
#[derive(Debug, Clone, PartialEq)]
pub struct TemplateExpr<'i> {
    /// The template.
    pub template: Template<'i>,
    /// For a heredoc, its marker and whether it strips indentation.
    pub heredoc: Option<Heredoc<'i>>,
}

/// The introduction of a heredoc.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Heredoc<'i> {
    /// The delimiter identifier (`EOT`).
    pub marker: &'i str,
    /// `true` for `<<-` (leading indentation removed).
    pub indented: bool,
}

/// A template: literal text, interpolations and directives.
///
/// Unwrapping (spec: "Template Interpolation Unwrapping") applies exactly
/// when `parts` is a single [`TemplatePart::Interpolation`]. Literal parts
/// are kept even when a strip marker emptied them, so that `" ${~x}"` is
/// still two parts and not unwrapped, as in the reference.
#[derive(Debug, Clone, PartialEq)]
pub struct Template<'i> {
    /// The parts in order.
    pub parts: Box<[TemplatePart<'i>]>,
    /// The template's span: for a quoted template, quotes included; for a
    /// heredoc, the content lines; for a standalone template, the input.
    pub span: Span,
}

impl Template<'_> {
    /// Whether the template is a single interpolation and nothing else, so
    /// that its value is the interpolated value itself, unconverted.
    pub fn is_unwrappable(&self) -> bool {
        matches!(&*self.parts, [TemplatePart::Interpolation(_)])
    }
}

/// One part of a template.
#[derive(Debug, Clone, PartialEq)]
pub enum TemplatePart<'i> {
    /// Literal text, decoded (escapes, `$${`/`%%{`, heredoc indentation,
    /// strip markers all applied).
    Literal(StrLit<'i>),
    /// `${ expr }`
    Interpolation(Interpolation<'i>),
    /// `%{ if }...%{ else }...%{ endif }`
    If(Box<TemplateIf<'i>>),
    /// `%{ for }...%{ endfor }`
    For(Box<TemplateFor<'i>>),
}

/// Which sides of a template sequence carry a strip marker `~`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct Strip {
    /// `${~` / `%{~`: strip whitespace from the literal before.
    pub left: bool,
    /// `~}`: strip whitespace from the literal after.
    pub right: bool,
}

/// An interpolation sequence, `${ expr }`.
#[derive(Debug, Clone, PartialEq)]
pub struct Interpolation<'i> {
    /// The interpolated expression.
    pub expr: Expr<'i>,
    /// Strip markers (already applied to neighbouring literals).
    pub strip: Strip,
    /// From `${` to `}`.
    pub span: Span,
}

/// An `if` directive.
#[derive(Debug, Clone, PartialEq)]
pub struct TemplateIf<'i> {
    /// The predicate.
    pub cond: Expr<'i>,
    /// The template when true.
    pub then_template: Template<'i>,
    /// The template after `%{ else }`, if present.
    pub else_template: Option<Template<'i>>,
    /// The `%{ if ... }` sequence.
    pub if_span: Span,
    /// From `%{ if` to the end of `%{ endif }`.
    pub span: Span,
}

/// A `for` directive.
#[derive(Debug, Clone, PartialEq)]
pub struct TemplateFor<'i> {
    /// The key variable, when two names are given.
    pub key_var: Option<Ident<'i>>,
    /// The value variable.
    pub value_var: Ident<'i>,
    /// The collection iterated over.
    pub collection: Expr<'i>,
    /// The repeated template.
    pub body: Template<'i>,
    /// The `%{ for ... }` sequence.
    pub for_span: Span,
    /// From `%{ for` to the end of `%{ endfor }`.
    pub span: Span,
}
