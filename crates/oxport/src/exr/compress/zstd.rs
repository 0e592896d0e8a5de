//! OpenEXR 3.5's ZSTD method, chunk by chunk:
//!
//! 1. to 3. the sorted byte planes with the word delta
//!    ([`crate::exr::filter::sorted`]; wire format 2, flag 1; format 1 has
//!    no delta and is read too);
//! 4. one zstd frame of that stream, at level 5 by default;
//! 5. a 24-byte prefix: magic "zstd-exr" as a u64 (8248453963162350458),
//!    format u32, flags u32, the frame's size u64, all little-endian.

use crate::codec::zstd::{self as codec, CompressParams, DecompressOptions};
use crate::exr::chunk::Layout;
use crate::exr::filter::sorted;
use crate::scratch::with_buffer;
use crate::{Error, Result};

/// OpenEXR 3.5's default zstd level.
pub const DEFAULT_LEVEL: i32 = 5;
const MAGIC: u64 = 8_248_453_963_162_350_458;
const PREFIX: usize = 24;
const FORMAT_SORTED: u32 = 1;
const FORMAT_SORTED_DELTA: u32 = 2;
const FLAG_DELTA: u32 = 1;

/// Appends `raw` (a chunk in `layout`) compressed at `level` to `out`.
pub(crate) fn compress(raw: &[u8], layout: &Layout, level: i32, out: &mut Vec<u8>) -> Result<()> {
    with_buffer(sorted::encoded_len(layout), |inner| {
        sorted::encode(raw, layout, true, inner);
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
}

/// Decompresses `packed` (a chunk with the 24-byte prefix) into exactly
/// `out.len()` bytes in `layout`.
pub(crate) fn decompress(packed: &[u8], layout: &Layout, out: &mut [u8]) -> Result<()> {
    let field = |at: usize, n: usize| &packed[at..at + n];
    if packed.len() < PREFIX || u64::from_le_bytes(field(0, 8).try_into().expect("8")) != MAGIC {
        return Err(Error::corrupt("a ZSTD chunk has no zstd-exr magic number"));
    }
    let format = u32::from_le_bytes(field(8, 4).try_into().expect("4"));
    let flags = u32::from_le_bytes(field(12, 4).try_into().expect("4"));
    let delta = match (format, flags) {
        (FORMAT_SORTED, 0) => false,
        (FORMAT_SORTED_DELTA, 0) => false,
        (FORMAT_SORTED_DELTA, FLAG_DELTA) => true,
        _ => {
            return Err(Error::corrupt(
                "a ZSTD chunk has an unknown format or flags",
            ));
        }
    };
    let frame_size = u64::from_le_bytes(field(16, 8).try_into().expect("8"));
    if frame_size != (packed.len() - PREFIX) as u64 {
        return Err(Error::corrupt(
            "a ZSTD chunk's frame size does not match the chunk",
        ));
    }
    with_buffer(sorted::encoded_len(layout), |inner| {
        let options = DecompressOptions {
            max_output: Some(inner.len() as u64),
            threads: Some(1),
            ..DecompressOptions::default()
        };
        let written =
            codec::decompress_into(&packed[PREFIX..], &options, inner).map_err(|e| match e {
                Error::TooLarge { .. } | Error::InvalidArgument(_) => {
                    Error::corrupt("a ZSTD chunk decodes to more bytes than its lines hold")
                }
                other => other,
            })?;
        if written != inner.len() {
            return Err(Error::corrupt(
                "a ZSTD chunk decodes to fewer bytes than its lines hold",
            ));
        }
        sorted::decode(inner, layout, delta, out)
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
