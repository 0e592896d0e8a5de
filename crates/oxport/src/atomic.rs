//! Files that appear whole or not at all: written under a temporary name
//! and renamed, or (with the `remote` feature, for a URL) written to a
//! temporary file and published as one object, or (for a stream) written to
//! an unnamed temporary file and copied into the stream once whole.

use std::fs::File;
use std::io::{self, Seek, Write};
use std::path::{Path, PathBuf};

use crate::{Error, Result};

/// Where a writer's file goes.
pub enum Output<'a> {
    /// A file at a path, or with the `remote` feature an object at a URL.
    Path(&'a Path),
    /// A stream that takes the file's bytes in order (a Python file object,
    /// a pipe): the file is written to an unnamed temporary file in the
    /// system's temporary directory, which no crash leaves behind, and is
    /// copied into the stream only once whole, so a failed write sends
    /// nothing. `name` names the stream in errors.
    Stream {
        /// The stream.
        stream: &'a mut dyn Write,
        /// What errors call it.
        name: &'a Path,
    },
}

impl Output<'_> {
    /// The path, or the stream's name.
    pub fn name(&self) -> &Path {
        match self {
            Output::Path(path) => path,
            Output::Stream { name, .. } => name,
        }
    }
}

impl<'a> From<&'a Path> for Output<'a> {
    fn from(path: &'a Path) -> Self {
        Output::Path(path)
    }
}

impl<'a> From<&'a PathBuf> for Output<'a> {
    fn from(path: &'a PathBuf) -> Self {
        Output::Path(path)
    }
}

/// How much of a finished file is handed to a stream at a time.
const STREAM_PIECE: usize = 8 << 20;

/// Lets `fill` write the file for `output`, which appears whole or not at
/// all. For a path: a temporary file beside it, renamed to it on success;
/// on any error the temporary file is removed and the error names `path`;
/// an existing file at `path` is left untouched. A `path` that exists and
/// is not a regular file (`/dev/null`, a FIFO, a terminal) is written
/// directly: it cannot be replaced, only written to. For a stream: see
/// [`Output::Stream`].
pub fn write_file<'a, T>(
    output: impl Into<Output<'a>>,
    fill: impl FnOnce(&mut File) -> Result<T>,
) -> Result<T> {
    match output.into() {
        Output::Path(path) => {
            let (pending, mut file, _) = Pending::open(path, false)?;
            let value = fill(&mut file).map_err(|e| pending.name(e))?;
            drop(file);
            pending.commit()?;
            Ok(value)
        }
        Output::Stream { stream, name } => {
            let folder = std::env::temp_dir();
            let mut file = tempfile::tempfile_in(&folder).map_err(|e| Error::io_at(&folder, e))?;
            let value = fill(&mut file).map_err(|e| e.at_path(name))?;
            copy_whole(&mut file, stream).map_err(|e| Error::io_at(name, e))?;
            Ok(value)
        }
    }
}

/// Copies all of `file`, from its start, into `stream`.
fn copy_whole(file: &mut File, stream: &mut dyn Write) -> io::Result<()> {
    file.rewind()?;
    let mut out = io::BufWriter::with_capacity(STREAM_PIECE, stream);
    io::copy(file, &mut out)?;
    out.flush()
}

/// How temporary files end: `.{name}.{random}.oxport-tmp` beside `name`,
/// `random` being [`RANDOM`] letters and digits.
const SUFFIX: &str = ".oxport-tmp";
const RANDOM: usize = 8;

/// The folder of `path` and the prefix of its temporary files' names.
fn temporary_names(path: &Path) -> (&Path, String) {
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let folder = match path.parent() {
        Some(folder) if !folder.as_os_str().is_empty() => folder,
        _ => Path::new("."),
    };
    (folder, format!(".{name}."))
}

/// Removes the temporary files that writers of `path` left behind when their
/// process died before it could (a killed worker of a batch); returns how many.
///
/// Only for when no writer of `path` is still running: the file of a write
/// in progress would be removed too, and that write would fail.
pub fn remove_temporaries(path: &Path) -> Result<usize> {
    let (folder, prefix) = temporary_names(path);
    let entries = match std::fs::read_dir(folder) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(0),
        Err(e) => return Err(Error::io_at(folder, e)),
    };
    let mut removed = 0;
    for entry in entries {
        let entry = entry.map_err(|e| Error::io_at(folder, e))?;
        let name = entry.file_name();
        let name = name.to_string_lossy();
        let random = name
            .strip_prefix(&prefix)
            .and_then(|rest| rest.strip_suffix(SUFFIX));
        if random.is_some_and(|r| r.len() == RANDOM && r.bytes().all(|b| b.is_ascii_alphanumeric()))
        {
            match std::fs::remove_file(entry.path()) {
                Ok(()) => removed += 1,
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => return Err(Error::io_at(&entry.path(), e)),
            }
        }
    }
    Ok(removed)
}

/// How the temporary files of outputs published to URLs start, in the
/// system's temporary directory: `.oxport-upload.{pid}.`, the writer's
/// process id, so that a file whose writer died can be told.
#[cfg_attr(not(feature = "remote"), allow(dead_code))]
fn upload_prefix(pid: u32) -> String {
    format!(".oxport-upload.{pid}.")
}

/// Removes the files of outputs for URLs that writers killed in the middle
/// left in `folder` (a worker killed by its scheduler): those whose writer's
/// process is gone. Best effort: a file it cannot remove is left.
#[cfg_attr(not(feature = "remote"), allow(dead_code))]
fn remove_dead_uploads(folder: &Path) {
    if let Ok(entries) = std::fs::read_dir(folder) {
        for entry in entries.flatten() {
            let name = entry.file_name();
            let pid = name
                .to_str()
                .and_then(|n| n.strip_prefix(".oxport-upload."))
                .filter(|n| n.ends_with(SUFFIX))
                .and_then(|n| n.split('.').next())
                .and_then(|pid| pid.parse::<u32>().ok());
            if pid.is_some_and(|pid| !running(pid)) {
                let _ = std::fs::remove_file(entry.path());
            }
        }
    }
}

/// Whether the process `pid` may still be running: `false` only when the
/// system says there is no such process.
#[cfg_attr(not(feature = "remote"), allow(dead_code))]
fn running(pid: u32) -> bool {
    #[cfg(unix)]
    {
        let Ok(pid) = libc::pid_t::try_from(pid) else {
            return true;
        };
        // SAFETY: signal 0 sends nothing; it only asks whether `pid` exists.
        let sent = unsafe { libc::kill(pid, 0) } == 0;
        sent || std::io::Error::last_os_error().raw_os_error() != Some(libc::ESRCH)
    }
    #[cfg(windows)]
    {
        use windows_sys::Win32::Foundation::{CloseHandle, ERROR_INVALID_PARAMETER, GetLastError};
        use windows_sys::Win32::System::Threading::{
            GetExitCodeProcess, OpenProcess, PROCESS_QUERY_LIMITED_INFORMATION,
        };
        /// GetExitCodeProcess's code of a process still running.
        const STILL_ACTIVE: u32 = 259;
        // SAFETY: plain calls on a handle this function owns and closes.
        unsafe {
            let handle = OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION, 0, pid);
            if handle.is_null() {
                // No such process; other refusals (access) mean one runs.
                return GetLastError() != ERROR_INVALID_PARAMETER;
            }
            let mut code = 0;
            let asked = GetExitCodeProcess(handle, &mut code) != 0;
            CloseHandle(handle);
            !asked || code == STILL_ACTIVE
        }
    }
    #[cfg(not(any(unix, windows)))]
    {
        let _ = pid;
        true
    }
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
    /// Whether `path` is a URL: the temporary file, in the system's
    /// temporary directory, is published there as one object on commit.
    #[cfg_attr(not(feature = "remote"), allow(dead_code))]
    url: bool,
}

impl Pending {
    /// Opens the temporary file, with `O_DIRECT` when `direct` asks for it and
    /// the file system allows it (the returned flag tells which).
    pub(crate) fn open(path: &Path, direct: bool) -> Result<(Pending, File, bool)> {
        #[cfg(feature = "remote")]
        if crate::remote::is_url(path) {
            let folder = std::env::temp_dir();
            remove_dead_uploads(&folder);
            let ((file, direct), temporary) = tempfile::Builder::new()
                .prefix(&upload_prefix(std::process::id()))
                .rand_bytes(RANDOM)
                .suffix(SUFFIX)
                .make_in(&folder, |temporary| create(temporary, direct))
                .map_err(|e| Error::io_at(&folder, e))?
                .into_parts();
            let pending = Pending {
                path: path.to_path_buf(),
                temporary: Some(temporary),
                url: true,
            };
            return Ok((pending, file, direct));
        }
        if std::fs::metadata(path).is_ok_and(|m| !m.is_file() && !m.is_dir()) {
            let file = std::fs::OpenOptions::new()
                .write(true)
                .open(path)
                .map_err(|e| Error::io_at(path, e))?;
            let pending = Pending {
                path: path.to_path_buf(),
                temporary: None,
                url: false,
            };
            return Ok((pending, file, false));
        }
        let (folder, prefix) = temporary_names(path);
        // Beside the target, so that the rename stays on one file system.
        let (file, temporary) = tempfile::Builder::new()
            .prefix(&prefix)
            .rand_bytes(RANDOM)
            .suffix(SUFFIX)
            .make_in(folder, |temporary| create(temporary, direct))
            .map_err(|e| Error::io_at(path, e))?
            .into_parts();
        let (file, direct) = file;
        let pending = Pending {
            path: path.to_path_buf(),
            temporary: Some(temporary),
            url: false,
        };
        Ok((pending, file, direct))
    }

    /// Gives I/O errors that know no path this file's path.
    /// The path the file appears under when committed.
    pub(crate) fn path(&self) -> &Path {
        &self.path
    }

    pub(crate) fn name(&self, error: Error) -> Error {
        error.at_path(&self.path)
    }

    /// Renames the temporary file to the path, or publishes it at the URL
    /// and removes it (the file must be closed).
    pub(crate) fn commit(mut self) -> Result<()> {
        #[cfg(feature = "remote")]
        if self.url
            && let Some(temporary) = self.temporary.take()
        {
            // Dropping the temporary path removes the file, sent or not.
            return crate::remote::upload(&temporary, &self.path).map(drop);
        }
        if let Some(mut temporary) = self.temporary.take() {
            // On failure dropping the temporary path removes the file.
            replace(&temporary, &self.path).map_err(|e| Error::io_at(&self.path, e))?;
            temporary.disable_cleanup(true);
        }
        Ok(())
    }
}

/// Renames the file `from` to `to`, replacing what is there in one step.
///
/// On Unix, a reader that has the old file open keeps reading it. Windows
/// does the same (std's rename asks for POSIX semantics, Windows 10 1607 and
/// later on NTFS) when the old file's readers share it for deletion, as
/// Rust's and most tools' reads do; a file held open without that sharing,
/// or mapped into memory, cannot be replaced while it is held. Virus
/// scanners and indexers hold new files for a moment, so the rename is tried
/// again for about a second before the error says who is in the way.
fn replace(from: &Path, to: &Path) -> std::io::Result<()> {
    #[cfg(windows)]
    {
        /// ERROR_ACCESS_DENIED, ERROR_SHARING_VIOLATION, ERROR_LOCK_VIOLATION,
        /// ERROR_USER_MAPPED_FILE (winerror.h).
        const HELD: [i32; 4] = [5, 32, 33, 1224];
        let mut wait = std::time::Duration::from_millis(5);
        let mut waited = std::time::Duration::ZERO;
        loop {
            match std::fs::rename(from, to) {
                Err(e) if e.raw_os_error().is_some_and(|code| HELD.contains(&code)) => {
                    if waited >= std::time::Duration::from_secs(1) {
                        return Err(std::io::Error::new(
                            e.kind(),
                            format!(
                                "cannot be replaced: another program has it open without \
                                 sharing it, or mapped, or it is read-only ({e}); it is \
                                 left as it was"
                            ),
                        ));
                    }
                    std::thread::sleep(wait);
                    waited += wait;
                    wait = (wait * 2).min(std::time::Duration::from_millis(200));
                }
                result => return result,
            }
        }
    }
    #[cfg(not(windows))]
    std::fs::rename(from, to)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dead_writers_temporary_file_is_removed_and_no_other() {
        let folder = tempfile::tempdir().unwrap();
        let path = folder.path().join("frame.exr");
        // What a writer killed in the middle leaves: its pending file, never renamed.
        let (pending, file, _) = Pending::open(&path, false).unwrap();
        drop(file);
        let left = pending.temporary.as_ref().unwrap().to_path_buf();
        std::mem::forget(pending);
        assert!(left.is_file());
        // Other files, and another path's temporary file, stay.
        let others = [
            ".frame.exr.x.oxport-tmp",
            "frame.exr.oxport-tmp",
            "frame.exr",
        ];
        for name in others {
            std::fs::write(folder.path().join(name), b"").unwrap();
        }
        let (other, file, _) = Pending::open(&folder.path().join("frame.exr.1"), false).unwrap();
        drop(file);
        assert_eq!(remove_temporaries(&path).unwrap(), 1);
        assert!(!left.exists());
        for name in others {
            assert!(folder.path().join(name).exists(), "{name}");
        }
        assert!(other.temporary.as_ref().unwrap().exists());
        assert_eq!(
            remove_temporaries(&folder.path().join("gone/x")).unwrap(),
            0
        );
    }

    #[test]
    fn a_stream_gets_the_whole_file_or_nothing() {
        let name = Path::new("<stream>");
        // Larger than one piece: copied whole and in order.
        let data: Vec<u8> = (0..STREAM_PIECE * 2 + 12_345)
            .map(|i| (i % 251) as u8)
            .collect();
        let mut stream = Vec::new();
        let output = Output::Stream {
            stream: &mut stream,
            name,
        };
        assert_eq!(output.name(), name);
        let size = write_file(output, |file| {
            file.write_all(&data)?;
            Ok(file.metadata()?.len())
        })
        .unwrap();
        assert_eq!(size, data.len() as u64);
        assert!(stream == data);
        // A write that fails after writing sends nothing, and its error
        // names the stream.
        let mut stream = Vec::new();
        let output = Output::Stream {
            stream: &mut stream,
            name,
        };
        let error = write_file(output, |file| -> Result<()> {
            file.write_all(&data)?;
            Err(io::Error::other("the input ended early").into())
        })
        .unwrap_err();
        assert_eq!(error.to_string(), "<stream>: the input ended early");
        assert!(stream.is_empty());
        // A stream that refuses its bytes: the error names it.
        struct Refusing;
        impl Write for Refusing {
            fn write(&mut self, _: &[u8]) -> io::Result<usize> {
                Err(io::Error::other("no space"))
            }
            fn flush(&mut self) -> io::Result<()> {
                Ok(())
            }
        }
        let output = Output::Stream {
            stream: &mut Refusing,
            name,
        };
        let error = write_file(output, |file| Ok(file.write_all(b"x")?)).unwrap_err();
        assert_eq!(error.to_string(), "<stream>: no space");
    }

    #[test]
    fn uploads_left_by_dead_writers_are_removed_and_no_others() {
        let folder = tempfile::tempdir().unwrap();
        // No system gives this id to a process: Linux's and macOS's stop
        // below it, Windows' are multiples of 4.
        let dead = 0x7fff_fff1;
        assert!(!running(dead));
        assert!(running(std::process::id()));
        let left = format!("{}abcd1234{SUFFIX}", upload_prefix(dead));
        let mine = format!("{}abcd1234{SUFFIX}", upload_prefix(std::process::id()));
        let others = [".oxport-upload.x.y.oxport-tmp", "notes.txt"];
        for name in [left.as_str(), mine.as_str()].into_iter().chain(others) {
            std::fs::write(folder.path().join(name), b"").unwrap();
        }
        remove_dead_uploads(folder.path());
        assert!(!folder.path().join(&left).exists());
        for name in [mine.as_str()].into_iter().chain(others) {
            assert!(folder.path().join(name).exists(), "{name}");
        }
    }

    /// No temporary file of `path`'s writers is left in its folder.
    #[cfg(windows)]
    fn no_temporaries(path: &Path) -> bool {
        let (folder, prefix) = temporary_names(path);
        std::fs::read_dir(folder).unwrap().all(|e| {
            !e.unwrap()
                .file_name()
                .to_string_lossy()
                .starts_with(&prefix)
        })
    }

    #[test]
    #[cfg(windows)]
    fn a_file_another_program_reads_is_replaced_or_refused_whole() {
        use std::io::Read;
        let folder = tempfile::tempdir().unwrap();
        let path = folder.path().join("frame.exr");
        std::fs::write(&path, b"old").unwrap();
        // Opened as most programs open files: sharing reads, writes and
        // deletion (std's default).
        let mut reader = File::open(&path).unwrap();
        let written = write_file(&path, |f| Ok(std::io::Write::write_all(f, b"new")?));
        match written {
            // POSIX semantics: the name is the new file's, the reader keeps the old one.
            Ok(()) => {
                assert_eq!(std::fs::read(&path).unwrap(), b"new");
                let mut old = Vec::new();
                reader.read_to_end(&mut old).unwrap();
                assert_eq!(old, b"old");
            }
            // A file system without them: refused, the old file whole.
            Err(e) => {
                assert!(e.to_string().contains("cannot be replaced"), "{e}");
                assert_eq!(std::fs::read(&path).unwrap(), b"old");
            }
        }
        assert!(no_temporaries(&path));
    }

    #[test]
    #[cfg(windows)]
    fn a_file_held_without_delete_sharing_or_mapped_is_refused_and_left_whole() {
        use std::os::windows::fs::OpenOptionsExt;
        let folder = tempfile::tempdir().unwrap();
        let path = folder.path().join("scene.obj");
        std::fs::write(&path, b"old contents").unwrap();
        /// FILE_SHARE_READ (winnt.h): others may read, not write or delete.
        const FILE_SHARE_READ: u32 = 1;
        let held = std::fs::OpenOptions::new()
            .read(true)
            .share_mode(FILE_SHARE_READ)
            .open(&path)
            .unwrap();
        let error = write_file(&path, |f| Ok(std::io::Write::write_all(f, b"new")?)).unwrap_err();
        let text = error.to_string();
        assert!(
            text.starts_with(&format!("{}: cannot be replaced: ", path.display())),
            "{text}"
        );
        assert!(text.contains("another program has it open"), "{text}");
        assert_eq!(std::fs::read(&path).unwrap(), b"old contents");
        assert!(no_temporaries(&path));
        drop(held);
        // Mapped into memory (by this process or another): replaced where
        // the system allows it, else refused the same way.
        let file = File::open(&path).unwrap();
        // SAFETY: the test reads the mapping only while the file is unchanged.
        let map = unsafe { memmap2::Mmap::map(&file).unwrap() };
        match write_file(&path, |f| Ok(std::io::Write::write_all(f, b"new")?)) {
            Ok(()) => assert_eq!(std::fs::read(&path).unwrap(), b"new"),
            Err(e) => {
                assert!(e.to_string().contains("cannot be replaced"), "{e}");
                assert_eq!(&map[..], b"old contents");
            }
        }
        assert!(no_temporaries(&path));
    }
}
