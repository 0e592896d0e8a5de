//! A part of a file: its header, how its pixels are stored (scan lines or
//! tiles, flat or deep), its levels, and where each of its chunks is in
//! its offset table. A single-part file is a file of one part.

use super::attribute::AttributeValue;
use super::attribute::Window;
use super::chunk::{self, samples};
use super::header::{Header, Headers, check_sampling_fits};
use super::method::Compression;
use super::tile::{Level, Tiles};
use crate::{Error, Result};

/// How a part stores its pixels: its `type` attribute.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Storage {
    /// `scanlineimage`: chunks of whole lines.
    ScanLines,
    /// `tiledimage`: rectangular tiles, in one level or several.
    Tiles(Tiles),
    /// `deepscanline`: any number of samples per pixel, in chunks of lines.
    DeepScanLines,
    /// `deeptile`: any number of samples per pixel, in tiles.
    DeepTiles(Tiles),
}

impl Storage {
    /// The `type` attribute's value.
    pub fn type_name(&self) -> &'static str {
        match self {
            Storage::ScanLines => "scanlineimage",
            Storage::Tiles(_) => "tiledimage",
            Storage::DeepScanLines => "deepscanline",
            Storage::DeepTiles(_) => "deeptile",
        }
    }

    /// The tiles of a tiled part.
    pub fn tiles(&self) -> Option<Tiles> {
        match *self {
            Storage::Tiles(t) | Storage::DeepTiles(t) => Some(t),
            _ => None,
        }
    }

    /// Whether the part holds deep samples.
    pub fn is_deep(&self) -> bool {
        matches!(self, Storage::DeepScanLines | Storage::DeepTiles(_))
    }
}

/// A part: its header and its geometry, checked.
#[derive(Clone, Debug)]
pub struct Part {
    header: Header,
    storage: Storage,
    method: Compression,
    window: Window,
    /// Bytes per sample and x, y sampling of each channel, in channel order.
    pub(crate) sizes: Vec<usize>,
    pub(crate) sampling: Vec<(i32, i32)>,
    levels: Vec<Level>,
    /// The index in the offset table of each level's first chunk.
    level_start: Vec<usize>,
    chunks: usize,
}

/// One chunk a read needs: its place in its part's offset table, the
/// rectangle it covers (absolute coordinates of its level) and the
/// coordinates its prefix repeats (y; or tile x, y and level x, y).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ChunkRef {
    pub index: usize,
    pub x: i32,
    pub y: i32,
    pub width: usize,
    pub lines: usize,
    pub coords: [i32; 4],
}

/// Chunks that share their lines (one chunk of scan lines, or one row of
/// tiles): the unit a read decodes on one thread, into rows of the output
/// no other band writes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Band {
    pub y: i32,
    pub lines: usize,
    pub chunks: Vec<ChunkRef>,
}

impl Part {
    /// Checks the header of part `index` of a file whose headers are `file`.
    pub(crate) fn new(header: Header, file: &Headers) -> Result<Self> {
        let storage = storage(&header, file)?;
        let method = header.compression()?;
        let window = header.data_window()?;
        if window.width() == 0 || window.height() == 0 {
            return Err(Error::corrupt("the data window is empty"));
        }
        let channels = header.channels()?;
        check_sampling_fits(channels, &window)?;
        let (sizes, sampling) = chunk::shapes_of(channels);
        // Sides past 2^31 pixels cannot be addressed by the chunks' i32s.
        let (width, height) = (window.width(), window.height());
        if width > i32::MAX as u64 || height > i32::MAX as u64 {
            return Err(Error::corrupt(
                "the data window is larger than 2^31 pixels a side",
            ));
        }
        let levels = match storage.tiles() {
            Some(tiles) => tiles.levels(&window),
            None => vec![Level {
                x: 0,
                y: 0,
                width: width as usize,
                height: height as usize,
            }],
        };
        let mut level_start = Vec::with_capacity(levels.len());
        let mut chunks = 0usize;
        for level in &levels {
            level_start.push(chunks);
            let (across, down) = match storage.tiles() {
                Some(tiles) => tiles.count(level),
                None => (1, level.height.div_ceil(method.lines_per_chunk())),
            };
            chunks = across
                .checked_mul(down)
                .and_then(|n| chunks.checked_add(n))
                .ok_or(Error::corrupt(
                    "the part has more chunks than memory can count",
                ))?;
        }
        if let Some(AttributeValue::Int(stated)) = header.get("chunkCount")
            && i64::from(*stated) != chunks as i64
        {
            return Err(Error::corrupt(
                "the chunkCount attribute does not match the part's size and tiles",
            ));
        }
        Ok(Part {
            header,
            storage,
            method,
            window,
            sizes,
            sampling,
            levels,
            level_start,
            chunks,
        })
    }

    /// The header.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// The `name` attribute (every part of a multi-part file has one).
    pub fn name(&self) -> Option<&str> {
        match self.header.get("name") {
            Some(AttributeValue::String(s)) => std::str::from_utf8(s).ok(),
            _ => None,
        }
    }

    /// The `view` attribute: the view a part of a stereo file belongs to.
    pub fn view(&self) -> Option<&str> {
        match self.header.get("view") {
            Some(AttributeValue::String(s)) => std::str::from_utf8(s).ok(),
            _ => None,
        }
    }

    /// How the part is stored.
    pub fn storage(&self) -> Storage {
        self.storage
    }

    /// The part's compression method.
    pub fn compression(&self) -> Compression {
        self.method
    }

    /// Whether oxport decodes the part's method: an `Unsupported` error
    /// naming it when not. The rest of what reading needs was checked when
    /// the part was opened.
    pub(crate) fn check_readable(&self) -> Result<()> {
        if self.method.can_read() {
            Ok(())
        } else if self.method == Compression::Lj2k {
            Err(Error::Unsupported(
                "lj2k compression (OpenEXR 3.5's experimental lossy HTJ2K): its irreversible \
                 wavelet is floating-point arithmetic whose rounding oxport does not reproduce \
                 bit for bit, so it refuses rather than give other pixels than OpenEXR"
                    .into(),
            ))
        } else {
            Err(Error::Unsupported(
                format!(
                    "{} compression: oxport reads {}",
                    self.method,
                    Compression::readable_names()
                )
                .into(),
            ))
        }
    }

    /// The data window of level (0, 0).
    pub fn data_window(&self) -> Window {
        self.window
    }

    /// The levels, in the order of the offset table (one for scan lines).
    pub fn levels(&self) -> &[Level] {
        &self.levels
    }

    /// The position in [`Part::levels`] of level (`x`, `y`).
    pub fn level_index(&self, x: usize, y: usize) -> Option<usize> {
        self.levels.iter().position(|l| l.x == x && l.y == y)
    }

    /// The data window of level `index`: it starts where level (0, 0) does.
    pub fn level_window(&self, index: usize) -> Window {
        let level = self.levels[index];
        Window {
            x_min: self.window.x_min,
            y_min: self.window.y_min,
            x_max: (i64::from(self.window.x_min) + level.width as i64 - 1) as i32,
            y_max: (i64::from(self.window.y_min) + level.height as i64 - 1) as i32,
        }
    }

    /// Entries in the part's offset table: its chunks.
    pub fn chunk_count(&self) -> usize {
        self.chunks
    }

    /// The uncompressed bytes of level (0, 0), for checks against the file.
    pub(crate) fn raw_bytes(&self) -> u64 {
        let (w, h) = (self.window.width(), self.window.height());
        (0..self.sizes.len())
            .map(|c| {
                let (xs, ys) = self.sampling[c];
                let across = samples(self.window.x_min, w as usize, xs) as u64;
                let down = samples(self.window.y_min, h as usize, ys) as u64;
                across
                    .saturating_mul(down)
                    .saturating_mul(self.sizes[c] as u64)
            })
            .fold(0u64, u64::saturating_add)
    }

    /// Bytes of the 8-byte-aligned prefix each chunk starts with, after the
    /// part number of a multi-part file: y or the tile's four coordinates,
    /// then the data's size (deep: three sizes of 8 bytes).
    pub(crate) fn prefix_len(&self) -> usize {
        let coords = if self.storage.tiles().is_some() {
            16
        } else {
            4
        };
        coords + if self.storage.is_deep() { 24 } else { 4 }
    }

    /// The integers that start a chunk of this part, before its sizes:
    /// the part's `number` in a multi-part file, then the chunk's first
    /// line, or its tile and level.
    pub(crate) fn chunk_prefix(&self, number: Option<i32>, chunk: &ChunkRef) -> Vec<i32> {
        let coords = if self.storage.tiles().is_some() { 4 } else { 1 };
        number
            .into_iter()
            .chain(chunk.coords[..coords].iter().copied())
            .collect()
    }

    /// The table index of the chunk whose prefix holds `coords` (y, or tile
    /// x, y, level x, y), if the part has one.
    pub(crate) fn index_of(&self, coords: [i32; 4]) -> Option<usize> {
        match self.storage.tiles() {
            None => {
                let lines = self.method.lines_per_chunk() as i64;
                let from_top = i64::from(coords[0]) - i64::from(self.window.y_min);
                (from_top >= 0 && from_top % lines == 0)
                    .then(|| (from_top / lines) as usize)
                    .filter(|&i| i < self.chunks)
            }
            Some(tiles) => {
                let [tx, ty, lx, ly] = coords.map(|c| usize::try_from(c).ok());
                let level = self.level_index(lx?, ly?)?;
                let (across, down) = tiles.count(&self.levels[level]);
                let (tx, ty) = (tx?, ty?);
                (tx < across && ty < down).then(|| self.level_start[level] + ty * across + tx)
            }
        }
    }

    /// The bands that cover `window` (absolute coordinates, inside the
    /// level's data window) of level `level`, top to bottom.
    pub(crate) fn bands(&self, level: usize, window: &Window) -> Vec<Band> {
        let origin = self.level_window(level);
        let (x_min, y_min) = (i64::from(origin.x_min), i64::from(origin.y_min));
        let top = (i64::from(window.y_min) - y_min) as usize;
        let bottom = (i64::from(window.y_max) - y_min) as usize;
        let Level { width, height, .. } = self.levels[level];
        match self.storage.tiles() {
            None => {
                let lines = self.method.lines_per_chunk();
                (top / lines..=bottom / lines)
                    .map(|i| {
                        let y = (y_min + (i * lines) as i64) as i32;
                        let lines = lines.min(height - i * lines);
                        Band {
                            y,
                            lines,
                            chunks: vec![ChunkRef {
                                index: i,
                                x: origin.x_min,
                                y,
                                width,
                                lines,
                                coords: [y, 0, 0, 0],
                            }],
                        }
                    })
                    .collect()
            }
            Some(tiles) => {
                let (tw, th) = (tiles.width as usize, tiles.height as usize);
                let (across, _) = tiles.count(&self.levels[level]);
                let left = (i64::from(window.x_min) - x_min) as usize / tw;
                let right = (i64::from(window.x_max) - x_min) as usize / tw;
                let l = self.levels[level];
                (top / th..=bottom / th)
                    .map(|ty| {
                        let y = (y_min + (ty * th) as i64) as i32;
                        let lines = th.min(height - ty * th);
                        let chunks = (left..=right)
                            .map(|tx| ChunkRef {
                                index: self.level_start[level] + ty * across + tx,
                                x: (x_min + (tx * tw) as i64) as i32,
                                y,
                                width: tw.min(width - tx * tw),
                                lines,
                                coords: [tx as i32, ty as i32, l.x as i32, l.y as i32],
                            })
                            .collect();
                        Band { y, lines, chunks }
                    })
                    .collect()
            }
        }
    }
}

/// How the part of `header` stores its pixels.
fn storage(header: &Header, file: &Headers) -> Result<Storage> {
    let tiles = || {
        header
            .get("tiles")
            .ok_or(Error::corrupt("a tiled part has no tiles attribute"))
            .and_then(Tiles::from_attribute)
    };
    let type_name = match header.get("type") {
        Some(AttributeValue::String(s)) => Some(s.as_slice()),
        Some(_) => return Err(Error::corrupt("the type attribute is not a string")),
        None if file.multipart => {
            return Err(Error::corrupt(
                "a part of a multi-part file has no type attribute",
            ));
        }
        None => None,
    };
    Ok(match type_name {
        Some(b"scanlineimage") => Storage::ScanLines,
        Some(b"tiledimage") => Storage::Tiles(tiles()?),
        Some(b"deepscanline") => Storage::DeepScanLines,
        Some(b"deeptile") => Storage::DeepTiles(tiles()?),
        Some(other) => {
            return Err(Error::Unsupported(
                format!(
                    "part type {:?} (OpenEXR 3.5 defines scanlineimage, tiledimage, deepscanline and deeptile)",
                    String::from_utf8_lossy(other)
                )
                .into(),
            ));
        }
        // An old single-part file: the version field says.
        None => match (file.tiled, file.deep) {
            (false, false) => Storage::ScanLines,
            (true, false) => Storage::Tiles(tiles()?),
            (false, true) => Storage::DeepScanLines,
            (true, true) => Storage::DeepTiles(tiles()?),
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exr::attribute::{Channel, PixelType};
    use crate::exr::method::Compression;

    fn single(header: Header) -> Headers {
        Headers {
            parts: vec![header],
            multipart: false,
            tiled: false,
            deep: false,
            end: 0,
        }
    }

    #[test]
    fn a_sampling_of_zero_or_one_that_does_not_divide_is_refused() {
        // Found by the exr_read fuzz target: x sampling 0 divided by zero.
        for sampling in [0, -2, 3] {
            let mut channel = Channel::new("Y", PixelType::Half);
            channel.x_sampling = sampling;
            let header = Header::new(4, 4, vec![channel], Compression::Zip).unwrap();
            let file = single(header.clone());
            assert!(
                matches!(Part::new(header, &file), Err(Error::Corrupt { .. })),
                "{sampling}"
            );
        }
    }

    #[test]
    fn tile_indices_follow_the_levels() {
        let mut header = Header::new(
            9,
            5,
            vec![Channel::new("Y", PixelType::Half)],
            Compression::Zip,
        )
        .unwrap();
        let tiles = Tiles {
            width: 4,
            height: 4,
            mode: super::super::tile::LevelMode::Mipmap,
            rounding: super::super::tile::Rounding::Down,
        };
        header.set("tiles", tiles.to_attribute());
        header.set("type", AttributeValue::String(b"tiledimage".to_vec()));
        let part = Part::new(header.clone(), &single(header)).unwrap();
        // Levels 9×5 (3×2 tiles), 4×2 (1×1), 2×1 (1×1), 1×1 (1×1).
        assert_eq!(part.levels().len(), 4);
        assert_eq!(part.chunk_count(), 6 + 1 + 1 + 1);
        assert_eq!(part.index_of([2, 1, 0, 0]), Some(5));
        assert_eq!(part.index_of([0, 0, 3, 3]), Some(8));
        assert_eq!(part.index_of([3, 0, 0, 0]), None);
        assert_eq!(part.index_of([0, 0, 1, 0]), None);
        let window = Window {
            x_min: 5,
            y_min: 1,
            x_max: 8,
            y_max: 4,
        };
        let bands = part.bands(0, &window);
        assert_eq!(bands.len(), 2);
        assert_eq!(
            bands[1].chunks.iter().map(|c| c.index).collect::<Vec<_>>(),
            [4, 5]
        );
        assert_eq!((bands[1].chunks[1].width, bands[1].lines), (1, 1));
    }
}
