//! Encodes arbitrary pixels as one chunk with every method oxport writes,
//! in a layout the first bytes choose (as `exr_chunk` reads them), then
//! decodes the chunk: never a panic, the same bytes from two encodes, a
//! chunk that decodes to the layout's size, and for the lossless methods
//! (NONE, RLE, ZIPS, ZIP, PIZ, ZSTD, HTJ2K256, HTJ2K32) the pixels given back.
//! `cargo +nightly fuzz run exr_encode` in `fuzz/`.
//!
//! Input: method code, tiled flag, channel count (1 to 4), per channel
//! type (0 UINT, 1 HALF, 2 FLOAT), x and y sampling (1 or 2) and the
//! linear flag, width (1 to 64), lines (1 to 64), x and y origin (0 to
//! 255), then the pixels (repeated or cut to the layout's size).

use crate::chunk_layout;

use oxport::exr::Compression;
use oxport::exr::internals::{chunk_bytes, compress_chunk, decompress_chunk};

/// One input: the checks the module describes (a panic is a failure).
pub fn run(data: &[u8]) {
    let [code, tiled, rest @ ..] = data else {
        return;
    };
    let Some(method) = Compression::from_code(code % 14) else {
        return;
    };
    if !method.can_write() {
        return;
    }
    let Some((channels, rest)) = chunk_layout::channels(rest) else {
        return;
    };
    let [w, l, x, y, pixels @ ..] = rest else {
        return;
    };
    let (width, lines) = (usize::from(*w % 64) + 1, usize::from(*l % 64) + 1);
    let origin = (i32::from(*x), i32::from(*y));
    let Ok(size) = chunk_bytes(&channels, width, lines, origin) else {
        return;
    };
    if pixels.is_empty() && size > 0 {
        return;
    }
    let raw: Vec<u8> = pixels.iter().copied().cycle().take(size).collect();
    let tiled = tiled & 1 != 0;
    let one = compress_chunk(method, &raw, &channels, width, lines, origin, tiled);
    let two = compress_chunk(method, &raw, &channels, width, lines, origin, tiled);
    let packed = match (one, two) {
        (Ok(a), Ok(b)) => {
            assert_eq!(a, b, "two encodes of one chunk differ");
            a
        }
        (Err(a), Err(b)) => {
            assert_eq!(a.to_string(), b.to_string());
            return;
        }
        _ => panic!("two encodes of one chunk disagree"),
    };
    let decoded = decompress_chunk(method, &packed, &channels, width, lines, origin)
        .unwrap_or_else(|e| panic!("{method}: a chunk oxport wrote does not decode: {e}"));
    assert_eq!(decoded.len(), raw.len());
    let lossless = matches!(
        method,
        Compression::None
            | Compression::Rle
            | Compression::Zips
            | Compression::Zip
            | Compression::Piz
            | Compression::Zstd
            | Compression::Htj2k256
            | Compression::Htj2k32
    );
    if lossless {
        assert_eq!(decoded, raw, "{method} did not give the pixels back");
    }
}
