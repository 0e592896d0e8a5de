//! A chunk encoded as OpenEXR's encoder encodes it: the channels as
//! components (R, G and B first, with the color transform, unless a
//! channel is subsampled), samples through NLT's binary complement and the
//! level shift, five levels of the reversible wavelet, 128 × 32 HT
//! code-blocks of the cleanup pass alone, and the packets of each
//! resolution in a tile-part of their own.

use super::color::{Samples, forward_rct};
use super::depth_and_sign;
use super::encode_block;
use super::geometry::{self, Resolution};
use super::header;
use super::markers::{self, Coding, Component, Quantization, Rect};
use super::packets::{self, BandBlocks, band_index};
use super::wavelet::{Coefficient, Plane, analyze};
use crate::exr::attribute::PixelType;
use crate::exr::chunk::Layout;
use crate::{Error, Result};

/// Wavelet levels, and code-blocks of 2^7 × 2^5 samples: OpenEXR's.
const LEVELS: u8 = 5;
const BLOCK: (u8, u8) = (7, 5);

/// How many bits each band of the 5/3 wavelet may add over the samples'
/// (`ceil(log2)` of its synthesis gain, as OpenJPH computes it), in
/// codestream order: LL, then HL, LH and HH from the lowest resolution.
fn gains() -> [u8; 1 + 3 * LEVELS as usize] {
    let mut gains = [3; 1 + 3 * LEVELS as usize];
    gains[0] = 2;
    for gain in &mut gains[1 + 3 * (LEVELS as usize - 1)..] {
        *gain = 2;
    }
    gains
}

/// No quantization for samples of `bits` bits: each band's exponent and
/// the guard bits that keep every exponent within 31.
fn quantization(bits: u8) -> Quantization {
    let gains = gains();
    let most = bits + gains.iter().max().copied().unwrap_or(0);
    let guard = most.saturating_sub(31).max(1);
    Quantization {
        guard,
        exponents: gains.iter().map(|g| bits + g - guard).collect(),
    }
}

/// The component a channel of `pixel_type` sampled `sampling` becomes,
/// quantized for `extra` bits more than its own (the color transform's).
fn component(pixel_type: PixelType, sampling: (i32, i32), extra: u8) -> Component {
    let (depth, signed) = depth_and_sign(pixel_type);
    Component {
        depth,
        signed,
        sampling: (sampling.0 as u8, sampling.1 as u8),
        coding: Coding {
            levels: LEVELS,
            block: BLOCK,
            reversible: true,
            precincts: vec![(15, 15); usize::from(LEVELS) + 1],
        },
        quantization: quantization(depth + extra),
        complement: pixel_type != PixelType::Uint,
    }
}

/// Encodes the chunk `raw` of `layout` into `out`. `false`: the chunk
/// cannot be coded as OpenEXR would read it back (a subsampled channel
/// whose rows do not start on the chunk's grid, or more than 255 times
/// subsampled), and is left to be stored.
pub(super) fn compress(raw: &[u8], layout: &Layout, out: &mut Vec<u8>) -> Result<bool> {
    let channels = layout.channels;
    let (map, rgb) = header::channel_map(channels);
    let sampling: Vec<(i32, i32)> = channels
        .iter()
        .map(|c| (c.x_sampling, c.y_sampling))
        .collect();
    let planar = sampling.iter().any(|&s| s != (1, 1));
    let color_transform = rgb && !planar;
    let (width, height) = (layout.width as u32, layout.lines as u32);
    let image = Rect {
        x0: 0,
        y0: 0,
        x1: width,
        y1: height,
    };
    // Components: component 0's quantization for every one of its depth
    // and sign (one QCD), its own for the others (a QCC each).
    let mut components: Vec<Component> = Vec::with_capacity(map.len());
    let mut rects: Vec<Rect> = Vec::with_capacity(map.len());
    for (index, &channel) in map.iter().enumerate() {
        let (xs, ys) = sampling[channel];
        if !(1..=255).contains(&xs) || !(1..=255).contains(&ys) {
            return Ok(false);
        }
        let rct = u8::from(color_transform && index < 3);
        let mut c = component(channels[channel].pixel_type, (xs, ys), rct);
        if let Some(first) = components.first()
            && (first.depth, first.signed) == (c.depth, c.signed)
        {
            c.quantization = first.quantization.clone();
        }
        let rect = geometry::component_rect(image, &c);
        if (rect.x1 - rect.x0) as usize != layout.channel_width(channel)
            || (rect.y1 - rect.y0) as usize != layout.channel_lines(channel)
        {
            return Ok(false);
        }
        components.push(c);
        rects.push(rect);
    }
    // Each channel's samples as the integers the codestream codes: every
    // line of each plane is written (the planes are the channels' sizes).
    let mut wide: Vec<Option<Plane<i64>>> = vec![None; channels.len()];
    let mut narrow: Vec<Option<Plane<i32>>> = vec![None; channels.len()];
    for ((component, &rect), &channel) in components.iter().zip(&rects).zip(&map) {
        if component.depth <= 16 {
            narrow[channel] = Some(Plane::reused(rect));
        } else {
            wide[channel] = Some(Plane::reused(rect));
        }
    }
    let component_of = header::components_of(&map);
    let mut lines_done = vec![0usize; channels.len()];
    for row in layout.rows() {
        let samples = Samples::of(&components[component_of[row.channel]]);
        let line = lines_done[row.channel];
        lines_done[row.channel] += 1;
        let bytes = &raw[row.at..row.at + row.len];
        match (&mut narrow[row.channel], &mut wide[row.channel]) {
            (Some(plane), _) => super::read_half_row(bytes, samples, plane.line_mut(line)),
            (None, Some(plane)) => {
                let signed = samples.signed;
                for (to, b) in plane.line_mut(line).iter_mut().zip(bytes.chunks_exact(4)) {
                    let pattern = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
                    let sample = if signed {
                        i64::from(pattern as i32)
                    } else {
                        i64::from(pattern)
                    };
                    *to = samples.integer(sample);
                }
            }
            (None, None) => {}
        }
    }
    if color_transform {
        let [r, g, b] = [map[0], map[1], map[2]];
        rct(&mut narrow, [r, g, b]);
        rct(&mut wide, [r, g, b]);
    }
    // Per resolution, the packets of every component.
    let mut tile_parts = vec![Vec::new(); usize::from(LEVELS) + 1];
    for ((component, &rect), &channel) in components.iter().zip(&rects).zip(&map) {
        let resolutions = geometry::resolutions(rect, component)?;
        let packets = match (narrow[channel].take(), wide[channel].take()) {
            (Some(plane), _) => component_packets(plane, &resolutions, component)?,
            (None, Some(plane)) => component_packets(plane, &resolutions, component)?,
            (None, None) => continue,
        };
        for (part, packet) in tile_parts.iter_mut().zip(packets) {
            part.extend_from_slice(&packet);
        }
    }
    header::write(&map, out);
    markers::write(
        width,
        height,
        &components,
        color_transform,
        &tile_parts,
        out,
    );
    Ok(true)
}

/// The reversible color transform over the planes `rgb`, where they are.
fn rct<T: Coefficient>(planes: &mut [Option<Plane<T>>], [r, g, b]: [usize; 3]) {
    let [Some(red), Some(green), Some(blue)] = [r, g, b].map(|i| planes[i].take()) else {
        return;
    };
    let (mut red, mut green, mut blue) = (red, green, blue);
    forward_rct(&mut red.samples, &mut green.samples, &mut blue.samples);
    planes[r] = Some(red);
    planes[g] = Some(green);
    planes[b] = Some(blue);
}

/// One component's packets, a packet per resolution (none for an empty
/// one): its samples through the wavelet, each band's code-blocks coded.
fn component_packets<T: Coefficient>(
    plane: Plane<T>,
    resolutions: &[Resolution],
    component: &Component,
) -> Result<Vec<Vec<u8>>> {
    let mut encoder = encode_block::Encoder::new();
    // Bands per resolution, highest first as the analysis splits them.
    let mut bands: Vec<Vec<Plane<T>>> = Vec::with_capacity(resolutions.len());
    let mut low = plane;
    for _ in 1..resolutions.len() {
        let [ll, hl, lh, hh] = analyze(low);
        bands.push(vec![hl, lh, hh]);
        low = ll;
    }
    bands.push(vec![low]);
    bands.reverse();
    let q = &component.quantization;
    let mut packets = Vec::with_capacity(resolutions.len());
    for (r, (resolution, planes)) in resolutions.iter().zip(bands).enumerate() {
        let mut packet = Vec::new();
        if resolution.rect.x0 < resolution.rect.x1 && resolution.rect.y0 < resolution.rect.y1 {
            let mut coded = Vec::with_capacity(planes.len());
            for (b, (band, plane)) in resolution.bands.iter().zip(&planes).enumerate() {
                debug_assert_eq!(band.rect, plane.rect);
                let planes_of = q
                    .planes(band_index(r, b))
                    .ok_or_else(|| Error::Internal("HTJ2K: a band without its exponent".into()))?;
                let stride = (plane.rect.x1 - plane.rect.x0) as usize;
                let mut blocks = Vec::with_capacity((band.blocks.0 * band.blocks.1) as usize);
                for j in 0..band.blocks.1 {
                    for i in 0..band.blocks.0 {
                        let area = band.block_rect(i, j);
                        let at = (area.y0 - plane.rect.y0) as usize * stride
                            + (area.x0 - plane.rect.x0) as usize;
                        let (w, h) = ((area.x1 - area.x0) as usize, (area.y1 - area.y0) as usize);
                        blocks.push(encoder.encode(encode_block::Block {
                            samples: &plane.samples[at..],
                            width: w,
                            height: h,
                            stride,
                            planes: planes_of,
                        })?);
                    }
                }
                coded.push(BandBlocks {
                    across: band.blocks.0,
                    down: band.blocks.1,
                    blocks,
                });
            }
            packets::write(&coded, &mut packet);
        }
        for plane in planes {
            plane.recycle();
        }
        packets.push(packet);
    }
    Ok(packets)
}

#[cfg(test)]
mod tests {
    use super::super::markers::tests::chunks;
    use super::super::tests::{FILES, image, layout};
    use super::*;

    /// `chunk` with its comment (the one segment that names the encoder)
    /// replaced by `ours`'s.
    fn with_comment_of(chunk: &[u8], ours: &[u8]) -> Vec<u8> {
        let com = |bytes: &[u8]| {
            let at = bytes.windows(2).position(|w| w == [0xFF, 0x64]).unwrap();
            let length = u16::from_be_bytes([bytes[at + 2], bytes[at + 3]]) as usize;
            (at, at + 2 + length)
        };
        let (a, b) = com(chunk);
        let (c, d) = com(ours);
        [&chunk[..a], &ours[c..d], &chunk[b..]].concat()
    }

    /// The image of `rgb_z_id_zip.exr` (B, G, R half, Z float, id uint,
    /// 53 × 37) encoded in chunks of 37 and of 32 lines: the bytes of the
    /// chunks OpenEXR's encoder wrote, but for the comment.
    #[test]
    fn chunks_are_openexrs_bytes() {
        let (channels, planes) = image();
        let sizes: Vec<usize> = channels.iter().map(|c| c.pixel_type.size()).collect();
        for (name, lines) in FILES {
            let mut y = 0;
            for chunk in &chunks(name) {
                let layout = layout(&channels, &sizes, y, lines);
                let mut raw = vec![0; layout.bytes()];
                let mut line_of = [0usize; 5];
                for row in layout.rows() {
                    let c = row.channel;
                    let from = (y + line_of[c]) * 53 * sizes[c];
                    raw[row.at..row.at + row.len].copy_from_slice(&planes[c][from..from + row.len]);
                    line_of[c] += 1;
                }
                let mut ours = Vec::new();
                assert!(compress(&raw, &layout, &mut ours).unwrap());
                assert_eq!(
                    with_comment_of(chunk, &ours).len(),
                    ours.len(),
                    "{name} at {y}"
                );
                let expected = with_comment_of(chunk, &ours);
                if let Some(at) = expected.iter().zip(&ours).position(|(a, b)| a != b) {
                    panic!("{name} at line {y}: byte {at} of {} differs", ours.len());
                }
                y += layout.lines;
            }
        }
    }
}
