//! The document's nodes: bodies, attributes, blocks, expressions, and the
//! edits on them.

use super::expr;
use super::text::{Piece, Src, Text};
use crate::{Error, Result, Span};

/// A body: attributes and blocks in source order, with the comments and
/// blank lines between them. The root body of a [`Document`](super::Document)
/// is the whole file; a [`Block`]'s body is what lies between its braces.
#[derive(Clone, Default)]
pub struct Body {
    /// The source of the trivia items' pieces.
    pub(crate) src: Src,
    pub(crate) items: Vec<Item>,
    /// The attributes [`Body::clear`] removed, still known by name (see
    /// there).
    pub(crate) cleared: Vec<Attribute>,
    /// How many blocks enclose the body (indentation of new items).
    pub(crate) depth: usize,
}

/// One piece of a body.
#[derive(Clone)]
pub(crate) enum Item {
    /// Text between items: blank lines and comments that belong to no
    /// item, kept as they are (a piece of the body's source).
    Trivia(Piece),
    Attribute(Attribute),
    Block(Block),
}

/// An attribute, `name = expression`, with its lead comments (the comment
/// lines directly above it) and its line end (a comment on its line and
/// the newline).
///
/// Its pieces other than the expression are ranges of `src`.
#[derive(Clone)]
pub struct Attribute {
    pub(crate) src: Src,
    /// Lead comments and the indentation before the name.
    pub(crate) lead: Piece,
    pub(crate) name: Piece,
    /// From the name to the expression: `" = "`.
    pub(crate) eq: Piece,
    pub(crate) expr: Expression,
    /// Line comment and newline.
    pub(crate) trail: Piece,
}

/// A block, `type "label" { body }`, with its lead comments and line end.
///
/// Its pieces other than the body are ranges of `src`.
#[derive(Clone)]
pub struct Block {
    pub(crate) src: Src,
    pub(crate) lead: Piece,
    pub(crate) ident: Piece,
    pub(crate) labels: Vec<Label>,
    /// From the last label (or the type) to the opening brace, included.
    pub(crate) open: Piece,
    pub(crate) body: Body,
    /// From the body's end to the closing brace, included.
    pub(crate) close: Piece,
    pub(crate) trail: Piece,
}

/// One block label: the text before it, its source text and its value
/// (pieces of the block's source).
#[derive(Clone)]
pub(crate) struct Label {
    pub(crate) pre: Piece,
    pub(crate) text: Piece,
    pub(crate) value: Piece,
}

/// An expression, kept as its source text (comments inside it included).
///
/// Build one from expression source with [`Expression::parse`], or from a
/// value with [`Expression::null`], [`Expression::bool`],
/// [`Expression::number`], [`Expression::string`], [`Expression::tuple`]
/// and [`Expression::object`], which spell values as `hclwrite`'s
/// `TokensForValue` does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Expression {
    pub(crate) text: Text,
}

fn indent(depth: usize) -> String {
    "  ".repeat(depth)
}

/// An error if `name` is not an identifier (a name `hclwrite` would write
/// as is, making a file that does not parse).
pub(crate) fn check_identifier(name: &str, what: &str) -> Result<()> {
    if crate::is_identifier(name) {
        Ok(())
    } else {
        Err(Error::new(
            format!("{what} {name:?} is not an identifier"),
            Span::new(0, name.len()),
            name,
        ))
    }
}

impl Body {
    /// The attributes, in source order.
    pub fn attributes(&self) -> impl Iterator<Item = &Attribute> + '_ {
        self.items.iter().filter_map(|i| match i {
            Item::Attribute(a) => Some(a),
            _ => None,
        })
    }

    /// The blocks, in source order.
    pub fn blocks(&self) -> impl Iterator<Item = &Block> + '_ {
        self.items.iter().filter_map(|i| match i {
            Item::Block(b) => Some(b),
            _ => None,
        })
    }

    /// The blocks, in source order, mutably.
    pub fn blocks_mut(&mut self) -> impl Iterator<Item = &mut Block> + '_ {
        self.items.iter_mut().filter_map(|i| match i {
            Item::Block(b) => Some(b),
            _ => None,
        })
    }

    /// Whether the body has no attribute, block, comment or blank line.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// The attribute `name` (`hclwrite`'s `GetAttribute`; see
    /// [`Body::clear`] for the attributes a clear removed).
    pub fn get_attribute(&self, name: &str) -> Option<&Attribute> {
        self.attributes()
            .chain(self.cleared.iter())
            .find(|a| a.name() == name)
    }

    /// [`Body::get_attribute`], mutably.
    pub fn get_attribute_mut(&mut self, name: &str) -> Option<&mut Attribute> {
        let live = self.items.iter().position(|i| match i {
            Item::Attribute(a) => a.name() == name,
            _ => false,
        });
        match live {
            Some(i) => match self.items.get_mut(i) {
                Some(Item::Attribute(a)) => Some(a),
                _ => None,
            },
            None => self.cleared.iter_mut().find(|a| a.name() == name),
        }
    }

    /// Sets attribute `name` to `expr`: replaces the expression of the
    /// attribute (keeping its comments), or appends a new attribute at the
    /// end of the body. The foundation of the `set_attribute_*` methods.
    ///
    /// # Errors
    ///
    /// When `name` is not an identifier.
    pub fn set_attribute(&mut self, name: &str, expr: Expression) -> Result<&mut Attribute> {
        check_identifier(name, "attribute name")?;
        let expr = expr::laid_out(expr, self.depth);
        let live = self.items.iter().position(|i| match i {
            Item::Attribute(a) => a.name() == name,
            _ => false,
        });
        let slot = match live {
            Some(i) => self.items.get_mut(i),
            None => match self.cleared.iter().position(|a| a.name() == name) {
                Some(i) => {
                    return match self.cleared.get_mut(i) {
                        Some(a) => {
                            a.expr = expr;
                            Ok(a)
                        }
                        None => Err(internal()),
                    }
                }
                None => {
                    let lead = self.separated(indent(self.depth));
                    self.items.push(Item::Attribute(Attribute {
                        src: Src::default(),
                        lead: lead.into(),
                        name: name.into(),
                        eq: " = ".into(),
                        expr,
                        trail: "\n".into(),
                    }));
                    return match self.items.last_mut() {
                        Some(Item::Attribute(a)) => Ok(a),
                        _ => Err(internal()),
                    };
                }
            },
        };
        match slot {
            Some(Item::Attribute(a)) => {
                a.expr = expr;
                Ok(a)
            }
            _ => Err(internal()),
        }
    }

    /// Sets attribute `name` to the expression whose source is `expr`
    /// (`hclwrite`'s `SetAttributeRaw`, with the tokens of `expr` as
    /// `name = expr` reads them): see [`Body::set_attribute`].
    ///
    /// ```
    /// use hcl_grammar::edit::Document;
    /// let mut doc: Document = "a = 1 # one\n".parse().unwrap();
    /// doc.body_mut().set_attribute_raw("a", "max(1, 2)").unwrap();
    /// doc.body_mut().set_attribute_raw("b", "var.x").unwrap();
    /// assert_eq!(doc.to_string(), "a = max(1, 2) # one\nb = var.x\n");
    /// ```
    ///
    /// # Errors
    ///
    /// When `expr` is not an expression, or `name` not an identifier.
    pub fn set_attribute_raw(&mut self, name: &str, expr: &str) -> Result<&mut Attribute> {
        let expr = Expression::parse(expr)?;
        self.set_attribute(name, expr)
    }

    /// Sets attribute `name` to a reference such as `var.a.b[0]`
    /// (`hclwrite`'s `SetAttributeTraversal`, spelled as it spells one):
    /// see [`Body::set_attribute`].
    ///
    /// # Errors
    ///
    /// When `traversal` is not a variable followed by `.name`, `[number]`
    /// or `["string"]` steps, or `name` is not an identifier.
    pub fn set_attribute_traversal(
        &mut self,
        name: &str,
        traversal: &str,
    ) -> Result<&mut Attribute> {
        let expr = Expression::traversal(traversal)?;
        self.set_attribute(name, expr)
    }

    /// Removes attribute `name` with its lead comments and its line
    /// (`hclwrite`'s `RemoveAttribute`); `None` when there is none.
    pub fn remove_attribute(&mut self, name: &str) -> Option<Attribute> {
        let live = self.items.iter().position(|i| match i {
            Item::Attribute(a) => a.name() == name,
            _ => false,
        });
        if let Some(i) = live {
            return match self.items.remove(i) {
                Item::Attribute(a) => Some(a),
                _ => None,
            };
        }
        let i = self.cleared.iter().position(|a| a.name() == name)?;
        Some(self.cleared.remove(i))
    }

    /// The first block of type `ty` with exactly `labels` (`hclwrite`'s
    /// `FirstMatchingBlock`).
    pub fn first_matching_block(&self, ty: &str, labels: &[&str]) -> Option<&Block> {
        self.blocks().find(|b| b.matches(ty, labels))
    }

    /// [`Body::first_matching_block`], mutably.
    pub fn first_matching_block_mut(&mut self, ty: &str, labels: &[&str]) -> Option<&mut Block> {
        self.blocks_mut().find(|b| b.matches(ty, labels))
    }

    /// Every block of type `ty` with exactly `labels`, in source order.
    pub fn blocks_matching<'s>(
        &'s self,
        ty: &'s str,
        labels: &'s [&'s str],
    ) -> impl Iterator<Item = &'s Block> + 's {
        self.blocks().filter(move |b| b.matches(ty, labels))
    }

    /// Appends an empty block `ty "label"... {}` at the end of the body
    /// (`hclwrite`'s `AppendNewBlock`) and returns it, to fill its body.
    ///
    /// ```
    /// use hcl_grammar::edit::Document;
    /// let mut doc: Document = "a = 1\n".parse().unwrap();
    /// let block = doc.body_mut().append_block("lifecycle", &[]).unwrap();
    /// block.body_mut().set_attribute_raw("create_before_destroy", "true").unwrap();
    /// assert_eq!(doc.to_string(), "a = 1\nlifecycle {\n  create_before_destroy = true\n}\n");
    /// ```
    ///
    /// # Errors
    ///
    /// When `ty` is not an identifier.
    pub fn append_block(&mut self, ty: &str, labels: &[&str]) -> Result<&mut Block> {
        check_identifier(ty, "block type")?;
        let lead = self.separated(indent(self.depth));
        self.items.push(Item::Block(Block {
            src: Src::default(),
            lead: lead.into(),
            ident: ty.into(),
            labels: new_labels(labels),
            open: " {\n".into(),
            body: Body {
                depth: self.depth + 1,
                ..Body::default()
            },
            close: format!("{}}}", indent(self.depth)).into(),
            trail: "\n".into(),
        }));
        match self.items.last_mut() {
            Some(Item::Block(b)) => Ok(b),
            _ => Err(internal()),
        }
    }

    /// Removes the first block of type `ty` with exactly `labels`, with its
    /// lead comments and its line (`hclwrite`'s `RemoveBlock`); `None`
    /// when there is none.
    pub fn remove_block(&mut self, ty: &str, labels: &[&str]) -> Option<Block> {
        let i = self.items.iter().position(|i| match i {
            Item::Block(b) => b.matches(ty, labels),
            _ => false,
        })?;
        match self.items.remove(i) {
            Item::Block(b) => Some(b),
            _ => None,
        }
    }

    /// Appends an empty line at the end of the body (`hclwrite`'s
    /// `AppendNewline`).
    pub fn append_newline(&mut self) {
        if let Some(Item::Trivia(t)) = self.items.last_mut() {
            *t = format!("{}\n", t.get(&self.src)).into();
        } else {
            self.items.push(Item::Trivia("\n".into()));
        }
    }

    /// Empties the body: attributes, blocks, comments and blank lines
    /// (`hclwrite`'s `Clear`).
    ///
    /// As `hclwrite`'s, the attributes removed stay known by name:
    /// [`Body::get_attribute`] still finds them, setting one changes the
    /// removed attribute (nothing is printed) and [`Body::remove_attribute`]
    /// forgets it. This keeps the reference's output for any sequence of
    /// edits; remove attributes one by one to reuse their names.
    pub fn clear(&mut self) {
        for item in self.items.drain(..) {
            if let Item::Attribute(a) = item {
                self.cleared.push(a);
            }
        }
    }

    /// `lead` with a space before it when the body's text ends with a
    /// token, so that the new item's first token stays its own.
    fn separated(&self, lead: String) -> String {
        match self.last_char() {
            Some(c) if !c.is_whitespace() && lead.is_empty() => " ".to_owned(),
            _ => lead,
        }
    }

    /// Whether the body's text is empty or ends with a newline: where a
    /// new item starts on a line of its own.
    ///
    /// As `hclwrite`, a new item continues the body's last line when it
    /// has no newline (a file without a final newline, a one-line block),
    /// which does not parse after an attribute or a block (`a = 1 b = 2`);
    /// call [`Body::append_newline`] first when this is `false`. A one-line
    /// or empty block (`b { a = 1 }`, `b {}`) cannot take a new line at
    /// all (`b { a = 1\n}` does not parse either): as with `hclwrite`,
    /// replace such a block rather than add to it.
    ///
    /// ```
    /// use hcl_grammar::edit::Document;
    /// let mut doc: Document = "a = 1".parse().unwrap();
    /// if !doc.body().ends_with_newline() {
    ///     doc.body_mut().append_newline();
    /// }
    /// doc.body_mut().set_attribute_raw("b", "2").unwrap();
    /// assert_eq!(doc.to_string(), "a = 1\nb = 2\n");
    /// ```
    pub fn ends_with_newline(&self) -> bool {
        self.last_char().is_none_or(|c| c == '\n')
    }

    /// The last character of the body's text.
    pub(crate) fn last_char(&self) -> Option<char> {
        match self.items.last()? {
            Item::Trivia(t) => t.get(&self.src).chars().next_back(),
            Item::Attribute(a) => a
                .strs()
                .into_iter()
                .rev()
                .find_map(|s| s.chars().next_back()),
            Item::Block(b) => [&b.trail, &b.close]
                .into_iter()
                .find_map(|s| s.get(&b.src).chars().next_back()),
        }
    }
}

/// The error of an item not found where it was just found or put (a bug;
/// an error rather than a panic).
#[cold]
fn internal() -> Error {
    let message = "internal error of the document editor: item not found";
    Error::new(message, Span::new(0, 0), "")
}

fn new_labels(labels: &[&str]) -> Vec<Label> {
    labels
        .iter()
        .map(|l| Label {
            pre: " ".into(),
            text: expr::quote(l).into(),
            value: (*l).into(),
        })
        .collect()
}

impl Attribute {
    /// The attribute's name.
    pub fn name(&self) -> &str {
        self.name.get(&self.src)
    }

    /// The attribute's expression.
    pub fn expr(&self) -> &Expression {
        &self.expr
    }

    /// The attribute's expression, mutably (to rename references in it
    /// or replace it).
    pub fn expr_mut(&mut self) -> &mut Expression {
        &mut self.expr
    }

    /// The comment lines directly above the attribute, as written (empty
    /// when there are none).
    pub fn lead_comments(&self) -> &str {
        comments_of(self.lead.get(&self.src))
    }

    /// The comment after the expression on its line, as written, with the
    /// newline (empty when there is none).
    pub fn line_comment(&self) -> &str {
        let t = self.trail.get(&self.src).trim_start_matches([' ', '\t']);
        if t.starts_with('#') || t.starts_with("//") || t.starts_with("/*") {
            t
        } else {
            ""
        }
    }
}

/// The comment part of a lead: the text without the indentation of the
/// item's first line.
fn comments_of(lead: &str) -> &str {
    lead.trim_end_matches([' ', '\t'])
        .trim_start_matches([' ', '\t'])
}

impl Block {
    /// The block's type.
    pub fn ident(&self) -> &str {
        self.ident.get(&self.src)
    }

    /// The block's labels, decoded (`"web"` is `web`).
    pub fn labels(&self) -> impl Iterator<Item = &str> + '_ {
        self.labels.iter().map(|l| l.value.get(&self.src))
    }

    /// Whether the block has type `ty` and exactly `labels`.
    pub fn matches(&self, ty: &str, labels: &[&str]) -> bool {
        self.ident() == ty
            && self.labels.len() == labels.len()
            && self.labels().zip(labels).all(|(l, w)| l == *w)
    }

    /// The block's body.
    pub fn body(&self) -> &Body {
        &self.body
    }

    /// The block's body, mutably.
    pub fn body_mut(&mut self) -> &mut Body {
        &mut self.body
    }

    /// The comment lines directly above the block, as written.
    pub fn lead_comments(&self) -> &str {
        comments_of(self.lead.get(&self.src))
    }

    /// Renames the block (`hclwrite`'s `SetType`).
    ///
    /// # Errors
    ///
    /// When `ty` is not an identifier.
    pub fn set_type(&mut self, ty: &str) -> Result<()> {
        check_identifier(ty, "block type")?;
        self.ident = ty.into();
        Ok(())
    }

    /// Replaces the labels, each written as a quoted string (`hclwrite`'s
    /// `SetLabels`; comments between the old labels go with them).
    pub fn set_labels(&mut self, labels: &[&str]) {
        self.labels = new_labels(labels);
    }
}
