//! `oxport.color`: conversions between sRGB, linear sRGB, Oklab and Oklch
//! on numpy arrays of colors, in place (the facade hands over its own
//! copy), with the GIL released.

use std::path::PathBuf;

use numpy::{PyArray1, PyArray2, PyArrayMethods, PyReadwriteArray1};
use oxport::color::{self, Space};
use pyo3::prelude::*;

use crate::errors::{invalid, invalid_argument, to_py_err};

/// A parsed argument; a bad one's error is the library's, naming the argument.
fn parse<T: std::str::FromStr<Err = oxport::Error>>(text: &str, argument: &str) -> PyResult<T> {
    text.parse().map_err(|e| invalid_argument(argument, e))
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
    let (from, to): (Space, Space) = (parse(src, "src")?, parse(dst, "dst")?);
    if let Ok(mut array) = colors.extract::<PyReadwriteArray1<'_, f64>>() {
        let triples = triples(&mut array)?;
        return py
            .detach(|| color::convert(triples, from, to, threads))
            .map_err(to_py_err);
    }
    let mut array = colors
        .extract::<PyReadwriteArray1<'_, f32>>()
        .map_err(|_| invalid("colors", "expected a 1-D float32 or float64 array"))?;
    let triples = triples(&mut array)?;
    py.detach(|| color::convert_f32(triples, from, to, threads))
        .map_err(to_py_err)
}

/// The array's components as colors of 3.
fn triples<'a, T: numpy::Element>(
    array: &'a mut PyReadwriteArray1<'_, T>,
) -> PyResult<&'a mut [[T; 3]]> {
    let values = array
        .as_slice_mut()
        .map_err(|_| invalid("colors", "expected a contiguous array"))?;
    match values.as_chunks_mut::<3>() {
        (triples, []) => Ok(triples),
        _ => Err(invalid("colors", "expected 3 components per color")),
    }
}

/// The sRGB color and alpha of a hex color (`#rgb`, `#rgba`, `#rrggbb`,
/// `#rrggbbaa`), each in [0, 1].
#[pyfunction]
pub fn color_parse_hex(text: &str) -> PyResult<(f64, f64, f64, f64)> {
    let [r, g, b, a] = color::parse_hex(text).map_err(to_py_err)?;
    Ok((r, g, b, a))
}

/// A stop as the facade passes it: sRGB, alpha, position or `None`.
type StopTuple = (f64, f64, f64, f64, Option<f64>);

/// The gradient through `stops` at `samples` evenly spaced points: an
/// `(samples, 4)` float64 array of sRGB and alpha.
#[pyfunction]
#[pyo3(signature = (stops, samples, *, space = "oklab", hue = "shorter", fit = "map", threads = None))]
pub fn color_gradient<'py>(
    py: Python<'py>,
    stops: Vec<StopTuple>,
    samples: usize,
    space: &str,
    hue: &str,
    fit: &str,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyArray2<f64>>> {
    let options = options(&[space.to_owned()], "space", hue, fit)?
        .pop()
        .expect("one space, one row");
    if samples > MAX_SAMPLES {
        return Err(invalid("n", format!("at most {MAX_SAMPLES} samples")));
    }
    let stops = self::stops(stops);
    let rows = py
        .detach(|| color::gradient(&stops, samples, &options, threads))
        .map_err(to_py_err)?;
    let flat: Vec<f64> = rows.into_iter().flatten().collect();
    PyArray1::from_vec(py, flat).reshape([samples, 4])
}

/// Samples one call may ask for (32 bytes each).
const MAX_SAMPLES: usize = 1 << 26;

fn options(
    spaces: &[String],
    argument: &str,
    hue: &str,
    fit: &str,
) -> PyResult<Vec<color::GradientOptions>> {
    let (hue, fit) = (parse(hue, "hue")?, parse(fit, "fit")?);
    spaces
        .iter()
        .map(|s| {
            Ok(color::GradientOptions {
                space: parse(s, argument)?,
                hue,
                fit,
            })
        })
        .collect()
}

fn stops(tuples: Vec<StopTuple>) -> Vec<color::Stop> {
    tuples
        .into_iter()
        .map(|(r, g, b, a, position)| color::Stop {
            color: [r, g, b, a],
            position,
        })
        .collect()
}

/// Draws gradient strips into the PNG at `path` (written whole or not at
/// all): each of `gradients` (title, stops), then each preset named in
/// `presets` (or `"all"`), with one row per space of `spaces`.
#[pyfunction]
#[pyo3(signature = (path, gradients, presets, spaces, *, hue = "shorter", fit = "map", width = 1024))]
#[allow(clippy::too_many_arguments)]
pub fn color_render_gradients(
    py: Python<'_>,
    path: PathBuf,
    gradients: Vec<(String, Vec<StopTuple>)>,
    presets: Vec<String>,
    spaces: Vec<String>,
    hue: &str,
    fit: &str,
    width: usize,
) -> PyResult<()> {
    let rows = options(&spaces, "spaces", hue, fit)?;
    let mut panels: Vec<color::Panel> = gradients
        .into_iter()
        .map(|(title, tuples)| color::Panel {
            title,
            stops: stops(tuples),
            rows: rows.clone(),
        })
        .collect();
    for name in &presets {
        panels.extend(color::Panel::presets(name, &rows).map_err(to_py_err)?);
    }
    py.detach(|| color::write_gradients(&path, &panels, width))
        .map_err(to_py_err)
}

/// The names of the preset gradients.
#[pyfunction]
pub fn color_preset_names() -> Vec<&'static str> {
    color::PRESETS.iter().map(|(name, _)| *name).collect()
}
