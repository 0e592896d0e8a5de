//! PXR24 (Pixar's): a chunk of 16 lines, each channel row turned into
//! byte planes of differences, then one zlib stream. FLOAT samples keep
//! only their top 24 bits (rounded), so FLOAT channels lose their last 8
//! mantissa bits; HALF and UINT are lossless.
//!
//! Each row (line by line, channels in order) is stored as the differences
//! of consecutive samples (wrapping, from 0 at the row's start), split into
//! planes of their bytes, most significant first: 2 planes for HALF, 4 for
//! UINT, 3 for FLOAT (the 24-bit value).

use crate::Result;
use crate::codec::deflate::{self, Engine, Format};
use crate::exr::attribute::PixelType;
use crate::exr::chunk::Layout;
use crate::scratch::with_buffer;

/// Bytes per sample in the planes.
fn plane_count(pixel_type: PixelType) -> usize {
    match pixel_type {
        PixelType::Half => 2,
        PixelType::Float => 3,
        PixelType::Uint => 4,
    }
}

/// The 24-bit value OpenEXR stores for a float: its top 24 bits, rounded
/// to nearest, infinities and NaNs kept as such.
fn float24(bits: u32) -> u32 {
    let sign = bits & 0x8000_0000;
    let exponent = bits & 0x7f80_0000;
    let mantissa = bits & 0x007f_ffff;
    let kept = if exponent == 0x7f80_0000 {
        if mantissa != 0 {
            // A NaN: keep it a NaN when its top mantissa bits are 0.
            let m = mantissa >> 8;
            exponent >> 8 | m | u32::from(m == 0)
        } else {
            exponent >> 8
        }
    } else {
        let rounded = ((exponent | mantissa) + (mantissa & 0x80)) >> 8;
        if rounded >= 0x7f8000 {
            // Rounding overflowed to infinity: keep the largest finite.
            (exponent | mantissa) >> 8
        } else {
            rounded
        }
    };
    (sign >> 8) | kept
}

/// Appends the chunk `raw` (in `layout`, with its `channels`) compressed at
/// deflate `level` to `out`.
pub(crate) fn compress(raw: &[u8], layout: &Layout, level: i32, out: &mut Vec<u8>) -> Result<()> {
    let planes_len = planes_len(layout);
    with_buffer(planes_len, |planes| {
        let mut at = 0;
        for row in layout.rows() {
            let size = layout.sizes[row.channel];
            let n = plane_count(layout.channels[row.channel].pixel_type);
            let samples = row.len / size;
            let mut previous = 0u32;
            for (x, sample) in raw[row.at..row.at + row.len].chunks_exact(size).enumerate() {
                let value = match n {
                    2 => u32::from(u16::from_le_bytes([sample[0], sample[1]])),
                    3 => float24(u32::from_le_bytes(sample.try_into().expect("4"))),
                    _ => u32::from_le_bytes(sample.try_into().expect("4")),
                };
                let diff = value.wrapping_sub(previous);
                previous = value;
                for plane in 0..n {
                    planes[at + plane * samples + x] = (diff >> (8 * (n - 1 - plane))) as u8;
                }
            }
            at += n * samples;
        }
        deflate::compress(planes, level, Format::Zlib, Engine::Libdeflate, out)
    })
}

/// The bytes of a chunk's planes.
fn planes_len(layout: &Layout) -> usize {
    layout
        .rows()
        .map(|row| {
            row.len / layout.sizes[row.channel]
                * plane_count(layout.channels[row.channel].pixel_type)
        })
        .sum()
}

/// Decompresses a PXR24 chunk into exactly `out.len()` bytes in `layout`
/// (with its `channels`).
pub(crate) fn decompress(packed: &[u8], layout: &Layout, out: &mut [u8]) -> Result<()> {
    let planes_len = planes_len(layout);
    with_buffer(planes_len, |planes| {
        super::zip::inflate_exact(
            packed,
            planes,
            "a PXR24 chunk decodes to more bytes than its lines hold",
            "a PXR24 chunk decodes to fewer bytes than its lines hold",
        )?;
        let mut at = 0;
        for row in layout.rows() {
            let size = layout.sizes[row.channel];
            let n = plane_count(layout.channels[row.channel].pixel_type);
            let samples = row.len / size;
            let mut value = 0u32;
            for (x, sample) in out[row.at..row.at + row.len]
                .chunks_exact_mut(size)
                .enumerate()
            {
                let diff = (0..n).fold(0u32, |d, plane| {
                    d << 8 | u32::from(planes[at + plane * samples + x])
                });
                value = value.wrapping_add(diff);
                match n {
                    2 => sample.copy_from_slice(&(value as u16).to_le_bytes()),
                    3 => sample.copy_from_slice(&(value << 8).to_le_bytes()),
                    _ => sample.copy_from_slice(&value.to_le_bytes()),
                }
            }
            at += n * samples;
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exr::attribute::Channel;

    #[test]
    fn halves_and_uints_round_trip_and_floats_keep_24_bits() {
        let sizes = [2, 4, 4];
        let types = [PixelType::Half, PixelType::Float, PixelType::Uint];
        let channels: Vec<Channel> = types.iter().map(|&t| Channel::new("c", t)).collect();
        let layout = Layout {
            channels: &channels,
            ..Layout::new(&sizes, 13, 3)
        };
        let raw: Vec<u8> = (0..layout.bytes() as u32)
            .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
            .collect();
        let mut packed = Vec::new();
        compress(&raw, &layout, 4, &mut packed).unwrap();
        let mut out = vec![0; raw.len()];
        decompress(&packed, &layout, &mut out).unwrap();
        for row in layout.rows() {
            let (ours, theirs) = (&out[row.at..][..row.len], &raw[row.at..][..row.len]);
            if types[row.channel] == PixelType::Float {
                for (a, b) in ours.chunks_exact(4).zip(theirs.chunks_exact(4)) {
                    let (a, b) = (
                        u32::from_le_bytes(a.try_into().unwrap()),
                        u32::from_le_bytes(b.try_into().unwrap()),
                    );
                    assert_eq!(a, float24(b) << 8);
                }
            } else {
                assert_eq!(ours, theirs);
            }
        }
        assert!(decompress(&packed[..packed.len() - 2], &layout, &mut out).is_err());
        let short = Layout {
            width: 12,
            ..layout
        };
        assert!(decompress(&packed, &short, &mut vec![0; short.bytes()]).is_err());
    }

    #[test]
    fn float24_rounds_to_nearest_and_keeps_specials() {
        assert_eq!(float24(1.0f32.to_bits()) << 8, 1.0f32.to_bits());
        assert_eq!(float24(0x3f80_0080), 0x3f8001);
        assert_eq!(float24(0x3f80_007f), 0x3f8000);
        assert_eq!(
            float24(f32::INFINITY.to_bits()) << 8,
            f32::INFINITY.to_bits()
        );
        assert!(f32::from_bits(float24(0x7f80_0001) << 8).is_nan());
        assert_eq!(float24(f32::MAX.to_bits()), f32::MAX.to_bits() >> 8);
        assert_eq!(float24((-2.0f32).to_bits()) << 8, (-2.0f32).to_bits());
    }
}
