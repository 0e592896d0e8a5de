//! B44 and B44A: HALF channels in blocks of 4×4 samples, each
//! stored in 14 bytes (the first sample and fifteen 6-bit differences,
//! scaled by a shift) or, when all sixteen are equal, 3 bytes (B44A writes
//! those; B44 files may hold them too). Other channels are stored as they
//! are. A channel marked `linear` is coded as exp(x/8) and decoded
//! through 8·log(x), with OpenEXR's tables. Writing gives OpenEXR's bytes.
//!
//! The chunk holds each channel whole in turn (its rows padded to blocks
//! of four), not line after line.

use std::sync::OnceLock;

use crate::exr::attribute::PixelType;
use crate::exr::chunk::Layout;
use crate::half;
use crate::scratch::with_buffer;
use crate::{Error, Result};

/// 8·log(x) for every half: what a `linear` channel's samples go through.
fn log_table() -> &'static [u16] {
    static TABLE: OnceLock<Vec<u16>> = OnceLock::new();
    TABLE.get_or_init(|| {
        (0..=u16::MAX)
            .map(|x| {
                // Infinities, NaNs and negatives (not -0) have no logarithm here.
                if x & 0x7c00 == 0x7c00 || x > 0x8000 {
                    0
                } else {
                    half::from_f32(8.0 * half::to_f32(x).ln())
                }
            })
            .collect()
    })
}

/// exp(x/8) for every half: what a `linear` channel's samples are coded as
/// (OpenEXR's `b44_convertFromLinear`).
fn exp_table() -> &'static [u16] {
    static TABLE: OnceLock<Vec<u16>> = OnceLock::new();
    TABLE.get_or_init(|| {
        (0..=u16::MAX)
            .map(|x| {
                if x & 0x7c00 == 0x7c00 {
                    0
                } else if (0x558c..0x8000).contains(&x) {
                    // At or past 8·log(HALF_MAX): HALF_MAX.
                    0x7bff
                } else {
                    half::from_f32((half::to_f32(x) / 8.0).exp())
                }
            })
            .collect()
    })
}

/// x / 2^shift rounded to the nearest integer, ties to even.
fn shift_and_round(x: i32, shift: u32) -> i32 {
    let x = x << 1;
    let a = (1 << shift) - 1;
    let shift = shift + 1;
    let b = (x >> shift) & 1;
    (x + a + b) >> shift
}

/// The order-preserving form a block is coded in: larger floats give
/// larger numbers; infinities and NaNs become 0.
fn ordering(s: u16) -> u16 {
    if s & 0x7c00 == 0x7c00 {
        0x8000
    } else if s & 0x8000 != 0 {
        !s
    } else {
        s | 0x8000
    }
}

/// Appends the block `s` (sixteen samples, row after row) as 14 bytes, or
/// as 3 when `flat` allows it and every sample is equal (OpenEXR's `pack`).
/// `exact_max` keeps the largest sample exact (channels not `linear`).
fn pack(s: &[u16; 16], flat: bool, exact_max: bool, out: &mut Vec<u8>) {
    const BIAS: i32 = 0x20;
    let mut t = s.map(ordering);
    let max = *t.iter().max().expect("16");
    let mut shift = 0u32;
    let (d, r) = loop {
        let d = t.map(|v| shift_and_round(i32::from(max - v), shift));
        // Down the first column, then across each row.
        let pairs = [
            (0, 4),
            (4, 8),
            (8, 12),
            (0, 1),
            (4, 5),
            (8, 9),
            (12, 13),
            (1, 2),
            (5, 6),
            (9, 10),
            (13, 14),
            (2, 3),
            (6, 7),
            (10, 11),
            (14, 15),
        ];
        let r = pairs.map(|(a, b)| d[a] - d[b] + BIAS);
        if r.iter().all(|&v| (0..=0x3f).contains(&v)) {
            break (d, r);
        }
        shift += 1;
    };
    if flat && r.iter().all(|&v| v == BIAS) {
        // 0xfc cannot be the third byte of a 14-byte block.
        out.extend_from_slice(&t[0].to_be_bytes());
        out.push(0xfc);
        return;
    }
    if exact_max {
        t[0] = max.wrapping_sub((d[0] << shift) as u16);
    }
    let r = r.map(|v| v as u32);
    out.extend_from_slice(&t[0].to_be_bytes());
    out.extend_from_slice(&[
        ((shift << 2) | (r[0] >> 4)) as u8,
        ((r[0] << 4) | (r[1] >> 2)) as u8,
        ((r[1] << 6) | r[2]) as u8,
        ((r[3] << 2) | (r[4] >> 4)) as u8,
        ((r[4] << 4) | (r[5] >> 2)) as u8,
        ((r[5] << 6) | r[6]) as u8,
        ((r[7] << 2) | (r[8] >> 4)) as u8,
        ((r[8] << 4) | (r[9] >> 2)) as u8,
        ((r[9] << 6) | r[10]) as u8,
        ((r[11] << 2) | (r[12] >> 4)) as u8,
        ((r[12] << 4) | (r[13] >> 2)) as u8,
        ((r[13] << 6) | r[14]) as u8,
    ]);
}

/// Appends the chunk `raw` (in `layout`, with its `channels`) compressed
/// with B44, or B44A when `flat` (uniform blocks in 3 bytes), to `out`:
/// each channel whole in turn, HALF channels in 4×4 blocks (the last
/// column and row repeated to fill them), others as they are.
pub(crate) fn compress(raw: &[u8], layout: &Layout, flat: bool, out: &mut Vec<u8>) {
    let count = layout.sizes.len();
    let mut starts = Vec::with_capacity(count);
    let mut start = 0;
    for c in 0..count {
        starts.push(start);
        start += layout.channel_width(c) * layout.channel_lines(c) * layout.sizes[c];
    }
    with_buffer(start, |scratch| {
        // The chunk's lines to channel planes.
        let mut at = starts.clone();
        for row in layout.rows() {
            let from = &mut at[row.channel];
            scratch[*from..*from + row.len].copy_from_slice(&raw[row.at..row.at + row.len]);
            *from += row.len;
        }
        for c in 0..count {
            let (nx, ny) = (layout.channel_width(c), layout.channel_lines(c));
            let plane = &scratch[starts[c]..starts[c] + nx * ny * layout.sizes[c]];
            let channel = &layout.channels[c];
            if channel.pixel_type != PixelType::Half {
                out.extend_from_slice(plane);
                continue;
            }
            let sample = |x: usize, y: usize| {
                let at = 2 * (y.min(ny - 1) * nx + x.min(nx - 1));
                u16::from_le_bytes([plane[at], plane[at + 1]])
            };
            for y in (0..ny).step_by(4) {
                for x in (0..nx).step_by(4) {
                    let mut s: [u16; 16] = std::array::from_fn(|i| sample(x + i % 4, y + i / 4));
                    if channel.linear {
                        let table = exp_table();
                        for v in &mut s {
                            *v = table[usize::from(*v)];
                        }
                    }
                    pack(&s, flat, !channel.linear, out);
                }
            }
        }
    });
}

/// Sixteen samples from 14 bytes: the first, then the differences down
/// each column and across the first row, 6 bits each.
fn unpack14(b: &[u8], s: &mut [u16; 16]) {
    let shift = u32::from(b[2] >> 2);
    let bias = 0x20u32 << shift;
    let step = |base: u16, d: u32| (u32::from(base) + (d << shift)).wrapping_sub(bias) as u16;
    let d = |hi: u8, lo: u8, left: u32, right: u32| {
        ((u32::from(hi) << left) | (u32::from(lo) >> right)) & 0x3f
    };
    s[0] = u16::from_be_bytes([b[0], b[1]]);
    s[4] = step(s[0], d(b[2], b[3], 4, 4));
    s[8] = step(s[4], d(b[3], b[4], 2, 6));
    s[12] = step(s[8], u32::from(b[4]) & 0x3f);
    s[1] = step(s[0], u32::from(b[5] >> 2));
    s[5] = step(s[4], d(b[5], b[6], 4, 4));
    s[9] = step(s[8], d(b[6], b[7], 2, 6));
    s[13] = step(s[12], u32::from(b[7]) & 0x3f);
    s[2] = step(s[1], u32::from(b[8] >> 2));
    s[6] = step(s[5], d(b[8], b[9], 4, 4));
    s[10] = step(s[9], d(b[9], b[10], 2, 6));
    s[14] = step(s[13], u32::from(b[10]) & 0x3f);
    s[3] = step(s[2], u32::from(b[11] >> 2));
    s[7] = step(s[6], d(b[11], b[12], 4, 4));
    s[11] = step(s[10], d(b[12], b[13], 2, 6));
    s[15] = step(s[14], u32::from(b[13]) & 0x3f);
    for v in s.iter_mut() {
        *v = ordered(*v);
    }
}

/// From the order-preserving form the block is coded in back to half bits.
fn ordered(v: u16) -> u16 {
    if v & 0x8000 != 0 { v & 0x7fff } else { !v }
}

/// Decompresses a B44 or B44A chunk into exactly `out.len()` bytes in
/// `layout` (with its `channels`).
pub(crate) fn decompress(packed: &[u8], layout: &Layout, out: &mut [u8]) -> Result<()> {
    let count = layout.sizes.len();
    let planes: Vec<(usize, usize)> = (0..count)
        .map(|c| (layout.channel_width(c), layout.channel_lines(c)))
        .collect();
    let total: usize = planes
        .iter()
        .zip(layout.sizes)
        .map(|(&(w, h), &size)| w * h * size)
        .sum();
    with_buffer(total, |scratch| {
        let mut input = packed;
        let mut take = |n: usize| -> Result<&[u8]> {
            if input.len() < n {
                return Err(Error::corrupt("a B44 chunk ends before its channels do"));
            }
            let (head, rest) = input.split_at(n);
            input = rest;
            Ok(head)
        };
        let mut start = 0;
        let mut starts = Vec::with_capacity(count);
        for (c, &(nx, ny)) in planes.iter().enumerate() {
            let size = layout.sizes[c];
            let plane = &mut scratch[start..start + nx * ny * size];
            starts.push(start);
            start += plane.len();
            let channel = &layout.channels[c];
            if channel.pixel_type != PixelType::Half {
                plane.copy_from_slice(take(plane.len())?);
                continue;
            }
            let mut s = [0u16; 16];
            for y in (0..ny).step_by(4) {
                for x in (0..nx).step_by(4) {
                    let head = take(3)?;
                    if head[2] >= 13 << 2 {
                        s = [ordered(u16::from_be_bytes([head[0], head[1]])); 16];
                    } else {
                        let mut block = [0u8; 14];
                        block[..3].copy_from_slice(head);
                        block[3..].copy_from_slice(take(11)?);
                        unpack14(&block, &mut s);
                    }
                    if channel.linear {
                        let table = log_table();
                        for v in &mut s {
                            *v = table[usize::from(*v)];
                        }
                    }
                    for row in 0..4.min(ny - y) {
                        for col in 0..4.min(nx - x) {
                            let at = 2 * ((y + row) * nx + x + col);
                            plane[at..at + 2].copy_from_slice(&s[4 * row + col].to_le_bytes());
                        }
                    }
                }
            }
        }
        // Channel planes back to the chunk's lines.
        for row in layout.rows() {
            let from = &mut starts[row.channel];
            out[row.at..row.at + row.len].copy_from_slice(&scratch[*from..*from + row.len]);
            *from += row.len;
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exr::attribute::Channel;

    #[test]
    fn flat_blocks_and_raw_channels_decode_and_short_chunks_are_errors() {
        // A 5×2 HALF channel (two blocks across) and a FLOAT channel.
        let sizes = [2, 4];
        let channels = [
            Channel::new("A", PixelType::Half),
            Channel::new("B", PixelType::Float),
        ];
        let layout = Layout {
            channels: &channels,
            ..Layout::new(&sizes, 5, 2)
        };
        // 1.0 (0x3c00) in the order-preserving form is 0xbc00.
        let mut packed = vec![0xbc, 0x00, 0xfc, 0xbc, 0x00, 0xfc];
        let floats: Vec<u8> = (0..40).collect();
        packed.extend_from_slice(&floats);
        let mut out = vec![0; layout.bytes()];
        decompress(&packed, &layout, &mut out).unwrap();
        for line in 0..2 {
            let at = line * 30;
            assert!(out[at..at + 10].chunks(2).all(|h| h == [0x00, 0x3c]));
            assert_eq!(&out[at + 10..at + 30], &floats[line * 20..line * 20 + 20]);
        }
        assert!(decompress(&packed[..packed.len() - 1], &layout, &mut out).is_err());
        assert!(decompress(&packed[..4], &layout, &mut out).is_err());
    }

    #[test]
    fn fourteen_byte_blocks_add_differences_down_then_across() {
        // Shift 0, every difference 0x20 (no change): sixteen equal samples.
        let mut b = [0u8; 14];
        b[0..2].copy_from_slice(&0xbc00u16.to_be_bytes());
        // The shift (6 bits), then fifteen 6-bit fields of 0x20.
        let bits = "000000".to_owned() + &"100000".repeat(15);
        for (i, chunk) in bits.as_bytes().chunks(8).enumerate() {
            let byte = chunk.iter().fold(0u8, |v, &c| v << 1 | (c - b'0'));
            b[2 + i] = byte << (8 - chunk.len());
        }
        let mut s = [0u16; 16];
        unpack14(&b, &mut s);
        assert_eq!(s, [0x3c00; 16]);
        // The log table: 8·log(1) = 0, and e^(1/8)'s half gives about 1.
        assert_eq!(log_table()[0x3c00], 0);
        assert_eq!(log_table()[0xfc00], 0);
    }
}
