//! `ZstdCompressor` and `ZstdDecompressor`: streams with the semantics of
//! `compression.zstd`. Each holds its stream behind a lock, taken without
//! the GIL when another thread has it, so that two Python threads sharing
//! one object take turns instead of failing.

use std::sync::{Mutex, MutexGuard};

use oxport::codec::zstd::{Compressor, Decompressor, DictUse, Flush};
use pyo3::exceptions::{PyEOFError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use super::error::zstd_error;
use super::options::{compress_params, decompress_params, dictionary};
use crate::bytes::{Buffer, BytesOut, maybe_detach};

/// The lock, taken with the GIL released when it is contended: a thread
/// holding it may need the GIL to grow its output.
fn lock<'a, T: Send>(py: Python<'_>, mutex: &'a Mutex<T>) -> MutexGuard<'a, T> {
    loop {
        match mutex.try_lock() {
            Ok(guard) => return guard,
            Err(std::sync::TryLockError::Poisoned(poisoned)) => return poisoned.into_inner(),
            // Wait for the other thread without the GIL, then try again with it.
            Err(std::sync::TryLockError::WouldBlock) => py.detach(|| drop(mutex.lock())),
        }
    }
}

fn flush_mode(mode: Flush) -> i32 {
    match mode {
        Flush::Continue => 0,
        Flush::Block => 1,
        Flush::Frame => 2,
    }
}

/// A compression stream.
#[pyclass(module = "oxport.zstd", name = "ZstdCompressor", frozen)]
pub struct ZstdCompressor {
    stream: Mutex<Compressor>,
}

#[pymethods]
impl ZstdCompressor {
    #[classattr]
    const CONTINUE: i32 = 0;
    #[classattr]
    const FLUSH_BLOCK: i32 = 1;
    #[classattr]
    const FLUSH_FRAME: i32 = 2;

    #[new]
    #[pyo3(signature = (level = None, options = None, zstd_dict = None))]
    fn new(
        level: Option<&Bound<'_, PyAny>>,
        options: Option<&Bound<'_, PyAny>>,
        zstd_dict: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let params = compress_params(level, options)?;
        let dict = dictionary(zstd_dict, DictUse::Undigested)?;
        let compressor = Compressor::new(&params, dict).map_err(zstd_error)?;
        Ok(ZstdCompressor {
            stream: Mutex::new(compressor),
        })
    }

    /// Compresses `data`; `mode` says how far to flush: `CONTINUE` (the
    /// default: output what is ready), `FLUSH_BLOCK`, `FLUSH_FRAME`.
    #[pyo3(signature = (data, mode = 0))]
    fn compress<'py>(
        &self,
        py: Python<'py>,
        data: &Bound<'py, PyAny>,
        mode: i32,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let mode = match mode {
            0 => Flush::Continue,
            1 => Flush::Block,
            2 => Flush::Frame,
            _ => {
                return Err(PyValueError::new_err(
                    "mode argument wrong value, it should be one of ZstdCompressor.CONTINUE, \
                     ZstdCompressor.FLUSH_BLOCK, ZstdCompressor.FLUSH_FRAME.",
                ));
            }
        };
        let data = Buffer::read(data)?;
        self.run(py, data.as_slice(), mode)
    }

    /// Ends the block (`FLUSH_BLOCK`) or the frame (`FLUSH_FRAME`, the
    /// default) and returns what remains.
    #[pyo3(signature = (mode = 2))]
    fn flush<'py>(&self, py: Python<'py>, mode: i32) -> PyResult<Bound<'py, PyBytes>> {
        let mode = match mode {
            1 => Flush::Block,
            2 => Flush::Frame,
            _ => {
                return Err(PyValueError::new_err(
                    "mode argument wrong value, it should be ZstdCompressor.FLUSH_FRAME or \
                     ZstdCompressor.FLUSH_BLOCK.",
                ));
            }
        };
        self.run(py, &[], mode)
    }

    /// Declares the size of the next frame (`None`: unknown); only at the
    /// start of a frame.
    fn set_pledged_input_size(&self, py: Python<'_>, size: &Bound<'_, PyAny>) -> PyResult<()> {
        let size = if size.is_none() {
            None
        } else {
            if !size.is_instance_of::<pyo3::types::PyInt>() {
                return Err(PyTypeError::new_err("an integer is required"));
            }
            match size.extract::<u64>() {
                Ok(n) if n < u64::MAX - 1 => Some(n),
                _ => {
                    return Err(PyValueError::new_err(
                        "size argument should be a positive int less than 18446744073709551614",
                    ));
                }
            }
        };
        let mut stream = lock(py, &self.stream);
        if stream.last_mode() != Flush::Frame {
            return Err(PyValueError::new_err(
                "set_pledged_input_size() method must be called when last_mode == FLUSH_FRAME",
            ));
        }
        stream.set_pledged_input_size(size).map_err(zstd_error)
    }

    /// The mode of the last call: `FLUSH_FRAME` at the start of a frame.
    #[getter]
    fn last_mode(&self, py: Python<'_>) -> i32 {
        flush_mode(lock(py, &self.stream).last_mode())
    }
}

impl ZstdCompressor {
    fn run<'py>(&self, py: Python<'py>, data: &[u8], mode: Flush) -> PyResult<Bound<'py, PyBytes>> {
        let mut stream = lock(py, &self.stream);
        let mut out = BytesOut::default();
        let compressor: &mut Compressor = &mut stream;
        maybe_detach(py, data.len(), || compressor.compress(data, mode, &mut out))
            .map_err(zstd_error)?;
        drop(stream);
        out.finish(py)
    }
}

/// A decompression stream over one frame.
#[pyclass(module = "oxport.zstd", name = "ZstdDecompressor", frozen)]
pub struct ZstdDecompressor {
    stream: Mutex<Decompressor>,
}

#[pymethods]
impl ZstdDecompressor {
    #[new]
    #[pyo3(signature = (zstd_dict = None, options = None))]
    fn new(
        zstd_dict: Option<&Bound<'_, PyAny>>,
        options: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let params = decompress_params(options)?;
        let dict = dictionary(zstd_dict, DictUse::Digested)?;
        let decompressor = Decompressor::new(&params, dict).map_err(zstd_error)?;
        Ok(ZstdDecompressor {
            stream: Mutex::new(decompressor),
        })
    }

    /// Decompresses `data` (after any input kept from before) into at most
    /// `max_length` bytes (negative: no limit). Input that is not used yet
    /// is kept for the next call; `EOFError` after the end of the frame.
    #[pyo3(signature = (data, max_length = -1), text_signature = "(self, /, data, max_length=-1)")]
    fn decompress<'py>(
        &self,
        py: Python<'py>,
        data: &Bound<'py, PyAny>,
        max_length: isize,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let data = Buffer::read(data)?;
        let mut stream = lock(py, &self.stream);
        if stream.eof() {
            return Err(PyEOFError::new_err(
                "Already at the end of a Zstandard frame.",
            ));
        }
        let max_length = usize::try_from(max_length).ok();
        let mut out = BytesOut::default();
        let data = data.as_slice();
        let decompressor: &mut Decompressor = &mut stream;
        maybe_detach(py, data.len(), || {
            decompressor.decompress(data, max_length, &mut out)
        })
        .map_err(zstd_error)?;
        drop(stream);
        out.finish(py)
    }

    /// Whether the end of the frame was reached.
    #[getter]
    fn eof(&self, py: Python<'_>) -> bool {
        lock(py, &self.stream).eof()
    }

    /// Whether the next call needs more input (false when output is waiting).
    #[getter]
    fn needs_input(&self, py: Python<'_>) -> bool {
        lock(py, &self.stream).needs_input()
    }

    /// The input after the end of the frame (empty until then).
    #[getter]
    fn unused_data<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, lock(py, &self.stream).unused_data())
    }
}
