//! OpenEXR images. Read: every layout (scan-line and tiled parts with their
//! mipmap or ripmap levels, multi-part and multi-view files, deep parts,
//! subsampled channels) and every method OpenEXR 3.5 reads but the
//! experimental LJ2K (NONE, RLE, ZIPS, ZIP, PIZ, PXR24, B44, B44A, DWAA,
//! DWAB, ZSTD, HTJ2K256, HTJ2K32), to the
//! pixels OpenEXR decodes, bit for bit; a [`Reader`] fetches only the chunks
//! a read of a part, level, channels and window needs. Written
//! ([`write_parts`]): scan-line and tiled parts with their levels (given, or
//! made as `exrmaketiled` makes them: [`make_levels`]), deep scan-line and
//! deep tiled parts, and multi-part files of any of them, with NONE, RLE,
//! ZIPS, ZIP, PIZ, PXR24, B44, B44A, DWAA, DWAB, ZSTD, HTJ2K256 and HTJ2K32
//! (OpenEXR 3.5's layout, the same bytes; HTJ2K's codestreams carry their
//! own comment). Chunks are decoded and
//! encoded in parallel.
//! `docs/formats/exr.md` has the bytes.
//!
//! An [`Image`] is a [`Header`] (every attribute, in file order) and one
//! plane of pixels per channel: row after row of little-endian samples
//! (`f16`, `f32` or `u32` bits), `width × height × size` bytes.
//!
//! ```
//! use oxport::exr::{self, Channel, Compression, Header, PixelType};
//!
//! let header = Header::new(2, 1, vec![Channel::new("Y", PixelType::Float)], Compression::Zip)?;
//! let plane: Vec<u8> = [0.25f32, 4.0].iter().flat_map(|v| v.to_le_bytes()).collect();
//! let file = exr::write_bytes(&header, &[&plane], &exr::WriteOptions::default())?;
//! let image = exr::read_bytes(&file, &exr::ReadOptions::default())?;
//! assert_eq!(image.planes[0], plane);
//! # Ok::<(), oxport::Error>(())
//! ```
//!
//! LJ2K files are refused with [`crate::Error::Unsupported`].

mod attribute;
mod chunk;
mod compress;
mod convert;
mod cursor;
mod deep;
mod filter;
mod header;
mod method;
mod new_part;
mod offsets;
mod part;
mod read;
mod reduce;
mod tile;
mod write;
mod yca;

/// The chunk codecs, the chunk layout and the byte filters under them, for
/// the crates beside this one that measure or attack them (the filter lab,
/// `crates/oxport-lab`, and the fuzz targets, `fuzz/`) and for nothing else:
/// no stable interface, off in every other build.
#[cfg(feature = "internals")]
#[doc(hidden)]
pub mod internals {
    pub use super::chunk::{Layout, Row, Rows, pack};
    pub use super::compress::{chunk_bytes, compress_chunk, decompress_chunk};
    pub use super::filter::{delta, planes, sorted};
}

pub use attribute::Window;
pub use attribute::{AttributeValue, Channel, LineOrder, PixelType};
pub use convert::{ConvertOptions, Converted, Storing, convert};
pub use deep::DeepImage;
pub use header::{Header, Headers, MAGIC};
pub use method::Compression;
pub use new_part::{NewPart, shared_display_window, write_new_parts};
pub use part::{Part, Storage};
pub use read::{ReadOptions, Reader, Selection, Shape, read, read_bytes, read_from};
pub use reduce::{Extrapolation, make_levels};
pub use tile::{Level, LevelMode, Rounding, Tiles};
pub use write::{
    DeepLevel, Pixels, WriteOptions, WritePart, write, write_bytes, write_parts, write_parts_bytes,
};
pub use yca::{luminance_weights, rgb_from_yc, yc_from_rgb};

/// A scan line image: its header and one plane of pixels per channel, in
/// the order of the header's channels.
#[derive(Clone, Debug, PartialEq)]
pub struct Image {
    /// The part's header.
    pub header: Header,
    /// Each channel's samples, row after row, little-endian.
    pub planes: Vec<Vec<u8>>,
}
