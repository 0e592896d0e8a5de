//! The `numfmt` fuzz target: `oxport_fuzz::numfmt` (its checks are
//! described there). `cargo +nightly fuzz run numfmt` in `fuzz/`.

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| oxport_fuzz::numfmt::run(data));
