//! Recompressing a file: read, change the compression, write (whole or not
//! at all); the pixels and every other attribute stay as they were.

use std::path::Path;

use super::attribute::AttributeValue;
use super::compression::Compression;
use super::read::ReadOptions;
use super::write::{WriteOptions, write};
use crate::Result;

/// How to convert.
#[derive(Clone, Debug)]
pub struct ConvertOptions {
    /// The compression of the output.
    pub compression: Compression,
    /// Its level (`None`: OpenEXR's default).
    pub level: Option<i32>,
    /// Threads for reading and writing chunks (`None`: one per core).
    pub threads: Option<usize>,
}

/// What a conversion did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Converted {
    pub input_bytes: u64,
    pub output_bytes: u64,
}

/// Rewrites the OpenEXR file `input` as `output` with another compression.
/// `output` may be `input`: the file is replaced only once the new one is
/// whole.
pub fn convert(input: &Path, output: &Path, options: &ConvertOptions) -> Result<Converted> {
    let input_bytes = std::fs::metadata(input)
        .map_err(|e| crate::Error::io_at(input, e))?
        .len();
    let reader = super::read::Reader::open(input)?;
    let parts = reader.parts();
    if parts.len() > 1 || parts[0].levels().len() > 1 {
        return Err(crate::Error::Unsupported(
            format!(
                "{}: converting multi-part files and files with levels (oxport writes single-part \
                 scan line files yet, and would drop the rest)",
                input.display()
            )
            .into(),
        ));
    }
    let mut image = reader.read(&ReadOptions {
        threads: options.threads,
    })?;
    image.header.set(
        "compression",
        AttributeValue::Compression(options.compression),
    );
    // A one-level tiled image is written as scan lines.
    image.header.attributes.retain(|(name, _)| name != "tiles");
    if image.header.get("type").is_some() {
        image
            .header
            .set("type", AttributeValue::String(b"scanlineimage".to_vec()));
    }
    let planes: Vec<&[u8]> = image.planes.iter().map(Vec::as_slice).collect();
    let write_options = WriteOptions {
        level: options.level,
        threads: options.threads,
    };
    write(output, &image.header, &planes, &write_options)?;
    let output_bytes = std::fs::metadata(output)
        .map_err(|e| crate::Error::io_at(output, e))?
        .len();
    Ok(Converted {
        input_bytes,
        output_bytes,
    })
}
