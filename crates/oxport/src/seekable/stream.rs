//! Streaming decompression of a compressed range, for what has no size in
//! the index (archives whose frames do not record it) or is too large to
//! hold at once (frames above the cache limit): bytes come out in order,
//! and a read behind the position starts over.

use zstd_safe::{DCtx, InBuffer, OutBuffer, ResetDirective};

use super::table::Frame;
use crate::source::Source;
use crate::{Error, Result};

/// Decompresses `source[start..end]` (one or more frames; skippable frames
/// are stepped over) from decompressed offset `origin` on.
pub struct Stream {
    start: u64,
    end: u64,
    origin: u64,
    /// The decompressed offset of the next byte out.
    position: u64,
    /// The next compressed byte to read from the source.
    next: u64,
    input: Vec<u8>,
    used: usize,
    /// 0 once the last frame started is complete.
    pending: usize,
    /// Where the data's checksum, when `expected`, is compared at the end.
    hasher: xxhash_rust::xxh64::Xxh64,
    expected: Option<u32>,
    /// The whole range has been decompressed.
    finished: bool,
    context: DCtx<'static>,
}

impl Stream {
    /// A stream of `source[start..end]`, whose data starts at `origin`;
    /// `checksum` is the low 32 bits of the XXH64 of all of it, when known.
    pub fn new(start: u64, end: u64, origin: u64, checksum: Option<u32>) -> Self {
        Stream {
            start,
            end,
            origin,
            position: origin,
            next: start,
            input: Vec::new(),
            used: 0,
            pending: 0,
            hasher: xxhash_rust::xxh64::Xxh64::new(0),
            expected: checksum,
            finished: false,
            context: DCtx::create(),
        }
    }

    /// A stream of one frame, checked against its checksum when it has one.
    pub fn of_frame(frame: &Frame) -> Self {
        let (start, end) = (
            frame.compressed_offset,
            frame.compressed_offset + frame.compressed_size,
        );
        Stream::new(start, end, frame.offset, frame.checksum)
    }

    /// Turns this stream into the stream of `frame`, keeping its buffers and
    /// its context.
    pub fn retarget(&mut self, frame: &Frame) {
        let end = frame.compressed_offset + frame.compressed_size;
        (self.start, self.end) = (frame.compressed_offset, end);
        (self.origin, self.expected) = (frame.offset, frame.checksum);
        self.restart();
    }

    /// Whether this stream decompresses the range that starts at `start`.
    pub fn covers(&self, start: u64) -> bool {
        self.start == start
    }

    /// The decompressed offset of the next byte out.
    pub fn position(&self) -> u64 {
        self.position
    }

    /// Whether the whole range has been decompressed.
    pub fn finished(&self) -> bool {
        self.finished
    }

    /// Goes back to the start of the range.
    pub fn restart(&mut self) {
        self.position = self.origin;
        self.next = self.start;
        self.input.clear();
        self.used = 0;
        self.pending = 0;
        self.hasher.reset(0);
        self.finished = false;
        // Resetting a session cannot fail.
        let _ = self.context.reset(ResetDirective::SessionOnly);
    }

    /// Fills `out` with the next bytes; fewer only at the end of the range.
    /// Returns the count.
    pub fn read(&mut self, source: &impl Source, out: &mut [u8]) -> Result<usize> {
        let mut filled = 0;
        while filled < out.len() {
            if self.used == self.input.len() && self.next < self.end {
                // The source's size for reads that may stop early: little
                // past what is needed, or few requests.
                let take = (self.end - self.next).min(source.read_size() as u64) as usize;
                self.input.resize(take, 0);
                source.read_exact_at(&mut self.input, self.next)?;
                self.next += take as u64;
                self.used = 0;
            }
            let at_end = self.used == self.input.len() && self.next == self.end;
            if at_end && self.pending == 0 {
                self.check_sum()?;
                self.finished = true;
                break;
            }
            let mut input = InBuffer::around(&self.input[self.used..]);
            let mut output = OutBuffer::around(&mut out[filled..]);
            self.pending = self
                .context
                .decompress_stream(&mut output, &mut input)
                .map_err(|_| Error::Corrupt {
                    what: "frame does not decompress (damaged data)",
                    offset: Some(self.next),
                    path: None,
                })?;
            let (produced, consumed) = (output.pos(), input.pos());
            if at_end && produced == 0 && consumed == 0 {
                return Err(Error::Corrupt {
                    what: "archive truncated in the middle of a frame",
                    offset: Some(self.end),
                    path: None,
                });
            }
            self.used += consumed;
            self.hasher.update(&out[filled..filled + produced]);
            filled += produced;
        }
        self.position += filled as u64;
        Ok(filled)
    }

    /// Checks that the range has no more data (and so that the checksum,
    /// when there is one, holds).
    pub fn expect_end(&mut self, source: &impl Source) -> Result<()> {
        let mut probe = [0u8; 1];
        if self.read(source, &mut probe)? != 0 {
            return Err(Error::Corrupt {
                what: "frame decompresses to more than its size",
                offset: Some(self.start),
                path: None,
            });
        }
        Ok(())
    }

    /// Writes everything left in the range to `output` through `buffer`,
    /// calling `written(count)` after each piece. Returns the total.
    pub fn copy_to(
        &mut self,
        source: &impl Source,
        output: &mut impl std::io::Write,
        buffer: &mut [u8],
        mut written: impl FnMut(u64),
    ) -> Result<u64> {
        let mut total = 0;
        loop {
            let n = self.read(source, buffer)?;
            if n == 0 {
                return Ok(total);
            }
            output.write_all(&buffer[..n])?;
            total += n as u64;
            written(n as u64);
        }
    }

    /// Reads and drops bytes up to `target`; stops early at the end.
    pub fn skip_to(&mut self, source: &impl Source, target: u64) -> Result<()> {
        if self.position >= target {
            // The common case (a read that goes on where the last stopped):
            // no scratch buffer to make.
            return Ok(());
        }
        let mut scratch = vec![0u8; 64 * 1024];
        while self.position < target {
            let take = (target - self.position).min(scratch.len() as u64) as usize;
            if self.read(source, &mut scratch[..take])? == 0 {
                break;
            }
        }
        Ok(())
    }

    fn check_sum(&mut self) -> Result<()> {
        if let Some(expected) = self.expected
            && self.hasher.digest() as u32 != expected
        {
            return Err(Error::Corrupt {
                what: "frame checksum mismatch (damaged data)",
                offset: Some(self.start),
                path: None,
            });
        }
        Ok(())
    }
}

/// Decompresses everything `input` yields (zstd frames, skippable frames
/// stepped over) into `output` in one pass, for inputs that cannot be
/// read at an offset (a pipe). The seek table, when there is one, is a
/// skippable frame: its checksums are not verified on this path.
/// `progress(done, 0)`: the size is not known ahead.
pub fn unpack_stream(
    mut input: impl std::io::Read,
    mut output: impl std::io::Write,
    mut progress: impl FnMut(u64, u64),
) -> Result<u64> {
    let mut context = DCtx::create();
    let mut compressed = vec![0u8; DCtx::in_size()];
    let mut decompressed = vec![0u8; DCtx::out_size()];
    let (mut done, mut read, mut pending) = (0u64, 0u64, 0usize);
    loop {
        let n = loop {
            match input.read(&mut compressed) {
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                other => break other?,
            }
        };
        if n == 0 {
            break;
        }
        let mut chunk = InBuffer::around(&compressed[..n]);
        // Until the chunk is used up and zstd holds nothing back (it has
        // room left in the output).
        loop {
            let mut out = OutBuffer::around(&mut decompressed[..]);
            pending = context
                .decompress_stream(&mut out, &mut chunk)
                .map_err(|_| Error::Corrupt {
                    what: "frame does not decompress (damaged data or not zstd)",
                    offset: Some(read),
                    path: None,
                })?;
            let produced = out.pos();
            output.write_all(&decompressed[..produced])?;
            done += produced as u64;
            if chunk.pos() == n && produced < decompressed.len() {
                break;
            }
        }
        read += n as u64;
        progress(done, 0);
    }
    if pending != 0 {
        return Err(Error::Corrupt {
            what: "input ends in the middle of a frame (truncated)",
            offset: Some(read),
            path: None,
        });
    }
    if read == 0 {
        return Err(Error::corrupt("empty input: not a zstd archive"));
    }
    output.flush()?;
    Ok(done)
}
