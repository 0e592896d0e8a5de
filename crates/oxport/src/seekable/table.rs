//! The seek table: one entry per frame in a skippable frame at the end of
//! the archive (`docs/formats/seekable.md` has the byte tables).

use crate::{Error, Result};

/// Magic number of the skippable frame that holds the seek table.
pub const SKIPPABLE_MAGIC: u32 = 0x184D_2A5E;
/// The last four bytes of an archive with a seek table.
pub const SEEKABLE_MAGIC: u32 = 0x8F92_EAB1;
/// The most frames a seek table may list (as the reference implementation).
pub const MAX_FRAMES: u32 = 0x0800_0000;
/// The largest decompressed size of one frame (as the reference implementation).
pub const MAX_FRAME_SIZE: usize = 1 << 30;
/// `Number_Of_Frames`, `Seek_Table_Descriptor`, `Seekable_Magic_Number`.
pub const FOOTER_SIZE: usize = 9;
/// `Skippable_Magic_Number` and `Frame_Size` before the entries.
const HEADER_SIZE: usize = 8;
/// Bit 7 of the descriptor: every entry carries a checksum.
const CHECKSUM_FLAG: u8 = 0x80;
/// Bits 6 to 2 of the descriptor must be zero; bits 1 and 0 are ignored.
const RESERVED_BITS: u8 = 0x7C;
/// A zstd block of at most 128 KiB costs at least 4 bytes (an RLE block), so
/// no frame decompresses to more than this many times its compressed size.
pub(crate) const MAX_RATIO: u64 = (128 * 1024) / 4;

/// One frame of an archive: where its compressed bytes are and which
/// decompressed bytes they hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Frame {
    /// Offset of the frame in the archive.
    pub compressed_offset: u64,
    /// Size of the frame in the archive.
    pub compressed_size: u64,
    /// Offset of the frame's data in the decompressed stream.
    pub offset: u64,
    /// Size of the frame's data.
    pub size: u64,
    /// The low 32 bits of the XXH64 (seed 0) of the frame's data, when the
    /// seek table has checksums.
    pub checksum: Option<u32>,
}

impl Frame {
    /// Offset just past the frame's data in the decompressed stream.
    pub fn end(&self) -> u64 {
        self.offset + self.size
    }
}

/// The low 32 bits of XXH64 with seed 0: the seek table's checksum.
pub fn checksum(data: &[u8]) -> u32 {
    xxhash_rust::xxh64::xxh64(data, 0) as u32
}

/// The size of a seek table of `frames` entries.
pub fn encoded_len(frames: usize, checksums: bool) -> usize {
    HEADER_SIZE + frames * entry_size(checksums) + FOOTER_SIZE
}

fn entry_size(checksums: bool) -> usize {
    if checksums { 12 } else { 8 }
}

/// Appends the seek table of `frames` to `out`: the checksums are written
/// when `checksums` is true (every frame must then have one).
///
/// Preconditions (the writer's): fewer than [`MAX_FRAMES`] frames, sizes
/// that fit in 32 bits.
pub fn encode(frames: &[Frame], checksums: bool, out: &mut Vec<u8>) -> Result<()> {
    let count = u32::try_from(frames.len())
        .ok()
        .filter(|&n| n <= MAX_FRAMES)
        .ok_or_else(|| Error::invalid(format!("more than {MAX_FRAMES} frames")))?;
    let length = u32::try_from(encoded_len(frames.len(), checksums) - HEADER_SIZE)
        .map_err(|_| Error::Internal("seek table longer than 4 GiB".into()))?;
    out.reserve(encoded_len(frames.len(), checksums));
    out.extend_from_slice(&SKIPPABLE_MAGIC.to_le_bytes());
    out.extend_from_slice(&length.to_le_bytes());
    for frame in frames {
        let sizes = (
            u32::try_from(frame.compressed_size),
            u32::try_from(frame.size),
        );
        let (Ok(compressed), Ok(size)) = sizes else {
            return Err(Error::Internal("a frame larger than 4 GiB".into()));
        };
        out.extend_from_slice(&compressed.to_le_bytes());
        out.extend_from_slice(&size.to_le_bytes());
        if checksums {
            let checksum = frame
                .checksum
                .ok_or_else(|| Error::Internal("a frame without its checksum".into()))?;
            out.extend_from_slice(&checksum.to_le_bytes());
        }
    }
    out.extend_from_slice(&count.to_le_bytes());
    out.push(if checksums { CHECKSUM_FLAG } else { 0 });
    out.extend_from_slice(&SEEKABLE_MAGIC.to_le_bytes());
    Ok(())
}

/// What the footer says: the table's size and layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Footer {
    /// Entries in the table.
    pub frames: u32,
    /// Whether each entry holds a checksum.
    pub checksums: bool,
}

impl Footer {
    /// The whole seek table's size, skippable frame header included.
    pub fn table_len(&self) -> u64 {
        // At most 8 + 2^27 * 12 + 9: no overflow.
        encoded_len(self.frames as usize, self.checksums) as u64
    }
}

/// Reads the last [`FOOTER_SIZE`] bytes of an archive of `archive_len`
/// bytes: `None` when they do not end with the seekable magic number (no
/// seek table), an error when they do but cannot be a valid footer.
pub fn parse_footer(footer: &[u8; FOOTER_SIZE], archive_len: u64) -> Result<Option<Footer>> {
    if u32::from_le_bytes(footer[5..9].try_into().expect("4 bytes")) != SEEKABLE_MAGIC {
        return Ok(None);
    }
    let at = Some(archive_len - FOOTER_SIZE as u64);
    let frames = u32::from_le_bytes(footer[0..4].try_into().expect("4 bytes"));
    let descriptor = footer[4];
    if descriptor & RESERVED_BITS != 0 {
        return Err(Error::Corrupt {
            what: "seek table descriptor has reserved bits set",
            offset: at.map(|a| a + 4),
            path: None,
        });
    }
    if frames > MAX_FRAMES {
        return Err(Error::Corrupt {
            what: "seek table lists more frames than the format allows (2^27)",
            offset: at,
            path: None,
        });
    }
    let footer = Footer {
        frames,
        checksums: descriptor & CHECKSUM_FLAG != 0,
    };
    if footer.table_len() > archive_len {
        return Err(Error::Corrupt {
            what: "seek table longer than the file (truncated?)",
            offset: at,
            path: None,
        });
    }
    Ok(Some(footer))
}

/// Parses the whole seek table `table` (the last [`Footer::table_len`]
/// bytes of an archive of `archive_len` bytes) into frames, checking that
/// the frames fill the archive up to the table exactly.
pub fn parse(table: &[u8], footer: Footer, archive_len: u64) -> Result<Vec<Frame>> {
    let start = archive_len - table.len() as u64;
    let corrupt = |what, at: usize| Error::Corrupt {
        what,
        offset: Some(start + at as u64),
        path: None,
    };
    let word = |at: usize| u32::from_le_bytes(table[at..at + 4].try_into().expect("4 bytes"));
    if table.len() as u64 != footer.table_len() {
        return Err(Error::Internal("seek table of the wrong length".into()));
    }
    if word(0) != SKIPPABLE_MAGIC {
        return Err(corrupt(
            "seek table does not start with its skippable frame magic number",
            0,
        ));
    }
    if word(4) as usize != table.len() - HEADER_SIZE {
        return Err(corrupt(
            "seek table frame size disagrees with its number of frames",
            4,
        ));
    }
    let entry = entry_size(footer.checksums);
    let mut frames = Vec::with_capacity(footer.frames as usize);
    let (mut compressed_offset, mut offset) = (0u64, 0u64);
    for i in 0..footer.frames as usize {
        let at = HEADER_SIZE + i * entry;
        let compressed_size = u64::from(word(at));
        let size = u64::from(word(at + 4));
        let checksum = footer.checksums.then(|| word(at + 8));
        if size > MAX_FRAME_SIZE as u64 {
            return Err(corrupt(
                "seek table entry: frame larger than the format's 1 GiB",
                at + 4,
            ));
        }
        if size > compressed_size.saturating_mul(MAX_RATIO) {
            return Err(corrupt(
                "seek table entry: decompressed size impossible for its compressed size",
                at + 4,
            ));
        }
        frames.push(Frame {
            compressed_offset,
            compressed_size,
            offset,
            size,
            checksum,
        });
        compressed_offset += compressed_size;
        offset += size;
        if compressed_offset > start {
            return Err(corrupt(
                "seek table entries: frames larger than the file (truncated?)",
                at,
            ));
        }
    }
    if compressed_offset != start {
        return Err(corrupt(
            "seek table entries: frames do not end where the seek table starts",
            0,
        ));
    }
    Ok(frames)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frames(sizes: &[(u64, u64)], checksums: bool) -> Vec<Frame> {
        let (mut c, mut d) = (0, 0);
        sizes
            .iter()
            .enumerate()
            .map(|(i, &(compressed_size, size))| {
                let frame = Frame {
                    compressed_offset: c,
                    compressed_size,
                    offset: d,
                    size,
                    checksum: checksums.then_some(i as u32 * 7),
                };
                (c, d) = (c + compressed_size, d + size);
                frame
            })
            .collect()
    }

    /// An archive of zero bytes where the frames would be, then the table.
    fn archive(frames: &[Frame], checksums: bool) -> Vec<u8> {
        let body: u64 = frames.iter().map(|f| f.compressed_size).sum();
        let mut out = vec![0; body as usize];
        encode(frames, checksums, &mut out).unwrap();
        out
    }

    fn read(archive: &[u8]) -> Result<Option<Vec<Frame>>> {
        let len = archive.len() as u64;
        let tail: &[u8; FOOTER_SIZE] = archive[archive.len() - FOOTER_SIZE..].try_into().unwrap();
        let Some(footer) = parse_footer(tail, len)? else {
            return Ok(None);
        };
        let table = &archive[(len - footer.table_len()) as usize..];
        parse(table, footer, len).map(Some)
    }

    #[test]
    fn tables_round_trip_with_and_without_checksums() {
        for checksums in [false, true] {
            let frames = frames(&[(10, 100), (20, 0), (5, 50)], checksums);
            let bytes = archive(&frames, checksums);
            assert_eq!(bytes.len(), 35 + encoded_len(3, checksums));
            assert_eq!(read(&bytes).unwrap().unwrap(), frames);
        }
        // No frames at all is a valid (empty) table.
        assert_eq!(read(&archive(&[], true)).unwrap().unwrap(), vec![]);
    }

    #[test]
    fn the_bytes_are_the_formats() {
        let mut out = Vec::new();
        encode(&frames(&[(0x0102, 0x0304)], true), true, &mut out).unwrap();
        assert_eq!(
            out,
            [
                0x5E, 0x2A, 0x4D, 0x18, 21, 0, 0, 0, // skippable magic, frame size
                0x02, 0x01, 0, 0, 0x04, 0x03, 0, 0, 0, 0, 0, 0, // one entry
                1, 0, 0, 0, 0x80, 0xB1, 0xEA, 0x92, 0x8F, // footer
            ]
        );
    }

    #[test]
    fn damaged_tables_are_errors() {
        let good = archive(&frames(&[(10, 100), (20, 40)], true), true);
        let n = good.len();
        let damaged = |at: usize, value: u8| {
            let mut bytes = good.clone();
            bytes[at] = value;
            read(&bytes).map_or_else(|e| e.to_string(), |_| format!("no error at {at}"))
        };
        assert!(damaged(n - 5, 0x84).contains("reserved bits"));
        // A wrong frame count puts the table's start elsewhere.
        assert!(damaged(n - 9, 3).contains("magic"));
        assert!(damaged(n - 9, 200).contains("longer than the file"));
        assert!(damaged(n - 6, 0x10).contains("more frames"));
        let table = n - encoded_len(2, true);
        assert!(damaged(table, 0).contains("magic"));
        assert!(damaged(table + 4, 9).contains("disagrees"));
        assert!(damaged(table + 8, 9).contains("do not end"));
        assert!(damaged(table + 8, 200).contains("larger than the file"));
        assert!(damaged(table + 15, 0x50).contains("1 GiB"));
        assert!(damaged(table + 14, 0x50).contains("impossible"));
        // The unused bits are ignored.
        let mut bytes = good.clone();
        bytes[n - 5] |= 0x03;
        assert!(read(&bytes).unwrap().is_some());
        // No magic: no table.
        bytes[n - 1] = 0;
        assert!(read(&bytes).unwrap().is_none());
    }
}
