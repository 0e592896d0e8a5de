//! `ZstdDict`, `train_dict` and `finalize_dict`.

use std::sync::Arc;

use oxport::codec::zstd::{self, Dictionary};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyTuple};

use super::error::zstd_error;
use crate::bytes::Buffer;

/// A Zstandard dictionary: trained, finalized or raw content.
#[pyclass(module = "oxport.zstd", name = "ZstdDict", frozen)]
pub struct ZstdDict {
    dictionary: Arc<Dictionary>,
}

impl ZstdDict {
    pub fn dictionary(&self) -> &Arc<Dictionary> {
        &self.dictionary
    }
}

#[pymethods]
impl ZstdDict {
    /// A dictionary of `dict_content`: zstd's dictionary format, or with
    /// `is_raw` any content (at least 8 bytes).
    #[new]
    #[pyo3(signature = (dict_content, /, *, is_raw = false))]
    fn new(dict_content: &Bound<'_, PyAny>, is_raw: bool) -> PyResult<Self> {
        let content = Buffer::read(dict_content)?.as_slice().to_vec();
        let dictionary = Dictionary::new(content, is_raw).map_err(crate::errors::to_py_err)?;
        Ok(ZstdDict {
            dictionary: Arc::new(dictionary),
        })
    }

    /// The dictionary's bytes.
    #[getter]
    fn dict_content<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, self.dictionary.content())
    }

    /// The id recorded in the dictionary (0 for raw content).
    #[getter]
    fn dict_id(&self) -> u32 {
        self.dictionary.id()
    }

    fn __len__(&self) -> usize {
        self.dictionary.content().len()
    }

    fn __repr__(&self) -> String {
        format!(
            "<ZstdDict dict_id={} dict_size={}>",
            self.dictionary.id(),
            self.dictionary.content().len()
        )
    }

    /// The dictionary, digested once per level and shared: how a plain
    /// `ZstdDict` decompresses; to compress, the fast choice for many small
    /// inputs.
    #[getter]
    fn as_digested_dict<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        (slf.clone(), 0).into_pyobject(slf.py())
    }

    /// The dictionary, loaded afresh for each frame: how a plain `ZstdDict`
    /// compresses, as in `compression.zstd` (the frames' bytes follow the
    /// compression parameters, not those the dictionary was digested for).
    #[getter]
    fn as_undigested_dict<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        (slf.clone(), 1).into_pyobject(slf.py())
    }

    /// The content as a prefix: referenced for one frame, no dictionary id.
    #[getter]
    fn as_prefix<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        (slf.clone(), 2).into_pyobject(slf.py())
    }
}

/// The samples, concatenated, and their sizes.
fn samples(samples: &Bound<'_, PyAny>, what: &str) -> PyResult<(Vec<u8>, Vec<usize>)> {
    let mut joined = Vec::new();
    let mut sizes = Vec::new();
    for sample in samples.try_iter()? {
        let buffer = Buffer::read(&sample?)?;
        joined.extend_from_slice(buffer.as_slice());
        sizes.push(buffer.as_slice().len());
    }
    if joined.is_empty() {
        return Err(PyValueError::new_err(format!(
            "samples contained no data; can't {what} dictionary."
        )));
    }
    Ok((joined, sizes))
}

fn dict_size(size: &Bound<'_, PyAny>) -> PyResult<usize> {
    if !size.is_instance_of::<pyo3::types::PyInt>() {
        return Err(PyTypeError::new_err(format!(
            "dict_size must be an int object, not '{}'",
            size.get_type().name()?
        )));
    }
    match size.extract::<i64>() {
        Ok(n) if n > 0 => Ok(n as usize),
        _ => Err(PyValueError::new_err(
            "dict_size argument should be positive number.",
        )),
    }
}

/// A dictionary of at most `dict_size` bytes trained on `samples`.
#[pyfunction]
pub fn zstd_train_dict(
    py: Python<'_>,
    samples: &Bound<'_, PyAny>,
    dict_size: &Bound<'_, PyAny>,
) -> PyResult<ZstdDict> {
    let dict_size = self::dict_size(dict_size)?;
    let (joined, sizes) = self::samples(samples, "train")?;
    let content = py
        .detach(|| zstd::train(&joined, &sizes, dict_size))
        .map_err(zstd_error)?;
    let dictionary = Dictionary::new(content, false).map_err(zstd_error)?;
    Ok(ZstdDict {
        dictionary: Arc::new(dictionary),
    })
}

/// `zstd_dict` finalized with statistics from `samples` for `level`.
#[pyfunction]
pub fn zstd_finalize_dict(
    py: Python<'_>,
    zstd_dict: &Bound<'_, PyAny>,
    samples: &Bound<'_, PyAny>,
    dict_size: &Bound<'_, PyAny>,
    level: &Bound<'_, PyAny>,
) -> PyResult<ZstdDict> {
    let zstd_dict = zstd_dict
        .cast::<ZstdDict>()
        .map_err(|_| PyTypeError::new_err("zstd_dict argument should be a ZstdDict object."))?;
    if !dict_size.is_instance_of::<pyo3::types::PyInt>() {
        return Err(PyTypeError::new_err(
            "dict_size argument should be an int object.",
        ));
    }
    if !level.is_instance_of::<pyo3::types::PyInt>() {
        return Err(PyTypeError::new_err(
            "level argument should be an int object.",
        ));
    }
    let dict_size = self::dict_size(dict_size)?;
    let level: i32 = level.extract()?;
    let (joined, sizes) = self::samples(samples, "finalize")?;
    let base = zstd_dict.get().dictionary.clone();
    let content = py
        .detach(|| zstd::finalize(base.content(), &joined, &sizes, dict_size, level))
        .map_err(zstd_error)?;
    let dictionary = Dictionary::new(content, false).map_err(zstd_error)?;
    Ok(ZstdDict {
        dictionary: Arc::new(dictionary),
    })
}
