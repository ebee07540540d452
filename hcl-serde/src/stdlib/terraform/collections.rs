//! Terraform's collection functions: `alltrue anytrue coalesce index
//! length lookup matchkeys one sum transpose list map`, and `sensitive`,
//! `nonsensitive` (Terraform's `funcs/collection.go`, `sensitive.go`).

use super::super::graphemes::graphemes;
use super::super::Table;
use crate::eval::convert::{convert_typed, unify};
use crate::eval::{FuncArgs, FuncDef, FuncError, Param, Type};
use crate::{Map, Number, Value};

/// This family's functions.
pub(super) const COLLECTIONS: Table = &[
    ("alltrue", alltrue),
    ("anytrue", anytrue),
    ("coalesce", coalesce),
    ("index", index),
    ("length", length),
    ("lookup", lookup),
    ("matchkeys", matchkeys),
    ("one", one),
    ("sum", sum),
    ("transpose", transpose),
    ("list", list),
    ("map", map),
    ("sensitive", sensitive),
    ("nonsensitive", nonsensitive),
];

/// The type of argument `i`.
fn ty(args: &FuncArgs<'_>, i: usize) -> Type {
    match args.arg_type(i) {
        Some(t) => t.clone(),
        None => args.get(i).map_or(Type::Any, Type::of),
    }
}

fn arg(args: &FuncArgs<'_>, i: usize) -> Value {
    args.get(i).cloned().unwrap_or_default()
}

/// `alltrue(list)`: whether every element is `true` (`null` is false).
pub(super) fn alltrue() -> FuncDef {
    FuncDef::new(|args| {
        let all = args.array(0)?.iter().all(|v| v.as_bool() == Some(true));
        Ok(Value::Bool(all))
    })
    .param(Param::new("list", Type::list(Type::Bool)))
    .returns(Type::Bool)
}

/// `anytrue(list)`: whether some element is `true`.
pub(super) fn anytrue() -> FuncDef {
    FuncDef::new(|args| {
        let any = args.array(0)?.iter().any(|v| v.as_bool() == Some(true));
        Ok(Value::Bool(any))
    })
    .param(Param::new("list", Type::list(Type::Bool)))
    .returns(Type::Bool)
}

/// `coalesce(vals...)`: the first argument that is neither `null` nor an
/// empty string, converted to the type all arguments unify to.
pub(super) fn coalesce() -> FuncDef {
    FuncDef::new(|args| {
        let types: Vec<Type> = (0..args.len()).map(|i| ty(&args, i)).collect();
        let target = coalesce_type(&types)
            .ok_or_else(|| FuncError::new("all arguments must have the same type"))?;
        for (i, t) in types.iter().enumerate() {
            let v = arg(&args, i);
            if v.is_null() {
                continue;
            }
            if target == Type::Any {
                args.set_result_type(t.clone());
            }
            let (v, _) = convert_typed(v, t, &target).map_err(FuncError::new)?;
            if v.as_str() == Some("") {
                continue;
            }
            return Ok(v);
        }
        Err(FuncError::new("no non-null, non-empty-string arguments"))
    })
    .variadic(Param::new("vals", Type::Any).nullable())
    .returns_with(|types| coalesce_type(types).unwrap_or(Type::Any))
}

/// The type `coalesce`'s arguments unify to: beside an untyped `null` (of
/// go-cty's dynamic type, to which every type converts), types that do
/// not unify give `any`, each value keeping its own, as go-cty's unsafe
/// unification does; without one they are an error (`coalesce([true],
/// [1])`, tuples of kinds that do not unify, as Terraform refuses them).
fn coalesce_type(types: &[Type]) -> Option<Type> {
    unify(types).or_else(|| types.contains(&Type::Any).then_some(Type::Any))
}

/// Whether two values of types `ta`, `tb` are equal as go-cty's `Equals`
/// decides: values of different primitive types never are.
fn typed_equal(a: &Value, ta: &Type, b: &Value, tb: &Type) -> bool {
    let prim = |t: &Type| matches!(t, Type::Bool | Type::Number | Type::String);
    if (prim(ta) || prim(tb)) && ta != tb && *ta != Type::Any && *tb != Type::Any {
        return false;
    }
    a == b
}

/// `index(list, value)`: the index of the first element equal to `value`.
pub(super) fn index() -> FuncDef {
    FuncDef::new(|args| {
        let t = ty(&args, 0);
        let elems = match (&t, args.get(0)) {
            (Type::List(_) | Type::Tuple(_), Some(Value::Array(a))) => a,
            _ => return Err(FuncError::arg(0, "argument must be a list or tuple")),
        };
        if elems.is_empty() {
            return Err(FuncError::arg(0, "cannot search an empty list"));
        }
        let v = arg(&args, 1);
        let tv = ty(&args, 1);
        for (i, e) in elems.iter().enumerate() {
            let te = match &t {
                Type::List(e) => (**e).clone(),
                Type::Tuple(ts) => ts.get(i).cloned().unwrap_or(Type::Any),
                _ => Type::Any,
            };
            if typed_equal(e, &te, &v, &tv) {
                return Ok(Value::from(i));
            }
        }
        Err(FuncError::new("item not found"))
    })
    .param(Param::new("list", Type::Any))
    .param(Param::new("value", Type::Any))
    .returns(Type::Number)
}

/// `length(value)`: elements of a list, tuple, set or map, attributes of
/// an object, characters (grapheme clusters) of a string.
pub(super) fn length() -> FuncDef {
    FuncDef::new(|args| {
        let n = match args.get(0) {
            Some(Value::Array(a)) => a.len(),
            Some(Value::Object(o)) => o.len(),
            Some(Value::String(s)) => graphemes(s).count(),
            _ => {
                return Err(FuncError::arg(
                    0,
                    "argument must be a string, a collection type, or a structural type",
                ))
            }
        };
        Ok(Value::from(n))
    })
    .param(Param::new("value", Type::Any))
    .returns(Type::Number)
}

/// `lookup(map, key[, default])`: a map element or object attribute, or
/// `default`; without a default a missing key is an error.
pub(super) fn lookup() -> FuncDef {
    FuncDef::new(|args| {
        if args.len() > 3 {
            return Err(FuncError::new(format!(
                "lookup() takes two or three arguments, got {}",
                args.len()
            )));
        }
        let key = args.str(1)?;
        let has_default = args.len() == 3;
        match (ty(&args, 0), args.get(0)) {
            (Type::Object(attrs), Some(Value::Object(m))) => {
                if let Some(v) = m.get(key) {
                    let t = attrs.get(key).cloned().unwrap_or_else(|| Type::of(v));
                    args.set_result_type(t);
                    return Ok(v.clone());
                }
                if has_default {
                    args.set_result_type(ty(&args, 2));
                    return Ok(arg(&args, 2));
                }
                Err(FuncError::arg(
                    0,
                    format!("the given object has no attribute {key:?}"),
                ))
            }
            (Type::Map(elem), Some(Value::Object(m))) => {
                let default = if has_default {
                    let (d, _) =
                        convert_typed(arg(&args, 2), &ty(&args, 2), &elem).map_err(|_| {
                            FuncError::arg(
                                2,
                                "the default value must have the same type as the map elements",
                            )
                        })?;
                    Some(d)
                } else {
                    None
                };
                match (m.get(key), default) {
                    (Some(v), _) => Ok(v.clone()),
                    (None, Some(d)) => Ok(d),
                    (None, None) => {
                        Err(FuncError::new(format!("lookup failed to find key {key:?}")))
                    }
                }
            }
            _ => Err(FuncError::arg(
                0,
                "lookup() requires a map as the first argument",
            )),
        }
    })
    .param(Param::new("inputMap", Type::Any))
    .param(Param::new("key", Type::String))
    .variadic(Param::new("default", Type::Any).nullable())
    .returns_with(|types| match types.first() {
        Some(Type::Map(e)) => (**e).clone(),
        _ => Type::Any,
    })
}

/// `matchkeys(values, keys, searchset)`: the elements of `values` whose
/// counterpart in `keys` is in `searchset`.
pub(super) fn matchkeys() -> FuncDef {
    FuncDef::new(|args| {
        let values = args.array(0)?;
        let (tk, ts) = (ty(&args, 1), ty(&args, 2));
        let Some(kt) = unify(&[tk.clone(), ts.clone()]) else {
            return Err(FuncError::new(
                "keys and searchset must be of the same type",
            ));
        };
        let keys = args.array(1)?;
        if values.len() != keys.len() {
            return Err(FuncError::new("length of keys and values should be equal"));
        }
        let conv = |v: Value, t: &Type| {
            convert_typed(v, t, &kt)
                .map(|(v, _)| v)
                .map_err(FuncError::new)
        };
        let keys = conv(arg(&args, 1), &tk)?;
        let search = conv(arg(&args, 2), &ts)?;
        let (Some(keys), Some(search)) = (keys.as_array(), search.as_array()) else {
            return Ok(Value::Array(Vec::new()));
        };
        let out = values
            .iter()
            .zip(keys)
            .filter(|(_, k)| search.contains(k))
            .map(|(v, _)| v.clone())
            .collect();
        Ok(Value::Array(out))
    })
    .param(Param::new("values", Type::list(Type::Any)))
    .param(Param::new("keys", Type::list(Type::Any)))
    .param(Param::new("searchset", Type::list(Type::Any)))
    .returns_with(|types| types.first().cloned().unwrap_or(Type::list(Type::Any)))
}

/// `one(list)`: the only element of a list, set or tuple; `null` if empty.
pub(super) fn one() -> FuncDef {
    FuncDef::new(|args| {
        let err = || {
            FuncError::arg(
                0,
                "must be a list, set, or tuple value with either zero or one elements",
            )
        };
        let t = ty(&args, 0);
        let elems = match (&t, args.get(0)) {
            (Type::List(_) | Type::Set(_) | Type::Tuple(_), Some(Value::Array(a))) => a,
            _ => return Err(err()),
        };
        match (elems.as_slice(), &t) {
            ([], Type::List(e) | Type::Set(e)) => {
                args.set_result_type((**e).clone());
                Ok(Value::Null)
            }
            ([], _) => Ok(Value::Null),
            ([v], Type::List(e) | Type::Set(e)) => {
                args.set_result_type((**e).clone());
                Ok(v.clone())
            }
            ([v], Type::Tuple(ts)) => {
                if let Some(t) = ts.first() {
                    args.set_result_type(t.clone());
                }
                Ok(v.clone())
            }
            _ => Err(err()),
        }
    })
    .param(Param::new("list", Type::Any))
    .returns_with(|types| match types.first() {
        Some(Type::List(e) | Type::Set(e)) => (**e).clone(),
        _ => Type::Any,
    })
}

/// `sum(list)`: the sum of the numbers of a list, set or tuple.
pub(super) fn sum() -> FuncDef {
    FuncDef::new(|args| {
        let elems: Vec<&Value> = match args.get(0) {
            Some(Value::Array(a)) => a.iter().collect(),
            Some(Value::Object(o)) => o.values().collect(),
            _ => return Err(FuncError::arg(0, "cannot sum noniterable")),
        };
        if elems.is_empty() {
            return Err(FuncError::arg(0, "cannot sum an empty list"));
        }
        if !matches!(ty(&args, 0), Type::List(_) | Type::Set(_) | Type::Tuple(_)) {
            return Err(FuncError::arg(0, "argument must be list, set, or tuple"));
        }
        let mut total: Option<Number> = None;
        for v in elems {
            let bad = || FuncError::arg(0, "argument must be list, set, or tuple of number values");
            if v.is_null() {
                return Err(bad());
            }
            let n = crate::eval::convert::to_number(v).map_err(|_| bad())?;
            total = Some(match total {
                None => n,
                Some(t) => t
                    .checked_add(&n)
                    .map_err(|e| FuncError::new(e.to_string()))?,
            });
        }
        Ok(total.map(Value::Number).unwrap_or_default())
    })
    .param(Param::new("list", Type::Any))
    .returns(Type::Number)
}

/// `transpose(values)`: a map of lists of strings turned inside out: each
/// string becomes a key listing (sorted) the keys it appeared under.
pub(super) fn transpose() -> FuncDef {
    FuncDef::new(|args| {
        let mut out: Map<String, Vec<String>> = Map::new();
        let mut entries: Vec<_> = args.object(0)?.iter().collect();
        entries.sort_by(|a, b| a.0.cmp(b.0));
        for (k, list) in entries {
            for v in list.as_array().map_or(&[][..], Vec::as_slice) {
                let Some(s) = v.as_str() else {
                    return Err(FuncError::new("input must be a map of lists of strings"));
                };
                let keys = out.entry(s.to_owned()).or_default();
                keys.push(k.clone());
                keys.sort();
            }
        }
        out.sort_keys();
        Ok(Value::Object(
            out.into_iter()
                .map(|(k, v)| (k, Value::Array(v.into_iter().map(Value::from).collect())))
                .collect(),
        ))
    })
    .param(Param::new("values", Type::map(Type::list(Type::String))))
    .returns(Type::map(Type::list(Type::String)))
}

/// `list(...)`: removed in Terraform 0.12; always an error.
pub(super) fn list() -> FuncDef {
    FuncDef::new(|_| {
        Err(FuncError::new(
            "the \"list\" function was deprecated in Terraform v0.12 and is no longer available; use tolist([ ... ]) syntax to write a literal list",
        ))
    })
    .variadic(Param::new("vals", Type::Any).nullable())
    .returns(Type::list(Type::Any))
}

/// `map(...)`: removed in Terraform 0.12; always an error.
pub(super) fn map() -> FuncDef {
    FuncDef::new(|_| {
        Err(FuncError::new(
            "the \"map\" function was deprecated in Terraform v0.12 and is no longer available; use tomap({ ... }) syntax to write a literal map",
        ))
    })
    .variadic(Param::new("vals", Type::Any).nullable())
    .returns(Type::map(Type::Any))
}

/// `sensitive(value)`: the value unchanged (this library has no
/// sensitivity marks).
pub(super) fn sensitive() -> FuncDef {
    FuncDef::new(|args| {
        args.set_result_type(ty(&args, 0));
        Ok(arg(&args, 0))
    })
    .param(Param::new("value", Type::Any).nullable())
    .returns_with(|types| types.first().cloned().unwrap_or(Type::Any))
}

/// `nonsensitive(value)`: always an error, as Terraform's for a value not
/// marked sensitive (no value is, here).
pub(super) fn nonsensitive() -> FuncDef {
    FuncDef::new(|_| {
        Err(FuncError::arg(
            0,
            "the given value is not sensitive, so this call is redundant",
        ))
    })
    .param(Param::new("value", Type::Any).nullable())
    .returns_with(|types| types.first().cloned().unwrap_or(Type::Any))
}
