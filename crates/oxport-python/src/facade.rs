//! The Python package this module belongs to, for the few facade classes the
//! binding builds its results as. It is `oxport` when installed as a wheel,
//! and another name where a copy is vendored (the Blender extension carries
//! it as `oxport_obj.oxport`), so it is read from this module's own name at
//! import, never spelt out.

use std::sync::OnceLock;

use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyDict;

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

/// The facade's class `name` of `module`, looked up once.
fn class<'py>(py: Python<'py>, module: &str, name: &str) -> PyResult<Bound<'py, PyAny>> {
    static CLASSES: PyOnceLock<Py<PyDict>> = PyOnceLock::new();
    let classes = CLASSES
        .get_or_init(py, || PyDict::new(py).unbind())
        .bind(py);
    let key = (module, name);
    if let Some(class) = classes.get_item(key)? {
        return Ok(class);
    }
    let class = import(py, module)?.getattr(name)?;
    classes.set_item(key, &class)?;
    Ok(class)
}

/// An instance of the facade's class `name` of `module` (`"_obj"`,
/// `"Material"`), built by keyword: results cross as the facade's own
/// types, never as tuples it unpacks by position.
pub(crate) fn build(
    py: Python<'_>,
    module: &str,
    name: &str,
    kwargs: &Bound<'_, PyDict>,
) -> PyResult<Py<PyAny>> {
    Ok(class(py, module, name)?.call((), Some(kwargs))?.unbind())
}
