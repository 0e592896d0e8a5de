//! Reading a scan line file: header, offset table, then every chunk
//! decompressed in parallel straight into its rows of each channel.

use std::path::Path;

use super::Image;
use super::chunk::{self, Layout};
use super::compress;
use super::compression::Compression;
use super::header::Header;
use super::offsets;
use super::scratch::with_buffer;
use crate::pipeline::Pipeline;
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

/// Reads the OpenEXR file at `path`.
pub fn read(path: &Path, options: &ReadOptions) -> Result<Image> {
    let bytes = std::fs::read(path).map_err(|e| Error::io_at(path, e))?;
    read_bytes(&bytes, options)
}

/// Reads an OpenEXR file held in memory.
pub fn read_bytes(file: &[u8], options: &ReadOptions) -> Result<Image> {
    let (header, table) = Header::read(file)?;
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
        .filter(|&bytes| bytes <= (file.len() as u64).saturating_mul(max_ratio(method)))
        .ok_or(Error::Corrupt {
            what: "the data window is larger than the file could hold",
            offset: None,
        })?;
    // Both fit in memory: their product was just checked against the file.
    let (width, height) = (width as usize, height as usize);
    let lines = method.lines_per_chunk();
    let count = height.div_ceil(lines);
    let chunks = offsets::chunks(file, table, count, window.y_min, lines)?;

    let mut planes: Vec<Vec<u8>> = sizes
        .iter()
        .map(|s| vec![0u8; width * height * s])
        .collect();
    {
        // Each chunk's rows of each plane, so that chunks decode in parallel
        // straight into place.
        let mut rows: Vec<Vec<&mut [u8]>> = (0..count)
            .map(|_| Vec::with_capacity(sizes.len()))
            .collect();
        for (plane, &size) in planes.iter_mut().zip(&sizes) {
            for (slot, piece) in rows.iter_mut().zip(plane.chunks_mut(lines * width * size)) {
                slot.push(piece);
            }
        }
        let work = chunks.into_iter().zip(rows).enumerate();
        Pipeline::new(options.threads)?.stream(
            work,
            |(index, (chunk, mut rows))| {
                let layout = Layout {
                    sizes: &sizes,
                    width,
                    lines: lines.min(height - index * lines),
                };
                let offset = chunk.data.as_ptr() as usize - file.as_ptr() as usize;
                with_buffer(layout.bytes(), |raw| {
                    compress::decompress(method, chunk.data, &layout, raw)
                        .map_err(|e| at_chunk(e, offset))?;
                    chunk::unpack(raw, &layout, &mut rows);
                    Ok(())
                })
            },
            |()| Ok(()),
        )?;
    }
    Ok(Image { header, planes })
}

/// A chunk's error located at its data's offset in the file.
fn at_chunk(error: Error, offset: usize) -> Error {
    match error {
        Error::Corrupt { what, offset: None } => Error::Corrupt {
            what,
            offset: Some(offset as u64),
        },
        other => other,
    }
}
