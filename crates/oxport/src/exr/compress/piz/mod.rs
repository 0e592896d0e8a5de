//! PIZ (read only): a chunk of 32 lines as 16-bit values, channel by
//! channel, mapped through a table of the values that occur (a bitmap),
//! wavelet-transformed per channel, Huffman-coded.
//!
//! | field | size | value |
//! | --- | --- | --- |
//! | min, max | 2 + 2 | u16: the first and last non-zero byte of the bitmap |
//! | bitmap | max − min + 1 | bytes min..=max of the 8 KiB bitmap (absent when min > max) |
//! | length | 4 | u32: bytes of the Huffman block |
//! | Huffman block | length | see `huffman.rs` |

pub(crate) mod huffman;
pub(crate) mod wavelet;

use crate::exr::chunk::Layout;
use crate::{Error, Result};

fn corrupt(what: &'static str) -> Error {
    Error::Corrupt { what, offset: None }
}

/// Decompresses a PIZ chunk into exactly `out.len()` bytes in `layout`.
pub(crate) fn decompress(packed: &[u8], layout: &Layout, out: &mut [u8]) -> Result<()> {
    let u16_at = |at: usize| {
        packed
            .get(at..at + 2)
            .map(|b| u16::from_le_bytes([b[0], b[1]]))
    };
    let (min, max) = u16_at(0)
        .zip(u16_at(2))
        .ok_or_else(|| corrupt("a PIZ chunk is shorter than its header"))?;
    let (min, max) = (usize::from(min), usize::from(max));
    if max >= 8192 {
        return Err(corrupt("a PIZ chunk's bitmap range is past 8 KiB"));
    }
    // The bitmap's bytes min..=max (the others are zero): the values that
    // occur, in order, make the table; 0 always does.
    let mut at = 4;
    let mut lut: Vec<u16> = vec![0];
    if min <= max {
        let bytes = packed
            .get(at..at + max - min + 1)
            .ok_or_else(|| corrupt("a PIZ chunk's bitmap runs past its end"))?;
        for (index, &byte) in bytes.iter().enumerate() {
            for bit in 0..8 {
                let value = ((min + index) * 8 + bit) as u16;
                if byte & (1 << bit) != 0 && value != 0 {
                    lut.push(value);
                }
            }
        }
        at += bytes.len();
    }
    let max_value = (lut.len() - 1) as u16;
    let length = packed
        .get(at..at + 4)
        .map(|b| u32::from_le_bytes(b.try_into().expect("4 bytes")) as usize)
        .ok_or_else(|| corrupt("a PIZ chunk ends before its Huffman block's length"))?;
    at += 4;
    let block = packed
        .get(at..at.saturating_add(length))
        .ok_or_else(|| corrupt("a PIZ chunk's Huffman block runs past its end"))?;
    let mut values = vec![0u16; out.len() / 2];
    huffman::decode(block, &mut values)?;
    // Channel by channel: its rows in the chunk, of its samples per row.
    let mut starts = Vec::with_capacity(layout.sizes.len());
    let mut start = 0;
    for (c, &size) in layout.sizes.iter().enumerate() {
        let words = size / 2;
        let (width, lines) = (layout.channel_width(c), layout.channel_lines(c));
        let plane = width * words * lines;
        // A channel with no samples in this chunk (subsampled) has no plane.
        for j in (0..words).filter(|_| plane > 0) {
            wavelet::decode(
                &mut values[start + j..start + plane],
                width,
                words,
                lines,
                width * words,
                max_value,
            );
        }
        starts.push(start);
        start += plane;
    }
    // A value past the table (a damaged chunk) becomes 0, as in OpenEXR's
    // table of 2^16 entries.
    for v in &mut values {
        *v = lut.get(usize::from(*v)).copied().unwrap_or(0);
    }
    // From channel planes to lines of channel rows, little-endian.
    for row in layout.rows() {
        let from = &mut starts[row.channel];
        let words = &values[*from..*from + row.len / 2];
        for (out, v) in out[row.at..row.at + row.len].chunks_exact_mut(2).zip(words) {
            out.copy_from_slice(&v.to_le_bytes());
        }
        *from += row.len / 2;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_subsampled_channel_without_rows_in_the_chunk_is_skipped() {
        // Found by the exr_chunk fuzz target: a UINT channel sampled every
        // 2 lines, in a one-line chunk at an odd y, has no plane.
        let sizes = [4];
        let layout = Layout {
            sampling: &[(2, 2)],
            origin: (0, 1),
            ..Layout::new(&sizes, 4, 1)
        };
        assert_eq!(layout.bytes(), 0);
        let packed = [0, 0, 0, 0, 0, 0, 0, 0, 0];
        decompress(&packed, &layout, &mut []).unwrap();
    }
}
