//! The compression methods an OpenEXR file can name, what oxport does with
//! each, and how many scan lines each puts in a chunk.

use std::fmt;
use std::str::FromStr;

use crate::{Error, Result};

/// A compression method, by its code in the `compression` attribute.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Compression {
    /// `NO_COMPRESSION`: the bytes as they are.
    None,
    /// `RLE_COMPRESSION`: run lengths.
    Rle,
    /// `ZIPS_COMPRESSION`: deflate, one scan line per chunk.
    Zips,
    /// `ZIP_COMPRESSION`: deflate, 16 scan lines per chunk.
    Zip,
    /// `PIZ_COMPRESSION`: wavelet and Huffman, 32 scan lines per chunk.
    Piz,
    /// `PXR24_COMPRESSION`: floats rounded to 24 bits, then deflate (lossy).
    Pxr24,
    /// `B44_COMPRESSION`: halves in 4×4 blocks of fixed size (lossy).
    B44,
    /// `B44A_COMPRESSION`: B44, flat blocks smaller.
    B44a,
    /// `DWAA_COMPRESSION`: DCT-based, 32 scan lines per chunk (lossy).
    Dwaa,
    /// `DWAB_COMPRESSION`: DCT-based, 256 scan lines per chunk (lossy).
    Dwab,
    /// `HTJ2K256_COMPRESSION`: High-Throughput JPEG 2000, 256 scan lines per chunk (lossless).
    Htj2k256,
    /// `HTJ2K32_COMPRESSION`: High-Throughput JPEG 2000, 32 scan lines per chunk (lossless).
    Htj2k32,
    /// Lossless JPEG 2000, code 12 (not read or written yet).
    Lj2k,
    /// OpenEXR 3.5's ZSTD: one scan line per chunk, sorted by channel width,
    /// delta-coded per channel row, byte planes, zstd at level 5.
    Zstd,
}

/// Every method in code order: the code is the index.
const ALL: [(Compression, &str); 14] = [
    (Compression::None, "none"),
    (Compression::Rle, "rle"),
    (Compression::Zips, "zips"),
    (Compression::Zip, "zip"),
    (Compression::Piz, "piz"),
    (Compression::Pxr24, "pxr24"),
    (Compression::B44, "b44"),
    (Compression::B44a, "b44a"),
    (Compression::Dwaa, "dwaa"),
    (Compression::Dwab, "dwab"),
    (Compression::Htj2k256, "htj2k256"),
    (Compression::Htj2k32, "htj2k32"),
    (Compression::Lj2k, "lj2k"),
    (Compression::Zstd, "zstd"),
];

impl Compression {
    /// The method with the code `code`, if OpenEXR 3.5 defines one.
    pub fn from_code(code: u8) -> Option<Self> {
        ALL.get(usize::from(code)).map(|&(c, _)| c)
    }

    /// The code stored in the file.
    pub fn code(self) -> u8 {
        ALL.iter()
            .position(|&(c, _)| c == self)
            .expect("every method is in the table") as u8
    }

    /// The lower-case name (`zip`, `zstd`), as the command line spells it.
    pub fn name(self) -> &'static str {
        ALL[usize::from(self.code())].1
    }

    /// Scan lines per chunk: part of the format.
    pub fn lines_per_chunk(self) -> usize {
        match self {
            Compression::None | Compression::Rle | Compression::Zips | Compression::Zstd => 1,
            Compression::Zip | Compression::Pxr24 => 16,
            Compression::Piz
            | Compression::B44
            | Compression::B44a
            | Compression::Dwaa
            | Compression::Htj2k32 => 32,
            Compression::Dwab | Compression::Htj2k256 | Compression::Lj2k => 256,
        }
    }

    /// Whether oxport reads files compressed this way.
    pub fn can_read(self) -> bool {
        self.can_write()
            || matches!(
                self,
                Compression::Piz
                    | Compression::B44
                    | Compression::B44a
                    | Compression::Dwaa
                    | Compression::Dwab
            )
    }

    /// Whether oxport writes files compressed this way.
    pub fn can_write(self) -> bool {
        matches!(
            self,
            Compression::None
                | Compression::Rle
                | Compression::Zips
                | Compression::Zip
                | Compression::Pxr24
                | Compression::Piz
                | Compression::B44
                | Compression::B44a
                | Compression::Dwaa
                | Compression::Dwab
                | Compression::Zstd
                | Compression::Htj2k256
                | Compression::Htj2k32
        )
    }

    /// Whether OpenEXR reads deep parts written with this method (NONE,
    /// RLE, ZIPS), and so oxport writes them with it.
    pub fn can_write_deep(self) -> bool {
        matches!(
            self,
            Compression::None | Compression::Rle | Compression::Zips
        )
    }

    /// The methods oxport reads, by name, for messages.
    pub fn readable_names() -> String {
        names(Compression::can_read)
    }

    /// The methods oxport writes, by name, for messages.
    pub fn writable_names() -> String {
        names(Compression::can_write)
    }
}

/// The names of the methods `keep` keeps, in code order.
fn names(keep: fn(Compression) -> bool) -> String {
    ALL.iter()
        .filter(|&&(c, _)| keep(c))
        .map(|&(_, name)| name)
        .collect::<Vec<_>>()
        .join(", ")
}

impl fmt::Display for Compression {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Compression {
    type Err = Error;

    /// A method by name, any case (`ZIP`, `zstd`).
    fn from_str(name: &str) -> Result<Self> {
        ALL.iter()
            .find(|(_, n)| n.eq_ignore_ascii_case(name))
            .map(|&(c, _)| c)
            .ok_or_else(|| {
                Error::invalid(format!(
                    "unknown compression {name:?}: oxport writes {}",
                    Compression::writable_names()
                ))
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_and_names_round_trip() {
        for code in 0..14u8 {
            let c = Compression::from_code(code).unwrap();
            assert_eq!(c.code(), code);
            assert_eq!(c.name().parse::<Compression>().unwrap(), c);
            assert_eq!(c.name().to_uppercase().parse::<Compression>().unwrap(), c);
        }
        assert_eq!(Compression::from_code(14), None);
        assert_eq!(Compression::Zstd.code(), 13);
        assert!("lzma".parse::<Compression>().is_err());
    }
}
