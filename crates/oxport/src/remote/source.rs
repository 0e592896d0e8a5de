//! An object read by byte range.

use std::io;
use std::path::Path;

use object_store::ObjectStoreExt;

use super::{Object, io_error, runtime};
use crate::Result;
use crate::source::Source;

/// An object as a [`Source`]: its size asked once, then each read one
/// ranged GET of exactly the bytes asked for.
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

    fn read_exact_at(&self, buf: &mut [u8], offset: u64) -> io::Result<()> {
        if buf.is_empty() {
            return Ok(());
        }
        let end = offset
            .checked_add(buf.len() as u64)
            .filter(|&end| end <= self.size)
            .ok_or(io::ErrorKind::UnexpectedEof)?;
        let object = &self.object;
        let bytes = runtime()
            .block_on(object.store.get_range(&object.key, offset..end))
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
