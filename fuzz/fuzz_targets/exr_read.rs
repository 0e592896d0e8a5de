//! The `exr_read` fuzz target: `oxport_fuzz::exr_read` (its checks are
//! described there). `cargo +nightly fuzz run exr_read` in `fuzz/`.

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| oxport_fuzz::exr_read::run(data));
