//! Files that appear whole or not at all: what is left to clean after a
//! writer's process died, and where the outputs of a batch go.

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

/// Where each of a batch's `inputs` is written in `output_dir`
/// (`oxport::batch::targets`): `NAME` + `suffix`, and with `mtl` the MTL
/// file beside it; two inputs that would write one file are a `ValueError`.
/// Strings, not paths: a URL's `//` must survive (`pathlib` folds it).
#[pyfunction]
#[pyo3(signature = (inputs, output_dir, *, suffix = "", mtl = false))]
pub(crate) fn batch_targets(
    inputs: Vec<PathBuf>,
    output_dir: PathBuf,
    suffix: &str,
    mtl: bool,
) -> PyResult<Vec<String>> {
    let targets = oxport::batch::targets(&inputs, &output_dir, suffix, mtl).map_err(to_py_err)?;
    Ok(targets
        .into_iter()
        .map(|t| t.to_string_lossy().into_owned())
        .collect())
}
