//! An index for archives without a seek table, built by walking the frame
//! and block headers (reading a few bytes per 128 KiB block, decoding
//! nothing).

use super::table::{Frame, MAX_RATIO};
use crate::source::Source;
use crate::{Error, Result};

/// The magic number of a zstd frame.
pub const ZSTD_MAGIC: u32 = 0xFD2F_B528;
/// Skippable frames have magic numbers `0x184D2A50` to `0x184D2A5F`.
const SKIPPABLE_MASK: u32 = 0xFFFF_FFF0;
const SKIPPABLE_START: u32 = 0x184D_2A50;
/// The largest zstd block.
const MAX_BLOCK: u64 = 128 * 1024;
/// The longest frame header (magic included).
const MAX_HEADER: usize = 18;

/// The frames of the first `len` bytes of `source`: `Ok(None)` when a
/// frame does not record its content size (the archive can then only be
/// streamed). Skippable frames are stepped over.
pub fn scan(source: &impl Source, len: u64) -> Result<Option<Vec<Frame>>> {
    let mut frames = Vec::new();
    let (mut at, mut offset) = (0u64, 0u64);
    while at < len {
        let corrupt = |what| Error::Corrupt {
            what,
            offset: Some(at),
            path: None,
        };
        let mut header = [0u8; MAX_HEADER];
        let available = (len - at).min(MAX_HEADER as u64) as usize;
        let header = &mut header[..available];
        source.read_exact_at(header, at)?;
        if header.len() < 8 {
            return Err(corrupt("truncated frame header"));
        }
        let magic = u32::from_le_bytes(header[..4].try_into().expect("4 bytes"));
        if magic & SKIPPABLE_MASK == SKIPPABLE_START {
            let size = u32::from_le_bytes(header[4..8].try_into().expect("4 bytes"));
            at = at
                .checked_add(8 + u64::from(size))
                .filter(|&end| end <= len)
                .ok_or_else(|| corrupt("skippable frame runs past the end of the file"))?;
            continue;
        }
        if magic != ZSTD_MAGIC {
            return Err(corrupt("not a zstd frame (wrong magic number)"));
        }
        let descriptor = header[4];
        if descriptor & 0x08 != 0 {
            return Err(corrupt("zstd frame header has its reserved bit set"));
        }
        let header_len = header_len(descriptor);
        if header.len() < header_len {
            return Err(corrupt("truncated frame header"));
        }
        let size = match zstd_safe::get_frame_content_size(&header[..header_len]) {
            Ok(Some(size)) => size,
            Ok(None) => return Ok(None),
            Err(_) => return Err(corrupt("damaged zstd frame header")),
        };
        let end = frame_end(source, len, at, header_len as u64, descriptor & 0x04 != 0)?;
        let compressed_size = end - at;
        if size > compressed_size.saturating_mul(MAX_RATIO) {
            return Err(corrupt(
                "frame content size impossible for its compressed size",
            ));
        }
        frames.push(Frame {
            compressed_offset: at,
            compressed_size,
            offset,
            size,
            checksum: None,
        });
        offset = offset
            .checked_add(size)
            .ok_or_else(|| corrupt("content sizes overflow"))?;
        at = end;
    }
    Ok(Some(frames))
}

/// The length of a frame header (magic included) from its descriptor byte.
fn header_len(descriptor: u8) -> usize {
    let single_segment = descriptor & 0x20 != 0;
    let dictionary = [0, 1, 2, 4][usize::from(descriptor & 0x03)];
    let content_size = match descriptor >> 6 {
        0 => usize::from(single_segment),
        1 => 2,
        2 => 4,
        _ => 8,
    };
    4 + 1 + usize::from(!single_segment) + dictionary + content_size
}

/// Where the frame at `start` ends: after its last block and checksum.
fn frame_end(
    source: &impl Source,
    len: u64,
    start: u64,
    header_len: u64,
    checksum: bool,
) -> Result<u64> {
    let mut at = start + header_len;
    loop {
        let here = at;
        let corrupt = |what| Error::Corrupt {
            what,
            offset: Some(here),
            path: None,
        };
        let mut block = [0u8; 3];
        if len - at < 3 {
            return Err(corrupt("frame truncated (a block header is missing)"));
        }
        source.read_exact_at(&mut block, at)?;
        let header = u32::from(block[0]) | u32::from(block[1]) << 8 | u32::from(block[2]) << 16;
        let last = header & 1 != 0;
        let size = u64::from(header >> 3);
        let payload = match (header >> 1) & 3 {
            0 | 2 => size,
            1 => 1,
            _ => return Err(corrupt("zstd block of the reserved type")),
        };
        if size > MAX_BLOCK {
            return Err(corrupt("zstd block larger than 128 KiB"));
        }
        at += 3 + payload;
        if at > len {
            return Err(corrupt(
                "frame truncated (a block runs past the end of the file)",
            ));
        }
        if last {
            break;
        }
    }
    if checksum {
        at += 4;
        if at > len {
            return Err(Error::Corrupt {
                what: "frame truncated (its checksum is missing)",
                offset: Some(len),
                path: None,
            });
        }
    }
    Ok(at)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_of_concatenated_zstd_output_are_found() {
        let a = vec![7u8; 300_000];
        let b: Vec<u8> = (0..200_000u32).map(|i| (i * 31 % 253) as u8).collect();
        let mut archive = zstd_safe_compress(&a, true);
        let first = archive.len() as u64;
        // A skippable frame between the two.
        archive.extend_from_slice(&0x184D_2A53u32.to_le_bytes());
        archive.extend_from_slice(&5u32.to_le_bytes());
        archive.extend_from_slice(b"hello");
        let second = archive.len() as u64;
        archive.extend(zstd_safe_compress(&b, false));
        let frames = scan(&archive, archive.len() as u64).unwrap().unwrap();
        assert_eq!(frames.len(), 2);
        assert_eq!(
            (frames[0].compressed_offset, frames[0].compressed_size),
            (0, first)
        );
        assert_eq!((frames[0].offset, frames[0].size), (0, 300_000));
        assert_eq!(frames[1].compressed_offset, second);
        assert_eq!(
            frames[1].compressed_offset + frames[1].compressed_size,
            archive.len() as u64
        );
        assert_eq!((frames[1].offset, frames[1].size), (300_000, 200_000));

        let truncated = &archive[..archive.len() - 1];
        let error = scan(&truncated, truncated.len() as u64).unwrap_err();
        assert!(error.to_string().contains("truncated"), "{error}");
        let mut wrong = archive.clone();
        wrong[second as usize] ^= 1;
        let error = scan(&wrong, wrong.len() as u64).unwrap_err();
        assert!(error.to_string().contains("magic"), "{error}");
    }

    /// One frame by zstd's own one-shot API (which always records the size).
    fn zstd_safe_compress(data: &[u8], checksum: bool) -> Vec<u8> {
        let mut context = zstd_safe::CCtx::create();
        context
            .set_parameter(zstd_safe::CParameter::ChecksumFlag(checksum))
            .unwrap();
        let mut out = Vec::with_capacity(zstd_safe::compress_bound(data.len()));
        context.compress2(&mut out, data).unwrap();
        out
    }

    #[test]
    fn header_lengths_follow_the_descriptor() {
        assert_eq!(header_len(0x20), 6); // single segment, 1-byte size
        assert_eq!(header_len(0x00), 6); // window byte, no size
        assert_eq!(header_len(0x60), 7);
        assert_eq!(header_len(0xE3), 4 + 1 + 4 + 8);
        assert_eq!(header_len(0xC3), 18);
    }
}
