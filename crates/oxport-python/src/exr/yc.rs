//! Luminance/chroma halves to RGB and back, as OpenEXR's RGBA interface
//! converts them.

use numpy::PyArray1;
use oxport::exr;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::bytes::Buffer;
use crate::errors::to_py_err;

/// Half samples from a bytes-like object of little-endian halves.
fn halves(value: &Bound<'_, PyAny>) -> PyResult<Vec<u16>> {
    let bytes = Buffer::read(value)?;
    Ok(bytes
        .as_slice()
        .chunks_exact(2)
        .map(|b| u16::from_le_bytes([b[0], b[1]]))
        .collect())
}

/// RGB halves from luminance/chroma halves as OpenEXR's RgbaInputFile
/// makes them: `y` (`width × height`), `ry` and `by` (`width/2 ×
/// height/2`, or both `None` for luminance alone), the luminance weights
/// from `chromaticities` (`None`: Rec. 709). Returns R, G, B as uint16
/// arrays of half bits.
#[pyfunction]
#[pyo3(signature = (width, height, y, ry = None, by = None, chromaticities = None))]
#[allow(clippy::type_complexity)]
pub fn exr_rgb_from_yc<'py>(
    py: Python<'py>,
    width: usize,
    height: usize,
    y: &Bound<'py, PyAny>,
    ry: Option<&Bound<'py, PyAny>>,
    by: Option<&Bound<'py, PyAny>>,
    chromaticities: Option<[f32; 8]>,
) -> PyResult<(
    Bound<'py, PyArray1<u16>>,
    Bound<'py, PyArray1<u16>>,
    Bound<'py, PyArray1<u16>>,
)> {
    let y = halves(y)?;
    let chroma = match (ry, by) {
        (Some(ry), Some(by)) => Some((halves(ry)?, halves(by)?)),
        (None, None) => None,
        _ => return Err(PyValueError::new_err("ry and by: both or neither")),
    };
    let weights = exr::luminance_weights(chromaticities).map_err(to_py_err)?;
    let [r, g, b] = py
        .detach(|| {
            exr::rgb_from_yc(
                width,
                height,
                &y,
                chroma.as_ref().map(|(r, b)| (r.as_slice(), b.as_slice())),
                weights,
            )
        })
        .map_err(to_py_err)?;
    Ok((
        PyArray1::from_vec(py, r),
        PyArray1::from_vec(py, g),
        PyArray1::from_vec(py, b),
    ))
}

/// Luminance/chroma halves from RGB halves as OpenEXR's RgbaOutputFile
/// writes them: `r`, `g`, `b` (`width × height` each), the luminance
/// weights from `chromaticities` (`None`: Rec. 709). Returns Y and, with
/// `chroma`, RY and BY (`width/2 × height/2`) as uint16 arrays of half
/// bits.
#[pyfunction]
#[pyo3(signature = (width, height, r, g, b, chromaticities = None, chroma = true))]
#[allow(clippy::type_complexity, clippy::too_many_arguments)]
pub fn exr_yc_from_rgb<'py>(
    py: Python<'py>,
    width: usize,
    height: usize,
    r: &Bound<'py, PyAny>,
    g: &Bound<'py, PyAny>,
    b: &Bound<'py, PyAny>,
    chromaticities: Option<[f32; 8]>,
    chroma: bool,
) -> PyResult<(
    Bound<'py, PyArray1<u16>>,
    Option<(Bound<'py, PyArray1<u16>>, Bound<'py, PyArray1<u16>>)>,
)> {
    let (r, g, b) = (halves(r)?, halves(g)?, halves(b)?);
    let weights = exr::luminance_weights(chromaticities).map_err(to_py_err)?;
    let (y, c) = py
        .detach(|| exr::yc_from_rgb(width, height, [&r, &g, &b], weights, chroma))
        .map_err(to_py_err)?;
    Ok((
        PyArray1::from_vec(py, y),
        c.map(|(ry, by)| (PyArray1::from_vec(py, ry), PyArray1::from_vec(py, by))),
    ))
}
