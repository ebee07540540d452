//! Reserved names and the flag by which this crate's types talk to its own serializers and deserializers beside serde's data model.
//!
//! A leaf: `value`, `number`, `de` and `ser` all read these, so none of
//! them needs another for the names alone.

use std::cell::Cell;

/// The newtype name by which [`Value`](crate::Value) (and
/// [`Number`](crate::Number)) ask a deserializer for exact numbers (see
/// `value/de.rs`).
pub(crate) const VALUE_NAME: &str = "$__hcl_private_Value";

/// The newtype name by which [`Value`](crate::Value) itself asks: as
/// [`VALUE_NAME`] for every deserializer of this crate, and the native
/// syntax's deserializer builds the whole value directly for it
/// (`de/direct.rs`), which [`Number`](crate::Number)'s visitor could not
/// take.
pub(crate) const VALUE_TARGET_NAME: &str = "$__hcl_private_ValueTarget";

/// Whether a newtype's name is [`VALUE_NAME`] or [`VALUE_TARGET_NAME`]:
/// the same constant is usually at the same address, so the pointers are
/// compared first.
pub(crate) fn is_value_name(name: &str) -> bool {
    std::ptr::eq(name, VALUE_TARGET_NAME)
        || std::ptr::eq(name, VALUE_NAME)
        || name == VALUE_TARGET_NAME
        || name == VALUE_NAME
}

/// Whether a newtype's name is [`VALUE_TARGET_NAME`]: the target is a
/// [`Value`](crate::Value).
pub(crate) fn is_value_target(name: &str) -> bool {
    std::ptr::eq(name, VALUE_TARGET_NAME) || name == VALUE_TARGET_NAME
}
/// The one key of the map that carries an exact number to a `Value`.
pub(crate) const NUMBER_KEY: &str = "$__hcl_private_Number";
/// The one key of the map that carries an unknown value to a `Value`
/// (its type in go-cty's JSON type encoding).
pub(crate) const UNKNOWN_KEY: &str = "$__hcl_private_Unknown";
/// The reserved struct name of [`RawExpression`](crate::RawExpression).
pub(crate) const EXPRESSION_NAME: &str = "$__hcl_private_Expression";
/// The reserved struct name of [`RawBody`](crate::RawBody).
pub(crate) const BODY_NAME: &str = "$__hcl_private_Body";

/// The reserved newtype name under which a `Number` hands itself to this
/// crate's serializers exactly.
pub(crate) const SER_NUMBER_NAME: &str = "$__hcl_private_SerNumber";
/// The reserved newtype name of a `RawExpression` being serialized.
pub(crate) const SER_EXPRESSION_NAME: &str = "$__hcl_private_SerExpression";
/// The reserved newtype name of a `RawBody` being serialized.
pub(crate) const SER_BODY_NAME: &str = "$__hcl_private_SerBody";

thread_local! {
    /// How many of this crate's serializers are running on this thread.
    static ACTIVE: Cell<usize> = const { Cell::new(0) };
}

/// Whether one of this crate's serializers is running on this thread: the
/// types with a private encoding (`Number`, captures, wrappers) use it
/// only then, so other formats see them as before.
pub(crate) fn active() -> bool {
    ACTIVE.with(Cell::get) > 0
}

/// Marks this crate's serializer as running until dropped.
pub(crate) struct ActiveGuard(());

impl ActiveGuard {
    pub(crate) fn new() -> ActiveGuard {
        ACTIVE.with(|a| a.set(a.get() + 1));
        ActiveGuard(())
    }
}

impl Drop for ActiveGuard {
    fn drop(&mut self) {
        ACTIVE.with(|a| a.set(a.get().saturating_sub(1)));
    }
}
