//! A codestream decoded to its components' integer samples: each tile's
//! code-blocks into their subbands, the subbands through the wavelet, the
//! tiles into their components, and the color transform undone.

use super::block;
use super::color::inverse_rct;
use super::geometry::{self, Band, Resolution};
use super::markers::{Codestream, Component, Rect};
use super::packets::{self, Bands, Block};
use super::wavelet::{Coefficient, Plane, Synthesis, bands};
use crate::{Error, Result};

/// A component's samples over the whole image (before the DC level shift
/// and NLT), in the narrowest integers that hold them: whole, or its last
/// level's rows as they are asked for ([`Synthesis`]), that level's
/// code-blocks decoded as the rows come to them.
pub(super) struct Decoded<'a> {
    samples: Samples,
    /// The last level's code-blocks not decoded yet.
    pending: Option<Pending<'a>>,
}

enum Samples {
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

impl<'a> Decoded<'a> {
    /// An empty component of `rect`, filled by its tiles.
    fn new(rect: Rect, component: &Component) -> Self {
        let samples = if component.depth <= 16 {
            Samples::Narrow(Synthesis::whole(Plane {
                rect,
                samples: Vec::new(),
            }))
        } else {
            Samples::Wide(Synthesis::whole(Plane {
                rect,
                samples: Vec::new(),
            }))
        };
        Decoded {
            samples,
            pending: None,
        }
    }

    fn rect(&self) -> Rect {
        match &self.samples {
            Samples::Narrow(p) => p.rect(),
            Samples::Wide(p) => p.rect(),
        }
    }

    fn wide(&self) -> bool {
        matches!(self.samples, Samples::Wide(_))
    }

    /// Tile `tile` (`resolutions`, `coded`) decoded into the component;
    /// its last level's rows kept `by_rows`.
    fn place(
        &mut self,
        resolutions: &[Resolution],
        coded: Vec<Bands<'a>>,
        by_rows: bool,
    ) -> Result<()> {
        self.pending = match &mut self.samples {
            Samples::Narrow(plane) => {
                let (tile, pending) = tile_component(resolutions, coded, by_rows)?;
                place(tile, plane);
                pending
            }
            Samples::Wide(plane) => {
                let (tile, pending) = tile_component(resolutions, coded, by_rows)?;
                place(tile, plane);
                pending
            }
        };
        Ok(())
    }

    /// The whole component in 64-bit integers (of a component kept whole).
    fn widen(&mut self) {
        if let Samples::Narrow(p) = &mut self.samples {
            let rect = p.rect();
            let narrow = std::mem::take(p).into_plane();
            let samples = narrow.samples.iter().map(|&v| i64::from(v)).collect();
            narrow.recycle();
            self.samples = Samples::Wide(Synthesis::whole(Plane { rect, samples }));
        }
    }

    /// The whole component (of a component kept whole), to be changed.
    fn whole(&mut self) -> Option<&mut Vec<i64>> {
        match &mut self.samples {
            Samples::Wide(p) => p.whole_mut(),
            Samples::Narrow(_) => None,
        }
    }

    /// Line `y`, `None` past the last.
    fn line(&mut self, y: usize) -> Result<Option<Line<'_>>> {
        Ok(match &mut self.samples {
            Samples::Narrow(p) => row(p, &mut self.pending, y)?.map(|r| Line::Narrow(r)),
            Samples::Wide(p) => row(p, &mut self.pending, y)?.map(|r| Line::Wide(r)),
        })
    }

    /// Line `y` of a narrow component, to be changed.
    fn narrow_row(&mut self, y: usize) -> Result<Option<&mut [i32]>> {
        match &mut self.samples {
            Samples::Narrow(p) => row(p, &mut self.pending, y),
            Samples::Wide(_) => Err(Error::Internal(
                "HTJ2K: a color transform by rows over 32-bit components".into(),
            )),
        }
    }

    /// Gives the samples to this thread's pool ([`Synthesis::recycle`]).
    fn recycle(self) {
        match self.samples {
            Samples::Narrow(p) => p.recycle(),
            Samples::Wide(p) => p.recycle(),
        }
    }
}

/// Row `y` of `synthesis`, the code-blocks `pending` its synthesis reads
/// decoded first.
fn row<'s, T: Coefficient>(
    synthesis: &'s mut Synthesis<T>,
    pending: &mut Option<Pending>,
    y: usize,
) -> Result<Option<&'s mut [T]>> {
    if let Some(pending) = pending {
        let rows = synthesis.band_rows(y);
        if let Some(bands) = synthesis.bands_mut() {
            pending.decode(bands, rows)?;
        }
    }
    Ok(synthesis.row(y))
}

/// The code-blocks of a component's last level (its HL, LH and HH bands)
/// decoded a row of code-blocks at a time, as the synthesis comes to
/// them: the bands' rows are then read while they are in cache.
struct Pending<'a> {
    /// HL, LH and HH.
    bands: [PendingBand<'a>; 3],
    workspace: Box<block::Workspace>,
}

/// A band of the last level and its code-blocks, decoded up to a row of
/// them.
struct PendingBand<'a> {
    band: Band,
    blocks: Vec<Option<Block<'a>>>,
    /// The next row of code-blocks to decode.
    next: u32,
}

impl Pending<'_> {
    /// Decodes at least the first `rows` rows of each band (all it has,
    /// where fewer) into `[ll, hl, lh, hh]`.
    fn decode<T: Coefficient>(&mut self, planes: &mut [Plane<T>; 4], rows: usize) -> Result<()> {
        for (pending, plane) in self.bands.iter_mut().zip(&mut planes[1..]) {
            let PendingBand { band, blocks, next } = pending;
            // The band's rows its decoded code-blocks cover.
            let done = |next: u32| match next.checked_sub(1) {
                Some(last) => (band.block_rect(0, last).y1 - band.rect.y0) as usize,
                None => 0,
            };
            while done(*next) < rows && *next < band.blocks.1 {
                decode_blocks(band, blocks, *next, plane, &mut self.workspace)?;
                *next += 1;
            }
        }
        Ok(())
    }
}

/// Decodes row `j` of `band`'s code-blocks `blocks` into `plane`.
fn decode_blocks<T: Coefficient>(
    band: &Band,
    blocks: &[Option<Block>],
    j: u32,
    plane: &mut Plane<T>,
    workspace: &mut block::Workspace,
) -> Result<()> {
    let stride = (band.rect.x1 - band.rect.x0) as usize;
    for i in 0..band.blocks.0 {
        let block = blocks
            .get((j * band.blocks.0 + i) as usize)
            .ok_or_else(|| {
                Error::Internal("HTJ2K: a band of fewer code-blocks than its grid".into())
            })?;
        let area = band.block_rect(i, j);
        let at = (area.y0 - band.rect.y0) as usize * stride + (area.x0 - band.rect.x0) as usize;
        let (w, h) = ((area.x1 - area.x0) as usize, (area.y1 - area.y0) as usize);
        let out = &mut plane.samples[at..];
        match block {
            Some(block) => block::decode(block, w, h, out, stride, workspace)?,
            // Those the codestream leaves out are zeros.
            None => {
                for row in (0..h).map(|y| y * stride) {
                    out[row..row + w].fill(T::default());
                }
            }
        }
    }
    Ok(())
}

/// A codestream's components, decoded.
pub(super) struct Components<'a> {
    planes: Vec<Decoded<'a>>,
    /// Where the color transform is undone a line at a time (components
    /// 0 to 2 narrow and made as asked for): the line it was last undone
    /// on.
    rct_rows: Option<Option<usize>>,
}

impl Components<'_> {
    /// Line `y` of component `c` (the color transform undone), `None`
    /// past its last line. Each component's lines are asked for in order.
    pub(super) fn line(&mut self, c: usize, y: usize) -> Result<Option<Line<'_>>> {
        if let Some(done) = &mut self.rct_rows
            && c < 3
            && *done != Some(y)
        {
            let [r, g, b, ..] = &mut self.planes[..] else {
                return Err(Error::Internal(
                    "HTJ2K: a color transform without three components".into(),
                ));
            };
            if let (Some(r), Some(g), Some(b)) =
                (r.narrow_row(y)?, g.narrow_row(y)?, b.narrow_row(y)?)
            {
                inverse_rct(r, g, b);
            }
            *done = Some(y);
        }
        match self.planes.get_mut(c) {
            Some(plane) => plane.line(y),
            None => Ok(None),
        }
    }

    /// Gives the samples to this thread's pool.
    pub(super) fn recycle(self) {
        for plane in self.planes {
            plane.recycle();
        }
    }
}

/// Per component, its samples over the whole image.
pub(super) fn components<'a>(codestream: &Codestream<'a>) -> Result<Components<'a>> {
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
        for ((resolutions, coded), plane) in shapes.iter().zip(blocks).zip(&mut planes) {
            plane.place(resolutions, coded, by_rows)?;
        }
    }
    if transform && !rct_rows {
        for plane in &mut planes[..3] {
            plane.widen();
        }
        if let [r, g, b, ..] = &mut planes[..]
            && let (Some(r), Some(g), Some(b)) = (r.whole(), g.whole(), b.whole())
        {
            inverse_rct(r, g, b);
        }
    }
    Ok(Components {
        planes,
        rct_rows: rct_rows.then_some(None),
    })
}

/// One tile-component: its code-blocks decoded into their bands, and the
/// bands joined, lowest resolution first; the last level's rows kept
/// `by_rows`, to be made as they are asked for, and its code-blocks then
/// left to decode as the rows come to them.
fn tile_component<'a, T: Coefficient>(
    resolutions: &[Resolution],
    coded: Vec<Bands<'a>>,
    by_rows: bool,
) -> Result<(Synthesis<T>, Option<Pending<'a>>)> {
    let mut joined: Option<Synthesis<T>> = None;
    let mut workspace = block::Workspace::new();
    let levels = resolutions.len();
    for (level, (resolution, coded_bands)) in resolutions.iter().zip(coded).enumerate() {
        // The last level's rows by rows; its code-blocks decoded then.
        let lazy = by_rows && level + 1 == levels && level > 0;
        let planes = resolution
            .bands
            .iter()
            .zip(&coded_bands)
            .map(|(band, blocks)| {
                // Each code-block writes every sample of its area.
                let mut plane = Plane::reused(band.rect);
                if !lazy {
                    for j in 0..band.blocks.1 {
                        decode_blocks(band, blocks, j, &mut plane, &mut workspace)?;
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
                let low = low.into_plane();
                Synthesis::new([low, hl, lh, hh], resolution.rect, lazy)
            }
            _ => return Err(Error::Internal("HTJ2K: a resolution of other bands".into())),
        });
        if lazy {
            let joined = joined.expect("joined");
            // Three bands, as the match above found.
            let [hl, lh, hh]: [Vec<_>; 3] = coded_bands
                .try_into()
                .map_err(|_| Error::Internal("HTJ2K: a resolution of other bands".into()))?;
            let pending = |k: usize, blocks| PendingBand {
                band: resolution.bands[k].clone(),
                blocks,
                next: 0,
            };
            let bands = [pending(0, hl), pending(1, lh), pending(2, hh)];
            return Ok((joined, Some(Pending { bands, workspace })));
        }
    }
    let joined = joined
        .ok_or_else(|| Error::Internal("HTJ2K: a tile-component without resolutions".into()))?;
    Ok((joined, None))
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
