//! Where things are (ITU-T T.800 B.5–B.7): a tile-component's resolutions,
//! their subbands and the code-blocks that tile each subband, all in the
//! coordinates of their own level of the wavelet.

use super::markers::{Codestream, Component, Rect};
use crate::{Error, Result};

/// A subband's orientation: what its horizontal and vertical filters were.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Orientation {
    Ll,
    Hl,
    Lh,
    Hh,
}

impl Orientation {
    /// The offsets `xo_b`, `yo_b` of T.800's equation B-15.
    fn offsets(self) -> (u32, u32) {
        match self {
            Orientation::Ll => (0, 0),
            Orientation::Hl => (1, 0),
            Orientation::Lh => (0, 1),
            Orientation::Hh => (1, 1),
        }
    }
}

/// One subband and the grid of code-blocks over it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Band {
    pub(super) orientation: Orientation,
    /// Its samples, in its own coordinates.
    pub(super) rect: Rect,
    /// The decomposition level it comes from (`N_L` for the lowest LL).
    pub(super) level: u8,
    /// Its code-blocks' nominal size, as powers of two.
    pub(super) block: (u8, u8),
    /// The index of its first code-block in the grid anchored at 0.
    pub(super) first: (u32, u32),
    /// Code-blocks across and down (0 when the band is empty).
    pub(super) blocks: (u32, u32),
}

impl Band {
    /// The samples of code-block (`i`, `j`) of the band (counted from its first).
    pub(super) fn block_rect(&self, i: u32, j: u32) -> Rect {
        let (w, h) = (1u64 << self.block.0, 1u64 << self.block.1);
        let (bx, by) = (u64::from(self.first.0 + i), u64::from(self.first.1 + j));
        let clamp = |v: u64, low: u32, high: u32| v.clamp(u64::from(low), u64::from(high)) as u32;
        Rect {
            x0: clamp(bx * w, self.rect.x0, self.rect.x1),
            y0: clamp(by * h, self.rect.y0, self.rect.y1),
            x1: clamp((bx + 1) * w, self.rect.x0, self.rect.x1),
            y1: clamp((by + 1) * h, self.rect.y0, self.rect.y1),
        }
    }
}

/// One resolution of a tile-component: its area, and its subbands (the LL
/// band alone at resolution 0; HL, LH and HH above it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Resolution {
    pub(super) rect: Rect,
    pub(super) bands: Vec<Band>,
}

/// `ceil(value / 2^shift)`.
fn ceil_shift(value: u32, shift: u8) -> u32 {
    if shift >= 32 {
        return u32::from(value > 0);
    }
    ((u64::from(value) + (1u64 << shift) - 1) >> shift) as u32
}

/// The tile `tile`'s area on the reference grid.
pub(super) fn tile_rect(codestream: &Codestream, tile: u16) -> Rect {
    let (across, _) = codestream.tiles();
    let (p, q) = (u32::from(tile) % across, u32::from(tile) / across);
    let (ox, oy) = codestream.tile_origin;
    let (w, h) = codestream.tile_size;
    let image = codestream.image;
    // Each in u64: an origin plus a tile size may pass u32's range.
    let at =
        |origin: u32, index: u32, size: u32| u64::from(origin) + u64::from(index) * u64::from(size);
    let clamp = |v: u64, low: u32, high: u32| v.clamp(u64::from(low), u64::from(high)) as u32;
    Rect {
        x0: clamp(at(ox, p, w), image.x0, image.x1),
        y0: clamp(at(oy, q, h), image.y0, image.y1),
        x1: clamp(at(ox, p + 1, w), image.x0, image.x1),
        y1: clamp(at(oy, q + 1, h), image.y0, image.y1),
    }
}

/// Per component, the resolutions of tile `tile`.
pub(super) fn tile_resolutions(codestream: &Codestream, tile: u16) -> Result<Vec<Vec<Resolution>>> {
    let area = tile_rect(codestream, tile);
    codestream
        .components
        .iter()
        .map(|c| resolutions(component_rect(area, c), c))
        .collect()
}

/// The tile-component of `component` in the tile `tile`: its samples'
/// area (T.800 B-12).
pub(super) fn component_rect(tile: Rect, component: &Component) -> Rect {
    let (dx, dy) = (
        u32::from(component.sampling.0),
        u32::from(component.sampling.1),
    );
    Rect {
        x0: tile.x0.div_ceil(dx),
        y0: tile.y0.div_ceil(dy),
        x1: tile.x1.div_ceil(dx),
        y1: tile.y1.div_ceil(dy),
    }
}

/// The resolutions of the tile-component `rect` of `component`, lowest
/// first. Codestreams with more than one precinct in a resolution are
/// refused (OpenEXR's encoder writes one).
pub(super) fn resolutions(rect: Rect, component: &Component) -> Result<Vec<Resolution>> {
    let coding = &component.coding;
    let levels = coding.levels;
    (0..=levels)
        .map(|r| {
            let shift = levels - r;
            let area = Rect {
                x0: ceil_shift(rect.x0, shift),
                y0: ceil_shift(rect.y0, shift),
                x1: ceil_shift(rect.x1, shift),
                y1: ceil_shift(rect.y1, shift),
            };
            let (ppx, ppy) = coding.precincts[usize::from(r)];
            let precincts = |low: u32, high: u32, size: u8| {
                if low == high {
                    0
                } else {
                    ceil_shift(high, size) - (low >> size.min(31))
                }
            };
            if precincts(area.x0, area.x1, ppx) > 1 || precincts(area.y0, area.y1, ppy) > 1 {
                return Err(Error::Unsupported(
                    "HTJ2K: more than one precinct in a resolution".into(),
                ));
            }
            // Code-blocks never cross a precinct: at most half a precinct
            // in the subbands of resolutions above 0.
            let (bx, by) = match r {
                0 => (coding.block.0.min(ppx), coding.block.1.min(ppy)),
                _ => (
                    coding.block.0.min(ppx.saturating_sub(1)),
                    coding.block.1.min(ppy.saturating_sub(1)),
                ),
            };
            let orientations: &[Orientation] = match r {
                0 => &[Orientation::Ll],
                _ => &[Orientation::Hl, Orientation::Lh, Orientation::Hh],
            };
            let level = if r == 0 { levels } else { levels - r + 1 };
            let bands = orientations
                .iter()
                .map(|&orientation| band(rect, orientation, level, (bx, by)))
                .collect();
            Ok(Resolution { rect: area, bands })
        })
        .collect()
}

/// The subband `orientation` of decomposition level `level` of the
/// tile-component `rect` (T.800 B-15), tiled by code-blocks of `block`.
fn band(rect: Rect, orientation: Orientation, level: u8, block: (u8, u8)) -> Band {
    let (xo, yo) = orientation.offsets();
    let edge = |v: u32, offset: u32| -> u32 {
        if level == 0 {
            return v;
        }
        // ceil((v - 2^(level-1) * offset) / 2^level), never below 0.
        let shift = u64::from(offset) << (level - 1).min(40);
        let v = u64::from(v);
        if v <= shift {
            0
        } else {
            ((v - shift + (1u64 << level.min(40)) - 1) >> level.min(40)) as u32
        }
    };
    let rect = Rect {
        x0: edge(rect.x0, xo),
        y0: edge(rect.y0, yo),
        x1: edge(rect.x1, xo),
        y1: edge(rect.y1, yo),
    };
    let count = |low: u32, high: u32, size: u8| {
        if low == high {
            (0, 0)
        } else {
            let first = low >> size;
            (first, ceil_shift(high, size) - first)
        }
    };
    let (fx, nx) = count(rect.x0, rect.x1, block.0);
    let (fy, ny) = count(rect.y0, rect.y1, block.1);
    let blocks = if nx == 0 || ny == 0 { (0, 0) } else { (nx, ny) };
    Band {
        orientation,
        rect,
        level,
        block,
        first: (fx, fy),
        blocks,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exr::compress::htj2k::markers::{Coding, Quantization};

    fn component(levels: u8) -> Component {
        Component {
            depth: 16,
            signed: true,
            sampling: (1, 1),
            coding: Coding {
                levels,
                block: (7, 5),
                reversible: true,
                precincts: vec![(15, 15); usize::from(levels) + 1],
            },
            quantization: Quantization {
                guard: 1,
                exponents: vec![8; 3 * usize::from(levels) + 1],
            },
            complement: false,
        }
    }

    #[test]
    fn subbands_split_a_resolution_as_the_wavelet_does() {
        let rect = Rect {
            x0: 0,
            y0: 0,
            x1: 53,
            y1: 37,
        };
        let levels = resolutions(rect, &component(5)).unwrap();
        assert_eq!(levels.len(), 6);
        let sizes: Vec<(u32, u32)> = levels
            .iter()
            .map(|r| (r.rect.x1 - r.rect.x0, r.rect.y1 - r.rect.y0))
            .collect();
        assert_eq!(
            sizes,
            [(2, 2), (4, 3), (7, 5), (14, 10), (27, 19), (53, 37)]
        );
        // Each resolution is the one below and its three bands: low-pass
        // halves round up, high-pass ones down.
        for pair in levels.windows(2) {
            let (low, high) = (&pair[0], &pair[1]);
            let [hl, lh, hh] = &high.bands[..] else {
                panic!()
            };
            let width = |r: &Rect| r.x1 - r.x0;
            let height = |r: &Rect| r.y1 - r.y0;
            assert_eq!(width(&low.rect) + width(&hl.rect), width(&high.rect));
            assert_eq!(height(&low.rect) + height(&lh.rect), height(&high.rect));
            assert_eq!(
                (width(&hh.rect), height(&hh.rect)),
                (width(&hl.rect), height(&lh.rect))
            );
        }
        // The top HL band (26 × 19): one code-block across (128 wide), one down (32 high).
        let top = &levels[5].bands[0];
        assert_eq!(
            (top.rect.x1 - top.rect.x0, top.rect.y1 - top.rect.y0),
            (26, 19)
        );
        assert_eq!(top.blocks, (1, 1));
        assert_eq!(top.block_rect(0, 0), top.rect);
        // A band 300 samples wide at an odd origin: code-blocks on the grid from 0.
        let wide = Rect {
            x0: 3,
            y0: 0,
            x1: 603,
            y1: 70,
        };
        let band = &resolutions(wide, &component(1)).unwrap()[1].bands[2];
        assert_eq!(
            band.rect,
            Rect {
                x0: 1,
                y0: 0,
                x1: 301,
                y1: 35
            }
        );
        assert_eq!((band.first, band.blocks), ((0, 0), (3, 2)));
        assert_eq!(
            band.block_rect(2, 1),
            Rect {
                x0: 256,
                y0: 32,
                x1: 301,
                y1: 35
            }
        );
    }

    #[test]
    fn a_single_row_or_column_leaves_high_bands_empty() {
        let column = Rect {
            x0: 0,
            y0: 0,
            x1: 1,
            y1: 200,
        };
        for resolution in resolutions(column, &component(5)).unwrap().iter().skip(1) {
            // Nothing is high-pass across one column.
            assert_eq!(resolution.bands[0].blocks, (0, 0));
            assert_eq!(resolution.bands[2].blocks, (0, 0));
            assert_ne!(resolution.bands[1].blocks, (0, 0));
        }
        let mut many = component(1);
        many.coding.precincts = vec![(15, 15), (6, 6)];
        let error = resolutions(column, &many).unwrap_err().to_string();
        assert!(error.contains("precinct"), "{error}");
    }
}
