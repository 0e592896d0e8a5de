//! Objects in object storage (S3 and what speaks its API, Google Cloud
//! Storage, Azure Blob Storage) and on HTTP servers, through the
//! `object_store` crate: a URL read by byte range as a [`Source`]
//! ([`RemoteSource`], which `source::open` gives for a URL), and a
//! finished local file published as one object ([`upload`], which
//! `atomic::write_file` calls for a URL: every writer takes one).
//! Credentials, regions and endpoints come from the usual environment
//! variables (`AWS_ACCESS_KEY_ID`, `AWS_ENDPOINT_URL`,
//! `GOOGLE_SERVICE_ACCOUNT`, `AZURE_STORAGE_ACCOUNT_NAME`, ...).
//!
//! Requests run on one small Tokio runtime shared by the process; callers
//! block on them from any thread, each read its own request.
//!
//! [`Source`]: crate::source::Source

mod source;
mod upload;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use object_store::path::Path as ObjectPath;
use object_store::{ObjectStore, ObjectStoreScheme};
use url::Url;

use crate::{Error, Result};

pub use source::RemoteSource;
pub use upload::upload;

/// Whether `location` is a URL oxport reads and writes through object
/// storage (`s3://`, `s3a://`, `gs://`, `az://`, `abfs://`, `http://`,
/// `https://`...) rather than a local path.
///
/// A path with a drive letter (`C:\renders\a.exr`, `C:/a.exr`, `Z:x.obj`)
/// or a UNC prefix (`\\server\share\a.exr`) is a path on every system:
/// no store's scheme is one letter, and none starts with a backslash.
pub fn is_url(location: &Path) -> bool {
    let Some(text) = location.to_str() else {
        return false;
    };
    let drive =
        text.len() >= 2 && text.as_bytes()[0].is_ascii_alphabetic() && text.as_bytes()[1] == b':';
    if drive || text.starts_with(['\\', '/']) {
        return false;
    }
    Url::parse(text).ok().is_some_and(|url| {
        !matches!(url.scheme(), "file" | "memory")
            && url.host_str().is_some_and(|host| !host.is_empty())
            && ObjectStoreScheme::parse(&url).is_ok()
    })
}

/// An object: its store, its key there, and the URL it was named by (for
/// errors).
#[derive(Clone)]
pub struct Object {
    store: Arc<dyn ObjectStore>,
    key: ObjectPath,
    url: String,
}

impl Object {
    /// The object `url` names, with a store for its bucket (or server)
    /// configured from the environment; stores are kept and shared, so
    /// connections are too.
    pub fn parse(url: &Path) -> Result<Object> {
        let text = url.to_string_lossy().into_owned();
        let invalid = |why: String| Error::invalid(format!("{text}: {why}"));
        let parsed = Url::parse(&text).map_err(|e| invalid(e.to_string()))?;
        let (scheme, key) =
            ObjectStoreScheme::parse(&parsed).map_err(|e| invalid(e.to_string()))?;
        if key.as_ref().is_empty() {
            return Err(invalid("the URL names a bucket, not an object".into()));
        }
        let prefix = match scheme {
            ObjectStoreScheme::AmazonS3 => "AWS_",
            ObjectStoreScheme::GoogleCloudStorage => "GOOGLE_",
            ObjectStoreScheme::MicrosoftAzure => "AZURE_",
            ObjectStoreScheme::Http => "HTTP_",
            _ => return Err(invalid("not an object storage or HTTP URL".into())),
        };
        // One store per bucket (or server): the URL without the object's
        // key, wherever the URL puts the bucket (host or path).
        let whole = parsed.as_str();
        let bucket = whole.strip_suffix(key.as_ref()).unwrap_or(whole).to_owned();
        static STORES: OnceLock<Mutex<HashMap<String, Arc<dyn ObjectStore>>>> = OnceLock::new();
        let stores = STORES.get_or_init(Default::default);
        let mut stores = crate::sync::lock(stores);
        let store = match stores.get(&bucket) {
            Some(store) => store.clone(),
            None => {
                // The runtime installs TLS's cryptography, which a store's
                // HTTP client needs when it is built.
                runtime();
                // A plain `http://` URL asks for plain HTTP (S3's endpoint
                // says so with AWS_ALLOW_HTTP).
                let plain = (scheme == ObjectStoreScheme::Http && parsed.scheme() == "http")
                    .then(|| ("allow_http".to_owned(), "true".to_owned()));
                let options = std::env::vars()
                    .filter(|(name, _)| name.starts_with(prefix))
                    .map(|(name, value)| (name.to_ascii_lowercase(), value))
                    .chain(plain);
                let (store, _) = object_store::parse_url_opts(&parsed, options)
                    .map_err(|e| invalid(e.to_string()))?;
                let store: Arc<dyn ObjectStore> = Arc::from(store);
                stores.insert(bucket, store.clone());
                store
            }
        };
        Ok(Object {
            store,
            key,
            url: text,
        })
    }

    /// The URL, as a path for errors.
    fn path(&self) -> PathBuf {
        PathBuf::from(&self.url)
    }

    /// `error` from a request for this object, as an I/O error naming it.
    fn error(&self, error: object_store::Error) -> Error {
        Error::io_at(&self.path(), io_error(error))
    }
}

/// A request's error as an I/O error of the matching kind, in a few words.
fn io_error(error: object_store::Error) -> std::io::Error {
    use std::io::ErrorKind;
    let (kind, text) = match &error {
        object_store::Error::NotFound { .. } => (
            ErrorKind::NotFound,
            "not found (no such object, or no such bucket)".to_owned(),
        ),
        object_store::Error::PermissionDenied { .. } => (
            ErrorKind::PermissionDenied,
            "access denied (the credentials may not read or write it)".to_owned(),
        ),
        object_store::Error::Unauthenticated { .. } => (
            ErrorKind::PermissionDenied,
            "not authenticated (no valid credentials in the environment)".to_owned(),
        ),
        other => (ErrorKind::Other, other.to_string()),
    };
    std::io::Error::new(kind, text)
}

/// The process's runtime for requests (and TLS's cryptography, installed
/// once).
fn runtime() -> &'static tokio::runtime::Runtime {
    static RUNTIME: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RUNTIME.get_or_init(|| {
        // Another part of the process may have installed one: either does.
        let _ = rustls::crypto::ring::default_provider().install_default();
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .thread_name("oxport-remote")
            .enable_all()
            .build()
            .expect("a runtime of two threads")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_and_paths_are_told_apart() {
        for url in [
            "s3://bucket/key.exr",
            "s3a://bucket/a/b.zst",
            "gs://bucket/key",
            "az://container/key",
            "https://example.com/file.exr",
            "http://127.0.0.1:9000/bucket/key",
        ] {
            assert!(is_url(Path::new(url)), "{url}");
        }
        for path in [
            "file.exr",
            "/tmp/file.exr",
            "c:/x.exr",
            "file:///tmp/x",
            "s3:/x",
            // Windows paths, which a URL parser reads as a scheme `c:`.
            r"C:\renders\a.exr",
            "C:/renders/a.exr",
            "C://renders/a.exr",
            r"\\server\share\a.exr",
            "//server/share/a.exr",
            r"Z:\x.obj",
            "Z:x.obj",
            r"\\?\C:\very\long\path.exr",
        ] {
            assert!(!is_url(Path::new(path)), "{path}");
        }
    }

    #[test]
    fn each_bucket_has_a_store_of_its_own() {
        let store = |url: &str| Object::parse(Path::new(url)).unwrap().store;
        for (a, b) in [
            ("s3://one/x", "s3://two/x"),
            (
                "https://s3.us-east-1.amazonaws.com/one/x",
                "https://s3.us-east-1.amazonaws.com/two/x",
            ),
        ] {
            assert!(!Arc::ptr_eq(&store(a), &store(b)), "{a} and {b}");
            assert!(Arc::ptr_eq(&store(a), &store(&format!("{a}/y"))), "{a}");
        }
    }

    #[test]
    fn a_bucket_is_not_an_object() {
        let error = Object::parse(Path::new("s3://bucket/")).err().unwrap();
        assert!(error.to_string().contains("s3://bucket/"), "{error}");
    }
}
