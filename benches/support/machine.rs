//! The machine a benchmark ran on and its load, for its report.

/// The CPU model and the number of CPUs.
pub fn machine() -> String {
    let model = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|info| {
            info.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, m)| m.trim().to_owned())
        })
        .unwrap_or_else(|| "unknown CPU".to_owned());
    let cpus = std::thread::available_parallelism().map_or(0, |n| n.get());
    format!("{model}, {cpus} CPUs (nproc)")
}

/// The load averages over 1, 5 and 15 minutes (`/proc/loadavg`).
// Not every bench that names the machine reports the load.
#[allow(dead_code)]
pub fn load() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|l| {
            let v: Vec<&str> = l.split_whitespace().take(3).collect();
            (v.len() == 3).then(|| v.join(" "))
        })
        .unwrap_or_else(|| "unknown".to_owned())
}
