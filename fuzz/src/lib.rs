//! The fuzz targets' checks, one module each: the binaries in
//! `fuzz_targets/` hand libFuzzer's inputs to them, and `tests/seeds.rs`
//! replays the seeds under `seeds/` through them with `cargo test`.

pub mod blender_mesh;
pub mod chunk_layout;
pub mod codec_decompress;
pub mod exr_chunk;
pub mod exr_encode;
pub mod exr_read;
pub mod mtl_read;
pub mod numfmt;
pub mod obj_read;
pub mod seekable_read;
