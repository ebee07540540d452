//! The collection functions: `length concat contains keys values merge
//! lookup element flatten coalesce coalescelist compact distinct reverse
//! sort range chunklist slice zipmap setproduct setunion setintersection
//! setsubtract setsymmetricdifference` (go-cty 1.12.1
//! `stdlib/collection.go`, `sequence.go`, `set.go`, `general.go`); the
//! sequence and set functions are in `sequences.rs` and `sets.rs`.
//!
//! Convention of every family file: one `pub fn NAME() -> FuncDef` per
//! function (re-exported as `hcl::stdlib::NAME`, documented with an
//! example), and the table below listing `("name", NAME)` for each, which
//! `stdlib/mod.rs` reads for `all()`, `Context::add_stdlib()`.
//!
//! These functions see the HCL type of their arguments
//! ([`FuncArgs::arg_type`]): a list is not a tuple, a map is not an
//! object, and several functions answer differently for each, as the
//! reference does (`keys` of a map is a list, of an object a tuple).
//! Where the result's type depends on argument *values* (which element
//! `coalescelist` picks, which attribute `lookup` reads), the result has
//! the type its value implies.

mod args;
mod sequences;
mod sets;

pub(crate) use self::sequences::*;
pub(crate) use self::sets::*;

use self::args::{arg, elem_type, entry_type, object_type, seq, sorted_entries, ty};
use super::numeric::whole;
use crate::eval::convert::{convert_typed, equal_typed, unify};
use crate::eval::{FuncDef, FuncError, Param, Type};
use crate::{Map, Value};

/// This family's functions: name and constructor.
pub(super) const COLLECTIONS: super::Table = &[
    ("length", length),
    ("concat", concat),
    ("contains", contains),
    ("keys", keys),
    ("values", values),
    ("merge", merge),
    ("lookup", lookup),
    ("element", element),
    ("flatten", flatten),
    ("coalesce", coalesce),
    ("coalescelist", coalescelist),
    ("compact", compact),
    ("distinct", distinct),
    ("reverse", reverse),
    ("sort", sort),
    ("range", range),
    ("chunklist", chunklist),
    ("slice", slice),
    ("zipmap", zipmap),
    ("setproduct", setproduct),
    ("setunion", setunion),
    ("setintersection", setintersection),
    ("setsubtract", setsubtract),
    ("setsymmetricdifference", setsymmetricdifference),
];

pub(crate) fn length() -> FuncDef {
    FuncDef::new(|args| {
        let n = match (ty(&args, 0), args.get(0)) {
            (
                Type::List(_) | Type::Set(_) | Type::Tuple(_) | Type::Map(_),
                Some(Value::Array(a)),
            ) => a.len(),
            (Type::Map(_), Some(Value::Object(o))) => o.len(),
            _ => {
                return Err(FuncError::new(
                    "collection must be a list, a map or a tuple",
                ))
            }
        };
        Ok(Value::from(n))
    })
    .param(Param::new("collection", Type::Any))
    .returns(Type::Number)
}

pub(crate) fn concat() -> FuncDef {
    FuncDef::new(|args| {
        if args.is_empty() {
            return Err(FuncError::new("at least one argument is required"));
        }
        let types: Vec<Type> = (0..args.len()).map(|i| ty(&args, i)).collect();
        if let Some(list_ty) = concat_list_type(&types) {
            let mut out = Vec::new();
            for (i, t) in types.iter().enumerate() {
                let (v, _) =
                    convert_typed(arg(&args, i), t, &list_ty).map_err(|m| FuncError::arg(i, m))?;
                if let Value::Array(items) = v {
                    out.extend(items);
                }
            }
            return Ok(Value::Array(out));
        }
        let mut out = Vec::new();
        let mut out_types = Vec::new();
        for (i, t) in types.iter().enumerate() {
            match t {
                Type::Tuple(_) | Type::List(_) => {
                    for (j, v) in seq(&args, i).iter().enumerate() {
                        out_types.push(elem_type(t, j, v));
                        out.push(v.clone());
                    }
                }
                other => {
                    return Err(FuncError::arg(
                        i,
                        format!(
                            "all arguments must be lists or tuples; got {}",
                            other.friendly_name()
                        ),
                    ))
                }
            }
        }
        args.set_result_type(Type::Tuple(out_types));
        Ok(Value::Array(out))
    })
    .variadic(Param::new("seqs", Type::Any))
    .returns_with(|types| concat_list_type(types).unwrap_or(Type::Any))
}

/// The list type `concat` returns when every argument is a list.
fn concat_list_type(types: &[Type]) -> Option<Type> {
    if types.is_empty() || !types.iter().all(|t| matches!(t, Type::List(_))) {
        return None;
    }
    unify(types)
}

pub(crate) fn contains() -> FuncDef {
    FuncDef::new(|args| {
        let Some(Value::Array(items)) = args.get(0) else {
            return Err(FuncError::new("argument must be list, tuple, or set"));
        };
        // Typed equality, as go-cty: `contains([[]], tolist([]))` is false.
        let needle = arg(&args, 1);
        let (list_t, needle_t) = (ty(&args, 0), ty(&args, 1));
        Ok(Value::Bool(items.iter().enumerate().any(|(i, v)| {
            equal_typed(v, &elem_type(&list_t, i, v), &needle, &needle_t)
        })))
    })
    .param(Param::new("list", Type::Any))
    .param(Param::new("value", Type::Any))
    .returns(Type::Bool)
}

pub(crate) fn keys() -> FuncDef {
    FuncDef::new(|args| match args.get(0) {
        Some(Value::Object(m)) => Ok(sorted_entries(m)
            .into_iter()
            .map(|(k, _)| Value::String(k.clone()))
            .collect()),
        _ => Err(FuncError::arg(0, "must have map or object type")),
    })
    .param(Param::new("inputMap", Type::Any))
    .returns_with(|types| match types.first() {
        Some(Type::Map(_)) => Type::list(Type::String),
        _ => Type::Any,
    })
}

pub(crate) fn values() -> FuncDef {
    FuncDef::new(|args| match args.get(0) {
        Some(Value::Object(m)) => Ok(sorted_entries(m)
            .into_iter()
            .map(|(_, v)| v.clone())
            .collect()),
        _ => Err(FuncError::new(
            "values() requires a map as the first argument",
        )),
    })
    .param(Param::new("mapping", Type::Any))
    .returns_with(|types| match types.first() {
        Some(Type::Map(e)) => Type::list((**e).clone()),
        Some(Type::Object(attrs)) => {
            let mut attrs: Vec<_> = attrs.iter().collect();
            attrs.sort_by(|a, b| a.0.cmp(b.0));
            Type::Tuple(attrs.into_iter().map(|(_, t)| t.clone()).collect())
        }
        _ => Type::Any,
    })
}

pub(crate) fn merge() -> FuncDef {
    FuncDef::new(|args| {
        let mut out: Map<String, Value> = Map::new();
        let mut attrs: Map<String, Type> = Map::new();
        // As go-cty: an untyped null stops the type checks; a typed null
        // must be a map or object like any other argument.
        let mut untyped_null = false;
        for i in 0..args.len() {
            match (args.get(i), ty(&args, i)) {
                (Some(Value::Null), Type::Any) => untyped_null = true,
                (Some(Value::Null), Type::Map(_) | Type::Object(_)) => {}
                (Some(Value::Null), _) if untyped_null => {}
                (Some(Value::Object(m)), t @ (Type::Map(_) | Type::Object(_))) => {
                    for (k, v) in m {
                        attrs.insert(k.clone(), entry_type(&t, k, v));
                        out.insert(k.clone(), v.clone());
                    }
                }
                // After an untyped null go-cty checks no type and iterates
                // what it is given, its keys as strings: an empty sequence
                // adds nothing, a set of strings its elements as keys and
                // values; anything else makes it panic (an error here).
                (Some(Value::Array(items)), _) if untyped_null && items.is_empty() => {}
                (Some(Value::Array(items)), Type::Set(_))
                    if untyped_null && items.iter().all(|v| matches!(v, Value::String(_))) =>
                {
                    for v in items {
                        if let Value::String(k) = v {
                            attrs.insert(k.clone(), Type::String);
                            out.insert(k.clone(), v.clone());
                        }
                    }
                }
                (_, t) => {
                    return Err(FuncError::new(format!(
                        "arguments must be maps or objects, got \"{}\"",
                        t.friendly_name()
                    )))
                }
            }
        }
        out.sort_keys();
        let types: Vec<Type> = (0..args.len()).map(|i| ty(&args, i)).collect();
        if merge_type(&types) == Type::Any {
            args.set_result_type(object_type(attrs));
        }
        Ok(Value::Object(out))
    })
    .variadic(Param::new("maps", Type::Any).nullable())
    .returns_with(merge_type)
}

/// `merge`'s result type when all arguments are maps of one type.
fn merge_type(types: &[Type]) -> Type {
    match types.split_first() {
        Some((first, rest)) if rest.iter().all(|t| t == first) && matches!(first, Type::Map(_)) => {
            first.clone()
        }
        _ => Type::Any,
    }
}

pub(crate) fn lookup() -> FuncDef {
    FuncDef::new(|args| {
        let key = args.str(1)?;
        match (ty(&args, 0), args.get(0)) {
            (Type::Object(attrs), Some(Value::Object(m))) => {
                let (v, t) = match (m.get(key), attrs.get(key)) {
                    (Some(v), Some(t)) => (v.clone(), t.clone()),
                    (Some(v), None) => (v.clone(), Type::of(v)),
                    (None, _) => (arg(&args, 2), ty(&args, 2)),
                };
                args.set_result_type(t);
                Ok(v)
            }
            (Type::Map(elem), Some(Value::Object(m))) => {
                let (default, _) =
                    convert_typed(arg(&args, 2), &ty(&args, 2), &elem).map_err(|_| {
                        FuncError::arg(
                            2,
                            "the default value must have the same type as the map elements",
                        )
                    })?;
                Ok(m.get(key).cloned().unwrap_or(default))
            }
            _ => Err(FuncError::arg(
                0,
                "lookup() requires a map as the first argument",
            )),
        }
    })
    .param(Param::new("inputMap", Type::Any))
    .param(Param::new("key", Type::String))
    .param(Param::new("default", Type::Any))
    .returns_with(|types| match types.first() {
        Some(Type::Map(e)) => (**e).clone(),
        _ => Type::Any,
    })
}

pub(crate) fn element() -> FuncDef {
    FuncDef::new(|args| {
        let index = args.number(1)?;
        if index.is_negative() {
            return Err(FuncError::new(
                "cannot use element function with a negative index",
            ));
        }
        let t = ty(&args, 0);
        if !matches!(t, Type::List(_) | Type::Tuple(_)) {
            return Err(FuncError::new(format!(
                "cannot read elements from {}",
                t.friendly_name()
            )));
        }
        let index = whole(index).map_err(|m| FuncError::new(format!("invalid index: {m}")))?;
        let items = seq(&args, 0);
        if items.is_empty() {
            return Err(FuncError::new(
                "cannot use element function with an empty list",
            ));
        }
        let i = usize::try_from(index).unwrap_or(usize::MAX) % items.len();
        let v = items.get(i).cloned().unwrap_or_default();
        args.set_result_type(elem_type(&t, i, &v));
        Ok(v)
    })
    .param(Param::new("list", Type::Any))
    .param(Param::new("index", Type::Number))
    .returns_with(|types| match types.first() {
        Some(Type::List(e)) => (**e).clone(),
        _ => Type::Any,
    })
}

pub(crate) fn flatten() -> FuncDef {
    FuncDef::new(|args| {
        let Some(Value::Array(items)) = args.get(0) else {
            return Err(FuncError::new("can only flatten lists, sets and tuples"));
        };
        // Depth-first with an explicit stack: input depth does not reach
        // the Rust stack.
        let mut out = Vec::new();
        let mut out_types = Vec::new();
        // Each level: its elements, its type, the next position.
        let mut stack: Vec<(&[Value], Type, usize)> = vec![(items, ty(&args, 0), 0)];
        while let Some((level, t, pos)) = stack.last_mut() {
            let i = *pos;
            *pos += 1;
            match level.get(i) {
                Some(v @ Value::Array(inner)) => {
                    let inner_t = elem_type(t, i, v);
                    stack.push((inner, inner_t, 0));
                }
                Some(v) => {
                    out_types.push(elem_type(t, i, v));
                    out.push(v.clone());
                }
                None => {
                    stack.pop();
                }
            }
        }
        args.set_result_type(Type::Tuple(out_types));
        Ok(Value::Array(out))
    })
    .param(Param::new("list", Type::Any))
}

pub(crate) fn coalesce() -> FuncDef {
    FuncDef::new(|args| {
        let types: Vec<Type> = (0..args.len()).map(|i| ty(&args, i)).collect();
        let Some(target) = unify(&types) else {
            return Err(FuncError::new("all arguments must have the same type"));
        };
        for (i, t) in types.iter().enumerate() {
            let v = arg(&args, i);
            if v.is_null() {
                continue;
            }
            return convert_typed(v, t, &target)
                .map(|(v, _)| v)
                .map_err(FuncError::new);
        }
        Err(FuncError::new("no non-null arguments"))
    })
    .variadic(Param::new("vals", Type::Any).nullable())
    .returns_with(|types| unify(types).unwrap_or(Type::Any))
}

pub(crate) fn coalescelist() -> FuncDef {
    FuncDef::new(|args| {
        if args.is_empty() {
            return Err(FuncError::new("at least one argument is required"));
        }
        for i in 0..args.len() {
            if !matches!(ty(&args, i), Type::List(_) | Type::Tuple(_)) {
                return Err(FuncError::new(
                    "coalescelist arguments must be lists or tuples",
                ));
            }
        }
        for i in 0..args.len() {
            if let Some(Value::Array(items)) = args.get(i) {
                if !items.is_empty() {
                    args.set_result_type(ty(&args, i));
                    return Ok(Value::Array(items.clone()));
                }
            }
        }
        Err(FuncError::new("no non-null arguments"))
    })
    .variadic(Param::new("vals", Type::Any).nullable())
    .returns_with(|types| match types.split_first() {
        Some((first, rest)) if rest.iter().all(|t| t == first) => first.clone(),
        _ => Type::Any,
    })
}

pub(crate) fn compact() -> FuncDef {
    FuncDef::new(|args| {
        Ok(Value::Array(
            seq(&args, 0)
                .iter()
                .filter(|v| !v.is_null() && v.as_str() != Some(""))
                .cloned()
                .collect(),
        ))
    })
    .param(Param::new("list", Type::list(Type::String)))
    .returns(Type::list(Type::String))
}
