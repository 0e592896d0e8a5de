//! Progress bars and the numbers of the summaries.

use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};

/// A bar counting elements, drawn on stderr only when it is a terminal.
pub fn bar(message: &str) -> ProgressBar {
    let bar = ProgressBar::new(0);
    bar.set_style(
        ProgressStyle::with_template("{msg:>12} [{bar:40}] {percent:>3}% {elapsed_precise}")
            .expect("a valid template")
            .progress_chars("=> "),
    );
    bar.set_message(message.to_string());
    bar.enable_steady_tick(Duration::from_millis(100));
    bar
}

/// Resident memory now and at its peak since the last [`reset_peak_memory`],
/// in bytes, from `/proc/self/status` (zeros where there is no such file).
pub fn memory() -> (u64, u64) {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find_map(|line| line.strip_prefix(name))
            .and_then(|rest| {
                rest.trim()
                    .trim_end_matches("kB")
                    .trim()
                    .parse::<u64>()
                    .ok()
            })
            .map_or(0, |kb| kb * 1024)
    };
    (field("VmRSS:"), field("VmHWM:"))
}

/// Starts a new peak for [`memory`] (Linux: writing 5 to `/proc/self/clear_refs`).
pub fn reset_peak_memory() {
    let _ = std::fs::write("/proc/self/clear_refs", "5");
}

pub fn megabytes(bytes: u64) -> f64 {
    bytes as f64 / 1e6
}
