//! OpenEXR's ZIP and ZIPS: split + byte delta, then a zlib stream (through
//! libdeflate, as OpenEXR 3.x compresses it: at level 4 by default, the
//! same bytes).

use crate::codec::deflate::{self, Engine, Format};
use crate::exr::filter::delta;
use crate::scratch::with_buffer;
use crate::{Error, Result};

/// OpenEXR's default deflate level.
pub const DEFAULT_LEVEL: i32 = 4;

/// Appends `raw` compressed at `level` to `out`.
pub(crate) fn compress(raw: &[u8], level: i32, out: &mut Vec<u8>) -> Result<()> {
    with_buffer(raw.len(), |filtered| {
        delta::split_delta_encode(raw, filtered);
        deflate::compress(filtered, level, Format::Zlib, Engine::Libdeflate, out)
    })
}

/// Decompresses `packed` into exactly `out.len()` bytes.
pub(crate) fn decompress(packed: &[u8], out: &mut [u8]) -> Result<()> {
    with_buffer(out.len(), |filtered| decompress_into(packed, filtered, out))
}

fn decompress_into(packed: &[u8], filtered: &mut [u8], out: &mut [u8]) -> Result<()> {
    inflate_exact(
        packed,
        filtered,
        "a ZIP chunk decodes to more bytes than its lines hold",
        "a ZIP chunk decodes to fewer bytes than its lines hold",
    )?;
    delta::split_delta_decode(filtered, out);
    Ok(())
}

/// Inflates the zlib stream `packed` into exactly `out.len()` bytes (the
/// methods built on zlib: ZIP, PXR24, DWA's sections); `more` and `fewer`
/// say what is wrong when the stream holds more or fewer.
pub(crate) fn inflate_exact(
    packed: &[u8],
    out: &mut [u8],
    more: &'static str,
    fewer: &'static str,
) -> Result<()> {
    let written = deflate::decompress_into(packed, Format::Zlib, out).map_err(|e| match e {
        Error::InvalidArgument(_) => Error::corrupt(more),
        other => other,
    })?;
    if written != out.len() {
        return Err(Error::corrupt(fewer));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zip_round_trips_and_checks_sizes() {
        let raw: Vec<u8> = (0..5000u32).map(|i| (i / 3 % 200) as u8).collect();
        let mut packed = Vec::new();
        compress(&raw, DEFAULT_LEVEL, &mut packed).unwrap();
        let mut out = vec![0; raw.len()];
        decompress(&packed, &mut out).unwrap();
        assert_eq!(out, raw);
        assert!(decompress(&packed, &mut vec![0; raw.len() + 1]).is_err());
        assert!(decompress(&packed, &mut vec![0; raw.len() - 1]).is_err());
        assert!(decompress(&packed[..packed.len() / 2], &mut out).is_err());
    }
}
