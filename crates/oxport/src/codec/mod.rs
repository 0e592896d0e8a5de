//! Compression of bytes in memory: zstd ([`zstd`]) and deflate with its zlib
//! and gzip wrappers ([`deflate`]), one-shot and (zstd) streaming.
//!
//! Every codec writes into an [`Output`]: a buffer that grows as it is
//! filled and is never zeroed first. The size is exact when the input says
//! it (zstd frames that record their content size, gzip's trailer), so that
//! a decompressed result is allocated once at its final size; otherwise the
//! buffer grows geometrically in place (no list of blocks joined at the end).
//! A limit on the output (`max_output`) stops a decompression bomb before it
//! allocates: sizes recorded in the input are checked against it and against
//! what the compressed size can possibly hold.

pub mod deflate;
mod output;
pub mod zstd;

pub use output::{Output, out_of_memory};
