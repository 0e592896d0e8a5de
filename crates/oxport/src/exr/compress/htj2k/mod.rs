//! HTJ2K (`HTJ2K256`, `HTJ2K32`: OpenEXR 3.4's lossless High-Throughput
//! JPEG 2000, ITU-T T.814): each chunk is OpenEXR's small header (the
//! channel of each component, [`header`]) and a JPEG 2000 codestream of one
//! tile ([`markers`]), coded with the reversible 5/3 wavelet, 5 levels,
//! 128×32 HT code-blocks and, for R, G and B, the reversible color
//! transform; half and float samples go in as their bit patterns, negative
//! ones through NLT's binary complement.
//!
//! The passes, a file each: [`header`], [`markers`], [`geometry`] (tiles,
//! resolutions, subbands, code-blocks), [`packets`] (each code-block's
//! segments), [`bits`] and [`vlc`] (the code-block's bit streams and code
//! tables), [`block`] (the HT cleanup pass), [`wavelet`], [`color`] (RCT,
//! level shift, NLT) and [`decode`], which joins them.
//!
//! Read: every chunk OpenEXR's encoder writes (the cleanup pass alone per
//! code-block); code-blocks with refinement passes are refused by name.
//! Written ([`encode`], [`encode_block`], and the writing halves of
//! [`header`], [`packets`] and [`markers`]): OpenEXR's chunks, byte for
//! byte but for the codestream's comment.

mod bits;
mod block;
mod color;
mod decode;
mod encode;
mod encode_block;
mod geometry;
mod header;
mod markers;
mod packets;
mod samples;
mod vlc;
mod wavelet;

use super::super::attribute::PixelType;
use super::super::chunk::Layout;
use crate::{Error, Result};
use wavelet::Coefficient;

/// Encodes the chunk `raw` of `layout` into `out` as OpenEXR's encoder
/// does. `false`: the chunk is to be stored instead (a subsampled channel
/// whose samples do not fall on the chunk's grid as a codestream's would).
pub(crate) fn compress(raw: &[u8], layout: &Layout, out: &mut Vec<u8>) -> Result<bool> {
    encode::compress(raw, layout, out)
}

/// Decodes the HTJ2K chunk `packed` of `layout` into `out`.
pub(crate) fn decompress(packed: &[u8], layout: &Layout, out: &mut [u8]) -> Result<()> {
    let chunk = header::read(packed, layout.channels.len())?;
    let codestream = markers::read(chunk.codestream)?;
    check(&codestream, &chunk.channels, layout)?;
    let mut components = decode::components(&codestream)?;
    let component_of = header::components_of(&chunk.channels);
    let mut rows_done = vec![0usize; layout.channels.len()];
    for row in layout.rows() {
        let c = component_of[row.channel];
        let samples = color::Samples::of(&codestream.components[c]);
        let line = rows_done[row.channel];
        rows_done[row.channel] += 1;
        let bytes = &mut out[row.at..row.at + row.len];
        let pixel_type = layout.channels[row.channel].pixel_type;
        let values = components.line(c, line)?.ok_or_else(|| {
            Error::corrupt("an HTJ2K component with fewer lines than its channel")
        })?;
        match values {
            decode::Line::Narrow(values) if pixel_type == PixelType::Half => {
                write_half_row(values, samples, bytes)
            }
            decode::Line::Narrow(values) => write_row(values, samples, pixel_type, bytes),
            decode::Line::Wide(values) => write_row(values, samples, pixel_type, bytes),
        }
    }
    components.recycle();
    Ok(())
}

/// A line of a half channel's component, `values`, as its little-endian
/// samples: in 32-bit arithmetic, compiled for AVX2 where the processor
/// has it.
fn write_half_row(values: &[i32], samples: color::Samples, bytes: &mut [u8]) {
    #[cfg(target_arch = "x86_64")]
    if crate::cpu::avx2() {
        // SAFETY: the processor has AVX2 (checked just above).
        unsafe { half_row_avx2(values, samples, bytes) };
        return;
    }
    half_row(values, samples, bytes);
}

/// [`half_row`] compiled for AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn half_row_avx2(values: &[i32], samples: color::Samples, bytes: &mut [u8]) {
    half_row(values, samples, bytes);
}

#[inline(always)]
fn half_row(values: &[i32], samples: color::Samples, bytes: &mut [u8]) {
    for (to, &v) in bytes.chunks_exact_mut(2).zip(values) {
        to.copy_from_slice(&samples.sample16(v).to_le_bytes());
    }
}

/// The samples of a half channel's row `bytes` as the integers its
/// component codes: in 32-bit arithmetic, compiled for AVX2 where the
/// processor has it.
fn read_half_row(bytes: &[u8], samples: color::Samples, values: &mut [i32]) {
    #[cfg(target_arch = "x86_64")]
    if crate::cpu::avx2() {
        // SAFETY: the processor has AVX2 (checked just above).
        unsafe { half_integers_avx2(bytes, samples, values) };
        return;
    }
    half_integers(bytes, samples, values);
}

/// [`half_integers`] compiled for AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn half_integers_avx2(bytes: &[u8], samples: color::Samples, values: &mut [i32]) {
    half_integers(bytes, samples, values);
}

#[inline(always)]
fn half_integers(bytes: &[u8], samples: color::Samples, values: &mut [i32]) {
    for (to, b) in values.iter_mut().zip(bytes.chunks_exact(2)) {
        *to = samples.integer16(i16::from_le_bytes([b[0], b[1]]));
    }
}

/// A line of a component, `values`, as the channel's little-endian
/// samples.
fn write_row<T: Coefficient>(
    values: &[T],
    samples: color::Samples,
    pixel_type: PixelType,
    bytes: &mut [u8],
) {
    match pixel_type {
        PixelType::Half => {
            for (to, &v) in bytes.chunks_exact_mut(2).zip(values) {
                to.copy_from_slice(&(samples.sample(v.to_i64()) as i16).to_le_bytes());
            }
        }
        PixelType::Float | PixelType::Uint => {
            for (to, &v) in bytes.chunks_exact_mut(4).zip(values) {
                to.copy_from_slice(&(samples.sample(v.to_i64()) as i32).to_le_bytes());
            }
        }
    }
}

/// The bits and sign of the component a channel of `pixel_type` is (half
/// and float samples as their bit patterns).
fn depth_and_sign(pixel_type: PixelType) -> (u8, bool) {
    match pixel_type {
        PixelType::Half => (16, true),
        PixelType::Float => (32, true),
        PixelType::Uint => (32, false),
    }
}

/// Whether `codestream`'s image is the chunk's: its size, and per
/// component the sampling, depth and sign of the channel it holds.
fn check(codestream: &markers::Codestream, channels: &[usize], layout: &Layout) -> Result<()> {
    let corrupt = |what| Err(Error::corrupt(what));
    let image = codestream.image;
    if (image.x0, image.y0) != (0, 0)
        || (image.x1 as usize, image.y1 as usize) != (layout.width, layout.lines)
    {
        return corrupt("an HTJ2K codestream of another size than its chunk");
    }
    if codestream.components.len() != channels.len() {
        return corrupt(
            "an HTJ2K codestream of another number of components than the part's channels",
        );
    }
    for (component, &index) in codestream.components.iter().zip(channels) {
        let channel = &layout.channels[index];
        let (depth, signed) = depth_and_sign(channel.pixel_type);
        let sampling = (component.sampling.0 as usize, component.sampling.1 as usize);
        let samples = |size: usize, step: usize| size.div_ceil(step);
        if (component.depth, component.signed) != (depth, signed)
            || i64::from(channel.x_sampling) != sampling.0 as i64
            || i64::from(channel.y_sampling) != sampling.1 as i64
            || samples(layout.width, sampling.0) != layout.channel_width(index)
            || samples(layout.lines, sampling.1) != layout.channel_lines(index)
        {
            return corrupt("an HTJ2K component that does not match its channel");
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::markers::tests::chunks;
    use super::*;
    use crate::exr::attribute::Channel;

    /// The image of `tests/data/htj2k` (53 × 37; B, G, R half, Z float,
    /// id uint): its channels, and its planes as its ZIP file holds them.
    pub(super) fn image() -> (Vec<Channel>, Vec<Vec<u8>>) {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/htj2k");
        let zip = crate::exr::read(&path.join("rgb_z_id_zip.exr"), &Default::default()).unwrap();
        let channels = [
            ("B", PixelType::Half),
            ("G", PixelType::Half),
            ("R", PixelType::Half),
            ("Z", PixelType::Float),
            ("id", PixelType::Uint),
        ]
        .into_iter()
        .map(|(n, t)| Channel::new(n, t))
        .collect();
        (channels, zip.planes)
    }

    /// The test image's files OpenEXR wrote with HTJ2K, and their lines
    /// per chunk.
    pub(super) const FILES: [(&str, usize); 2] =
        [("rgb_z_id_ht256.exr", 256), ("rgb_z_id_ht32.exr", 32)];

    /// The layout of the test image's chunk of `lines` lines from line `y`.
    pub(super) fn layout<'a>(
        channels: &'a [Channel],
        sizes: &'a [usize],
        y: usize,
        lines: usize,
    ) -> Layout<'a> {
        Layout {
            sizes,
            channels,
            width: 53,
            lines: lines.min(37 - y),
            sampling: &[],
            origin: (0, y as i32),
        }
    }

    /// Chunks of A, B, G and R encoded and decoded back to their bytes:
    /// of halves (the color transform undone a row at a time, the last
    /// level's code-blocks decoded a row of them at a time, several rows
    /// and columns of them) and of floats (the transform undone over whole
    /// planes, which it widens).
    #[test]
    fn chunks_come_back_through_either_way_of_undoing_the_color_transform() {
        for pixel_type in [PixelType::Half, PixelType::Float] {
            let channels: Vec<Channel> = ["A", "B", "G", "R"]
                .into_iter()
                .map(|n| Channel::new(n, pixel_type))
                .collect();
            let sizes: Vec<usize> = channels.iter().map(|c| c.pixel_type.size()).collect();
            let layout = Layout {
                sizes: &sizes,
                channels: &channels,
                width: 300,
                lines: 150,
                sampling: &[],
                origin: (0, 0),
            };
            let mut seed = 1u32;
            let raw: Vec<u8> = (0..layout.bytes())
                .map(|_| {
                    seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
                    (seed >> 24) as u8
                })
                .collect();
            let mut packed = Vec::new();
            assert!(compress(&raw, &layout, &mut packed).unwrap());
            let mut out = vec![0; layout.bytes()];
            decompress(&packed, &layout, &mut out).unwrap();
            assert!(out == raw, "{pixel_type:?}");
        }
    }

    /// The chunks of `name` decoded, as planes per channel, beside the same
    /// image's planes from ZIP.
    #[test]
    fn openexrs_chunks_decode_to_its_pixels() {
        let (channels, zip_planes) = image();
        let sizes: Vec<usize> = channels.iter().map(|c| c.pixel_type.size()).collect();
        for (name, lines) in FILES {
            let mut planes: Vec<Vec<u8>> = vec![Vec::new(); 5];
            let mut y = 0;
            for chunk in chunks(name) {
                let layout = layout(&channels, &sizes, y, lines);
                let mut out = vec![0; layout.bytes()];
                decompress(&chunk, &layout, &mut out).unwrap();
                for row in layout.rows() {
                    planes[row.channel].extend_from_slice(&out[row.at..row.at + row.len]);
                }
                y += layout.lines;
            }
            assert_eq!(zip_planes.len(), 5);
            for (c, plane) in planes.iter().enumerate() {
                assert_eq!(plane.len(), 53 * 37 * sizes[c]);
                assert!(
                    plane == &zip_planes[c],
                    "{name}: channel {}",
                    channels[c].name
                );
            }
        }
    }
}
