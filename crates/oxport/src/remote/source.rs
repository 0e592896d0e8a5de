//! An object read by byte range.

use std::io;
use std::path::Path;

use futures_util::{StreamExt, TryStreamExt};
use object_store::ObjectStoreExt;

use super::{Object, io_error, runtime};
use crate::Result;
use crate::source::Source;

/// An object as a [`Source`]: its size asked once, then each read ranged
/// GETs of exactly the bytes asked for (one, unless the read is large).
pub struct RemoteSource {
    object: Object,
    size: u64,
}

impl RemoteSource {
    /// Opens the object `url` names: its size is asked for (an error naming
    /// the URL when it, or its bucket, is missing or may not be read).
    pub fn open(url: &Path) -> Result<RemoteSource> {
        let object = Object::parse(url)?;
        let meta = runtime()
            .block_on(object.store.head(&object.key))
            .map_err(|e| object.error(e))?;
        Ok(RemoteSource {
            size: meta.size,
            object,
        })
    }

    /// The URL it reads.
    pub fn url(&self) -> &str {
        &self.object.url
    }
}

impl Source for RemoteSource {
    fn size(&self) -> io::Result<u64> {
        Ok(self.size)
    }

    /// A request costs about what a megabyte takes to arrive.
    fn read_size(&self) -> usize {
        1 << 20
    }

    /// A large read is several ranged GETs of [`PART`] bytes, up to
    /// [`IN_FLIGHT`] at a time, each copied to its place as it arrives
    /// (one connection is slower than the network); a small one is one GET.
    fn read_exact_at(&self, buf: &mut [u8], offset: u64) -> io::Result<()> {
        if buf.is_empty() {
            return Ok(());
        }
        offset
            .checked_add(buf.len() as u64)
            .filter(|&end| end <= self.size)
            .ok_or(io::ErrorKind::UnexpectedEof)?;
        let parts = buf
            .chunks_mut(PART)
            .enumerate()
            .map(|(i, part)| self.fetch(part, offset + (i * PART) as u64));
        runtime().block_on(
            futures_util::stream::iter(parts)
                .buffer_unordered(IN_FLIGHT)
                .try_collect::<()>(),
        )
    }
}

/// The bytes of one ranged GET of a large read.
const PART: usize = 8 << 20;
/// The GETs of a large read under way at once.
const IN_FLIGHT: usize = 8;

impl RemoteSource {
    /// Fills `buf` with the bytes at `offset`, in one ranged GET.
    async fn fetch(&self, buf: &mut [u8], offset: u64) -> io::Result<()> {
        let object = &self.object;
        let end = offset + buf.len() as u64;
        let bytes = object
            .store
            .get_range(&object.key, offset..end)
            .await
            .map_err(io_error)?;
        if bytes.len() != buf.len() {
            return Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                format!(
                    "{}: asked for {} bytes at {offset}, got {}",
                    object.url,
                    buf.len(),
                    bytes.len()
                ),
            ));
        }
        buf.copy_from_slice(&bytes);
        Ok(())
    }
}
