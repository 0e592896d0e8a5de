//! Compression and decompression parameters by zstd's own codes, checked
//! against zstd's bounds with errors that name the parameter.

use std::ops::RangeInclusive;

use zstd_safe::zstd_sys::{self as sys, ZSTD_cParameter as C, ZSTD_dParameter as D};

use super::context::{CCtx, DCtx, with_compressor, with_decompressor};
use crate::codec::Levels;
use crate::{Error, Result};

/// zstd's default level.
pub const DEFAULT_LEVEL: i32 = 3;

macro_rules! parameters {
    ($(#[$doc:meta])* $name:ident, $sys:ident, $bounds:ident, $(($variant:ident, $code:literal, $text:literal, $c:ident)),+ $(,)?) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        pub enum $name {
            $(#[doc = concat!("`", stringify!($c), "` (`", $text, "`).")] $variant),+
        }

        impl $name {
            /// Every parameter.
            pub const ALL: &[$name] = &[$($name::$variant),+];

            /// zstd's code for the parameter.
            pub fn code(self) -> i32 {
                match self {
                    $($name::$variant => $code),+
                }
            }

            /// The parameter of a zstd code.
            pub fn from_code(code: i32) -> Option<Self> {
                match code {
                    $($code => Some($name::$variant),)+
                    _ => None,
                }
            }

            /// The name in snake case, as Python's `compression.zstd` spells it.
            pub fn name(self) -> &'static str {
                match self {
                    $($name::$variant => $text),+
                }
            }

            fn sys(self) -> $sys {
                match self {
                    $($name::$variant => $sys::$c),+
                }
            }

            /// The values zstd accepts (0 also means "zstd's default" for
            /// most parameters).
            pub fn bounds(self) -> RangeInclusive<i32> {
                // SAFETY: a pure query of a valid parameter.
                let bounds = unsafe { sys::$bounds(self.sys()) };
                bounds.lowerBound..=bounds.upperBound
            }
        }
    };
}

parameters!(
    /// A compression parameter.
    CompressionParameter,
    C,
    ZSTD_cParam_getBounds,
    (CompressionLevel, 100, "compression_level", ZSTD_c_compressionLevel),
    (WindowLog, 101, "window_log", ZSTD_c_windowLog),
    (HashLog, 102, "hash_log", ZSTD_c_hashLog),
    (ChainLog, 103, "chain_log", ZSTD_c_chainLog),
    (SearchLog, 104, "search_log", ZSTD_c_searchLog),
    (MinMatch, 105, "min_match", ZSTD_c_minMatch),
    (TargetLength, 106, "target_length", ZSTD_c_targetLength),
    (Strategy, 107, "strategy", ZSTD_c_strategy),
    (EnableLongDistanceMatching, 160, "enable_long_distance_matching", ZSTD_c_enableLongDistanceMatching),
    (LdmHashLog, 161, "ldm_hash_log", ZSTD_c_ldmHashLog),
    (LdmMinMatch, 162, "ldm_min_match", ZSTD_c_ldmMinMatch),
    (LdmBucketSizeLog, 163, "ldm_bucket_size_log", ZSTD_c_ldmBucketSizeLog),
    (LdmHashRateLog, 164, "ldm_hash_rate_log", ZSTD_c_ldmHashRateLog),
    (ContentSizeFlag, 200, "content_size_flag", ZSTD_c_contentSizeFlag),
    (ChecksumFlag, 201, "checksum_flag", ZSTD_c_checksumFlag),
    (DictIdFlag, 202, "dict_id_flag", ZSTD_c_dictIDFlag),
    (NbWorkers, 400, "nb_workers", ZSTD_c_nbWorkers),
    (JobSize, 401, "job_size", ZSTD_c_jobSize),
    (OverlapLog, 402, "overlap_log", ZSTD_c_overlapLog),
);

parameters!(
    /// A decompression parameter.
    DecompressionParameter,
    D,
    ZSTD_dParam_getBounds,
    (WindowLogMax, 100, "window_log_max", ZSTD_d_windowLogMax),
);

fn illegal(kind: &str, name: &str, value: i32, bounds: RangeInclusive<i32>) -> Error {
    Error::invalid(format!(
        "{kind} parameter '{name}' received an illegal value {value}; the valid range is [{}, {}]",
        bounds.start(),
        bounds.end()
    ))
}

fn illegal_level(level: i32) -> Error {
    let levels = Levels::Zstd.range();
    Error::invalid(format!(
        "illegal compression level {level}; the valid range is [{}, {}]",
        levels.start(),
        levels.end()
    ))
}

/// Compression parameters, applied in the order they were set.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CompressParams {
    values: Vec<(CompressionParameter, i32)>,
    /// zstd's experimental `ZSTD_c_maxBlockSize`, for seekable frames.
    max_block: Option<u32>,
}

impl CompressParams {
    /// zstd's defaults at `level`.
    pub fn with_level(level: i32) -> Result<Self> {
        let mut params = CompressParams::default();
        params.set(CompressionParameter::CompressionLevel, level)?;
        Ok(params)
    }

    /// Sets `parameter` to `value`, checked as zstd checks it (zstd
    /// clamps levels silently; a level outside [`Levels::Zstd`] is refused here).
    pub fn set(&mut self, parameter: CompressionParameter, value: i32) -> Result<()> {
        if parameter == CompressionParameter::CompressionLevel
            && !Levels::Zstd.range().contains(&value)
        {
            return Err(illegal_level(value));
        }
        with_compressor(|context| {
            context
                .set_parameter(parameter.sys(), value)
                .map_err(|_| illegal("compression", parameter.name(), value, parameter.bounds()))
        })?;
        self.values.push((parameter, value));
        Ok(())
    }

    /// The value set last for `parameter`.
    pub fn get(&self, parameter: CompressionParameter) -> Option<i32> {
        self.values
            .iter()
            .rev()
            .find(|(p, _)| *p == parameter)
            .map(|&(_, v)| v)
    }

    /// The compression level: set, or zstd's default.
    pub fn level(&self) -> i32 {
        self.get(CompressionParameter::CompressionLevel)
            .unwrap_or(DEFAULT_LEVEL)
    }

    /// Blocks of at most `size` bytes (zstd's are 128 KiB; at least 1 KiB).
    pub(crate) fn set_max_block(&mut self, size: u32) {
        self.max_block = Some(size);
    }

    pub(crate) fn apply(&self, context: &mut CCtx) -> Result<()> {
        for &(parameter, value) in &self.values {
            context
                .set_parameter(parameter.sys(), value)
                .map_err(|_| illegal("compression", parameter.name(), value, parameter.bounds()))?;
        }
        if let Some(size) = self.max_block {
            // ZSTD_c_maxBlockSize.
            context
                .set_parameter(C::ZSTD_c_experimentalParam18, size as i32)
                .map_err(|_| Error::invalid(format!("a block size of {size} bytes")))?;
        }
        Ok(())
    }
}

/// Decompression parameters.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DecompressParams {
    values: Vec<(DecompressionParameter, i32)>,
}

impl DecompressParams {
    /// Sets `parameter` to `value`, checked as zstd checks it.
    pub fn set(&mut self, parameter: DecompressionParameter, value: i32) -> Result<()> {
        with_decompressor(|context| {
            context
                .set_parameter(parameter.sys(), value)
                .map_err(|_| illegal("decompression", parameter.name(), value, parameter.bounds()))
        })?;
        self.values.push((parameter, value));
        Ok(())
    }

    /// The largest window a frame may ask for, in bytes.
    pub fn max_window(&self) -> u64 {
        // zstd's default limit (ZSTD_WINDOWLOG_LIMIT_DEFAULT): frames that
        // need more memory are refused unless the caller raises it.
        const DEFAULT_LOG: i32 = 27;
        let log = self
            .values
            .iter()
            .rev()
            .find(|(p, _)| *p == DecompressionParameter::WindowLogMax)
            .map_or(DEFAULT_LOG, |&(_, v)| if v == 0 { DEFAULT_LOG } else { v });
        1u64 << log
    }

    pub(crate) fn apply(&self, context: &mut DCtx) -> Result<()> {
        for &(parameter, value) in &self.values {
            context.set_parameter(parameter.sys(), value).map_err(|_| {
                illegal("decompression", parameter.name(), value, parameter.bounds())
            })?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip_and_bounds_are_zstds() {
        for &p in CompressionParameter::ALL {
            assert_eq!(CompressionParameter::from_code(p.code()), Some(p));
            assert!(!p.bounds().is_empty(), "{p:?}");
        }
        assert_eq!(CompressionParameter::WindowLog.bounds(), 10..=31);
        assert_eq!(*CompressionParameter::NbWorkers.bounds().end(), 256);
        assert_eq!(DecompressionParameter::WindowLogMax.bounds(), 10..=31);
        assert_eq!(CompressionParameter::from_code(9999), None);
    }

    #[test]
    fn out_of_bounds_values_name_the_parameter() {
        let mut params = CompressParams::default();
        let error = params
            .set(CompressionParameter::WindowLog, 100)
            .unwrap_err();
        assert_eq!(
            error.to_string(),
            "invalid argument: compression parameter 'window_log' received an illegal value 100; \
             the valid range is [10, 31]"
        );
        assert!(CompressParams::with_level(23).is_err());
        assert!(CompressParams::with_level(-7).is_ok());
        params.set(CompressionParameter::WindowLog, 0).unwrap();
        assert_eq!(params.level(), DEFAULT_LEVEL);
    }
}
