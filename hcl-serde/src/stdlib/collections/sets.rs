//! Set functions: `setproduct setunion setintersection setsubtract
//! setsymmetricdifference` (go-cty 1.12.1 `stdlib/set.go`, `collection.go`).

use super::args::{arg, seq, ty};
use crate::eval::convert::{canonical_set_typed, convert_typed, total_cmp, unify};
use crate::eval::{FuncArgs, FuncDef, FuncError, Param, Type};
use crate::Value;

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

pub(crate) fn setproduct() -> FuncDef {
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
    let elem_of = |t: &Type| match t {
        Type::Set(e) => (**e).clone(),
        _ => Type::Any,
    };
    // As go-cty, only an empty set of any type is left out of the
    // unification: `[null]` (a set of any type) with `[["a"]]` unifies to
    // any type.
    let untyped_element = (0..args.len())
        .any(|i| types.get(i).is_some_and(|t| elem_of(t) == Type::Any) && !seq(args, i).is_empty());
    let elem = if untyped_element {
        let elems: Vec<Type> = types
            .iter()
            .enumerate()
            .filter(|(i, t)| elem_of(t) != Type::Any || !seq(args, *i).is_empty())
            .map(|(_, t)| elem_of(t))
            .collect();
        unify(&elems)
    } else {
        set_elem_type(&types)
    }
    .ok_or_else(|| FuncError::new("given sets must all have compatible element types"))?;
    if elem == Type::Any {
        // Converting to a set of any type keeps each set's element type,
        // and go-cty cannot combine sets of different element types (it
        // panics: "incompatible set rules").
        if let Some(first) = types.first() {
            if let Some(other) = types.iter().find(|t| elem_of(t) != elem_of(first)) {
                return Err(FuncError::new(format!(
                    "incompatible set element types: {} and {}",
                    elem_of(first),
                    elem_of(other)
                )));
            }
        }
    }
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

pub(crate) fn setunion() -> FuncDef {
    set_operation(
        |mut a, b| {
            a.extend_from_slice(b);
            a
        },
        "first_set",
        Param::new("other_sets", Type::set(Type::Any)),
    )
}

pub(crate) fn setintersection() -> FuncDef {
    set_operation(
        |a, b| {
            let b = lookup_order(b);
            a.into_iter().filter(|v| set_has(&b, v)).collect()
        },
        "first_set",
        Param::new("other_sets", Type::set(Type::Any)),
    )
}

pub(crate) fn setsubtract() -> FuncDef {
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

pub(crate) fn setsymmetricdifference() -> FuncDef {
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
