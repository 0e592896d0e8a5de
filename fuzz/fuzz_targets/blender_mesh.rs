//! The `blender_mesh` fuzz target: `oxport_fuzz::blender_mesh` (its checks are
//! described there). `cargo +nightly fuzz run blender_mesh` in `fuzz/`.

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| oxport_fuzz::blender_mesh::run(data));
