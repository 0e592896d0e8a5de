//! Zstandard: one-shot and streaming compression of bytes in memory.
//!
//! - [`compress`] / [`decompress`]: a whole input at once. Decompression
//!   takes any number of concatenated frames (skippable ones included),
//!   allocates the output once when every frame records its content size,
//!   and decompresses the frames in parallel when there are several and the
//!   output is large. Its time is linear in the input, however many frames.
//! - [`Compressor`] / [`Decompressor`]: streams, with the semantics of
//!   Python's `compression.zstd` (flush modes, `max_length`, `unused_data`).
//! - [`Dictionary`]: trained ([`train`]), finalized ([`finalize`]) or raw
//!   dictionaries, used digested, undigested or as a prefix.
//! - [`frame_info`] / [`frame_size`]: what a frame header says.
//!
//! Parameters are zstd's own codes ([`CompressionParameter`],
//! [`DecompressionParameter`]), checked against zstd's bounds with errors
//! that name the parameter.

mod compress;
mod compressor;
pub(crate) mod context;
mod decompress;
mod decompressor;
mod dict;
mod frames;
mod params;

pub use compress::{compress, compress_bound, compress_into};
pub use compressor::{Compressor, Flush};
pub use decompress::{DecompressOptions, decompress, decompress_into, decompressed_size};
pub use decompressor::Decompressor;
pub use dict::{DictUse, Dictionary, finalize, train};
pub use frames::{FrameInfo, frame_info, frame_size};
pub use params::{
    CompressParams, CompressionParameter, DEFAULT_LEVEL, DecompressParams, DecompressionParameter,
};

use crate::Error;

/// The version of the zstd library linked in, as `MAJOR * 10000 + MINOR *
/// 100 + PATCH`.
pub fn version_number() -> u32 {
    zstd_safe::version_number()
}

/// No frame decompresses to more than this many times its compressed size:
/// a block of at most 128 KiB takes at least 4 bytes (an RLE block). A size
/// recorded in a header beyond it is a lie, and is never allocated.
pub const MAX_RATIO: u64 = 32 * 1024;

/// zstd's result convention: a count, or an error code.
pub(crate) fn check(code: usize) -> std::result::Result<usize, usize> {
    // SAFETY: a pure function of its argument.
    if unsafe { zstd_safe::zstd_sys::ZSTD_isError(code) } != 0 {
        Err(code)
    } else {
        Ok(code)
    }
}

/// A zstd error code as an error about the input at `offset`.
pub(crate) fn corrupt(code: usize, offset: Option<u64>) -> Error {
    Error::Corrupt {
        what: zstd_safe::get_error_name(code),
        offset,
        path: None,
    }
}

/// A zstd error code from compression: the system's memory, or the caller's
/// parameters.
pub(crate) fn refused(code: usize) -> Error {
    let name = zstd_safe::get_error_name(code);
    if name.contains("memory") {
        crate::codec::output::out_of_memory(0)
    } else {
        Error::invalid(format!("zstd: {name}"))
    }
}
