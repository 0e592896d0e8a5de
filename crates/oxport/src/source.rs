//! Where a reader's bytes come from: anything that reads at an offset from
//! several threads at once (a file, memory, a remote object). Seekable
//! archives and OpenEXR images are read through it, each thread fetching
//! the blocks it decodes.

use std::fs::File;
use std::io;
use std::path::Path;

use crate::{Error, Result};

/// The bytes at `location`: a local file, or (with the `remote` feature)
/// the object a URL names (`s3://bucket/key`, `https://...`), read by
/// byte range. Errors name `location`.
pub fn open(location: &Path) -> Result<Box<dyn Source>> {
    #[cfg(feature = "remote")]
    if crate::remote::is_url(location) {
        return Ok(Box::new(crate::remote::RemoteSource::open(location)?));
    }
    let file = File::open(location).map_err(|e| Error::io_at(location, e))?;
    Ok(Box::new(file))
}

/// As [`open`], for a reader that begins with the first `head` bytes (an
/// image's headers and offset tables): a remote source fetches them with
/// the request that learns its size, and serves reads inside them from
/// memory.
pub fn open_with_head(location: &Path, head: usize) -> Result<Box<dyn Source>> {
    #[cfg(feature = "remote")]
    if crate::remote::is_url(location) {
        let source = crate::remote::RemoteSource::open_with_head(location, head)?;
        return Ok(Box::new(source));
    }
    let _ = head;
    open(location)
}

/// Bytes that can be read at any offset, from any thread.
///
/// A reader asks only for what it needs (a seekable archive's table and
/// the frames a read covers; an image's header, offset table and chunks),
/// so a remote source (HTTP, S3) transfers only those bytes and a file is
/// never held in memory whole.
pub trait Source: Send + Sync {
    /// The size of the source in bytes.
    fn size(&self) -> io::Result<u64>;

    /// Fills `buf` with the bytes at `offset`; an error when the source
    /// ends before `buf` is full.
    fn read_exact_at(&self, buf: &mut [u8], offset: u64) -> io::Result<()>;

    /// How many bytes a reader that goes forward without knowing where it
    /// stops (a frame decompressed up to a point) asks for at a time:
    /// little where reads are cheap, so that it fetches little past what
    /// it needs; more where each read is a request, so that it makes few.
    fn read_size(&self) -> usize {
        32 << 10
    }

    /// Announces reads to come, as (offset, length), each of which a later
    /// [`Source::read_exact_at`] asks for exactly: a remote source starts
    /// fetching them side by side, so that a reader working through them
    /// waits for one round trip, not one each. Others ignore it.
    fn prefetch(&self, reads: &[(u64, usize)]) {
        let _ = reads;
    }
}

/// Every byte at `location` (a path, or with the `remote` feature a URL),
/// in memory.
pub fn read_all(location: &Path) -> Result<Vec<u8>> {
    read_whole(&*open(location)?).map_err(|e| Error::io_at(location, e))
}

/// Every byte of `source`, in memory.
pub fn read_whole(source: &dyn Source) -> io::Result<Vec<u8>> {
    let size = source.size()?;
    // The size is the source's word (a remote server's): memory that
    // cannot be had is an error, not an abort.
    let too_big = || {
        io::Error::new(
            io::ErrorKind::OutOfMemory,
            format!("{size} bytes do not fit in memory"),
        )
    };
    let size = usize::try_from(size).map_err(|_| too_big())?;
    let mut data = Vec::new();
    data.try_reserve_exact(size).map_err(|_| too_big())?;
    data.resize(size, 0);
    source.read_exact_at(&mut data, 0)?;
    Ok(data)
}

/// A source read from its start to its end, as `Read`: each read one
/// `read_exact_at` of what fits (for a remote source, one request).
pub struct Reading<S> {
    source: S,
    position: u64,
    size: u64,
}

impl<S: Source> Reading<S> {
    /// A reader at the start of `source`.
    pub fn new(source: S) -> io::Result<Self> {
        let size = source.size()?;
        Ok(Reading {
            source,
            position: 0,
            size,
        })
    }

    /// The source's size.
    pub fn size(&self) -> u64 {
        self.size
    }
}

impl<S: Source> io::Read for Reading<S> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let left = self.size - self.position;
        let take = buf.len().min(usize::try_from(left).unwrap_or(usize::MAX));
        self.source.read_exact_at(&mut buf[..take], self.position)?;
        self.position += take as u64;
        Ok(take)
    }
}

impl Source for File {
    fn size(&self) -> io::Result<u64> {
        Ok(self.metadata()?.len())
    }

    #[cfg(unix)]
    fn read_exact_at(&self, buf: &mut [u8], offset: u64) -> io::Result<()> {
        std::os::unix::fs::FileExt::read_exact_at(self, buf, offset)
    }

    #[cfg(windows)]
    fn read_exact_at(&self, mut buf: &mut [u8], mut offset: u64) -> io::Result<()> {
        use std::os::windows::fs::FileExt;
        while !buf.is_empty() {
            match self.seek_read(buf, offset) {
                Ok(0) => return Err(io::ErrorKind::UnexpectedEof.into()),
                Ok(n) => {
                    buf = &mut buf[n..];
                    offset += n as u64;
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }
}

impl Source for [u8] {
    fn size(&self) -> io::Result<u64> {
        Ok(self.len() as u64)
    }

    fn read_exact_at(&self, buf: &mut [u8], offset: u64) -> io::Result<()> {
        let bytes = usize::try_from(offset)
            .ok()
            .and_then(|start| self.get(start..start.checked_add(buf.len())?))
            .ok_or(io::ErrorKind::UnexpectedEof)?;
        buf.copy_from_slice(bytes);
        Ok(())
    }
}

impl Source for Vec<u8> {
    fn size(&self) -> io::Result<u64> {
        self.as_slice().size()
    }

    fn read_exact_at(&self, buf: &mut [u8], offset: u64) -> io::Result<()> {
        self.as_slice().read_exact_at(buf, offset)
    }
}

impl<S: Source + ?Sized> Source for &S {
    fn size(&self) -> io::Result<u64> {
        (**self).size()
    }

    fn read_exact_at(&self, buf: &mut [u8], offset: u64) -> io::Result<()> {
        (**self).read_exact_at(buf, offset)
    }

    fn read_size(&self) -> usize {
        (**self).read_size()
    }

    fn prefetch(&self, reads: &[(u64, usize)]) {
        (**self).prefetch(reads)
    }
}

impl<S: Source + ?Sized> Source for Box<S> {
    fn size(&self) -> io::Result<u64> {
        (**self).size()
    }

    fn read_exact_at(&self, buf: &mut [u8], offset: u64) -> io::Result<()> {
        (**self).read_exact_at(buf, offset)
    }

    fn read_size(&self) -> usize {
        (**self).read_size()
    }

    fn prefetch(&self, reads: &[(u64, usize)]) {
        (**self).prefetch(reads)
    }
}
