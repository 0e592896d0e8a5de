//! Decompresses arbitrary bytes through every decompressor entry point of
//! `oxport::codec`: never a panic, never an allocation past the limit, and
//! the ways of decompressing agree. zstd: one-shot on one thread and two,
//! into a caller's buffer, and the streaming decompressor fed in pieces with
//! `max_length` limits; deflate: zlib, gzip and raw, with a limit and into
//! a buffer. The first byte picks the piece sizes. And the input compressed
//! at deflate levels 1 to 3 decompresses to itself (compressed by ISA-L with
//! `--features isal`, by libdeflate without).
//! `cargo +nightly fuzz run codec_decompress` in `fuzz/` (seeds:
//! `corpus/codec_decompress/`).

use oxport::codec::deflate::{self, Engine, Format};
use oxport::codec::zstd::{self, DecompressOptions, DecompressParams, Decompressor};

/// Bounds the work per input: a small input may legally expand 32,768 times.
const LIMIT: u64 = 8 << 20;

/// One input: the checks the module describes (a panic is a failure).
pub fn run(data: &[u8]) {
    let Some((&knob, data)) = data.split_first() else {
        return;
    };
    let options = |threads| DecompressOptions {
        max_output: Some(LIMIT),
        threads: Some(threads),
        ..Default::default()
    };
    let mut one = Vec::new();
    let single = zstd::decompress(data, &options(1), &mut one);
    let mut two = Vec::new();
    let parallel = zstd::decompress(data, &options(2), &mut two);
    assert_eq!(single.is_ok(), parallel.is_ok());
    if single.is_ok() {
        assert_eq!(one, two);
        assert!(one.len() as u64 <= LIMIT);
        let mut buf = vec![0u8; one.len()];
        let n = zstd::decompress_into(data, &options(1), &mut buf).expect("fits exactly");
        assert_eq!(&buf[..n], &one[..]);
    }

    // The streaming decompressor reads the first frame; fed in pieces with
    // output limits it gives the same bytes as in one call.
    let piece = 1 + usize::from(knob & 0x3F) * 97;
    let max_length = if knob & 0x40 != 0 {
        Some(1 + usize::from(knob) * 31)
    } else {
        None
    };
    let mut whole = Vec::new();
    let mut stream = Decompressor::new(&DecompressParams::default(), None).unwrap();
    let in_one = stream
        .decompress(data, Some(LIMIT as usize), &mut whole)
        .map(|()| stream.eof());
    let mut stream = Decompressor::new(&DecompressParams::default(), None).unwrap();
    let mut pieces = Vec::new();
    let mut failed = false;
    for chunk in data.chunks(piece) {
        if stream.eof() || pieces.len() as u64 > LIMIT {
            break;
        }
        if stream.decompress(chunk, max_length, &mut pieces).is_err() {
            failed = true;
            break;
        }
        while !stream.eof() && !stream.needs_input() && (pieces.len() as u64) <= LIMIT {
            if stream.decompress(&[], max_length, &mut pieces).is_err() {
                failed = true;
                break;
            }
        }
    }
    if let (Ok(true), false, true) = (in_one, failed, stream.eof()) {
        assert_eq!(pieces, whole);
    }

    for format in [Format::Zlib, Format::Gzip, Format::Raw] {
        let mut out = Vec::new();
        if deflate::decompress(data, format, Some(LIMIT), None, &mut out).is_ok() {
            assert!(out.len() as u64 <= LIMIT);
            let mut buf = vec![0u8; out.len()];
            let n = deflate::decompress_into(data, format, &mut buf).expect("fits exactly");
            assert_eq!(&buf[..n], &out[..]);
        }
    }

    let level = 1 + i32::from(knob % 3);
    let format = [Format::Zlib, Format::Gzip, Format::Raw][usize::from(knob / 3 % 3)];
    let mut packed = Vec::new();
    deflate::compress(data, level, format, Engine::Fastest, &mut packed).expect("compresses");
    assert!(packed.len() <= deflate::compress_bound(data.len(), format));
    let mut back = Vec::new();
    deflate::decompress(&packed, format, None, None, &mut back).expect("decompresses");
    assert_eq!(back, data);
}
