//! Files that appear whole or not at all.

use std::fs::File;
use std::path::{Path, PathBuf};

use crate::{Error, Result};

/// Creates a temporary file beside `path`, lets `fill` write it, and renames it
/// to `path` on success. On any error the temporary file is removed and the
/// error names `path`; an existing file at `path` is left untouched.
///
/// A `path` that exists and is not a regular file (`/dev/null`, a FIFO, a
/// terminal) is written directly: it cannot be replaced, only written to.
pub(crate) fn write_file<T>(path: &Path, fill: impl FnOnce(&mut File) -> Result<T>) -> Result<T> {
    write_file_with(path, false, |file, _| fill(file))
}

/// [`write_file`], opening the temporary file with `O_DIRECT` when `direct`
/// is asked for and the file system allows it; `fill` is told which it got.
pub(crate) fn write_file_with<T>(
    path: &Path,
    direct: bool,
    fill: impl FnOnce(&mut File, bool) -> Result<T>,
) -> Result<T> {
    if std::fs::metadata(path).is_ok_and(|m| !m.is_file() && !m.is_dir()) {
        let mut file = std::fs::OpenOptions::new()
            .write(true)
            .open(path)
            .map_err(|e| Error::io_at(path, e))?;
        return fill(&mut file, false).map_err(|error| name_path(error, path));
    }
    let temporary = temporary_path(path);
    let (mut file, direct) = match direct.then(|| crate::direct::create(&temporary)).flatten() {
        Some(file) => (file, true),
        None => (
            File::create(&temporary).map_err(|e| Error::io_at(path, e))?,
            false,
        ),
    };
    let result = fill(&mut file, direct);
    drop(file);
    let result = result
        .map_err(|error| name_path(error, path))
        .and_then(|value| {
            std::fs::rename(&temporary, path).map_err(|e| Error::io_at(path, e))?;
            Ok(value)
        });
    if result.is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
    result
}

/// `.NAME.PID.oxport-tmp` in the same directory, so that the rename stays on one file system.
fn temporary_path(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    path.with_file_name(format!(".{name}.{}.oxport-tmp", std::process::id()))
}

/// I/O errors from inside `fill` know no path: give them the one the caller asked for.
fn name_path(error: Error, path: &Path) -> Error {
    match error {
        Error::Io { path: None, source } => Error::io_at(path, source),
        other => other,
    }
}
