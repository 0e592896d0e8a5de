//! Arrays from any array-like: objects with the buffer protocol (numpy
//! arrays, `array.array`, `memoryview`) are borrowed without a copy when their
//! layout and type are already the one oxport uses, converted once otherwise;
//! lists and tuples of numbers (flat, or rows) are converted once. Errors
//! name the argument.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyFloat, PyInt, PyList, PyMemoryView, PyTuple};

use crate::view::{Element, Request, View};

/// A typed view of a Python buffer, or the converted copy of one.
pub enum Array<T> {
    Borrowed { buffer: View, len: usize },
    Owned(Vec<T>),
}

impl<T> Array<T> {
    /// The elements. Borrowed arrays point into the Python object, which the
    /// buffer keeps alive and unresizable for as long as `self` lives.
    pub fn as_slice(&self) -> &[T] {
        match self {
            // SAFETY: `borrow` checked that the buffer is C-contiguous, that its
            // bytes are `len` values of `T` and that the pointer is aligned for
            // `T`; the buffer export pins the memory until `buffer` is dropped.
            Array::Borrowed { buffer, len } => unsafe {
                std::slice::from_raw_parts(buffer.as_ptr().cast::<T>(), *len)
            },
            Array::Owned(values) => values,
        }
    }
}

fn value_error(name: &str, what: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(format!("{name}: {what}"))
}

/// The object's buffer, or `None` for a list or tuple (converted by
/// [`sequence`]); an error naming the argument for anything else.
fn buffer_of(object: &Bound<'_, PyAny>, name: &str) -> PyResult<Option<View>> {
    if object.is_instance_of::<PyList>() || object.is_instance_of::<PyTuple>() {
        return Ok(None);
    }
    let buffer = View::get(object, Request::Array).ok_or_else(|| {
        value_error(
            name,
            format!(
                "expected an array-like of numbers (numpy array, array.array, memoryview, \
                 list or tuple), got {}",
                type_name(object)
            ),
        )
    })?;
    // Empty buffers may point anywhere: the callers take them as they are.
    if buffer.item_count() == 0
        || (buffer.as_ptr() as usize).is_multiple_of(buffer.item_size().max(1))
    {
        return Ok(Some(buffer));
    }
    // Arrays unpickled from out-of-band buffers (protocol 5: Dask,
    // multiprocessing) may start at any byte: their values are copied into
    // memory aligned for them, keeping format and shape.
    let py = object.py();
    let format = buffer.format().to_string_lossy().into_owned();
    let native = if cfg!(target_endian = "little") {
        format.trim_start_matches(['@', '=', '<'])
    } else {
        format.trim_start_matches(['@', '=', '>'])
    };
    let realigned = || -> PyResult<Option<View>> {
        // One copy, in C order (bytearray reads any buffer, strided too).
        let copy = PyByteArray::from(object)?;
        let shape = PyTuple::new(py, buffer.shape())?;
        let aligned = PyMemoryView::from(copy.as_any())?.call_method1("cast", (native, shape))?;
        Ok(View::get(&aligned, Request::Array))
    };
    // A format memoryview cannot cast to is not one of numbers: the callers
    // refuse the original buffer with the argument's name.
    Ok(Some(realigned().ok().flatten().unwrap_or(buffer)))
}

fn type_name(object: &Bound<'_, PyAny>) -> String {
    object
        .get_type()
        .name()
        .map_or_else(|_| "?".into(), |n| n.to_string())
}

/// The values of a list or tuple, flat (`[x, y, z, ...]`) or in rows of
/// `width` (`[[x, y, z], ...]`), each read by `value`, in rows of `width`.
fn sequence<T: Copy + Default, const N: usize>(
    object: &Bound<'_, PyAny>,
    name: &str,
    value: impl Fn(&Bound<'_, PyAny>) -> Option<T>,
    what: &str,
) -> PyResult<Vec<[T; N]>> {
    let items = object.len()?;
    let mut flat: Vec<T> = Vec::with_capacity(items.saturating_mul(N));
    for (i, item) in object.try_iter()?.enumerate() {
        let item = item?;
        if let Some(v) = value(&item) {
            flat.push(v);
            continue;
        }
        let row: Option<Vec<T>> = (item.is_instance_of::<PyList>()
            || item.is_instance_of::<PyTuple>())
        .then(|| item.try_iter().ok()?.map(|v| value(&v.ok()?)).collect())
        .flatten();
        match row {
            Some(row) if row.len() == N => flat.extend(row),
            _ => {
                let expected = if N == 1 {
                    what.to_string()
                } else {
                    format!("{what} or rows of {N}")
                };
                return Err(value_error(
                    name,
                    format!(
                        "entry {i} is not {expected}: {}",
                        item.repr().map_or_else(|_| "?".into(), |r| r.to_string())
                    ),
                ));
            }
        }
    }
    if !flat.len().is_multiple_of(N) {
        return Err(value_error(
            name,
            format!("{} values do not make rows of {N}", flat.len()),
        ));
    }
    Ok(flat
        .chunks_exact(N)
        .map(|c| c.try_into().unwrap())
        .collect())
}

/// The number of rows of `width` values: the shape must be `(rows, width)`, or
/// flat `(rows * width,)`.
fn rows(buffer: &View, name: &str, width: usize) -> PyResult<usize> {
    let shape = buffer.shape();
    match *shape.as_slice() {
        [n, w] if w == width => Ok(n),
        [n] if n % width == 0 => Ok(n / width),
        _ if width == 1 => Err(value_error(
            name,
            format!("expected a 1-D array, got shape {shape:?}"),
        )),
        _ => Err(value_error(
            name,
            format!("expected shape (N, {width}) or ({width} * N,), got {shape:?}"),
        )),
    }
}

fn borrowable<T>(buffer: &View) -> bool {
    buffer.is_c_contiguous() && (buffer.as_ptr() as usize).is_multiple_of(std::mem::align_of::<T>())
}

/// Rows of `N` float32 values: `(V, N)` or flat `(N * V,)`. Float32 buffers
/// are borrowed; other numeric buffers and lists are converted.
pub fn float_rows<const N: usize>(
    object: &Bound<'_, PyAny>,
    name: &str,
) -> PyResult<Array<[f32; N]>> {
    let Some(buffer) = buffer_of(object, name)? else {
        let number = |v: &Bound<'_, PyAny>| {
            (v.is_instance_of::<PyFloat>() || v.is_instance_of::<PyInt>())
                .then(|| v.extract::<f64>().ok().map(|x| x as f32))
                .flatten()
        };
        return sequence(object, name, number, "a number").map(Array::Owned);
    };
    let len = rows(&buffer, name, N)?;
    let element = Element::of(buffer.format(), buffer.item_size());
    if len == 0 && element != Element::Unknown {
        // Empty buffers may point anywhere, aligned or not.
        return Ok(Array::Owned(Vec::new()));
    }
    let flat: Vec<f32> = match element {
        Element::Float(4) if borrowable::<f32>(&buffer) => {
            return Ok(Array::Borrowed { buffer, len });
        }
        Element::Float(4) => buffer.to_vec::<f32>()?,
        Element::Float(8) => cast::<f64>(buffer, |v| v as f32)?,
        Element::Signed(4) => cast::<i32>(buffer, |v| v as f32)?,
        Element::Signed(8) => cast::<i64>(buffer, |v| v as f32)?,
        Element::Unsigned(4) => cast::<u32>(buffer, |v| v as f32)?,
        Element::Unsigned(8) => cast::<u64>(buffer, |v| v as f32)?,
        _ => {
            return Err(value_error(
                name,
                format!(
                    "expected numbers (float32 is used without a copy), got format {:?}",
                    buffer.format()
                ),
            ));
        }
    };
    Ok(Array::Owned(
        flat.chunks_exact(N)
            .map(|c| c.try_into().unwrap())
            .collect(),
    ))
}

/// A buffer of `T` converted to float32 by `convert`.
fn cast<T: Copy>(buffer: View, convert: impl Fn(T) -> f32) -> PyResult<Vec<f32>> {
    Ok(buffer.to_vec::<T>()?.into_iter().map(convert).collect())
}

/// Rows of `N` non-negative integers below 2^32: `(C, N)` or flat. 32-bit
/// integer arrays are borrowed; other integer types and booleans are converted.
pub fn index_rows<const N: usize>(
    object: &Bound<'_, PyAny>,
    name: &str,
) -> PyResult<Array<[u32; N]>> {
    let Some(buffer) = buffer_of(object, name)? else {
        let index = |v: &Bound<'_, PyAny>| {
            v.is_instance_of::<PyInt>()
                .then(|| v.extract::<u32>().ok())
                .flatten()
        };
        let what = "an integer from 0 to 2^32 - 1";
        return sequence(object, name, index, what).map(Array::Owned);
    };
    let len = rows(&buffer, name, N)?;
    let element = Element::of(buffer.format(), buffer.item_size());
    if len == 0 && element != Element::Unknown {
        // Empty buffers may point anywhere, aligned or not.
        return Ok(Array::Owned(Vec::new()));
    }
    let flat: Vec<u32> = match element {
        Element::Unsigned(4) if borrowable::<u32>(&buffer) => {
            return Ok(Array::Borrowed { buffer, len });
        }
        Element::Signed(4) if borrowable::<i32>(&buffer) => {
            // SAFETY: checked by `borrowable` and the format; the slice lives only in this block.
            let values =
                unsafe { std::slice::from_raw_parts(buffer.as_ptr().cast::<i32>(), len * N) };
            if let Some(i) = values.iter().position(|&v| v < 0) {
                return Err(value_error(
                    name,
                    format!("entry {i} is negative ({})", values[i]),
                ));
            }
            return Ok(Array::Borrowed { buffer, len });
        }
        Element::Unsigned(1) => widen::<u8>(buffer, name)?,
        Element::Unsigned(2) => widen::<u16>(buffer, name)?,
        Element::Unsigned(4) => widen::<u32>(buffer, name)?,
        Element::Unsigned(8) => widen::<u64>(buffer, name)?,
        Element::Signed(1) => widen::<i8>(buffer, name)?,
        Element::Signed(2) => widen::<i16>(buffer, name)?,
        Element::Signed(4) => widen::<i32>(buffer, name)?,
        Element::Signed(8) => widen::<i64>(buffer, name)?,
        Element::Bool if buffer.is_c_contiguous() => {
            // SAFETY: a C-contiguous buffer of one-byte booleans, read only in this block.
            let bytes =
                unsafe { std::slice::from_raw_parts(buffer.as_ptr().cast::<u8>(), len * N) };
            bytes.iter().map(|&b| u32::from(b != 0)).collect()
        }
        _ => {
            return Err(value_error(
                name,
                format!("expected integers, got format {:?}", buffer.format()),
            ));
        }
    };
    Ok(Array::Owned(
        flat.chunks_exact(N)
            .map(|c| c.try_into().unwrap())
            .collect(),
    ))
}

fn widen<T>(buffer: View, name: &str) -> PyResult<Vec<u32>>
where
    T: Into<i128> + Copy,
{
    let values = buffer.to_vec::<T>()?;
    values
        .iter()
        .enumerate()
        .map(|(i, &v)| {
            let wide: i128 = v.into();
            u32::try_from(wide).map_err(|_| {
                value_error(
                    name,
                    format!("entry {i} ({wide}) is not an index from 0 to 2^32 - 1"),
                )
            })
        })
        .collect()
}
