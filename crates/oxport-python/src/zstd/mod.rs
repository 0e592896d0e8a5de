//! `oxport.zstd`: the API of Python 3.14's `compression.zstd` (PEP 784),
//! with outputs allocated at their exact size, multi-frame inputs
//! decompressed in linear time and in parallel, `*_into` functions for
//! caller buffers, and an output limit.

mod dict;
mod error;
mod options;
mod stream;

use oxport::codec::zstd::{self, DecompressOptions, DictUse};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::bytes::{Buffer, BytesOut, maybe_detach};
use error::zstd_error;
use options::{compress_params, decompress_params, dictionary};

pub use error::ZstdError;

/// `data` compressed into one frame that records its size.
#[pyfunction]
#[pyo3(signature = (data, level = None, options = None, zstd_dict = None))]
fn zstd_compress<'py>(
    py: Python<'py>,
    data: &Bound<'py, PyAny>,
    level: Option<&Bound<'py, PyAny>>,
    options: Option<&Bound<'py, PyAny>>,
    zstd_dict: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyBytes>> {
    let params = compress_params(level, options)?;
    let dict = dictionary(zstd_dict, DictUse::Undigested)?;
    let data = Buffer::read(data)?;
    let data = data.as_slice();
    let mut out = BytesOut::default();
    let dict = dict.as_ref().map(|(d, usage)| (&**d, *usage));
    maybe_detach(py, data.len(), || {
        zstd::compress(data, &params, dict, &mut out)
    })
    .map_err(zstd_error)?;
    out.finish(py)
}

/// `data` compressed into one frame in `out` (a writable buffer); the size.
#[pyfunction]
#[pyo3(signature = (data, out, level = None, options = None, zstd_dict = None))]
fn zstd_compress_into(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    out: &Bound<'_, PyAny>,
    level: Option<&Bound<'_, PyAny>>,
    options: Option<&Bound<'_, PyAny>>,
    zstd_dict: Option<&Bound<'_, PyAny>>,
) -> PyResult<usize> {
    let params = compress_params(level, options)?;
    let dict = dictionary(zstd_dict, DictUse::Undigested)?;
    let data = Buffer::read(data)?;
    let mut out = Buffer::write(out)?;
    let (data, buf) = (data.as_slice(), out.as_mut_slice());
    let dict = dict.as_ref().map(|(d, usage)| (&**d, *usage));
    maybe_detach(py, data.len(), || {
        zstd::compress_into(data, &params, dict, buf)
    })
    .map_err(zstd_error)
}

/// The most bytes compressing `size` bytes can take.
#[pyfunction]
fn zstd_compress_bound(size: usize) -> usize {
    zstd::compress_bound(size)
}

/// Every frame of `data` decompressed.
#[pyfunction]
#[pyo3(signature = (data, zstd_dict = None, options = None, *, max_output_size = None, threads = None))]
fn zstd_decompress<'py>(
    py: Python<'py>,
    data: &Bound<'py, PyAny>,
    zstd_dict: Option<&Bound<'py, PyAny>>,
    options: Option<&Bound<'py, PyAny>>,
    max_output_size: Option<u64>,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyBytes>> {
    let params = decompress_params(options)?;
    let dict = dictionary(zstd_dict, DictUse::Digested)?;
    oxport::pipeline::thread_count(threads).map_err(crate::errors::to_py_err)?;
    let data = Buffer::read(data)?;
    let data = data.as_slice();
    let options = DecompressOptions {
        params: Some(&params),
        dict: dict.as_ref().map(|(d, usage)| (&**d, *usage)),
        max_output: max_output_size,
        threads,
    };
    let mut out = BytesOut::default();
    maybe_detach(py, data.len(), || {
        zstd::decompress(data, &options, &mut out)
    })
    .map_err(zstd_error)?;
    out.finish(py)
}

/// Every frame of `data` decompressed into `out`; the size written.
#[pyfunction]
#[pyo3(signature = (data, out, zstd_dict = None, options = None, *, threads = None))]
fn zstd_decompress_into(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    out: &Bound<'_, PyAny>,
    zstd_dict: Option<&Bound<'_, PyAny>>,
    options: Option<&Bound<'_, PyAny>>,
    threads: Option<usize>,
) -> PyResult<usize> {
    let params = decompress_params(options)?;
    let dict = dictionary(zstd_dict, DictUse::Digested)?;
    oxport::pipeline::thread_count(threads).map_err(crate::errors::to_py_err)?;
    let data = Buffer::read(data)?;
    let mut out = Buffer::write(out)?;
    let (data, buf) = (data.as_slice(), out.as_mut_slice());
    let options = DecompressOptions {
        params: Some(&params),
        dict: dict.as_ref().map(|(d, usage)| (&**d, *usage)),
        max_output: None,
        threads,
    };
    maybe_detach(py, data.len(), || {
        zstd::decompress_into(data, &options, buf)
    })
    .map_err(zstd_error)
}

/// The decompressed size of every frame of `data` together, or `None` when
/// a frame does not record its size.
#[pyfunction]
fn zstd_decompressed_size(data: &Bound<'_, PyAny>) -> PyResult<Option<u64>> {
    let data = Buffer::read(data)?;
    zstd::decompressed_size(data.as_slice()).map_err(zstd_error)
}

/// `(decompressed_size or None, dictionary_id)` of the frame header at the
/// start of `frame_buffer`.
#[pyfunction]
fn zstd_get_frame_info(frame_buffer: &Bound<'_, PyAny>) -> PyResult<(Option<u64>, u32)> {
    let data = Buffer::read(frame_buffer)?;
    let info = zstd::frame_info(data.as_slice()).map_err(|_| {
        ZstdError::new_err(
            "Error when getting information from the header of a Zstandard frame. Ensure the \
             frame_buffer argument starts from the beginning of a frame, and its length is not \
             less than the frame header (6~18 bytes).",
        )
    })?;
    Ok((info.content_size, info.dictionary_id))
}

/// The compressed size of the frame at the start of `frame_buffer`.
#[pyfunction]
fn zstd_get_frame_size(frame_buffer: &Bound<'_, PyAny>) -> PyResult<usize> {
    let data = Buffer::read(frame_buffer)?;
    zstd::frame_size(data.as_slice()).map_err(|error| {
        ZstdError::new_err(format!(
            "Error when finding the compressed size of a Zstandard frame. Ensure the \
             frame_buffer argument starts from the beginning of a frame, and its length is not \
             less than this complete frame. ({error})"
        ))
    })
}

/// `(lower, upper)` bounds of a compression (`is_compress`) or
/// decompression parameter code.
#[pyfunction]
fn zstd_parameter_bounds(code: i32, is_compress: bool) -> PyResult<(i32, i32)> {
    let bounds = if is_compress {
        zstd::CompressionParameter::from_code(code).map(zstd::CompressionParameter::bounds)
    } else {
        zstd::DecompressionParameter::from_code(code).map(zstd::DecompressionParameter::bounds)
    };
    let bounds = bounds.ok_or_else(|| {
        pyo3::exceptions::PyValueError::new_err(format!("unknown zstd parameter code {code}"))
    })?;
    Ok((*bounds.start(), *bounds.end()))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("ZstdError", py.get_type::<ZstdError>())?;
    m.add_class::<dict::ZstdDict>()?;
    m.add_class::<stream::ZstdCompressor>()?;
    m.add_class::<stream::ZstdDecompressor>()?;
    m.add_function(wrap_pyfunction!(zstd_compress, m)?)?;
    m.add_function(wrap_pyfunction!(zstd_compress_into, m)?)?;
    m.add_function(wrap_pyfunction!(zstd_compress_bound, m)?)?;
    m.add_function(wrap_pyfunction!(zstd_decompress, m)?)?;
    m.add_function(wrap_pyfunction!(zstd_decompress_into, m)?)?;
    m.add_function(wrap_pyfunction!(zstd_decompressed_size, m)?)?;
    m.add_function(wrap_pyfunction!(zstd_get_frame_info, m)?)?;
    m.add_function(wrap_pyfunction!(zstd_get_frame_size, m)?)?;
    m.add_function(wrap_pyfunction!(zstd_parameter_bounds, m)?)?;
    m.add_function(wrap_pyfunction!(dict::zstd_train_dict, m)?)?;
    m.add_function(wrap_pyfunction!(dict::zstd_finalize_dict, m)?)?;
    let levels = oxport::codec::Levels::Zstd.range();
    m.add("ZSTD_MIN_LEVEL", *levels.start())?;
    m.add("ZSTD_MAX_LEVEL", *levels.end())?;
    m.add("ZSTD_DEFAULT_LEVEL", zstd::DEFAULT_LEVEL)?;
    m.add("ZSTD_VERSION_NUMBER", zstd::version_number())?;
    Ok(())
}
