//! The `exr_chunk` fuzz target: `oxport_fuzz::exr_chunk` (its checks are
//! described there). `cargo +nightly fuzz run exr_chunk` in `fuzz/`.

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| oxport_fuzz::exr_chunk::run(data));
