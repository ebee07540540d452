//! Sequence functions: `distinct reverse sort range chunklist slice zipmap`
//! (go-cty 1.12.1 `stdlib/collection.go`, `sequence.go`).

use super::args::{elem_type, object_type, seq, ty};
use crate::eval::convert::total_cmp;
use crate::eval::{FuncDef, FuncError, Param, Type};
use crate::stdlib::numeric::whole;
use crate::{Map, Number, Value};
use std::cmp::Ordering;

pub(crate) fn distinct() -> FuncDef {
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

pub(crate) fn reverse() -> FuncDef {
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

pub(crate) fn sort() -> FuncDef {
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

pub(crate) fn range() -> FuncDef {
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

pub(crate) fn chunklist() -> FuncDef {
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

pub(crate) fn slice() -> FuncDef {
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

pub(crate) fn zipmap() -> FuncDef {
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
