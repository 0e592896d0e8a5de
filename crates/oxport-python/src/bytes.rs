//! Bytes in and out of the codecs without copies: inputs are any object
//! with the buffer protocol, read in place; outputs are `bytes` objects
//! allocated uninitialised and filled in place — at their exact size when
//! it is known, grown in place (`_PyBytes_Resize`, which reallocates) when
//! it is not, so that no list of pieces is joined at the end. (The abi3
//! module for Windows grows them by copying: python3.dll does not export
//! `_PyBytes_Resize`.)

use std::mem::MaybeUninit;
use std::ptr::null_mut;

use oxport::codec::Output;
use pyo3::exceptions::PyTypeError;
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::view::{Request, View};

#[cfg(not(all(windows, any(feature = "abi3", feature = "abi3-py311"))))]
unsafe extern "C" {
    // CPython's own way to grow or shrink a `bytes` object nobody else
    // references yet: exported by every CPython 3 with this signature, though
    // outside the stable ABI (which has no other way to resize one in place).
    fn _PyBytes_Resize(bytes: *mut *mut ffi::PyObject, size: ffi::Py_ssize_t) -> std::ffi::c_int;
}

/// Resizes the `bytes` object `*bytes` (referenced only by the caller) to
/// `size`, its first `kept` bytes kept; on failure frees it, nulls the
/// pointer, sets Python's error and returns `false`. Needs the GIL.
///
/// # Safety
///
/// `*bytes` is an owned reference to a `bytes` object of at least `kept`
/// bytes that nothing else references.
unsafe fn resize(bytes: &mut *mut ffi::PyObject, size: ffi::Py_ssize_t, kept: usize) -> bool {
    #[cfg(not(all(windows, any(feature = "abi3", feature = "abi3-py311"))))]
    {
        let _ = kept;
        // SAFETY: as the caller promises; on failure CPython frees the
        // object, nulls the pointer and sets MemoryError.
        unsafe { _PyBytes_Resize(bytes, size) == 0 }
    }
    // An abi3 module on Windows links python3.dll, which does not export
    // `_PyBytes_Resize`: a new object, the kept bytes copied.
    #[cfg(all(windows, any(feature = "abi3", feature = "abi3-py311")))]
    {
        // SAFETY: a null source asks for uninitialised contents; both
        // objects hold at least `kept.min(size)` bytes; the old reference is
        // the caller's, released once.
        unsafe {
            let old = std::mem::replace(bytes, std::ptr::null_mut());
            let new = ffi::PyBytes_FromStringAndSize(std::ptr::null(), size);
            if !new.is_null() {
                let kept = kept.min(size as usize);
                std::ptr::copy_nonoverlapping(
                    ffi::PyBytes_AsString(old),
                    ffi::PyBytes_AsString(new),
                    kept,
                );
                *bytes = new;
            }
            ffi::Py_DECREF(old);
            !new.is_null()
        }
    }
}

/// A contiguous buffer borrowed from a Python object, released on drop.
pub struct Buffer {
    view: View,
}

impl Buffer {
    fn get(object: &Bound<'_, PyAny>, request: Request, what: &str) -> PyResult<Self> {
        match View::get(object, request) {
            Some(view) => Ok(Buffer { view }),
            None => Err(PyTypeError::new_err(format!(
                "{what}, not '{}'",
                object.get_type().name()?
            ))),
        }
    }

    /// Any bytes-like object, read only.
    pub fn read(object: &Bound<'_, PyAny>) -> PyResult<Self> {
        Self::get(object, Request::Bytes, "a bytes-like object is required")
    }

    /// A writable bytes-like object (`bytearray`, `memoryview`, numpy arrays).
    pub fn write(object: &Bound<'_, PyAny>) -> PyResult<Self> {
        Self::get(
            object,
            Request::WritableBytes,
            "a writable bytes-like object is required",
        )
    }

    pub fn as_slice(&self) -> &[u8] {
        self.view.as_bytes()
    }

    /// The bytes, for writing (only for buffers from [`Buffer::write`]).
    pub fn as_mut_slice(&mut self) -> &mut [u8] {
        self.view.as_bytes_mut()
    }
}

/// A `bytes` object being filled.
pub struct BytesOut {
    object: *mut ffi::PyObject,
    capacity: usize,
    len: usize,
}

// SAFETY: the object is only created, resized and freed with the GIL held
// (`Python::attach`), and nothing else references it until `finish`.
unsafe impl Send for BytesOut {}

impl Default for BytesOut {
    fn default() -> Self {
        BytesOut {
            object: null_mut(),
            capacity: 0,
            len: 0,
        }
    }
}

impl BytesOut {
    /// The filled `bytes`, shrunk to what was written.
    pub fn finish(mut self, py: Python<'_>) -> PyResult<Bound<'_, PyBytes>> {
        if self.object.is_null() {
            return Ok(PyBytes::new(py, b""));
        }
        if self.len != self.capacity {
            // SAFETY: our object, referenced only here, of `capacity` bytes.
            if !unsafe { resize(&mut self.object, self.len as ffi::Py_ssize_t, self.len) } {
                return Err(PyErr::fetch(py));
            }
        }
        let object = std::mem::replace(&mut self.object, null_mut());
        // SAFETY: an owned reference to a `bytes` object.
        Ok(unsafe { Bound::from_owned_ptr(py, object).cast_into_unchecked() })
    }

    fn grow(&mut self, capacity: usize) -> oxport::Result<()> {
        let size = ffi::Py_ssize_t::try_from(capacity)
            .map_err(|_| oxport::codec::out_of_memory(capacity))?;
        Python::attach(|py| {
            let failed = if self.object.is_null() {
                // SAFETY: a null source asks for uninitialised contents.
                self.object = unsafe { ffi::PyBytes_FromStringAndSize(std::ptr::null(), size) };
                self.object.is_null()
            } else {
                // SAFETY: as in `finish`.
                unsafe { !resize(&mut self.object, size, self.len) }
            };
            if failed {
                let _ = PyErr::take(py);
                self.object = null_mut();
                self.len = 0;
                self.capacity = 0;
                return Err(oxport::codec::out_of_memory(capacity));
            }
            self.capacity = capacity;
            Ok(())
        })
    }
}

// SAFETY: the spare memory is the object's bytes after `len`, up to its size.
unsafe impl Output for BytesOut {
    fn len(&self) -> usize {
        self.len
    }

    fn spare(&mut self, additional: usize) -> oxport::Result<&mut [MaybeUninit<u8>]> {
        if self.capacity - self.len < additional {
            let needed = self
                .len
                .checked_add(additional)
                .ok_or_else(|| oxport::codec::out_of_memory(usize::MAX))?;
            // Doubling keeps many small requests linear; the first request
            // (the exact size, when the codec knows it) is taken as is.
            self.grow(needed.max(self.capacity.saturating_mul(2)))?;
        }
        if self.object.is_null() {
            return Ok(&mut []);
        }
        // SAFETY: the object has `capacity` bytes of contents.
        unsafe {
            let data = ffi::PyBytes_AsString(self.object).cast::<MaybeUninit<u8>>();
            Ok(std::slice::from_raw_parts_mut(
                data.add(self.len),
                self.capacity - self.len,
            ))
        }
    }

    unsafe fn commit(&mut self, n: usize) {
        self.len += n;
    }
}

impl Drop for BytesOut {
    fn drop(&mut self) {
        if !self.object.is_null() {
            // SAFETY: an owned reference, released once with the GIL.
            Python::attach(|_| unsafe { ffi::Py_DECREF(self.object) });
        }
    }
}

/// Inputs at least this large are worked on without the GIL; smaller ones
/// take less time than releasing and taking it back.
pub const DETACH_MIN: usize = 1 << 14;

/// Runs `work` without the GIL when `len` is large, with it otherwise.
pub fn maybe_detach<T: Send>(py: Python<'_>, len: usize, work: impl FnOnce() -> T + Send) -> T {
    if len >= DETACH_MIN {
        py.detach(work)
    } else {
        work()
    }
}
