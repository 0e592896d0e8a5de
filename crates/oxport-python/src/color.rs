//! `oxport.color`: conversions between sRGB, linear sRGB, Oklab and Oklch
//! on numpy arrays of pixels (uint8, float16, float32 or float64 samples,
//! 3 or 4 channels) from one array into another or in place, with the GIL
//! released; gradients and their pictures.

use std::path::PathBuf;

use half::f16;
use half::slice::HalfFloatSliceExt;
use numpy::{
    PyArray1, PyArray2, PyArrayMethods, PyReadonlyArrayDyn, PyReadwriteArrayDyn, PyUntypedArray,
    PyUntypedArrayMethods,
};
use oxport::color::{self, Samples, SamplesMut, Space};
use pyo3::prelude::*;

use crate::errors::{invalid, invalid_argument, to_py_err};

/// A parsed argument; a bad one's error is the library's, naming the argument.
fn parse<T: std::str::FromStr<Err = oxport::Error>>(text: &str, argument: &str) -> PyResult<T> {
    text.parse().map_err(|e| invalid_argument(argument, e))
}

/// The samples of an array, borrowed from Python for reading.
enum Readonly<'py> {
    U8(PyReadonlyArrayDyn<'py, u8>),
    F16(PyReadonlyArrayDyn<'py, f16>),
    F32(PyReadonlyArrayDyn<'py, f32>),
    F64(PyReadonlyArrayDyn<'py, f64>),
}

/// The samples of an array, borrowed from Python for writing.
enum Readwrite<'py> {
    U8(PyReadwriteArrayDyn<'py, u8>),
    F16(PyReadwriteArrayDyn<'py, f16>),
    F32(PyReadwriteArrayDyn<'py, f32>),
    F64(PyReadwriteArrayDyn<'py, f64>),
}

const DTYPES: &str = "uint8, float16, float32 or float64";

/// The error for `array` (the argument `argument`) that is not a numpy
/// array of one of [`DTYPES`]: its dtype, or else its type, named.
fn not_samples(array: &Bound<'_, PyAny>, argument: &str) -> PyErr {
    let what = array.getattr("dtype").map_or_else(
        |_| {
            array
                .get_type()
                .name()
                .map_or_else(|_| "?".into(), |n| n.to_string())
        },
        |d| d.to_string(),
    );
    invalid(
        argument,
        format!("expected a numpy array of {DTYPES}, got {what}"),
    )
}

impl<'py> Readonly<'py> {
    fn borrow(array: &Bound<'py, PyAny>, argument: &str) -> PyResult<Self> {
        if let Ok(a) = array.extract() {
            return Ok(Self::F64(a));
        }
        if let Ok(a) = array.extract() {
            return Ok(Self::F32(a));
        }
        if let Ok(a) = array.extract() {
            return Ok(Self::F16(a));
        }
        if let Ok(a) = array.extract() {
            return Ok(Self::U8(a));
        }
        Err(not_samples(array, argument))
    }

    fn samples(&self, argument: &str) -> PyResult<Samples<'_>> {
        let contiguous = |_| invalid(argument, "expected a C-contiguous array");
        Ok(match self {
            Self::U8(a) => Samples::U8(a.as_slice().map_err(contiguous)?),
            Self::F16(a) => Samples::F16(a.as_slice().map_err(contiguous)?.reinterpret_cast()),
            Self::F32(a) => Samples::F32(a.as_slice().map_err(contiguous)?),
            Self::F64(a) => Samples::F64(a.as_slice().map_err(contiguous)?),
        })
    }
}

impl<'py> Readwrite<'py> {
    fn borrow(array: &Bound<'py, PyAny>, argument: &str) -> PyResult<Self> {
        let typed = |array: &Bound<'py, PyAny>| -> Option<PyResult<Self>> {
            use numpy::PyArrayDyn as A;
            let writable = |e: numpy::BorrowError| {
                invalid(
                    argument,
                    format!(
                        "cannot be written ({e}): it is read-only, or it overlaps the input (to convert in place, pass one array as both)"
                    ),
                )
            };
            if let Ok(a) = array.cast::<A<f64>>() {
                return Some(a.try_readwrite().map(Self::F64).map_err(writable));
            }
            if let Ok(a) = array.cast::<A<f32>>() {
                return Some(a.try_readwrite().map(Self::F32).map_err(writable));
            }
            if let Ok(a) = array.cast::<A<f16>>() {
                return Some(a.try_readwrite().map(Self::F16).map_err(writable));
            }
            if let Ok(a) = array.cast::<A<u8>>() {
                return Some(a.try_readwrite().map(Self::U8).map_err(writable));
            }
            None
        };
        typed(array).unwrap_or_else(|| Err(not_samples(array, argument)))
    }

    fn samples(&mut self, argument: &str) -> PyResult<SamplesMut<'_>> {
        let contiguous = |_| invalid(argument, "expected a C-contiguous array");
        Ok(match self {
            Self::U8(a) => SamplesMut::U8(a.as_slice_mut().map_err(contiguous)?),
            Self::F16(a) => {
                SamplesMut::F16(a.as_slice_mut().map_err(contiguous)?.reinterpret_cast_mut())
            }
            Self::F32(a) => SamplesMut::F32(a.as_slice_mut().map_err(contiguous)?),
            Self::F64(a) => SamplesMut::F64(a.as_slice_mut().map_err(contiguous)?),
        })
    }
}

/// Converts the pixels of `colors` (a C-contiguous numpy array of uint8,
/// float16, float32 or float64 samples whose last axis holds a pixel's 3
/// channels, or 4 with alpha last) from the space `src` to `dst` into
/// `out` (an array of the same shape, of any of those dtypes; `colors`
/// itself to convert in place), on `threads` threads (`None`: one per
/// core).
#[pyfunction]
#[pyo3(signature = (colors, out, src, dst, *, threads = None))]
pub fn color_convert(
    py: Python<'_>,
    colors: Bound<'_, PyAny>,
    out: Bound<'_, PyAny>,
    src: &str,
    dst: &str,
    threads: Option<usize>,
) -> PyResult<()> {
    let (from, to): (Space, Space) = (parse(src, "src")?, parse(dst, "dst")?);
    let shape = |array: &Bound<'_, PyAny>, argument: &str| -> PyResult<Vec<usize>> {
        array
            .cast::<PyUntypedArray>()
            .map(|a| a.shape().to_vec())
            .map_err(|_| not_samples(array, argument))
    };
    let (shape, out_shape) = (shape(&colors, "colors")?, shape(&out, "out")?);
    if shape != out_shape {
        return Err(invalid(
            "out",
            format!("has shape {out_shape:?}, colors {shape:?}"),
        ));
    }
    let channels = *shape
        .last()
        .ok_or_else(|| invalid("colors", "expected an array of shape (..., 3) or (..., 4)"))?;
    if colors.is(&out) {
        let mut samples = Readwrite::borrow(&out, "colors")?;
        let samples = samples.samples("colors")?;
        return py
            .detach(|| color::convert_pixels_in_place(samples, channels, from, to, threads))
            .map_err(to_py_err);
    }
    let input = Readonly::borrow(&colors, "colors")?;
    let mut output = Readwrite::borrow(&out, "out")?;
    let (input, output) = (input.samples("colors")?, output.samples("out")?);
    py.detach(|| color::convert_pixels(input, output, channels, from, to, threads))
        .map_err(to_py_err)
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
