//! The `exr_encode` fuzz target: `oxport_fuzz::exr_encode` (its checks are
//! described there). `cargo +nightly fuzz run exr_encode` in `fuzz/`.

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| oxport_fuzz::exr_encode::run(data));
