//! `oxport._native.cli`: the command line tool, for the package's `oxport`
//! command (`oxport._cli.main`) and `python -m oxport`.

use std::ffi::OsString;

use pyo3::prelude::*;

/// Runs the command line tool on `args` (as `sys.argv`: the first, the
/// program's name, is ignored), printing to this process's stdout and
/// stderr as the `oxport` binary does; returns its exit status.
#[pyfunction]
pub(crate) fn cli(py: Python<'_>, args: Vec<OsString>) -> u8 {
    py.detach(|| oxport_cli::run(args))
}
