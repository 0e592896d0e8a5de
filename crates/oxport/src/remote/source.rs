//! An object read by byte range.

use std::io;
use std::path::Path;

use bytes::Bytes;
use futures_util::{StreamExt, TryStreamExt};
use object_store::{GetOptions, GetRange, ObjectStoreExt};

use super::{Object, io_error, runtime};
use crate::Result;
use crate::source::Source;

/// An object as a [`Source`]: its size asked once, then each read ranged
/// GETs of exactly the bytes asked for (one, unless the read is large).
pub struct RemoteSource {
    object: Object,
    size: u64,
    /// The object's first bytes, when they were fetched on opening.
    head: Bytes,
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
            head: Bytes::new(),
        })
    }

    /// Opens the object `url` names with one ranged GET of its first
    /// `head` bytes, which tells its size too, and keeps them: reads inside
    /// them are served from memory. An object that the GET cannot open
    /// (an empty one refuses the range) is opened as [`RemoteSource::open`]
    /// opens it.
    pub fn open_with_head(url: &Path, head: usize) -> Result<RemoteSource> {
        let object = Object::parse(url)?;
        let options = GetOptions {
            range: Some(GetRange::Bounded(0..head as u64)),
            ..GetOptions::default()
        };
        let fetched = runtime().block_on(async {
            let result = object.store.get_opts(&object.key, options).await?;
            let size = result.meta.size;
            Ok::<_, object_store::Error>((size, result.bytes().await?))
        });
        match fetched {
            Ok((size, head)) => Ok(RemoteSource { object, size, head }),
            Err(
                e @ (object_store::Error::NotFound { .. }
                | object_store::Error::PermissionDenied { .. }
                | object_store::Error::Unauthenticated { .. }),
            ) => Err(object.error(e)),
            Err(_) => RemoteSource::open(url),
        }
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
        let end = offset
            .checked_add(buf.len() as u64)
            .filter(|&end| end <= self.size)
            .ok_or(io::ErrorKind::UnexpectedEof)?;
        if end <= self.head.len() as u64 {
            buf.copy_from_slice(&self.head[offset as usize..end as usize]);
            return Ok(());
        }
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
