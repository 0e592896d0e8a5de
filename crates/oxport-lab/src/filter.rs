//! The lab's filters: what a chunk's bytes become before a codec sees them.

use std::fmt;

use crate::predict;
use oxport::exr::internals::Layout;
use oxport::exr::internals::{delta, planes, sorted};

/// A byte filter, with its inverse.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Filter {
    /// The chunk as it is.
    None,
    /// OpenEXR's filter under RLE and ZIP: even bytes then odd bytes, then
    /// byte delta.
    SplitDelta,
    /// Rows sorted by sample width, then 2 byte planes for 16-bit samples
    /// and 4 for 32-bit ones.
    Planes,
    /// OpenEXR 3.5's filter under ZSTD: sorted rows, word delta along each
    /// row, byte planes.
    PlanesDelta,
    /// Each channel's 2D grid through the clamped-gradient predictor
    /// (LOCO-I), then byte planes.
    ClampedGrad,
}

impl Filter {
    /// Every filter.
    pub const ALL: [Filter; 5] = [
        Filter::None,
        Filter::SplitDelta,
        Filter::Planes,
        Filter::PlanesDelta,
        Filter::ClampedGrad,
    ];

    /// The filter's name in tables, charts and `--filters`.
    pub fn name(self) -> &'static str {
        match self {
            Filter::None => "none",
            Filter::SplitDelta => "split+delta",
            Filter::Planes => "planes",
            Filter::PlanesDelta => "planes+delta",
            Filter::ClampedGrad => "clampedgrad",
        }
    }

    /// The filtered bytes of `chunk` (in `layout`): as long as the chunk,
    /// and for the sorted planes 8 bytes more per part (their lengths, as
    /// the ZSTD method stores them: the same function makes them).
    pub fn apply(self, chunk: &[u8], layout: &Layout) -> Vec<u8> {
        match self {
            Filter::None => chunk.to_vec(),
            Filter::SplitDelta => {
                let mut out = vec![0; chunk.len()];
                delta::split_delta_encode(chunk, &mut out);
                out
            }
            Filter::Planes | Filter::PlanesDelta => {
                let mut out = vec![0; sorted::encoded_len(layout)];
                sorted::encode(chunk, layout, self == Filter::PlanesDelta, &mut out);
                out
            }
            Filter::ClampedGrad => {
                let (rows, split) = grid_rows(layout);
                let mut grids = Vec::with_capacity(chunk.len());
                for &(at, len, _) in &rows {
                    grids.extend_from_slice(&chunk[at..at + len]);
                }
                predict_grids(&mut grids, layout, &rows, true);
                let mut out = vec![0; chunk.len()];
                planes_by_part(&grids, split, &mut out, planes::split_planes);
                out
            }
        }
    }

    /// How many bytes [`Filter::apply`] makes of a chunk in `layout`.
    pub fn filtered_len(self, layout: &Layout) -> usize {
        match self {
            Filter::Planes | Filter::PlanesDelta => sorted::encoded_len(layout),
            Filter::None | Filter::SplitDelta | Filter::ClampedGrad => layout.bytes(),
        }
    }

    /// The inverse of [`Filter::apply`].
    pub fn invert(self, filtered: &[u8], layout: &Layout) -> Vec<u8> {
        let mut out = vec![0; layout.bytes()];
        match self {
            Filter::None => out.copy_from_slice(filtered),
            Filter::SplitDelta => delta::split_delta_decode(&mut filtered.to_vec(), &mut out),
            Filter::Planes | Filter::PlanesDelta => {
                sorted::decode(filtered, layout, self == Filter::PlanesDelta, &mut out)
                    .expect("the lab's own encoding");
            }
            Filter::ClampedGrad => {
                let (rows, split) = grid_rows(layout);
                let mut grids = vec![0; filtered.len()];
                planes_by_part(filtered, split, &mut grids, planes::join_planes);
                predict_grids(&mut grids, layout, &rows, false);
                let mut from = 0;
                for (at, len, _) in rows {
                    out[at..at + len].copy_from_slice(&grids[from..from + len]);
                    from += len;
                }
            }
        }
        out
    }
}

/// The rows in the order the predictor works on them: channel by channel
/// (each channel's rows one grid), the 16-bit channels first; and the
/// length of the 16-bit part.
fn grid_rows(layout: &Layout) -> (Vec<(usize, usize, usize)>, usize) {
    let mut rows = Vec::new();
    for width in [2, 4] {
        let mut at = 0;
        for &size in layout.sizes {
            let len = layout.width * size;
            if size == width {
                rows.extend(
                    (0..layout.lines).map(|line| (line * layout.line_bytes() + at, len, width)),
                );
            }
            at += len;
        }
    }
    let split = rows.iter().filter(|r| r.2 == 2).map(|r| r.1).sum();
    (rows, split)
}

/// The clamped-gradient prediction on each channel's grid (`encode`), or
/// its inverse.
fn predict_grids(grids: &mut [u8], layout: &Layout, rows: &[(usize, usize, usize)], encode: bool) {
    // One grid per channel: `lines` consecutive rows.
    let mut at = 0;
    for grid in rows.chunks(layout.lines.max(1)) {
        let (len, width) = (grid[0].1 * grid.len(), grid[0].2);
        let cells = &mut grids[at..at + len];
        if encode {
            predict::predict_encode(cells, layout.width, width);
        } else {
            predict::predict_decode(cells, layout.width, width);
        }
        at += len;
    }
}

impl fmt::Display for Filter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Byte planes of the 16-bit part (`..split`) and the 32-bit part.
fn planes_by_part(src: &[u8], split: usize, dst: &mut [u8], planes: fn(&[u8], usize, &mut [u8])) {
    let (a, b) = src.split_at(split);
    let (da, db) = dst.split_at_mut(split);
    planes(a, 2, da);
    planes(b, 4, db);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_filter_is_inverted() {
        let sizes = [2, 4, 2, 4, 4];
        let layout = Layout::new(&sizes, 11, 5);
        let chunk: Vec<u8> = (0..layout.bytes() as u32)
            .map(|i| (i * 7 / 3 % 251) as u8)
            .collect();
        for filter in Filter::ALL {
            let filtered = filter.apply(&chunk, &layout);
            assert_eq!(filtered.len(), filter.filtered_len(&layout), "{filter}");
            assert_eq!(filter.invert(&filtered, &layout), chunk, "{filter}");
        }
    }

    #[test]
    fn planes_delta_is_what_the_zstd_method_compresses() {
        use oxport::codec::zstd;
        use oxport::exr::internals::compress_chunk;
        use oxport::exr::{Channel, Compression, PixelType};
        for sizes in [&[2, 4, 2, 4, 4][..], &[2], &[4, 4]] {
            let channels: Vec<Channel> = sizes
                .iter()
                .enumerate()
                .map(|(i, &size)| {
                    let pixel_type = if size == 2 {
                        PixelType::Half
                    } else {
                        PixelType::Float
                    };
                    Channel::new(format!("c{i}"), pixel_type)
                })
                .collect();
            let layout = Layout::new(sizes, 13, 4);
            let chunk: Vec<u8> = (0..layout.bytes() as u32)
                .map(|i| (i * 11 / 5 % 253) as u8)
                .collect();
            let packed =
                compress_chunk(Compression::Zstd, &chunk, &channels, 13, 4, (0, 0), false).unwrap();
            // After the method's 24-byte prefix: one zstd frame of the stream.
            let mut stream = Vec::new();
            zstd::decompress(
                &packed[24..],
                &zstd::DecompressOptions::default(),
                &mut stream,
            )
            .unwrap();
            assert_eq!(
                stream,
                Filter::PlanesDelta.apply(&chunk, &layout),
                "{sizes:?}"
            );
        }
    }
}
