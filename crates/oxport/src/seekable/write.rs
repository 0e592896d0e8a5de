//! Writing archives: input cut into frames, frames compressed on every
//! core through the ordered pipeline, then the seek table.

use std::cell::RefCell;
use std::fs::File;
use std::io::{self, Read, Write};
use std::path::Path;

use super::frame;
use super::table::{self, Frame, MAX_FRAME_SIZE};
use crate::codec::Levels;
use crate::feed::Feed;
use crate::pipeline::Pipeline;
use crate::{Error, Result};
use serde::{Deserialize, Serialize};

/// How to write an archive.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WriteOptions {
    /// The zstd level: 1 to 22, or negative for the fastest levels; 0 is
    /// zstd's default (3).
    pub level: i32,
    /// The decompressed size of each frame (the last may be shorter): 1
    /// byte to 1 GiB. Smaller frames make random reads cheaper and cost
    /// ratio; 2 MiB costs about 1.4% against one zstd stream.
    pub frame_size: usize,
    /// Whether the seek table carries a checksum of every frame.
    pub checksums: bool,
    /// Threads: `None` is one per core, `0` an error.
    #[serde(skip)]
    pub threads: Option<usize>,
}

impl Default for WriteOptions {
    fn default() -> Self {
        WriteOptions {
            level: 3,
            frame_size: 2 << 20,
            checksums: true,
            threads: None,
        }
    }
}

impl WriteOptions {
    pub(crate) fn check(&self) -> Result<()> {
        Levels::Zstd.check(self.level)?;
        if !(1..=MAX_FRAME_SIZE).contains(&self.frame_size) {
            return Err(Error::invalid(format!(
                "frame_size {} is outside 1 byte to 1 GiB",
                self.frame_size
            )));
        }
        Ok(())
    }
}

/// What a write produced.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Packed {
    /// Frames written (not counting the seek table).
    pub frames: u64,
    /// Bytes of input.
    pub input_bytes: u64,
    /// Bytes of the archive, seek table included.
    pub output_bytes: u64,
}

/// Compresses everything `input` yields into a seekable archive on
/// `output`, calling `progress(done, total)` (input bytes; `total` 0: a
/// stream's size is not known) after each frame is written.
///
/// The archive is the same whatever the thread count. Memory: at most
/// [`Pipeline::in_flight`] frames (and their compressed forms) at once.
pub fn pack(
    input: impl Read,
    output: impl Write,
    options: &WriteOptions,
    progress: impl FnMut(u64, u64),
) -> Result<Packed> {
    pack_named(input, None, 0, output, options, progress)
}

/// [`pack`] from the file `input` into the file `output`, which appears
/// whole or not at all; `progress`'s total is the file's size. With the
/// `remote` feature either may be a URL; `output` may be a stream
/// ([`Output`](crate::atomic::Output)).
pub fn pack_file<'a>(
    input: &Path,
    output: impl Into<crate::atomic::Output<'a>>,
    options: &WriteOptions,
    progress: impl FnMut(u64, u64),
) -> Result<Packed> {
    options.check()?;
    let source = crate::source::Reading::new(crate::source::open(input)?)
        .map_err(|e| Error::io_at(input, e))?;
    let total = source.size();
    crate::atomic::write_file(output, |file| {
        pack_named(
            source,
            Some(input),
            total,
            io::BufWriter::with_capacity(super::WRITE_PIECE, file),
            options,
            progress,
        )
    })
}

/// [`pack`], naming `path` in the errors of `input`, of `total` bytes (0:
/// not known).
fn pack_named(
    mut input: impl Read,
    path: Option<&Path>,
    total: u64,
    output: impl Write,
    options: &WriteOptions,
    mut progress: impl FnMut(u64, u64),
) -> Result<Packed> {
    options.check()?;
    let spare = RefCell::new(Vec::<Vec<u8>>::new());
    let mut failed = false;
    let chunks = std::iter::from_fn(|| {
        if failed {
            return None;
        }
        let mut chunk = spare.borrow_mut().pop().unwrap_or_default();
        match fill(&mut input, &mut chunk, options.frame_size) {
            Ok(0) => None,
            Ok(_) => Some(Ok(chunk)),
            Err(error) => {
                failed = true;
                Some(Err(match path {
                    Some(path) => Error::io_at(path, error),
                    None => Error::from(error),
                }))
            }
        }
    });
    compress_frames(
        chunks,
        output,
        options,
        |done| progress(done, total),
        |chunk| spare.borrow_mut().push(chunk),
    )
}

/// Reads up to `size` bytes into `chunk` (replacing its contents), fewer
/// only at the end of the input. Returns the count.
fn fill(input: &mut impl Read, chunk: &mut Vec<u8>, size: usize) -> io::Result<usize> {
    chunk.clear();
    // `take` reads straight into the vector's spare capacity.
    input.take(size as u64).read_to_end(chunk)
}

/// A compressed frame and its entry, with the buffer of its data to recycle.
struct Compressed {
    data: Vec<u8>,
    bytes: Vec<u8>,
    frame: Frame,
}

/// The frames of an archive, each chunk one frame, compressed in parallel
/// and written in order; then the seek table. `recycle` gets every chunk
/// back once its frame is written.
fn compress_frames(
    chunks: impl Iterator<Item = Result<Vec<u8>>>,
    mut output: impl Write,
    options: &WriteOptions,
    mut progress: impl FnMut(u64),
    mut recycle: impl FnMut(Vec<u8>),
) -> Result<Packed> {
    let pipeline = Pipeline::new(options.threads)?;
    let spare = RefCell::new(Vec::<Vec<u8>>::new());
    let mut frames = Vec::new();
    let mut packed = Packed::default();
    let chunks = chunks.map(|chunk| (chunk, spare.borrow_mut().pop().unwrap_or_default()));
    let checksums = options.checksums;
    let params = frame::params(options.level, frame::max_block(options.frame_size))?;
    pipeline.stream(
        chunks,
        |(chunk, mut bytes)| {
            let data = chunk?;
            frame::compress(&data, &params, &mut bytes)?;
            let frame = Frame {
                compressed_offset: 0,
                compressed_size: bytes.len() as u64,
                offset: 0,
                size: data.len() as u64,
                checksum: checksums.then(|| table::checksum(&data)),
            };
            Ok(Compressed { data, bytes, frame })
        },
        |compressed| {
            super::write_pieces(&mut output, &compressed.bytes)?;
            frames.push(Frame {
                compressed_offset: packed.output_bytes,
                offset: packed.input_bytes,
                ..compressed.frame
            });
            packed.output_bytes += compressed.frame.compressed_size;
            packed.input_bytes += compressed.frame.size;
            packed.frames += 1;
            progress(packed.input_bytes);
            spare.borrow_mut().push(compressed.bytes);
            recycle(compressed.data);
            Ok(())
        },
    )?;
    let mut tail = Vec::new();
    if frames.is_empty() {
        // An empty input still makes one (empty) frame, so that every zstd
        // decoder, and Blender, sees a zstd frame first.
        frame::compress(&[], &params, &mut tail)?;
        frames.push(Frame {
            compressed_offset: 0,
            compressed_size: tail.len() as u64,
            offset: 0,
            size: 0,
            checksum: checksums.then(|| table::checksum(&[])),
        });
        packed.frames = 1;
        packed.output_bytes = tail.len() as u64;
    }
    let body = tail.len();
    table::encode(&frames, checksums, &mut tail)?;
    output.write_all(&tail)?;
    output.flush()?;
    packed.output_bytes += (tail.len() - body) as u64;
    Ok(packed)
}

/// An archive written as a stream: `Write` what should be compressed, then
/// [`Writer::finish`]. Frames are compressed on the pipeline's threads
/// while the caller writes the next ones; memory stays bounded by the
/// frames in flight.
pub struct Writer<W: Write + Send + 'static> {
    /// Bytes not yet a whole frame.
    current: Vec<u8>,
    frame_size: usize,
    /// Whole frames to the compressing thread (dropped unfinished, it
    /// stops; the archive is left without its last frames and seek table).
    frames: Feed<Vec<u8>, (W, Packed)>,
}

impl<W: Write + Send + 'static> Writer<W> {
    /// A writer of an archive on `output`.
    pub fn new(output: W, options: &WriteOptions) -> Result<Self> {
        options.check()?;
        let pipeline = Pipeline::new(options.threads)?;
        let frame_size = options.frame_size;
        let options = options.clone();
        let frames = Feed::start(
            "oxport-seekable-writer",
            pipeline.in_flight(),
            move |frames| {
                let mut output = output;
                let packed = compress_frames(
                    frames.into_iter().map(Ok),
                    &mut output,
                    &options,
                    |_| {},
                    drop,
                )?;
                Ok((output, packed))
            },
        )?;
        Ok(Writer {
            current: Vec::new(),
            frame_size,
            frames,
        })
    }

    /// Hands a whole frame to the compressing thread; an error when that
    /// thread has stopped (its error comes out of [`Writer::finish`]).
    fn send(&mut self, frame: Vec<u8>) -> io::Result<()> {
        if self.frames.hand_over(frame) {
            return Ok(());
        }
        Err(io::Error::new(
            io::ErrorKind::BrokenPipe,
            "the archive's writer stopped (finish() gives the reason)",
        ))
    }

    /// Compresses what is left, writes the seek table, and returns the
    /// output with what was written.
    pub fn finish(mut self) -> Result<(W, Packed)> {
        let last = std::mem::take(&mut self.current);
        // A frame the thread does not take: it stopped at an error, which
        // finishing gives.
        if !last.is_empty() {
            self.frames.hand_over(last);
        }
        self.frames.finish()
    }
}

impl<W: Write + Send + 'static> Write for Writer<W> {
    fn write(&mut self, mut buf: &[u8]) -> io::Result<usize> {
        let written = buf.len();
        while !buf.is_empty() {
            if self.current.capacity() == 0 {
                self.current.reserve_exact(self.frame_size);
            }
            let take = (self.frame_size - self.current.len()).min(buf.len());
            self.current.extend_from_slice(&buf[..take]);
            buf = &buf[take..];
            if self.current.len() == self.frame_size {
                let frame = std::mem::take(&mut self.current);
                self.send(frame)?;
            }
        }
        Ok(written)
    }

    /// Frames are written when whole: flushing cannot cut one short without
    /// changing the archive, so it does nothing.
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// A [`Writer`] of a file that appears whole at [`FileWriter::finish`], or
/// not at all: dropped unfinished (or failed), it leaves nothing behind.
pub struct FileWriter {
    writer: Writer<io::BufWriter<File>>,
    pending: crate::atomic::Pending,
}

impl FileWriter {
    /// Opens a temporary file beside `path` for the archive.
    pub fn create(path: &Path, options: &WriteOptions) -> Result<Self> {
        options.check()?;
        let (pending, file, _) = crate::atomic::Pending::open(path, false)?;
        let output = io::BufWriter::with_capacity(super::WRITE_PIECE, file);
        let writer = Writer::new(output, options).map_err(|e| pending.name(e))?;
        Ok(FileWriter { writer, pending })
    }

    /// Compresses what is left, writes the seek table and puts the file in
    /// place.
    pub fn finish(self) -> Result<Packed> {
        let FileWriter { writer, pending } = self;
        let (output, packed) = writer.finish().map_err(|e| pending.name(e))?;
        let file = output
            .into_inner()
            .map_err(|e| pending.name(e.into_error().into()))?;
        drop(file);
        pending.commit()?;
        Ok(packed)
    }
}

impl Write for FileWriter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.writer.write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.writer.flush()
    }
}
