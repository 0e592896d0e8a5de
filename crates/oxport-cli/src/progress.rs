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

/// The peak resident memory of this process, in bytes.
pub fn peak_memory() -> u64 {
    // SAFETY: getrusage fills the struct it is given and nothing else.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) } != 0 {
        return 0;
    }
    // ru_maxrss is in kilobytes on Linux.
    (usage.ru_maxrss as u64) * 1024
}

pub fn megabytes(bytes: u64) -> f64 {
    bytes as f64 / 1e6
}
