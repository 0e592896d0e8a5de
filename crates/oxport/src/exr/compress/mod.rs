//! Chunk compression by method. Every method stores a chunk raw when
//! compressing does not make it smaller, and a reader takes a chunk whose
//! size equals its uncompressed size as raw, as OpenEXR does.

pub mod b44;
pub mod dwa;
pub mod piz;
pub mod pxr24;
pub mod rle;
pub mod zip;
pub mod zstd;

use super::chunk::Layout;
use super::compression::Compression;
use crate::{Error, Result};

/// The level a method uses when none is given: OpenEXR's defaults.
pub fn default_level(method: Compression) -> Option<i32> {
    match method {
        Compression::Zip | Compression::Zips | Compression::Pxr24 => Some(zip::DEFAULT_LEVEL),
        Compression::Zstd => Some(zstd::DEFAULT_LEVEL),
        _ => None,
    }
}

/// Appends the chunk `raw` (in `layout`) compressed with `method` at
/// `level` (`None`: the method's default) to `out`.
pub(crate) fn compress(
    method: Compression,
    level: Option<i32>,
    raw: &[u8],
    layout: &Layout,
    out: &mut Vec<u8>,
) -> Result<()> {
    let start = out.len();
    match method {
        Compression::None => {}
        Compression::Rle => rle::compress(raw, out),
        Compression::Zip | Compression::Zips => {
            zip::compress(raw, level.unwrap_or(zip::DEFAULT_LEVEL), out)?
        }
        Compression::Zstd => {
            zstd::compress(raw, layout, level.unwrap_or(zstd::DEFAULT_LEVEL), out)?
        }
        Compression::Pxr24 => {
            check_channels(layout)?;
            pxr24::compress(raw, layout, level.unwrap_or(zip::DEFAULT_LEVEL), out)?
        }
        other => {
            return Err(Error::Unsupported(
                format!(
                    "writing {other} compression (oxport writes {})",
                    Compression::writable_names()
                )
                .into(),
            ));
        }
    }
    if method == Compression::None || out.len() - start >= raw.len() {
        out.truncate(start);
        out.extend_from_slice(raw);
    }
    Ok(())
}

/// The methods that code by type need every channel.
fn check_channels(layout: &Layout) -> Result<()> {
    if layout.channels.len() == layout.sizes.len() {
        Ok(())
    } else {
        Err(Error::Internal(
            "a chunk layout without its channels".into(),
        ))
    }
}

/// Decompresses the chunk `packed` (compressed with `method`) into exactly
/// `out.len()` bytes in `layout`.
pub(crate) fn decompress(
    method: Compression,
    packed: &[u8],
    layout: &Layout,
    out: &mut [u8],
) -> Result<()> {
    if packed.len() == out.len() {
        out.copy_from_slice(packed);
        return Ok(());
    }
    match method {
        Compression::None => Err(Error::Corrupt {
            what: "an uncompressed chunk's size does not match its lines",
            offset: None,
        }),
        Compression::Rle => rle::decompress(packed, out),
        Compression::Zip | Compression::Zips => zip::decompress(packed, out),
        Compression::Zstd => zstd::decompress(packed, layout, out),
        Compression::Piz => piz::decompress(packed, layout, out),
        Compression::Pxr24 => {
            check_channels(layout)?;
            pxr24::decompress(packed, layout, out)
        }
        Compression::B44 | Compression::B44a => {
            check_channels(layout)?;
            b44::decompress(packed, layout, out)
        }
        Compression::Dwaa | Compression::Dwab => {
            check_channels(layout)?;
            dwa::decompress(packed, layout, out)
        }
        other => Err(Error::Unsupported(
            format!("reading {other} compression").into(),
        )),
    }
}
