//! A codestream decoded to its components' integer samples: each tile's
//! code-blocks into their subbands, the subbands through the wavelet, the
//! tiles into their components, and the color transform undone.

use super::block;
use super::color::inverse_rct;
use super::geometry::{self, Resolution};
use super::markers::{Codestream, Component, Rect};
use super::packets::{self, Bands};
use super::wavelet::{Coefficient, Plane, bands, synthesize};
use crate::{Error, Result};

/// A component's samples over the whole image (before the DC level shift
/// and NLT), in the narrowest integers that hold them.
pub(super) enum Decoded {
    /// Components of up to 16 bits.
    Narrow(Plane<i32>),
    /// 32-bit components.
    Wide(Plane<i64>),
}

impl Decoded {
    fn new(rect: Rect, component: &Component) -> Self {
        // Filled by the first tile (moved there when it is the whole image).
        if component.depth <= 16 {
            Decoded::Narrow(Plane {
                rect,
                samples: Vec::new(),
            })
        } else {
            Decoded::Wide(Plane {
                rect,
                samples: Vec::new(),
            })
        }
    }

    pub(super) fn rect(&self) -> Rect {
        match self {
            Decoded::Narrow(p) => p.rect,
            Decoded::Wide(p) => p.rect,
        }
    }

    fn widen(&mut self) {
        if let Decoded::Narrow(p) = self {
            let wide = Decoded::Wide(Plane {
                rect: p.rect,
                samples: p.samples.iter().map(|&v| i64::from(v)).collect(),
            });
            std::mem::replace(self, wide).recycle();
        }
    }

    /// Gives the samples to this thread's pool ([`Plane::recycle`]).
    pub(super) fn recycle(self) {
        match self {
            Decoded::Narrow(p) => p.recycle(),
            Decoded::Wide(p) => p.recycle(),
        }
    }
}

/// Per component, its samples over the whole image.
pub(super) fn components(codestream: &Codestream) -> Result<Vec<Decoded>> {
    let image = codestream.image;
    let mut planes: Vec<Decoded> = codestream
        .components
        .iter()
        .map(|c| Decoded::new(geometry::component_rect(image, c), c))
        .collect();
    let (across, down) = codestream.tiles();
    for tile in 0..across * down {
        let tile = u16::try_from(tile)
            .map_err(|_| Error::corrupt("an HTJ2K codestream of more tiles than SOT can name"))?;
        let shapes = geometry::tile_resolutions(codestream, tile)?;
        let (blocks, _) = packets::read(codestream, tile, &shapes)?;
        for ((resolutions, coded), plane) in shapes.iter().zip(&blocks).zip(&mut planes) {
            match plane {
                Decoded::Narrow(plane) => place(tile_component(resolutions, coded)?, plane),
                Decoded::Wide(plane) => place(tile_component(resolutions, coded)?, plane),
            }
        }
    }
    if codestream.color_transform {
        let [r, g, b, ..] = &mut planes[..] else {
            return Err(Error::corrupt(
                "an HTJ2K color transform without three components",
            ));
        };
        if r.rect() != g.rect() || r.rect() != b.rect() {
            return Err(Error::corrupt(
                "an HTJ2K color transform over components of other sizes",
            ));
        }
        match (&mut *r, &mut *g, &mut *b) {
            (Decoded::Narrow(r), Decoded::Narrow(g), Decoded::Narrow(b)) => {
                inverse_rct(&mut r.samples, &mut g.samples, &mut b.samples)
            }
            _ => {
                for plane in [&mut *r, &mut *g, &mut *b] {
                    plane.widen();
                }
                if let (Decoded::Wide(r), Decoded::Wide(g), Decoded::Wide(b)) = (r, g, b) {
                    inverse_rct(&mut r.samples, &mut g.samples, &mut b.samples);
                }
            }
        }
    }
    Ok(planes)
}

/// One tile-component: its code-blocks decoded into their bands, and the
/// bands joined, lowest resolution first.
fn tile_component<T: Coefficient>(resolutions: &[Resolution], coded: &[Bands]) -> Result<Plane<T>> {
    let mut joined: Option<Plane<T>> = None;
    let mut workspace = block::Workspace::new();
    for (resolution, coded_bands) in resolutions.iter().zip(coded) {
        let planes = resolution
            .bands
            .iter()
            .zip(coded_bands)
            .map(|(band, blocks)| {
                // Each code-block writes every sample of its area; those of
                // a code-block the codestream leaves out are zeros.
                let mut plane = Plane::reused(band.rect);
                let stride = (band.rect.x1 - band.rect.x0) as usize;
                for (index, block) in blocks.iter().enumerate() {
                    let (i, j) = (index as u32 % band.blocks.0, index as u32 / band.blocks.0);
                    let area = band.block_rect(i, j);
                    let at = (area.y0 - band.rect.y0) as usize * stride
                        + (area.x0 - band.rect.x0) as usize;
                    let (w, h) = ((area.x1 - area.x0) as usize, (area.y1 - area.y0) as usize);
                    let out = &mut plane.samples[at..];
                    match block {
                        Some(block) => block::decode(block, w, h, out, stride, &mut workspace)?,
                        None => {
                            for row in (0..h).map(|y| y * stride) {
                                out[row..row + w].fill(T::default());
                            }
                        }
                    }
                }
                Ok(plane)
            })
            .collect::<Result<Vec<_>>>()?;
        let mut planes = planes.into_iter();
        let bands_of = [planes.next(), planes.next(), planes.next(), planes.next()];
        joined = Some(match (joined, bands_of) {
            (None, [Some(ll), None, None, None]) => ll,
            (Some(mut low), [Some(mut hl), Some(mut lh), Some(mut hh), None])
                if [low.rect, hl.rect, lh.rect, hh.rect] == bands(resolution.rect) =>
            {
                let joined = synthesize([&mut low, &mut hl, &mut lh, &mut hh], resolution.rect);
                for band in [low, hl, lh, hh] {
                    band.recycle();
                }
                joined
            }
            _ => return Err(Error::Internal("HTJ2K: a resolution of other bands".into())),
        });
    }
    joined.ok_or_else(|| Error::Internal("HTJ2K: a tile-component without resolutions".into()))
}

/// Puts the tile-component `tile` into the component `plane` (moved there
/// when it is the whole component, as in a codestream of one tile).
fn place<T: Coefficient>(tile: Plane<T>, plane: &mut Plane<T>) {
    if tile.rect == plane.rect {
        *plane = tile;
        return;
    }
    if plane.samples.is_empty() {
        *plane = Plane::zeros(plane.rect);
    }
    let Rect { x0, y0, x1, y1 } = tile.rect;
    let (w, pw) = ((x1 - x0) as usize, (plane.rect.x1 - plane.rect.x0) as usize);
    for y in y0..y1 {
        let from = (y - y0) as usize * w;
        let to = (y - plane.rect.y0) as usize * pw + (x0 - plane.rect.x0) as usize;
        plane.samples[to..to + w].copy_from_slice(&tile.samples[from..from + w]);
    }
}
