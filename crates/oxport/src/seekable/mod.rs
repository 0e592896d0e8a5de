//! Zstandard seekable archives: independent zstd frames and a seek table in
//! a skippable frame at the end, so that any byte range can be read by
//! decompressing only the frames it lies in, and frames can be compressed
//! and decompressed on every core. Blender saves compressed `.blend` files
//! in this format. `docs/formats/seekable.md` has the byte tables.
//!
//! Writing: [`pack`] (any `Read`), [`pack_file`], or [`Writer`] (`Write`).
//! Reading: [`Reader`] over any [`Source`] (a file, memory, a remote
//! object read by range): [`Reader::read_at`] from any thread, `Read +
//! Seek`, [`Reader::unpack`] in parallel, or [`unpack_file`]. Archives
//! without a seek table (what `zstd` writes) are indexed from their frame
//! headers, or streamed when the frames do not record their sizes.
//!
//! ```
//! use oxport::seekable::{self, ReadOptions, Reader, WriteOptions};
//!
//! let data: Vec<u8> = (0..100_000u32).flat_map(|i| (i / 7).to_le_bytes()).collect();
//! let options = WriteOptions { frame_size: 64 * 1024, ..WriteOptions::default() };
//! let mut archive = Vec::new();
//! seekable::pack(&data[..], &mut archive, &options, |_, _| {})?;
//!
//! let reader = Reader::new(archive, &ReadOptions::default())?;
//! let mut part = [0u8; 16];
//! reader.read_at(250_000, &mut part)?;
//! assert_eq!(part, data[250_000..250_016]);
//! # Ok::<(), oxport::Error>(())
//! ```

mod cache;
mod frame;
mod read;
mod scan;
mod stream;
pub mod table;
mod write;

pub use crate::source::Source;
pub use read::{Index, ReadOptions, Reader, unpack_file};
pub use stream::unpack_stream;
pub use table::Frame;
pub use write::{FileWriter, Packed, WriteOptions, Writer, pack, pack_file};

/// The most bytes handed to one `write`. Measured on Linux 6.18 (ext4):
/// writes of 2 MiB into the page cache took 5 to 7 times as long in about a
/// third of the runs; writes of 512 KiB or less never did.
pub(crate) const WRITE_PIECE: usize = 512 << 10;

/// Writes `data` in pieces of at most [`WRITE_PIECE`] bytes.
pub(crate) fn write_pieces(output: &mut impl std::io::Write, data: &[u8]) -> std::io::Result<()> {
    data.chunks(WRITE_PIECE)
        .try_for_each(|piece| output.write_all(piece))
}
