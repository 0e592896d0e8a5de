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
    let (pending, mut file, _) = Pending::open(path, false)?;
    let value = fill(&mut file).map_err(|e| pending.name(e))?;
    drop(file);
    pending.commit()?;
    Ok(value)
}

/// A file being written under a temporary name beside its path: renamed by
/// [`Pending::commit`], removed when dropped uncommitted.
pub(crate) struct Pending {
    path: PathBuf,
    /// `None` when the path is not a regular file and is written in place.
    temporary: Option<PathBuf>,
}

impl Pending {
    /// Opens the temporary file, with `O_DIRECT` when `direct` asks for it and
    /// the file system allows it (the returned flag tells which).
    pub(crate) fn open(path: &Path, direct: bool) -> Result<(Pending, File, bool)> {
        if std::fs::metadata(path).is_ok_and(|m| !m.is_file() && !m.is_dir()) {
            let file = std::fs::OpenOptions::new()
                .write(true)
                .open(path)
                .map_err(|e| Error::io_at(path, e))?;
            let pending = Pending {
                path: path.to_path_buf(),
                temporary: None,
            };
            return Ok((pending, file, false));
        }
        let temporary = temporary_path(path);
        let (file, direct) = match direct.then(|| crate::direct::create(&temporary)).flatten() {
            Some(file) => (file, true),
            None => (
                File::create(&temporary).map_err(|e| Error::io_at(path, e))?,
                false,
            ),
        };
        let pending = Pending {
            path: path.to_path_buf(),
            temporary: Some(temporary),
        };
        Ok((pending, file, direct))
    }

    /// Gives I/O errors that know no path this file's path.
    pub(crate) fn name(&self, error: Error) -> Error {
        name_path(error, &self.path)
    }

    /// Renames the temporary file to the path (the file must be closed).
    pub(crate) fn commit(mut self) -> Result<()> {
        if let Some(temporary) = self.temporary.take()
            && let Err(e) = std::fs::rename(&temporary, &self.path)
        {
            let _ = std::fs::remove_file(&temporary);
            return Err(Error::io_at(&self.path, e));
        }
        Ok(())
    }
}

impl Drop for Pending {
    fn drop(&mut self) {
        if let Some(temporary) = self.temporary.take() {
            let _ = std::fs::remove_file(temporary);
        }
    }
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
