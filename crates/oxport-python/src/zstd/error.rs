//! `ZstdError`, and the library's errors as `compression.zstd` raises them.

use pyo3::create_exception;
use pyo3::exceptions::PyMemoryError;
use pyo3::prelude::*;

create_exception!(
    oxport._native,
    ZstdError,
    crate::errors::Error,
    "An error from zstd: damaged or truncated data, or a failed operation."
);

/// A library error from (de)compression as Python sees it from
/// `compression.zstd`: `ZstdError`, or `MemoryError`.
pub fn zstd_error(error: oxport::Error) -> PyErr {
    match error {
        oxport::Error::Io { source, .. } if source.kind() == std::io::ErrorKind::OutOfMemory => {
            PyMemoryError::new_err(source.to_string())
        }
        oxport::Error::Corrupt { what, offset, .. } => ZstdError::new_err(match offset {
            Some(offset) if offset > 0 => format!("{what} (at byte {offset})"),
            _ => what.to_string(),
        }),
        oxport::Error::InvalidArgument(reason) => ZstdError::new_err(reason.into_owned()),
        other => ZstdError::new_err(other.to_string()),
    }
}
