//! Recompressing a file: read every part and level, change the compression
//! (and, if asked, how the parts are stored), write (whole or not at all);
//! the pixels and every other attribute stay as they were.

use std::path::Path;

use super::attribute::AttributeValue;
use super::deep::DeepImage;
use super::header::Header;
use super::method::Compression;
use super::part::Part;
use super::read::{ReadOptions, Reader, Selection};
use super::tile::{LevelMode, Tiles};
use super::write::{DeepLevel, Pixels, WriteOptions, WritePart, write_parts};
use crate::Result;
use crate::atomic::Output;
use serde::{Deserialize, Serialize};

/// How the parts of the output are stored.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Storing {
    /// As in the input: every part, level and tile kept.
    #[default]
    Keep,
    /// Every part as scan lines: a tiled part's full resolution (its other
    /// levels are left out), a deep tiled part as deep scan lines.
    ScanLines,
    /// Every part in these tiles. A flat part keeps its levels when the
    /// input has the same level mode and rounding, and has them made
    /// otherwise ([`super::make_levels`]); a deep part keeps its levels
    /// when the input has the same level mode and rounding, and has one
    /// otherwise.
    Tiles(Tiles),
}

impl Storing {
    /// The storing the command line and the Python package's options name:
    /// `scanlines`, or `tiles` of `(width, height)` pixels with `levels`
    /// (`one`, `mipmap`, `ripmap`) and `rounding` (`down`, `up`), or
    /// neither to keep the input's.
    pub fn choose(
        scanlines: bool,
        tiles: Option<(u32, u32)>,
        levels: &str,
        rounding: &str,
    ) -> Result<Storing> {
        match (scanlines, tiles) {
            (true, Some(_)) => Err(crate::Error::invalid(
                "scanlines and tiles: one or the other",
            )),
            (true, None) => Ok(Storing::ScanLines),
            (false, Some((width, height))) => Ok(Storing::Tiles(Tiles::new(
                width,
                height,
                levels.parse()?,
                rounding.parse()?,
            )?)),
            (false, None) => Ok(Storing::Keep),
        }
    }
}

/// How to convert.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ConvertOptions {
    /// The compression of the output. Deep parts take it when OpenEXR
    /// allows it for deep data (NONE, RLE, ZIPS), and ZIPS otherwise.
    #[serde(with = "crate::as_text")]
    pub compression: Compression,
    /// Its level (`None`: OpenEXR's default).
    pub level: Option<i32>,
    /// How the parts are stored.
    pub storing: Storing,
    /// Threads for reading and writing chunks (`None`: one per core).
    #[serde(skip)]
    pub threads: Option<usize>,
}

/// What a conversion did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Converted {
    /// The input file's size.
    pub input_bytes: u64,
    /// The output file's size.
    pub output_bytes: u64,
}

/// One part as read, ready to write.
enum Read {
    Flat(Vec<Vec<Vec<u8>>>),
    Deep(Vec<DeepImage>),
}

/// Rewrites the OpenEXR file `input` as `output` with another compression,
/// every part and level kept (or stored as `options.storing` says).
/// `output` may be `input`: the file is replaced only once the new one is
/// whole. `output` may also be a URL or a stream ([`Output`]).
pub fn convert<'a>(
    input: &Path,
    output: impl Into<Output<'a>>,
    options: &ConvertOptions,
) -> Result<Converted> {
    let output = output.into();
    let reader = Reader::open(input)?;
    let input_bytes = reader.size();
    let read_options = ReadOptions {
        threads: options.threads,
    };
    let mut headers = Vec::with_capacity(reader.parts().len());
    let mut pixels = Vec::with_capacity(reader.parts().len());
    for (index, part) in reader.parts().iter().enumerate() {
        let (header, levels) = restore(part, options)?;
        let at = |level: (usize, usize)| Selection {
            part: index,
            level,
            channels: None,
            window: None,
        };
        let levels = part.levels()[..levels].iter();
        pixels.push(if part.storage().is_deep() {
            Read::Deep(
                levels
                    .map(|l| reader.read_deep(&at((l.x, l.y)), &read_options))
                    .collect::<Result<_>>()?,
            )
        } else {
            Read::Flat(
                levels
                    .map(|l| reader.read_selection(&at((l.x, l.y)), &read_options))
                    .collect::<Result<_>>()?,
            )
        });
        headers.push(header);
    }
    let parts: Vec<WritePart> = headers
        .iter()
        .zip(&pixels)
        .map(|(header, read)| WritePart {
            header,
            pixels: match read {
                Read::Flat(levels) => Pixels::Flat(
                    levels
                        .iter()
                        .map(|planes| planes.iter().map(Vec::as_slice).collect())
                        .collect(),
                ),
                Read::Deep(levels) => Pixels::Deep(
                    levels
                        .iter()
                        .map(|image| DeepLevel {
                            counts: &image.counts,
                            channels: image.channels.iter().map(Vec::as_slice).collect(),
                        })
                        .collect(),
                ),
            },
        })
        .collect();
    let write_options = WriteOptions {
        level: options.level,
        threads: options.threads,
    };
    let name = output.name().to_path_buf();
    let output_bytes = write_parts(output, &parts, &write_options).map_err(|e| e.at_path(&name))?;
    Ok(Converted {
        input_bytes,
        output_bytes,
    })
}

/// The header `part` is written with, and how many of its levels are read
/// (the others are made by the writer, or left out).
fn restore(part: &Part, options: &ConvertOptions) -> Result<(Header, usize)> {
    let mut header = part.header().clone();
    let deep = part.storage().is_deep();
    let method = match options.compression {
        m if deep && !m.can_write_deep() => Compression::Zips,
        m => m,
    };
    header.set("compression", AttributeValue::Compression(method));
    let levels = match (options.storing, part.storage()) {
        (Storing::Keep, _) => part.levels().len(),
        (Storing::ScanLines, _) => {
            header.set_layout(None, deep);
            1
        }
        (Storing::Tiles(tiles), storage) => {
            let kept = storage
                .tiles()
                .is_some_and(|old| (old.mode, old.rounding) == (tiles.mode, tiles.rounding));
            // No filter makes a deep part's levels: it keeps its own, or
            // has one.
            let tiles = if deep && !kept {
                Tiles {
                    mode: LevelMode::One,
                    ..tiles
                }
            } else {
                tiles
            };
            header.set_layout(Some(tiles), deep);
            if kept { part.levels().len() } else { 1 }
        }
    };
    // The writer sets it for the parts it writes.
    header.attributes.retain(|(name, _)| name != "chunkCount");
    Ok((header, levels))
}
