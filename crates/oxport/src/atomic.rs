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
pub fn write_file<T>(path: &Path, fill: impl FnOnce(&mut File) -> Result<T>) -> Result<T> {
    let (pending, mut file, _) = Pending::open(path, false)?;
    let value = fill(&mut file).map_err(|e| pending.name(e))?;
    drop(file);
    pending.commit()?;
    Ok(value)
}

/// A file being written under a temporary name beside its path: renamed by
/// [`Pending::commit`], removed when dropped uncommitted.
///
/// The temporary name is unique (random, created exclusively), so any number
/// of writers of one path, in threads or processes, each write a file of
/// their own; the last rename wins and every rename installs a whole file.
pub(crate) struct Pending {
    path: PathBuf,
    /// `None` when the path is not a regular file and is written in place.
    temporary: Option<tempfile::TempPath>,
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
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        let folder = match path.parent() {
            Some(folder) if !folder.as_os_str().is_empty() => folder,
            _ => Path::new("."),
        };
        // Beside the target, so that the rename stays on one file system.
        let (file, temporary) = tempfile::Builder::new()
            .prefix(&format!(".{name}."))
            .suffix(".oxport-tmp")
            .make_in(folder, |temporary| create(temporary, direct))
            .map_err(|e| Error::io_at(path, e))?
            .into_parts();
        let (file, direct) = file;
        let pending = Pending {
            path: path.to_path_buf(),
            temporary: Some(temporary),
        };
        Ok((pending, file, direct))
    }

    /// Gives I/O errors that know no path this file's path.
    pub(crate) fn name(&self, error: Error) -> Error {
        error.at_path(&self.path)
    }

    /// Renames the temporary file to the path (the file must be closed).
    pub(crate) fn commit(mut self) -> Result<()> {
        if let Some(temporary) = self.temporary.take() {
            // On failure the error gives the temporary path back, and dropping it removes the file.
            temporary
                .persist(&self.path)
                .map_err(|e| Error::io_at(&self.path, e.error))?;
        }
        Ok(())
    }
}

/// Creates the new file `path` (it must not exist), with the permissions
/// any new file gets (`0666` less the umask), and `O_DIRECT` where `direct`
/// asks for it and the file system allows it.
fn create(path: &Path, direct: bool) -> std::io::Result<(File, bool)> {
    if direct {
        match crate::direct::create_new(path) {
            Ok(file) => return Ok((file, true)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => return Err(e),
            // The file system refused O_DIRECT, perhaps after creating the
            // file (tmpfs does): the name is ours, write it buffered.
            Err(_) => {
                let file = std::fs::OpenOptions::new()
                    .write(true)
                    .create(true)
                    .truncate(true)
                    .open(path)?;
                return Ok((file, false));
            }
        }
    }
    let file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)?;
    Ok((file, false))
}
