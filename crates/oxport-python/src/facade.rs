//! The Python package this module belongs to, for the few facade classes the
//! binding builds its results as. It is `oxport` when installed as a wheel,
//! and another name where a copy is vendored (the Blender extension carries
//! it as `oxport_obj.oxport`), so it is read from this module's own name at
//! import, never spelt out.

use std::sync::OnceLock;

use pyo3::prelude::*;

static PACKAGE: OnceLock<String> = OnceLock::new();

/// Records the package from the native module's qualified name
/// (`oxport_obj.oxport._native` → `oxport_obj.oxport`).
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let name = m.name()?.to_string();
    let package = name
        .rsplit_once('.')
        .map_or("oxport", |(package, _)| package);
    // A second initialisation (a subinterpreter) finds the same package.
    let _ = PACKAGE.set(package.to_owned());
    Ok(())
}

/// Imports `module` of the facade package, e.g. `import(py, "exr")`.
pub(crate) fn import<'py>(py: Python<'py>, module: &str) -> PyResult<Bound<'py, PyModule>> {
    let package = PACKAGE.get().map_or("oxport", String::as_str);
    py.import(format!("{package}.{module}"))
}
