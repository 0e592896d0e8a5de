//! Header attributes between the library's values and Python's: each
//! attribute as `(name, type name, value)` with plain Python values (the
//! facade gives them numpy and `Fraction` shapes).

use oxport::exr::{AttributeValue, Channel, Compression, Header, LineOrder, PixelType};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList, PyTuple};

use crate::bytes::Buffer;
use crate::errors::to_py_err;

pub(super) fn pixel_type_name(t: PixelType) -> &'static str {
    match t {
        PixelType::Uint => "uint",
        PixelType::Half => "half",
        PixelType::Float => "float",
    }
}

pub(super) fn pixel_type(name: &str) -> PyResult<PixelType> {
    match name {
        "uint" => Ok(PixelType::Uint),
        "half" => Ok(PixelType::Half),
        "float" => Ok(PixelType::Float),
        other => Err(PyValueError::new_err(format!(
            "pixel type {other:?}: 'half', 'float' or 'uint'"
        ))),
    }
}

const LINE_ORDERS: [(LineOrder, &str); 3] = [
    (LineOrder::IncreasingY, "increasing_y"),
    (LineOrder::DecreasingY, "decreasing_y"),
    (LineOrder::RandomY, "random_y"),
];

/// Bytes as `str` when they are UTF-8 (names, most strings), else `bytes`.
fn text<'py>(py: Python<'py>, bytes: &[u8]) -> PyResult<Bound<'py, PyAny>> {
    Ok(match std::str::from_utf8(bytes) {
        Ok(s) => s.into_pyobject(py)?.into_any(),
        Err(_) => PyBytes::new(py, bytes).into_any(),
    })
}

fn value_to_py<'py>(py: Python<'py>, value: &AttributeValue) -> PyResult<Bound<'py, PyAny>> {
    fn tuple<'py, T: IntoPyObject<'py> + Copy>(
        py: Python<'py>,
        v: &[T],
    ) -> PyResult<Bound<'py, PyAny>> {
        Ok(PyTuple::new(py, v.iter().copied())?.into_any())
    }
    Ok(match value {
        AttributeValue::Box2i(b) => ((b[0], b[1]), (b[2], b[3])).into_pyobject(py)?.into_any(),
        AttributeValue::Box2f(b) => ((b[0], b[1]), (b[2], b[3])).into_pyobject(py)?.into_any(),
        AttributeValue::Channels(channels) => {
            let items = channels
                .iter()
                .map(|c| {
                    (
                        c.name.as_str(),
                        pixel_type_name(c.pixel_type),
                        c.linear,
                        c.x_sampling,
                        c.y_sampling,
                    )
                })
                .collect::<Vec<_>>();
            PyList::new(py, items)?.into_any()
        }
        AttributeValue::Chromaticities(v) => tuple(py, v)?,
        AttributeValue::Compression(c) => c.name().into_pyobject(py)?.into_any(),
        AttributeValue::Double(v) => v.into_pyobject(py)?.into_any(),
        AttributeValue::EnvMap(v) => v.into_pyobject(py)?.into_any(),
        AttributeValue::Float(v) => v.into_pyobject(py)?.into_any(),
        AttributeValue::FloatVector(v) => PyList::new(py, v)?.into_any(),
        AttributeValue::Int(v) => v.into_pyobject(py)?.into_any(),
        AttributeValue::KeyCode(v) => tuple(py, v)?,
        AttributeValue::LineOrder(order) => LINE_ORDERS
            .iter()
            .find(|(o, _)| o == order)
            .map(|(_, name)| *name)
            .expect("every order is named")
            .into_pyobject(py)?
            .into_any(),
        AttributeValue::M33f(v) => tuple(py, v)?,
        AttributeValue::M33d(v) => tuple(py, v)?,
        AttributeValue::M44f(v) => tuple(py, v)?,
        AttributeValue::M44d(v) => tuple(py, v)?,
        AttributeValue::Preview {
            width,
            height,
            rgba,
        } => (*width, *height, PyBytes::new(py, rgba))
            .into_pyobject(py)?
            .into_any(),
        AttributeValue::Rational(n, d) => (*n, *d).into_pyobject(py)?.into_any(),
        AttributeValue::String(s) => text(py, s)?,
        AttributeValue::StringVector(strings) => {
            let items = strings
                .iter()
                .map(|s| text(py, s))
                .collect::<PyResult<Vec<_>>>()?;
            PyList::new(py, items)?.into_any()
        }
        AttributeValue::TileDesc {
            x_size,
            y_size,
            mode,
        } => (*x_size, *y_size, *mode).into_pyobject(py)?.into_any(),
        AttributeValue::TimeCode(a, b) => (*a, *b).into_pyobject(py)?.into_any(),
        AttributeValue::V2i(v) => tuple(py, v)?,
        AttributeValue::V2f(v) => tuple(py, v)?,
        AttributeValue::V2d(v) => tuple(py, v)?,
        AttributeValue::V3i(v) => tuple(py, v)?,
        AttributeValue::V3f(v) => tuple(py, v)?,
        AttributeValue::V3d(v) => tuple(py, v)?,
        AttributeValue::Opaque { bytes, .. } => PyBytes::new(py, bytes).into_any(),
        _ => {
            return Err(PyTypeError::new_err(
                "an attribute type this build cannot convert",
            ));
        }
    })
}

/// `N` numbers from a sequence, the error naming the attribute.
fn numbers<'py, T: pyo3::conversion::FromPyObjectOwned<'py>, const N: usize>(
    name: &str,
    type_name: &str,
    value: &Bound<'py, PyAny>,
) -> PyResult<[T; N]> {
    let items: Vec<T> = value.extract().map_err(|_| {
        PyTypeError::new_err(format!(
            "attribute {name:?} ({type_name}): expected {N} numbers"
        ))
    })?;
    items.try_into().map_err(|_| {
        PyValueError::new_err(format!(
            "attribute {name:?} ({type_name}): expected {N} numbers"
        ))
    })
}

fn bytes_of(value: &Bound<'_, PyAny>) -> PyResult<Vec<u8>> {
    if let Ok(s) = value.extract::<String>() {
        return Ok(s.into_bytes());
    }
    Ok(Buffer::read(value)?.as_slice().to_vec())
}

pub(super) fn value_from_py(
    name: &str,
    type_name: &str,
    value: &Bound<'_, PyAny>,
) -> PyResult<AttributeValue> {
    let bad =
        |what: &str| PyValueError::new_err(format!("attribute {name:?} ({type_name}): {what}"));
    Ok(match type_name {
        "box2i" => {
            let ((a, b), (c, d)): ((i32, i32), (i32, i32)) = value
                .extract()
                .map_err(|_| bad("expected ((x min, y min), (x max, y max)) of ints"))?;
            AttributeValue::Box2i([a, b, c, d])
        }
        "box2f" => {
            let ((a, b), (c, d)): ((f32, f32), (f32, f32)) = value
                .extract()
                .map_err(|_| bad("expected ((x min, y min), (x max, y max))"))?;
            AttributeValue::Box2f([a, b, c, d])
        }
        "chlist" => {
            let items: Vec<(String, String, bool, i32, i32)> = value.extract().map_err(|_| {
                bad("expected (name, pixel type, linear, x sampling, y sampling) per channel")
            })?;
            let channels = items
                .into_iter()
                .map(|(name, t, linear, x_sampling, y_sampling)| {
                    Ok(Channel {
                        name,
                        pixel_type: pixel_type(&t)?,
                        linear,
                        x_sampling,
                        y_sampling,
                    })
                })
                .collect::<PyResult<Vec<_>>>()?;
            AttributeValue::Channels(channels)
        }
        "chromaticities" => AttributeValue::Chromaticities(numbers(name, type_name, value)?),
        "compression" => {
            let method: String = value
                .extract()
                .map_err(|_| bad("expected a method name such as 'zip'"))?;
            AttributeValue::Compression(method.parse::<Compression>().map_err(to_py_err)?)
        }
        "double" => AttributeValue::Double(value.extract().map_err(|_| bad("expected a number"))?),
        "envmap" => AttributeValue::EnvMap(value.extract().map_err(|_| bad("expected 0 or 1"))?),
        "float" => AttributeValue::Float(value.extract().map_err(|_| bad("expected a number"))?),
        "floatvector" => {
            AttributeValue::FloatVector(value.extract().map_err(|_| bad("expected numbers"))?)
        }
        "int" => AttributeValue::Int(
            value
                .extract()
                .map_err(|_| bad("expected an int of 32 bits"))?,
        ),
        "keycode" => AttributeValue::KeyCode(numbers(name, type_name, value)?),
        "lineOrder" => {
            let order: String = value
                .extract()
                .map_err(|_| bad("expected 'increasing_y', 'decreasing_y' or 'random_y'"))?;
            AttributeValue::LineOrder(
                LINE_ORDERS
                    .iter()
                    .find(|(_, n)| *n == order)
                    .map(|(o, _)| *o)
                    .ok_or_else(|| bad("expected 'increasing_y', 'decreasing_y' or 'random_y'"))?,
            )
        }
        "m33f" => AttributeValue::M33f(numbers(name, type_name, value)?),
        "m33d" => AttributeValue::M33d(numbers(name, type_name, value)?),
        "m44f" => AttributeValue::M44f(numbers(name, type_name, value)?),
        "m44d" => AttributeValue::M44d(numbers(name, type_name, value)?),
        "preview" => {
            let (width, height, rgba): (u32, u32, Bound<'_, PyAny>) = value
                .extract()
                .map_err(|_| bad("expected (width, height, RGBA bytes)"))?;
            AttributeValue::Preview {
                width,
                height,
                rgba: bytes_of(&rgba)?,
            }
        }
        "rational" => {
            let (n, d): (i32, u32) = value
                .extract()
                .map_err(|_| bad("expected (numerator, denominator)"))?;
            AttributeValue::Rational(n, d)
        }
        "string" => {
            AttributeValue::String(bytes_of(value).map_err(|_| bad("expected str or bytes"))?)
        }
        "stringvector" => {
            let items: Vec<Bound<'_, PyAny>> =
                value.extract().map_err(|_| bad("expected a list of str"))?;
            AttributeValue::StringVector(items.iter().map(bytes_of).collect::<PyResult<_>>()?)
        }
        "tiledesc" => {
            let (x_size, y_size, mode): (u32, u32, u8) = value
                .extract()
                .map_err(|_| bad("expected (x size, y size, mode)"))?;
            AttributeValue::TileDesc {
                x_size,
                y_size,
                mode,
            }
        }
        "timecode" => {
            let (a, b): (u32, u32) = value
                .extract()
                .map_err(|_| bad("expected (time and flags, user data)"))?;
            AttributeValue::TimeCode(a, b)
        }
        "v2i" => AttributeValue::V2i(numbers(name, type_name, value)?),
        "v2f" => AttributeValue::V2f(numbers(name, type_name, value)?),
        "v2d" => AttributeValue::V2d(numbers(name, type_name, value)?),
        "v3i" => AttributeValue::V3i(numbers(name, type_name, value)?),
        "v3f" => AttributeValue::V3f(numbers(name, type_name, value)?),
        "v3d" => AttributeValue::V3d(numbers(name, type_name, value)?),
        other => AttributeValue::Opaque {
            type_name: other.to_owned(),
            bytes: bytes_of(value).map_err(|_| bad("expected bytes"))?,
        },
    })
}

pub(super) type Attributes<'py> = Vec<(String, String, Bound<'py, PyAny>)>;

/// A header's attributes as `(name, type, value)`, in file order.
pub(super) fn attributes_of<'py>(py: Python<'py>, header: &Header) -> PyResult<Attributes<'py>> {
    header
        .attributes
        .iter()
        .map(|(name, value)| {
            Ok((
                name.clone(),
                value.type_name().to_owned(),
                value_to_py(py, value)?,
            ))
        })
        .collect()
}
