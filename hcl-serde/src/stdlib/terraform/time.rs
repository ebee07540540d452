//! Terraform's time functions: `timecmp`, and with the clock `timestamp`,
//! `plantimestamp` (Terraform's `funcs/datetime.go`).

use super::super::datetime::{civil_utc, timestamp_instant};
use super::super::Table;
use super::Clock;
use crate::eval::{FuncDef, FuncError, Param, Type};
use crate::Value;
use std::sync::Arc;
use std::time::UNIX_EPOCH;

/// This family's functions (`timestamp` needs the clock: see
/// [`super::TerraformFunctions`]).
pub(super) const TIME: Table = &[("timecmp", timecmp)];

/// `timecmp(timestamp_a, timestamp_b)`: -1, 0 or 1 as the first RFC 3339
/// timestamp is before, at or after the second.
pub(super) fn timecmp() -> FuncDef {
    FuncDef::new(|args| {
        let a = timestamp_instant(args.str(0)?).map_err(|m| FuncError::arg(0, m))?;
        let b = timestamp_instant(args.str(1)?).map_err(|m| FuncError::arg(1, m))?;
        Ok(Value::from(match a.cmp(&b) {
            std::cmp::Ordering::Less => -1,
            std::cmp::Ordering::Equal => 0,
            std::cmp::Ordering::Greater => 1,
        }))
    })
    .param(Param::new("timestamp_a", Type::String))
    .param(Param::new("timestamp_b", Type::String))
    .returns(Type::Number)
}

/// `timestamp()`: the clock's time in RFC 3339 form, UTC, whole seconds.
pub(super) fn timestamp(clock: Arc<Clock>) -> FuncDef {
    FuncDef::new(move |_| {
        let now = clock();
        let secs = match now.duration_since(UNIX_EPOCH) {
            Ok(d) => i64::try_from(d.as_secs()).unwrap_or(i64::MAX),
            Err(e) => {
                let d = e.duration();
                let s = i64::try_from(d.as_secs()).unwrap_or(i64::MAX);
                // Round toward the past.
                -s - i64::from(d.subsec_nanos() > 0)
            }
        };
        let (y, mo, d, h, mi, s) = civil_utc(secs);
        if !(0..=9999).contains(&y) {
            return Err(FuncError::new(
                "the clock's time is out of the RFC 3339 range",
            ));
        }
        Ok(Value::from(format!(
            "{y:04}-{mo:02}-{d:02}T{h:02}:{mi:02}:{s:02}Z"
        )))
    })
    .returns(Type::String)
}
