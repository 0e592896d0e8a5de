//! What the commands that take many files share: where each output goes,
//! one line per failed file, and handing the batch to a Dask cluster.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use oxport::remote;

use crate::progress::{bar, megabytes};

/// What a batch did.
pub struct Totals {
    pub files: usize,
    pub failed: usize,
    pub bytes_in: u64,
    pub bytes_out: u64,
    pub seconds: f64,
}

impl Totals {
    /// `N of M files {what}: sizes, ratio, time and speed`.
    pub fn describe(&self, what: &str) -> String {
        format!(
            "{} of {} files {what}: {:.1} MB to {:.1} MB ({:.2}%) in {:.2} s ({:.0} MB/s)",
            self.files - self.failed,
            self.files,
            megabytes(self.bytes_in),
            megabytes(self.bytes_out),
            100.0 * self.bytes_out as f64 / self.bytes_in.max(1) as f64,
            self.seconds,
            megabytes(self.bytes_in) / self.seconds.max(1e-9),
        )
    }

    /// An error when any file failed (each was reported on its own line).
    pub fn finish(&self) -> oxport::Result<()> {
        finish(self.failed, self.files)
    }
}

/// Runs `convert(input, target, moved)` on each file in turn under one
/// progress bar over the inputs' sizes, a line on standard error for each
/// file that fails. `convert` gives the sizes read and written, and may call
/// `moved(bytes)` as it goes through its input.
pub fn each_file(
    inputs: &[PathBuf],
    output: &Path,
    suffix: &str,
    label: &str,
    mut convert: impl FnMut(&Path, &Path, &dyn Fn(u64)) -> oxport::Result<(u64, u64)>,
) -> oxport::Result<Totals> {
    let targets = targets(inputs, output, suffix)?;
    let progress = bar(label);
    // An object's size is not asked for here: it counts once fetched.
    progress.set_length(
        inputs
            .iter()
            .map(|p| std::fs::metadata(p).map_or(0, |m| m.len()))
            .sum(),
    );
    let start = Instant::now();
    let mut totals = Totals {
        files: inputs.len(),
        failed: 0,
        bytes_in: 0,
        bytes_out: 0,
        seconds: 0.0,
    };
    for (input, target) in inputs.iter().zip(targets) {
        let before = progress.position();
        match convert(input, &target, &|done| progress.set_position(before + done)) {
            Ok((bytes_in, bytes_out)) => {
                totals.bytes_in += bytes_in;
                totals.bytes_out += bytes_out;
                progress.set_position(before + bytes_in);
            }
            Err(error) => {
                progress.suspend(|| eprintln!("oxport: {}", located(input, &error)));
                totals.failed += 1;
            }
        }
    }
    progress.finish_and_clear();
    totals.seconds = start.elapsed().as_secs_f64();
    Ok(totals)
}

/// Where each input is written: `output` itself for one input when `output`
/// is not a directory (for a URL: does not end in `/`); otherwise as
/// [`oxport::batch::targets`] places them in `output` (two inputs that
/// would write one file are refused before anything is written), the
/// directory created.
pub fn targets(inputs: &[PathBuf], output: &Path, suffix: &str) -> oxport::Result<Vec<PathBuf>> {
    if inputs.len() == 1 && !is_directory(output) {
        return Ok(vec![output.to_path_buf()]);
    }
    let targets = oxport::batch::targets(inputs, output, suffix, false)?;
    if !remote::is_url(output) {
        std::fs::create_dir_all(output).map_err(|e| oxport::Error::io_at(output, e))?;
    }
    Ok(targets)
}

/// Whether `output` is a directory: one that exists, or a URL ending in
/// `/` (a prefix in a bucket).
pub fn is_directory(output: &Path) -> bool {
    if remote::is_url(output) {
        output.as_os_str().to_string_lossy().ends_with('/')
    } else {
        output.is_dir()
    }
}

/// The error's text, prefixed with the file it is about unless it names it.
pub fn located(path: &Path, error: &oxport::Error) -> String {
    let text = error.to_string();
    let name = path.display().to_string();
    if text.starts_with(&name) {
        text
    } else {
        format!("{name}: {text}")
    }
}

/// An error when any file failed (each was reported on its own line).
pub fn finish(failed: usize, total: usize) -> oxport::Result<()> {
    if failed == 0 {
        Ok(())
    } else {
        Err(std::io::Error::other(format!("{failed} of {total} files failed")).into())
    }
}

/// Runs the batch on the Dask cluster whose scheduler is at `scheduler`:
/// one task per file, through the Python package's `oxport.dask` (the
/// interpreter named by `OXPORT_PYTHON`, else `python3`, `python` on
/// Windows), which reports the
/// files and failures itself.
pub fn on_cluster(
    scheduler: &str,
    kind: &str,
    inputs: &[PathBuf],
    output: &Path,
    options: &[String],
) -> oxport::Result<()> {
    // Windows installs Python as `python` (and `py`), not `python3`.
    let default = if cfg!(windows) { "python" } else { "python3" };
    let python = std::env::var_os("OXPORT_PYTHON").unwrap_or_else(|| default.into());
    let status = Command::new(&python)
        .args([
            "-m",
            "oxport.dask",
            "--scheduler",
            scheduler,
            "--kind",
            kind,
        ])
        .arg("--out")
        .arg(output)
        .args(options)
        .arg("--")
        .args(inputs)
        .status()
        .map_err(|e| {
            std::io::Error::new(
                e.kind(),
                format!(
                    "--scheduler runs {} -m oxport.dask (set OXPORT_PYTHON to the Python \
                     that has `pip install 'oxport[dask]'`): {e}",
                    python.to_string_lossy()
                ),
            )
        })?;
    match status.code() {
        Some(0) => Ok(()),
        Some(1) => {
            Err(std::io::Error::other("some files failed on the cluster (listed above)").into())
        }
        _ => Err(std::io::Error::other(format!(
            "{} -m oxport.dask failed ({status}); is the `oxport[dask]` extra installed? \
             (OXPORT_PYTHON names the Python that has it)",
            python.to_string_lossy()
        ))
        .into()),
    }
}
