//! Output buffers that codecs fill without zeroing them first.

use std::mem::MaybeUninit;

use crate::{Error, Result};

/// A growable buffer that a codec appends to: `Vec<u8>` in Rust, a `bytes`
/// object being filled in the Python bindings.
///
/// # Safety
///
/// Implementations must return from [`Output::spare`] memory of at least the
/// requested length that starts right after the [`Output::len`] written
/// bytes and stays valid until the next call of `spare`; [`Output::commit`]
/// must count the committed bytes as written.
pub unsafe trait Output {
    /// The bytes written so far.
    fn len(&self) -> usize;

    /// Whether nothing has been written.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// At least `additional` writable bytes after the written ones, growing
    /// the buffer when it has fewer (geometrically, so that many small
    /// requests cost linear time). A codec that knows the final size asks
    /// for exactly that much once. A buffer that cannot grow (a caller's)
    /// returns what it has left, and codecs check.
    fn spare(&mut self, additional: usize) -> Result<&mut [MaybeUninit<u8>]>;

    /// Counts `n` more bytes as written.
    ///
    /// # Safety
    ///
    /// The first `n` bytes of the last [`Output::spare`] were written.
    unsafe fn commit(&mut self, n: usize);
}

// SAFETY: `spare_capacity_mut` is the memory right after `len`, and
// `reserve` keeps at least `additional` of it.
unsafe impl Output for Vec<u8> {
    fn len(&self) -> usize {
        Vec::len(self)
    }

    fn spare(&mut self, additional: usize) -> Result<&mut [MaybeUninit<u8>]> {
        self.try_reserve(additional)
            .map_err(|_| out_of_memory(additional))?;
        Ok(self.spare_capacity_mut())
    }

    unsafe fn commit(&mut self, n: usize) {
        // SAFETY: the caller wrote these bytes (the trait's contract).
        unsafe { self.set_len(self.len() + n) }
    }
}

/// The error of an allocation the system refused.
pub fn out_of_memory(bytes: usize) -> Error {
    Error::from(std::io::Error::new(
        std::io::ErrorKind::OutOfMemory,
        format!("cannot allocate {bytes} bytes of output"),
    ))
}

/// A caller's buffer as an output that cannot grow: `spare` returns the
/// rest of it, however much is asked for.
pub(crate) struct Fixed<'a> {
    buf: &'a mut [u8],
    len: usize,
}

impl<'a> Fixed<'a> {
    pub(crate) fn new(buf: &'a mut [u8]) -> Self {
        Fixed { buf, len: 0 }
    }
}

// SAFETY: the spare memory is the rest of the buffer.
unsafe impl Output for Fixed<'_> {
    fn len(&self) -> usize {
        self.len
    }

    fn spare(&mut self, _additional: usize) -> Result<&mut [MaybeUninit<u8>]> {
        let rest = &mut self.buf[self.len..];
        // SAFETY: initialised bytes are valid as possibly uninitialised ones,
        // and codecs only write into them.
        Ok(unsafe { &mut *(rest as *mut [u8] as *mut [MaybeUninit<u8>]) })
    }

    unsafe fn commit(&mut self, n: usize) {
        self.len += n;
    }
}

/// The error of a caller's buffer that cannot hold the output.
pub(crate) fn too_small(needed: impl std::fmt::Display, available: usize) -> Error {
    Error::invalid(format!(
        "the output buffer is too small: {needed} bytes needed, {available} available"
    ))
}
