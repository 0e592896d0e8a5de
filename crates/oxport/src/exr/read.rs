//! Reading a scan line file: header, offset table, then every chunk read
//! and decompressed in parallel, straight into its rows of each channel.

use std::fs::File;
use std::path::{Path, PathBuf};

use super::Image;
use super::chunk::{self, Layout};
use super::compress;
use super::compression::Compression;
use super::header::Header;
use super::offsets::{self, Span};
use super::scratch::with_buffer;
use crate::pipeline::Pipeline;
use crate::source::Source;
use crate::{Error, Result};

/// How to read.
#[derive(Clone, Debug, Default)]
pub struct ReadOptions {
    /// Threads decompressing chunks (`None`: one per core).
    pub threads: Option<usize>,
}

/// The most uncompressed bytes a compressed byte of `method` can stand for
/// (RLE: 2 bytes for 128; deflate: 1032; zstd: 32768 with block overhead):
/// a data window larger than the file could hold is refused before
/// anything is allocated.
fn max_ratio(method: Compression) -> u64 {
    match method {
        Compression::None => 1,
        Compression::Rle => 64,
        Compression::Zip | Compression::Zips => crate::codec::deflate::MAX_RATIO,
        _ => 32_768,
    }
}

/// Reads the OpenEXR file at `path`: the header, the offset table, then
/// each chunk by the thread that decodes it (the file is never in memory
/// whole).
pub fn read(path: &Path, options: &ReadOptions) -> Result<Image> {
    Reader::open(path)?.read(options)
}

/// Reads an OpenEXR file held in memory.
pub fn read_bytes(file: &[u8], options: &ReadOptions) -> Result<Image> {
    read_from(file, options)
}

/// Reads an OpenEXR file from any [`Source`] (a file, memory, a remote object).
pub fn read_from<S: Source>(source: S, options: &ReadOptions) -> Result<Image> {
    Reader::new(source)?.read(options)
}

/// A file whose header and offset table are read and checked, its pixels
/// not yet: for callers that decode into memory of their own
/// ([`Reader::read_into`]).
pub struct Reader<S> {
    source: S,
    /// The file's path, for errors.
    path: Option<PathBuf>,
    size: u64,
    header: Header,
    method: Compression,
    sizes: Vec<usize>,
    width: usize,
    height: usize,
    y_min: i32,
    first_chunk: u64,
    entries: Vec<u64>,
}

impl Reader<File> {
    /// Opens the file at `path`; its I/O errors name it.
    pub fn open(path: &Path) -> Result<Self> {
        let file = File::open(path).map_err(|e| Error::io_at(path, e))?;
        let mut reader = Reader::new(file).map_err(|e| e.at_path(path))?;
        reader.path = Some(path.to_path_buf());
        Ok(reader)
    }
}

impl<S: Source> Reader<S> {
    /// Reads the header and the offset table of `source`.
    pub fn new(source: S) -> Result<Self> {
        let size = source.size()?;
        let (header, table) = read_header(&source, size)?;
        header.check_readable()?;
        let method = header.compression()?;
        let window = header.data_window()?;
        let sizes: Vec<usize> = header
            .channels()?
            .iter()
            .map(|c| c.pixel_type.size())
            .collect();
        let (width, height) = (window.width(), window.height());
        width
            .checked_mul(height)
            .and_then(|pixels| pixels.checked_mul(sizes.iter().sum::<usize>() as u64))
            .filter(|&bytes| bytes <= size.saturating_mul(max_ratio(method)))
            .ok_or(Error::Corrupt {
                what: "the data window is larger than the file could hold",
                offset: None,
            })?;
        // Both fit in memory: their product was just checked against the file.
        let (width, height) = (width as usize, height as usize);
        let count = height.div_ceil(method.lines_per_chunk());
        let table = table as u64;
        let entries = offsets::read_table(&source, size, table, count)?;
        Ok(Reader {
            source,
            path: None,
            size,
            header,
            method,
            sizes,
            width,
            height,
            y_min: window.y_min,
            first_chunk: table + 8 * count as u64,
            entries,
        })
    }

    /// The header.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// The size in bytes of each channel's plane, in the header's order.
    pub fn plane_sizes(&self) -> Vec<usize> {
        self.sizes
            .iter()
            .map(|s| self.width * self.height * s)
            .collect()
    }

    /// Reads the pixels into new planes.
    pub fn read(self, options: &ReadOptions) -> Result<Image> {
        let mut planes: Vec<Vec<u8>> = self
            .plane_sizes()
            .into_iter()
            .map(|n| vec![0u8; n])
            .collect();
        let mut slices: Vec<&mut [u8]> = planes.iter_mut().map(Vec::as_mut_slice).collect();
        self.read_into(&mut slices, options)?;
        Ok(Image {
            header: self.header,
            planes,
        })
    }

    /// Reads the pixels into `planes`, one per channel of the sizes
    /// [`Reader::plane_sizes`] gives. Every byte of every plane is written
    /// when this returns `Ok`.
    pub fn read_into(&self, planes: &mut [&mut [u8]], options: &ReadOptions) -> Result<()> {
        self.decode(planes, options).map_err(|e| match &self.path {
            Some(path) => e.at_path(path),
            None => e,
        })
    }

    fn decode(&self, planes: &mut [&mut [u8]], options: &ReadOptions) -> Result<()> {
        let sizes = self.plane_sizes();
        if planes.len() != sizes.len() || planes.iter().zip(&sizes).any(|(p, &n)| p.len() != n) {
            return Err(Error::invalid(format!(
                "planes of {sizes:?} bytes needed, {:?} given",
                planes.iter().map(|p| p.len()).collect::<Vec<_>>()
            )));
        }
        let lines = self.method.lines_per_chunk();
        let image = Decode {
            method: self.method,
            sizes: &self.sizes,
            width: self.width,
            height: self.height,
            lines,
            y_min: self.y_min,
            threads: options.threads,
        };
        let source = &self.source;
        if let Some(spans) = offsets::spans(&self.entries, self.first_chunk, self.size) {
            match image.run(source, &spans, planes) {
                Err(Error::Corrupt { what, .. }) if what == BROKEN => {}
                other => return other,
            }
        }
        let spans = offsets::rebuild(
            source,
            self.size,
            self.first_chunk,
            self.entries.len(),
            self.y_min,
            lines,
        )?;
        image.run(source, &spans, planes)
    }
}

/// Reads the header: the first 64 KiB, or more when it runs past them.
fn read_header<S: Source + ?Sized>(source: &S, size: u64) -> Result<(Header, usize)> {
    let mut len = size.min(64 << 10);
    loop {
        // At most the file's size.
        let mut head = vec![0u8; len as usize];
        source.read_exact_at(&mut head, 0)?;
        match Header::read(&head) {
            Err(Error::Corrupt { .. }) if len < size => len = size.min(len * 4),
            found => return found,
        }
    }
}

/// What a table entry that does not point at its chunk reports, so that
/// the reader rebuilds the table and decodes again.
const BROKEN: &str = "an offset table entry does not point at its chunk";

/// A chunk's data is at most its pixels' size (a writer stores a chunk raw
/// when compressing does not make it smaller) with a margin for writers
/// that do not: a span longer than this is read only as far as this.
fn most_data(raw: usize) -> usize {
    raw + raw / 2 + (64 << 10)
}

/// The image's shape, for decoding its chunks.
struct Decode<'a> {
    method: Compression,
    sizes: &'a [usize],
    width: usize,
    height: usize,
    lines: usize,
    y_min: i32,
    threads: Option<usize>,
}

impl Decode<'_> {
    /// Decodes the chunk of every span, in parallel, straight into its rows
    /// of each plane.
    fn run<S: Source + ?Sized>(
        &self,
        source: &S,
        spans: &[Span],
        planes: &mut [&mut [u8]],
    ) -> Result<()> {
        let (width, lines) = (self.width, self.lines);
        let count = spans.len();
        // Each chunk's rows of each plane, so that chunks decode in parallel
        // straight into place.
        let mut rows: Vec<Vec<&mut [u8]>> = (0..count)
            .map(|_| Vec::with_capacity(self.sizes.len()))
            .collect();
        for (plane, &size) in planes.iter_mut().zip(self.sizes) {
            for (slot, piece) in rows.iter_mut().zip(plane.chunks_mut(lines * width * size)) {
                slot.push(piece);
            }
        }
        let full = Layout {
            sizes: self.sizes,
            width,
            lines,
        };
        Pipeline::new(self.threads)?
            .grouping(count, full.bytes())
            .stream(
                spans.iter().zip(rows).enumerate(),
                |(index, (span, mut rows))| {
                    let layout = Layout {
                        lines: lines.min(self.height - index * lines),
                        ..full
                    };
                    let y = (i64::from(self.y_min) + (index * lines) as i64) as i32;
                    self.chunk(source, span, y, &layout, &mut rows)
                },
                |()| Ok(()),
            )
    }

    /// Reads the chunk at `span`, checks that it is the chunk of line `y`,
    /// and decodes it into `rows`.
    fn chunk<S: Source + ?Sized>(
        &self,
        source: &S,
        span: &Span,
        y: i32,
        layout: &Layout,
        rows: &mut [&mut [u8]],
    ) -> Result<()> {
        let raw = layout.bytes();
        // At most the file's size (spans lie inside it), and at most the
        // chunk's pixels with a margin unless the span is exact.
        let len = if span.exact {
            span.len
        } else {
            span.len.min(8 + most_data(raw) as u64)
        } as usize;
        with_buffer(len, |bytes| {
            source.read_exact_at(bytes, span.offset)?;
            // Two entries closer than a chunk's prefix: not a chunk.
            let prefix = bytes.get(..8).map(|p| {
                let found_y = i32::from_le_bytes(p[..4].try_into().expect("4 bytes"));
                let data = i32::from_le_bytes(p[4..].try_into().expect("4 bytes"));
                (
                    found_y,
                    usize::try_from(data).ok().filter(|&n| n <= len - 8),
                )
            });
            let Some((_, Some(data))) = prefix.filter(|&(found_y, _)| found_y == y) else {
                return Err(Error::Corrupt {
                    what: if span.exact {
                        "a chunk's size is negative or past the end of the file"
                    } else {
                        BROKEN
                    },
                    offset: Some(span.offset),
                });
            };
            let data = &bytes[8..8 + data];
            with_buffer(raw, |out| {
                compress::decompress(self.method, data, layout, out)
                    .map_err(|e| at_chunk(e, span.offset + 8))?;
                chunk::unpack(out, layout, rows);
                Ok(())
            })
        })
    }
}

/// A chunk's error located at its data's offset in the file.
fn at_chunk(error: Error, offset: u64) -> Error {
    match error {
        Error::Corrupt { what, offset: None } => Error::Corrupt {
            what,
            offset: Some(offset),
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
}
