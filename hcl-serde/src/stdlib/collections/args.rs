//! What the collection functions read from their arguments: types, elements,
//! entries in the reference's order.

use crate::eval::{FuncArgs, Type};
use crate::{Map, Value};

/// The type of argument `i` (its implied type if unknown).
pub(super) fn ty(args: &FuncArgs<'_>, i: usize) -> Type {
    match args.arg_type(i) {
        Some(t) => t.clone(),
        None => args.get(i).map_or(Type::Any, Type::of),
    }
}

/// Argument `i`'s elements, if it is a sequence (list, set, tuple).
pub(super) fn seq<'a>(args: &'a FuncArgs<'_>, i: usize) -> &'a [Value] {
    args.get(i)
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

pub(super) fn arg(args: &FuncArgs<'_>, i: usize) -> Value {
    args.get(i).cloned().unwrap_or_default()
}

/// The type of element `i` of `v`, a sequence of type `t`.
pub(super) fn elem_type(t: &Type, i: usize, v: &Value) -> Type {
    match t {
        Type::Tuple(ts) => ts.get(i).cloned().unwrap_or_else(|| Type::of(v)),
        Type::List(e) | Type::Set(e) => (**e).clone(),
        _ => Type::of(v),
    }
}

/// The type of entry `key` of `v`, a map or object of type `t`.
pub(super) fn entry_type(t: &Type, key: &str, v: &Value) -> Type {
    match t {
        Type::Object(attrs) => attrs.get(key).cloned().unwrap_or_else(|| Type::of(v)),
        Type::Map(e) => (**e).clone(),
        _ => Type::of(v),
    }
}

/// An object type from attribute types, keys sorted as [`Type::of`] does.
pub(super) fn object_type(mut attrs: Map<String, Type>) -> Type {
    attrs.sort_keys();
    Type::Object(attrs)
}

/// An object's entries sorted bytewise by key, as the reference iterates
/// maps and objects.
pub(super) fn sorted_entries(m: &Map<String, Value>) -> Vec<(&String, &Value)> {
    let mut entries: Vec<_> = m.iter().collect();
    entries.sort_by(|a, b| a.0.cmp(b.0));
    entries
}
