//! One frame in, one frame out: compression and decompression of single
//! zstd frames with the contexts each thread keeps (`codec::zstd`).

use std::mem::MaybeUninit;

use super::table::{self, Frame};
use crate::codec::zstd::context::with_decompressor;
use crate::codec::zstd::{self, CompressParams, CompressionParameter};
use crate::{Error, Result};

/// The parameters of every frame of an archive: `level`, the content size
/// in each frame's header, no frame checksum (the seek table carries it),
/// and blocks of at most `max_block` bytes ([`max_block`]) when not zstd's.
pub fn params(level: i32, max_block: Option<u32>) -> Result<CompressParams> {
    let mut params = CompressParams::with_level(level)?;
    params.set(CompressionParameter::ContentSizeFlag, 1)?;
    params.set(CompressionParameter::ChecksumFlag, 0)?;
    if let Some(size) = max_block {
        params.set_max_block(size);
    }
    Ok(params)
}

/// Compresses `data` into one zstd frame with `params` ([`params`]),
/// replacing the contents of `out`.
pub fn compress(data: &[u8], params: &CompressParams, out: &mut Vec<u8>) -> Result<()> {
    out.clear();
    zstd::compress(data, params, None, out)
}

/// The largest block for frames of `frame_size` bytes, when not zstd's
/// 128 KiB: a sixteenth of the frame, at least 16 KiB. A read decompresses
/// a frame's blocks only up to the end of what it reads, so smaller blocks
/// make a random read in a small frame decode about half of it instead of
/// most of it; on scene data they also cost nothing in size (1.6% to 4.6%
/// smaller at 256 KiB frames, `docs/formats/seekable.md`).
pub fn max_block(frame_size: usize) -> Option<u32> {
    const ZSTD_BLOCK: usize = 128 << 10;
    let size = (frame_size / 16).clamp(16 << 10, ZSTD_BLOCK);
    (size < ZSTD_BLOCK).then_some(size as u32)
}

/// Decompresses the bytes of `frame` (`compressed`) into `out`, which must
/// be exactly `frame.size` long, and checks the content size and the
/// checksum.
pub fn decompress(frame: &Frame, compressed: &[u8], out: &mut [u8]) -> Result<()> {
    debug_assert_eq!(out.len() as u64, frame.size);
    // SAFETY: initialised bytes are valid as possibly uninitialised ones.
    let spare = unsafe { &mut *(out as *mut [u8] as *mut [MaybeUninit<u8>]) };
    let written = decompress_checked(frame, compressed, spare)?;
    check_data(frame, written, out)
}

/// [`decompress`] into a vector, replacing its contents without first
/// zeroing them.
pub fn decompress_to_vec(frame: &Frame, compressed: &[u8], out: &mut Vec<u8>) -> Result<()> {
    out.clear();
    // The size was checked against the compressed size (and so the input).
    out.reserve_exact(frame.size as usize);
    let written = decompress_checked(frame, compressed, out.spare_capacity_mut())?;
    // SAFETY: zstd wrote `written` bytes at the start of the spare capacity.
    unsafe { out.set_len(written) };
    check_data(frame, written, out)
}

/// Checks the header against the index, then decompresses with this
/// thread's context into `out` (from its start); returns the count.
fn decompress_checked(
    frame: &Frame,
    compressed: &[u8],
    out: &mut [MaybeUninit<u8>],
) -> Result<usize> {
    check_header(frame, compressed)?;
    with_decompressor(|context| {
        context
            .decompress(out, compressed)
            .map_err(|_| damaged(frame))
    })
}

fn corrupt(frame: &Frame, what: &'static str) -> Error {
    Error::Corrupt {
        what,
        offset: Some(frame.compressed_offset),
        path: None,
    }
}

fn damaged(frame: &Frame) -> Error {
    corrupt(frame, "frame does not decompress (damaged data)")
}

/// Checked before anything is decoded: a header that contradicts the
/// index means the index is wrong.
fn check_header(frame: &Frame, compressed: &[u8]) -> Result<()> {
    match zstd_safe::get_frame_content_size(compressed) {
        Ok(Some(size)) if size != frame.size => Err(corrupt(
            frame,
            "frame content size disagrees with the seek table",
        )),
        Ok(_) => Ok(()),
        Err(_) => Err(corrupt(
            frame,
            "not a zstd frame where the seek table puts one",
        )),
    }
}

/// The decompressed data has the frame's size and checksum.
fn check_data(frame: &Frame, written: usize, data: &[u8]) -> Result<()> {
    if written as u64 != frame.size {
        return Err(corrupt(
            frame,
            "frame decompresses to another size than the seek table says",
        ));
    }
    if let Some(expected) = frame.checksum
        && table::checksum(data) != expected
    {
        return Err(corrupt(frame, "frame checksum mismatch (damaged data)"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_frames_have_small_blocks() {
        assert_eq!(max_block(256 << 10), Some(16 << 10));
        assert_eq!(max_block(1 << 20), Some(64 << 10));
        assert_eq!(max_block(100), Some(16 << 10));
        assert_eq!(max_block(2 << 20), None);
        assert_eq!(max_block(1 << 30), None);
    }

    #[test]
    fn a_frame_round_trips_at_every_kind_of_level() {
        let data: Vec<u8> = (0..100_000u32)
            .flat_map(|i| (i % 251).to_le_bytes())
            .collect();
        for level in [-5, 1, 3, 19] {
            let mut out = Vec::new();
            compress(&data, &params(level, max_block(1 << 18)).unwrap(), &mut out).unwrap();
            assert!(out.len() < data.len());
            assert_eq!(
                zstd_safe::get_frame_content_size(&out).unwrap(),
                Some(data.len() as u64)
            );
            let frame = Frame {
                compressed_offset: 0,
                compressed_size: out.len() as u64,
                offset: 0,
                size: data.len() as u64,
                checksum: Some(table::checksum(&data)),
            };
            let mut back = vec![0; data.len()];
            decompress(&frame, &out, &mut back).unwrap();
            assert_eq!(back, data);
            let wrong = Frame {
                checksum: Some(table::checksum(&data) ^ 1),
                ..frame
            };
            let error = decompress(&wrong, &out, &mut back).unwrap_err();
            assert!(error.to_string().contains("checksum"), "{error}");
        }
    }
}
