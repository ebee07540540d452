//! Counting and printing results.

use std::collections::BTreeMap;
use std::fmt::{self, Write};
use std::time::Duration;

/// How many failures each part prints when not verbose.
const SHOWN_FAILURES: usize = 15;

/// Passed and failed counts of one group.
#[derive(Debug, Default, Clone, Copy)]
pub struct Counts {
    /// Inputs that agreed with the reference.
    pub passed: usize,
    /// Inputs that did not.
    pub failed: usize,
    /// Inputs that cannot be checked yet (they call a standard function
    /// that is not implemented): neither passed nor failed.
    pub pending: usize,
}

impl Counts {
    fn add(&mut self, other: Counts) {
        self.passed += other.passed;
        self.failed += other.failed;
        self.pending += other.pending;
    }
}

/// The results of one part of the run (conformance cases, or corpus
/// files), grouped for printing.
#[derive(Debug)]
pub struct Part {
    title: &'static str,
    group_label: &'static str,
    groups: BTreeMap<String, Counts>,
    failures: Vec<(String, String)>,
    pending: Vec<(String, String)>,
    notes: Vec<String>,
    details: Vec<String>,
    slowest: Option<(Duration, String)>,
    elapsed: Duration,
}

impl Part {
    /// An empty part; `group_label` names its groups in the table
    /// ("section", "kind").
    pub fn new(title: &'static str, group_label: &'static str) -> Part {
        Part {
            title,
            group_label,
            groups: BTreeMap::new(),
            failures: Vec::new(),
            pending: Vec::new(),
            notes: Vec::new(),
            details: Vec::new(),
            slowest: None,
            elapsed: Duration::ZERO,
        }
    }

    /// Records the outcome of input `name` in `group`, and how long it
    /// took.
    pub fn record(&mut self, group: &str, name: &str, outcome: Result<(), String>, took: Duration) {
        let counts = self.groups.entry(group.to_owned()).or_default();
        match outcome {
            Ok(()) => counts.passed += 1,
            Err(reason) => {
                counts.failed += 1;
                self.failures.push((name.to_owned(), reason));
            }
        }
        self.elapsed += took;
        let slower = match &self.slowest {
            Some((d, _)) => took > *d,
            None => true,
        };
        if slower {
            self.slowest = Some((took, name.to_owned()));
        }
    }

    /// Records input `name` in `group` as pending, with the reason.
    pub fn record_pending(&mut self, group: &str, name: &str, why: String, took: Duration) {
        self.groups.entry(group.to_owned()).or_default().pending += 1;
        self.pending.push((name.to_owned(), why));
        self.elapsed += took;
    }

    /// Adds a line printed after the table.
    pub fn note(&mut self, line: String) {
        self.notes.push(line);
    }

    /// Adds a line printed after the notes in verbose output only.
    pub fn detail(&mut self, line: String) {
        self.details.push(line);
    }

    /// The totals of every group.
    pub fn totals(&self) -> Counts {
        let mut total = Counts::default();
        for c in self.groups.values() {
            total.add(*c);
        }
        total
    }

    /// The table, the notes and the failures (all of them when
    /// `verbose`), as printed.
    pub fn render(&self, verbose: bool) -> String {
        let mut out = String::new();
        // Writing to a String cannot fail.
        let _ = self.render_to(&mut out, verbose);
        out
    }

    fn render_to(&self, out: &mut String, verbose: bool) -> fmt::Result {
        writeln!(out, "== {}", self.title)?;
        let width = self
            .groups
            .keys()
            .map(String::len)
            .chain([self.group_label.len(), 5])
            .max()
            .unwrap_or(0);
        let t = self.totals();
        let with_pending = t.pending > 0;
        let row = |out: &mut String, label: &str, c: &Counts| {
            if with_pending {
                writeln!(
                    out,
                    "  {label:<width$}  {:>6}  {:>6}  {:>7}",
                    c.passed, c.failed, c.pending
                )
            } else {
                writeln!(out, "  {label:<width$}  {:>6}  {:>6}", c.passed, c.failed)
            }
        };
        if with_pending {
            writeln!(
                out,
                "  {:<width$}  {:>6}  {:>6}  {:>7}",
                self.group_label, "passed", "failed", "pending"
            )?;
        } else {
            writeln!(
                out,
                "  {:<width$}  {:>6}  {:>6}",
                self.group_label, "passed", "failed"
            )?;
        }
        for (group, c) in &self.groups {
            row(out, group, c)?;
        }
        row(out, "total", &t)?;
        write!(
            out,
            "  time {:.2} s summed over inputs (this build's profile)",
            self.elapsed.as_secs_f64()
        )?;
        if let Some((d, name)) = &self.slowest {
            write!(out, ", slowest {name} {:.1} ms", d.as_secs_f64() * 1e3)?;
        }
        writeln!(out)?;
        for n in &self.notes {
            writeln!(out, "  {n}")?;
        }
        if verbose {
            for d in &self.details {
                writeln!(out, "    {d}")?;
            }
        }
        if !self.pending.is_empty() {
            let shown = if verbose {
                self.pending.len()
            } else {
                SHOWN_FAILURES.min(self.pending.len())
            };
            writeln!(
                out,
                "  pending ({} of {}; not counted as passed or failed):",
                shown,
                self.pending.len()
            )?;
            for (name, why) in self.pending.iter().take(shown) {
                writeln!(out, "    {name}: {why}")?;
            }
            if shown < self.pending.len() {
                writeln!(out, "    ... (HCL_CONFORMANCE_VERBOSE=1 lists them all)")?;
            }
        }
        if !self.failures.is_empty() {
            let shown = if verbose {
                self.failures.len()
            } else {
                SHOWN_FAILURES.min(self.failures.len())
            };
            writeln!(out, "  failures ({} of {}):", shown, self.failures.len())?;
            for (name, reason) in self.failures.iter().take(shown) {
                writeln!(out, "    {name}: {reason}")?;
            }
            if shown < self.failures.len() {
                writeln!(out, "    ... (HCL_CONFORMANCE_VERBOSE=1 lists them all)")?;
            }
        }
        writeln!(out)
    }
}

/// `s` quoted and escaped, cut to about `max` characters.
pub fn excerpt(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        format!("{s:?}")
    } else {
        let cut: String = s.chars().take(max).collect();
        format!("{cut:?}...")
    }
}
