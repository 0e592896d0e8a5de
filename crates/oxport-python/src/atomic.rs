//! Files that appear whole or not at all: what is left to clean after a writer's process died.

use std::path::PathBuf;

use pyo3::prelude::*;

use crate::errors::to_py_err;

/// Removes the temporary files that writers of `path` left behind when their
/// process died before it could; returns how many (`oxport::atomic::remove_temporaries`).
#[pyfunction]
pub(crate) fn remove_temporaries(py: Python<'_>, path: PathBuf) -> PyResult<usize> {
    py.detach(|| oxport::atomic::remove_temporaries(&path))
        .map_err(to_py_err)
}
