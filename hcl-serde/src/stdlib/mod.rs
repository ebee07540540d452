//! The standard functions: the reference implementation's function table
//! (go-cty 1.12.1 `function/stdlib` under Terraform's names, plus `try`
//! and `can` from hcl's `ext/tryfunc`).
//!
//! The table is opt-in: add all of it to a [`Context`] with
//! [`Context::with_stdlib`] or [`Context::add_stdlib`], or pick functions
//! one by one: [`get`] returns a function's [`FuncDef`] by name, and
//! [`all`] iterates over every `(name, definition)` pair. Each function is
//! described under [Reference](#reference-every-function) below.
//!
//! ```
//! use hcl::{Context, Value};
//! use hcl::eval::eval_expr_str;
//!
//! let ctx = Context::with_stdlib();
//! assert_eq!(eval_expr_str(r#"upper("hcl")"#, &ctx)?, Value::from("HCL"));
//!
//! // Only some functions, under names of your choice:
//! let mut ctx = Context::new();
//! let upper = hcl::stdlib::get("upper").expect("a standard function");
//! ctx.declare_func("upper", upper.clone());
//! ctx.declare_func("shout", upper);
//! assert_eq!(eval_expr_str(r#"shout("hi")"#, &ctx)?, Value::from("HI"));
//! # Ok::<(), hcl::Error>(())
//! ```
//!
//! Terraform's function library, a second opt-in table with Terraform's
//! semantics where they differ (`length` of a string, `coalesce` skipping
//! `""`) and some 50 more functions (`cidrsubnet`, `base64encode`,
//! `sha256`, `yamlencode`, `file`...), is [`terraform`] (feature
//! `terraform`, off by default): [`Context::with_terraform_functions`].
//!
//! Every function checks and converts its arguments as the reference does
//! (a `string` parameter accepts `15` as `"15"`), rejects `null` where the
//! reference does, and reports errors pointing at the argument at fault.
//!
//! # The functions (go-cty's table)
//!
//! The Terraform table is in [`terraform`].
//!
//! | Family | Function | Summary |
//! | --- | --- | --- |
//! | strings | [`upper`](#upper) | letters to upper case |
//! | strings | [`lower`](#lower) | letters to lower case |
//! | strings | [`format`](#format) | `printf`-like formatting with `%d %s %q %v %f %e %g %x %X %o %b %t %%` |
//! | strings | [`formatlist`](#formatlist) | `format` over lists, element by element |
//! | strings | [`join`](#join) | joins the elements of lists with a separator |
//! | strings | [`split`](#split) | splits a string at each separator |
//! | strings | [`trimspace`](#trimspace) | removes leading and trailing Unicode white space |
//! | strings | [`trim`](#trim) | removes leading and trailing characters of a set |
//! | strings | [`trimprefix`](#trimprefix) | removes a prefix once |
//! | strings | [`trimsuffix`](#trimsuffix) | removes a suffix once |
//! | strings | [`replace`](#replace) | replaces every occurrence of a substring (no regex) |
//! | strings | [`substr`](#substr) | a substring by offset and length, in characters |
//! | strings | [`strlen`](#strlen) | the number of characters (grapheme clusters) |
//! | strings | [`strrev`](#strrev) | the characters in reverse order |
//! | strings | [`title`](#title) | the first letter of each word to upper case |
//! | strings | [`chomp`](#chomp) | removes trailing newlines |
//! | strings | [`indent`](#indent) | indents every line but the first |
//! | strings | [`regex`](#regex) | the first match of a regular expression |
//! | strings | [`regexall`](#regexall) | every match of a regular expression |
//! | numeric | [`min`](#min) | the smallest of numbers |
//! | numeric | [`max`](#max) | the largest of numbers |
//! | numeric | [`abs`](#abs) | the absolute value |
//! | numeric | [`ceil`](#ceil) | the smallest integer not below a number |
//! | numeric | [`floor`](#floor) | the largest integer not above a number |
//! | numeric | [`log`](#log) | the logarithm in a base |
//! | numeric | [`pow`](#pow) | a number raised to a power |
//! | numeric | [`signum`](#signum) | -1, 0 or 1 by the sign |
//! | numeric | [`parseint`](#parseint) | an integer from text in a base from 2 to 62 |
//! | collections | [`length`](#length) | the number of elements of a list, set, tuple or map (strings and objects are errors) |
//! | collections | [`concat`](#concat) | the lists, one after the other |
//! | collections | [`contains`](#contains) | whether a list or set has a value |
//! | collections | [`keys`](#keys) | the keys of a map or object, sorted |
//! | collections | [`values`](#values) | the values of a map or object, by key |
//! | collections | [`merge`](#merge) | maps or objects merged, later keys winning |
//! | collections | [`lookup`](#lookup) | a map element, or a default |
//! | collections | [`element`](#element) | a list element by index, wrapping around |
//! | collections | [`flatten`](#flatten) | nested lists as one list |
//! | collections | [`coalesce`](#coalesce) | the first argument that is not null (empty strings count) |
//! | collections | [`coalescelist`](#coalescelist) | the first non-empty list |
//! | collections | [`compact`](#compact) | a list of strings without empty ones and nulls |
//! | collections | [`distinct`](#distinct) | a list without duplicates |
//! | collections | [`reverse`](#reverse) | a list in reverse order |
//! | collections | [`sort`](#sort) | strings sorted lexicographically |
//! | collections | [`range`](#range) | a list of numbers from start to limit by step |
//! | collections | [`chunklist`](#chunklist) | a list cut into lists of a size |
//! | collections | [`slice`](#slice) | the elements between two indexes |
//! | collections | [`zipmap`](#zipmap) | a map from a list of keys and a list of values |
//! | collections | [`setproduct`](#setproduct) | the Cartesian product of sets |
//! | collections | [`setunion`](#setunion) | the union of sets |
//! | collections | [`setintersection`](#setintersection) | the intersection of sets |
//! | collections | [`setsubtract`](#setsubtract) | a set without the elements of another |
//! | collections | [`setsymmetricdifference`](#setsymmetricdifference) | the elements in exactly one of the sets |
//! | encoding | [`jsonencode`](#jsonencode) | a value as JSON text |
//! | encoding | [`jsondecode`](#jsondecode) | JSON text as a value |
//! | encoding | [`csvdecode`](#csvdecode) | CSV text (with a header row) as a list of objects |
//! | date and time | [`formatdate`](#formatdate) | formats an RFC 3339 timestamp |
//! | date and time | [`timeadd`](#timeadd) | adds a duration to an RFC 3339 timestamp |
//! | conversion | [`tostring`](#tostring) | converts to a string |
//! | conversion | [`tonumber`](#tonumber) | converts to a number |
//! | conversion | [`tobool`](#tobool) | converts to a bool |
//! | conversion | [`tolist`](#tolist) | converts to a list |
//! | conversion | [`toset`](#toset) | converts to a set |
//! | conversion | [`tomap`](#tomap) | converts to a map |
//! | errors | [`try`](#try) | the first argument that evaluates without error |
//! | errors | [`can`](#can) | whether an expression evaluates without error |
//!
//! # Where the functions differ from the reference
//!
//! The tests compare every function with the reference on some 3600
//! expressions (`hcl-serde/tests/stdlib/`). Known differences, all at the
//! edges:
//!
//! - `jsondecode` reads numbers as [`Number`](crate::Number) holds them:
//!   beyond its range (`1e-400`, `1e400`) the value differs or is an
//!   error; JSON nested deeper than the context's depth limit (256 by
//!   default; the reference allows 10000) is an error.
//! - `regex` and `regexall` translate Go's syntax for the `regex` crate
//!   (ASCII `\d \s \w \b`, octal escapes, literal braces, group names,
//!   repetition limits): a repetition after a flag group that follows
//!   another repetition (`x*(?i)*`) is an error here; Unicode classes
//!   (`\pL`) and the size limits are the crate's.
//! - Grapheme clusters (`strlen`, `substr`, `strrev`, `format` widths) and
//!   case mappings (`upper`, `lower`, `title`) follow the reference's
//!   Unicode 13 where newer Unicode changed them in ways the tests found
//!   (Indic conjuncts, case pairs added in 14 and 16); other changes of
//!   Unicode 14-16 are not undone.
//! - Infinity: a [`Number`](crate::Number) is finite, so a result the
//!   reference computes as an infinity (`log(0, 10)`, `pow(0, -1)`, `1/0`
//!   inside `can`, which is then `false`) or as NaN (`log(-1, 10)`, where
//!   the reference reports a Go panic) is an error at the call.
//! - `log` and `pow` reproduce Go's `math.Log`, `math.Pow` and the amd64
//!   `math.Exp` (FMA path) bit for bit; `ceil` and `floor` of non-integers
//!   beyond a decimal's 28 digits are computed in `f64`.
//! - Type unification of mixed nested collections (a map of maps beside
//!   an object, a set beside a list) follows a simpler rule than go-cty's
//!   `convert.Unify`: a few such combinations that the reference rejects
//!   are accepted (`tomap({a = tomap({}), b = {c = tomap({d = 1})}})`).
//! - `try`'s error lists each argument's error without its position.
//!
//! # Reference: every function
//!
//! In the order of the table above; each example runs as a test.
#![doc = include_str!("functions.md")]

mod collections;
mod conversion;
mod datetime;
mod encoding;
mod format;
mod graphemes;
mod numeric;
mod regexp;
mod strings;
#[cfg(feature = "terraform")]
pub mod terraform;
mod trycan;

pub(crate) use self::collections::*;
pub(crate) use self::conversion::*;
pub(crate) use self::datetime::*;
pub(crate) use self::encoding::*;
pub(crate) use self::numeric::*;
pub(crate) use self::strings::*;
pub(crate) use self::trycan::*;

use crate::eval::{Context, FuncDef};

/// One family's table: each function's name and constructor.
type Table = &'static [(&'static str, fn() -> FuncDef)];

/// The tables of all families.
const TABLES: [Table; 7] = [
    STRINGS,
    NUMERIC,
    COLLECTIONS,
    ENCODING,
    DATETIME,
    CONVERSION,
    TRYCAN,
];

/// Every standard function: its name and its definition, in the order of
/// the table above.
///
/// ```
/// let names: Vec<&str> = hcl::stdlib::all().map(|(name, _)| name).collect();
/// assert!(names.contains(&"upper"));
/// ```
pub fn all() -> impl Iterator<Item = (&'static str, FuncDef)> {
    TABLES
        .into_iter()
        .flat_map(|t| t.iter())
        .map(|(name, make)| (*name, reference_flags(name, make())))
}

/// The functions whose parameters accept values of unknown type in the
/// reference (cty's `AllowDynamicType`): their result type is known even
/// then, which decides some errors on unknown values.
const ALLOW_DYNAMIC_TYPE: &[&str] = &[
    "abs",
    "coalesce",
    "coalescelist",
    "jsonencode",
    "length",
    "lower",
    "max",
    "merge",
    "min",
    "setintersection",
    "setsubtract",
    "setsymmetricdifference",
    "setunion",
    "strlen",
    "substr",
    "upper",
];

/// The functions that are called with a known collection holding unknown
/// values and give what the reference gives (checked in
/// `tests/unknowns.rs`): they move elements without looking at them.
/// Any other function called so is unknown of its result type.
const ALLOW_UNKNOWN_ELEMENTS: &[&str] = &[
    "chunklist",
    "coalescelist",
    "concat",
    "element",
    "keys",
    "length",
    "merge",
    "reverse",
    "slice",
    "tolist",
    "tomap",
    "values",
    "zipmap",
];

fn reference_flags(name: &str, def: FuncDef) -> FuncDef {
    let def = if ALLOW_UNKNOWN_ELEMENTS.contains(&name) {
        def.allowing_unknown_elements()
    } else {
        def
    };
    if ALLOW_DYNAMIC_TYPE.contains(&name) {
        def.allowing_dynamic_type()
    } else {
        def
    }
}

/// The names of every standard function, in the order of [`all`].
pub fn names() -> impl Iterator<Item = &'static str> {
    TABLES
        .into_iter()
        .flat_map(|t| t.iter())
        .map(|(name, _)| *name)
}

/// The standard function called `name`, if there is one.
///
/// ```
/// assert!(hcl::stdlib::get("upper").is_some());
/// assert!(hcl::stdlib::get("file").is_none());
/// ```
pub fn get(name: &str) -> Option<FuncDef> {
    TABLES
        .into_iter()
        .flat_map(|t| t.iter())
        .find(|(n, _)| *n == name)
        .map(|(n, make)| reference_flags(n, make()))
}

impl Context {
    /// A context that supports variables and functions, with every
    /// standard function declared (see [`crate::stdlib`]).
    pub fn with_stdlib() -> Context {
        let mut ctx = Context::new();
        ctx.add_stdlib();
        ctx
    }

    /// Declares every standard function (see [`crate::stdlib`]), replacing
    /// functions of the same names.
    pub fn add_stdlib(&mut self) {
        for (name, def) in all() {
            self.declare_func(name, def);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique() {
        let mut seen = std::collections::HashSet::new();
        for name in names() {
            assert!(seen.insert(name), "`{name}` registered twice");
        }
    }

    /// The constructors are private: `functions.md` is where users read
    /// what each function does.
    #[test]
    fn every_function_has_a_reference_entry() {
        let reference = include_str!("functions.md");
        for name in names() {
            let heading = format!("### `{name}`\n");
            assert!(
                reference.contains(&heading),
                "no entry for `{name}` in functions.md"
            );
        }
    }
}
