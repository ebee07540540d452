//! Type unification and type-level convertibility, as go-cty's `convert`
//! package decides them.
//!
//! Unification finds the one type that several types convert to: the
//! result type of a conditional (`true ? [1] : ["a", "b"]` is a
//! `list(string)`), the element type of `tolist([1, "a"])`, the common
//! argument type of `coalesce` or `setunion`. The rules, in order:
//!
//! 1. Types of one structural kind (with untyped `null`s, [`Type::Any`],
//!    among them) unify inside: lists to a list of the unified element
//!    types, maps with objects to a map, objects with the same attribute
//!    names attribute by attribute (else to a map of all attribute types),
//!    tuples of one length element by element (else to a list); a `null`
//!    among collections makes the result [`Type::Any`].
//! 2. Otherwise the given types are ordered from the most general (string
//!    before number and bool, a list before a tuple, a set before a list,
//!    a map before an object, any type before [`Type::Any`]) and the first
//!    one that every other type converts to is the result.
//!
//! Convertibility is decided on types alone ([`can_convert`]): a
//! conversion that exists may still fail on a value (`"a"` to a number);
//! "unsafe" conversions (string to number or bool, list to set, map to
//! object) count only when asked for, as the evaluator always does.

use crate::value::types::Type;
use crate::value::Map;
use std::cmp::Ordering;

/// The single type that all `types` convert to, or `None` if there is
/// none (go-cty's `convert.Unify`, or `UnifyUnsafe` with `unsafe_conv`).
pub(crate) fn unify(types: &[Type], unsafe_conv: bool) -> Option<Type> {
    let first = types.first()?;
    if types.iter().all(|t| t == first) {
        return Some(first.clone());
    }
    let count = |f: fn(&Type) -> bool| types.iter().filter(|t| f(t)).count();
    let n = types.len();
    let maps = count(|t| matches!(t, Type::Map(_)));
    let lists = count(|t| matches!(t, Type::List(_)));
    let sets = count(|t| matches!(t, Type::Set(_)));
    let objects = count(|t| matches!(t, Type::Object(_)));
    let tuples = count(|t| matches!(t, Type::Tuple(_)));
    let dynamic = count(|t| matches!(t, Type::Any));
    if maps > 0 && maps + dynamic == n {
        return collections(types, dynamic > 0, unsafe_conv, Type::map);
    }
    if maps > 0 && maps + objects + dynamic == n {
        if let Some(t @ Type::Map(_)) = objects_as_maps(types, unsafe_conv) {
            return Some(t);
        }
    } else if lists > 0 && lists + dynamic == n {
        return collections(types, dynamic > 0, unsafe_conv, Type::list);
    } else if lists > 0 && lists + tuples + dynamic == n {
        if let Some(t @ Type::List(_)) = tuples_as_lists(types, unsafe_conv) {
            return Some(t);
        }
    } else if sets > 0 && sets + dynamic == n {
        return collections(types, dynamic > 0, unsafe_conv, Type::set);
    } else if objects > 0 && objects + dynamic == n {
        return object_types(types, dynamic > 0, unsafe_conv);
    } else if tuples > 0 && tuples + dynamic == n {
        return tuple_types(types, dynamic > 0, unsafe_conv);
    } else if objects > 0 && tuples > 0 {
        return None;
    }
    by_preference(types, unsafe_conv)
}

/// Rule 2: the most general given type that all others convert to.
fn by_preference(types: &[Type], unsafe_conv: bool) -> Option<Type> {
    for want in preference_order(types) {
        let want = types.get(want)?;
        if types
            .iter()
            .all(|t| t == want || can_convert(t, want, unsafe_conv))
        {
            return Some(want.clone());
        }
    }
    None
}

/// Lists, sets or maps (`wrap` builds the kind), possibly with `null`s.
fn collections(
    types: &[Type],
    has_dynamic: bool,
    unsafe_conv: bool,
    wrap: fn(Type) -> Type,
) -> Option<Type> {
    if has_dynamic {
        // The reference cannot predict the result: any type.
        return Some(Type::Any);
    }
    let elems: Vec<Type> = types.iter().filter_map(elem_type).cloned().collect();
    let ret = wrap(unify(&elems, unsafe_conv)?);
    convert_all(types, &ret, unsafe_conv).then_some(ret)
}

fn elem_type(t: &Type) -> Option<&Type> {
    match t {
        Type::List(e) | Type::Set(e) | Type::Map(e) => Some(e),
        _ => None,
    }
}

fn convert_all(types: &[Type], to: &Type, unsafe_conv: bool) -> bool {
    types
        .iter()
        .all(|t| t == to || can_convert(t, to, unsafe_conv))
}

fn objects_as_maps(types: &[Type], unsafe_conv: bool) -> Option<Type> {
    let objs: Vec<Type> = types
        .iter()
        .filter(|t| matches!(t, Type::Object(_)))
        .cloned()
        .collect();
    let as_map = objects_to_map(&objs, unsafe_conv)?;
    let replaced: Vec<Type> = types
        .iter()
        .map(|t| match t {
            Type::Object(_) => as_map.clone(),
            t => t.clone(),
        })
        .collect();
    unify(&replaced, unsafe_conv).filter(|t| matches!(t, Type::Map(_)))
}

fn tuples_as_lists(types: &[Type], unsafe_conv: bool) -> Option<Type> {
    let tuples: Vec<Type> = types
        .iter()
        .filter(|t| matches!(t, Type::Tuple(_)))
        .cloned()
        .collect();
    let as_list = tuples_to_list(&tuples, unsafe_conv)?;
    let replaced: Vec<Type> = types
        .iter()
        .map(|t| match t {
            Type::Tuple(_) => as_list.clone(),
            t => t.clone(),
        })
        .collect();
    unify(&replaced, unsafe_conv).filter(|t| matches!(t, Type::List(_)))
}

fn attrs(t: &Type) -> Option<&Map<String, Type>> {
    match t {
        Type::Object(a) => Some(a),
        _ => None,
    }
}

fn elems(t: &Type) -> Option<&Vec<Type>> {
    match t {
        Type::Tuple(e) => Some(e),
        _ => None,
    }
}

/// Objects: attribute by attribute when the names agree, else as a map.
fn object_types(types: &[Type], has_dynamic: bool, unsafe_conv: bool) -> Option<Type> {
    if has_dynamic {
        return Some(Type::Any);
    }
    let first = types.first().and_then(attrs)?;
    let same_names = types
        .iter()
        .filter_map(attrs)
        .all(|a| a.len() == first.len() && a.keys().all(|k| first.contains_key(k)));
    if !same_names {
        return objects_to_map(types, unsafe_conv);
    }
    let mut out = Map::with_capacity(first.len());
    for name in first.keys() {
        let across: Vec<Type> = types
            .iter()
            .filter_map(|t| attrs(t)?.get(name).cloned())
            .collect();
        out.insert(name.clone(), unify(&across, unsafe_conv)?);
    }
    out.sort_keys();
    let ret = Type::Object(out);
    if convert_all(types, &ret, unsafe_conv) {
        Some(ret)
    } else {
        objects_to_map(types, unsafe_conv)
    }
}

fn objects_to_map(types: &[Type], unsafe_conv: bool) -> Option<Type> {
    let all: Vec<Type> = types
        .iter()
        .filter_map(attrs)
        .flat_map(|a| a.values().cloned())
        .collect();
    // go-cty: unifying no type at all fails.
    let ret = Type::map(unify(&all, unsafe_conv)?);
    convert_all(types, &ret, unsafe_conv).then_some(ret)
}

/// Tuples: element by element when the lengths agree, else as a list.
fn tuple_types(types: &[Type], has_dynamic: bool, unsafe_conv: bool) -> Option<Type> {
    if has_dynamic {
        return Some(Type::Any);
    }
    let first = types.first().and_then(elems)?;
    if types
        .iter()
        .filter_map(elems)
        .any(|e| e.len() != first.len())
    {
        return tuples_to_list(types, unsafe_conv);
    }
    let mut out = Vec::with_capacity(first.len());
    for i in 0..first.len() {
        let across: Vec<Type> = types
            .iter()
            .filter_map(|t| elems(t)?.get(i).cloned())
            .collect();
        out.push(unify(&across, unsafe_conv)?);
    }
    let ret = Type::Tuple(out);
    if convert_all(types, &ret, unsafe_conv) {
        Some(ret)
    } else {
        tuples_to_list(types, unsafe_conv)
    }
}

fn tuples_to_list(types: &[Type], unsafe_conv: bool) -> Option<Type> {
    let all: Vec<Type> = types
        .iter()
        .filter_map(elems)
        .flat_map(|e| e.iter().cloned())
        .collect();
    let ret = Type::list(unify(&all, unsafe_conv)?);
    convert_all(types, &ret, unsafe_conv).then_some(ret)
}

/// go-cty's `sortTypes`: indices of `types`, the most general first (a
/// topological order of "more general than", stable otherwise).
fn preference_order(types: &[Type]) -> Vec<usize> {
    let n = types.len();
    let mut edges: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut in_degree = vec![0usize; n];
    for i in 0..n {
        for j in i + 1..n {
            let (Some(a), Some(b)) = (types.get(i), types.get(j)) else {
                continue;
            };
            let (from, to) = match compare(a, b) {
                Ordering::Less => (i, j),
                Ordering::Greater => (j, i),
                Ordering::Equal => continue,
            };
            if let (Some(e), Some(d)) = (edges.get_mut(from), in_degree.get_mut(to)) {
                e.push(to);
                *d += 1;
            }
        }
    }
    let mut order: Vec<usize> = (0..n).filter(|i| in_degree.get(*i) == Some(&0)).collect();
    let mut next = 0;
    while let Some(&i) = order.get(next) {
        next += 1;
        for &j in edges.get(i).map_or(&[][..], Vec::as_slice) {
            if let Some(d) = in_degree.get_mut(j) {
                *d -= 1;
                if *d == 0 {
                    order.push(j);
                }
            }
        }
    }
    order
}

/// go-cty's `compareTypes`: `Less` when `a` is more general than `b`,
/// `Greater` when less general, `Equal` when neither (or incomparable).
fn compare(a: &Type, b: &Type) -> Ordering {
    use Ordering::{Equal, Greater, Less};
    match (a, b) {
        (Type::Any, Type::Any) => return Equal,
        (Type::Any, _) => return Greater,
        (_, Type::Any) => return Less,
        (Type::String, Type::Bool | Type::Number) => return Less,
        (Type::Bool | Type::Number, Type::String) => return Greater,
        (Type::List(x), Type::List(y))
        | (Type::Set(x), Type::Set(y))
        | (Type::Map(x), Type::Map(y)) => return compare(x, y),
        _ => {}
    }
    // The pairs that go-cty compares the other way round.
    let swapped = matches!(
        (a, b),
        (Type::Tuple(_), Type::List(_))
            | (Type::Object(_), Type::Map(_))
            | (Type::Set(_), Type::Tuple(_) | Type::List(_))
    );
    let (a, b) = if swapped { (b, a) } else { (a, b) };
    let flip = |o: Ordering| if swapped { o.reverse() } else { o };
    match (a, b) {
        (Type::List(_) | Type::Tuple(_), Type::Set(_))
        | (Type::List(_), Type::Tuple(_))
        | (Type::Map(_), Type::Object(_)) => flip(Less),
        (Type::Object(x), Type::Object(y)) => {
            if x.len() != y.len() {
                return Equal;
            }
            let mut pairs = Vec::with_capacity(x.len());
            for (k, xt) in x {
                let Some(yt) = y.get(k) else { return Equal };
                pairs.push(compare(xt, yt));
            }
            flip(superiority(&pairs))
        }
        (Type::Tuple(x), Type::Tuple(y)) => {
            if x.len() != y.len() {
                return Equal;
            }
            let pairs: Vec<Ordering> = x.iter().zip(y).map(|(p, q)| compare(p, q)).collect();
            flip(superiority(&pairs))
        }
        _ => Equal,
    }
}

/// Which side is more general over element-wise comparisons: one only if
/// it is never less general.
fn superiority(pairs: &[Ordering]) -> Ordering {
    let a_super = pairs.contains(&Ordering::Less);
    let b_super = pairs.contains(&Ordering::Greater);
    match (a_super, b_super) {
        (true, false) => Ordering::Less,
        (false, true) => Ordering::Greater,
        _ => Ordering::Equal,
    }
}

/// Whether a conversion from `from` to `to` exists (it may still fail on a
/// particular value), as go-cty's `GetConversion` / `GetConversionUnsafe`.
pub(crate) fn can_convert(from: &Type, to: &Type, unsafe_conv: bool) -> bool {
    if from == to || *to == Type::Any {
        return true;
    }
    match (from, to) {
        (Type::Any, _) => unsafe_conv,
        (Type::Number | Type::Bool, Type::String) => true,
        (Type::String, Type::Number | Type::Bool) => unsafe_conv,
        (Type::Object(f), Type::Object(t)) => t
            .iter()
            .all(|(k, tt)| f.get(k).is_some_and(|ft| can_convert(ft, tt, unsafe_conv))),
        (Type::Tuple(f), Type::Tuple(t)) => {
            f.len() == t.len() && f.iter().zip(t).all(|(a, b)| can_convert(a, b, unsafe_conv))
        }
        (Type::List(f) | Type::Set(f), Type::List(t)) => can_convert(f, t, unsafe_conv),
        (Type::List(f), Type::Set(t)) => unsafe_conv && can_convert(f, t, unsafe_conv),
        (Type::Set(f), Type::Set(t)) | (Type::Map(f), Type::Map(t)) => {
            can_convert(f, t, unsafe_conv)
        }
        (Type::Tuple(f), Type::List(t) | Type::Set(t)) => {
            elements_convert(f.iter(), t, unsafe_conv, true)
        }
        (Type::Object(f), Type::Map(t)) => elements_convert(f.values(), t, unsafe_conv, false),
        (Type::Map(f), Type::Object(t)) => {
            unsafe_conv && t.values().all(|tt| can_convert(f, tt, unsafe_conv))
        }
        _ => false,
    }
}

/// Whether the elements of a tuple or attributes of an object convert to
/// one collection element type `to` (with `any`, to the type they unify
/// to). `strict`: elements that unify only to `any` must all be `any` (a
/// tuple to a list or set; not an object to a map).
fn elements_convert<'t>(
    from: impl Iterator<Item = &'t Type>,
    to: &Type,
    unsafe_conv: bool,
    strict: bool,
) -> bool {
    let all: Vec<Type> = from.cloned().collect();
    if all.is_empty() {
        return true;
    }
    let target = if *to == Type::Any {
        match unify(&all, unsafe_conv) {
            None => return false,
            Some(Type::Any) if strict => return all.iter().all(|t| *t == Type::Any),
            Some(t) => t,
        }
    } else {
        to.clone()
    };
    all.iter()
        .all(|t| *t == target || can_convert(t, &target, unsafe_conv))
}

/// The type of an unknown value of type `from` converted to `to`: `to`
/// with each `any` inside replaced by the matching part of `from` (go-cty's
/// `dynamicReplace`; `from` and `to` are assumed convertible).
pub(crate) fn dynamic_replace(from: &Type, to: &Type) -> Type {
    if *from == Type::Any {
        return to.clone();
    }
    // The one element type a tuple's or object's parts unify to, if any.
    let unified = |parts: Vec<Type>, to: &Type| match unify(&parts, true) {
        Some(u) => dynamic_replace(&u, to),
        None => to.clone(),
    };
    match to {
        Type::Any => from.clone(),
        Type::Map(e) => Type::map(match from {
            Type::Map(f) => dynamic_replace(f, e),
            Type::Object(a) => unified(a.values().cloned().collect(), e),
            _ => Type::Any,
        }),
        Type::Set(e) | Type::List(e) => {
            let elem = match from {
                Type::Set(f) | Type::List(f) => dynamic_replace(f, e),
                Type::Tuple(ts) => unified(ts.clone(), e),
                _ => Type::Any,
            };
            if matches!(to, Type::Set(_)) {
                Type::set(elem)
            } else {
                Type::list(elem)
            }
        }
        Type::Object(attrs) => {
            let mut out = Map::with_capacity(attrs.len());
            for (name, t) in attrs {
                let replaced = match from {
                    Type::Map(f) => dynamic_replace(f, t),
                    Type::Object(a) => match a.get(name) {
                        Some(f) => dynamic_replace(f, t),
                        None => t.clone(),
                    },
                    _ => t.clone(),
                };
                out.insert(name.clone(), replaced);
            }
            Type::Object(out)
        }
        Type::Tuple(ts) => Type::Tuple(
            ts.iter()
                .enumerate()
                .map(|(i, t)| match from {
                    Type::Tuple(fs) => fs.get(i).map_or(t.clone(), |f| dynamic_replace(f, t)),
                    _ => t.clone(),
                })
                .collect(),
        ),
        primitive => primitive.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Type::{Any, Bool, Number, String};

    fn obj(attrs: &[(&str, Type)]) -> Type {
        let mut m: Map<std::string::String, Type> = attrs
            .iter()
            .map(|(k, t)| ((*k).to_owned(), t.clone()))
            .collect();
        m.sort_keys();
        Type::Object(m)
    }

    #[test]
    fn conditional_results() {
        // oracle: `true ? toset(["a"]) : tolist([1])` unifies to
        // list(number) (and then fails to convert "a").
        assert_eq!(
            unify(&[Type::set(String), Type::list(Number)], true),
            Some(Type::list(Number))
        );
        // oracle: `true ? {} : {a = true, b = 1, c = null}` is a map(dynamic).
        assert_eq!(
            unify(
                &[obj(&[]), obj(&[("a", Bool), ("b", Number), ("c", Any)])],
                true
            ),
            Some(Type::map(Any))
        );
        // oracle: `true ? [1,2] : ["a"]` is list(string).
        assert_eq!(
            unify(
                &[Type::Tuple(vec![Number, Number]), Type::Tuple(vec![String])],
                true
            ),
            Some(Type::list(String))
        );
        assert_eq!(unify(&[Number, Bool], true), None);
        assert_eq!(unify(&[Number, String], true), Some(String));
        assert_eq!(unify(&[Any, Number], true), Some(Number));
        assert_eq!(unify(&[Any, Type::list(Number)], true), Some(Any));
    }

    #[test]
    fn convertibility() {
        assert!(can_convert(&String, &Number, true));
        assert!(!can_convert(&String, &Number, false));
        assert!(!can_convert(&Number, &Bool, true));
        assert!(can_convert(
            &Type::Tuple(vec![Number, String]),
            &Type::list(Any),
            true
        ));
        assert!(!can_convert(
            &Type::Tuple(vec![Number, Bool]),
            &Type::list(Any),
            true
        ));
        // oracle: tolist([[1], null]) fails: no single element type.
        assert!(!can_convert(
            &Type::Tuple(vec![Type::Tuple(vec![Number]), Any]),
            &Type::list(Any),
            true
        ));
    }
}
