//! Reading archives: the index (seek table, or frame headers when there
//! is none), random reads that decompress only the frames they cover, and
//! whole-archive decompression on every core.

use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use super::cache::Cache;
use super::frame;
use super::scan::scan;
use super::stream::Stream;
use super::table::{self, FOOTER_SIZE, Frame};
use super::{WRITE_PIECE, write_pieces};
use crate::pipeline::Pipeline;
use crate::source::Source;
use crate::sync::lock;
use crate::{Error, Result};

/// Frames up to this size are decompressed whole (and cached); larger ones
/// are streamed.
const WHOLE_FRAME_LIMIT: u64 = 64 << 20;

/// How to read an archive.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReadOptions {
    /// Threads for reads that cover several frames: `None` is one per
    /// core, `0` an error.
    pub threads: Option<usize>,
}

/// Where an archive's index came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Index {
    /// The seek table at the end of the archive; `checksums` when it has them.
    SeekTable {
        /// Whether the table holds a checksum per frame.
        checksums: bool,
    },
    /// No seek table: the frame headers, which record their sizes.
    FrameHeaders,
    /// No seek table and frames without sizes: the archive can only be
    /// decompressed in order (a read behind the last one starts over).
    None,
}

/// A seekable archive open for reading: random reads with
/// [`Reader::read_at`] (from any thread), `Read + Seek` from a position,
/// and [`Reader::unpack`] of the whole archive in parallel.
pub struct Reader<S: Source = File> {
    source: S,
    archive_size: u64,
    index: Index,
    /// Empty when `index` is `Index::None`.
    frames: Vec<Frame>,
    /// The decompressed size, once known (always, unless `Index::None`).
    size: Mutex<Option<u64>>,
    pipeline: Pipeline,
    /// Frames read in part: what was decompressed, and the stream to go on.
    cache: Cache<Mutex<Partial>>,
    /// What the cache let go of last, reused for the next frame it takes.
    spare: Mutex<Option<Partial>>,
    stream: Mutex<Option<Stream>>,
    /// Where `Read` reads next.
    position: u64,
    /// The archive's path or URL, which errors name ([`Reader::open`]).
    path: Option<PathBuf>,
}

impl Reader<Box<dyn Source>> {
    /// Opens the archive at `path` (with the `remote` feature, or the
    /// object a URL names, read by byte range).
    pub fn open(path: &Path, options: &ReadOptions) -> Result<Self> {
        let source = crate::source::open(path)?;
        let mut reader = Reader::new(source, options).map_err(|e| e.in_file(path).at_path(path))?;
        reader.path = Some(path.to_path_buf());
        Ok(reader)
    }
}

impl<S: Source> Reader<S> {
    /// Reads the index of the archive in `source`: the seek table when
    /// there is one (only the end of the source is read), otherwise the
    /// frame headers.
    pub fn new(source: S, options: &ReadOptions) -> Result<Self> {
        let pipeline = Pipeline::new(options.threads)?;
        let archive_size = source.size()?;
        if archive_size == 0 {
            return Err(Error::corrupt("empty file: not a zstd archive"));
        }
        let (index, frames) = match seek_table(&source, archive_size)? {
            Some((frames, checksums)) => (Index::SeekTable { checksums }, frames),
            None => match scan(&source, archive_size)? {
                Some(frames) => (Index::FrameHeaders, frames),
                None => (Index::None, Vec::new()),
            },
        };
        let size = match index {
            Index::None => None,
            _ => Some(frames.last().map_or(0, Frame::end)),
        };
        Ok(Reader {
            source,
            archive_size,
            index,
            frames,
            size: Mutex::new(size),
            pipeline,
            cache: Cache::default(),
            spare: Mutex::new(None),
            stream: Mutex::new(None),
            position: 0,
            path: None,
        })
    }

    /// Where the index came from.
    pub fn index(&self) -> Index {
        self.index
    }

    /// The frames, in order (empty when the index is [`Index::None`]).
    pub fn frames(&self) -> &[Frame] {
        &self.frames
    }

    /// The size of the archive itself.
    pub fn archive_size(&self) -> u64 {
        self.archive_size
    }

    /// The decompressed size: `None` only for archives without sizes
    /// ([`Index::None`]) that have not been read to the end yet (see
    /// [`Reader::find_size`]).
    pub fn size(&self) -> Option<u64> {
        *lock(&self.size)
    }

    /// The decompressed size, decompressing the whole archive to find it
    /// when the index does not know it.
    pub fn find_size(&self) -> Result<u64> {
        if let Some(size) = self.size() {
            return Ok(size);
        }
        self.with_stream(None, None, |stream, source| {
            stream.skip_to(source, u64::MAX)
        })
        .map_err(|e| self.named(e))?;
        self.size()
            .ok_or_else(|| Error::Internal("size unknown after the end".into()))
    }

    /// Fills `buf` with the decompressed bytes at `offset`, decompressing
    /// only the frames they lie in (frames it covers whole in parallel).
    /// Returns the count: less than `buf.len()` only at the end.
    pub fn read_at(&self, offset: u64, buf: &mut [u8]) -> Result<usize> {
        self.read_range(offset, buf).map_err(|e| self.named(e))
    }

    /// An error names the archive, when it was opened by path or URL.
    fn named(&self, error: Error) -> Error {
        match &self.path {
            Some(path) => error.at_path(path),
            None => error,
        }
    }

    fn read_range(&self, offset: u64, buf: &mut [u8]) -> Result<usize> {
        if self.index == Index::None {
            return self.read_streamed(offset, buf);
        }
        let size = self.size().unwrap_or(0);
        if offset >= size || buf.is_empty() {
            return Ok(0);
        }
        let end = size.min(offset.saturating_add(buf.len() as u64));
        let buf = &mut buf[..(end - offset) as usize];
        let first = self.frames.partition_point(|f| f.end() <= offset);
        let mut whole = Vec::new();
        let mut rest = buf;
        for frame in self.frames[first..].iter().take_while(|f| f.offset < end) {
            if frame.size == 0 {
                continue;
            }
            let from = offset.max(frame.offset);
            let to = end.min(frame.end());
            let (part, tail) = std::mem::take(&mut rest).split_at_mut((to - from) as usize);
            rest = tail;
            if from == frame.offset && to == frame.end() {
                whole.push((frame, part));
            } else {
                self.read_part(frame, from - frame.offset, part)?;
            }
        }
        if whole.len() > 1 {
            self.pipeline
                .map(whole, |(frame, part)| self.decompress_into(frame, part))
                .into_iter()
                .collect::<Result<()>>()?;
        } else if let Some((frame, part)) = whole.pop() {
            self.decompress_into(frame, part)?;
        }
        Ok((end - offset) as usize)
    }

    /// Decompresses the whole archive into `output`, frames in parallel
    /// (streamed in order when the index has no sizes), calling
    /// `progress(done, total)` as they are written (`total` 0: the index
    /// has no sizes). Returns the size.
    pub fn unpack(&self, output: impl Write, progress: impl FnMut(u64, u64)) -> Result<u64> {
        // Damaged frames name the archive; I/O errors may be the output's.
        self.unpack_unnamed(output, progress).map_err(|e| match e {
            Error::Corrupt { .. } => self.named(e),
            other => other,
        })
    }

    fn unpack_unnamed(
        &self,
        mut output: impl Write,
        mut progress: impl FnMut(u64, u64),
    ) -> Result<u64> {
        let total = self.size().unwrap_or(0);
        let mut progress = |done| progress(done, total);
        let mut buffer = Vec::new();
        if self.index == Index::None {
            buffer.resize(WRITE_PIECE, 0);
            let mut done = 0;
            let size = self.with_stream(None, Some(0), |stream, source| {
                stream.copy_to(source, &mut output, &mut buffer, |n| {
                    done += n;
                    progress(done);
                })
            })?;
            output.flush()?;
            return Ok(size);
        }
        enum Decoded<'a> {
            Bytes(Vec<u8>),
            Large(&'a Frame),
        }
        let spare = Mutex::new(Vec::<Vec<u8>>::new());
        let mut done = 0;
        // Empty frames too: an entry of size 0 over a frame with data is a
        // damaged table, which decoding it finds.
        self.pipeline.stream(
            self.frames.iter(),
            |frame| {
                if frame.size > WHOLE_FRAME_LIMIT {
                    return Ok(Decoded::Large(frame));
                }
                let mut data = lock(&spare).pop().unwrap_or_default();
                self.read_compressed(frame, |compressed| {
                    frame::decompress_to_vec(frame, compressed, &mut data)
                })?;
                Ok(Decoded::Bytes(data))
            },
            |decoded| {
                match decoded {
                    Decoded::Bytes(data) => {
                        write_pieces(&mut output, &data)?;
                        done += data.len() as u64;
                        lock(&spare).push(data);
                    }
                    Decoded::Large(frame) => {
                        buffer.resize(WRITE_PIECE, 0);
                        let mut stream = Stream::of_frame(frame);
                        done += stream.copy_to(&self.source, &mut output, &mut buffer, |_| {})?;
                        if stream.position() != frame.end() {
                            return Err(short(frame));
                        }
                    }
                }
                progress(done);
                Ok(())
            },
        )?;
        output.flush()?;
        Ok(done)
    }

    /// [`Reader::unpack`] into the file `path` (or a URL or a stream:
    /// [`Output`](crate::atomic::Output)), which appears whole or not at
    /// all. Returns the size.
    pub fn unpack_to_file<'a>(
        &self,
        path: impl Into<crate::atomic::Output<'a>>,
        progress: impl FnMut(u64, u64),
    ) -> Result<u64> {
        crate::atomic::write_file(path, |file| {
            // Written in order by the calling thread: buffered writes to one
            // file serialize in the kernel, so writing from every thread only
            // adds contention (measured: slower, and far less steady).
            // Every write is a whole piece but the last: no buffer needed.
            self.unpack(file, progress)
        })
    }

    /// Decompresses `frame` whole into `out` (`frame.size` bytes).
    fn decompress_into(&self, frame: &Frame, out: &mut [u8]) -> Result<()> {
        if frame.size > WHOLE_FRAME_LIMIT {
            let mut stream = Stream::of_frame(frame);
            return match stream.read(&self.source, out)? == out.len() {
                true => Ok(()),
                false => Err(short(frame)),
            };
        }
        self.read_compressed(frame, |compressed| {
            frame::decompress(frame, compressed, out)
        })
    }

    /// Runs `work` on the compressed bytes of `frame`, read into a scratch
    /// buffer (`crate::scratch`).
    fn read_compressed<R>(
        &self,
        frame: &Frame,
        work: impl FnOnce(&[u8]) -> Result<R>,
    ) -> Result<R> {
        // The index checked the compressed size against the archive's.
        crate::scratch::with_buffer(frame.compressed_size as usize, |compressed| {
            self.source
                .read_exact_at(compressed, frame.compressed_offset)?;
            work(compressed)
        })
    }

    /// Copies `out.len()` bytes from `from` bytes into `frame`, through the
    /// cache (or a stream, for frames too large to hold).
    fn read_part(&self, frame: &Frame, from: u64, out: &mut [u8]) -> Result<()> {
        if frame.size > WHOLE_FRAME_LIMIT {
            let start = frame.offset + from;
            let read = self.with_stream(Some(frame), Some(start), |stream, source| {
                stream.read(source, out)
            });
            return match read? == out.len() {
                true => Ok(()),
                false => Err(short(frame)),
            };
        }
        let make = || match lock(&self.spare).take() {
            Some(mut partial) => {
                partial.data.clear();
                partial.stream.retarget(frame);
                partial
            }
            None => Partial {
                data: Vec::new(),
                stream: Stream::of_frame(frame),
            },
        };
        let (entry, dropped) = self
            .cache
            .get_or_insert_with(frame.offset, || Mutex::new(make()));
        if let Some(dropped) = dropped {
            *lock(&self.spare) = Some(dropped.into_inner().unwrap_or_else(|e| e.into_inner()));
        }
        let mut partial = lock(&entry);
        let (from, end) = (from as usize, from as usize + out.len());
        partial.fill(&self.source, frame, end)?;
        out.copy_from_slice(&partial.data[from..end]);
        Ok(())
    }

    /// Runs `work` on the reader's stream of `frame` (of the whole archive
    /// when `None`), moved to `start` first when given: continued when it
    /// is at or before `start`, started over when it is past it.
    fn with_stream<R>(
        &self,
        frame: Option<&Frame>,
        start: Option<u64>,
        work: impl FnOnce(&mut Stream, &S) -> Result<R>,
    ) -> Result<R> {
        let mut guard = lock(&self.stream);
        let wanted = frame.map_or(0, |f| f.compressed_offset);
        let stream = match &mut *guard {
            Some(stream) if stream.covers(wanted) => stream,
            other => other.insert(match frame {
                Some(frame) => Stream::of_frame(frame),
                None => Stream::new(0, self.archive_size, 0, None),
            }),
        };
        if let Some(start) = start {
            if stream.position() > start {
                stream.restart();
            }
            stream.skip_to(&self.source, start)?;
        }
        let result = work(stream, &self.source);
        if frame.is_none() && stream.finished() {
            // The whole archive was read: its size is known.
            *lock(&self.size) = Some(stream.position());
        }
        result
    }

    /// `read_at` for archives without sizes: streamed, from the start when
    /// `offset` is behind the last read.
    fn read_streamed(&self, offset: u64, buf: &mut [u8]) -> Result<usize> {
        self.with_stream(None, Some(offset), |stream, source| {
            if stream.position() < offset {
                return Ok(0); // The archive ends before `offset`.
            }
            stream.read(source, buf)
        })
    }
}

/// The start of a frame decompressed so far, and the stream that goes on
/// from there: a small read costs the frame's blocks up to its end only,
/// and reads that follow continue where it stopped.
struct Partial {
    data: Vec<u8>,
    stream: Stream,
}

impl Partial {
    /// Decompresses the frame up to `end` bytes (at least).
    fn fill(&mut self, source: &impl Source, frame: &Frame, end: usize) -> Result<()> {
        let have = self.data.len();
        if have >= end {
            return Ok(());
        }
        self.data.resize(end, 0);
        let read = match self.stream.read(source, &mut self.data[have..]) {
            Ok(count) if count == end - have => Ok(()),
            Ok(_) => Err(short(frame)),
            Err(error) => Err(error),
        };
        if read.is_err() {
            // Start over at the next read rather than trust a half-done step.
            self.data.clear();
            self.stream.restart();
            return read;
        }
        if end as u64 == frame.size {
            // The whole frame is out: nothing may follow, and the checksum holds.
            self.stream.expect_end(source)?;
        }
        Ok(())
    }
}

/// The frame decompressed to fewer bytes than its size.
fn short(frame: &Frame) -> Error {
    Error::Corrupt {
        what: "frame decompresses to fewer bytes than its size",
        offset: Some(frame.compressed_offset),
        path: None,
    }
}

/// The seek table of the archive in `source`, if it has one: its frames and
/// whether they have checksums.
fn seek_table(source: &impl Source, size: u64) -> Result<Option<(Vec<Frame>, bool)>> {
    if size < FOOTER_SIZE as u64 {
        return Ok(None);
    }
    let mut footer = [0u8; FOOTER_SIZE];
    source.read_exact_at(&mut footer, size - FOOTER_SIZE as u64)?;
    let Some(footer) = table::parse_footer(&footer, size)? else {
        return Ok(None);
    };
    // parse_footer checked the table against the archive's size.
    let mut bytes = vec![0u8; footer.table_len() as usize];
    source.read_exact_at(&mut bytes, size - footer.table_len())?;
    let frames = table::parse(&bytes, footer, size)?;
    Ok(Some((frames, footer.checksums)))
}

impl<S: Source> Read for Reader<S> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.read_at(self.position, buf).map_err(io::Error::other)?;
        self.position += n as u64;
        Ok(n)
    }
}

impl<S: Source> Seek for Reader<S> {
    fn seek(&mut self, to: SeekFrom) -> io::Result<u64> {
        let target = match to {
            SeekFrom::Start(offset) => Some(offset),
            SeekFrom::Current(delta) => self.position.checked_add_signed(delta),
            SeekFrom::End(delta) => self
                .find_size()
                .map_err(io::Error::other)?
                .checked_add_signed(delta),
        };
        self.position = target
            .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "seek before the start"))?;
        Ok(self.position)
    }
}

/// Decompresses the archive `input` into the file `output` (whole or not
/// at all; or a URL or a stream: [`Output`](crate::atomic::Output)).
/// Returns the size.
pub fn unpack_file<'a>(
    input: &Path,
    output: impl Into<crate::atomic::Output<'a>>,
    options: &ReadOptions,
    progress: impl FnMut(u64, u64),
) -> Result<u64> {
    Reader::open(input, options)?.unpack_to_file(output, progress)
}
