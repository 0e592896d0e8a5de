//! The lab's codecs: deflate (libdeflate, zlib format) and zstd at a level;
//! HTJ2K, OpenEXR's lossless JPEG 2000, as its HTJ2K methods code a chunk;
//! with the `zfp` feature, ZFP's reversible mode. HTJ2K and ZFP see
//! channels, not bytes, and so take no filter.

use std::fmt;

use oxport::Result;
use oxport::codec::deflate::{self, Engine, Format};
use oxport::codec::zstd::{self, CompressParams, DecompressOptions};
use oxport::exr::Compression;
use oxport::exr::internals::{Layout, compress_chunk, decompress_chunk};

/// A codec and its level.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Codec {
    /// libdeflate at a level (1 to 12).
    Deflate(i32),
    /// zstd at a level.
    Zstd(i32),
    /// HTJ2K as OpenEXR's HTJ2K methods code a chunk (reversible wavelet
    /// and color transform, HT code-blocks): per chunk, after no filter.
    Htj2k,
    /// ZFP, reversible: per channel, after no filter.
    #[cfg(feature = "zfp")]
    Zfp,
}

impl Codec {
    /// Every codec the lab compares: [`Codec::LEVELS`], HTJ2K, and ZFP when
    /// built with it.
    pub fn all() -> Vec<Codec> {
        let mut all = Codec::LEVELS.to_vec();
        all.push(Codec::Htj2k);
        #[cfg(feature = "zfp")]
        all.push(Codec::Zfp);
        all
    }

    /// The levels the lab compares: deflate 1, 4 (OpenEXR's), 6, 9; zstd
    /// −1, 1, 3, 5 (OpenEXR's), 10.
    pub const LEVELS: [Codec; 9] = [
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

    /// Whether the codec takes byte filters (HTJ2K and ZFP work on samples).
    pub fn takes_filters(self) -> bool {
        match self {
            Codec::Htj2k => false,
            #[cfg(feature = "zfp")]
            Codec::Zfp => false,
            _ => true,
        }
    }

    /// Compresses the (filtered) chunk `data`, whose layout is `layout`
    /// (with its channels).
    pub fn compress(self, data: &[u8], layout: &Layout, out: &mut Vec<u8>) -> Result<()> {
        match self {
            Codec::Deflate(level) => {
                deflate::compress(data, level, Format::Zlib, Engine::Libdeflate, out)
            }
            Codec::Zstd(level) => {
                zstd::compress(data, &CompressParams::with_level(level)?, None, out)
            }
            Codec::Htj2k => {
                let (width, lines, origin) = (layout.width, layout.lines, layout.origin);
                let channels = layout.channels;
                *out = compress_chunk(METHOD, data, channels, width, lines, origin, false)?;
                Ok(())
            }
            #[cfg(feature = "zfp")]
            Codec::Zfp => crate::zfp::compress(data, layout, out),
        }
    }

    /// Decompresses `data` into `out`, which holds the chunk's bytes; returns
    /// the bytes written.
    pub fn decompress(self, data: &[u8], layout: &Layout, out: &mut [u8]) -> Result<usize> {
        match self {
            Codec::Deflate(_) => deflate::decompress_into(data, Format::Zlib, out),
            Codec::Zstd(_) => {
                let options = DecompressOptions {
                    threads: Some(1),
                    ..DecompressOptions::default()
                };
                zstd::decompress_into(data, &options, out)
            }
            Codec::Htj2k => {
                let (width, lines, origin) = (layout.width, layout.lines, layout.origin);
                let chunk = decompress_chunk(METHOD, data, layout.channels, width, lines, origin)?;
                let n = chunk.len().min(out.len());
                out[..n].copy_from_slice(&chunk[..n]);
                Ok(chunk.len())
            }
            #[cfg(feature = "zfp")]
            Codec::Zfp => crate::zfp::decompress(data, layout, out),
        }
    }
}

/// The HTJ2K method the lab's chunks go through: its codestream is the same
/// for any chunk height.
const METHOD: Compression = Compression::Htj2k32;

impl fmt::Display for Codec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Codec::Deflate(level) => write!(f, "deflate {level}"),
            Codec::Zstd(level) => write!(f, "zstd {level}"),
            Codec::Htj2k => write!(f, "htj2k"),
            #[cfg(feature = "zfp")]
            Codec::Zfp => write!(f, "zfp reversible"),
        }
    }
}
