//! Decoding a plan: runs of chunks that lie end to end read at once, each
//! chunk decompressed by the thread that reads it, straight into the rows
//! of the planes it holds.

use super::plan::Plan;
use super::{BROKEN, ReadOptions, Reader, at_chunk, band_lines};
use crate::exr::chunk::{Layout, samples};
use crate::exr::compress;
use crate::exr::offsets::Span;
use crate::exr::part::{Band, ChunkRef};
use crate::pipeline::Pipeline;
use crate::scratch::with_buffer;
use crate::source::Source;
use crate::{Error, Result};

impl<S: Source> Reader<S> {
    pub(super) fn decode(
        &self,
        plan: &Plan,
        planes: &mut [&mut [u8]],
        options: &ReadOptions,
    ) -> Result<()> {
        let decoder = Decoder {
            plan,
            threads: options.threads,
        };
        let source = &self.source;
        self.with_spans(plan.part_index, |spans| decoder.run(source, spans, planes))
    }
}

/// Chunks that lie end to end in a file are fetched in one read of up to
/// this many of the source's read sizes (32 KiB for a file, 1 MiB for a
/// remote object, where each read is a request): a row of tiles, or a few
/// bands of scan lines, is one request.
const MERGED_READS: usize = 16;

/// A chunk's data is at most its pixels' size (a writer stores a chunk raw
/// when compressing does not make it smaller) with a margin for writers
/// that do not: a span longer than this is read only as far as this.
fn most_data(raw: usize) -> usize {
    raw + raw / 2 + (64 << 10)
}

/// One read of chunks that lie end to end in the file.
struct Run {
    offset: u64,
    len: usize,
    /// The bytes of each chunk, in order.
    lens: Vec<usize>,
}

/// Decodes the bands of a plan.
struct Decoder<'a> {
    plan: &'a Plan<'a>,
    threads: Option<usize>,
}

impl Decoder<'_> {
    /// Decodes every band in parallel, each straight into its rows of each
    /// plane.
    fn run<S: Source + ?Sized>(
        &self,
        source: &S,
        spans: &[Span],
        planes: &mut [&mut [u8]],
    ) -> Result<()> {
        let plan = self.plan;
        let window = &plan.window;
        // Each band's rows of each plane: the band's lines inside the
        // window that the plane's channel samples.
        let mut outputs: Vec<Vec<&mut [u8]>> = plan
            .bands
            .iter()
            .map(|_| Vec::with_capacity(planes.len()))
            .collect();
        for (plane, shape) in planes.iter_mut().zip(&plan.shapes) {
            let ys = plan.part.sampling[shape.channel].1;
            let mut rest: &mut [u8] = plane;
            for (band, out) in plan.bands.iter().zip(&mut outputs) {
                let (top, bottom) = band_lines(band, window);
                let rows = samples(top, (bottom - top) as usize, ys);
                let (mine, after) =
                    std::mem::take(&mut rest).split_at_mut(rows * shape.width * shape.sample_size);
                out.push(mine);
                rest = after;
            }
        }
        let band_bytes = plan.bands.first().map_or(0, |band| {
            band.chunks.iter().map(|c| self.layout(c).bytes()).sum()
        });
        // Neighbours in the file come in one read (for a remote source, one
        // request); where each read is a request, all are asked for at once.
        let runs: Vec<Vec<Run>> = plan
            .bands
            .iter()
            .map(|band| self.runs(source, spans, &band.chunks))
            .collect();
        let reads: Vec<(u64, usize)> = runs.iter().flatten().map(|r| (r.offset, r.len)).collect();
        source.prefetch(&reads);
        Pipeline::new(self.threads)?
            .grouping(plan.bands.len(), band_bytes)
            .stream(
                plan.bands.iter().zip(outputs).zip(runs),
                |((band, mut out), runs)| {
                    let mut chunks = band.chunks.iter();
                    for run in &runs {
                        with_buffer(run.len, |bytes| {
                            source.read_exact_at(bytes, run.offset)?;
                            let mut at = 0;
                            // The lengths first: zip stops at their end
                            // without taking the next run's chunk.
                            for (&len, chunk) in run.lens.iter().zip(chunks.by_ref()) {
                                let span = &spans[chunk.index];
                                self.chunk(&bytes[at..at + len], span, band, chunk, &mut out)?;
                                at += len;
                            }
                            Ok::<_, Error>(())
                        })?;
                    }
                    Ok(())
                },
                |()| Ok(()),
            )
    }

    fn layout(&self, chunk: &ChunkRef) -> Layout<'_> {
        let part = self.plan.part;
        Layout {
            sizes: &part.sizes,
            channels: part.header().channels().unwrap_or_default(),
            width: chunk.width,
            lines: chunk.lines,
            sampling: &part.sampling,
            origin: (chunk.x, chunk.y),
        }
    }

    /// The reads that fetch `chunks` (a band's, in order): chunks that lie
    /// end to end in the file, each read whole, share one read of up to
    /// [`MERGED_READS`] of the source's read sizes.
    fn runs<S: Source + ?Sized>(
        &self,
        source: &S,
        spans: &[Span],
        chunks: &[ChunkRef],
    ) -> Vec<Run> {
        let limit = source.read_size().saturating_mul(MERGED_READS);
        let mut runs: Vec<Run> = Vec::new();
        // Where the last chunk's span ends, when it was read whole.
        let mut reached = None;
        for chunk in chunks {
            let span = &spans[chunk.index];
            let len = self.read_len(span, chunk);
            match runs.last_mut() {
                Some(run) if reached == Some(span.offset) && run.len + len <= limit => {
                    run.len += len;
                    run.lens.push(len);
                }
                _ => runs.push(Run {
                    offset: span.offset,
                    len,
                    lens: vec![len],
                }),
            }
            reached = (len as u64 == span.len)
                .then(|| span.offset.checked_add(span.len))
                .flatten();
        }
        runs
    }

    /// How many bytes from `span`'s offset are read for `chunk`: at most
    /// the file's size (spans lie inside it), and at most the chunk's
    /// pixels with a margin unless the span is exact.
    fn read_len(&self, span: &Span, chunk: &ChunkRef) -> usize {
        let prefix = 4 * (self.plan.chunk_prefix(chunk).len() + 1);
        let most = prefix + most_data(self.layout(chunk).bytes());
        if span.exact {
            span.len as usize
        } else {
            span.len.min(most as u64) as usize
        }
    }

    /// Checks that the bytes read at `span` (`bytes`, [`Decoder::read_len`]
    /// of them) open with `chunk`'s prefix, decodes the chunk and copies
    /// the rows the plan wants into `out` (the band's rows of each plane).
    fn chunk(
        &self,
        bytes: &[u8],
        span: &Span,
        band: &Band,
        chunk: &ChunkRef,
        out: &mut [&mut [u8]],
    ) -> Result<()> {
        let layout = self.layout(chunk);
        let raw = layout.bytes();
        let part = self.plan.part;
        let expected = self.plan.chunk_prefix(chunk);
        let prefix = 4 * (expected.len() + 1);
        let len = bytes.len();
        let int = |i: usize| i32::from_le_bytes(bytes[4 * i..4 * i + 4].try_into().expect("4"));
        let data = (len >= prefix && (0..expected.len()).all(|i| int(i) == expected[i]))
            .then(|| int(expected.len()))
            .and_then(|n| usize::try_from(n).ok())
            .filter(|&n| n <= len - prefix);
        let Some(data) = data else {
            return Err(Error::Corrupt {
                what: if span.exact {
                    "a chunk's size is negative or past the end of the file"
                } else {
                    BROKEN
                },
                offset: Some(span.offset),
                path: None,
            });
        };
        let data = &bytes[prefix..prefix + data];
        with_buffer(raw, |decoded| {
            compress::decompress(part.compression(), data, &layout, decoded)
                .map_err(|e| at_chunk(e, span.offset + prefix as u64))?;
            self.copy_rows(decoded, &layout, band, out);
            Ok(())
        })
    }

    /// Copies the rows of the decoded chunk that fall in the window, cut
    /// to the window, into the band's rows of each plane.
    fn copy_rows(&self, decoded: &[u8], layout: &Layout, band: &Band, out: &mut [&mut [u8]]) {
        let plan = self.plan;
        let window = &plan.window;
        let (top, bottom) = band_lines(band, window);
        let (x, width) = (layout.origin.0, layout.width as i64);
        let left = i64::from(window.x_min).max(i64::from(x));
        let right = (i64::from(window.x_max) + 1).min(i64::from(x) + width);
        // For each plane: the bytes of the chunk's row before the window
        // and in it, the bytes of the plane's row before the chunk.
        let cuts: Vec<(usize, usize, usize)> = plan
            .shapes
            .iter()
            .map(|shape| {
                let xs = plan.part.sampling[shape.channel].0;
                let size = shape.sample_size;
                (
                    samples(x, (left - i64::from(x)) as usize, xs) * size,
                    samples(left as i32, (right - left) as usize, xs) * size,
                    samples(window.x_min, (left - i64::from(window.x_min)) as usize, xs) * size,
                )
            })
            .collect();
        for row in layout.rows() {
            let y = i64::from(layout.origin.1) + row.line as i64;
            if y < i64::from(top) || y >= i64::from(bottom) {
                continue;
            }
            for (p, shape) in plan.shapes.iter().enumerate() {
                if shape.channel != row.channel {
                    continue;
                }
                let ys = plan.part.sampling[shape.channel].1;
                let (skip, take, to) = cuts[p];
                let index = samples(top, (y - i64::from(top)) as usize, ys);
                let at = index * shape.width * shape.sample_size + to;
                let from = row.at + skip;
                out[p][at..at + take].copy_from_slice(&decoded[from..from + take]);
            }
        }
    }
}
