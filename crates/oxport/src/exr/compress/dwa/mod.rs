//! DWAA and DWAB: DreamWorks' lossy method, 32 (DWAA) or 256
//! (DWAB) lines per chunk. Channels named R, G, B, Y, RY, BY (HALF or
//! FLOAT) are coded as 8×8 DCT blocks of a perceptual transfer of their
//! values (R, G, B of one layer turned to Y'CbCr first); A is run-length
//! coded; others are stored as they are. A chunk is:
//!
//! | field | size | value |
//! | --- | --- | --- |
//! | sizes | 11 × 8 | version, unknown raw/packed, AC packed, DC packed, RLE packed/unpacked/raw, AC count, DC count, AC method |
//! | rules | version 2 | u16 size, then suffix, flags, type per rule (`classify.rs`) |
//! | unknown | packed | zlib of the other channels' rows |
//! | AC | packed | Huffman (as PIZ's) or zlib of the run-length coded AC coefficients |
//! | DC | packed | zlib of the DC coefficients, ZIP's predictor and byte split |
//! | RLE | packed | zlib of OpenEXR's RLE runs of the RLE channels' byte planes |
//!
//! The decoded pixels follow OpenEXR's decoder step by step (`lossy.rs`):
//! its order of floating point operations, its shortcut for constant
//! blocks and its float-to-half conversions decide the last bit. Written
//! chunks are OpenEXR's encoder's, byte for byte (`encode.rs`).

mod classify;
mod encode;
mod fdct;
mod fma;
mod idct;
mod lossy;
mod quantize;

pub(crate) use encode::compress;

use classify::Scheme;

use crate::exr::attribute::PixelType;
use crate::exr::chunk::Layout;
use crate::exr::compress::{piz, rle, zip};
use crate::exr::filter::delta;
use crate::half;
use crate::{Error, Result};

const SIZES: usize = 11;

/// A table over every half of `transfer` applied to its magnitude, the
/// sign kept; 0, infinities and NaNs give 0 (DWA's perceptual transfer
/// and its inverse, as OpenEXR tabulates them).
fn transfer_table(transfer: fn(f32) -> f32) -> Vec<u16> {
    (0..=u16::MAX)
        .map(|x| {
            if x == 0 || x & 0x7c00 == 0x7c00 {
                return 0;
            }
            let f = half::to_f32(x);
            let sign = if f < 0.0 { -1.0f32 } else { 1.0 };
            half::from_f32(sign * transfer(f.abs()))
        })
        .collect()
}

/// Each channel's width and lines in the chunk, and where each of its rows
/// is in the chunk's bytes.
fn channel_rows(layout: &Layout) -> (Vec<(usize, usize)>, Vec<Vec<usize>>) {
    let dims = (0..layout.sizes.len())
        .map(|c| (layout.channel_width(c), layout.channel_lines(c)))
        .collect();
    let mut rows: Vec<Vec<usize>> = vec![Vec::new(); layout.sizes.len()];
    for row in layout.rows() {
        rows[row.channel].push(row.at);
    }
    (dims, rows)
}

/// Interleaves `N` byte planes into the samples of `row`: byte `i` of
/// each sample from plane `i`.
fn interleave<const N: usize>(row: &mut [u8], planes: [&[u8]; N]) {
    for (x, sample) in row.chunks_exact_mut(N).enumerate() {
        for (value, plane) in sample.iter_mut().zip(planes) {
            *value = plane[x];
        }
    }
}

/// A zlib stream of exactly `len` bytes.
fn inflate(packed: &[u8], len: usize, what: &'static str) -> Result<Vec<u8>> {
    let mut out = vec![0u8; len];
    zip::inflate_exact(packed, &mut out, what, what)?;
    Ok(out)
}

/// Decompresses a DWAA or DWAB chunk into exactly `out.len()` bytes in
/// `layout` (with its `channels`).
pub(crate) fn decompress(packed: &[u8], layout: &Layout, out: &mut [u8]) -> Result<()> {
    if packed.len() < 8 * SIZES {
        return Err(Error::corrupt("a DWA chunk is shorter than its sizes"));
    }
    let size = |i: usize| u64::from_le_bytes(packed[8 * i..8 * i + 8].try_into().expect("8"));
    let [
        version,
        unknown_raw,
        unknown_packed,
        ac_packed,
        dc_packed,
        rle_packed,
        rle_unpacked,
        rle_raw,
        ac_count,
        dc_count,
        ac_method,
    ] = std::array::from_fn(size);
    if version > 2 {
        return Err(Error::Unsupported(
            format!("DWA chunk version {version} (OpenEXR 3.5 reads 0 to 2)").into(),
        ));
    }
    let mut data = &packed[8 * SIZES..];
    let rules = if version < 2 {
        classify::legacy_rules()
    } else {
        let (rules, read) = classify::read_rules(data)?;
        data = &data[read..];
        rules
    };
    let sections = [unknown_packed, ac_packed, dc_packed, rle_packed];
    sections
        .iter()
        .try_fold(0u64, |sum, &n| sum.checked_add(n))
        .filter(|&n| n <= data.len() as u64)
        .ok_or_else(|| Error::corrupt("a DWA chunk's sections run past its end"))?;
    let (unknown_bytes, rest) = data.split_at(unknown_packed as usize);
    let (ac_bytes, rest) = rest.split_at(ac_packed as usize);
    let (dc_bytes, rest) = rest.split_at(dc_packed as usize);
    let rle_bytes = &rest[..rle_packed as usize];

    let channels = layout.channels;
    let (schemes, triples) = classify::classify(channels, &rules);
    let (dims, rows) = channel_rows(layout);
    let plane = |c: usize| dims[c].0 * dims[c].1 * layout.sizes[c];
    let needed = |scheme: Scheme| -> usize {
        (0..channels.len())
            .filter(|&c| schemes[c] == scheme)
            .map(plane)
            .sum()
    };
    // What the chunk's channels can hold: no section may claim more.
    let (unknown_needed, rle_needed) = (needed(Scheme::Unknown), needed(Scheme::Rle));
    let lossy = schemes.iter().filter(|&&s| s == Scheme::LossyDct).count() as u64;
    let blocks = layout.lines.div_ceil(8) as u64 * layout.width.div_ceil(8) as u64;
    let pixels = (layout.lines * layout.width) as u64;
    let rle_pixel_bytes: u64 = (0..channels.len())
        .filter(|&c| schemes[c] == Scheme::Rle)
        .map(|c| 2 * pixels * layout.sizes[c] as u64)
        .sum();
    let check = |required: usize, packed: u64, unpacked: u64, extra: u64| -> Result<()> {
        let ok = if required > 0 {
            unpacked >= required as u64 && packed > 0
        } else {
            unpacked == 0 && packed == 0 && extra == 0
        };
        if ok {
            Ok(())
        } else {
            Err(Error::corrupt(
                "a DWA chunk's sizes do not match its channels",
            ))
        }
    };
    check(unknown_needed, unknown_packed, unknown_raw, 0)?;
    check(rle_needed, rle_packed, rle_raw, rle_unpacked)?;
    if unknown_raw > out.len() as u64
        || rle_raw > rle_pixel_bytes
        || rle_unpacked > rle_pixel_bytes
        || ac_count > blocks * 63 * lossy
        || dc_count > blocks * lossy
    {
        return Err(Error::corrupt(
            "a DWA chunk's sizes are larger than its channels",
        ));
    }

    let unknown = if unknown_packed > 0 {
        inflate(
            unknown_bytes,
            unknown_raw as usize,
            "a DWA chunk's unknown data is damaged",
        )?
    } else {
        Vec::new()
    };
    let mut ac = vec![0u16; ac_count as usize];
    if ac_packed > 0 {
        match ac_method {
            0 => piz::huffman::decode(ac_bytes, &mut ac)?,
            1 => {
                let bytes = inflate(ac_bytes, 2 * ac.len(), "a DWA chunk's AC data is damaged")?;
                for (v, b) in ac.iter_mut().zip(bytes.chunks_exact(2)) {
                    *v = u16::from_le_bytes([b[0], b[1]]);
                }
            }
            _ => return Err(Error::corrupt("a DWA chunk names an unknown AC method")),
        }
    }
    let mut dc = vec![0u16; dc_count as usize];
    if dc_packed > 0 {
        let mut bytes = inflate(dc_bytes, 2 * dc.len(), "a DWA chunk's DC data is damaged")?;
        let mut joined = vec![0u8; bytes.len()];
        delta::split_delta_decode(&mut bytes, &mut joined);
        for (v, b) in dc.iter_mut().zip(joined.chunks_exact(2)) {
            *v = u16::from_le_bytes([b[0], b[1]]);
        }
    } else if dc_count != 0 {
        return Err(Error::corrupt(
            "a DWA chunk counts DC values it does not hold",
        ));
    }
    let rle_planes = if rle_raw > 0 {
        let runs = inflate(
            rle_bytes,
            rle_unpacked as usize,
            "a DWA chunk's RLE data is damaged",
        )?;
        let mut planes = vec![0u8; rle_raw as usize];
        rle::decode_runs(&runs, &mut planes)?;
        planes
    } else {
        Vec::new()
    };

    // Every row of every channel is written below (or an error returned):
    // `out` needs no clearing.
    let mut lossy_done = vec![false; channels.len()];
    let mut coefficients = lossy::Coefficients::new(&ac, &dc);
    for rgb in &triples {
        if rgb.iter().any(|&c| schemes[c] != Scheme::LossyDct) {
            return Err(Error::corrupt(
                "a DWA color triple is not coded with the DCT",
            ));
        }
        let (width, height) = dims[rgb[0]];
        let targets: Vec<lossy::Target> = rgb
            .iter()
            .map(|&c| lossy::Target {
                rows: &rows[c],
                float: channels[c].pixel_type == PixelType::Float,
            })
            .collect();
        lossy::decode(&mut coefficients, &targets, width, height, true, out)?;
        for &c in rgb {
            lossy_done[c] = true;
        }
    }
    let (mut unknown_at, mut rle_at) = (0usize, 0usize);
    for (c, channel) in channels.iter().enumerate() {
        let (width, height) = dims[c];
        if lossy_done[c] || width == 0 || height == 0 {
            continue;
        }
        let size = layout.sizes[c];
        let row_bytes = width * size;
        match schemes[c] {
            Scheme::LossyDct => {
                let target = lossy::Target {
                    rows: &rows[c],
                    float: channel.pixel_type == PixelType::Float,
                };
                lossy::decode(
                    &mut coefficients,
                    &[target],
                    width,
                    height,
                    !channel.linear,
                    out,
                )?;
            }
            Scheme::Rle => {
                // The channel's byte planes, each `width × height` long.
                let count = width * height;
                let planes = rle_planes
                    .get(rle_at..rle_at + count * size)
                    .ok_or_else(|| {
                        Error::corrupt("a DWA chunk's RLE data is shorter than its channels")
                    })?;
                for (y, &at) in rows[c].iter().enumerate() {
                    let row = &mut out[at..at + row_bytes];
                    let plane = |byte: usize| &planes[byte * count + y * width..][..width];
                    match size {
                        2 => interleave(row, [plane(0), plane(1)]),
                        _ => interleave(row, [plane(0), plane(1), plane(2), plane(3)]),
                    }
                }
                rle_at += count * size;
            }
            Scheme::Unknown => {
                for &at in &rows[c] {
                    let from =
                        unknown
                            .get(unknown_at..unknown_at + row_bytes)
                            .ok_or_else(|| {
                                Error::corrupt(
                                    "a DWA chunk's unknown data is shorter than its channels",
                                )
                            })?;
                    out[at..at + row_bytes].copy_from_slice(from);
                    unknown_at += row_bytes;
                }
            }
        }
    }
    Ok(())
}
