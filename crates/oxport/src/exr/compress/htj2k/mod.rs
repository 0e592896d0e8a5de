//! HTJ2K (`HTJ2K256`, `HTJ2K32`: OpenEXR 3.4's lossless High-Throughput
//! JPEG 2000, ITU-T T.814): each chunk is OpenEXR's small header (the
//! channel of each component, [`header`]) and a JPEG 2000 codestream of one
//! tile ([`markers`]), coded with the reversible 5/3 wavelet, 5 levels,
//! 128×32 HT code-blocks and, for R, G and B, the reversible color
//! transform; half and float samples go in as their bit patterns, negative
//! ones through NLT's binary complement.
//!
//! Work in progress: the chunk header, the codestream's markers and the
//! packets ([`geometry`] of the resolutions, subbands and code-blocks,
//! [`packets`]: each code-block's segments) are read and checked against
//! the part; decoding the code-blocks, the wavelet and writing are the
//! next steps. Until they land, parts of these
//! methods are refused when opened (`Compression::can_read`), and a chunk
//! handed to the decoder directly (`decompress_chunk`, the fuzz target) is
//! refused as unsupported after reading its packets.

// The codestream's parameters are read whole; the decoder that uses all of
// them is the next step.
#![allow(dead_code)]

mod bits;
mod color;
mod geometry;
mod header;
mod markers;
mod packets;
mod wavelet;

use super::super::attribute::PixelType;
use super::super::chunk::Layout;
use crate::{Error, Result};

/// Decodes the HTJ2K chunk `packed` of `layout` into `out`.
pub(crate) fn decompress(packed: &[u8], layout: &Layout, out: &mut [u8]) -> Result<()> {
    let chunk = header::read(packed, layout.channels.len())?;
    let codestream = markers::read(chunk.codestream)?;
    check(&codestream, &chunk.channels, layout)?;
    let (across, down) = codestream.tiles();
    for tile in 0..across * down {
        let tile = u16::try_from(tile)
            .map_err(|_| Error::corrupt("an HTJ2K codestream of more tiles than SOT can name"))?;
        let area = geometry::tile_rect(&codestream, tile);
        let shapes = codestream
            .components
            .iter()
            .map(|c| geometry::resolutions(geometry::component_rect(area, c), c))
            .collect::<Result<Vec<_>>>()?;
        packets::read(&codestream, tile, &shapes)?;
    }
    let _ = out;
    Err(Error::Unsupported(
        "reading HTJ2K's code-blocks (the chunk's headers are read; decoding them is not \
         written yet)"
            .into(),
    ))
}

/// Whether `codestream`'s image is the chunk's: its size, and per
/// component the sampling, depth and sign of the channel it holds.
fn check(codestream: &markers::Codestream, channels: &[usize], layout: &Layout) -> Result<()> {
    let corrupt = |what| Err(Error::corrupt(what));
    let image = codestream.image;
    if (image.x0, image.y0) != (0, 0)
        || (image.x1 as usize, image.y1 as usize) != (layout.width, layout.lines)
    {
        return corrupt("an HTJ2K codestream of another size than its chunk");
    }
    if codestream.components.len() != channels.len() {
        return corrupt(
            "an HTJ2K codestream of another number of components than the part's channels",
        );
    }
    for (component, &index) in codestream.components.iter().zip(channels) {
        let channel = &layout.channels[index];
        let (depth, signed) = match channel.pixel_type {
            PixelType::Half => (16, true),
            PixelType::Float => (32, true),
            PixelType::Uint => (32, false),
        };
        let sampling = (component.sampling.0 as usize, component.sampling.1 as usize);
        let samples = |size: usize, step: usize| size.div_ceil(step);
        if (component.depth, component.signed) != (depth, signed)
            || i64::from(channel.x_sampling) != sampling.0 as i64
            || i64::from(channel.y_sampling) != sampling.1 as i64
            || samples(layout.width, sampling.0) != layout.channel_width(index)
            || samples(layout.lines, sampling.1) != layout.channel_lines(index)
        {
            return corrupt("an HTJ2K component that does not match its channel");
        }
    }
    Ok(())
}
