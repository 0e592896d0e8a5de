//! Where readers' bytes come from in Python: a path (a file read at
//! offsets without the GIL), a URL of object storage or HTTP (read by byte
//! range in Rust, without the GIL), or a readable, seekable binary file
//! object (an `fsspec` file over HTTP or S3: only the bytes a read needs
//! are fetched).

use std::io;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use oxport::source::Source;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::errors::to_py_err;

/// Whether `location` is a URL oxport reads and writes itself (object
/// storage or HTTP, `oxport::remote::is_url`) rather than a path.
#[pyfunction]
pub(crate) fn is_url(location: PathBuf) -> bool {
    oxport::remote::is_url(&location)
}
/// What a reader makes of `file`, without the GIL: for a path or a URL
/// (`s3://...`, `https://...`, read by byte range), `open` (the reader's own
/// opener, whose errors name it); for anything else, which must be a binary
/// file object with `read` and `seek`, `new` over it as a source.
pub fn open_reader<T: Send>(
    py: Python<'_>,
    file: &Bound<'_, PyAny>,
    open: impl FnOnce(&Path) -> oxport::Result<T> + Send,
    new: impl FnOnce(Box<dyn Source>) -> oxport::Result<T> + Send,
) -> PyResult<T> {
    let read = match file.extract::<PathBuf>() {
        Ok(path) => py.detach(|| open(&path)),
        Err(_) => {
            let source: Box<dyn Source> = Box::new(PyFile::new(file)?);
            py.detach(|| new(source))
        }
    };
    read.map_err(to_py_err)
}

/// A Python binary file object as a source: `seek` then `read`, under the
/// GIL, one read at a time.
struct PyFile {
    file: Py<PyAny>,
    size: u64,
    /// A seek and its read must not be split by another thread's.
    lock: Mutex<()>,
}

impl PyFile {
    fn new(file: &Bound<'_, PyAny>) -> PyResult<Self> {
        for method in ["read", "seek"] {
            if !file.hasattr(method)? {
                return Err(PyTypeError::new_err(format!(
                    "file: expected a path or a readable, seekable binary file object, got {} \
                     (no {method}())",
                    file.get_type().name()?
                )));
            }
        }
        let size = file.call_method1("seek", (0, 2))?.extract::<u64>()?;
        Ok(PyFile {
            file: file.clone().unbind(),
            size,
            lock: Mutex::new(()),
        })
    }
}

impl Source for PyFile {
    fn size(&self) -> io::Result<u64> {
        Ok(self.size)
    }

    fn read_exact_at(&self, buf: &mut [u8], offset: u64) -> io::Result<()> {
        let _turn = self.lock.lock().unwrap_or_else(|e| e.into_inner());
        Python::attach(|py| -> PyResult<io::Result<()>> {
            let file = self.file.bind(py);
            file.call_method1("seek", (offset,))?;
            let mut filled = 0;
            while filled < buf.len() {
                let chunk = file.call_method1("read", (buf.len() - filled,))?;
                let chunk = chunk.cast::<PyBytes>().map_err(|_| {
                    PyTypeError::new_err("file: read() returned something other than bytes")
                })?;
                let bytes = chunk.as_bytes();
                if bytes.is_empty() {
                    return Ok(Err(io::ErrorKind::UnexpectedEof.into()));
                }
                let take = bytes.len().min(buf.len() - filled);
                buf[filled..filled + take].copy_from_slice(&bytes[..take]);
                filled += take;
            }
            Ok(Ok(()))
        })
        .unwrap_or_else(|error| Err(io::Error::other(format!("file: {error}"))))
    }
}
