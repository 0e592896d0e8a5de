//! `oxport.deflate`: deflate, zlib and gzip through libdeflate (and ISA-L
//! at the fast levels), one-shot,
//! the output allocated at its final size when gzip's trailer gives it.

use oxport::codec::deflate::{self, Engine, Format};
use pyo3::create_exception;
use pyo3::exceptions::{PyMemoryError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::bytes::{Buffer, BytesOut, maybe_detach};

create_exception!(
    oxport._native,
    DeflateError,
    crate::errors::Error,
    "Deflate, zlib or gzip data that is damaged or truncated, or too large for the limit."
);

fn format(name: &str) -> PyResult<Format> {
    match name {
        "zlib" => Ok(Format::Zlib),
        "gzip" => Ok(Format::Gzip),
        "raw" => Ok(Format::Raw),
        _ => Err(PyValueError::new_err(format!(
            "format: expected 'zlib', 'gzip' or 'raw', got {name:?}"
        ))),
    }
}

fn engine(name: &str) -> PyResult<Engine> {
    match name {
        "fastest" => Ok(Engine::Fastest),
        "libdeflate" => Ok(Engine::Libdeflate),
        _ => Err(PyValueError::new_err(format!(
            "engine: expected 'fastest' or 'libdeflate', got {name:?}"
        ))),
    }
}

fn level(level: i32) -> PyResult<i32> {
    oxport::codec::Levels::Deflate
        .check(level)
        .map_err(crate::errors::to_py_err)
}

fn deflate_error(error: oxport::Error) -> PyErr {
    match error {
        oxport::Error::Io { source, .. } if source.kind() == std::io::ErrorKind::OutOfMemory => {
            PyMemoryError::new_err(source.to_string())
        }
        oxport::Error::InvalidArgument(reason) => PyValueError::new_err(reason.into_owned()),
        other => DeflateError::new_err(other.to_string()),
    }
}

/// `data` compressed at `level` (0 to 12) in `format` by `engine`.
#[pyfunction]
#[pyo3(signature = (data, level = 6, *, format = "zlib", engine = "fastest"))]
fn deflate_compress<'py>(
    py: Python<'py>,
    data: &Bound<'py, PyAny>,
    level: i32,
    format: &str,
    engine: &str,
) -> PyResult<Bound<'py, PyBytes>> {
    let (level, format, engine) = (
        self::level(level)?,
        self::format(format)?,
        self::engine(engine)?,
    );
    let data = Buffer::read(data)?;
    let data = data.as_slice();
    let mut out = BytesOut::default();
    maybe_detach(py, data.len(), || {
        deflate::compress(data, level, format, engine, &mut out)
    })
    .map_err(deflate_error)?;
    out.finish(py)
}

/// `data` compressed into `out` (a writable buffer); the size written.
#[pyfunction]
#[pyo3(signature = (data, out, level = 6, *, format = "zlib", engine = "fastest"))]
fn deflate_compress_into(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    out: &Bound<'_, PyAny>,
    level: i32,
    format: &str,
    engine: &str,
) -> PyResult<usize> {
    let (level, format, engine) = (
        self::level(level)?,
        self::format(format)?,
        self::engine(engine)?,
    );
    let data = Buffer::read(data)?;
    let mut out = Buffer::write(out)?;
    let (data, buf) = (data.as_slice(), out.as_mut_slice());
    maybe_detach(py, data.len(), || {
        deflate::compress_into(data, level, format, engine, buf)
    })
    .map_err(deflate_error)
}

/// The most bytes compressing `size` bytes in `format` can take.
#[pyfunction]
#[pyo3(signature = (size, *, format = "zlib"))]
fn deflate_compress_bound(size: usize, format: &str) -> PyResult<usize> {
    Ok(deflate::compress_bound(size, self::format(format)?))
}

/// `data` decompressed (gzip: every member). `bufsize`: the expected size,
/// when known (the first allocation, as for `zlib.decompress`).
#[pyfunction]
#[pyo3(signature = (data, *, format = "zlib", max_output_size = None, bufsize = None))]
fn deflate_decompress<'py>(
    py: Python<'py>,
    data: &Bound<'py, PyAny>,
    format: &str,
    max_output_size: Option<u64>,
    bufsize: Option<usize>,
) -> PyResult<Bound<'py, PyBytes>> {
    let format = self::format(format)?;
    let data = Buffer::read(data)?;
    let data = data.as_slice();
    let mut out = BytesOut::default();
    maybe_detach(py, data.len(), || {
        deflate::decompress(data, format, max_output_size, bufsize, &mut out)
    })
    .map_err(deflate_error)?;
    out.finish(py)
}

/// `data` decompressed into `out`; the size written.
#[pyfunction]
#[pyo3(signature = (data, out, *, format = "zlib"))]
fn deflate_decompress_into(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    out: &Bound<'_, PyAny>,
    format: &str,
) -> PyResult<usize> {
    let format = self::format(format)?;
    let data = Buffer::read(data)?;
    let mut out = Buffer::write(out)?;
    let (data, buf) = (data.as_slice(), out.as_mut_slice());
    maybe_detach(py, data.len(), || {
        deflate::decompress_into(data, format, buf)
    })
    .map_err(deflate_error)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("DeflateError", m.py().get_type::<DeflateError>())?;
    m.add_function(wrap_pyfunction!(deflate_compress, m)?)?;
    m.add_function(wrap_pyfunction!(deflate_compress_into, m)?)?;
    m.add_function(wrap_pyfunction!(deflate_compress_bound, m)?)?;
    m.add_function(wrap_pyfunction!(deflate_decompress, m)?)?;
    m.add_function(wrap_pyfunction!(deflate_decompress_into, m)?)?;
    Ok(())
}
