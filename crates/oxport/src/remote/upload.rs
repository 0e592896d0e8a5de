//! Finished files published as objects, whole or not at all.

use std::fs::File;
use std::path::{Path, PathBuf};

use bytes::Bytes;
use object_store::{ObjectStoreExt, PutPayload, WriteMultipart};

use super::{Object, is_url, runtime};
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

/// Runs `write` on a local path for `output` and gives what it gives:
/// `output` itself when it is a local path; for a URL, a path of the same
/// name in a new temporary directory, whose files (the output and any
/// `write` put beside it, such as an OBJ file's MTL) are uploaded beside
/// the URL's object once `write` succeeds, the output last. On any error
/// nothing is published, and the temporary files are removed either way.
pub fn with_output<T>(output: &Path, write: impl FnOnce(&Path) -> Result<T>) -> Result<T> {
    if !is_url(output) {
        return write(output);
    }
    let text = output.to_string_lossy();
    let (parent, name) = text
        .rsplit_once('/')
        .filter(|(_, name)| !name.is_empty())
        .ok_or_else(|| Error::invalid(format!("{text}: the URL names no object")))?;
    let scratch = tempfile::Builder::new()
        .prefix(".oxport-upload-")
        .tempdir()
        .map_err(|e| Error::io_at(&std::env::temp_dir(), e))?;
    let local = scratch.path().join(name);
    let done = write(&local)?;
    let mut beside: Vec<PathBuf> = std::fs::read_dir(scratch.path())
        .and_then(|entries| entries.map(|e| e.map(|e| e.path())).collect())
        .map_err(|e| Error::io_at(scratch.path(), e))?;
    beside.sort_by_key(|path| *path == local);
    for file in beside {
        let name = file.file_name().unwrap_or_default().to_string_lossy();
        upload(&file, Path::new(&format!("{parent}/{name}")))?;
    }
    Ok(done)
}
