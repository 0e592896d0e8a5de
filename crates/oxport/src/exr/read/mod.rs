//! Reading: the headers, every part's offset table, then the chunks a read
//! needs, read and decompressed in parallel, straight into the rows of
//! each plane they hold. A read is one part, one level, any of its
//! channels and any window of it: only the chunks that cover the window
//! are fetched. The passes, a file each: `plan.rs` (the selection checked,
//! the bands of chunks that cover it), `locate.rs` (where each chunk lies),
//! `decode.rs` (the chunks read and decoded into the planes).

use std::path::{Path, PathBuf};

mod decode;
mod locate;
mod plan;

pub(super) use plan::Plan;

use super::Image;
use super::attribute::Window;
use super::header::{Header, Headers};
use super::method::Compression;
use super::offsets::{self, Span};
use super::part::{Band, Part};
use crate::source::Source;
use crate::{Error, Result};
use locate::table_spans;

/// How to read.
#[derive(Clone, Debug, Default)]
pub struct ReadOptions {
    /// Threads decompressing chunks (`None`: one per core).
    pub threads: Option<usize>,
}

/// What to read: a part, one of its levels, some of its channels, a
/// window of its pixels.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Selection {
    /// The part's index.
    pub part: usize,
    /// The level, across and down ((0, 0): the image itself).
    pub level: (usize, usize),
    /// Channels by their index in the part's `channels`, in the order
    /// wanted (`None`: every channel).
    pub channels: Option<Vec<usize>>,
    /// The pixels wanted, in the level's coordinates (`None`: the level's
    /// whole data window).
    pub window: Option<Window>,
}

/// The shape of one plane a read fills: `height` rows of `width` samples
/// of `sample_size` bytes (a subsampled channel has fewer than the window
/// has pixels).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// The channel's index in the part's `channels`.
    pub channel: usize,
    /// Width of the plane in samples.
    pub width: usize,
    /// Height of the plane in samples.
    pub height: usize,
    /// Bytes a sample (2 for a half, 4 otherwise).
    pub sample_size: usize,
}

impl Shape {
    /// The plane's size in bytes.
    pub fn bytes(&self) -> usize {
        self.width * self.height * self.sample_size
    }
}

/// The most uncompressed bytes a compressed byte of `method` can stand for
/// (RLE: 2 bytes for 128; deflate: 1032; zstd: 32768 with block overhead):
/// a data window larger than the file could hold is refused before
/// anything is allocated.
pub(super) fn max_ratio(method: Compression) -> u64 {
    match method {
        Compression::None => 1,
        Compression::Rle => 64,
        Compression::Zip | Compression::Zips => crate::codec::deflate::MAX_RATIO,
        _ => 32_768,
    }
}

/// Reads the first part of the OpenEXR file at `path` (or, with the
/// `remote` feature, a URL) whole: the headers, the offset tables, then
/// each chunk by the thread that decodes it (the file is never in memory
/// whole).
pub fn read(path: &Path, options: &ReadOptions) -> Result<Image> {
    Reader::open(path)?.read(options)
}

/// Reads the first part of an OpenEXR file held in memory.
pub fn read_bytes(file: &[u8], options: &ReadOptions) -> Result<Image> {
    read_from(file, options)
}

/// Reads the first part of an OpenEXR file from any [`Source`] (a file,
/// memory, a remote object).
pub fn read_from<S: Source>(source: S, options: &ReadOptions) -> Result<Image> {
    Reader::new(source)?.read(options)
}

/// A file whose headers and offset tables are read and checked, its pixels
/// not yet: reads of parts, levels, channels and windows fetch only the
/// chunks they need.
pub struct Reader<S> {
    source: S,
    /// The file's path, for errors.
    path: Option<PathBuf>,
    size: u64,
    multipart: bool,
    parts: Vec<Part>,
    /// Each part's chunks where its offset table says, each reaching to
    /// the next chunk of any part; `None` when an entry points outside the
    /// chunks (the chunks are then found by walking the file).
    spans: Option<Vec<Vec<Span>>>,
    first_chunk: u64,
}

impl Reader<Box<dyn Source>> {
    /// Opens the file at `path` (with the `remote` feature, or the object a
    /// URL names, whose chunks are then fetched by byte range); its errors
    /// name it.
    pub fn open(path: &Path) -> Result<Self> {
        let source = crate::source::open_with_head(path, HEADERS)?;
        let mut reader = Reader::new(source).map_err(|e| e.at_path(path))?;
        reader.path = Some(path.to_path_buf());
        Ok(reader)
    }
}

impl<S: Source> Reader<S> {
    /// The size of the file in bytes.
    pub fn size(&self) -> u64 {
        self.size
    }

    /// Reads the headers and the offset tables of `source`.
    pub fn new(source: S) -> Result<Self> {
        let size = source.size()?;
        let file = read_headers(&source, size)?;
        let (multipart, end) = (file.multipart, file.end as u64);
        let parts = file
            .parts
            .iter()
            .cloned()
            .map(|header| Part::new(header, &file))
            .collect::<Result<Vec<_>>>()?;
        for part in &parts {
            // A deep part's count table holds 4 bytes per pixel.
            let raw = if part.storage().is_deep() {
                let window = part.data_window();
                window
                    .width()
                    .saturating_mul(window.height())
                    .saturating_mul(4)
            } else {
                part.raw_bytes()
            };
            if raw > size.saturating_mul(max_ratio(part.compression())) {
                return Err(Error::corrupt(
                    "the data window is larger than the file could hold",
                ));
            }
        }
        let mut tables = Vec::with_capacity(parts.len());
        let mut at = end;
        for part in &parts {
            let table = offsets::read_table(&source, size, at, part.chunk_count())?;
            at += 8 * table.len() as u64;
            tables.push(table);
        }
        let spans = table_spans(&tables, at, size);
        Ok(Reader {
            source,
            path: None,
            size,
            multipart,
            parts,
            spans,
            first_chunk: at,
        })
    }

    /// The parts, in file order (one for a single-part file).
    pub fn parts(&self) -> &[Part] {
        &self.parts
    }

    /// Whether the file is multi-part (its chunks name their part).
    pub fn is_multipart(&self) -> bool {
        self.multipart
    }

    /// The first part's header.
    pub fn header(&self) -> &Header {
        self.parts[0].header()
    }

    /// The size in bytes of each plane of the first part, in the header's
    /// order.
    pub fn plane_sizes(&self) -> Vec<usize> {
        self.shapes(&Selection::default())
            .map(|shapes| shapes.iter().map(Shape::bytes).collect())
            .unwrap_or_default()
    }

    /// Reads the first part whole (level (0, 0) of a tiled one) into new
    /// planes.
    pub fn read(self, options: &ReadOptions) -> Result<Image> {
        let planes = self.read_selection(&Selection::default(), options)?;
        let header = self
            .parts
            .into_iter()
            .next()
            .expect("one part")
            .header()
            .clone();
        Ok(Image { header, planes })
    }

    /// Reads the first part whole into `planes`, one per channel of the
    /// sizes [`Reader::plane_sizes`] gives. Every byte of every plane is
    /// written when this returns `Ok`.
    pub fn read_into(&self, planes: &mut [&mut [u8]], options: &ReadOptions) -> Result<()> {
        self.read_selection_into(&Selection::default(), planes, options)
    }

    /// The planes `selection` reads, in its order of channels; an error
    /// when it names a part, level, channel or window the file does not have.
    pub fn shapes(&self, selection: &Selection) -> Result<Vec<Shape>> {
        Ok(self.resolve(selection)?.shapes)
    }

    /// Reads `selection` into new planes.
    pub fn read_selection(
        &self,
        selection: &Selection,
        options: &ReadOptions,
    ) -> Result<Vec<Vec<u8>>> {
        let mut planes: Vec<Vec<u8>> = self
            .shapes(selection)?
            .iter()
            .map(|s| vec![0u8; s.bytes()])
            .collect();
        let mut slices: Vec<&mut [u8]> = planes.iter_mut().map(Vec::as_mut_slice).collect();
        self.read_selection_into(selection, &mut slices, options)?;
        Ok(planes)
    }

    /// Reads `selection` into `planes`, of the sizes [`Reader::shapes`]
    /// gives. Every byte of every plane is written when this returns `Ok`.
    pub fn read_selection_into(
        &self,
        selection: &Selection,
        planes: &mut [&mut [u8]],
        options: &ReadOptions,
    ) -> Result<()> {
        let plan = self.resolve(selection)?;
        if planes.len() != plan.shapes.len()
            || planes
                .iter()
                .zip(&plan.shapes)
                .any(|(p, s)| p.len() != s.bytes())
        {
            return Err(Error::invalid(format!(
                "planes of {:?} bytes needed, {:?} given",
                plan.shapes.iter().map(Shape::bytes).collect::<Vec<_>>(),
                planes.iter().map(|p| p.len()).collect::<Vec<_>>()
            )));
        }
        self.decode(&plan, planes, options)
    }

    /// The source, for the deep reader.
    pub(super) fn source(&self) -> &S {
        &self.source
    }

    /// Runs `work` on the spans of part `part`'s chunks as its table gives
    /// them, and again on the spans found by walking the file when a chunk
    /// read from the table's spans is corrupt (whatever the message: the
    /// decision is the spans', not a text's). I/O errors name the file.
    pub(super) fn with_spans<T>(
        &self,
        part: usize,
        mut work: impl FnMut(&[Span]) -> Result<T>,
    ) -> Result<T> {
        let result = match &self.spans {
            // Spans from the table are guesses (a writer may have left it
            // wrong): a chunk that does not read where it says is looked
            // for again by walking the file, and its error is the walk's.
            Some(spans) => match work(&spans[part]) {
                Err(Error::Corrupt { .. }) if spans[part].iter().any(|s| !s.exact) => {
                    self.walk().and_then(|spans| work(&spans[part]))
                }
                other => other,
            },
            None => self.walk().and_then(|spans| work(&spans[part])),
        };
        result.map_err(|e| match &self.path {
            Some(path) => e.at_path(path),
            None => e,
        })
    }
}

/// How many bytes the headers are read in first: most files' headers, and
/// their offset tables, lie in them.
const HEADERS: usize = 64 << 10;

/// Reads the headers: the first [`HEADERS`] bytes, or more when they run
/// past them.
fn read_headers<S: Source + ?Sized>(source: &S, size: u64) -> Result<Headers> {
    let mut len = size.min(HEADERS as u64);
    loop {
        // At most the file's size.
        let mut head = vec![0u8; len as usize];
        source.read_exact_at(&mut head, 0)?;
        match Headers::read(&head) {
            Err(Error::Corrupt { .. }) if len < size => len = size.min(len * 4),
            found => return found,
        }
    }
}

/// What a table entry that does not point at its chunk reports (the
/// reader then walks the file: [`Reader::with_spans`]).
pub(super) const BROKEN: &str = "an offset table entry does not point at its chunk";

/// The lines of `band` inside `window`: first, and one past the last.
pub(super) fn band_lines(band: &Band, window: &Window) -> (i32, i32) {
    let top = band.y.max(window.y_min);
    let bottom = (i64::from(band.y) + band.lines as i64).min(i64::from(window.y_max) + 1);
    (top, bottom as i32)
}

/// A chunk's error located at its data's offset in the file: a codec's own
/// offset is within its input or its output, which would mislead as a
/// file's, and is replaced.
pub(super) fn at_chunk(error: Error, offset: u64) -> Error {
    match error {
        Error::Corrupt { what, path, .. } => Error::Corrupt {
            what,
            offset: Some(offset),
            path,
        },
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exr::{Channel, PixelType, WriteOptions, write_bytes};

    /// A 7×40 image of two channels in one-line ZSTD chunks, and its planes.
    fn image() -> (Vec<u8>, Vec<Vec<u8>>, usize) {
        let channels = vec![
            Channel::new("A", PixelType::Half),
            Channel::new("B", PixelType::Float),
        ];
        let header = Header::new(7, 40, channels, Compression::Zstd).unwrap();
        let planes: Vec<Vec<u8>> = [2, 4]
            .iter()
            .map(|&s| (0..7 * 40 * s).map(|i| (i * 7 % 251) as u8).collect())
            .collect();
        let slices: Vec<&[u8]> = planes.iter().map(Vec::as_slice).collect();
        let file = write_bytes(&header, &slices, &WriteOptions::default()).unwrap();
        let (_, table) = Header::read(&file).unwrap();
        (file, planes, table)
    }

    #[test]
    fn broken_tables_are_rebuilt_and_read_the_same() {
        let (file, planes, table) = image();
        assert_eq!(
            read_bytes(&file, &ReadOptions::default()).unwrap().planes,
            planes
        );
        // Zeroed (a writer that stopped early), two entries swapped (each
        // points at another line's chunk), one pointing past the end.
        let mut zeroed = file.clone();
        zeroed[table..table + 8 * 40].fill(0);
        let mut swapped = file.clone();
        let (a, b) = (table + 8 * 3, table + 8 * 9);
        let entry = |f: &[u8], at: usize| f[at..at + 8].to_vec();
        let (ea, eb) = (entry(&file, a), entry(&file, b));
        swapped[a..a + 8].copy_from_slice(&eb);
        swapped[b..b + 8].copy_from_slice(&ea);
        let mut close = file.clone();
        let second = u64::from_le_bytes(file[table..table + 8].try_into().unwrap()) + 2;
        close[table + 8..table + 16].copy_from_slice(&second.to_le_bytes());
        let mut past = file.clone();
        past[table + 8 * 39..table + 8 * 40].copy_from_slice(&u64::MAX.to_le_bytes());
        let cases = [
            ("zeroed", zeroed),
            ("swapped", swapped),
            ("two bytes apart", close),
            ("past", past),
        ];
        for (what, damaged) in cases {
            for threads in [1, 2] {
                let image = read_bytes(
                    &damaged,
                    &ReadOptions {
                        threads: Some(threads),
                    },
                );
                assert_eq!(image.unwrap().planes, planes, "{what}, {threads} threads");
            }
        }
        // Truncated inside the last chunk: no table and no walk can place it.
        let mut cut = file.clone();
        cut.truncate(file.len() - 3);
        assert!(matches!(
            read_bytes(&cut, &ReadOptions::default()),
            Err(Error::Corrupt { .. })
        ));
    }

    #[test]
    fn read_into_fills_the_callers_planes_of_the_right_sizes() {
        let (file, planes, _) = image();
        let reader = Reader::new(file.as_slice()).unwrap();
        assert_eq!(reader.plane_sizes(), [7 * 40 * 2, 7 * 40 * 4]);
        let mut a = vec![0xaa; 7 * 40 * 2];
        let mut b = vec![0x55; 7 * 40 * 4];
        reader
            .read_into(&mut [&mut a, &mut b], &ReadOptions::default())
            .unwrap();
        assert_eq!([a, b], [planes[0].clone(), planes[1].clone()]);
        let mut short = vec![0; 10];
        let error = reader
            .read_into(&mut [&mut short], &ReadOptions::default())
            .unwrap_err();
        assert!(matches!(error, Error::InvalidArgument(_)), "{error}");
    }

    #[test]
    fn io_errors_name_the_file() {
        let error = read(Path::new("/nonexistent/x.exr"), &ReadOptions::default()).unwrap_err();
        assert!(error.to_string().contains("/nonexistent/x.exr"), "{error}");
    }

    #[test]
    fn a_deep_window_the_file_cannot_hold_is_refused_before_allocating() {
        // Found by the exr_read fuzz target: a small deep file claiming a
        // window of billions of pixels.
        use crate::exr::attribute::AttributeValue;
        let mut header = Header::new(
            1 << 20,
            1 << 20,
            vec![Channel::new("Z", PixelType::Float)],
            Compression::Zips,
        )
        .unwrap();
        header.set("type", AttributeValue::String(b"deepscanline".to_vec()));
        let mut file = Vec::new();
        header.write(&mut file).unwrap();
        file[5] |= 0x08; // the version field's deep bit
        file.resize(file.len() + 4096, 0);
        let error = Reader::new(file.as_slice()).err().unwrap();
        assert!(matches!(error, Error::Corrupt { .. }), "{error}");
    }

    /// A level's x, y, width and height.
    type LevelShape = (usize, usize, usize, usize);

    /// A tiled ripmap file made by hand: 5×3 pixels of one UINT channel in
    /// 2×2 tiles, levels rounded down, every sample `level * 100 + y * 10 +
    /// x`, chunks stored last first.
    fn ripmap() -> (Vec<u8>, Vec<LevelShape>) {
        use crate::exr::attribute::AttributeValue;
        use crate::exr::tile::{LevelMode, Rounding, Tiles};
        let mut header = Header::new(
            5,
            3,
            vec![Channel::new("Y", PixelType::Uint)],
            Compression::None,
        )
        .unwrap();
        let tiles = Tiles {
            width: 2,
            height: 2,
            mode: LevelMode::Ripmap,
            rounding: Rounding::Down,
        };
        header.set("tiles", tiles.to_attribute());
        header.set("type", AttributeValue::String(b"tiledimage".to_vec()));
        let mut file = Vec::new();
        header.write(&mut file).unwrap();
        file[5] |= 0x02; // the version field's tiled bit
        let levels: [LevelShape; 6] = [
            (0, 0, 5, 3),
            (1, 0, 2, 3),
            (2, 0, 1, 3),
            (0, 1, 5, 1),
            (1, 1, 2, 1),
            (2, 1, 1, 1),
        ];
        let mut chunks = Vec::new();
        for (id, &(lx, ly, w, h)) in levels.iter().enumerate() {
            for ty in 0..h.div_ceil(2) {
                for tx in 0..w.div_ceil(2) {
                    let mut chunk = Vec::new();
                    for c in [tx, ty, lx, ly] {
                        chunk.extend_from_slice(&(c as i32).to_le_bytes());
                    }
                    let (x0, y0) = (2 * tx, 2 * ty);
                    let mut data = Vec::new();
                    for y in y0..(y0 + 2).min(h) {
                        for x in x0..(x0 + 2).min(w) {
                            data.extend_from_slice(&((id * 100 + y * 10 + x) as u32).to_le_bytes());
                        }
                    }
                    chunk.extend_from_slice(&(data.len() as i32).to_le_bytes());
                    chunk.extend_from_slice(&data);
                    chunks.push(chunk);
                }
            }
        }
        let table_at = file.len();
        let mut at = (table_at + 8 * chunks.len()) as u64;
        let mut offsets = vec![0u64; chunks.len()];
        let mut body = Vec::new();
        for (i, chunk) in chunks.iter().enumerate().rev() {
            offsets[i] = at;
            at += chunk.len() as u64;
            body.extend_from_slice(chunk);
        }
        for o in offsets {
            file.extend_from_slice(&o.to_le_bytes());
        }
        file.extend_from_slice(&body);
        (file, levels.to_vec())
    }

    #[test]
    fn every_ripmap_level_and_window_reads() {
        let (file, levels) = ripmap();
        let reader = Reader::new(file.as_slice()).unwrap();
        let part = &reader.parts()[0];
        let found: Vec<LevelShape> = part
            .levels()
            .iter()
            .map(|l| (l.x, l.y, l.width, l.height))
            .collect();
        assert_eq!(found, levels);
        for (id, &(lx, ly, w, h)) in levels.iter().enumerate() {
            let selection = Selection {
                level: (lx, ly),
                ..Selection::default()
            };
            for threads in [1, 2] {
                let planes = reader
                    .read_selection(
                        &selection,
                        &ReadOptions {
                            threads: Some(threads),
                        },
                    )
                    .unwrap();
                let values: Vec<u32> = planes[0]
                    .chunks_exact(4)
                    .map(|b| u32::from_le_bytes(b.try_into().unwrap()))
                    .collect();
                let expected: Vec<u32> = (0..h)
                    .flat_map(|y| (0..w).map(move |x| (id * 100 + y * 10 + x) as u32))
                    .collect();
                assert_eq!(values, expected, "level ({lx}, {ly})");
            }
        }
        // A window of level (0, 0) across tiles.
        let window = Window {
            x_min: 1,
            y_min: 1,
            x_max: 3,
            y_max: 2,
        };
        let planes = reader
            .read_selection(
                &Selection {
                    window: Some(window),
                    ..Selection::default()
                },
                &ReadOptions::default(),
            )
            .unwrap();
        let values: Vec<u32> = planes[0]
            .chunks_exact(4)
            .map(|b| u32::from_le_bytes(b.try_into().unwrap()))
            .collect();
        assert_eq!(values, [11, 12, 13, 21, 22, 23]);
        // A zeroed table: the chunks are found by walking, by their tile
        // and level coordinates.
        let mut zeroed = file.clone();
        let (_, end) = Header::read(&file).unwrap();
        zeroed[end..end + 8 * reader.parts()[0].chunk_count()].fill(0);
        let again = Reader::new(zeroed.as_slice()).unwrap();
        for &(lx, ly, _, _) in &levels {
            let selection = Selection {
                level: (lx, ly),
                ..Selection::default()
            };
            assert_eq!(
                again
                    .read_selection(&selection, &ReadOptions::default())
                    .unwrap(),
                reader
                    .read_selection(&selection, &ReadOptions::default())
                    .unwrap()
            );
        }
        // Levels and windows the part does not have.
        assert!(
            reader
                .shapes(&Selection {
                    level: (3, 0),
                    ..Selection::default()
                })
                .is_err()
        );
        let outside = Window { x_max: 5, ..window };
        assert!(
            reader
                .shapes(&Selection {
                    window: Some(outside),
                    ..Selection::default()
                })
                .is_err()
        );
    }
}
