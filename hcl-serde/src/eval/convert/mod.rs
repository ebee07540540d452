//! HCL's type conversions (go-cty's `convert` package, unsafe mode):
//! between primitives, from tuples to lists and sets, from objects to
//! maps, and the unification of several types into one.

use crate::value::types::Type;
use crate::value::{Map, Value};
use crate::Number;
use std::cmp::Ordering;

/// The string form of a primitive: numbers in plain decimal notation,
/// bools as `true` / `false`. `None` for null and collections.
pub(crate) fn primitive_to_string(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(if *b { "true" } else { "false" }.to_owned()),
        _ => None,
    }
}

/// Parses a string as the reference converts strings to numbers: a decimal
/// representation with optional sign and exponent, nothing around it. The
/// one definition: the deserializer uses it too (kept thin so that it can
/// defer to a `Number` parser).
pub(crate) fn parse_number(s: &str) -> Option<Number> {
    Number::parse(s)
}

/// Converts a value to a number as operators and `number` parameters do.
pub(crate) fn to_number(v: &Value) -> Result<Number, String> {
    match v {
        Value::Number(n) => Ok(n.clone()),
        Value::String(s) => parse_number(s).ok_or_else(|| {
            format!(
                "cannot convert {} to number; given string must be a decimal representation of a number",
                quote(s)
            )
        }),
        Value::Null => Err("a number is required, not null".to_owned()),
        other => Err(format!("a number is required, not {}", kind_of(other))),
    }
}

/// HCL's one string-to-bool rule (go-cty's): `"true"` or `"1"`, `"false"`
/// or `"0"`; `None` for any other string. Operators, `bool` parameters,
/// `format("%t")` and the deserializer (values and map keys) all use it.
pub(crate) fn string_to_bool(s: &str) -> Option<bool> {
    match s {
        "true" | "1" => Some(true),
        "false" | "0" => Some(false),
        _ => None,
    }
}

/// Converts a value to a bool as operators and `bool` parameters do.
pub(crate) fn to_bool(v: &Value) -> Result<bool, String> {
    match v {
        Value::Bool(b) => Ok(*b),
        Value::String(s) => string_to_bool(s).ok_or_else(|| {
            format!(
                "cannot convert {} to bool; only the strings \"true\" or \"false\" are allowed",
                quote(s)
            )
        }),
        Value::Null => Err("a bool is required, not null".to_owned()),
        other => Err(format!("a bool is required, not {}", kind_of(other))),
    }
}

/// Equality as cty's `Value.Equals`: no conversion; two nulls are equal
/// whatever their types; otherwise the types must be the same (a list is
/// not a tuple, a map not an object) and the values equal.
pub(crate) fn equal_typed(a: &Value, ta: &Type, b: &Value, tb: &Type) -> bool {
    match (a.is_null(), b.is_null()) {
        (true, true) => true,
        (false, false) => ta == tb && a == b,
        _ => false,
    }
}

/// A string, JSON-quoted, for messages.
pub(crate) fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The kind of a value for messages, by its implied type.
pub(crate) fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "bool",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "tuple",
        Value::Object(_) => "object",
        Value::Unknown(_) => "unknown value",
    }
}

/// The element type of a sequence type (list, set) or the single type
/// that every element of a tuple type unifies to.
fn seq_elem_types(t: &Type, len: usize) -> Option<Vec<Type>> {
    match t {
        Type::List(e) | Type::Set(e) => Some(vec![(**e).clone(); len]),
        Type::Tuple(ts) => Some(ts.clone()),
        _ => None,
    }
}

/// Converts `v`, whose type is `from`, to type `to`. Returns the converted
/// value and its exact type.
///
/// # Errors
/// A message saying what was required.
pub(crate) fn convert_typed(v: Value, from: &Type, to: &Type) -> Result<(Value, Type), String> {
    if to == &Type::Any || from == to {
        return Ok((v, from.clone()));
    }
    if v.is_null() {
        return Ok((v, to.clone()));
    }
    if v.is_unknown() {
        // An unknown value converts on its type alone (go-cty: an unknown
        // of the target type).
        return if super::unify::can_convert(from, to, true) {
            let t = if to.has_any() {
                from.clone()
            } else {
                to.clone()
            };
            Ok((Value::unknown(t.clone()), t))
        } else {
            Err(format!(
                "{} required, but have {}",
                to.friendly_name(),
                from.friendly_name()
            ))
        };
    }
    match to {
        Type::Any => Ok((v, from.clone())),
        Type::String => match primitive_to_string(&v) {
            Some(s) => Ok((Value::String(s), Type::String)),
            None => Err(format!(
                "string required, but have {}",
                from.friendly_name()
            )),
        },
        Type::Number => match &v {
            Value::Number(_) | Value::String(_) => {
                to_number(&v).map(|n| (Value::Number(n), Type::Number))
            }
            _ => Err(format!(
                "number required, but have {}",
                from.friendly_name()
            )),
        },
        Type::Bool => match &v {
            Value::Bool(_) | Value::String(_) => to_bool(&v).map(|b| (Value::Bool(b), Type::Bool)),
            _ => Err(format!("bool required, but have {}", from.friendly_name())),
        },
        Type::List(elem) | Type::Set(elem) => {
            let is_set = matches!(to, Type::Set(_));
            let Value::Array(items) = v else {
                return Err(format!(
                    "{} required, but have {}",
                    to.friendly_name(),
                    from.friendly_name()
                ));
            };
            let types = seq_elem_types(from, items.len())
                .unwrap_or_else(|| items.iter().map(Type::of).collect());
            let target = if let (true, Type::List(fe) | Type::Set(fe)) = (elem.has_any(), from) {
                // A collection keeps its element type, even when empty.
                merge_any(elem, fe)
            } else if elem.has_any() {
                match unify(&types) {
                    // go-cty: elements that unify only to `any` (a null
                    // beside a collection) make no list.
                    Some(Type::Any)
                        if **elem == Type::Any && types.iter().any(|t| *t != Type::Any) =>
                    {
                        return Err(format!(
                            "all elements must have the same type to make a {}",
                            if is_set { "set" } else { "list" }
                        ))
                    }
                    Some(u) if !types.is_empty() => merge_any(elem, &u),
                    _ if types.is_empty() => (**elem).clone(),
                    _ => {
                        return Err(format!(
                            "all elements must have the same type to make a {}",
                            if is_set { "set" } else { "list" }
                        ))
                    }
                }
            } else {
                (**elem).clone()
            };
            let mut out = Vec::with_capacity(items.len());
            // go-cty: converted to a set element type with `any` inside,
            // the elements must still come out of one type (a list does
            // not check: it unifies its elements again).
            let check_types = is_set && target.has_any();
            // go-cty: a tuple converted to a list with `any` inside unifies
            // its converted elements again.
            let reunify = !is_set && target.has_any() && matches!(from, Type::Tuple(_));
            let mut converted_types = Vec::new();
            let mut first_type: Option<Type> = None;
            for (i, (item, t)) in items.into_iter().zip(types.iter()).enumerate() {
                let (cv, ct) =
                    convert_typed(item, t, &target).map_err(|m| format!("element {i}: {m}"))?;
                if reunify {
                    converted_types.push(ct.clone());
                }
                if check_types && ct != Type::Any {
                    match &first_type {
                        Some(f) if *f != ct => {
                            return Err(
                                "element types must all match for conversion to set".to_owned()
                            )
                        }
                        Some(_) => {}
                        None => first_type = Some(ct),
                    }
                }
                out.push(cv);
            }
            if reunify && !out.is_empty() {
                let (out, t) = reunify_elements(out, converted_types)?;
                return Ok((Value::Array(out), Type::list(t)));
            }
            if is_set {
                canonical_set_typed(&mut out, &target);
                Ok((Value::Array(out), Type::set(target)))
            } else {
                Ok((Value::Array(out), Type::list(target)))
            }
        }
        Type::Map(elem) => {
            let Value::Object(entries) = v else {
                return Err(format!(
                    "{} required, but have {}",
                    to.friendly_name(),
                    from.friendly_name()
                ));
            };
            let types: Vec<Type> = match from {
                Type::Map(e) => vec![(**e).clone(); entries.len()],
                Type::Object(attrs) => entries
                    .iter()
                    .map(|(k, v)| attrs.get(k).cloned().unwrap_or_else(|| Type::of(v)))
                    .collect(),
                _ => entries.values().map(Type::of).collect(),
            };
            let target = if let (true, Type::Map(fe)) = (elem.has_any(), from) {
                merge_any(elem, fe)
            } else if elem.has_any() {
                match unify(&types) {
                    // go-cty: values that unify only to `any` must still
                    // have one type, nulls aside, to make a map.
                    Some(Type::Any) if **elem == Type::Any => {
                        let mut known = types.iter().filter(|t| **t != Type::Any);
                        let first = known.next().cloned().unwrap_or(Type::Any);
                        if known.any(|t| *t != first) {
                            return Err(
                                "attribute types must all match for conversion to map".to_owned()
                            );
                        }
                        first
                    }
                    Some(u) => merge_any(elem, &u),
                    None if types.is_empty() => (**elem).clone(),
                    None => return Err("all map elements must have the same type".to_owned()),
                }
            } else {
                (**elem).clone()
            };
            // go-cty: an object converted to a map of collections or
            // objects with `any` inside unifies its converted values again.
            let reunify = elem.has_any()
                && matches!(from, Type::Object(_))
                && matches!(
                    target,
                    Type::List(_) | Type::Set(_) | Type::Map(_) | Type::Object(_)
                );
            let mut keys = Vec::with_capacity(entries.len());
            let mut values = Vec::with_capacity(entries.len());
            let mut converted_types = Vec::new();
            for ((k, item), t) in entries.into_iter().zip(types.iter()) {
                let (cv, ct) = convert_typed(item, t, &target)
                    .map_err(|m| format!("element {}: {m}", quote(&k)))?;
                keys.push(k);
                values.push(cv);
                if reunify {
                    converted_types.push(ct);
                }
            }
            let mut target = target;
            if reunify && !values.is_empty() {
                let (vals, t) = reunify_elements(values, converted_types)?;
                values = vals;
                target = t;
            }
            Ok((
                Value::Object(keys.into_iter().zip(values).collect()),
                Type::map(target),
            ))
        }
        Type::Tuple(want) => {
            let Value::Array(items) = v else {
                return Err(format!("tuple required, but have {}", from.friendly_name()));
            };
            if items.len() != want.len() {
                return Err(format!(
                    "tuple required with {} elements, but have {}",
                    want.len(),
                    items.len()
                ));
            }
            let types = seq_elem_types(from, items.len())
                .unwrap_or_else(|| items.iter().map(Type::of).collect());
            let mut out = Vec::with_capacity(items.len());
            let mut out_t = Vec::with_capacity(items.len());
            for (i, ((item, t), w)) in items.into_iter().zip(types.iter()).zip(want).enumerate() {
                let (cv, ct) =
                    convert_typed(item, t, w).map_err(|m| format!("element {i}: {m}"))?;
                out.push(cv);
                out_t.push(ct);
            }
            Ok((Value::Array(out), Type::Tuple(out_t)))
        }
        Type::Object(want) => {
            let Value::Object(mut entries) = v else {
                return Err(format!(
                    "object required, but have {}",
                    from.friendly_name()
                ));
            };
            let mut out = Map::with_capacity(want.len());
            let mut out_t = Map::with_capacity(want.len());
            for (k, w) in want {
                let Some(item) = entries.swap_remove(k) else {
                    return Err(format!("attribute {} is required", quote(k)));
                };
                let t = match from {
                    Type::Object(attrs) => attrs.get(k).cloned().unwrap_or_else(|| Type::of(&item)),
                    Type::Map(e) => (**e).clone(),
                    _ => Type::of(&item),
                };
                let (cv, ct) = convert_typed(item, &t, w)
                    .map_err(|m| format!("attribute {}: {m}", quote(k)))?;
                out.insert(k.clone(), cv);
                out_t.insert(k.clone(), ct);
            }
            Ok((Value::Object(out), Type::Object(out_t)))
        }
    }
}

/// go-cty's `conversionUnifyListElements`: converts already converted
/// elements (with their types) to the type they unify to.
fn reunify_elements(values: Vec<Value>, types: Vec<Type>) -> Result<(Vec<Value>, Type), String> {
    let unified = unify(&types)
        .ok_or_else(|| "cannot find a common base type for all elements".to_owned())?;
    let mut out = Vec::with_capacity(values.len());
    for (v, t) in values.into_iter().zip(types) {
        if t == unified {
            out.push(v);
        } else {
            out.push(convert_typed(v, &t, &unified)?.0);
        }
    }
    Ok((out, unified))
}

/// Converts a value of implied type (see [`Type::of`]) to `to`.
pub(crate) fn convert(v: Value, to: &Type) -> Result<(Value, Type), String> {
    if matches!(to, Type::Any) {
        let t = Type::of(&v);
        return Ok((v, t));
    }
    let from = Type::of(&v);
    convert_typed(v, &from, to)
}

/// Replaces `any` in `declared` by the corresponding part of `actual`.
fn merge_any(declared: &Type, actual: &Type) -> Type {
    match (declared, actual) {
        (Type::Any, a) => a.clone(),
        (Type::List(d), Type::List(a)) => Type::list(merge_any(d, a)),
        (Type::Set(d), Type::Set(a)) => Type::set(merge_any(d, a)),
        (Type::Map(d), Type::Map(a)) => Type::map(merge_any(d, a)),
        (d, _) => d.clone(),
    }
}

pub(crate) use super::unify::dynamic_replace;

/// The single type that all `types` convert to, as go-cty's
/// `convert.UnifyUnsafe` (see [`super::unify`]); `None` if there is none.
pub(crate) fn unify(types: &[Type]) -> Option<Type> {
    super::unify::unify(types, true)
}

/// Sorts and deduplicates the elements of a set of `elem` values into
/// go-cty's order: `null` last; strings bytewise, numbers ascending,
/// `false` before `true`; collections and structures by their "set hash"
/// text compared bytewise (go-cty's `setRules.Less`), so that
/// `toset([[], [1]])` lists `[1]` first, as the reference does.
pub(crate) fn canonical_set_typed(items: &mut Vec<Value>, elem: &Type) {
    let primitive = elem.is_primitive()
        || (*elem == Type::Any
            && items.iter().all(|v| {
                matches!(
                    v,
                    Value::Null | Value::Bool(_) | Value::Number(_) | Value::String(_)
                )
            }));
    if primitive {
        items.sort_by(|a, b| match (a.is_null(), b.is_null()) {
            (false, true) => Ordering::Less,
            (true, false) => Ordering::Greater,
            _ => total_cmp(a, b),
        });
        items.dedup();
        return;
    }
    items.sort_by_cached_key(|v| {
        let mut key = String::new();
        set_hash(v, elem, &mut key);
        (v.is_null(), key)
    });
    items.dedup();
}

/// go-cty's `appendSetHashBytes`: a value's text for set ordering.
fn set_hash(v: &Value, t: &Type, out: &mut String) {
    let child = |t: &Type, i: usize, k: Option<&str>| -> Option<Type> {
        match (t, k) {
            (Type::List(e) | Type::Set(e) | Type::Map(e), _) => Some((**e).clone()),
            (Type::Tuple(ts), None) => ts.get(i).cloned(),
            (Type::Object(attrs), Some(k)) => attrs.get(k).cloned(),
            _ => None,
        }
    };
    let t = if *t == Type::Any {
        Type::of(v)
    } else {
        t.clone()
    };
    match v {
        Value::Null => out.push('~'),
        Value::Unknown(_) => out.push('?'),
        Value::Bool(b) => out.push(if *b { 'T' } else { 'F' }),
        Value::Number(n) => out.push_str(&go_g10(n)),
        Value::String(s) => out.push_str(&quote(s)),
        Value::Array(items) => {
            let (open, close) = match t {
                Type::List(_) | Type::Set(_) => ('[', ']'),
                _ => ('<', '>'),
            };
            out.push(open);
            for (i, item) in items.iter().enumerate() {
                let ct = child(&t, i, None).unwrap_or_else(|| Type::of(item));
                set_hash(item, &ct, out);
                out.push(';');
            }
            out.push(close);
        }
        Value::Object(entries) => {
            let mut sorted: Vec<_> = entries.iter().collect();
            sorted.sort_by(|a, b| a.0.cmp(b.0));
            let is_map = matches!(t, Type::Map(_));
            out.push(if is_map { '{' } else { '<' });
            for (k, item) in sorted {
                let ct = child(&t, 0, Some(k)).unwrap_or_else(|| Type::of(item));
                if is_map {
                    out.push_str(&quote(k));
                    out.push(':');
                }
                set_hash(item, &ct, out);
                out.push(';');
            }
            out.push(if is_map { '}' } else { '>' });
        }
    }
}

/// A number as Go's `big.Float.String()` prints it (`Text('g', 10)`): ten
/// significant digits, trailing zeros removed, exponent form (`1e+30`)
/// when the exponent is below -4 or at least 10.
fn go_g10(n: &Number) -> String {
    let text = n.to_string();
    let (neg, body) = match text.strip_prefix('-') {
        Some(b) => (true, b),
        None => (false, text.as_str()),
    };
    let (int, frac) = body.split_once('.').unwrap_or((body, ""));
    let all: String = int.chars().chain(frac.chars()).collect();
    let lead = all.len() - all.trim_start_matches('0').len();
    let mut digits: Vec<u8> = all.bytes().skip(lead).map(|b| b - b'0').collect();
    if digits.is_empty() {
        return if neg { "-0".to_owned() } else { "0".to_owned() };
    }
    // Position of the decimal point relative to the first significant digit.
    let mut exp = i64::try_from(int.len()).unwrap_or(0) - i64::try_from(lead).unwrap_or(0);
    if digits.len() > 10 {
        let rest = digits.split_off(10);
        let first = rest.first().copied().unwrap_or(0);
        let beyond = rest.iter().skip(1).any(|d| *d != 0);
        let last_odd = digits.last().is_some_and(|d| d % 2 == 1);
        if first > 5 || (first == 5 && (beyond || last_odd)) {
            let mut i = digits.len();
            loop {
                if i == 0 {
                    digits.insert(0, 1);
                    exp += 1;
                    break;
                }
                i -= 1;
                if let Some(d) = digits.get_mut(i) {
                    if *d == 9 {
                        *d = 0;
                    } else {
                        *d += 1;
                        break;
                    }
                }
            }
        }
    }
    while digits.len() > 1 && digits.last() == Some(&0) {
        digits.pop();
    }
    let mant: String = digits.iter().map(|d| char::from(b'0' + d)).collect();
    let mut out = String::new();
    if neg {
        out.push('-');
    }
    let e = exp - 1;
    if !(-4..10).contains(&e) {
        let (first, rest) = mant.split_at(1);
        out.push_str(first);
        if !rest.is_empty() {
            out.push('.');
            out.push_str(rest);
        }
        out.push_str(&format!("e{}{:02}", if e < 0 { '-' } else { '+' }, e.abs()));
    } else if exp <= 0 {
        out.push_str("0.");
        for _ in 0..(-exp) {
            out.push('0');
        }
        out.push_str(&mant);
    } else {
        let point = usize::try_from(exp).unwrap_or(0);
        if mant.len() <= point {
            out.push_str(&mant);
            for _ in mant.len()..point {
                out.push('0');
            }
        } else {
            let (a, b) = mant.split_at(point);
            out.push_str(a);
            out.push('.');
            out.push_str(b);
        }
    }
    out
}

/// A total order on values (for set ordering).
pub(crate) fn total_cmp(a: &Value, b: &Value) -> Ordering {
    fn rank(v: &Value) -> u8 {
        match v {
            Value::Null => 0,
            Value::Bool(_) => 1,
            Value::Number(_) => 2,
            Value::String(_) => 3,
            Value::Array(_) => 4,
            Value::Object(_) => 5,
            Value::Unknown(_) => 6,
        }
    }
    match (a, b) {
        (Value::Bool(x), Value::Bool(y)) => x.cmp(y),
        (Value::Number(x), Value::Number(y)) => x.cmp(y),
        (Value::String(x), Value::String(y)) => x.as_bytes().cmp(y.as_bytes()),
        (Value::Array(x), Value::Array(y)) => {
            for (p, q) in x.iter().zip(y) {
                let o = total_cmp(p, q);
                if o != Ordering::Equal {
                    return o;
                }
            }
            x.len().cmp(&y.len())
        }
        (Value::Object(x), Value::Object(y)) => {
            let mut xs: Vec<_> = x.iter().collect();
            let mut ys: Vec<_> = y.iter().collect();
            xs.sort_by(|p, q| p.0.cmp(q.0));
            ys.sort_by(|p, q| p.0.cmp(q.0));
            for ((k1, v1), (k2, v2)) in xs.iter().zip(&ys) {
                let o = k1.cmp(k2).then_with(|| total_cmp(v1, v2));
                if o != Ordering::Equal {
                    return o;
                }
            }
            xs.len().cmp(&ys.len())
        }
        _ => rank(a).cmp(&rank(b)),
    }
}

#[cfg(test)]
mod tests;
