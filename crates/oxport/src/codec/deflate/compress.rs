//! One-shot deflate compression into the output, no intermediate buffer.
//!
//! [`Engine::Fastest`] (what [`compress`] uses unless told otherwise)
//! compresses levels 1 to 3 with ISA-L's igzip when oxport is built with
//! it (the `isal` feature, opt-in: it needs nasm and autotools to build) and every other level with
//! libdeflate; [`Engine::Libdeflate`] uses libdeflate at every level (the
//! bytes OpenEXR's ZIP writes). Either way the zlib and gzip wrappers are
//! libdeflate's: the same header for the same level, whoever compresses.

use std::mem::MaybeUninit;

use libdeflate_sys as sys;

use super::Format;
use super::context::with_compressor;
use crate::codec::Output;
use crate::{Error, Result};

/// Who compresses the deflate stream.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Engine {
    /// The fastest compressor at each level: ISA-L's igzip at levels 1 to 3
    /// (about 1.7× libdeflate's speed at level 1 for about 5% more output),
    /// libdeflate at the others.
    #[default]
    Fastest,
    /// libdeflate at every level.
    Libdeflate,
}

impl Engine {
    /// Whether ISA-L compresses at `level` (never without the `isal` feature).
    pub fn uses_isal(self, level: i32) -> bool {
        cfg!(feature = "isal") && self == Engine::Fastest && (1..=3).contains(&level)
    }
}

/// The most bytes compressing `len` bytes in `format` can take (at any
/// level, with either engine).
pub fn compress_bound(len: usize, format: Format) -> usize {
    // SAFETY: libdeflate accepts a null compressor for the bound of any level.
    let libdeflate = unsafe { sys::libdeflate_deflate_compress_bound(std::ptr::null_mut(), len) };
    #[cfg(feature = "isal")]
    let libdeflate = libdeflate.max(super::isal::bound(len));
    let (header, trailer) = wrapper_len(format);
    libdeflate + header + trailer
}

/// The bytes of the wrapper before and after the deflate stream.
fn wrapper_len(format: Format) -> (usize, usize) {
    match format {
        Format::Raw => (0, 0),
        Format::Zlib => (2, 4),
        Format::Gzip => (10, 8),
    }
}

/// The wrapper's header as libdeflate writes it at `level`: the first
/// `wrapper_len(format).0` bytes.
#[cfg(feature = "isal")]
fn header(format: Format, level: i32) -> [u8; 10] {
    let mut header = [0; 10];
    match format {
        Format::Raw => {}
        Format::Zlib => {
            let hint = match level {
                ..2 => 0,
                2..6 => 1,
                6..8 => 2,
                _ => 3,
            };
            let mut cmf_flg: u16 = (8 << 8) | (7 << 12) | (hint << 6);
            cmf_flg |= 31 - cmf_flg % 31;
            header[..2].copy_from_slice(&cmf_flg.to_be_bytes());
        }
        Format::Gzip => {
            let flags = match level {
                ..2 => 4,
                8.. => 2,
                _ => 0,
            };
            header = [0x1f, 0x8b, 8, 0, 0, 0, 0, 0, flags, 255];
        }
    }
    header
}

fn too_small(room: usize, len: usize, format: Format) -> Error {
    Error::invalid(format!(
        "the output buffer is too small: {room} bytes available, up to {} needed",
        compress_bound(len, format)
    ))
}

fn compress_raw(
    data: &[u8],
    level: i32,
    format: Format,
    engine: Engine,
    out: &mut [MaybeUninit<u8>],
) -> Result<usize> {
    super::check_level(level)?;
    if engine.uses_isal(level) {
        return compress_wrapped_isal(data, level, format, out);
    }
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
            return Err(too_small(room, data.len(), format));
        }
        Ok(written)
    })
}

/// ISA-L's raw stream between libdeflate's header and trailer.
#[cfg(feature = "isal")]
fn compress_wrapped_isal(
    data: &[u8],
    level: i32,
    format: Format,
    out: &mut [MaybeUninit<u8>],
) -> Result<usize> {
    let (header_len, trailer_len) = wrapper_len(format);
    if out.len() < header_len + trailer_len {
        return Err(too_small(out.len(), data.len(), format));
    }
    let room = out.len();
    let (head, rest) = out.split_at_mut(header_len);
    head.copy_from_slice(as_uninit(&header(format, level)[..header_len]));
    let body_room = rest.len() - trailer_len;
    let body = super::isal::compress(data, level, &mut rest[..body_room])?
        .ok_or_else(|| too_small(room, data.len(), format))?;
    let mut trailer = [0u8; 8];
    // SAFETY: libdeflate's checksums read `len` bytes of a valid slice.
    match format {
        Format::Raw => {}
        Format::Zlib => {
            let adler = unsafe { sys::libdeflate_adler32(1, data.as_ptr().cast(), data.len()) };
            trailer[..4].copy_from_slice(&adler.to_be_bytes());
        }
        Format::Gzip => {
            let crc = unsafe { sys::libdeflate_crc32(0, data.as_ptr().cast(), data.len()) };
            trailer[..4].copy_from_slice(&crc.to_le_bytes());
            trailer[4..].copy_from_slice(&(data.len() as u32).to_le_bytes());
        }
    }
    rest[body..body + trailer_len].copy_from_slice(as_uninit(&trailer[..trailer_len]));
    Ok(header_len + body + trailer_len)
}

#[cfg(not(feature = "isal"))]
fn compress_wrapped_isal(_: &[u8], _: i32, _: Format, _: &mut [MaybeUninit<u8>]) -> Result<usize> {
    unreachable!("Engine::uses_isal is false without the isal feature")
}

#[cfg(feature = "isal")]
fn as_uninit(bytes: &[u8]) -> &[MaybeUninit<u8>] {
    // SAFETY: initialised bytes are valid as possibly uninitialised ones.
    unsafe { &*(bytes as *const [u8] as *const [MaybeUninit<u8>]) }
}

/// Compresses `data` at `level` (0 to 12) in `format` with `engine` and
/// appends it to `out`.
pub fn compress(
    data: &[u8],
    level: i32,
    format: Format,
    engine: Engine,
    out: &mut (impl Output + ?Sized),
) -> Result<()> {
    let bound = compress_bound(data.len(), format);
    let spare = out.spare(bound)?;
    let written = compress_raw(data, level, format, engine, spare)?;
    // SAFETY: the compressor wrote `written` bytes at the start of `spare`.
    unsafe { out.commit(written) };
    Ok(())
}

/// Compresses `data` into `buf`; the size written. [`compress_bound`]
/// bytes are always enough.
pub fn compress_into(
    data: &[u8],
    level: i32,
    format: Format,
    engine: Engine,
    buf: &mut [u8],
) -> Result<usize> {
    // SAFETY: initialised bytes are valid as possibly uninitialised ones.
    let spare = unsafe { &mut *(buf as *mut [u8] as *mut [MaybeUninit<u8>]) };
    compress_raw(data, level, format, engine, spare)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(n: usize) -> Vec<u8> {
        (0..n)
            .map(|i| b"f 12/7/3 13/8/3 14/9/3\n"[i % 23] ^ (i / 1000) as u8 & 1)
            .collect()
    }

    #[test]
    fn wrappers_are_libdeflates_whoever_compresses() {
        let data = text(50_000);
        for format in [Format::Zlib, Format::Gzip] {
            for level in 0..=12 {
                let mut fastest = Vec::new();
                compress(&data, level, format, Engine::Fastest, &mut fastest).unwrap();
                let mut libdeflate = Vec::new();
                compress(&data, level, format, Engine::Libdeflate, &mut libdeflate).unwrap();
                let (n, t) = wrapper_len(format);
                assert_eq!(fastest[..n], libdeflate[..n], "{format:?} {level}");
                assert_eq!(
                    fastest[fastest.len() - t..],
                    libdeflate[libdeflate.len() - t..],
                    "{format:?} {level}"
                );
                // ISA-L compresses at 1 to 3, so its stream differs there.
                let same = fastest == libdeflate;
                assert_eq!(
                    same,
                    !Engine::Fastest.uses_isal(level),
                    "{format:?} {level}"
                );
            }
        }
    }

    #[test]
    fn a_small_buffer_is_an_error_with_either_engine() {
        let data = text(10_000);
        for engine in [Engine::Fastest, Engine::Libdeflate] {
            let mut buf = [0u8; 64];
            let error = compress_into(&data, 1, Format::Gzip, engine, &mut buf).unwrap_err();
            assert!(
                error.to_string().contains("too small"),
                "{engine:?}: {error}"
            );
            let mut tiny = [0u8; 5];
            assert!(compress_into(&data, 1, Format::Gzip, engine, &mut tiny).is_err());
        }
    }
}
