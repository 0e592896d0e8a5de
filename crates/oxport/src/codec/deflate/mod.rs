//! Deflate (RFC 1951) and its zlib (RFC 1950) and gzip (RFC 1952)
//! wrappers, one-shot, through libdeflate (and ISA-L's igzip for the fast
//! levels, see [`Engine`]): the same formats Python's `zlib` and `gzip`
//! read and write.
//!
//! libdeflate works on whole buffers, so decompression needs room for the
//! whole output: gzip records the size (modulo 2^32) in its trailer, and
//! zlib and raw deflate start from a guess and double, bounded by the
//! format's largest ratio (1032:1) and the caller's limit.

mod compress;
mod context;
mod decompress;
#[cfg(feature = "isal")]
mod isal;

pub use compress::{Engine, compress, compress_bound, compress_into};
pub use decompress::{decompress, decompress_into};

/// The wrapper around the deflate stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// No wrapper (Python's `wbits=-15`).
    Raw,
    /// A 2-byte header and an Adler-32 trailer (Python's `zlib`).
    Zlib,
    /// A 10-byte header and a CRC-32 and size trailer (Python's `gzip`);
    /// decompression reads every member, like `gzip.decompress`.
    Gzip,
}

fn check_level(level: i32) -> crate::Result<()> {
    super::Levels::Deflate.check(level).map(drop)
}

/// zlib's and libdeflate's default level.
pub const DEFAULT_LEVEL: i32 = 6;

/// No deflate stream decompresses to more than this many times its size
/// (a 258-byte match coded in 2 bits), plus a little for headers.
pub const MAX_RATIO: u64 = 1032;
