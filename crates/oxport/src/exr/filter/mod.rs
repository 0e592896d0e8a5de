//! Byte filters applied before compression, each next to its inverse:
//! OpenEXR's split into even and odd bytes ([`split`]) and byte delta
//! ([`delta`]) under RLE and ZIP; the ZSTD method's byte planes
//! ([`planes`]) and delta of 16- and 32-bit words ([`words`]); and, for
//! the lab, the clamped-gradient predictor on 2D grids of words
//! ([`predict`]).

pub mod delta;
pub mod planes;
pub mod predict;
pub mod split;
pub mod words;
