//! One JSON text read into a `Value` target, built while it is parsed:
//! the grammar's JSON parser hands each value to [`ValueBuilder`] (a
//! [`JsonBuilder`]) instead of making a document, so that a plain file
//! costs one pass and no document. What is built is what the document
//! route (`json_plain.rs`'s `body_value`, and the visits) would build,
//! value for value; the builder gives up ([`Stop`]) on anything else and
//! the caller reads the text again through that route, which reports any
//! error as ever:
//!
//! - a syntax error, a container past the depth limit, input past the
//!   length limit (the parser's errors);
//! - a root that is not an object;
//! - a string that is a template (with a context), or an object's name
//!   that is one, below the root;
//! - a number out of range;
//! - a repeated property name, at any depth (the map finds it).
//!
//! The root object's `"//"` properties are comments, left out (as
//! `body_value` does); its names are kept as written, the others' and
//! every string's normalized (NFC), as `text_of` does.

use super::json_plain::number_of;
use crate::body::json::{is_template, normalized, COMMENT};
use crate::value::de::object_value;
use crate::value::Map;
use crate::Value;
use hcl_grammar::json::{build_json, JsonBuilder, JsonKind, JsonStr, JsonText, JsonValue};
use hcl_grammar::{ParseOptions, Span};
use std::borrow::Cow;

/// The `Value` of the JSON text `src`, its root an object, built while
/// it is parsed, as the document route would read it into a `Value`
/// with (`templates`) or without a context, within `options`' limits
/// (the deserializer's depth limit among them); `None` when it is not
/// plain (the document route then decides, errors included).
pub(super) fn value(src: &str, templates: bool, options: &ParseOptions) -> Option<Value> {
    with_stacks(|stacks| {
        let mut b = ValueBuilder {
            templates,
            root_object: false,
            items: &mut stacks.items,
            props: &mut stacks.props,
        };
        let value = build_json(src, options, &mut b);
        let root_object = b.root_object;
        // After a stop, what was read of the open containers.
        stacks.items.clear();
        stacks.props.clear();
        stacks.settle();
        value.ok().filter(|_| root_object)
    })
}

/// The children of the containers being read, each container's on top of
/// its parent's: one stack of elements, one of properties. A container
/// takes its own off the top as it closes, into a `Vec` or `Map` of
/// their number (one allocation each, no growth). A thread keeps small
/// ones for its next parse.
#[derive(Default)]
struct Stacks {
    items: Vec<Value>,
    props: Vec<(String, Value)>,
}

/// The most children a thread's kept [`Stacks`] may have room for.
const KEEP: usize = 256;

impl Stacks {
    /// Lets go of room past what a thread keeps.
    fn settle(&mut self) {
        if self.items.capacity() > KEEP {
            self.items = Vec::new();
        }
        if self.props.capacity() > KEEP {
            self.props = Vec::new();
        }
    }
}

thread_local! {
    static STACKS: std::cell::RefCell<Stacks> = std::cell::RefCell::default();
}

/// Runs `f` with this thread's [`Stacks`], or new ones (in a parse
/// inside another one, or during the thread's exit).
fn with_stacks<R>(mut f: impl FnMut(&mut Stacks) -> R) -> R {
    match STACKS.try_with(|s| s.try_borrow_mut().ok().map(|mut s| f(&mut s))) {
        Ok(Some(r)) => r,
        _ => f(&mut Stacks::default()),
    }
}

/// The parse options of the direct route: the document route's (`options`,
/// the grammar's depth limit), with the deserializer's depth limit
/// `max_depth` too: a container at the deserializer's depth `d` (the
/// root's properties' values at 1) is read when `d < max_depth`, and it
/// is at the parser's depth `d + 1` (the root object at 1).
pub(super) fn options(options: ParseOptions, max_depth: usize) -> ParseOptions {
    let depth = options.max_depth().min(max_depth);
    options.with_max_depth(depth)
}

/// The builder of a `Value` from JSON text: see the [module docs](self).
struct ValueBuilder<'s> {
    /// Whether strings with `${` or `%{` are templates (a context is
    /// given).
    templates: bool,
    /// Whether the root is an object (its end seen).
    root_object: bool,
    /// The elements of the arrays being read ([`Stacks`]).
    items: &'s mut Vec<Value>,
    /// The properties of the objects being read ([`Stacks`]).
    props: &'s mut Vec<(String, Value)>,
}

/// The reason a [`ValueBuilder`] gives up: the text is not plain, or is
/// not valid.
pub(super) struct Stop;

impl From<hcl_grammar::Error> for Stop {
    #[inline]
    fn from(_: hcl_grammar::Error) -> Stop {
        Stop
    }
}

/// The text of a string or name, owned, normalized (NFC) unless `ascii`
/// says that every string so far is ASCII; as `text_of`.
#[inline]
fn owned_text(s: Cow<'_, str>, ascii: bool) -> String {
    if ascii || s.is_ascii() {
        return s.into_owned();
    }
    normalized(&s).unwrap_or_else(|| s.into_owned())
}

impl<'i> JsonBuilder<'i> for ValueBuilder<'_> {
    type Value = Value;
    /// Where its elements start on the stack.
    type Array = usize;
    /// Where its properties start on the stack.
    type Object = usize;
    type Error = Stop;

    #[inline(always)]
    fn scalar(&mut self, v: JsonValue, text: &JsonText<'_, 'i>) -> Result<Value, Stop> {
        Ok(match v.kind {
            JsonKind::String(s) => {
                let s = text.str(s, v.span);
                if is_template(&s, self.templates) {
                    return Err(Stop);
                }
                Value::String(owned_text(s, text.is_ascii()))
            }
            JsonKind::Number => number_of(text.number(v.span)).ok_or(Stop)?,
            JsonKind::Null => Value::Null,
            JsonKind::Bool(b) => Value::Bool(b),
            // Not scalars: never given here.
            JsonKind::Array(_) | JsonKind::Object(_) => return Err(Stop),
        })
    }

    #[inline]
    fn array(&mut self, _: usize) -> usize {
        self.items.len()
    }

    #[inline(always)]
    fn item(&mut self, _: &mut usize, _: usize, item: Value) -> Result<(), Stop> {
        self.items.push(item);
        Ok(())
    }

    #[inline]
    fn end_array(&mut self, start: usize, _: usize, _: Span) -> Result<Value, Stop> {
        let items: Vec<Value> = self.items.drain(start.min(self.items.len())..).collect();
        Ok(Value::Array(items))
    }

    #[inline]
    fn object(&mut self, _: usize) -> usize {
        self.props.len()
    }

    #[inline]
    fn property(
        &mut self,
        _: &mut usize,
        depth: usize,
        name: JsonStr,
        name_span: Span,
        value: Value,
        text: &JsonText<'_, 'i>,
    ) -> Result<(), Stop> {
        let name = text.str(name, name_span);
        let key = if depth == 1 {
            // The root's: a body's attributes, `"//"` comments left out,
            // names as written (`body_value`).
            if name == COMMENT {
                return Ok(());
            }
            name.into_owned()
        } else {
            // An object value's (`plain_value`): no name a template, each
            // normalized.
            if self.templates && is_template(&name, true) {
                return Err(Stop);
            }
            owned_text(name, text.is_ascii())
        };
        self.props.push((key, value));
        Ok(())
    }

    #[inline]
    fn end_object(&mut self, start: usize, depth: usize, _: Span) -> Result<Value, Stop> {
        if depth == 1 {
            self.root_object = true;
        }
        let props = self.props.drain(start.min(self.props.len())..);
        let mut object = Map::with_capacity(props.len());
        for (key, value) in props {
            if object.insert(key, value).is_some() {
                // A repeated name: the document route's error.
                return Err(Stop);
            }
        }
        // `ValueVisitor::visit_map`'s reading of a private key.
        Ok(object_value(object))
    }
}
