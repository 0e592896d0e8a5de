//! Deep parts: any number of samples per pixel. A chunk (a run of lines or
//! a tile) holds, after its coordinates, three sizes (the packed sample
//! count table, the packed samples, the unpacked samples), then the table:
//! per line, each pixel's running total of samples (from 0 at the line's
//! start), and the samples: per line, each channel's samples of every pixel
//! of the line in turn. Both are compressed with the part's method (NONE,
//! RLE, ZIPS or ZIP).

use super::chunk::Layout;
use super::compress;
use super::method::Compression;
use super::offsets::Span;
use super::part::{Band, ChunkRef, Part};
use super::read::{BROKEN, Plan, ReadOptions, Reader, Selection, at_chunk, band_lines, max_ratio};
use crate::pipeline::Pipeline;
use crate::scratch::with_buffer;
use crate::source::Source;
use crate::{Error, Result};

/// The samples of a window of a deep part.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DeepImage {
    /// The window's width in pixels.
    pub width: usize,
    /// The window's height in pixels.
    pub height: usize,
    /// Samples at each pixel, row after row.
    pub counts: Vec<u32>,
    /// The channels read, by index in the part's `channels`.
    pub channel_indices: Vec<usize>,
    /// Each channel's samples: pixel after pixel (row after row), each
    /// pixel's samples in order, little-endian.
    pub channels: Vec<Vec<u8>>,
}

impl DeepImage {
    /// Where each pixel's samples start in a channel, in samples, and the
    /// total at the end (`width × height + 1` entries).
    pub fn offsets(&self) -> Vec<u64> {
        sample_offsets(&self.counts)
    }
}

/// Where each pixel's samples start, in samples, for `counts` samples at
/// each pixel, and the total at the end (`counts.len() + 1` entries).
pub(crate) fn sample_offsets(counts: &[u32]) -> Vec<u64> {
    let mut offsets = Vec::with_capacity(counts.len() + 1);
    let mut total = 0u64;
    offsets.push(0);
    for &n in counts {
        total += u64::from(n);
        offsets.push(total);
    }
    offsets
}

impl<S: Source> Reader<S> {
    /// Reads the samples of `selection` (a deep part, any of its channels,
    /// any window of any level) on `options.threads` threads.
    pub fn read_deep(&self, selection: &Selection, options: &ReadOptions) -> Result<DeepImage> {
        let plan = self.resolve_as(selection, true)?;
        let method = plan.part.compression();
        if !matches!(
            method,
            Compression::None | Compression::Rle | Compression::Zips | Compression::Zip
        ) {
            return Err(Error::Unsupported(
                format!(
                    "deep data compressed with {method} (OpenEXR writes deep data with none, rle \
                     or zips)"
                )
                .into(),
            ));
        }
        if plan.part.sampling.iter().any(|&s| s != (1, 1)) {
            return Err(Error::corrupt("a deep part has a subsampled channel"));
        }
        let decoder = DeepDecoder { plan: &plan };
        let source = self.source();
        self.with_spans(plan.part_index, |spans| {
            decoder.run(source, spans, options.threads)
        })
    }
}

/// Decodes a deep chunk's count table `table` (the chunk `width` × `lines`
/// pixels) into `out`. OpenEXR 3.1's writer stores a tile's table
/// compressed when that is smaller than a whole tile's table, and
/// otherwise as it is with a whole tile's size (only the cut tile's
/// entries are read); 3.5's stores it as it is when compressing does not
/// make it smaller than the cut tile's. A table of a tile cut by the data
/// window with the cut table's size is so either: zlib's checksum tells
/// (ZIP, ZIPS); other methods take it as stored, as OpenEXR 3.5 reads it.
fn count_table(
    part: &Part,
    method: Compression,
    table: &[u8],
    width: usize,
    lines: usize,
    out: &mut [u8],
) -> Result<()> {
    let layout = Layout::new(&[4], width, lines);
    let cut = out.len();
    if method == Compression::None || table.len() >= stored_table_len(part, cut) {
        let stored = table.get(..cut).ok_or_else(|| {
            Error::corrupt("a deep chunk's stored count table is shorter than its pixels")
        })?;
        out.copy_from_slice(stored);
        Ok(())
    } else if table.len() == cut && matches!(method, Compression::Zip | Compression::Zips) {
        compress::decompress_coded(method, table, &layout, out).or_else(|_| {
            out.copy_from_slice(table);
            Ok(())
        })
    } else {
        compress::decompress(method, table, &layout, out)
    }
}

/// The size OpenEXR stores a chunk's count table with, uncompressed, when
/// the cut chunk's table is `cut` bytes: a whole tile's table in a tiled
/// part (only the cut tile's entries are read), the chunk's own otherwise.
pub(in crate::exr) fn stored_table_len(part: &Part, cut: usize) -> usize {
    let whole = part.storage().tiles().map_or(0, |t| {
        (t.width as usize)
            .saturating_mul(t.height as usize)
            .saturating_mul(4)
    });
    whole.max(cut)
}

/// What one band gives: the counts of its rows in the window, and each
/// channel's samples of those rows.
struct BandSamples {
    counts: Vec<u32>,
    channels: Vec<Vec<u8>>,
}

struct DeepDecoder<'a> {
    plan: &'a Plan<'a>,
}

impl DeepDecoder<'_> {
    fn run<S: Source + ?Sized>(
        &self,
        source: &S,
        spans: &[Span],
        threads: Option<usize>,
    ) -> Result<DeepImage> {
        let plan = self.plan;
        let (width, height) = (plan.window.width() as usize, plan.window.height() as usize);
        let mut image = DeepImage {
            width,
            height,
            // Grown as bands arrive: by what the chunks hold, not by what
            // the header claims.
            counts: Vec::new(),
            channel_indices: plan.shapes.iter().map(|s| s.channel).collect(),
            channels: vec![Vec::new(); plan.shapes.len()],
        };
        Pipeline::new(threads)?.stream(
            plan.bands.iter(),
            |band| self.band(source, spans, band),
            |band| {
                image.counts.extend_from_slice(&band.counts);
                for (all, mine) in image.channels.iter_mut().zip(&band.channels) {
                    all.extend_from_slice(mine);
                }
                Ok(())
            },
        )?;
        Ok(image)
    }

    /// Decodes the chunks of `band` (left to right) and joins their rows.
    fn band<S: Source + ?Sized>(
        &self,
        source: &S,
        spans: &[Span],
        band: &Band,
    ) -> Result<BandSamples> {
        let plan = self.plan;
        let (top, bottom) = band_lines(band, &plan.window);
        let rows = (bottom - top) as usize;
        let mut counts = vec![Vec::new(); rows];
        let mut samples = vec![vec![Vec::new(); plan.shapes.len()]; rows];
        for chunk in &band.chunks {
            self.chunk(
                source,
                &spans[chunk.index],
                chunk,
                top,
                bottom,
                &mut counts,
                &mut samples,
            )?;
        }
        Ok(BandSamples {
            counts: counts.concat(),
            channels: (0..plan.shapes.len())
                .map(|c| {
                    samples
                        .iter()
                        .flat_map(|row| row[c].iter().copied())
                        .collect()
                })
                .collect(),
        })
    }

    /// Reads and decodes one chunk, appending the counts and samples of its
    /// pixels in the window to each row's.
    #[allow(clippy::too_many_arguments)]
    fn chunk<S: Source + ?Sized>(
        &self,
        source: &S,
        span: &Span,
        chunk: &ChunkRef,
        top: i32,
        bottom: i32,
        counts: &mut [Vec<u32>],
        samples: &mut [Vec<Vec<u8>>],
    ) -> Result<()> {
        let plan = self.plan;
        let part = plan.part;
        let expected = plan.chunk_prefix(chunk);
        let prefix = 4 * expected.len() + 24;
        let broken = || Error::Corrupt {
            what: if span.exact {
                "a deep chunk's sizes run past the end of the file"
            } else {
                BROKEN
            },
            offset: Some(span.offset),
            path: None,
        };
        if span.len < prefix as u64 {
            return Err(broken());
        }
        let mut head = [0u8; 4 * 5 + 24];
        let head = &mut head[..prefix];
        source.read_exact_at(head, span.offset)?;
        let int = |i: usize| i32::from_le_bytes(head[4 * i..4 * i + 4].try_into().expect("4"));
        if (0..expected.len()).any(|i| int(i) != expected[i]) {
            return Err(broken());
        }
        let long = |at: usize| u64::from_le_bytes(head[at..at + 8].try_into().expect("8"));
        let at = 4 * expected.len();
        let (packed_table, packed_data, unpacked_data) = (long(at), long(at + 8), long(at + 16));
        let rest = span.len - prefix as u64;
        if packed_table > rest || packed_data > rest - packed_table {
            return Err(broken());
        }
        let method = part.compression();
        if unpacked_data > packed_data.saturating_mul(max_ratio(method)) {
            return Err(Error::corrupt(
                "a deep chunk's unpacked size is more than its packed size can hold",
            ));
        }
        let (width, lines) = (chunk.width, chunk.lines);
        let body = (packed_table + packed_data) as usize;
        let data_at = span.offset + prefix as u64;
        with_buffer(body, |bytes| {
            source.read_exact_at(bytes, data_at)?;
            let (table, data) = bytes.split_at(packed_table as usize);
            with_buffer(width * lines * 4, |raw_table| {
                count_table(part, method, table, width, lines, raw_table)
                    .map_err(|e| at_chunk(e, data_at))?;
                // Each line's running totals, checked to only grow.
                let mut line_totals = Vec::with_capacity(lines);
                let mut total = 0u64;
                for line in raw_table.chunks_exact(width * 4) {
                    let mut previous = 0i32;
                    for entry in line.chunks_exact(4) {
                        let n = i32::from_le_bytes(entry.try_into().expect("4"));
                        if n < previous {
                            return Err(Error::corrupt("a deep chunk's sample counts go down"));
                        }
                        previous = n;
                    }
                    line_totals.push(previous as usize);
                    total += previous as u64;
                }
                let combined: u64 = part.sizes.iter().map(|&s| s as u64).sum();
                if total.saturating_mul(combined) > unpacked_data {
                    return Err(Error::corrupt(
                        "a deep chunk holds fewer samples than its counts say",
                    ));
                }
                let unpacked = unpacked_data as usize;
                with_buffer(unpacked, |raw| {
                    compress::decompress(method, data, &Layout::new(&[1], unpacked, 1), raw)
                        .map_err(|e| at_chunk(e, data_at + packed_table))?;
                    self.take_window(
                        chunk,
                        top,
                        bottom,
                        raw_table,
                        &line_totals,
                        raw,
                        counts,
                        samples,
                    );
                    Ok(())
                })
            })
        })
    }

    /// Appends the counts and samples of the chunk's pixels inside the
    /// window to the rows of the band.
    #[allow(clippy::too_many_arguments)]
    fn take_window(
        &self,
        chunk: &ChunkRef,
        top: i32,
        bottom: i32,
        table: &[u8],
        line_totals: &[usize],
        raw: &[u8],
        counts: &mut [Vec<u32>],
        samples: &mut [Vec<Vec<u8>>],
    ) {
        let plan = self.plan;
        let sizes = &plan.part.sizes;
        let window = &plan.window;
        let x = i64::from(chunk.x);
        let left = (i64::from(window.x_min).max(x) - x) as usize;
        let right = ((i64::from(window.x_max) + 1).min(x + chunk.width as i64) - x) as usize;
        let combined: usize = sizes.iter().sum();
        let mut line_start = 0;
        for (line, &line_total) in line_totals.iter().enumerate() {
            let y = i64::from(chunk.y) + line as i64;
            let start = line_start;
            line_start += line_total * combined;
            if y < i64::from(top) || y >= i64::from(bottom) {
                continue;
            }
            let row = (y - i64::from(top)) as usize;
            let running = |i: usize| -> usize {
                if i == 0 {
                    return 0;
                }
                let at = (line * chunk.width + i - 1) * 4;
                i32::from_le_bytes(table[at..at + 4].try_into().expect("4")) as usize
            };
            let (first, last) = (running(left), running(right));
            counts[row].extend((left..right).map(|i| (running(i + 1) - running(i)) as u32));
            for (out, shape) in samples[row].iter_mut().zip(&plan.shapes) {
                let c = shape.channel;
                let size = sizes[c];
                let channel_start = start + sizes[..c].iter().sum::<usize>() * line_total;
                out.extend_from_slice(
                    &raw[channel_start + first * size..channel_start + last * size],
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exr::attribute::{AttributeValue, Channel, PixelType};
    use crate::exr::header::{Header, Headers};
    use crate::exr::tile::{LevelMode, Rounding, Tiles};

    /// A deep part of 5 × 1 pixels in one 16 × 16 tile, cut by the data
    /// window to its 5 pixels.
    fn cut_tile(method: Compression) -> Part {
        let mut header =
            Header::new(5, 1, vec![Channel::new("Z", PixelType::Float)], method).expect("a header");
        header.set("type", AttributeValue::String(b"deeptile".to_vec()));
        let tiles = Tiles::new(16, 16, LevelMode::One, Rounding::Down).expect("tiles");
        header.set("tiles", tiles.to_attribute());
        Part::new(header.clone(), &Headers::describing(&[&header])).expect("a part")
    }

    #[test]
    fn a_cut_tiles_count_table_reads_as_either_openexr_writes_it() {
        let part = cut_tile(Compression::Zips);
        // The running totals 1, 3, 6, 6, 7, as OpenEXR 3.1 writes them
        // with ZIPS: a zlib stream of the cut table's 20 bytes, kept so
        // (from a ripmap level of 5 × 1 pixels in 16 × 16 tiles that
        // OpenEXR 3.1 wrote).
        let packed = [
            0x78, 0x5e, 0x63, 0xac, 0x6f, 0xae, 0x6d, 0xab, 0x6a, 0xab, 0x6a, 0xaf, 0x6c, 0x80,
            0x03, 0x00, 0x5f, 0x2b, 0x09, 0x81,
        ];
        let table: Vec<u8> = [1i32, 3, 6, 6, 7]
            .iter()
            .flat_map(|n| n.to_le_bytes())
            .collect();
        let read = |stored: &[u8]| {
            let mut out = [0u8; 20];
            count_table(&part, Compression::Zips, stored, 5, 1, &mut out).map(|()| out.to_vec())
        };
        // 3.1: compressed to the cut table's size.
        assert_eq!(read(&packed).unwrap(), table);
        // 3.5: stored with the cut table's size.
        assert_eq!(read(&table).unwrap(), table);
        // 3.1: stored with a whole tile's size, the cut tile's entries first.
        let mut whole = table.clone();
        whole.resize(16 * 16 * 4, 0xAB);
        assert_eq!(read(&whole).unwrap(), table);
        // Short of the cut table, and not zlib: damaged.
        assert!(read(&table[..12]).is_err());
    }
}
