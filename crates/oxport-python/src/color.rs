//! `oxport.color`: conversions between sRGB, linear sRGB, Oklab and Oklch
//! on numpy arrays of colors, in place (the facade hands over its own
//! copy), with the GIL released.

use numpy::PyReadwriteArray1;
use oxport::color::{self, Space};
use pyo3::prelude::*;

use crate::errors::{invalid, to_py_err};

fn space(name: &str, argument: &str) -> PyResult<Space> {
    name.parse::<Space>().map_err(|_| {
        invalid(
            argument,
            format!("{name:?} is not a color space: srgb, linear, oklab or oklch"),
        )
    })
}

/// Converts `colors` (a contiguous 1-D float64 or float32 array of
/// `3 × n` components, color after color) from the space `src` to `dst`
/// in place, on `threads` threads (`None`: one per core).
#[pyfunction]
#[pyo3(signature = (colors, src, dst, *, threads = None))]
pub fn color_convert(
    py: Python<'_>,
    colors: Bound<'_, PyAny>,
    src: &str,
    dst: &str,
    threads: Option<usize>,
) -> PyResult<()> {
    let (from, to) = (space(src, "src")?, space(dst, "dst")?);
    if let Ok(mut array) = colors.extract::<PyReadwriteArray1<'_, f64>>() {
        let values = array
            .as_slice_mut()
            .map_err(|_| invalid("colors", "expected a contiguous array"))?;
        let (triples, rest) = values.as_chunks_mut::<3>();
        if !rest.is_empty() {
            return Err(invalid("colors", "expected 3 components per color"));
        }
        return py
            .detach(|| color::convert(triples, from, to, threads))
            .map_err(to_py_err);
    }
    let mut array = colors
        .extract::<PyReadwriteArray1<'_, f32>>()
        .map_err(|_| invalid("colors", "expected a 1-D float32 or float64 array"))?;
    let values = array
        .as_slice_mut()
        .map_err(|_| invalid("colors", "expected a contiguous array"))?;
    let (triples, rest) = values.as_chunks_mut::<3>();
    if !rest.is_empty() {
        return Err(invalid("colors", "expected 3 components per color"));
    }
    py.detach(|| color::convert_f32(triples, from, to, threads))
        .map_err(to_py_err)
}
