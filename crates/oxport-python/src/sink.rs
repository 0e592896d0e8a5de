//! Where writers' bytes go in Python: a path or a URL (written by the
//! library, whole or not at all, without the GIL), or a writable binary
//! file object (an `fsspec` file opened for writing, `io.BytesIO`), which
//! receives the file once it is whole ([`oxport::atomic::Output::Stream`]):
//! on any error nothing reaches it. Whether the object then publishes what
//! it holds (nothing) when closed is its own rule (fsspec's transactions
//! publish nothing).

use std::io;
use std::path::PathBuf;

use oxport::atomic::Output;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::errors::to_py_err;

/// `write` of the output `file` names, without the GIL: a path or a URL
/// as [`Output::Path`]; anything else, which must be a binary file object
/// with `write`, as [`Output::Stream`]. An exception the object's `write`
/// raises is raised as it was.
pub fn write_output<T: Send>(
    py: Python<'_>,
    file: &Bound<'_, PyAny>,
    write: impl for<'a> FnOnce(Output<'a>) -> oxport::Result<T> + Send,
) -> PyResult<T> {
    if let Ok(path) = file.extract::<PathBuf>() {
        return py.detach(|| write(Output::Path(&path))).map_err(to_py_err);
    }
    let mut sink = PySink::new(file)?;
    let name = sink.name.clone();
    let written = py.detach(|| {
        write(Output::Stream {
            stream: &mut sink,
            name: &name,
        })
    });
    written.map_err(|e| sink.raised.take().unwrap_or_else(|| to_py_err(e)))
}

/// A Python binary file object as a stream: `write` under the GIL.
struct PySink {
    file: Py<PyAny>,
    /// Its `name` when that is text (a file opened by path), else its type.
    name: PathBuf,
    /// The first exception `write` raised.
    raised: Option<PyErr>,
}

impl PySink {
    fn new(file: &Bound<'_, PyAny>) -> PyResult<Self> {
        if !file.hasattr("write")? {
            return Err(PyTypeError::new_err(format!(
                "expected a path, a URL or a writable binary file object, got {}",
                file.get_type().name()?
            )));
        }
        let name = match file
            .getattr("name")
            .ok()
            .and_then(|n| n.extract::<String>().ok())
        {
            Some(name) => name,
            None => format!("{} object", file.get_type().name()?),
        };
        Ok(PySink {
            file: file.clone().unbind(),
            name: PathBuf::from(name),
            raised: None,
        })
    }
}

impl io::Write for PySink {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        Python::attach(|py| {
            let written = self
                .file
                .bind(py)
                .call_method1("write", (PyBytes::new(py, buf),))
                .and_then(|n| match n.is_none() {
                    // A file-like whose write() returns nothing took it all.
                    true => Ok(buf.len()),
                    false => n.extract::<usize>(),
                });
            match written {
                Ok(n) if n <= buf.len() => Ok(n),
                Ok(n) => Err(io::Error::other(format!(
                    "write() says it took {n} bytes of {}",
                    buf.len()
                ))),
                Err(error) => {
                    let text = error.to_string();
                    self.raised.get_or_insert(error);
                    Err(io::Error::other(text))
                }
            }
        })
    }

    /// Nothing: the object is flushed and closed by its owner.
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}
