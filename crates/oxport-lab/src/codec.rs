//! The lab's codecs: deflate (libdeflate, zlib format) and zstd at a level;
//! with the `zfp` feature, ZFP's reversible mode (which sees channels, not
//! bytes, and so takes no filter).

use std::fmt;

use oxport::Result;
use oxport::codec::deflate::{self, Engine, Format};
use oxport::codec::zstd::{self, CompressParams, DecompressOptions};
use oxport::exr::internals::Layout;

/// A codec and its level.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Codec {
    /// libdeflate at a level (1 to 12).
    Deflate(i32),
    /// zstd at a level.
    Zstd(i32),
    /// ZFP, reversible: per channel, after no filter.
    #[cfg(feature = "zfp")]
    Zfp,
}

impl Codec {
    /// Every codec the lab compares: [`Codec::LEVELS`], and ZFP when built
    /// with it.
    pub fn all() -> Vec<Codec> {
        #[allow(unused_mut)]
        let mut all = Codec::LEVELS.to_vec();
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

    /// Whether the codec takes byte filters (ZFP works on samples).
    pub fn takes_filters(self) -> bool {
        match self {
            #[cfg(feature = "zfp")]
            Codec::Zfp => false,
            _ => true,
        }
    }

    /// Compresses the (filtered) chunk `data`, whose layout is `layout`.
    pub fn compress(self, data: &[u8], layout: &Layout, out: &mut Vec<u8>) -> Result<()> {
        let _ = layout;
        match self {
            Codec::Deflate(level) => {
                deflate::compress(data, level, Format::Zlib, Engine::Libdeflate, out)
            }
            Codec::Zstd(level) => {
                zstd::compress(data, &CompressParams::with_level(level)?, None, out)
            }
            #[cfg(feature = "zfp")]
            Codec::Zfp => crate::zfp::compress(data, layout, out),
        }
    }

    /// Decompresses `data` into `out`, which holds the chunk's bytes; returns
    /// the bytes written.
    pub fn decompress(self, data: &[u8], layout: &Layout, out: &mut [u8]) -> Result<usize> {
        let _ = layout;
        match self {
            Codec::Deflate(_) => deflate::decompress_into(data, Format::Zlib, out),
            Codec::Zstd(_) => {
                let options = DecompressOptions {
                    threads: Some(1),
                    ..DecompressOptions::default()
                };
                zstd::decompress_into(data, &options, out)
            }
            #[cfg(feature = "zfp")]
            Codec::Zfp => crate::zfp::decompress(data, layout, out),
        }
    }
}

impl fmt::Display for Codec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Codec::Deflate(level) => write!(f, "deflate {level}"),
            Codec::Zstd(level) => write!(f, "zstd {level}"),
            #[cfg(feature = "zfp")]
            Codec::Zfp => write!(f, "zfp reversible"),
        }
    }
}
