//! Arrays from any object with the buffer protocol (numpy arrays,
//! `array.array`, `memoryview`): borrowed without a copy when their layout
//! and type are already the one oxport uses, converted otherwise.

use pyo3::buffer::{ElementType, PyUntypedBuffer};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// A typed view of a Python buffer, or the converted copy of one.
pub enum Array<T> {
    Borrowed { buffer: PyUntypedBuffer, len: usize },
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
                std::slice::from_raw_parts(buffer.buf_ptr().cast::<T>(), *len)
            },
            Array::Owned(values) => values,
        }
    }
}

fn value_error(name: &str, what: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(format!("{name}: {what}"))
}

fn buffer_of(object: &Bound<'_, PyAny>, name: &str) -> PyResult<PyUntypedBuffer> {
    PyUntypedBuffer::get(object).map_err(|_| {
        value_error(
            name,
            format!(
                "expected an array (numpy array, array.array, memoryview), got {}",
                object
                    .get_type()
                    .name()
                    .map_or_else(|_| "?".into(), |n| n.to_string())
            ),
        )
    })
}

/// The number of rows of `width` values: the shape must be `(rows, width)`, or
/// flat `(rows * width,)`.
fn rows(buffer: &PyUntypedBuffer, name: &str, width: usize) -> PyResult<usize> {
    let shape = buffer.shape();
    match *shape {
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

fn borrowable<T>(buffer: &PyUntypedBuffer) -> bool {
    buffer.is_c_contiguous()
        && (buffer.buf_ptr() as usize).is_multiple_of(std::mem::align_of::<T>())
}

/// Rows of `N` float32 values: `(V, N)` or flat `(N * V,)`.
pub fn float_rows<const N: usize>(
    object: &Bound<'_, PyAny>,
    name: &str,
) -> PyResult<Array<[f32; N]>> {
    let buffer = buffer_of(object, name)?;
    if ElementType::from_format(buffer.format()) != (ElementType::Float { bytes: 4 }) {
        return Err(value_error(
            name,
            format!(
                "expected float32 values, got format {:?} (convert with .astype(numpy.float32))",
                buffer.format()
            ),
        ));
    }
    let len = rows(&buffer, name, N)?;
    if len == 0 {
        // Empty buffers may point anywhere, aligned or not.
        return Ok(Array::Owned(Vec::new()));
    }
    if borrowable::<f32>(&buffer) {
        return Ok(Array::Borrowed { buffer, len });
    }
    let py = object.py();
    let flat = buffer.into_typed::<f32>()?.to_vec(py)?;
    Ok(Array::Owned(
        flat.chunks_exact(N)
            .map(|c| c.try_into().unwrap())
            .collect(),
    ))
}

/// Rows of `N` non-negative integers below 2^32: `(C, N)` or flat. 32-bit
/// integer arrays are borrowed; other integer types and booleans are converted.
pub fn index_rows<const N: usize>(
    object: &Bound<'_, PyAny>,
    name: &str,
) -> PyResult<Array<[u32; N]>> {
    let buffer = buffer_of(object, name)?;
    let len = rows(&buffer, name, N)?;
    let element = ElementType::from_format(buffer.format());
    if len == 0 && element != ElementType::Unknown {
        // Empty buffers may point anywhere, aligned or not.
        return Ok(Array::Owned(Vec::new()));
    }
    let py = object.py();
    let flat: Vec<u32> = match element {
        ElementType::UnsignedInteger { bytes: 4 } if borrowable::<u32>(&buffer) => {
            return Ok(Array::Borrowed { buffer, len });
        }
        ElementType::SignedInteger { bytes: 4 } if borrowable::<i32>(&buffer) => {
            // SAFETY: checked by `borrowable` and the format; the slice lives only in this block.
            let values =
                unsafe { std::slice::from_raw_parts(buffer.buf_ptr().cast::<i32>(), len * N) };
            if let Some(i) = values.iter().position(|&v| v < 0) {
                return Err(value_error(
                    name,
                    format!("entry {i} is negative ({})", values[i]),
                ));
            }
            return Ok(Array::Borrowed { buffer, len });
        }
        ElementType::UnsignedInteger { bytes: 1 } => widen::<u8>(py, buffer, name)?,
        ElementType::UnsignedInteger { bytes: 2 } => widen::<u16>(py, buffer, name)?,
        ElementType::UnsignedInteger { bytes: 4 } => widen::<u32>(py, buffer, name)?,
        ElementType::UnsignedInteger { bytes: 8 } => widen::<u64>(py, buffer, name)?,
        ElementType::SignedInteger { bytes: 1 } => widen::<i8>(py, buffer, name)?,
        ElementType::SignedInteger { bytes: 2 } => widen::<i16>(py, buffer, name)?,
        ElementType::SignedInteger { bytes: 4 } => widen::<i32>(py, buffer, name)?,
        ElementType::SignedInteger { bytes: 8 } => widen::<i64>(py, buffer, name)?,
        ElementType::Bool if buffer.is_c_contiguous() => {
            // SAFETY: a C-contiguous buffer of one-byte booleans, read only in this block.
            let bytes =
                unsafe { std::slice::from_raw_parts(buffer.buf_ptr().cast::<u8>(), len * N) };
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

fn widen<T>(py: Python<'_>, buffer: PyUntypedBuffer, name: &str) -> PyResult<Vec<u32>>
where
    T: pyo3::buffer::Element + Into<i128> + Copy,
{
    let values = buffer.into_typed::<T>()?.to_vec(py)?;
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
