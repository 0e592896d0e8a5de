//! Python's buffer protocol, for the abi3 extension module that serves
//! CPython 3.10 and later (and the module built for 3.9 alone).
//!
//! pyo3 declares the buffer protocol under the stable ABI only from 3.11,
//! the release that added it there. The structure and the four functions
//! were not new then: 3.11 took into the stable ABI the layout every
//! CPython 3 already had and exports, so they are declared here once and
//! used the same way on every version. [`View`] holds one exported buffer
//! and releases it on drop; [`Element`] reads its `struct` format.

use std::ffi::{CStr, c_char, c_int, c_void};
use std::mem::{MaybeUninit, size_of};

use pyo3::ffi::{Py_ssize_t, PyObject};
use pyo3::prelude::*;

#[repr(C)]
struct PyBuffer {
    buf: *mut c_void,
    obj: *mut PyObject,
    len: Py_ssize_t,
    itemsize: Py_ssize_t,
    readonly: c_int,
    ndim: c_int,
    format: *mut c_char,
    shape: *mut Py_ssize_t,
    strides: *mut Py_ssize_t,
    suboffsets: *mut Py_ssize_t,
    internal: *mut c_void,
}

unsafe extern "C" {
    fn PyObject_GetBuffer(object: *mut PyObject, view: *mut PyBuffer, flags: c_int) -> c_int;
    fn PyBuffer_Release(view: *mut PyBuffer);
    fn PyBuffer_IsContiguous(view: *const PyBuffer, order: c_char) -> c_int;
    fn PyBuffer_ToContiguous(
        out: *mut c_void,
        view: *const PyBuffer,
        len: Py_ssize_t,
        order: c_char,
    ) -> c_int;
}

/// What the caller asks of the exporter (CPython's `PyBUF_*` flags).
#[derive(Clone, Copy)]
pub enum Request {
    /// Contiguous bytes, read only, without format or shape.
    Bytes,
    /// Contiguous bytes the caller writes.
    WritableBytes,
    /// Any layout (strided, indirect), with format and shape, read only.
    Array,
}

impl Request {
    fn flags(self) -> c_int {
        const WRITABLE: c_int = 0x0001;
        const FORMAT: c_int = 0x0004;
        const ND: c_int = 0x0008;
        const STRIDES: c_int = 0x0010 | ND;
        const INDIRECT: c_int = 0x0100 | STRIDES;
        match self {
            Request::Bytes => 0,
            Request::WritableBytes => WRITABLE,
            Request::Array => INDIRECT | FORMAT,
        }
    }
}

/// One exported buffer, released on drop.
pub struct View {
    view: Box<PyBuffer>,
}

// SAFETY: the exporter keeps the memory alive and in place until the view
// is released, which happens in `Drop` with the GIL held.
unsafe impl Send for View {}
unsafe impl Sync for View {}

impl View {
    /// The buffer `object` exports for `request`; `None` (with no Python
    /// error left set) when it exports none.
    pub fn get(object: &Bound<'_, PyAny>, request: Request) -> Option<Self> {
        let mut view = Box::new(MaybeUninit::<PyBuffer>::zeroed());
        // SAFETY: a live object and room for the view; on failure nothing
        // is held and a Python error is set, which is cleared here.
        if unsafe { PyObject_GetBuffer(object.as_ptr(), view.as_mut_ptr(), request.flags()) } != 0 {
            let _ = PyErr::take(object.py());
            return None;
        }
        // SAFETY: filled by the successful call above.
        let view = unsafe { Box::from_raw(Box::into_raw(view).cast::<PyBuffer>()) };
        Some(View { view })
    }

    /// The first byte (may be dangling when the buffer is empty).
    pub fn as_ptr(&self) -> *mut u8 {
        self.view.buf.cast()
    }

    /// The size in bytes of the whole buffer, as if contiguous.
    pub fn len(&self) -> usize {
        self.view.len as usize
    }

    pub fn item_size(&self) -> usize {
        self.view.itemsize as usize
    }

    pub fn item_count(&self) -> usize {
        self.len().checked_div(self.item_size()).unwrap_or(0)
    }

    pub fn readonly(&self) -> bool {
        self.view.readonly != 0
    }

    /// The `struct` format of an item (`B` when the request asked none).
    pub fn format(&self) -> &CStr {
        if self.view.format.is_null() {
            c"B"
        } else {
            // SAFETY: a NUL-terminated string owned by the export.
            unsafe { CStr::from_ptr(self.view.format) }
        }
    }

    /// The size of each dimension (one dimension of `len` bytes when the
    /// request asked for no shape).
    pub fn shape(&self) -> Vec<usize> {
        let ndim = self.view.ndim as usize;
        if self.view.shape.is_null() {
            return vec![self.item_count()];
        }
        // SAFETY: the export's `ndim` sizes.
        unsafe { std::slice::from_raw_parts(self.view.shape, ndim) }
            .iter()
            .map(|&n| n as usize)
            .collect()
    }

    pub fn is_c_contiguous(&self) -> bool {
        // SAFETY: a live view.
        unsafe { PyBuffer_IsContiguous(&*self.view, b'C' as c_char) != 0 }
    }

    /// Whether the bytes are `len` bytes in a row. A view exported without
    /// strides ([`Request::Bytes`], [`Request::WritableBytes`]) is, by the
    /// protocol's rules: no call into CPython on the codecs' path.
    fn is_flat(&self) -> bool {
        self.view.strides.is_null() || self.is_c_contiguous()
    }

    /// The bytes of a contiguous buffer (empty for a strided one).
    pub fn as_bytes(&self) -> &[u8] {
        if self.len() == 0 || !self.is_flat() {
            return &[];
        }
        // SAFETY: `len` contiguous bytes, pinned while the view is held.
        unsafe { std::slice::from_raw_parts(self.as_ptr(), self.len()) }
    }

    /// The bytes of a contiguous buffer from [`Request::WritableBytes`].
    pub fn as_bytes_mut(&mut self) -> &mut [u8] {
        if self.len() == 0 || self.readonly() || !self.is_flat() {
            return &mut [];
        }
        // SAFETY: writable, contiguous and pinned while the view is held;
        // `&mut self` makes this the only slice of it.
        unsafe { std::slice::from_raw_parts_mut(self.as_ptr(), self.len()) }
    }

    /// The items copied out in C order, whatever the layout; `T` must be
    /// the size of an item (the caller has read the format).
    pub fn to_vec<T: Copy>(&self) -> PyResult<Vec<T>> {
        if self.item_size() != size_of::<T>() {
            return Err(pyo3::exceptions::PyBufferError::new_err(
                "item size does not match the format",
            ));
        }
        let count = self.item_count();
        let mut values = Vec::<T>::with_capacity(count);
        // SAFETY: room for `count` items of the buffer's item size; the copy
        // fills exactly `len` bytes or fails with a Python error set.
        unsafe {
            let len = self.view.len;
            if PyBuffer_ToContiguous(values.as_mut_ptr().cast(), &*self.view, len, b'C' as c_char)
                != 0
            {
                return Python::attach(|py| Err(PyErr::fetch(py)));
            }
            values.set_len(count);
        }
        Ok(values)
    }
}

impl Drop for View {
    fn drop(&mut self) {
        Python::attach(|_| {
            // SAFETY: a view obtained by `PyObject_GetBuffer`, released once.
            unsafe { PyBuffer_Release(&mut *self.view) }
        });
    }
}

/// The type of an item, read from a `struct` format of one item.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Element {
    Float(usize),
    Signed(usize),
    Unsigned(usize),
    Bool,
    Unknown,
}

impl Element {
    /// The element of a buffer whose format is `format` and whose items are
    /// `item_size` bytes. Only native byte order is read (no prefix, `@`,
    /// `=`, and `<` or `>`/`!` as the machine is); anything else, or a
    /// format of more than one item, is `Unknown`. The width of `l`, `L`,
    /// `n` and `N` is the item size: it depends on the platform and on the
    /// exporter (ctypes' `c_long` says `<l` for 8 bytes).
    pub fn of(format: &CStr, item_size: usize) -> Element {
        let little = cfg!(target_endian = "little");
        let code = match format.to_bytes() {
            [code] | [b'@' | b'=', code] => *code,
            [b'<', code] if little => *code,
            [b'>' | b'!', code] if !little => *code,
            _ => return Element::Unknown,
        };
        let (element, size) = match code {
            b'e' => (Element::Float(2), 2),
            b'f' => (Element::Float(4), 4),
            b'd' => (Element::Float(8), 8),
            b'b' => (Element::Signed(1), 1),
            b'h' => (Element::Signed(2), 2),
            b'i' => (Element::Signed(4), 4),
            b'q' => (Element::Signed(8), 8),
            b'l' | b'n' if matches!(item_size, 4 | 8) => (Element::Signed(item_size), item_size),
            b'B' | b'c' => (Element::Unsigned(1), 1),
            b'H' => (Element::Unsigned(2), 2),
            b'I' => (Element::Unsigned(4), 4),
            b'Q' => (Element::Unsigned(8), 8),
            b'L' | b'N' if matches!(item_size, 4 | 8) => (Element::Unsigned(item_size), item_size),
            b'?' => (Element::Bool, 1),
            _ => return Element::Unknown,
        };
        if size == item_size {
            element
        } else {
            Element::Unknown
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Element;

    #[test]
    fn formats() {
        assert_eq!(Element::of(c"f", 4), Element::Float(4));
        assert_eq!(Element::of(c"<d", 8), Element::Float(8));
        assert_eq!(Element::of(c"@l", 8), Element::Signed(8));
        assert_eq!(Element::of(c"=l", 4), Element::Signed(4));
        assert_eq!(Element::of(c"<L", 8), Element::Unsigned(8));
        assert_eq!(Element::of(c"?", 1), Element::Bool);
        assert_eq!(Element::of(c"i", 8), Element::Unknown);
        assert_eq!(Element::of(c">i", 4), Element::Unknown);
        assert_eq!(Element::of(c"2f", 8), Element::Unknown);
        assert_eq!(Element::of(c"T{f:x:}", 4), Element::Unknown);
    }
}
