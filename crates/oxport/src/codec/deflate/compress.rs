//! One-shot deflate compression into the output, no intermediate buffer.

use std::mem::MaybeUninit;

use libdeflate_sys as sys;

use super::Format;
use super::context::with_compressor;
use crate::codec::Output;
use crate::{Error, Result};

/// The most bytes compressing `len` bytes in `format` can take (at any level).
pub fn compress_bound(len: usize, format: Format) -> usize {
    // SAFETY: libdeflate accepts a null compressor for the bound of any level.
    unsafe {
        match format {
            Format::Raw => sys::libdeflate_deflate_compress_bound(std::ptr::null_mut(), len),
            Format::Zlib => sys::libdeflate_zlib_compress_bound(std::ptr::null_mut(), len),
            Format::Gzip => sys::libdeflate_gzip_compress_bound(std::ptr::null_mut(), len),
        }
    }
}

fn compress_raw(
    data: &[u8],
    level: i32,
    format: Format,
    out: &mut [MaybeUninit<u8>],
) -> Result<usize> {
    with_compressor(level, |compressor| {
        let (input, n, output, room) = (
            data.as_ptr().cast(),
            data.len(),
            out.as_mut_ptr().cast(),
            out.len(),
        );
        let compress = match format {
            Format::Raw => sys::libdeflate_deflate_compress,
            Format::Zlib => sys::libdeflate_zlib_compress,
            Format::Gzip => sys::libdeflate_gzip_compress,
        };
        // SAFETY: both buffers are valid for their lengths; libdeflate
        // writes at most `room` bytes and returns 0 when they do not suffice.
        let written = unsafe { compress(compressor, input, n, output, room) };
        if written == 0 {
            return Err(Error::invalid(format!(
                "the output buffer is too small: {room} bytes available, up to {} needed",
                compress_bound(data.len(), format)
            )));
        }
        Ok(written)
    })
}

/// Compresses `data` at `level` (0 to 12) in `format` and appends it to `out`.
pub fn compress(
    data: &[u8],
    level: i32,
    format: Format,
    out: &mut (impl Output + ?Sized),
) -> Result<()> {
    let bound = compress_bound(data.len(), format);
    let spare = out.spare(bound)?;
    let written = compress_raw(data, level, format, spare)?;
    // SAFETY: libdeflate wrote `written` bytes at the start of `spare`.
    unsafe { out.commit(written) };
    Ok(())
}

/// Compresses `data` into `buf`; the size written. [`compress_bound`]
/// bytes are always enough.
pub fn compress_into(data: &[u8], level: i32, format: Format, buf: &mut [u8]) -> Result<usize> {
    // SAFETY: initialised bytes are valid as possibly uninitialised ones.
    let spare = unsafe { &mut *(buf as *mut [u8] as *mut [MaybeUninit<u8>]) };
    compress_raw(data, level, format, spare)
}
