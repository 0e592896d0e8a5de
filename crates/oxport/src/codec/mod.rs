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

use std::ops::RangeInclusive;

pub use output::{Output, out_of_memory};

/// The codecs that take a level: the one table of their levels and the one
/// check of a level given (the zstd binding keeps the standard library's
/// wording, `zstd::CompressParams`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Levels {
    /// zstd's levels: the negative ones are the fastest.
    Zstd,
    /// libdeflate's: 0 stores, 1 is fastest, 12 smallest.
    Deflate,
}

impl Levels {
    /// The levels the codec accepts.
    pub fn range(self) -> RangeInclusive<i32> {
        match self {
            Levels::Zstd => zstd_safe::min_c_level()..=zstd_safe::max_c_level(),
            Levels::Deflate => 0..=12,
        }
    }

    /// `level`, when the codec accepts it; else an
    /// [`crate::Error::InvalidArgument`] that names the range.
    pub fn check(self, level: i32) -> crate::Result<i32> {
        let range = self.range();
        if range.contains(&level) {
            return Ok(level);
        }
        let name = match self {
            Levels::Zstd => "zstd",
            Levels::Deflate => "deflate",
        };
        Err(crate::Error::invalid(format!(
            "level {level}: {name}'s levels are {} to {}",
            range.start(),
            range.end()
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::Levels;

    #[test]
    fn levels_are_checked_with_one_message() {
        assert_eq!(Levels::Deflate.check(12).unwrap(), 12);
        assert_eq!(Levels::Zstd.check(-7).unwrap(), -7);
        let error = Levels::Deflate.check(13).unwrap_err().to_string();
        assert_eq!(
            error,
            "invalid argument: level 13: deflate's levels are 0 to 12"
        );
        let error = Levels::Zstd.check(23).unwrap_err().to_string();
        assert!(
            error.ends_with("level 23: zstd's levels are -131072 to 22"),
            "{error}"
        );
    }
}
