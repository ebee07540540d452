//! Racing parsers in interleaved rounds, for the benches that compare
//! two libraries: the time budget (`HCL_BENCH_SECONDS`, default 3 s a
//! function), the rounds, MB/s and the median of paired rounds.

use std::hint::black_box;
use std::time::{Duration, Instant};

/// The time budget of each raced function (`HCL_BENCH_SECONDS`).
pub fn budget() -> Duration {
    let secs = std::env::var("HCL_BENCH_SECONDS")
        .ok()
        .and_then(|s| s.parse::<f64>().ok())
        .filter(|s| s.is_finite() && *s > 0.0)
        .unwrap_or(3.0);
    Duration::from_secs_f64(secs)
}

/// Runs every function over `inputs` in interleaved rounds until each has
/// had the budget; returns each one's round durations.
pub fn race(inputs: &[String], runs: &[fn(&str) -> bool]) -> Vec<Vec<Duration>> {
    let mut rounds = vec![Vec::new(); runs.len()];
    let budget = budget();
    let spent = |r: &[Duration]| r.iter().sum::<Duration>();
    while rounds.iter().any(|r| spent(r) < budget) {
        for (run, r) in runs.iter().zip(&mut rounds) {
            let start = Instant::now();
            for s in inputs {
                black_box(run(black_box(s)));
            }
            r.push(start.elapsed());
        }
    }
    rounds
}

/// MB/s over all rounds.
pub fn mbs(bytes: usize, rounds: &[Duration]) -> f64 {
    bytes as f64 * rounds.len() as f64 / rounds.iter().sum::<Duration>().as_secs_f64() / 1e6
}

/// The median of `theirs[i] / ours[i]`: paired rounds ran back to back,
/// so their ratio resists the noise of a shared machine.
pub fn paired(ours: &[Duration], theirs: &[Duration]) -> f64 {
    let mut r: Vec<f64> = ours
        .iter()
        .zip(theirs)
        .map(|(o, t)| t.as_secs_f64() / o.as_secs_f64())
        .collect();
    r.sort_by(f64::total_cmp);
    r.get(r.len() / 2).copied().unwrap_or(f64::NAN)
}
