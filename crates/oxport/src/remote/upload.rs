//! Finished files published as objects, whole or not at all.

use std::fs::File;
use std::path::Path;

use bytes::Bytes;
use object_store::{ObjectStoreExt, PutPayload, WriteMultipart};

use super::{Object, runtime};
use crate::{Error, Result};

/// The largest object sent in one request (S3's limit for a single PUT is
/// 5 GiB). Such an upload is all or nothing: an object exists only once
/// every byte arrived, and a writer killed mid-way leaves nothing behind.
const SINGLE: u64 = 5 << 30;
/// Parts of a larger object, sent a few at a time.
const PART: usize = 64 << 20;
const PARTS_IN_FLIGHT: usize = 4;

/// Publishes the file at `local` as the object `url`, whole or not at all,
/// and gives its size. Up to 5 GiB it is one request; larger files go as
/// a multipart upload, completed at the end and aborted on any error (a
/// process killed during one leaves an incomplete upload, which the
/// bucket's lifecycle rule for incomplete uploads removes).
pub fn upload(local: &Path, url: &Path) -> Result<u64> {
    let object = Object::parse(url)?;
    let file = File::open(local).map_err(|e| Error::io_at(local, e))?;
    let size = file.metadata().map_err(|e| Error::io_at(local, e))?.len();
    let bytes = if size == 0 {
        Bytes::new()
    } else {
        // SAFETY: the file is the caller's finished output, which nothing
        // changes while it is sent.
        let map = unsafe { memmap2::Mmap::map(&file) }.map_err(|e| Error::io_at(local, e))?;
        Bytes::from_owner(map)
    };
    let store = &object.store;
    let sent = runtime().block_on(async {
        if size <= SINGLE {
            return store
                .put(&object.key, PutPayload::from(bytes))
                .await
                .map(drop);
        }
        let upload = store.put_multipart(&object.key).await?;
        let mut writer = WriteMultipart::new_with_chunk_size(upload, PART);
        for part in bytes.chunks(PART) {
            if let Err(error) = writer.wait_for_capacity(PARTS_IN_FLIGHT).await {
                writer.abort().await.ok();
                return Err(error);
            }
            writer.put(bytes.slice_ref(part));
        }
        writer.finish().await.map(drop)
    });
    sent.map_err(|e| object.error(e))?;
    Ok(size)
}
