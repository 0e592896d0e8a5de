//! Writing DWAA and DWAB chunks as OpenEXR's encoder writes them (the same
//! bytes): the channels sorted by OpenEXR's default rules; each R, G, B
//! triple turned to Y'CbCr and, with the other DCT channels, cut into 8×8
//! blocks (mirrored past the edges) of the perceptual transfer of their
//! halves, transformed, quantized to the halves with the fewest bits
//! within tolerance, zig-zagged, their AC coefficients run-length coded;
//! A by byte planes and runs; the rest as they are. Then the sections:
//! the rules, the other channels (zlib 9), the AC coefficients (PIZ's
//! Huffman code, or zlib 9 for DWAA tiles), the DC coefficients (ZIP's
//! filter and zlib at OpenEXR's default level), the RLE runs (zlib 9).

use std::sync::OnceLock;

use super::classify::{self, Scheme};
use super::fdct;
use super::idct::Order;
use super::lossy::ZIGZAG;
use super::quantize::quantize;
use crate::Result;
use crate::codec::deflate::{self, Engine, Format};
use crate::exr::attribute::PixelType;
use crate::exr::chunk::Layout;
use crate::exr::compress::{piz, rle, zip};
use crate::half;

/// OpenEXR's default quality (`dwaCompressionLevel`), which scales the
/// quantization tolerances.
const DEFAULT_QUALITY: f32 = 45.0;
/// The deflate level OpenEXR uses for the unknown, AC and RLE sections.
const SECTION_LEVEL: i32 = 9;

/// JPEG's quantization tables (luma, chroma) and their smallest entries.
const TABLE_Y: [u16; 64] = [
    16, 11, 10, 16, 24, 40, 51, 61, 12, 12, 14, 19, 26, 58, 60, 55, 14, 13, 16, 24, 40, 57, 69, 56,
    14, 17, 22, 29, 51, 87, 80, 62, 18, 22, 37, 56, 68, 109, 103, 77, 24, 35, 55, 64, 81, 104, 113,
    92, 49, 64, 78, 87, 103, 121, 120, 101, 72, 92, 95, 98, 112, 100, 103, 99,
];
const TABLE_Y_MIN: u16 = 10;
const TABLE_CBCR: [u16; 64] = [
    17, 18, 24, 47, 99, 99, 99, 99, 18, 21, 26, 66, 99, 99, 99, 99, 24, 26, 56, 99, 99, 99, 99, 99,
    47, 66, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99,
    99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99,
];
const TABLE_CBCR_MIN: u16 = 17;

/// Each coefficient's tolerance, as a float and as a half.
struct Tolerances {
    float: [f32; 64],
    half: [u16; 64],
}

impl Tolerances {
    fn new(base: f32, table: &[u16; 64], min: u16) -> Self {
        let float = table.map(|t| base * f32::from(t) / f32::from(min));
        Tolerances {
            float,
            half: float.map(half::from_f32),
        }
    }
}

/// OpenEXR's table of DWA's perceptual transfer: x^(1/2.2) up to 1,
/// ln(x)/2.2 + 1 above, signs kept, infinities and NaNs to 0.
fn to_nonlinear() -> &'static [u16] {
    static TABLE: OnceLock<Vec<u16>> = OnceLock::new();
    TABLE.get_or_init(|| {
        super::transfer_table(|f| {
            if f <= 1.0 {
                f.powf(1.0 / 2.2)
            } else {
                f.ln() / 2.2 + 1.0
            }
        })
    })
}

/// One channel's samples in the chunk, as halves (FLOAT clamped to the
/// half range first, as OpenEXR does), row after row.
struct Plane {
    halves: Vec<u16>,
}

/// zlib at OpenEXR's level for DWA's sections.
fn zlib(data: &[u8], out: &mut Vec<u8>) -> Result<()> {
    deflate::compress(data, SECTION_LEVEL, Format::Zlib, Engine::Libdeflate, out)
}

/// Runs `write` on `out`; the bytes it appended.
fn measured(out: &mut Vec<u8>, write: impl FnOnce(&mut Vec<u8>) -> Result<()>) -> Result<u64> {
    let at = out.len();
    write(out)?;
    Ok((out.len() - at) as u64)
}

/// Runs of zero AC coefficients: 0xff00 | n for n zeros, 0xff00 alone for
/// zeros to the block's end (OpenEXR's `rleAc`).
fn run_length(block: &[u16; 64], ac: &mut Vec<u16>) {
    let mut i = 1;
    while i < 64 {
        if block[i] != 0 {
            ac.push(block[i]);
            i += 1;
            continue;
        }
        let run = block[i..].iter().take_while(|&&v| v == 0).count();
        if run == 1 {
            ac.push(0);
        } else if i + run == 64 {
            ac.push(0xff00);
        } else {
            ac.push(0xff00 | run as u16);
        }
        i += run;
    }
}

/// The AC and DC coefficients of the DCT channels of a chunk.
struct Coefficients {
    ac: Vec<u16>,
    dc: Vec<u16>,
    y: Tolerances,
    cbcr: Tolerances,
    /// Whose arithmetic the transforms follow (`idct::Order`).
    order: Order,
}

impl Coefficients {
    /// Codes one channel, or one triple (Y'CbCr), of `width × height`
    /// samples: block by block, each channel's AC in turn; the DC values
    /// channel after channel. `transfer`: the perceptual transfer applies.
    fn code(&mut self, planes: &[&Plane], width: usize, height: usize, transfer: bool) {
        let blocks_x = width.div_ceil(8);
        let blocks_y = height.div_ceil(8);
        let dc_start = self.dc.len();
        self.dc
            .resize(dc_start + planes.len() * blocks_x * blocks_y, 0);
        let table = transfer.then(to_nonlinear);
        let mirror = |v: usize, n: usize| -> usize {
            if v < n {
                v
            } else {
                // OpenEXR's n − (v − (n − 1)), and n − 1 when that is negative.
                (n + n - 1).checked_sub(v).unwrap_or(n - 1)
            }
        };
        let mut data = vec![[0f32; 64]; planes.len()];
        for by in 0..blocks_y {
            for bx in 0..blocks_x {
                for (block, plane) in data.iter_mut().zip(planes) {
                    for (i, value) in block.iter_mut().enumerate() {
                        let x = mirror(8 * bx + i % 8, width);
                        let y = mirror(8 * by + i / 8, height);
                        let mut h = plane.halves[y * width + x];
                        if let Some(table) = table {
                            h = table[usize::from(h)];
                        }
                        *value = half::to_f32(h);
                    }
                }
                if let [r, g, b] = &mut data[..] {
                    fdct::csc709_forward(r, g, b, self.order);
                }
                for (c, block) in data.iter_mut().enumerate() {
                    fdct::forward(block, self.order);
                    let tolerances = if c == 0 { &self.y } else { &self.cbcr };
                    let mut zigzag = [0u16; 64];
                    for i in 0..64 {
                        let src = half::from_f32(block[i]);
                        zigzag[ZIGZAG[i]] = quantize(src, tolerances.half[i], tolerances.float[i]);
                    }
                    self.dc[dc_start + c * blocks_x * blocks_y + by * blocks_x + bx] = zigzag[0];
                    run_length(&zigzag, &mut self.ac);
                }
            }
        }
    }
}

/// Appends the chunk `raw` (in `layout`, with its `channels`) compressed
/// with DWAB (`dwab`) or DWAA to `out`; `tiled`: the chunk is a tile (DWAA
/// then codes its AC coefficients with zlib, as OpenEXR does). `false`
/// (nothing appended) when the AC coefficients' Huffman codes would pass
/// 58 bits: the chunk is stored raw.
pub(crate) fn compress(
    raw: &[u8],
    layout: &Layout,
    dwab: bool,
    tiled: bool,
    out: &mut Vec<u8>,
) -> Result<bool> {
    let channels = layout.channels;
    let rules = classify::default_rules();
    let (schemes, triples) = classify::classify(channels, &rules);
    let (dims, rows) = super::channel_rows(layout);
    let plane = |c: usize| -> Plane {
        let mut halves = Vec::with_capacity(dims[c].0 * dims[c].1);
        let row_bytes = dims[c].0 * layout.sizes[c];
        for &at in &rows[c] {
            let row = &raw[at..at + row_bytes];
            match channels[c].pixel_type {
                PixelType::Float => halves.extend(row.chunks_exact(4).map(|b| {
                    let v = f32::from_le_bytes(b.try_into().expect("4"));
                    half::from_f32(v.clamp(-65504.0, 65504.0))
                })),
                _ => halves.extend(
                    row.chunks_exact(2)
                        .map(|b| u16::from_le_bytes([b[0], b[1]])),
                ),
            }
        }
        Plane { halves }
    };
    let base = DEFAULT_QUALITY / 100_000.0;
    let mut coefficients = Coefficients {
        ac: Vec::new(),
        dc: Vec::new(),
        y: Tolerances::new(base, &TABLE_Y, TABLE_Y_MIN),
        cbcr: Tolerances::new(base, &TABLE_CBCR, TABLE_CBCR_MIN),
        order: Order::of_this_cpu(),
    };
    let mut done = vec![false; channels.len()];
    for rgb in &triples {
        let planes = rgb.map(plane);
        let (width, height) = dims[rgb[0]];
        if width > 0 && height > 0 {
            coefficients.code(&[&planes[0], &planes[1], &planes[2]], width, height, true);
        }
        for c in rgb {
            done[*c] = true;
        }
    }
    let (mut unknown, mut rle_planes) = (Vec::new(), Vec::new());
    for (c, channel) in channels.iter().enumerate() {
        let (width, height) = dims[c];
        if done[c] || width == 0 || height == 0 {
            continue;
        }
        let size = layout.sizes[c];
        let row_bytes = width * size;
        match schemes[c] {
            Scheme::LossyDct => {
                coefficients.code(&[&plane(c)], width, height, !channel.linear);
            }
            Scheme::Rle => {
                // The channel's byte planes: every sample's first byte,
                // then every second byte, ...
                let start = rle_planes.len();
                let count = width * height;
                rle_planes.resize(start + count * size, 0);
                for (y, &at) in rows[c].iter().enumerate() {
                    for (x, sample) in raw[at..at + row_bytes].chunks_exact(size).enumerate() {
                        for (byte, &value) in sample.iter().enumerate() {
                            rle_planes[start + byte * count + y * width + x] = value;
                        }
                    }
                }
            }
            Scheme::Unknown => {
                for &at in &rows[c] {
                    unknown.extend_from_slice(&raw[at..at + row_bytes]);
                }
            }
        }
    }
    let start = out.len();
    out.resize(start + 8 * 11, 0);
    classify::write_rules(&rules, channels, out);
    let mut sizes = [0u64; 11];
    sizes[0] = 2;
    if !unknown.is_empty() {
        sizes[1] = unknown.len() as u64;
        sizes[2] = measured(out, |out| zlib(&unknown, out))?;
    }
    let ac = &coefficients.ac;
    if !ac.is_empty() {
        let at = out.len();
        if !dwab && tiled {
            let bytes: Vec<u8> = ac.iter().flat_map(|v| v.to_le_bytes()).collect();
            zlib(&bytes, out)?;
        } else if !piz::huffman::encode(ac, out) {
            out.truncate(start);
            return Ok(false);
        }
        sizes[3] = (out.len() - at) as u64;
        sizes[8] = ac.len() as u64;
    }
    // The AC method is recorded whether or not there are AC values.
    sizes[10] = u64::from(!dwab && tiled);
    let dc = &coefficients.dc;
    if !dc.is_empty() {
        let bytes: Vec<u8> = dc.iter().flat_map(|v| v.to_le_bytes()).collect();
        sizes[4] = measured(out, |out| zip::compress(&bytes, zip::DEFAULT_LEVEL, out))?;
        sizes[9] = dc.len() as u64;
    }
    if !rle_planes.is_empty() {
        let mut runs = Vec::new();
        rle::encode_runs(&rle_planes, &mut runs);
        sizes[5] = measured(out, |out| zlib(&runs, out))?;
        sizes[6] = runs.len() as u64;
        sizes[7] = rle_planes.len() as u64;
    }
    for (i, size) in sizes.iter().enumerate() {
        out[start + 8 * i..start + 8 * i + 8].copy_from_slice(&size.to_le_bytes());
    }
    Ok(true)
}
