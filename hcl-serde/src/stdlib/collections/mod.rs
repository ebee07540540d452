//! The collection functions: `length concat contains keys values merge
//! lookup element flatten coalesce coalescelist compact distinct reverse
//! sort range chunklist slice zipmap setproduct setunion setintersection
//! setsubtract setsymmetricdifference` (go-cty 1.12.1
//! `stdlib/collection.go`, `sequence.go`, `set.go`, `general.go`).
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

use super::numeric::whole;
use crate::eval::convert::{canonical_set_typed, convert_typed, equal_typed, total_cmp, unify};
use crate::eval::{FuncArgs, FuncDef, FuncError, Param, Type};
use crate::{Map, Number, Value};
use std::cmp::Ordering;

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

/// The type of argument `i` (its implied type if unknown).
fn ty(args: &FuncArgs<'_>, i: usize) -> Type {
    match args.arg_type(i) {
        Some(t) => t.clone(),
        None => args.get(i).map_or(Type::Any, Type::of),
    }
}

/// Argument `i`'s elements, if it is a sequence (list, set, tuple).
fn seq<'a>(args: &'a FuncArgs<'_>, i: usize) -> &'a [Value] {
    args.get(i)
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

fn arg(args: &FuncArgs<'_>, i: usize) -> Value {
    args.get(i).cloned().unwrap_or_default()
}

/// The type of element `i` of `v`, a sequence of type `t`.
fn elem_type(t: &Type, i: usize, v: &Value) -> Type {
    match t {
        Type::Tuple(ts) => ts.get(i).cloned().unwrap_or_else(|| Type::of(v)),
        Type::List(e) | Type::Set(e) => (**e).clone(),
        _ => Type::of(v),
    }
}

/// The type of entry `key` of `v`, a map or object of type `t`.
fn entry_type(t: &Type, key: &str, v: &Value) -> Type {
    match t {
        Type::Object(attrs) => attrs.get(key).cloned().unwrap_or_else(|| Type::of(v)),
        Type::Map(e) => (**e).clone(),
        _ => Type::of(v),
    }
}

/// An object type from attribute types, keys sorted as [`Type::of`] does.
fn object_type(mut attrs: Map<String, Type>) -> Type {
    attrs.sort_keys();
    Type::Object(attrs)
}

/// An object's entries sorted bytewise by key, as the reference iterates
/// maps and objects.
fn sorted_entries(m: &Map<String, Value>) -> Vec<(&String, &Value)> {
    let mut entries: Vec<_> = m.iter().collect();
    entries.sort_by(|a, b| a.0.cmp(b.0));
    entries
}

/// `length(collection)`: the number of elements of a list, tuple, set or
/// map. Strings and objects are rejected, as go-cty 1.12.1 does.
///
/// ```
/// use hcl::{eval::eval_expr_str, Context, Value};
/// let ctx = Context::with_stdlib();
/// assert_eq!(eval_expr_str("length([1, 2, 3])", &ctx)?, Value::from(3));
/// assert_eq!(eval_expr_str("length(toset([1, 1]))", &ctx)?, Value::from(1));
/// assert_eq!(eval_expr_str("length(tomap({a = 1}))", &ctx)?, Value::from(1));
/// assert!(eval_expr_str(r#"length("abc")"#, &ctx).is_err());
/// # Ok::<(), hcl::Error>(())
/// ```
pub fn length() -> FuncDef {
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

/// `concat(seqs...)`: the elements of lists and tuples, one after the
/// other. All lists give a list of their unified element type; otherwise
/// the result is a tuple.
///
/// ```
/// use hcl::{eval::eval_expr_str, Context, Value};
/// let ctx = Context::with_stdlib();
/// assert_eq!(
///     eval_expr_str(r#"concat(["a"], [1, true])"#, &ctx)?,
///     eval_expr_str(r#"["a", 1, true]"#, &ctx)?,
/// );
/// assert!(eval_expr_str(r#"concat([1], "a")"#, &ctx).is_err());
/// # Ok::<(), hcl::Error>(())
/// ```
pub fn concat() -> FuncDef {
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

/// `contains(list, value)`: whether a list, tuple or set has an element
/// equal to `value` (same type and value: `1` is not `"1"`).
///
/// ```
/// use hcl::{eval::eval_expr_str, Context, Value};
/// let ctx = Context::with_stdlib();
/// assert_eq!(eval_expr_str(r#"contains(["a", "b"], "b")"#, &ctx)?, Value::from(true));
/// assert_eq!(eval_expr_str(r#"contains([1, 2], "1")"#, &ctx)?, Value::from(false));
/// # Ok::<(), hcl::Error>(())
/// ```
pub fn contains() -> FuncDef {
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

/// `keys(inputMap)`: the keys of a map or object, sorted bytewise (a list
/// for a map, a tuple for an object).
///
/// ```
/// use hcl::{eval::eval_expr_str, Context, Value};
/// let ctx = Context::with_stdlib();
/// assert_eq!(eval_expr_str("keys({b = 1, a = 2})", &ctx)?, Value::from(vec!["a", "b"]));
/// # Ok::<(), hcl::Error>(())
/// ```
pub fn keys() -> FuncDef {
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

/// `values(mapping)`: the values of a map or object, in the bytewise
/// order of their keys.
///
/// ```
/// use hcl::{eval::eval_expr_str, Context, Value};
/// let ctx = Context::with_stdlib();
/// assert_eq!(
///     eval_expr_str(r#"values({b = 1, a = "x"})"#, &ctx)?,
///     eval_expr_str(r#"["x", 1]"#, &ctx)?,
/// );
/// # Ok::<(), hcl::Error>(())
/// ```
pub fn values() -> FuncDef {
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

/// `merge(maps...)`: the entries of maps and objects, later ones winning;
/// `null` arguments are skipped. Maps of one type give a map; anything
/// else an object.
///
/// ```
/// use hcl::{eval::eval_expr_str, Context, Value};
/// let ctx = Context::with_stdlib();
/// assert_eq!(
///     eval_expr_str(r#"merge({a = 1, b = 2}, null, {b = "x"})"#, &ctx)?,
///     eval_expr_str(r#"{a = 1, b = "x"}"#, &ctx)?,
/// );
/// # Ok::<(), hcl::Error>(())
/// ```
pub fn merge() -> FuncDef {
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

/// `lookup(inputMap, key, default)`: the element of a map or attribute of
/// an object named `key`, or `default` when there is none. For a map,
/// `default` must convert to the map's element type.
///
/// ```
/// use hcl::{eval::eval_expr_str, Context, Value};
/// let ctx = Context::with_stdlib();
/// assert_eq!(eval_expr_str(r#"lookup({a = "x"}, "a", "none")"#, &ctx)?, Value::from("x"));
/// assert_eq!(eval_expr_str(r#"lookup({a = "x"}, "b", "none")"#, &ctx)?, Value::from("none"));
/// # Ok::<(), hcl::Error>(())
/// ```
pub fn lookup() -> FuncDef {
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

/// `element(list, index)`: the element at `index` of a list or tuple,
/// wrapping around (`index` modulo the length). Negative or fractional
/// indexes and empty lists are errors; sets have no order to index.
///
/// ```
/// use hcl::{eval::eval_expr_str, Context, Value};
/// let ctx = Context::with_stdlib();
/// assert_eq!(eval_expr_str(r#"element(["a", "b", "c"], 4)"#, &ctx)?, Value::from("b"));
/// assert!(eval_expr_str("element([], 0)", &ctx).is_err());
/// # Ok::<(), hcl::Error>(())
/// ```
pub fn element() -> FuncDef {
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

/// `flatten(list)`: the elements of nested lists, sets and tuples, in one
/// tuple. Other values (`null`, objects, maps) stay as they are.
///
/// ```
/// use hcl::{eval::eval_expr_str, Context, Value};
/// let ctx = Context::with_stdlib();
/// assert_eq!(
///     eval_expr_str(r#"flatten([["a", "b"], [], ["c", ["d"]]])"#, &ctx)?,
///     Value::from(vec!["a", "b", "c", "d"]),
/// );
/// # Ok::<(), hcl::Error>(())
/// ```
pub fn flatten() -> FuncDef {
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

/// `coalesce(vals...)`: the first argument that is not `null`, converted
/// to the type all arguments unify to (`coalesce(1, "a")` is `"1"`).
/// Empty strings and collections are not skipped.
///
/// ```
/// use hcl::{eval::eval_expr_str, Context, Value};
/// let ctx = Context::with_stdlib();
/// assert_eq!(eval_expr_str(r#"coalesce(null, "", "b")"#, &ctx)?, Value::from(""));
/// assert_eq!(eval_expr_str(r#"coalesce(null, 1, "a")"#, &ctx)?, Value::from("1"));
/// assert!(eval_expr_str("coalesce(null, null)", &ctx).is_err());
/// # Ok::<(), hcl::Error>(())
/// ```
pub fn coalesce() -> FuncDef {
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

/// `coalescelist(vals...)`: the first list or tuple argument that is not
/// empty.
///
/// ```
/// use hcl::{eval::eval_expr_str, Context, Value};
/// let ctx = Context::with_stdlib();
/// assert_eq!(
///     eval_expr_str(r#"coalescelist([], ["a", "b"])"#, &ctx)?,
///     Value::from(vec!["a", "b"]),
/// );
/// # Ok::<(), hcl::Error>(())
/// ```
pub fn coalescelist() -> FuncDef {
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

/// `compact(list)`: a list of strings without its empty strings and
/// nulls.
///
/// ```
/// use hcl::{eval::eval_expr_str, Context, Value};
/// let ctx = Context::with_stdlib();
/// assert_eq!(
///     eval_expr_str(r#"compact(["a", "", null, "b"])"#, &ctx)?,
///     Value::from(vec!["a", "b"]),
/// );
/// # Ok::<(), hcl::Error>(())
/// ```
pub fn compact() -> FuncDef {
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

/// `distinct(list)`: a list without its repeated elements, keeping the
/// first occurrence of each. A tuple is first converted to a list (its
/// elements to one type).
///
/// ```
/// use hcl::{eval::eval_expr_str, Context, Value};
/// let ctx = Context::with_stdlib();
/// assert_eq!(
///     eval_expr_str(r#"distinct(["a", "b", "a", "c"])"#, &ctx)?,
///     Value::from(vec!["a", "b", "c"]),
/// );
/// # Ok::<(), hcl::Error>(())
/// ```
pub fn distinct() -> FuncDef {
    FuncDef::new(|args| {
        let items = seq(&args, 0);
        // Sort the positions by value (stable: the first of equal values
        // comes first), mark the later duplicates: O(n log n).
        let mut order: Vec<usize> = (0..items.len()).collect();
        order.sort_by(|&a, &b| match (items.get(a), items.get(b)) {
            (Some(x), Some(y)) => total_cmp(x, y),
            _ => Ordering::Equal,
        });
        let mut keep = vec![true; items.len()];
        for w in order.windows(2) {
            if let [a, b] = *w {
                if items.get(a) == items.get(b) {
                    if let Some(k) = keep.get_mut(b) {
                        *k = false;
                    }
                }
            }
        }
        Ok(Value::Array(
            items
                .iter()
                .zip(keep)
                .filter(|(_, k)| *k)
                .map(|(v, _)| v.clone())
                .collect(),
        ))
    })
    .param(Param::new("list", Type::list(Type::Any)))
    .returns_with(|types| types.first().cloned().unwrap_or(Type::Any))
}

/// `reverse(list)`: the elements of a list, tuple or set in reverse order
/// (a set gives a list).
///
/// ```
/// use hcl::{eval::eval_expr_str, Context, Value};
/// let ctx = Context::with_stdlib();
/// assert_eq!(eval_expr_str("reverse([1, 2, 3])", &ctx)?, Value::from(vec![3, 2, 1]));
/// # Ok::<(), hcl::Error>(())
/// ```
pub fn reverse() -> FuncDef {
    FuncDef::new(|args| match ty(&args, 0) {
        Type::List(_) | Type::Set(_) | Type::Tuple(_) => {
            Ok(Value::Array(seq(&args, 0).iter().rev().cloned().collect()))
        }
        t => Err(FuncError::arg(
            0,
            format!(
                "can only reverse list or tuple values, not {}",
                t.friendly_name()
            ),
        )),
    })
    .param(Param::new("list", Type::Any))
    .returns_with(|types| match types.first() {
        Some(Type::List(e) | Type::Set(e)) => Type::list((**e).clone()),
        Some(Type::Tuple(ts)) => Type::Tuple(ts.iter().rev().cloned().collect()),
        _ => Type::Any,
    })
}

/// `sort(list)`: a list of strings in lexicographic (bytewise) order.
/// Numbers convert to strings first, so `sort([3, 20, 1])` is
/// `["1", "20", "3"]`.
///
/// ```
/// use hcl::{eval::eval_expr_str, Context, Value};
/// let ctx = Context::with_stdlib();
/// assert_eq!(
///     eval_expr_str(r#"sort(["b", "a", "B"])"#, &ctx)?,
///     Value::from(vec!["B", "a", "b"]),
/// );
/// # Ok::<(), hcl::Error>(())
/// ```
pub fn sort() -> FuncDef {
    FuncDef::new(|args| {
        let mut strings = Vec::with_capacity(seq(&args, 0).len());
        for (i, v) in seq(&args, 0).iter().enumerate() {
            match v {
                Value::String(s) => strings.push(s.as_str()),
                _ => {
                    return Err(FuncError::new(format!(
                        "given list element {i} is null; a null string cannot be sorted"
                    )))
                }
            }
        }
        strings.sort_unstable();
        Ok(strings.into_iter().map(Value::from).collect())
    })
    .param(Param::new("list", Type::list(Type::String)))
    .returns(Type::list(Type::String))
}

/// The most values `range` generates, as the reference.
const RANGE_LIMIT: usize = 1024;

/// `range(end)`, `range(start, end)`, `range(start, end, step)`: a list of
/// numbers from `start` (default 0) up to but not including `end`, by
/// `step` (default 1, or -1 when `end` is below `start`). At most 1024
/// values, as the reference.
///
/// ```
/// use hcl::{eval::eval_expr_str, Context, Value};
/// let ctx = Context::with_stdlib();
/// assert_eq!(eval_expr_str("range(3)", &ctx)?, Value::from(vec![0, 1, 2]));
/// assert_eq!(eval_expr_str("range(4, 1)", &ctx)?, Value::from(vec![4, 3, 2]));
/// assert_eq!(
///     eval_expr_str("range(0, 1, 0.25)", &ctx)?,
///     eval_expr_str("[0, 0.25, 0.5, 0.75]", &ctx)?,
/// );
/// assert!(eval_expr_str("range(2000)", &ctx).is_err());
/// # Ok::<(), hcl::Error>(())
/// ```
pub fn range() -> FuncDef {
    FuncDef::new(|args| {
        let zero = Number::from(0);
        let (start, end, step) = match args.len() {
            1 => {
                let end = args.number(0)?.clone();
                let step = if end < zero { -1 } else { 1 };
                (zero.clone(), end, Number::from(step))
            }
            2 => {
                let (start, end) = (args.number(0)?.clone(), args.number(1)?.clone());
                let step = if end < start { -1 } else { 1 };
                (start, end, Number::from(step))
            }
            3 => (
                args.number(0)?.clone(),
                args.number(1)?.clone(),
                args.number(2)?.clone(),
            ),
            _ => return Err(FuncError::new("must have one, two, or three arguments")),
        };
        let down = step < zero;
        if down && end > start {
            return Err(FuncError::arg(
                1,
                "end must be less than start when step is negative",
            ));
        }
        if !down && end < start {
            return Err(FuncError::arg(
                1,
                "end must be greater than start when step is positive",
            ));
        }
        // A zero step loops until the limit, as the reference does (its
        // zero check never matches).
        let mut out = Vec::new();
        let mut n = start;
        while (down && n > end) || (!down && n < end) {
            if out.len() >= RANGE_LIMIT {
                return Err(FuncError::new(
                    "more than 1024 values were generated; either decrease the difference between start and end or use a smaller step",
                ));
            }
            out.push(Value::Number(n.clone()));
            n = n
                .checked_add(&step)
                .map_err(|e| FuncError::new(e.to_string()))?;
        }
        Ok(Value::Array(out))
    })
    .variadic(Param::new("params", Type::Number))
    .returns(Type::list(Type::Number))
}

/// `chunklist(list, size)`: the list cut into lists of `size` elements
/// (the last may be shorter); a size of 0 gives the whole list as one
/// chunk.
///
/// ```
/// use hcl::{eval::eval_expr_str, Context, Value};
/// let ctx = Context::with_stdlib();
/// assert_eq!(
///     eval_expr_str(r#"chunklist(["a", "b", "c"], 2)"#, &ctx)?,
///     eval_expr_str(r#"[["a", "b"], ["c"]]"#, &ctx)?,
/// );
/// # Ok::<(), hcl::Error>(())
/// ```
pub fn chunklist() -> FuncDef {
    FuncDef::new(|args| {
        let size =
            whole(args.number(1)?).map_err(|m| FuncError::new(format!("invalid size: {m}")))?;
        if size < 0 {
            return Err(FuncError::new("the size argument must be positive"));
        }
        let items = seq(&args, 0);
        if items.is_empty() {
            return Ok(Value::Array(Vec::new()));
        }
        let size = usize::try_from(size).unwrap_or(usize::MAX);
        if size == 0 {
            return Ok(Value::Array(vec![Value::Array(items.to_vec())]));
        }
        Ok(Value::Array(
            items
                .chunks(size)
                .map(|c| Value::Array(c.to_vec()))
                .collect(),
        ))
    })
    .param(Param::new("list", Type::list(Type::Any)))
    .param(Param::new("size", Type::Number))
    .returns_with(|types| Type::list(types.first().cloned().unwrap_or(Type::Any)))
}

/// `slice(list, start_index, end_index)`: the elements from `start_index`
/// up to but not including `end_index`.
///
/// ```
/// use hcl::{eval::eval_expr_str, Context, Value};
/// let ctx = Context::with_stdlib();
/// assert_eq!(
///     eval_expr_str(r#"slice(["a", "b", "c", "d"], 1, 3)"#, &ctx)?,
///     Value::from(vec!["b", "c"]),
/// );
/// assert!(eval_expr_str("slice([1, 2], 0, 3)", &ctx).is_err());
/// # Ok::<(), hcl::Error>(())
/// ```
pub fn slice() -> FuncDef {
    FuncDef::new(|args| {
        match ty(&args, 0) {
            Type::Set(_) => return Err(FuncError::arg(
                0,
                "cannot slice a set, because its elements do not have indices; explicitly convert to a list if the ordering of the result is not important",
            )),
            Type::List(_) | Type::Tuple(_) => {}
            _ => return Err(FuncError::arg(0, "must be a list or tuple value")),
        }
        let items = seq(&args, 0);
        let len = i64::try_from(items.len()).unwrap_or(i64::MAX);
        let index = |i: usize, what: &str| -> Result<i64, FuncError> {
            let n = whole(args.number(i)?)
                .map_err(|m| FuncError::arg(i, format!("invalid {what} index: {m}")))?;
            if n < 0 {
                return Err(FuncError::arg(
                    i,
                    format!("{what} index must not be less than zero"),
                ));
            }
            if n > len {
                return Err(FuncError::arg(
                    i,
                    format!("{what} index must not be greater than the length of the list"),
                ));
            }
            Ok(n)
        };
        let start = index(1, "start")?;
        let end = index(2, "end")?;
        if start > end {
            return Err(FuncError::arg(
                1,
                "start index must not be greater than end index",
            ));
        }
        let (start, end) = (
            usize::try_from(start).unwrap_or(0),
            usize::try_from(end).unwrap_or(0),
        );
        let out = items.get(start..end).map(<[Value]>::to_vec).unwrap_or_default();
        if let Type::Tuple(ts) = ty(&args, 0) {
            args.set_result_type(Type::Tuple(
                ts.get(start..end).map(<[Type]>::to_vec).unwrap_or_default(),
            ));
        }
        Ok(Value::Array(out))
    })
    .param(Param::new("list", Type::Any))
    .param(Param::new("start_index", Type::Number))
    .param(Param::new("end_index", Type::Number))
    .returns_with(|types| match types.first() {
        Some(t @ Type::List(_)) => t.clone(),
        _ => Type::Any,
    })
}

/// `zipmap(keys, values)`: an object (or, for a list of values, a map)
/// with the keys from the first list and the values from the second, by
/// position. A repeated key keeps its last value.
///
/// ```
/// use hcl::{eval::eval_expr_str, Context, Value};
/// let ctx = Context::with_stdlib();
/// assert_eq!(
///     eval_expr_str(r#"zipmap(["a", "b"], [1, 2])"#, &ctx)?,
///     eval_expr_str("{a = 1, b = 2}", &ctx)?,
/// );
/// # Ok::<(), hcl::Error>(())
/// ```
pub fn zipmap() -> FuncDef {
    FuncDef::new(|args| {
        let is_tuple = match ty(&args, 1) {
            Type::Tuple(_) => true,
            Type::List(_) => false,
            _ => {
                return Err(FuncError::new(
                    "values argument must be a list or tuple value",
                ))
            }
        };
        let keys = seq(&args, 0);
        let vals = seq(&args, 1);
        if keys.len() != vals.len() {
            return Err(FuncError::new(format!(
                "number of keys ({}) does not match number of values ({})",
                keys.len(),
                vals.len()
            )));
        }
        let vals_t = ty(&args, 1);
        let mut out = Map::with_capacity(keys.len());
        let mut attrs = Map::with_capacity(keys.len());
        for (i, (k, v)) in keys.iter().zip(vals).enumerate() {
            let Value::String(k) = k else {
                return Err(FuncError::new(if is_tuple {
                    format!("keys list has null value at index {i}")
                } else {
                    format!("key {i} is null")
                }));
            };
            attrs.insert(k.clone(), elem_type(&vals_t, i, v));
            out.insert(k.clone(), v.clone());
        }
        out.sort_keys();
        if is_tuple {
            args.set_result_type(object_type(attrs));
        }
        Ok(Value::Object(out))
    })
    .param(Param::new("keys", Type::list(Type::String)))
    .param(Param::new("values", Type::Any))
    .returns_with(|types| match types.get(1) {
        Some(Type::List(e)) => Type::map((**e).clone()),
        _ => Type::Any,
    })
}

/// The element type of each `setproduct` argument, and whether all are
/// lists or tuples (the result is then a list, otherwise a set).
fn setproduct_types(types: &[Type]) -> Result<(Vec<Type>, bool), FuncError> {
    let mut elems = Vec::with_capacity(types.len());
    let mut all_lists = true;
    for (i, t) in types.iter().enumerate() {
        match t {
            Type::Set(e) => {
                all_lists = false;
                elems.push((**e).clone());
            }
            Type::List(e) => elems.push((**e).clone()),
            Type::Tuple(ts) if ts.is_empty() => elems.push(Type::Any),
            Type::Tuple(ts) => elems.push(
                unify(ts)
                    .ok_or_else(|| FuncError::arg(i, "all elements must be of the same type"))?,
            ),
            _ => return Err(FuncError::arg(i, "a set or a list is required")),
        }
    }
    Ok((elems, all_lists))
}

/// `setproduct(sets...)`: every combination of one element from each
/// argument, as tuples (the Cartesian product). A list when every argument
/// is a list or tuple, a set otherwise.
///
/// ```
/// use hcl::{eval::eval_expr_str, Context, Value};
/// let ctx = Context::with_stdlib();
/// assert_eq!(
///     eval_expr_str(r#"setproduct(["a", "b"], [1, 2])"#, &ctx)?,
///     eval_expr_str(r#"[["a", 1], ["a", 2], ["b", 1], ["b", 2]]"#, &ctx)?,
/// );
/// # Ok::<(), hcl::Error>(())
/// ```
pub fn setproduct() -> FuncDef {
    FuncDef::new(|args| {
        if args.len() < 2 {
            return Err(FuncError::new("at least two arguments are required"));
        }
        let types: Vec<Type> = (0..args.len()).map(|i| ty(&args, i)).collect();
        let (elems, _) = setproduct_types(&types)?;
        // Each argument's elements, converted to its element type.
        let mut columns: Vec<Vec<Value>> = Vec::with_capacity(args.len());
        let mut total: usize = 1;
        for (i, e) in elems.iter().enumerate() {
            let mut col = Vec::with_capacity(seq(&args, i).len());
            let from = match types.get(i) {
                Some(Type::Tuple(ts)) => ts.clone(),
                _ => vec![e.clone(); seq(&args, i).len()],
            };
            for (v, f) in seq(&args, i).iter().zip(&from) {
                let (v, _) = convert_typed(v.clone(), f, e).map_err(|m| FuncError::arg(i, m))?;
                col.push(v);
            }
            total = total.saturating_mul(col.len());
            columns.push(col);
        }
        let limit = args.options().max_collection_len();
        if total > limit {
            return Err(FuncError::new(format!(
                "the product has {total} elements, more than the limit of {limit}"
            )));
        }
        let mut out = Vec::with_capacity(total);
        if total == 0 {
            return Ok(Value::Array(out));
        }
        let mut idx = vec![0usize; columns.len()];
        for _ in 0..total {
            out.push(Value::Array(
                columns
                    .iter()
                    .zip(&idx)
                    .map(|(c, &j)| c.get(j).cloned().unwrap_or_default())
                    .collect(),
            ));
            for (j, col) in idx.iter_mut().zip(&columns).rev() {
                *j += 1;
                if *j < col.len() {
                    break;
                }
                *j = 0;
            }
        }
        Ok(Value::Array(out))
    })
    .variadic(Param::new("sets", Type::Any))
    .returns_with(|types| match setproduct_types(types) {
        Ok((elems, true)) => Type::list(Type::Tuple(elems)),
        Ok((elems, false)) => Type::set(Type::Tuple(elems)),
        Err(_) => Type::Any,
    })
}

/// The element type of the result of a set operation: the unified element
/// types of the arguments (empty untyped sets left out).
fn set_elem_type(types: &[Type]) -> Option<Type> {
    let elems: Vec<Type> = types
        .iter()
        .filter_map(|t| match t {
            Type::Set(e) if **e != Type::Any => Some((**e).clone()),
            _ => None,
        })
        .collect();
    if elems.is_empty() {
        return Some(Type::Any);
    }
    unify(&elems)
}

/// The arguments of a set operation, each converted to a set of the
/// common element type (without duplicates), and that element type.
fn set_args(args: &FuncArgs<'_>) -> Result<(Vec<Vec<Value>>, Type), FuncError> {
    let types: Vec<Type> = (0..args.len()).map(|i| ty(args, i)).collect();
    let elem = set_elem_type(&types)
        .ok_or_else(|| FuncError::new("given sets must all have compatible element types"))?;
    let target = Type::set(elem.clone());
    let mut sets = Vec::with_capacity(types.len());
    for (i, t) in types.iter().enumerate() {
        let (v, _) = convert_typed(arg(args, i), t, &target).map_err(|m| FuncError::arg(i, m))?;
        let mut items = match v {
            Value::Array(items) => items,
            _ => Vec::new(),
        };
        canonical_set_typed(&mut items, &elem);
        sets.push(items);
    }
    Ok((sets, elem))
}

/// A set's elements sorted for [`set_has`].
fn lookup_order(set: &[Value]) -> Vec<&Value> {
    let mut sorted: Vec<&Value> = set.iter().collect();
    sorted.sort_by(|a, b| total_cmp(a, b));
    sorted
}

/// Whether `v` is in `sorted` (from [`lookup_order`]).
fn set_has(sorted: &[&Value], v: &Value) -> bool {
    sorted.binary_search_by(|x| total_cmp(x, v)).is_ok()
}

/// Declares a set operation: a first set and more sets.
fn set_operation(f: fn(Vec<Value>, &[Value]) -> Vec<Value>, first: &str, rest: Param) -> FuncDef {
    FuncDef::new(move |args| {
        let (sets, elem) = set_args(&args)?;
        let mut sets = sets.into_iter();
        let mut acc = sets.next().unwrap_or_default();
        for s in sets {
            acc = f(acc, &s);
        }
        canonical_set_typed(&mut acc, &elem);
        Ok(Value::Array(acc))
    })
    .param(Param::new(first, Type::set(Type::Any)))
    .variadic(rest)
    .returns_with(|types| Type::set(set_elem_type(types).unwrap_or(Type::Any)))
}

/// `setunion(first_set, other_sets...)`: the elements that are in any of
/// the sets. Lists and tuples convert to sets.
///
/// ```
/// use hcl::{eval::eval_expr_str, Context, Value};
/// let ctx = Context::with_stdlib();
/// assert_eq!(
///     eval_expr_str(r#"setunion(["a", "b"], ["b", "c"])"#, &ctx)?,
///     Value::from(vec!["a", "b", "c"]),
/// );
/// # Ok::<(), hcl::Error>(())
/// ```
pub fn setunion() -> FuncDef {
    set_operation(
        |mut a, b| {
            a.extend_from_slice(b);
            a
        },
        "first_set",
        Param::new("other_sets", Type::set(Type::Any)),
    )
}

/// `setintersection(first_set, other_sets...)`: the elements that are in
/// every set.
///
/// ```
/// use hcl::{eval::eval_expr_str, Context, Value};
/// let ctx = Context::with_stdlib();
/// assert_eq!(
///     eval_expr_str(r#"setintersection(["a", "b"], ["b", "c"])"#, &ctx)?,
///     Value::from(vec!["b"]),
/// );
/// # Ok::<(), hcl::Error>(())
/// ```
pub fn setintersection() -> FuncDef {
    set_operation(
        |a, b| {
            let b = lookup_order(b);
            a.into_iter().filter(|v| set_has(&b, v)).collect()
        },
        "first_set",
        Param::new("other_sets", Type::set(Type::Any)),
    )
}

/// `setsubtract(a, b)`: the elements of `a` that are not in `b`.
///
/// ```
/// use hcl::{eval::eval_expr_str, Context, Value};
/// let ctx = Context::with_stdlib();
/// assert_eq!(
///     eval_expr_str(r#"setsubtract(["a", "b", "c"], ["a", "c"])"#, &ctx)?,
///     Value::from(vec!["b"]),
/// );
/// # Ok::<(), hcl::Error>(())
/// ```
pub fn setsubtract() -> FuncDef {
    FuncDef::new(|args| {
        let (sets, _) = set_args(&args)?;
        let (Some(a), Some(b)) = (sets.first(), sets.get(1)) else {
            return Ok(Value::Array(Vec::new()));
        };
        let b = lookup_order(b);
        Ok(Value::Array(
            a.iter().filter(|v| !set_has(&b, v)).cloned().collect(),
        ))
    })
    .param(Param::new("a", Type::set(Type::Any)))
    .param(Param::new("b", Type::set(Type::Any)))
    .returns_with(|types| Type::set(set_elem_type(types).unwrap_or(Type::Any)))
}

/// `setsymmetricdifference(first_set, other_sets...)`: the elements that
/// are in an odd number of the sets (for two sets: in exactly one).
///
/// ```
/// use hcl::{eval::eval_expr_str, Context, Value};
/// let ctx = Context::with_stdlib();
/// assert_eq!(
///     eval_expr_str("setsymmetricdifference([1, 2], [2, 3])", &ctx)?,
///     Value::from(vec![1, 3]),
/// );
/// # Ok::<(), hcl::Error>(())
/// ```
pub fn setsymmetricdifference() -> FuncDef {
    set_operation(
        |a, b| {
            let (sa, sb) = (lookup_order(&a), lookup_order(b));
            let mut out: Vec<Value> = a.iter().filter(|v| !set_has(&sb, v)).cloned().collect();
            out.extend(b.iter().filter(|v| !set_has(&sa, v)).cloned());
            out
        },
        "first_set",
        Param::new("other_sets", Type::set(Type::Any)),
    )
}
