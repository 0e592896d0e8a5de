//! OpenEXR 3.5's ZSTD method, chunk by chunk:
//!
//! 1. sort: every 16-bit channel row of the chunk (line by line, channels in
//!    order), then every 32-bit one;
//! 2. delta: each row's words become differences from the previous word
//!    (wire format 2, flag 1; format 1 has no delta and is read too);
//! 3. planes: the 16-bit part split into 2 byte planes, the 32-bit part
//!    into 4, each part preceded by its length (u64 LE);
//! 4. one zstd frame of that stream, at level 5 by default;
//! 5. a 24-byte prefix: magic "zstd-exr" as a u64 (8248453963162350458),
//!    format u32, flags u32, the frame's size u64, all little-endian.

use crate::codec::zstd::{self as codec, CompressParams, DecompressOptions};
use crate::exr::chunk::Layout;
use crate::exr::filter::{planes, words};
use crate::scratch::with_buffer;
use crate::{Error, Result};

/// OpenEXR 3.5's default zstd level.
pub const DEFAULT_LEVEL: i32 = 5;
const MAGIC: u64 = 8_248_453_963_162_350_458;
const PREFIX: usize = 24;
const FORMAT_SORTED: u32 = 1;
const FORMAT_SORTED_DELTA: u32 = 2;
const FLAG_DELTA: u32 = 1;

fn corrupt(what: &'static str) -> Error {
    Error::Corrupt { what, offset: None }
}

/// The parts of the sorted buffer: (length, word width), as OpenEXR lays
/// them out (one part when the chunk has one width only).
fn parts(split: usize, total: usize) -> Vec<(usize, usize)> {
    if split > 0 && split < total {
        vec![(split, 2), (total - split, 4)]
    } else {
        vec![(total, if split == 0 { 4 } else { 2 })]
    }
}

/// Appends `raw` (a chunk in `layout`) compressed at `level` to `out`.
pub(crate) fn compress(raw: &[u8], layout: &Layout, level: i32, out: &mut Vec<u8>) -> Result<()> {
    let (rows, split) = layout.rows_by_width();
    let parts = parts(split, raw.len());
    with_buffer(raw.len(), |sorted| {
        with_buffer(raw.len() + 8 * parts.len(), |inner| {
            let mut to = 0;
            for &(at, len, width) in &rows {
                sorted[to..to + len].copy_from_slice(&raw[at..at + len]);
                words::delta_encode_words(&mut sorted[to..to + len], width);
                to += len;
            }
            let (mut from, mut to) = (0, 0);
            for &(len, width) in &parts {
                inner[to..to + 8].copy_from_slice(&(len as u64).to_le_bytes());
                to += 8;
                planes::split_planes(&sorted[from..from + len], width, &mut inner[to..to + len]);
                from += len;
                to += len;
            }
            let start = out.len();
            out.extend_from_slice(&MAGIC.to_le_bytes());
            out.extend_from_slice(&FORMAT_SORTED_DELTA.to_le_bytes());
            out.extend_from_slice(&FLAG_DELTA.to_le_bytes());
            out.extend_from_slice(&[0; 8]);
            codec::compress(inner, &CompressParams::with_level(level)?, None, out)?;
            let frame = (out.len() - start - PREFIX) as u64;
            out[start + 16..start + PREFIX].copy_from_slice(&frame.to_le_bytes());
            Ok(())
        })
    })
}

/// Decompresses `packed` (a chunk with the 24-byte prefix) into exactly
/// `out.len()` bytes in `layout`.
pub(crate) fn decompress(packed: &[u8], layout: &Layout, out: &mut [u8]) -> Result<()> {
    let field = |at: usize, n: usize| &packed[at..at + n];
    if packed.len() < PREFIX || u64::from_le_bytes(field(0, 8).try_into().expect("8")) != MAGIC {
        return Err(corrupt("a ZSTD chunk has no zstd-exr magic number"));
    }
    let format = u32::from_le_bytes(field(8, 4).try_into().expect("4"));
    let flags = u32::from_le_bytes(field(12, 4).try_into().expect("4"));
    let delta = match (format, flags) {
        (FORMAT_SORTED, 0) => false,
        (FORMAT_SORTED_DELTA, 0) => false,
        (FORMAT_SORTED_DELTA, FLAG_DELTA) => true,
        _ => return Err(corrupt("a ZSTD chunk has an unknown format or flags")),
    };
    let frame_size = u64::from_le_bytes(field(16, 8).try_into().expect("8"));
    if frame_size != (packed.len() - PREFIX) as u64 {
        return Err(corrupt(
            "a ZSTD chunk's frame size does not match the chunk",
        ));
    }
    let (rows, split) = layout.rows_by_width();
    let parts = parts(split, out.len());
    with_buffer(out.len() + 8 * parts.len(), |inner| {
        with_buffer(out.len(), |sorted| {
            let options = DecompressOptions {
                max_output: Some(inner.len() as u64),
                threads: Some(1),
                ..DecompressOptions::default()
            };
            let written = codec::decompress_into(&packed[PREFIX..], &options, inner).map_err(
                |e| match e {
                    Error::TooLarge { .. } | Error::InvalidArgument(_) => {
                        corrupt("a ZSTD chunk decodes to more bytes than its lines hold")
                    }
                    other => other,
                },
            )?;
            if written != inner.len() {
                return Err(corrupt(
                    "a ZSTD chunk decodes to fewer bytes than its lines hold",
                ));
            }
            let (mut at, mut to) = (0, 0);
            for &(len, width) in &parts {
                let stored = u64::from_le_bytes(inner[at..at + 8].try_into().expect("8"));
                if stored != len as u64 {
                    return Err(corrupt(
                        "a ZSTD chunk's part length does not match its channels",
                    ));
                }
                at += 8;
                planes::join_planes(&inner[at..at + len], width, &mut sorted[to..to + len]);
                at += len;
                to += len;
            }
            let mut from = 0;
            for &(at, len, width) in &rows {
                let row = &mut sorted[from..from + len];
                if delta {
                    words::delta_decode_words(row, width);
                }
                out[at..at + len].copy_from_slice(row);
                from += len;
            }
            Ok(())
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zstd_chunks_round_trip_for_every_mix_of_widths() {
        for sizes in [&[2, 4, 2, 4][..], &[2][..], &[4, 4][..]] {
            let layout = Layout::new(sizes, 37, 3);
            let raw: Vec<u8> = (0..layout.bytes() as u32)
                .map(|i| (i / 5 % 61) as u8)
                .collect();
            let mut packed = b"keep".to_vec();
            compress(&raw, &layout, DEFAULT_LEVEL, &mut packed).unwrap();
            assert_eq!(&packed[..4], b"keep");
            let mut out = vec![0; raw.len()];
            decompress(&packed[4..], &layout, &mut out).unwrap();
            assert_eq!(out, raw);
            // Damage: a wrong layout, a cut frame, bad flags.
            let other = Layout::new(sizes, 36, 3);
            assert!(decompress(&packed[4..], &other, &mut vec![0; other.bytes()]).is_err());
            assert!(decompress(&packed[4..packed.len() - 1], &layout, &mut out).is_err());
            let mut flags = packed[4..].to_vec();
            flags[12] = 3;
            assert!(decompress(&flags, &layout, &mut out).is_err());
        }
    }

    #[test]
    fn rows_sort_halves_before_words_of_four_bytes() {
        let layout = Layout::new(&[4, 2], 2, 2);
        let (rows, split) = layout.rows_by_width();
        assert_eq!(rows, vec![(8, 4, 2), (20, 4, 2), (0, 8, 4), (12, 8, 4)]);
        assert_eq!(split, 8);
    }
}
