//! The lab's codecs: deflate (libdeflate, zlib format) and zstd at a level.

use std::fmt;

use crate::Result;
use crate::codec::deflate::{self, Format};
use crate::codec::zstd::{self, CompressParams, DecompressOptions};

/// A codec and its level.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Codec {
    Deflate(i32),
    Zstd(i32),
}

impl Codec {
    /// The levels the lab compares: deflate 1, 4 (OpenEXR's), 6, 9; zstd
    /// −1, 1, 3, 5 (OpenEXR's), 10.
    pub const ALL: [Codec; 9] = [
        Codec::Deflate(1),
        Codec::Deflate(4),
        Codec::Deflate(6),
        Codec::Deflate(9),
        Codec::Zstd(-1),
        Codec::Zstd(1),
        Codec::Zstd(3),
        Codec::Zstd(5),
        Codec::Zstd(10),
    ];

    pub(crate) fn compress(self, data: &[u8], out: &mut Vec<u8>) -> Result<()> {
        match self {
            Codec::Deflate(level) => deflate::compress(data, level, Format::Zlib, out),
            Codec::Zstd(level) => {
                zstd::compress(data, &CompressParams::with_level(level)?, None, out)
            }
        }
    }

    pub(crate) fn decompress(self, data: &[u8], out: &mut [u8]) -> Result<usize> {
        match self {
            Codec::Deflate(_) => deflate::decompress_into(data, Format::Zlib, out),
            Codec::Zstd(_) => {
                let options = DecompressOptions {
                    threads: Some(1),
                    ..DecompressOptions::default()
                };
                zstd::decompress_into(data, &options, out)
            }
        }
    }
}

impl fmt::Display for Codec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Codec::Deflate(level) => write!(f, "deflate {level}"),
            Codec::Zstd(level) => write!(f, "zstd {level}"),
        }
    }
}
