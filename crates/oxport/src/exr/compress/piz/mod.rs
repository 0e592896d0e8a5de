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
        .ok_or(corrupt("a PIZ chunk is shorter than its header"))?;
    let (min, max) = (usize::from(min), usize::from(max));
    if max >= 8192 {
        return Err(corrupt("a PIZ chunk's bitmap range is past 8 KiB"));
    }
    let mut bitmap = [0u8; 8192];
    let mut at = 4;
    if min <= max {
        let bytes = packed
            .get(at..at + max - min + 1)
            .ok_or(corrupt("a PIZ chunk's bitmap runs past its end"))?;
        bitmap[min..=max].copy_from_slice(bytes);
        at += bytes.len();
    }
    // The values that occur, in order; 0 always does.
    let mut lut = vec![0u16; 1 << 16];
    let mut k = 0usize;
    for v in 0..1usize << 16 {
        if v == 0 || bitmap[v >> 3] & (1 << (v & 7)) != 0 {
            lut[k] = v as u16;
            k += 1;
        }
    }
    let max_value = (k - 1) as u16;
    let length = packed
        .get(at..at + 4)
        .map(|b| u32::from_le_bytes(b.try_into().expect("4 bytes")) as usize)
        .ok_or(corrupt(
            "a PIZ chunk ends before its Huffman block's length",
        ))?;
    at += 4;
    let block = packed
        .get(at..at.saturating_add(length))
        .ok_or(corrupt("a PIZ chunk's Huffman block runs past its end"))?;
    let mut values = vec![0u16; out.len() / 2];
    huffman::decode(block, &mut values)?;
    // Channel by channel: its rows in the chunk, of its samples per row.
    let mut starts = Vec::with_capacity(layout.sizes.len());
    let mut start = 0;
    for (c, &size) in layout.sizes.iter().enumerate() {
        let words = size / 2;
        let (width, lines) = (layout.channel_width(c), layout.channel_lines(c));
        let plane = width * words * lines;
        for j in 0..words {
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
    for v in &mut values {
        *v = lut[usize::from(*v)];
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
