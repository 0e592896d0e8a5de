//! The library's errors as Python exceptions: `oxport.Error` and its
//! subclasses for what the input holds, `OSError` for the system, and
//! `ValueError` for the caller's arguments.

use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyOSError, PyValueError};
use pyo3::prelude::*;

create_exception!(
    oxport._native,
    Error,
    PyException,
    "Base class of oxport's errors."
);
create_exception!(
    oxport._native,
    ParseError,
    Error,
    "Text input that does not parse."
);
create_exception!(
    oxport._native,
    CorruptError,
    Error,
    "Binary input that is damaged or truncated."
);
create_exception!(
    oxport._native,
    UnsupportedError,
    Error,
    "Valid input that oxport does not handle yet."
);

/// The Python exception of a library error.
pub(crate) fn to_py_err(error: oxport::Error) -> PyErr {
    match error {
        oxport::Error::Io { path, source } => {
            // OSError(errno, strerror, filename) makes Python pick the subclass
            // (FileNotFoundError, PermissionError...) as for its own I/O.
            // An error of a request (object storage) has a kind but no
            // errno: the kind's (ENOENT and EACCES, 2 and 13 wherever
            // Python runs), so that the subclass is the same.
            let errno = source.raw_os_error().unwrap_or(match source.kind() {
                std::io::ErrorKind::NotFound => 2,
                std::io::ErrorKind::PermissionDenied => 13,
                _ => 0,
            });
            let text = source.to_string();
            let message = text
                .strip_suffix(&format!(" (os error {errno})"))
                .unwrap_or(&text)
                .to_string();
            match path {
                Some(path) => PyOSError::new_err((errno, message, path.into_os_string())),
                None => PyOSError::new_err((errno, message)),
            }
        }
        oxport::Error::InvalidArgument(reason) => PyValueError::new_err(reason.into_owned()),
        error @ oxport::Error::Parse { .. } => ParseError::new_err(error.to_string()),
        error @ oxport::Error::Corrupt { .. } => CorruptError::new_err(error.to_string()),
        error @ oxport::Error::Unsupported(_) => UnsupportedError::new_err(error.to_string()),
        // An output past the caller's limit: the base class here; the
        // codecs' bindings raise their own (ZstdError, DeflateError).
        error @ oxport::Error::TooLarge { .. } => Error::new_err(error.to_string()),
        // Internal errors (a bug) and any kind added later: the base class.
        error => Error::new_err(error.to_string()),
    }
}

/// A library error about the argument `argument`: its reason prefixed with
/// the argument's name (`ValueError("hue: ...")`); other errors as
/// [`to_py_err`] maps them.
pub(crate) fn invalid_argument(argument: &str, error: oxport::Error) -> PyErr {
    match error {
        oxport::Error::InvalidArgument(reason) => invalid(argument, reason),
        other => to_py_err(other),
    }
}

/// `ValueError("{argument}: {what}")`.
pub(crate) fn invalid(argument: &str, what: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(format!("{argument}: {what}"))
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("Error", py.get_type::<Error>())?;
    m.add("ParseError", py.get_type::<ParseError>())?;
    m.add("CorruptError", py.get_type::<CorruptError>())?;
    m.add("UnsupportedError", py.get_type::<UnsupportedError>())?;
    Ok(())
}
