//! The arguments `compression.zstd` takes — `level`, the `options` dict of
//! zstd parameter codes, `zstd_dict` — checked with its exceptions.

use std::sync::Arc;

use oxport::codec::zstd::{
    CompressParams, CompressionParameter, DecompressParams, DecompressionParameter, DictUse,
    Dictionary,
};
use pyo3::exceptions::{PyOverflowError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyInt, PyTuple, PyType};

use super::dict::ZstdDict;

/// The facade's `CompressionParameter` and `DecompressionParameter` enums,
/// which the options of the other kind must not use as keys.
fn parameter_types(py: Python<'_>) -> PyResult<&(Py<PyType>, Py<PyType>)> {
    static TYPES: PyOnceLock<(Py<PyType>, Py<PyType>)> = PyOnceLock::new();
    TYPES.get_or_try_init(py, || {
        let module = crate::facade::import(py, "zstd")?;
        Ok((
            module
                .getattr("CompressionParameter")?
                .cast_into::<PyType>()?
                .unbind(),
            module
                .getattr("DecompressionParameter")?
                .cast_into::<PyType>()?
                .unbind(),
        ))
    })
}

/// An int as a C int: `TypeError` for other types, `OverflowError` beyond.
fn c_int(value: &Bound<'_, PyAny>) -> PyResult<i32> {
    if !value.is_instance_of::<PyInt>() {
        return Err(PyTypeError::new_err(format!(
            "'{}' object cannot be interpreted as an integer",
            value.get_type().name()?
        )));
    }
    value
        .extract::<i64>()
        .ok()
        .and_then(|v| i32::try_from(v).ok())
        .ok_or_else(|| PyOverflowError::new_err("Python int too large to convert to C int"))
}

fn options_dict<'a, 'py>(
    options: &'a Bound<'py, PyAny>,
    owner: &str,
) -> PyResult<&'a Bound<'py, PyDict>> {
    options.cast::<PyDict>().map_err(|_| {
        PyTypeError::new_err(format!(
            "{owner}() argument 'options' must be dict, not {}",
            options
                .get_type()
                .name()
                .map_or_else(|_| "?".into(), |n| n.to_string())
        ))
    })
}

/// Calls `set` with each `(code, value)` of an `options` dict of
/// compression (`compress`) or decompression parameters, in order, checking
/// each pair as the standard library does before the next (keys of the
/// other kind's enum are refused).
fn for_each_option(
    options: &Bound<'_, PyAny>,
    compress: bool,
    mut set: impl FnMut(i32, i32) -> PyResult<()>,
) -> PyResult<()> {
    let (owner, kind, other) = if compress {
        ("ZstdCompressor", "compression", "DecompressionParameter")
    } else {
        ("ZstdDecompressor", "decompression", "CompressionParameter")
    };
    let dict = options_dict(options, owner)?;
    let py = options.py();
    let types = parameter_types(py)?;
    let forbidden = if compress { &types.1 } else { &types.0 }.bind(py);
    for (key, value) in dict.iter() {
        if key.is_instance(forbidden)? {
            return Err(PyTypeError::new_err(format!(
                "{kind} options dictionary key must not be a {other} attribute"
            )));
        }
        set(c_int(&key)?, c_int(&value)?)?;
    }
    Ok(())
}

fn unknown(kind: &str, code: i32) -> PyErr {
    PyValueError::new_err(format!(
        "invalid {kind} parameter 'unknown parameter (key {code})'"
    ))
}

/// `level` and `options` as compression parameters (at most one of them).
pub fn compress_params(
    level: Option<&Bound<'_, PyAny>>,
    options: Option<&Bound<'_, PyAny>>,
) -> PyResult<CompressParams> {
    let level = level.filter(|l| !l.is_none());
    let options = options.filter(|o| !o.is_none());
    let mut params = CompressParams::default();
    match (level, options) {
        (Some(_), Some(_)) => Err(PyTypeError::new_err(
            "Only one of level or options should be used.",
        )),
        (Some(level), None) => {
            if !level.is_instance_of::<PyInt>() {
                return Err(PyTypeError::new_err("invalid type for level, expected int"));
            }
            let levels = oxport::codec::Levels::Zstd.range();
            let value = level
                .extract::<i64>()
                .ok()
                .and_then(|v| i32::try_from(v).ok())
                .ok_or_else(|| {
                    PyValueError::new_err(format!(
                        "illegal compression level; the valid range is [{}, {}]",
                        levels.start(),
                        levels.end()
                    ))
                })?;
            params
                .set(CompressionParameter::CompressionLevel, value)
                .map_err(crate::errors::to_py_err)?;
            Ok(params)
        }
        (None, Some(options)) => {
            for_each_option(options, true, |code, value| {
                let parameter = CompressionParameter::from_code(code)
                    .ok_or_else(|| unknown("compression", code))?;
                params
                    .set(parameter, value)
                    .map_err(crate::errors::to_py_err)
            })?;
            Ok(params)
        }
        (None, None) => Ok(params),
    }
}

/// `options` as decompression parameters.
pub fn decompress_params(options: Option<&Bound<'_, PyAny>>) -> PyResult<DecompressParams> {
    let mut params = DecompressParams::default();
    let Some(options) = options.filter(|o| !o.is_none()) else {
        return Ok(params);
    };
    for_each_option(options, false, |code, value| {
        let parameter = DecompressionParameter::from_code(code)
            .ok_or_else(|| unknown("decompression", code))?;
        params
            .set(parameter, value)
            .map_err(crate::errors::to_py_err)
    })?;
    Ok(params)
}

/// `zstd_dict`: a `ZstdDict`, used as `plain` says (`compression.zstd`
/// loads it undigested to compress and digested to decompress), or a
/// `(ZstdDict, use)` pair from its `as_*` properties.
pub fn dictionary(
    zstd_dict: Option<&Bound<'_, PyAny>>,
    plain: DictUse,
) -> PyResult<Option<(Arc<Dictionary>, DictUse)>> {
    let Some(zstd_dict) = zstd_dict.filter(|d| !d.is_none()) else {
        return Ok(None);
    };
    let wrong = || PyTypeError::new_err("zstd_dict argument should be a ZstdDict object.");
    if let Ok(dict) = zstd_dict.cast::<ZstdDict>() {
        return Ok(Some((dict.get().dictionary().clone(), plain)));
    }
    let pair = zstd_dict.cast::<PyTuple>().map_err(|_| wrong())?;
    if pair.len() != 2 {
        return Err(wrong());
    }
    let dict = pair.get_item(0)?;
    let dict = dict.cast::<ZstdDict>().map_err(|_| wrong())?;
    let usage = pair.get_item(1)?;
    if !usage.is_instance_of::<PyInt>() {
        return Err(wrong());
    }
    // An int beyond a C int is an OverflowError, as in the standard library.
    let usage = match usage.extract::<i32>()? {
        0 => DictUse::Digested,
        1 => DictUse::Undigested,
        2 => DictUse::Prefix,
        _ => return Err(wrong()),
    };
    Ok(Some((dict.get().dictionary().clone(), usage)))
}
