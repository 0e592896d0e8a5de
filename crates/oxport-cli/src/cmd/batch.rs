//! Running a batch job ([`oxport::batch::Job`]): here, one file after the
//! other under one progress bar, or handed to a Dask cluster.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Instant;

use oxport::batch::{Job, located};

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

/// Runs `job` here on `threads` threads, one file after the other under one
/// progress bar over the inputs' sizes, a line on standard error for each
/// file that fails.
pub fn each_file(job: &Job, threads: Option<usize>, label: &str) -> oxport::Result<Totals> {
    let targets = job.plan()?;
    let progress = bar(label);
    // An object's size is not asked for here: it counts once fetched.
    progress.set_length(
        job.inputs
            .iter()
            .map(|p| std::fs::metadata(p).map_or(0, |m| m.len()))
            .sum(),
    );
    let start = Instant::now();
    let mut totals = Totals {
        files: job.inputs.len(),
        failed: 0,
        bytes_in: 0,
        bytes_out: 0,
        seconds: 0.0,
    };
    for (input, target) in job.inputs.iter().zip(targets) {
        let before = progress.position();
        let moved = |done| progress.set_position(before + done);
        match job.conversion.run(input, &target, threads, &moved) {
            Ok(done) => {
                totals.bytes_in += done.bytes_in;
                totals.bytes_out += done.bytes_out;
                progress.set_position(before + done.bytes_in);
            }
            Err(error) => {
                let line = located(input, &error.to_string());
                progress.suspend(|| eprintln!("oxport: {line}"));
                totals.failed += 1;
            }
        }
    }
    progress.finish_and_clear();
    totals.seconds = start.elapsed().as_secs_f64();
    Ok(totals)
}

/// An error when any file failed (each was reported on its own line).
pub fn finish(failed: usize, total: usize) -> oxport::Result<()> {
    if failed == 0 {
        Ok(())
    } else {
        Err(std::io::Error::other(format!("{failed} of {total} files failed")).into())
    }
}

/// Runs `job` on the Dask cluster whose scheduler is at `scheduler`, one
/// task per file, through the Python package's `python -m oxport.dask`
/// (the interpreter named by `OXPORT_PYTHON`, else `python3`, `python` on
/// Windows), which is handed the job as JSON on its standard input and
/// reports the files and failures itself. Local paths are made absolute:
/// the workers may run elsewhere, in other folders.
pub fn on_cluster(scheduler: &str, job: Job) -> oxport::Result<()> {
    let job = absolute(job)?;
    job.plan()?;
    // Windows installs Python as `python` (and `py`), not `python3`.
    let default = if cfg!(windows) { "python" } else { "python3" };
    let python = std::env::var_os("OXPORT_PYTHON").unwrap_or_else(|| default.into());
    let not_started = |e: std::io::Error| {
        std::io::Error::new(
            e.kind(),
            format!(
                "--scheduler runs {} -m oxport.dask (set OXPORT_PYTHON to the Python \
                 that has `pip install 'oxport[dask]'`): {e}",
                python.to_string_lossy()
            ),
        )
    };
    let mut child = Command::new(&python)
        .args(["-m", "oxport.dask", "--scheduler", scheduler, "--job", "-"])
        .stdin(Stdio::piped())
        .spawn()
        .map_err(not_started)?;
    let mut stdin = child.stdin.take().expect("stdin is piped");
    // A Python that exits at once (no oxport) closes the pipe: its status says why.
    let _ = stdin.write_all(job.to_json().as_bytes());
    drop(stdin);
    let status = child.wait().map_err(not_started)?;
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

/// `job` with its local paths absolute (URLs as they are).
fn absolute(mut job: Job) -> oxport::Result<Job> {
    let absolute = |path: &Path| -> oxport::Result<std::path::PathBuf> {
        if oxport::remote::is_url(path) {
            return Ok(path.to_path_buf());
        }
        std::path::absolute(path).map_err(|e| oxport::Error::io_at(path, e))
    };
    for input in &mut job.inputs {
        *input = absolute(input)?;
    }
    job.output = match job.output {
        oxport::batch::Output::Directory(dir) => oxport::batch::Output::Directory(absolute(&dir)?),
        oxport::batch::Output::File(file) => oxport::batch::Output::File(absolute(&file)?),
    };
    Ok(job)
}
