//! The one error type of the library.

use std::borrow::Cow;
use std::fmt;
use std::path::{Path, PathBuf};

/// Everything that can go wrong in oxport.
///
/// Untrusted input produces `Parse` (text formats) or `Corrupt` (binary
/// formats); valid input that oxport cannot handle yet produces `Unsupported`;
/// misuse by the caller produces `InvalidArgument`; a failure that is neither
/// the input's nor the caller's fault produces `Io` (the system refused
/// something: a file, threads) or `Internal` (a bug in oxport).
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// An I/O error, with the path it happened on when there is one.
    Io {
        /// The file or URL, when the operation had one.
        path: Option<PathBuf>,
        /// The system's error.
        source: std::io::Error,
    },
    /// Text input that does not parse: where (file when known, 1-based
    /// line) and why.
    Parse {
        /// The file, when the text came from one.
        path: Option<PathBuf>,
        /// The 1-based line (0 when about the input as a whole).
        line: u64,
        /// What is wrong.
        reason: Cow<'static, str>,
    },
    /// Binary input that is damaged or truncated: what is wrong, at which
    /// byte when known, in which file when the reader was given one.
    Corrupt {
        /// What is wrong.
        what: &'static str,
        /// The byte it is at, when known.
        offset: Option<u64>,
        /// The file or URL, when the reader was given one.
        path: Option<PathBuf>,
    },
    /// Valid input that oxport does not handle yet.
    Unsupported(Cow<'static, str>),
    /// The caller passed something that cannot work.
    InvalidArgument(Cow<'static, str>),
    /// A broken invariant inside oxport: a bug, whatever the input.
    Internal(Cow<'static, str>),
    /// The output would be larger than the limit the caller set (a
    /// decompression bomb, or a limit too low).
    TooLarge {
        /// The limit, in bytes.
        limit: u64,
    },
}

/// `Result<T, oxport::Error>`.
pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    /// An I/O error that happened on `path`.
    pub fn io_at(path: &Path, source: std::io::Error) -> Self {
        Error::Io {
            path: Some(path.to_path_buf()),
            source,
        }
    }

    /// An I/O error, or damaged input, without a path names `path`; other
    /// errors are unchanged.
    pub fn at_path(self, path: &Path) -> Self {
        match self {
            Error::Io { path: None, source } => Error::io_at(path, source),
            Error::Corrupt {
                what,
                offset,
                path: None,
            } => Error::Corrupt {
                what,
                offset,
                path: Some(path.to_path_buf()),
            },
            other => other,
        }
    }

    /// A parse error without a file names `path`; other errors are unchanged.
    pub(crate) fn in_file(self, path: &Path) -> Self {
        match self {
            Error::Parse {
                path: None,
                line,
                reason,
            } => Error::Parse {
                path: Some(path.to_path_buf()),
                line,
                reason,
            },
            other => other,
        }
    }

    /// Damaged input: what is wrong, where not known (a decoder's error,
    /// which its caller may locate and name the file of).
    pub(crate) fn corrupt(what: &'static str) -> Self {
        Error::Corrupt {
            what,
            offset: None,
            path: None,
        }
    }

    /// A caller error with a message.
    pub fn invalid(reason: impl Into<Cow<'static, str>>) -> Self {
        Error::InvalidArgument(reason.into())
    }

    /// A caller error or an unsupported case, its reason prefixed with
    /// `what` (`object "Cube": ...`): one message, not one error's text
    /// inside another's. Other errors are unchanged.
    pub(crate) fn within(self, what: &str) -> Self {
        match self {
            Error::InvalidArgument(reason) => {
                Error::InvalidArgument(format!("{what}: {reason}").into())
            }
            Error::Unsupported(reason) => Error::Unsupported(format!("{what}: {reason}").into()),
            other => other,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Io {
                path: Some(path),
                source,
            } => write!(f, "{}: {source}", path.display()),
            Error::Io { path: None, source } => write!(f, "{source}"),
            // Line 0: about the file as a whole.
            Error::Parse {
                path: Some(path),
                line: 0,
                reason,
            } => write!(f, "{}: {reason}", path.display()),
            Error::Parse {
                path: Some(path),
                line,
                reason,
            } => write!(f, "{}:{line}: {reason}", path.display()),
            Error::Parse {
                path: None,
                line: 0,
                reason,
            } => write!(f, "{reason}"),
            Error::Parse {
                path: None,
                line,
                reason,
            } => write!(f, "line {line}: {reason}"),
            Error::Corrupt { what, offset, path } => {
                if let Some(path) = path {
                    write!(f, "{}: ", path.display())?;
                }
                match offset {
                    Some(offset) => write!(f, "corrupt input at byte {offset}: {what}"),
                    None => write!(f, "corrupt input: {what}"),
                }
            }
            Error::Unsupported(what) => write!(f, "unsupported: {what}"),
            Error::InvalidArgument(what) => write!(f, "invalid argument: {what}"),
            Error::Internal(what) => write!(f, "internal error (a bug in oxport): {what}"),
            Error::TooLarge { limit } => {
                write!(f, "the output is larger than the limit of {limit} bytes")
            }
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}

impl From<std::io::Error> for Error {
    fn from(source: std::io::Error) -> Self {
        Error::Io { path: None, source }
    }
}
