//! The `seekable_read` fuzz target: `oxport_fuzz::seekable_read` (its checks are
//! described there). `cargo +nightly fuzz run seekable_read` in `fuzz/`.

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| oxport_fuzz::seekable_read::run(data));
