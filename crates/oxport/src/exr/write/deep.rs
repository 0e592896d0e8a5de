//! One chunk of a deep part: its prefix, the three sizes (packed count
//! table, packed samples, unpacked samples), the count table (per line,
//! each pixel's running total from 0 at the line's start) and the samples
//! (per line, each channel's samples of every pixel of the line in turn),
//! both compressed with the part's method.

use super::super::chunk::Layout;
use super::super::compress;
use super::super::deep::stored_table_len;
use super::super::method::Compression;
use super::super::part::{ChunkRef, Part};
use crate::{Error, Result};

/// One level of a deep part's samples as the writer holds them.
pub(super) struct Samples<'a> {
    /// Samples at each pixel, row after row.
    pub counts: &'a [u32],
    /// Each channel's samples, pixel after pixel.
    pub channels: Vec<&'a [u8]>,
    /// Where each pixel's samples start, and the total at the end.
    pub offsets: Vec<u64>,
}

/// Appends the chunk `chunk` of level `level` of `part` (number `number`
/// in a multi-part file), whose samples are `samples`, to `block`.
pub(super) fn encode(
    part: &Part,
    number: Option<i32>,
    samples: &Samples,
    level: usize,
    chunk: &ChunkRef,
    block: &mut Vec<u8>,
) -> Result<()> {
    let sizes_at = super::begin_chunk(part, number, chunk, 24, block);
    let window = part.level_window(level);
    let part_width = window.width() as usize;
    let x = (i64::from(chunk.x) - i64::from(window.x_min)) as usize;
    let y = (i64::from(chunk.y) - i64::from(window.y_min)) as usize;
    let pixel = |line: usize, column: usize| (y + line) * part_width + x + column;
    let mut table = Vec::with_capacity(chunk.width * chunk.lines * 4);
    for line in 0..chunk.lines {
        let mut running = 0u64;
        for column in 0..chunk.width {
            running += u64::from(samples.counts[pixel(line, column)]);
            let total = i32::try_from(running).map_err(|_| {
                Error::invalid(format!(
                    "line {} of a deep part holds more than 2^31 samples in one chunk",
                    i64::from(chunk.y) + line as i64
                ))
            })?;
            table.extend_from_slice(&total.to_le_bytes());
        }
    }
    let mut raw = Vec::new();
    for line in 0..chunk.lines {
        let (first, last) = (
            samples.offsets[pixel(line, 0)] as usize,
            samples.offsets[pixel(line, chunk.width)] as usize,
        );
        for (plane, &size) in samples.channels.iter().zip(&part.sizes) {
            raw.extend_from_slice(&plane[first * size..last * size]);
        }
    }
    let method = part.compression();
    let start = block.len();
    compress::compress(
        method,
        None,
        &table,
        &Layout::new(&[4], chunk.width, chunk.lines),
        false,
        block,
    )?;
    // An uncompressed tile's table has a whole tile's size, as OpenEXR
    // writes it (and OpenEXR 3.1 reads it); the cut tile's entries first.
    if method == Compression::None {
        block.resize(start + stored_table_len(part, table.len()), 0);
    }
    let packed_table = block.len() - start;
    compress::compress(
        method,
        None,
        &raw,
        &Layout::new(&[1], raw.len(), 1),
        false,
        block,
    )?;
    let packed_data = block.len() - start - packed_table;
    for (i, value) in [packed_table, packed_data, raw.len()]
        .into_iter()
        .enumerate()
    {
        block[sizes_at + 8 * i..sizes_at + 8 * i + 8]
            .copy_from_slice(&(value as u64).to_le_bytes());
    }
    Ok(())
}
