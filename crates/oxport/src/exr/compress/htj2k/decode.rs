//! A codestream decoded to its components' integer samples: each tile's
//! code-blocks into their subbands, the subbands through the wavelet, the
//! tiles into their components, and the color transform undone.

use super::block;
use super::color::inverse_rct;
use super::geometry::{self, Resolution};
use super::markers::{Codestream, Component, Rect};
use super::packets::{self, Bands};
use super::wavelet::{Coefficient, Plane, Synthesis, bands};
use crate::{Error, Result};

/// A component's samples over the whole image (before the DC level shift
/// and NLT), in the narrowest integers that hold them: whole, or its last
/// level's rows as they are asked for ([`Synthesis`]).
pub(super) enum Decoded {
    /// Components of up to 16 bits.
    Narrow(Synthesis<i32>),
    /// 32-bit components.
    Wide(Synthesis<i64>),
}

/// A line of a [`Decoded`] component.
pub(super) enum Line<'a> {
    Narrow(&'a [i32]),
    Wide(&'a [i64]),
}

impl Decoded {
    /// An empty component of `rect`, filled by its tiles.
    fn new(rect: Rect, component: &Component) -> Self {
        if component.depth <= 16 {
            Decoded::Narrow(Synthesis::whole(Plane {
                rect,
                samples: Vec::new(),
            }))
        } else {
            Decoded::Wide(Synthesis::whole(Plane {
                rect,
                samples: Vec::new(),
            }))
        }
    }

    fn rect(&self) -> Rect {
        match self {
            Decoded::Narrow(p) => p.rect(),
            Decoded::Wide(p) => p.rect(),
        }
    }

    fn wide(&self) -> bool {
        matches!(self, Decoded::Wide(_))
    }

    /// The whole component in 64-bit integers (of a component kept whole).
    fn widen(&mut self) {
        if let Decoded::Narrow(p) = self {
            let rect = p.rect();
            let narrow = std::mem::take(p);
            let narrow = narrow.into_plane();
            let samples = narrow.samples.iter().map(|&v| i64::from(v)).collect();
            narrow.recycle();
            *self = Decoded::Wide(Synthesis::whole(Plane { rect, samples }));
        }
    }

    /// Line `y`, `None` past the last.
    fn line(&mut self, y: usize) -> Option<Line<'_>> {
        match self {
            Decoded::Narrow(p) => p.row(y).map(|r| Line::Narrow(r)),
            Decoded::Wide(p) => p.row(y).map(|r| Line::Wide(r)),
        }
    }

    /// Gives the samples to this thread's pool ([`Synthesis::recycle`]).
    fn recycle(self) {
        match self {
            Decoded::Narrow(p) => p.recycle(),
            Decoded::Wide(p) => p.recycle(),
        }
    }
}

/// A codestream's components, decoded.
pub(super) struct Components {
    planes: Vec<Decoded>,
    /// Where the color transform is undone a line at a time (components
    /// 0 to 2 narrow and made as asked for): the line it was last undone
    /// on.
    rct_rows: Option<Option<usize>>,
}

impl Components {
    /// Line `y` of component `c` (the color transform undone), `None`
    /// past its last line. Each component's lines are asked for in order.
    pub(super) fn line(&mut self, c: usize, y: usize) -> Result<Option<Line<'_>>> {
        if let Some(done) = &mut self.rct_rows
            && c < 3
            && *done != Some(y)
        {
            let [
                Decoded::Narrow(r),
                Decoded::Narrow(g),
                Decoded::Narrow(b),
                ..,
            ] = &mut self.planes[..]
            else {
                return Err(Error::Internal(
                    "HTJ2K: a color transform by rows over other components".into(),
                ));
            };
            if let (Some(r), Some(g), Some(b)) = (r.row(y), g.row(y), b.row(y)) {
                inverse_rct(r, g, b);
            }
            *done = Some(y);
        }
        Ok(self.planes.get_mut(c).and_then(|p| p.line(y)))
    }

    /// Gives the samples to this thread's pool.
    pub(super) fn recycle(self) {
        for plane in self.planes {
            plane.recycle();
        }
    }
}

/// Per component, its samples over the whole image.
pub(super) fn components(codestream: &Codestream) -> Result<Components> {
    let image = codestream.image;
    let mut planes: Vec<Decoded> = codestream
        .components
        .iter()
        .map(|c| Decoded::new(geometry::component_rect(image, c), c))
        .collect();
    let (across, down) = codestream.tiles();
    let transform = codestream.color_transform;
    if transform {
        let [r, g, b, ..] = &planes[..] else {
            return Err(Error::corrupt(
                "an HTJ2K color transform without three components",
            ));
        };
        if r.rect() != g.rect() || r.rect() != b.rect() {
            return Err(Error::corrupt(
                "an HTJ2K color transform over components of other sizes",
            ));
        }
    }
    // A single tile's last levels are synthesized a few rows at a time,
    // as the lines are asked for, and the color transform undone on those
    // rows; those of several tiles are joined whole, and so is a color
    // transform over components of 32 bits, which it widens.
    let rct_rows = transform && !planes[..3].iter().any(Decoded::wide);
    let by_rows = across * down == 1 && (!transform || rct_rows);
    for tile in 0..across * down {
        let tile = u16::try_from(tile)
            .map_err(|_| Error::corrupt("an HTJ2K codestream of more tiles than SOT can name"))?;
        let shapes = geometry::tile_resolutions(codestream, tile)?;
        let (blocks, _) = packets::read(codestream, tile, &shapes)?;
        for ((resolutions, coded), plane) in shapes.iter().zip(&blocks).zip(&mut planes) {
            match plane {
                Decoded::Narrow(plane) => {
                    place(tile_component(resolutions, coded, by_rows)?, plane)
                }
                Decoded::Wide(plane) => place(tile_component(resolutions, coded, by_rows)?, plane),
            }
        }
    }
    if transform && !rct_rows {
        for plane in &mut planes[..3] {
            plane.widen();
        }
        if let [Decoded::Wide(r), Decoded::Wide(g), Decoded::Wide(b), ..] = &mut planes[..] {
            let mut whole = [r, g, b].map(|p| std::mem::take(p).into_plane());
            let [r, g, b] = &mut whole;
            inverse_rct(&mut r.samples, &mut g.samples, &mut b.samples);
            for (plane, whole) in planes.iter_mut().zip(whole) {
                *plane = Decoded::Wide(Synthesis::whole(whole));
            }
        }
    }
    Ok(Components {
        planes,
        rct_rows: rct_rows.then_some(None),
    })
}

/// One tile-component: its code-blocks decoded into their bands, and the
/// bands joined, lowest resolution first; the last level's rows kept
/// `by_rows`, to be made as they are asked for.
fn tile_component<T: Coefficient>(
    resolutions: &[Resolution],
    coded: &[Bands],
    by_rows: bool,
) -> Result<Synthesis<T>> {
    let mut joined: Option<Synthesis<T>> = None;
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
            (None, [Some(ll), None, None, None]) => Synthesis::whole(ll),
            (Some(low), [Some(hl), Some(lh), Some(hh), None])
                if [low.rect(), hl.rect, lh.rect, hh.rect] == bands(resolution.rect) =>
            {
                let last = std::ptr::eq(resolution, resolutions.last().expect("one"));
                let low = low.into_plane();
                Synthesis::new([low, hl, lh, hh], resolution.rect, by_rows && last)
            }
            _ => return Err(Error::Internal("HTJ2K: a resolution of other bands".into())),
        });
    }
    joined.ok_or_else(|| Error::Internal("HTJ2K: a tile-component without resolutions".into()))
}

/// Puts the tile-component `tile` into the component `plane` (moved there
/// when it is the whole component, as in a codestream of one tile).
fn place<T: Coefficient>(tile: Synthesis<T>, plane: &mut Synthesis<T>) {
    if tile.rect() == plane.rect() {
        std::mem::replace(plane, tile).recycle();
        return;
    }
    let tile = tile.into_plane();
    let mut whole = std::mem::take(plane).into_plane();
    if whole.samples.is_empty() {
        whole = Plane::zeros(whole.rect);
    }
    let Rect { x0, y0, x1, y1 } = tile.rect;
    let (w, pw) = ((x1 - x0) as usize, (whole.rect.x1 - whole.rect.x0) as usize);
    for y in y0..y1 {
        let from = (y - y0) as usize * w;
        let to = (y - whole.rect.y0) as usize * pw + (x0 - whole.rect.x0) as usize;
        whole.samples[to..to + w].copy_from_slice(&tile.samples[from..from + w]);
    }
    tile.recycle();
    *plane = Synthesis::whole(whole);
}
