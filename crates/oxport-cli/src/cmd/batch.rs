//! What the commands that take many files share: where each output goes,
//! one line per failed file, and handing the batch to a Dask cluster.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Where each input is written: `output` itself for one input when `output`
/// is not a directory; otherwise `output/NAME` + `suffix`, the directory
/// created. `None` for an input without a file name (`..`).
pub fn targets(
    inputs: &[PathBuf],
    output: &Path,
    suffix: &str,
) -> oxport::Result<Vec<Option<PathBuf>>> {
    if inputs.len() == 1 && !output.is_dir() {
        return Ok(vec![Some(output.to_path_buf())]);
    }
    std::fs::create_dir_all(output).map_err(|e| oxport::Error::Io {
        path: Some(output.to_path_buf()),
        source: e,
    })?;
    Ok(inputs
        .iter()
        .map(|input| {
            let name = input.file_name()?;
            let mut name = name.to_os_string();
            name.push(suffix);
            Some(output.join(name))
        })
        .collect())
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
/// interpreter named by `OXPORT_PYTHON`, else `python3`), which reports the
/// files and failures itself.
pub fn on_cluster(
    scheduler: &str,
    kind: &str,
    inputs: &[PathBuf],
    output: &Path,
    options: &[String],
) -> oxport::Result<()> {
    let python = std::env::var_os("OXPORT_PYTHON").unwrap_or_else(|| "python3".into());
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
            "{} -m oxport.dask failed ({status}); is the `oxport[dask]` extra installed?",
            python.to_string_lossy()
        ))
        .into()),
    }
}
