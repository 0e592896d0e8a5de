//! ZFP's reversible (lossless) mode as a lab codec: each channel of a chunk
//! is a 2D array (lines × width) compressed on its own; HALF samples go
//! through `f32` (exactly), FLOAT as `f32`, UINT as `i32`. The compressed
//! chunk is, per channel, a u32 length and ZFP's stream.

use std::ffi::c_void;

use zfp_sys_cc as zfp;

use oxport::exr::internals::Layout;
use oxport::{Error, Result};

/// A half's bits as the `f32` of the same value (NaN payloads kept).
fn half_to_f32(h: u16) -> f32 {
    let sign = u32::from(h >> 15) << 31;
    let exponent = u32::from((h >> 10) & 0x1f);
    let mantissa = u32::from(h & 0x3ff);
    let bits = match (exponent, mantissa) {
        (0, 0) => sign,
        (0, m) => {
            // Subnormal: normalise.
            let shift = m.leading_zeros() - 21;
            sign | ((113 - shift) << 23) | (((m << shift) & 0x3ff) << 13)
        }
        (0x1f, m) => sign | 0x7f80_0000 | (m << 13),
        (e, m) => sign | ((e + 112) << 23) | (m << 13),
    };
    f32::from_bits(bits)
}

/// The inverse of [`half_to_f32`] for values that came from a half.
fn f32_to_half(f: f32) -> u16 {
    let bits = f.to_bits();
    let sign = ((bits >> 31) as u16) << 15;
    let exponent = (bits >> 23) & 0xff;
    let mantissa = bits & 0x7f_ffff;
    sign | match exponent {
        0 => 0,
        0xff => 0x7c00 | (mantissa >> 13) as u16,
        e if e < 113 => {
            // A half subnormal.
            ((mantissa | 0x80_0000) >> (126 - e)) as u16
        }
        e => (((e - 112) << 10) | (mantissa >> 13)) as u16,
    }
}

/// One channel's grid as ZFP wants it: `f32` values, or `i32` for UINT.
enum Grid {
    Float(Vec<f32>),
    Int(Vec<i32>),
}

/// Channel `c`'s samples in the chunk, line after line.
fn gather(chunk: &[u8], layout: &Layout, c: usize) -> Grid {
    let size = layout.sizes[c];
    let offset: usize = layout.sizes[..c].iter().sum::<usize>() * layout.width;
    let rows = (0..layout.lines).map(|line| {
        let at = line * layout.line_bytes() + offset;
        &chunk[at..at + layout.width * size]
    });
    match size {
        2 => Grid::Float(
            rows.flat_map(|r| r.chunks_exact(2))
                .map(|b| half_to_f32(u16::from_le_bytes([b[0], b[1]])))
                .collect(),
        ),
        _ => Grid::Int(
            rows.flat_map(|r| r.chunks_exact(4))
                .map(|b| i32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                .collect(),
        ),
    }
}

/// Calls `work` with a reversible ZFP stream and a field over `grid`
/// (`width` × `lines`), freed afterwards.
fn with_zfp<R>(
    grid: &mut Grid,
    width: usize,
    lines: usize,
    work: impl FnOnce(*mut zfp::zfp_stream, *mut zfp::zfp_field) -> R,
) -> R {
    let (pointer, kind) = match grid {
        Grid::Float(v) => (
            v.as_mut_ptr().cast::<c_void>(),
            zfp::zfp_type_zfp_type_float,
        ),
        Grid::Int(v) => (
            v.as_mut_ptr().cast::<c_void>(),
            zfp::zfp_type_zfp_type_int32,
        ),
    };
    // SAFETY: the field points at `width × lines` values of `kind` that
    // outlive it; both are freed once `work` returns.
    unsafe {
        let field = zfp::zfp_field_2d(pointer, kind, width, lines);
        let stream = zfp::zfp_stream_open(std::ptr::null_mut());
        zfp::zfp_stream_set_reversible(stream);
        let result = work(stream, field);
        zfp::zfp_field_free(field);
        zfp::zfp_stream_close(stream);
        result
    }
}

/// Runs ZFP on `grid` (`width` × `lines`) with `buffer` as its stream:
/// compressing when `compress`, else decompressing into `grid`. The bytes
/// used.
fn run(
    grid: &mut Grid,
    width: usize,
    lines: usize,
    buffer: &mut [u8],
    compress: bool,
) -> Result<usize> {
    let used = with_zfp(grid, width, lines, |stream, field| {
        // SAFETY: the bit stream reads or writes at most `buffer.len()`
        // bytes (sized with zfp_stream_maximum_size, or the compressed
        // stream with room for ZFP's last word) and is closed here.
        unsafe {
            let bits = zfp::stream_open(buffer.as_mut_ptr().cast::<c_void>(), buffer.len());
            zfp::zfp_stream_set_bit_stream(stream, bits);
            zfp::zfp_stream_rewind(stream);
            let used = if compress {
                zfp::zfp_compress(stream, field)
            } else {
                zfp::zfp_decompress(stream, field)
            };
            zfp::stream_close(bits);
            used
        }
    });
    if used == 0 {
        return Err(Error::Internal("ZFP failed".into()));
    }
    Ok(used)
}

/// The most bytes ZFP may write for the grid.
fn bound(grid: &mut Grid, width: usize, lines: usize) -> usize {
    // SAFETY: a stream and field made by `with_zfp`; nothing is written.
    with_zfp(grid, width, lines, |stream, field| unsafe {
        zfp::zfp_stream_maximum_size(stream, field)
    })
}

pub fn compress(chunk: &[u8], layout: &Layout, out: &mut Vec<u8>) -> Result<()> {
    for c in 0..layout.sizes.len() {
        let mut grid = gather(chunk, layout, c);
        let mut buffer = vec![0u8; bound(&mut grid, layout.width, layout.lines)];
        let used = run(&mut grid, layout.width, layout.lines, &mut buffer, true)?;
        out.extend_from_slice(&(used as u32).to_le_bytes());
        out.extend_from_slice(&buffer[..used]);
    }
    Ok(())
}

pub fn decompress(packed: &[u8], layout: &Layout, out: &mut [u8]) -> Result<usize> {
    let mut at = 0;
    let mut offset = 0;
    for &size in layout.sizes {
        let used = u32::from_le_bytes(packed[at..at + 4].try_into().expect("4 bytes")) as usize;
        at += 4;
        let n = layout.width * layout.lines;
        let mut grid = match size {
            2 => Grid::Float(vec![0.0; n]),
            _ => Grid::Int(vec![0; n]),
        };
        let mut stream = packed[at..at + used].to_vec();
        // ZFP reads whole 64-bit words: give it room past the stream's end.
        stream.resize(used + 8, 0);
        run(&mut grid, layout.width, layout.lines, &mut stream, false)?;
        at += used;
        for line in 0..layout.lines {
            let row_at = line * layout.line_bytes() + offset;
            let row = &mut out[row_at..row_at + layout.width * size];
            let values = line * layout.width..(line + 1) * layout.width;
            match &grid {
                Grid::Float(v) => {
                    for (b, &f) in row.chunks_exact_mut(2).zip(&v[values]) {
                        b.copy_from_slice(&f32_to_half(f).to_le_bytes());
                    }
                }
                Grid::Int(v) => {
                    for (b, &i) in row.chunks_exact_mut(4).zip(&v[values]) {
                        b.copy_from_slice(&i.to_le_bytes());
                    }
                }
            }
        }
        offset += layout.width * size;
    }
    Ok(out.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_half_survives_the_trip_through_f32() {
        for h in 0..=u16::MAX {
            let f = half_to_f32(h);
            assert_eq!(f32_to_half(f), h, "{h:#06x}");
            if (h & 0x7c00) != 0x7c00 {
                assert_eq!(f, half_to_f32(h));
            }
        }
        assert_eq!(half_to_f32(0x3c00), 1.0);
        assert_eq!(half_to_f32(0x0001), 2f32.powi(-24));
        assert_eq!(half_to_f32(0xc000), -2.0);
    }

    #[test]
    fn zfp_is_lossless_on_chunks() {
        let sizes = [2, 4, 4];
        let layout = Layout::new(&sizes, 23, 16);
        let chunk: Vec<u8> = (0..layout.bytes() as u32)
            .map(|i| (i * 13 / 7 % 251) as u8)
            .collect();
        let mut packed = Vec::new();
        compress(&chunk, &layout, &mut packed).unwrap();
        let mut out = vec![0; chunk.len()];
        decompress(&packed, &layout, &mut out).unwrap();
        assert_eq!(out, chunk);
    }
}
