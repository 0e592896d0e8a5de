//! The `codec_decompress` fuzz target: `oxport_fuzz::codec_decompress` (its checks are
//! described there). `cargo +nightly fuzz run codec_decompress` in `fuzz/`.

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| oxport_fuzz::codec_decompress::run(data));
