//! The thread's CPU clock, for timings that other processes of a shared
//! machine should not count.

use std::time::Instant;

/// The CPU time this thread has run: what the timings count, so that the
/// other processes of a shared machine (which preempt a 6 MB call more
/// often than a 52 KB one) do not.
pub fn cpu_seconds() -> f64 {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid `timespec` to write; the clock id is a
    // constant the kernel knows.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    if rc != 0 {
        return Instant::now()
            .duration_since(*START.get_or_init(Instant::now))
            .as_secs_f64();
    }
    t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9
}

/// The wall clock's origin, for a system without a thread CPU clock.
static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
