//! The `obj_read` fuzz target: `oxport_fuzz::obj_read` (its checks are
//! described there). `cargo +nightly fuzz run obj_read` in `fuzz/`.

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| oxport_fuzz::obj_read::run(data));
