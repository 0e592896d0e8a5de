//! An object read by byte range.

use std::collections::HashMap;
use std::io;
use std::path::Path;
use std::sync::{Arc, Mutex};

use bytes::Bytes;
use futures_util::{StreamExt, TryStreamExt};
use object_store::{GetOptions, GetRange, ObjectStoreExt};
use tokio::sync::Semaphore;
use tokio::task::JoinHandle;

use super::{Object, io_error, runtime};
use crate::Result;
use crate::source::Source;
use crate::sync::lock;

/// An object as a [`Source`]: its size asked once, then each read ranged
/// GETs of exactly the bytes asked for (one, unless the read is large).
pub struct RemoteSource {
    object: Object,
    size: u64,
    /// The object's first bytes, when they were fetched on opening.
    head: Bytes,
    /// Reads announced by [`Source::prefetch`], by (offset, length): their
    /// GETs, under way or done.
    prefetched: Mutex<HashMap<(u64, usize), Prefetch>>,
    /// How many of those GETs run at once.
    in_flight: Arc<Semaphore>,
}

type Prefetch = JoinHandle<object_store::Result<Bytes>>;

/// The bytes a source holds or fetches ahead of its reads, at most.
const PREFETCH_LIMIT: usize = 64 << 20;

impl RemoteSource {
    /// Opens the object `url` names: its size is asked for (an error naming
    /// the URL when it, or its bucket, is missing or may not be read).
    pub fn open(url: &Path) -> Result<RemoteSource> {
        let object = Object::parse(url)?;
        let meta = runtime()
            .block_on(object.store.head(&object.key))
            .map_err(|e| object.error(e))?;
        Ok(RemoteSource::new(object, meta.size, Bytes::new()))
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
            Ok((size, head)) => Ok(RemoteSource::new(object, size, head)),
            Err(
                e @ (object_store::Error::NotFound { .. }
                | object_store::Error::PermissionDenied { .. }
                | object_store::Error::Unauthenticated { .. }),
            ) => Err(object.error(e)),
            Err(_) => RemoteSource::open(url),
        }
    }

    fn new(object: Object, size: u64, head: Bytes) -> RemoteSource {
        RemoteSource {
            object,
            size,
            head,
            prefetched: Mutex::default(),
            in_flight: Arc::new(Semaphore::new(IN_FLIGHT)),
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

    /// A large read is several ranged GETs of 8 MiB, up to 8 at a time, each copied to its place as it arrives
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
        let prefetched = lock(&self.prefetched).remove(&(offset, buf.len()));
        if let Some(fetch) = prefetched {
            let bytes = runtime()
                .block_on(fetch)
                .map_err(io::Error::other)?
                .map_err(io_error)?;
            return self.copy(buf, offset, &bytes);
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

    /// Starts the GETs of the reads announced, 8 at a time, while the
    /// bytes held or under way stay within 64 MiB.
    fn prefetch(&self, reads: &[(u64, usize)]) {
        let mut prefetched = lock(&self.prefetched);
        let mut held: usize = prefetched.keys().map(|&(_, len)| len).sum();
        for &(offset, len) in reads {
            let end = offset.checked_add(len as u64);
            if len == 0
                || end.is_none_or(|end| end <= self.head.len() as u64 || end > self.size)
                || prefetched.contains_key(&(offset, len))
            {
                continue;
            }
            held += len;
            if held > PREFETCH_LIMIT {
                break;
            }
            let (object, permits) = (self.object.clone(), self.in_flight.clone());
            let fetch = runtime().spawn(async move {
                let _permit = permits.acquire_owned().await;
                let range = offset..offset + len as u64;
                object.store.get_range(&object.key, range).await
            });
            prefetched.insert((offset, len), fetch);
        }
    }
}

impl Drop for RemoteSource {
    /// GETs announced and never read are stopped.
    fn drop(&mut self) {
        for fetch in lock(&self.prefetched).values() {
            fetch.abort();
        }
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
        self.copy(buf, offset, &bytes)
    }

    /// Fills `buf` with the `bytes` a GET at `offset` gave.
    fn copy(&self, buf: &mut [u8], offset: u64, bytes: &[u8]) -> io::Result<()> {
        if bytes.len() != buf.len() {
            return Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                format!(
                    "{}: asked for {} bytes at {offset}, got {}",
                    self.object.url,
                    buf.len(),
                    bytes.len()
                ),
            ));
        }
        buf.copy_from_slice(bytes);
        Ok(())
    }
}
