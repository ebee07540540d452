//! The one rule for a test whose data is missing.
//!
//! Several tests check against files that live outside the repository, in
//! `../shared` beside it: the conformance suites, the corpus, and the
//! reference implementations built from it (`hcl-oracle`, `tforacle`). A
//! user's own clone has none of them, and its tests pass without them,
//! saying what they did not check. CI has them, and there a test that did
//! not run must fail rather than pass having checked nothing: `.ci/run`
//! sets [`REQUIRE_VAR`] when `../shared` exists, and [`not_run`] then
//! panics.
//!
//! Every test that skips a check for missing data calls [`not_run`].
//!
//! Beside it, [`Rng`]: the generator of the tests that generate inputs.

mod rng;

pub use rng::Rng;

use std::fmt::Display;

/// The environment variable that makes missing data an error: set (to
/// anything but empty or `0`) by `.ci/run` when `../shared` exists.
pub const REQUIRE_VAR: &str = "HCL_REQUIRE_SHARED";

/// Whether missing shared data is an error ([`REQUIRE_VAR`] is set).
pub fn required() -> bool {
    std::env::var_os(REQUIRE_VAR).is_some_and(|v| !v.is_empty() && v != "0")
}

/// Reports a check that was not run because its data is missing
/// (`what`: which check, and which folder or program it lacked).
///
/// Prints the message and returns, or panics with it when
/// [`REQUIRE_VAR`] is set. Call it where the test would skip.
#[track_caller]
pub fn not_run(what: impl Display) {
    if required() {
        panic!("{what}\n({REQUIRE_VAR} is set: every suite, the corpus and every oracle of ../shared must be checked)");
    }
    println!("{what}");
}
