//! PIZ: a chunk of 32 lines as 16-bit values, channel by
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

/// The bitmap's size in bytes: a bit for each 16-bit value.
const BITMAP_BYTES: usize = 1 << 13;

/// A channel's plane of 16-bit words in a chunk: where it starts, its
/// samples across and lines, and the words a sample takes (1 or 2).
struct Plane {
    start: usize,
    width: usize,
    lines: usize,
    words: usize,
}

impl Plane {
    fn len(&self) -> usize {
        self.width * self.words * self.lines
    }
}

/// The channels' planes, one after the other in channel order.
fn planes(layout: &Layout) -> Vec<Plane> {
    let mut start = 0;
    (0..layout.sizes.len())
        .map(|c| {
            let plane = Plane {
                start,
                width: layout.channel_width(c),
                lines: layout.channel_lines(c),
                words: layout.sizes[c] / 2,
            };
            start += plane.len();
            plane
        })
        .collect()
}

/// The wavelet transform (`forward`) or its inverse of every plane, each
/// half of a 32-bit sample on its own. A channel with no samples in the
/// chunk (subsampled) has no plane.
fn transform(values: &mut [u16], planes: &[Plane], max_value: u16, forward: bool) {
    for plane in planes.iter().filter(|p| p.len() > 0) {
        for j in 0..plane.words {
            let grid = &mut values[plane.start + j..plane.start + plane.len()];
            let (nx, ox, ny, oy) = (
                plane.width,
                plane.words,
                plane.lines,
                plane.width * plane.words,
            );
            if forward {
                wavelet::encode(grid, nx, ox, ny, oy, max_value);
            } else {
                wavelet::decode(grid, nx, ox, ny, oy, max_value);
            }
        }
    }
}

/// Appends the chunk `raw` (in `layout`) compressed with PIZ to `out`, the
/// bytes OpenEXR's `internal_exr_apply_piz` writes; `false` (and nothing
/// appended) when a Huffman code would pass 58 bits: the chunk is stored
/// raw.
pub(crate) fn compress(raw: &[u8], layout: &Layout, out: &mut Vec<u8>) -> bool {
    // From lines of channel rows to channel planes of 16-bit words.
    let planes = planes(layout);
    let mut values = vec![0u16; raw.len() / 2];
    let mut at: Vec<usize> = planes.iter().map(|p| p.start).collect();
    for row in layout.rows() {
        let from = &mut at[row.channel];
        for (v, b) in values[*from..*from + row.len / 2]
            .iter_mut()
            .zip(raw[row.at..row.at + row.len].chunks_exact(2))
        {
            *v = u16::from_le_bytes([b[0], b[1]]);
        }
        *from += row.len / 2;
    }
    // The values that occur, as a bitmap (0 is taken to occur), and the
    // table mapping them to 0, 1, 2, ... in order.
    let mut bitmap = vec![0u8; BITMAP_BYTES];
    for &v in &values {
        bitmap[usize::from(v >> 3)] |= 1 << (v & 7);
    }
    bitmap[0] &= !1;
    let used = bitmap.iter().position(|&b| b != 0);
    let (min, max) = match used {
        Some(min) => (min, bitmap.iter().rposition(|&b| b != 0).expect("one")),
        None => (BITMAP_BYTES - 1, 0),
    };
    let mut lut = vec![0u16; 1 << 16];
    let mut next = 0u16;
    for (value, entry) in lut.iter_mut().enumerate() {
        if value == 0 || bitmap[value >> 3] & (1 << (value & 7)) != 0 {
            *entry = next;
            next = next.wrapping_add(1);
        }
    }
    let max_value = next.wrapping_sub(1);
    for v in &mut values {
        *v = lut[usize::from(*v)];
    }
    let start = out.len();
    out.extend_from_slice(&(min as u16).to_le_bytes());
    out.extend_from_slice(&(max as u16).to_le_bytes());
    if min <= max {
        out.extend_from_slice(&bitmap[min..=max]);
    }
    transform(&mut values, &planes, max_value, true);
    let length_at = out.len();
    out.extend_from_slice(&[0; 4]);
    if !huffman::encode(&values, out) {
        out.truncate(start);
        return false;
    }
    let length = (out.len() - length_at - 4) as u32;
    out[length_at..length_at + 4].copy_from_slice(&length.to_le_bytes());
    true
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
        .ok_or_else(|| Error::corrupt("a PIZ chunk is shorter than its header"))?;
    let (min, max) = (usize::from(min), usize::from(max));
    if max >= 8192 {
        return Err(Error::corrupt("a PIZ chunk's bitmap range is past 8 KiB"));
    }
    // The bitmap's bytes min..=max (the others are zero): the values that
    // occur, in order, make the table; 0 always does.
    let mut at = 4;
    let mut lut: Vec<u16> = vec![0];
    if min <= max {
        let bytes = packed
            .get(at..at + max - min + 1)
            .ok_or_else(|| Error::corrupt("a PIZ chunk's bitmap runs past its end"))?;
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
        .ok_or_else(|| Error::corrupt("a PIZ chunk ends before its Huffman block's length"))?;
    at += 4;
    let block = packed
        .get(at..at.saturating_add(length))
        .ok_or_else(|| Error::corrupt("a PIZ chunk's Huffman block runs past its end"))?;
    let mut values = vec![0u16; out.len() / 2];
    huffman::decode(block, &mut values)?;
    let planes = planes(layout);
    transform(&mut values, &planes, max_value, false);
    let mut starts: Vec<usize> = planes.iter().map(|p| p.start).collect();
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
