//! The `mtl_read` fuzz target: `oxport_fuzz::mtl_read` (its checks are
//! described there). `cargo +nightly fuzz run mtl_read` in `fuzz/`.

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| oxport_fuzz::mtl_read::run(data));
