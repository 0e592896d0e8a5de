//! Writing a scan line file: the header, a table of offsets filled in at the
//! end, and the chunks compressed in parallel through the ordered pipeline,
//! written in order as they finish. The file appears whole or not at all.

use std::io::{BufWriter, Seek, SeekFrom, Write};
use std::path::Path;

use super::attribute::LineOrder;
use super::chunk::{self, Layout};
use super::compress;
use super::compression::Compression;
use super::header::Header;
use super::scratch::with_buffer;
use crate::pipeline::Pipeline;
use crate::{Error, Result, atomic};

/// How to write.
#[derive(Clone, Debug, Default)]
pub struct WriteOptions {
    /// The compression level: deflate 0 to 12 for ZIP and ZIPS (OpenEXR's
    /// default 4), zstd's levels for ZSTD (OpenEXR's default 5). `None`:
    /// OpenEXR's default, which gives OpenEXR's bytes.
    pub level: Option<i32>,
    /// Threads compressing chunks (`None`: one per core).
    pub threads: Option<usize>,
}

/// Writes `planes` (one per channel of `header`, in the header's order:
/// row after row of little-endian samples) as an OpenEXR file at `path`,
/// compressed as the header's `compression` attribute says.
pub fn write(path: &Path, header: &Header, planes: &[&[u8]], options: &WriteOptions) -> Result<()> {
    let plan = Plan::new(header, planes, options)?;
    atomic::write_file(path, |file| {
        let mut out = BufWriter::with_capacity(1 << 20, file);
        plan.write(&mut out)?;
        out.into_inner().map_err(|e| Error::from(e.into_error()))?;
        Ok(())
    })
}

/// Writes the file into memory.
pub fn write_bytes(header: &Header, planes: &[&[u8]], options: &WriteOptions) -> Result<Vec<u8>> {
    let mut out = std::io::Cursor::new(Vec::new());
    Plan::new(header, planes, options)?.write(&mut out)?;
    Ok(out.into_inner())
}

/// Everything checked, ready to write.
struct Plan<'a> {
    header: &'a Header,
    planes: &'a [&'a [u8]],
    options: &'a WriteOptions,
    method: Compression,
    sizes: Vec<usize>,
    width: usize,
    height: usize,
}

impl<'a> Plan<'a> {
    fn new(header: &'a Header, planes: &'a [&'a [u8]], options: &'a WriteOptions) -> Result<Self> {
        header.check_writable()?;
        let method = header.compression().map_err(|_| {
            Error::invalid("the header needs a compression attribute oxport writes")
        })?;
        if !method.can_write() {
            return Err(Error::Unsupported(
                format!(
                    "writing {method} compression (oxport writes {})",
                    Compression::writable_names()
                )
                .into(),
            ));
        }
        check_level(method, options.level)?;
        let channels = header.channels()?;
        if planes.len() != channels.len() {
            return Err(Error::invalid(format!(
                "{} channels in the header but {} planes of pixels",
                channels.len(),
                planes.len()
            )));
        }
        let window = header.data_window()?;
        let (width, height) = (
            usize::try_from(window.width()).map_err(|_| Error::invalid("the image is too wide"))?,
            usize::try_from(window.height())
                .map_err(|_| Error::invalid("the image is too tall"))?,
        );
        let sizes: Vec<usize> = channels.iter().map(|c| c.pixel_type.size()).collect();
        for ((channel, plane), size) in channels.iter().zip(planes).zip(&sizes) {
            let expected = width.checked_mul(height).and_then(|n| n.checked_mul(*size));
            if expected != Some(plane.len()) {
                return Err(Error::invalid(format!(
                    "channel {:?}: {width}×{height} pixels of {size} bytes need {} bytes, the plane has {}",
                    channel.name,
                    width as u128 * height as u128 * *size as u128,
                    plane.len()
                )));
            }
        }
        Ok(Plan {
            header,
            planes,
            options,
            method,
            sizes,
            width,
            height,
        })
    }

    fn write(&self, out: &mut (impl Write + Seek)) -> Result<()> {
        let mut head = Vec::new();
        self.header.write(&mut head)?;
        let lines = self.method.lines_per_chunk();
        let count = self.height.div_ceil(lines);
        let table_at = head.len() as u64;
        head.resize(head.len() + 8 * count, 0);
        out.write_all(&head)?;
        let y_min = self.header.data_window()?.y_min;
        let mut order: Vec<usize> = (0..count).collect();
        if self.header.line_order() == LineOrder::DecreasingY {
            order.reverse();
        }
        let mut offsets = vec![0u64; count];
        let mut at = head.len() as u64;
        let mut written = order.iter();
        let full = Layout {
            channels: self.header.channels()?,
            ..Layout::new(&self.sizes, self.width, lines)
        };
        Pipeline::new(self.options.threads)?
            .grouping(count, full.bytes())
            .run(
                order.iter().copied(),
                |index, block| {
                    let layout = Layout {
                        lines: lines.min(self.height - index * lines),
                        ..full
                    };
                    let y = i64::from(y_min) + (index * lines) as i64;
                    block.extend_from_slice(&(y as i32).to_le_bytes());
                    block.extend_from_slice(&[0; 4]);
                    with_buffer(layout.bytes(), |raw| {
                        chunk::pack(self.planes, &layout, index * lines, raw);
                        compress::compress(self.method, self.options.level, raw, &layout, block)
                    })?;
                    let size = i32::try_from(block.len() - 8).map_err(|_| {
                        Error::invalid("a chunk is larger than 2 GiB: the image is too wide")
                    })?;
                    block[4..8].copy_from_slice(&size.to_le_bytes());
                    Ok(())
                },
                |block| {
                    let index = *written.next().expect("one block per chunk");
                    offsets[index] = at;
                    at += block.len() as u64;
                    out.write_all(block).map_err(Error::from)
                },
            )?;
        let table: Vec<u8> = offsets.iter().flat_map(|o| o.to_le_bytes()).collect();
        out.seek(SeekFrom::Start(table_at))?;
        out.write_all(&table)?;
        out.seek(SeekFrom::End(0))?;
        Ok(())
    }
}

/// The levels a method accepts.
fn check_level(method: Compression, level: Option<i32>) -> Result<()> {
    let Some(level) = level else { return Ok(()) };
    let range = match method {
        Compression::Zip | Compression::Zips | Compression::Pxr24 => crate::codec::deflate::LEVELS,
        Compression::Zstd => crate::codec::zstd::levels(),
        other => {
            return Err(Error::invalid(format!("{other} compression has no levels")));
        }
    };
    if range.contains(&level) {
        Ok(())
    } else {
        Err(Error::invalid(format!(
            "level {level} for {method}: {} to {}",
            range.start(),
            range.end()
        )))
    }
}
