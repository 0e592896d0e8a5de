//! One chunk of a flat part: its prefix (part number, first line or tile
//! and level), its size, and its pixels packed in the chunk layout and
//! compressed with the part's method.

use super::super::chunk::{self, Layout};
use super::super::compress;
use super::super::part::{ChunkRef, Part};
use crate::scratch::with_buffer;
use crate::{Error, Result};

/// Appends the chunk `chunk` of level `level` (whose planes are `planes`)
/// of `part` (number `number` in a multi-part file) to `block`.
pub(super) fn encode(
    part: &Part,
    number: Option<i32>,
    planes: &[&[u8]],
    level: usize,
    chunk: &ChunkRef,
    compression_level: Option<i32>,
    block: &mut Vec<u8>,
) -> Result<()> {
    let size_at = super::begin_chunk(part, number, chunk, 4, block);
    let origin = part.level_window(level);
    let layout = Layout {
        sizes: &part.sizes,
        channels: part.header().channels()?,
        width: chunk.width,
        lines: chunk.lines,
        sampling: &part.sampling,
        origin: (chunk.x, chunk.y),
    };
    let width = part.levels()[level].width;
    with_buffer(layout.bytes(), |raw| {
        chunk::pack(planes, (origin.x_min, origin.y_min), width, &layout, raw);
        let start = block.len();
        compress::compress(
            part.compression(),
            compression_level,
            raw,
            &layout,
            part.storage().tiles().is_some(),
            block,
        )?;
        let size = i32::try_from(block.len() - start).map_err(|_| {
            Error::invalid("a chunk is larger than 2 GiB: the tiles or lines are too wide")
        })?;
        block[size_at..size_at + 4].copy_from_slice(&size.to_le_bytes());
        Ok(())
    })
}
