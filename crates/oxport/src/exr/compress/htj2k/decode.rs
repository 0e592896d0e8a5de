//! A codestream decoded to its components' integer samples: each tile's
//! code-blocks into their subbands, the subbands through the wavelet, the
//! tiles into their components, and the color transform undone.

use super::block;
use super::color::inverse_rct;
use super::geometry::{self, Resolution};
use super::markers::{Codestream, Rect};
use super::packets::{self, Bands};
use super::wavelet::{Plane, bands, synthesize};
use crate::{Error, Result};

/// Per component, its samples over the whole image (before the DC level
/// shift and NLT).
pub(super) fn components(codestream: &Codestream) -> Result<Vec<Plane>> {
    let image = codestream.image;
    let mut planes: Vec<Plane> = codestream
        .components
        .iter()
        .map(|c| Plane::zeros(geometry::component_rect(image, c)))
        .collect();
    let (across, down) = codestream.tiles();
    for tile in 0..across * down {
        let tile = u16::try_from(tile)
            .map_err(|_| Error::corrupt("an HTJ2K codestream of more tiles than SOT can name"))?;
        let shapes = geometry::tile_resolutions(codestream, tile)?;
        let (blocks, _) = packets::read(codestream, tile, &shapes)?;
        for ((resolutions, coded), plane) in shapes.iter().zip(&blocks).zip(&mut planes) {
            let decoded = tile_component(resolutions, coded)?;
            place(decoded, plane);
        }
    }
    if codestream.color_transform {
        let [r, g, b, ..] = &mut planes[..] else {
            return Err(Error::corrupt(
                "an HTJ2K color transform without three components",
            ));
        };
        if r.samples.len() != g.samples.len() || r.samples.len() != b.samples.len() {
            return Err(Error::corrupt(
                "an HTJ2K color transform over components of other sizes",
            ));
        }
        inverse_rct(&mut r.samples, &mut g.samples, &mut b.samples);
    }
    Ok(planes)
}

/// One tile-component: its code-blocks decoded into their bands, and the
/// bands joined, lowest resolution first.
fn tile_component(resolutions: &[Resolution], coded: &[Bands]) -> Result<Plane> {
    let mut joined: Option<Plane> = None;
    for (resolution, coded_bands) in resolutions.iter().zip(coded) {
        let planes = resolution
            .bands
            .iter()
            .zip(coded_bands)
            .map(|(band, blocks)| {
                let mut plane = Plane::zeros(band.rect);
                let stride = (band.rect.x1 - band.rect.x0) as usize;
                for (index, block) in blocks.iter().enumerate() {
                    let Some(block) = block else { continue };
                    let (i, j) = (index as u32 % band.blocks.0, index as u32 / band.blocks.0);
                    let area = band.block_rect(i, j);
                    let at = (area.y0 - band.rect.y0) as usize * stride
                        + (area.x0 - band.rect.x0) as usize;
                    let (w, h) = ((area.x1 - area.x0) as usize, (area.y1 - area.y0) as usize);
                    block::decode(block, w, h, &mut plane.samples[at..], stride)?;
                }
                Ok(plane)
            })
            .collect::<Result<Vec<_>>>()?;
        joined = Some(match (joined, &planes[..]) {
            (None, [ll]) => ll.clone(),
            (Some(low), [hl, lh, hh])
                if [low.rect, hl.rect, lh.rect, hh.rect] == bands(resolution.rect) =>
            {
                synthesize([&low, hl, lh, hh], resolution.rect)
            }
            _ => return Err(Error::Internal("HTJ2K: a resolution of other bands".into())),
        });
    }
    joined.ok_or_else(|| Error::Internal("HTJ2K: a tile-component without resolutions".into()))
}

/// Puts the tile-component `tile` into the component `plane` (moved there
/// when it is the whole component, as in a codestream of one tile).
fn place(tile: Plane, plane: &mut Plane) {
    if tile.rect == plane.rect {
        *plane = tile;
        return;
    }
    let Rect { x0, y0, x1, y1 } = tile.rect;
    let (w, pw) = ((x1 - x0) as usize, (plane.rect.x1 - plane.rect.x0) as usize);
    for y in y0..y1 {
        let from = (y - y0) as usize * w;
        let to = (y - plane.rect.y0) as usize * pw + (x0 - plane.rect.x0) as usize;
        plane.samples[to..to + w].copy_from_slice(&tile.samples[from..from + w]);
    }
}
