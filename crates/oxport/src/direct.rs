//! Writing around the page cache: `O_DIRECT` on Linux, `F_NOCACHE` on
//! macOS, `FILE_FLAG_NO_BUFFERING` on Windows.
//!
//! Where the kernel is slow to hand out page-cache pages (virtual machines
//! are; on these a new 2 GB file writes at ~450 MB/s buffered and ~3 GB/s
//! direct), writing big files directly to the device is several times faster,
//! and it does not evict what other programs keep in the cache. The price:
//! the file is not in the cache afterwards, and every write waits for the
//! device. `O_DIRECT` and `FILE_FLAG_NO_BUFFERING` need block-aligned memory,
//! lengths and offsets (`F_NOCACHE` does not, but is fastest with them), so
//! bytes go through an aligned staging buffer; the last partial block is
//! written padded with zeros and the file is then cut to its true length.

use std::fs::File;
use std::io::{self, Write};

/// Whether this system has a way to write around the page cache.
pub(crate) const AVAILABLE: bool = cfg!(any(target_os = "linux", windows, target_vendor = "apple"));

/// What `--direct` does on this system, for `--version`.
pub(crate) const HOW: &str = if cfg!(target_os = "linux") {
    "writes may go around the page cache (O_DIRECT) when asked to"
} else if cfg!(windows) {
    "writes may go around the system cache (FILE_FLAG_NO_BUFFERING) when asked to"
} else if cfg!(target_vendor = "apple") {
    "writes may go around the page cache (F_NOCACHE) when asked to"
} else {
    "writing around the page cache: this system has no way"
};

/// The alignment direct writes ask for: the logical block (sector) size,
/// 4096 or less.
const BLOCK: usize = 4096;
/// Bytes staged before each write.
const STAGE: usize = 8 << 20;

#[derive(Clone, Copy)]
#[repr(C, align(4096))]
struct Block([u8; BLOCK]);

/// A [`Write`] for a file opened by [`create_new`]. Call [`DirectWriter::finish`]
/// at the end: until then the last partial block is only in memory.
pub(crate) struct DirectWriter {
    file: File,
    stage: Vec<Block>,
    staged: usize,
    written: u64,
}

impl DirectWriter {
    pub(crate) fn new(file: File) -> Self {
        DirectWriter {
            file,
            stage: vec![Block([0; BLOCK]); STAGE / BLOCK],
            staged: 0,
            written: 0,
        }
    }

    /// Writes the first `len` staged bytes (a whole number of blocks).
    fn write_stage(&mut self, len: usize) -> io::Result<()> {
        self.file.write_all(&as_bytes(&self.stage)[..len])
    }

    /// Writes the staged bytes, padded to whole blocks, and cuts the file to
    /// the bytes actually written.
    pub(crate) fn finish(mut self) -> io::Result<()> {
        if self.staged > 0 {
            let (staged, padded) = (self.staged, self.staged.next_multiple_of(BLOCK));
            as_bytes_mut(&mut self.stage)[staged..padded].fill(0);
            self.write_stage(padded)?;
            self.written += staged as u64;
        }
        self.file.set_len(self.written)
    }
}

fn as_bytes(blocks: &[Block]) -> &[u8] {
    // SAFETY: `Block` is plain bytes without padding (size and alignment 4096),
    // so the blocks are `len * BLOCK` initialized, contiguous bytes.
    unsafe { std::slice::from_raw_parts(blocks.as_ptr().cast::<u8>(), blocks.len() * BLOCK) }
}

fn as_bytes_mut(blocks: &mut [Block]) -> &mut [u8] {
    // SAFETY: as in `as_bytes`; the borrow is exclusive.
    unsafe {
        std::slice::from_raw_parts_mut(blocks.as_mut_ptr().cast::<u8>(), blocks.len() * BLOCK)
    }
}

impl Write for DirectWriter {
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        let n = data.len().min(STAGE - self.staged);
        let staged = self.staged;
        as_bytes_mut(&mut self.stage)[staged..staged + n].copy_from_slice(&data[..n]);
        self.staged += n;
        if self.staged == STAGE {
            self.write_stage(STAGE)?;
            self.written += STAGE as u64;
            self.staged = 0;
        }
        Ok(n)
    }

    /// Nothing: whole blocks are written as they fill, the rest by `finish`.
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Creates the new file `path` for writing around the page cache: an error
/// where the system or the file system does not offer it (tmpfs refuses
/// `O_DIRECT`; other systems than Linux, macOS and Windows have no way).
/// The file may exist when that error comes (tmpfs creates it first).
pub(crate) fn create_new(path: &std::path::Path) -> io::Result<File> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_DIRECT);
    }
    #[cfg(windows)]
    {
        use std::os::windows::fs::OpenOptionsExt;
        /// `FILE_FLAG_NO_BUFFERING` (winbase.h): writes bypass the system's
        /// cache, in whole sectors from sector-aligned memory.
        const FILE_FLAG_NO_BUFFERING: u32 = 0x2000_0000;
        options.custom_flags(FILE_FLAG_NO_BUFFERING);
    }
    #[cfg(any(target_os = "linux", windows))]
    return options.open(path);
    #[cfg(target_vendor = "apple")]
    {
        use std::os::fd::AsRawFd;
        let file = options.open(path)?;
        // SAFETY: a plain fcntl on a descriptor this function owns.
        if unsafe { libc::fcntl(file.as_raw_fd(), libc::F_NOCACHE, 1) } == -1 {
            return Err(io::Error::last_os_error());
        }
        Ok(file)
    }
    #[cfg(not(any(target_os = "linux", windows, target_vendor = "apple")))]
    {
        let _ = (options, path);
        Err(io::Error::from(io::ErrorKind::Unsupported))
    }
}
