//! Byte filters applied before compression, each next to its inverse:
//! OpenEXR's split into even and odd bytes ([`split`]) and byte delta
//! ([`delta`]) under RLE and ZIP; the ZSTD method's sorted byte planes
//! ([`sorted`]: [`planes`] and the delta of 16- and 32-bit words,
//! [`words`]), which the lab measures too; and, for the lab, the
//! clamped-gradient predictor on 2D grids of words ([`predict`]).

pub mod delta;
pub mod planes;
pub mod sorted;
pub mod split;
pub mod words;
