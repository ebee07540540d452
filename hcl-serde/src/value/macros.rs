//! `hcl::value!`: a [`Value`](crate::Value) from JSON-like literal syntax,
//! as `serde_json::json!` builds a `serde_json::Value`.

/// Builds a [`Value`](crate::Value) from a JSON-like literal.
///
/// `null`, `true` and `false` are themselves; `[..]` is an array and
/// `{ key: value, .. }` an object, whose keys are string literals,
/// identifiers (taken as their name) or any expression in parentheses or
/// brackets that converts `Into<String>`. Anything else is a Rust
/// expression converted with `Value::from`, so variables, numbers,
/// strings, `Option`s, vectors and maps all fit. Trailing commas are
/// allowed. Object keys keep their order.
///
/// ```
/// use hcl::{value, Value};
///
/// let region = "eu-west-1";
/// let v = value!({
///     region: region,
///     "instance-count": 1 + 2,
///     tags: { Name: "web", Team: null },
///     ports: [80, 443, -1],
///     enabled: true,
/// });
/// assert_eq!(v["region"], "eu-west-1");
/// assert_eq!(v["instance-count"], 3);
/// assert_eq!(v["tags"]["Team"], Value::Null);
/// assert_eq!(v["ports"][2], -1);
/// assert_eq!(v.as_object().map(|o| o.len()), Some(5));
/// ```
///
/// The usual use is giving a program's data to a configuration as
/// variables:
///
/// ```
/// #[derive(serde::Deserialize)]
/// struct Config { zone_count: usize }
///
/// let mut ctx = hcl::Context::with_stdlib();
/// ctx.declare_var("var", hcl::value!({ zones: ["a", "b"] }));
/// let config: Config = hcl::from_str_with("zone_count = length(var.zones)", &ctx)?;
/// assert_eq!(config.zone_count, 2);
/// # Ok::<(), hcl::Error>(())
/// ```
#[macro_export]
macro_rules! value {
    ($($tokens:tt)+) => {
        $crate::__value_internal!($($tokens)+)
    };
}

/// The muncher behind [`value!`]: not part of the public API.
#[macro_export]
#[doc(hidden)]
macro_rules! __value_internal {
    // Arrays: `@array [done elements,] rest of the tokens`.
    (@array [$($elems:expr,)*]) => {
        ::std::vec![$($elems,)*]
    };
    (@array [$($elems:expr,)*] null $($rest:tt)*) => {
        $crate::__value_internal!(@array [$($elems,)* $crate::__value_internal!(null),] $($rest)*)
    };
    (@array [$($elems:expr,)*] true $($rest:tt)*) => {
        $crate::__value_internal!(@array [$($elems,)* $crate::__value_internal!(true),] $($rest)*)
    };
    (@array [$($elems:expr,)*] false $($rest:tt)*) => {
        $crate::__value_internal!(@array [$($elems,)* $crate::__value_internal!(false),] $($rest)*)
    };
    (@array [$($elems:expr,)*] [$($array:tt)*] $($rest:tt)*) => {
        $crate::__value_internal!(@array [$($elems,)* $crate::__value_internal!([$($array)*]),] $($rest)*)
    };
    (@array [$($elems:expr,)*] {$($object:tt)*} $($rest:tt)*) => {
        $crate::__value_internal!(@array [$($elems,)* $crate::__value_internal!({$($object)*}),] $($rest)*)
    };
    (@array [$($elems:expr,)*] $next:expr, $($rest:tt)*) => {
        $crate::__value_internal!(@array [$($elems,)* $crate::__value_internal!($next),] $($rest)*)
    };
    (@array [$($elems:expr,)*] $last:expr) => {
        $crate::__value_internal!(@array [$($elems,)* $crate::__value_internal!($last),])
    };
    (@array [$($elems:expr,)*] , $($rest:tt)*) => {
        $crate::__value_internal!(@array [$($elems,)*] $($rest)*)
    };

    // Objects: `@object map (key tokens) (rest) (copy of rest)`.
    (@object $map:ident () () ()) => {};
    // A value is done: insert it, go on after the comma.
    (@object $map:ident [$($key:tt)+] ($value:expr) , $($rest:tt)*) => {
        let _ = $map.insert(($($key)+).into(), $value);
        $crate::__value_internal!(@object $map () ($($rest)*) ($($rest)*));
    };
    (@object $map:ident [$($key:tt)+] ($value:expr)) => {
        let _ = $map.insert(($($key)+).into(), $value);
    };
    // The value after the colon.
    (@object $map:ident ($($key:tt)+) (: null $($rest:tt)*) $copy:tt) => {
        $crate::__value_internal!(@object $map [$($key)+] ($crate::__value_internal!(null)) $($rest)*);
    };
    (@object $map:ident ($($key:tt)+) (: true $($rest:tt)*) $copy:tt) => {
        $crate::__value_internal!(@object $map [$($key)+] ($crate::__value_internal!(true)) $($rest)*);
    };
    (@object $map:ident ($($key:tt)+) (: false $($rest:tt)*) $copy:tt) => {
        $crate::__value_internal!(@object $map [$($key)+] ($crate::__value_internal!(false)) $($rest)*);
    };
    (@object $map:ident ($($key:tt)+) (: [$($array:tt)*] $($rest:tt)*) $copy:tt) => {
        $crate::__value_internal!(@object $map [$($key)+] ($crate::__value_internal!([$($array)*])) $($rest)*);
    };
    (@object $map:ident ($($key:tt)+) (: {$($object:tt)*} $($rest:tt)*) $copy:tt) => {
        $crate::__value_internal!(@object $map [$($key)+] ($crate::__value_internal!({$($object)*})) $($rest)*);
    };
    (@object $map:ident ($($key:tt)+) (: $value:expr , $($rest:tt)*) $copy:tt) => {
        $crate::__value_internal!(@object $map [$($key)+] ($crate::__value_internal!($value)) , $($rest)*);
    };
    (@object $map:ident ($($key:tt)+) (: $value:expr) $copy:tt) => {
        $crate::__value_internal!(@object $map [$($key)+] ($crate::__value_internal!($value)));
    };
    // The key: an identifier is its own name, anything else an expression.
    (@object $map:ident () ($key:ident : $($rest:tt)*) $copy:tt) => {
        $crate::__value_internal!(@object $map (::std::stringify!($key)) (: $($rest)*) (: $($rest)*));
    };
    (@object $map:ident () (($key:expr) : $($rest:tt)*) $copy:tt) => {
        $crate::__value_internal!(@object $map ($key) (: $($rest)*) (: $($rest)*));
    };
    (@object $map:ident () ([$key:expr] : $($rest:tt)*) $copy:tt) => {
        $crate::__value_internal!(@object $map ($key) (: $($rest)*) (: $($rest)*));
    };
    (@object $map:ident () ($key:literal : $($rest:tt)*) $copy:tt) => {
        $crate::__value_internal!(@object $map ($key) (: $($rest)*) (: $($rest)*));
    };

    // The entry points.
    (null) => {
        $crate::Value::Null
    };
    (true) => {
        $crate::Value::Bool(true)
    };
    (false) => {
        $crate::Value::Bool(false)
    };
    ([]) => {
        $crate::Value::Array(::std::vec::Vec::new())
    };
    ([ $($tokens:tt)+ ]) => {
        $crate::Value::Array($crate::__value_internal!(@array [] $($tokens)+))
    };
    ({}) => {
        $crate::Value::Object($crate::Map::new())
    };
    ({ $($tokens:tt)+ }) => {
        $crate::Value::Object({
            let mut object = $crate::Map::new();
            $crate::__value_internal!(@object object () ($($tokens)+) ($($tokens)+));
            object
        })
    };
    ($other:expr) => {
        $crate::Value::from($other)
    };
}
