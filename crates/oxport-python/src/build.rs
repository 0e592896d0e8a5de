//! `oxport.build_info()`: what this build of the extension has.

use pyo3::prelude::*;
use pyo3::types::PyDict;

/// The version, the optional engines compiled in and libzstd's version
/// (`oxport::build`).
#[pyclass(module = "oxport._native", frozen)]
pub struct BuildInfo;

#[pymethods]
impl BuildInfo {
    /// oxport's version.
    #[getter]
    fn version(&self) -> &'static str {
        env!("CARGO_PKG_VERSION")
    }

    /// The version of libzstd linked.
    #[getter]
    fn zstd_version(&self) -> &'static str {
        oxport::build::zstd_version()
    }

    /// Each optional engine (`isal`, `direct`) and whether it is
    /// compiled in.
    #[getter]
    fn engines<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let engines = PyDict::new(py);
        for engine in oxport::build::ENGINES {
            engines.set_item(engine.name, engine.enabled)?;
        }
        Ok(engines)
    }

    /// What each engine changes, one line each, as `oxport --version` says it.
    fn __str__(&self) -> String {
        format!(
            "oxport {}\n{}",
            env!("CARGO_PKG_VERSION"),
            oxport::build::summary(&oxport::build::ENGINES)
        )
    }

    fn __repr__(&self) -> String {
        let engines: Vec<String> = oxport::build::ENGINES
            .iter()
            .map(|e| format!("{}={}", e.name, if e.enabled { "True" } else { "False" }))
            .collect();
        format!(
            "BuildInfo(version={:?}, zstd_version={:?}, {})",
            env!("CARGO_PKG_VERSION"),
            oxport::build::zstd_version(),
            engines.join(", ")
        )
    }
}

/// What this build has: the optional engines compiled in (`isal`,
/// `direct`) and libzstd's version.
#[pyfunction]
pub(crate) fn build_info() -> BuildInfo {
    BuildInfo
}
