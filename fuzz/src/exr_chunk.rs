//! Decodes arbitrary bytes as one chunk of every method oxport reads, with
//! a layout the first bytes choose: never a panic, never an allocation
//! past the chunk's pixels, the same bytes twice, and a chunk that decodes
//! fills exactly the layout's bytes. The decoders reached from whole files
//! by `exr_read` are hit here without a file around them, so the fuzzer
//! spends its time inside them.
//! `cargo +nightly fuzz run exr_chunk` in `fuzz/` (seeds:
//! `seeds/exr_chunk/`: first chunks of OpenEXR 3.5's files, made by
//! `seeds/exr_chunk.py`).
//!
//! Input: method code, channel count (1 to 4), per channel type (0 UINT,
//! 1 HALF, 2 FLOAT), x and y sampling (1 or 2) and the linear flag, width
//! (1 to 128), lines (1 to 256), x and y origin (0 to 255), then the chunk.

use crate::chunk_layout;

use oxport::exr::Compression;
use oxport::exr::internals::decompress_chunk;

/// One input: the checks the module describes (a panic is a failure).
pub fn run(data: &[u8]) {
    let Some((&code, rest)) = data.split_first() else {
        return;
    };
    let Some(method) = Compression::from_code(code % 14) else {
        return;
    };
    let Some((channels, rest)) = chunk_layout::channels(rest) else {
        return;
    };
    let [w, l, x, y, packed @ ..] = rest else {
        return;
    };
    let (width, lines) = (usize::from(*w % 128) + 1, usize::from(*l) + 1);
    let origin = (i32::from(*x), i32::from(*y));
    let one = decompress_chunk(method, packed, &channels, width, lines, origin);
    let two = decompress_chunk(method, packed, &channels, width, lines, origin);
    match (&one, &two) {
        (Ok(a), Ok(b)) => {
            assert_eq!(a, b);
            let full: usize =
                channels.iter().map(|c| c.pixel_type.size()).sum::<usize>() * width * lines;
            assert!(a.len() <= full);
        }
        (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string()),
        _ => panic!("two decodes of one chunk disagree"),
    }
}
