//! Header attributes between the library's values and their public Python
//! shapes, the `openexr` package's (numpy vectors and matrices, `Fraction`,
//! the facade's `Channel` and `Attribute`): converted here, once.

use oxport::exr::{AttributeValue, Channel, Compression, Header, LineOrder, PixelType};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBool, PyBytes, PyDict, PyFloat, PyInt, PyList, PyModule, PyString, PyTuple};

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

/// What the public shapes of attribute values are made of, imported once:
/// numpy, `fractions.Fraction`, and the facade's `Channel` and `Attribute`.
struct Shapes {
    numpy: Py<PyModule>,
    fraction: Py<PyAny>,
    channel: Py<PyAny>,
    attribute: Py<PyAny>,
}

fn shapes(py: Python<'_>) -> PyResult<&'static Shapes> {
    static SHAPES: PyOnceLock<Shapes> = PyOnceLock::new();
    SHAPES.get_or_try_init(py, || {
        let exr = crate::facade::import(py, "exr")?;
        Ok(Shapes {
            numpy: py.import("numpy")?.unbind(),
            fraction: py.import("fractions")?.getattr("Fraction")?.unbind(),
            channel: exr.getattr("Channel")?.unbind(),
            attribute: exr.getattr("Attribute")?.unbind(),
        })
    })
}

/// A numpy array of `values` as `dtype`, of `shape` when given.
fn array<'py, T: IntoPyObject<'py> + Copy>(
    py: Python<'py>,
    values: &[T],
    dtype: &str,
    shape: Option<(usize, usize)>,
) -> PyResult<Bound<'py, PyAny>> {
    let numpy = shapes(py)?.numpy.bind(py);
    let array = numpy.call_method1("array", (PyList::new(py, values.iter().copied())?, dtype))?;
    match shape {
        Some(shape) => array.call_method1("reshape", shape),
        None => Ok(array),
    }
}

/// An attribute's value in its public shape, the `openexr` package's (so
/// that a header read by one is written by the other): boxes as two numpy
/// vectors, vectors and matrices as numpy arrays, `double` as a 1-element
/// float64 array, `rational` as a `Fraction`, `channels` as `Channel`s,
/// `compression` and `lineOrder` by name, strings and numbers as such, and
/// the types a plain value does not imply as `Attribute(type, value)`.
pub(super) fn value_to_py<'py>(
    py: Python<'py>,
    value: &AttributeValue,
) -> PyResult<Bound<'py, PyAny>> {
    let shapes = shapes(py)?;
    let tuple = |v: &[i32]| -> PyResult<Bound<'py, PyAny>> {
        Ok(PyTuple::new(py, v.iter().copied())?.into_any())
    };
    let typed = |plain: Bound<'py, PyAny>| -> PyResult<Bound<'py, PyAny>> {
        shapes.attribute.bind(py).call1((value.type_name(), plain))
    };
    Ok(match value {
        AttributeValue::Box2i(b) => (
            array(py, &b[..2], "int32", None)?,
            array(py, &b[2..], "int32", None)?,
        )
            .into_pyobject(py)?
            .into_any(),
        AttributeValue::Box2f(b) => (
            array(py, &b[..2], "float32", None)?,
            array(py, &b[2..], "float32", None)?,
        )
            .into_pyobject(py)?
            .into_any(),
        AttributeValue::Channels(channels) => {
            let class = shapes.channel.bind(py);
            let items = channels
                .iter()
                .map(|c| {
                    class.call1((
                        c.name.as_str(),
                        pixel_type_name(c.pixel_type),
                        c.linear,
                        c.x_sampling,
                        c.y_sampling,
                    ))
                })
                .collect::<PyResult<Vec<_>>>()?;
            PyList::new(py, items)?.into_any()
        }
        AttributeValue::Chromaticities(v) => PyTuple::new(py, v.iter().copied())?.into_any(),
        AttributeValue::Compression(c) => c.name().into_pyobject(py)?.into_any(),
        AttributeValue::Double(v) => array(py, &[*v], "float64", None)?,
        AttributeValue::Float(v) => v.into_pyobject(py)?.into_any(),
        AttributeValue::FloatVector(v) => PyList::new(py, v)?.into_any(),
        AttributeValue::Int(v) => v.into_pyobject(py)?.into_any(),
        AttributeValue::LineOrder(order) => LINE_ORDERS
            .iter()
            .find(|(o, _)| o == order)
            .map(|(_, name)| *name)
            .expect("every order is named")
            .into_pyobject(py)?
            .into_any(),
        AttributeValue::M33f(v) => array(py, v, "float32", Some((3, 3)))?,
        AttributeValue::M33d(v) => array(py, v, "float64", Some((3, 3)))?,
        AttributeValue::M44f(v) => array(py, v, "float32", Some((4, 4)))?,
        AttributeValue::M44d(v) => array(py, v, "float64", Some((4, 4)))?,
        AttributeValue::Rational(n, d) if *d != 0 => shapes.fraction.bind(py).call1((*n, *d))?,
        AttributeValue::Rational(n, d) => typed((*n, *d).into_pyobject(py)?.into_any())?,
        AttributeValue::String(s) => text(py, s)?,
        AttributeValue::StringVector(strings) => {
            let items = strings
                .iter()
                .map(|s| text(py, s))
                .collect::<PyResult<Vec<_>>>()?;
            PyList::new(py, items)?.into_any()
        }
        AttributeValue::V2i(v) => array(py, v, "int32", None)?,
        AttributeValue::V3i(v) => array(py, v, "int32", None)?,
        AttributeValue::V2f(v) => array(py, v, "float32", None)?,
        AttributeValue::V3f(v) => array(py, v, "float32", None)?,
        AttributeValue::V2d(v) => array(py, v, "float64", None)?,
        AttributeValue::V3d(v) => array(py, v, "float64", None)?,
        AttributeValue::EnvMap(v) => typed(v.into_pyobject(py)?.into_any())?,
        AttributeValue::KeyCode(v) => typed(tuple(v)?)?,
        AttributeValue::Preview {
            width,
            height,
            rgba,
        } => typed(
            (*width, *height, PyBytes::new(py, rgba))
                .into_pyobject(py)?
                .into_any(),
        )?,
        AttributeValue::TileDesc {
            x_size,
            y_size,
            mode,
        } => typed((*x_size, *y_size, *mode).into_pyobject(py)?.into_any())?,
        AttributeValue::TimeCode(a, b) => typed((*a, *b).into_pyobject(py)?.into_any())?,
        AttributeValue::Opaque { bytes, .. } => typed(PyBytes::new(py, bytes).into_any())?,
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

/// A header value in its public shape as the attribute it is (what
/// [`value_to_py`] gives, the `openexr` package's values, or an
/// `Attribute(type, value)`); the error names the attribute.
pub(super) fn attribute_from_py<'py>(
    name: &str,
    value: &Bound<'py, PyAny>,
) -> PyResult<AttributeValue> {
    let py = value.py();
    let shapes = shapes(py)?;
    let numpy = shapes.numpy.bind(py);
    if value.is_instance(shapes.attribute.bind(py))? {
        let type_name: String = value.getattr("type")?.extract()?;
        return value_from_py(name, &type_name, &value.getattr("value")?);
    }
    // The openexr package's enums and TileDescription, or names.
    let enum_name = || -> PyResult<String> {
        match value.getattr("name") {
            Ok(n) if !value.is_instance_of::<PyString>() => Ok(n.str()?.to_string()),
            _ => Ok(value.str()?.to_string()),
        }
    };
    match name {
        "compression" => {
            let method = enum_name()?.to_lowercase();
            let method = method.strip_suffix("_compression").unwrap_or(&method);
            return value_from_py(name, "compression", &PyString::new(py, method));
        }
        "type" => return Ok(AttributeValue::String(enum_name()?.into_bytes())),
        "lineOrder" => {
            return value_from_py(
                name,
                "lineOrder",
                &PyString::new(py, &enum_name()?.to_lowercase()),
            );
        }
        "tiles" if value.hasattr("xSize")? => {
            let code = |v: Bound<'_, PyAny>| -> PyResult<u8> {
                match v.getattr("value") {
                    Ok(inner) => inner.extract(),
                    Err(_) => v.extract(),
                }
            };
            let mode = code(value.getattr("mode")?)?;
            let rounding = code(value.getattr("roundingMode")?)?;
            return Ok(AttributeValue::TileDesc {
                x_size: value.getattr("xSize")?.extract()?,
                y_size: value.getattr("ySize")?.extract()?,
                mode: mode | rounding << 4,
            });
        }
        _ => {}
    }
    let unknown = || {
        PyTypeError::new_err(format!(
            "header {name:?}: no OpenEXR type for {} {}; wrap it in oxport.exr.Attribute(type, value)",
            value
                .get_type()
                .name()
                .map(|n| n.to_string())
                .unwrap_or_default(),
            value.repr().map(|r| r.to_string()).unwrap_or_default(),
        ))
    };
    let integer = numpy.getattr("integer")?;
    let floating = numpy.getattr("floating")?;
    if value.is_instance_of::<PyBool>() {
        return Err(PyTypeError::new_err(format!(
            "header {name:?}: a bool has no OpenEXR type; use int or Attribute"
        )));
    }
    if value.is_instance_of::<PyInt>() || value.is_instance(&integer)? {
        return value_from_py(name, "int", value);
    }
    if value.is_instance_of::<PyFloat>() || value.is_instance(&floating)? {
        return value_from_py(name, "float", value);
    }
    if value.is_instance_of::<PyString>() {
        return value_from_py(name, "string", value);
    }
    if value.is_instance(shapes.fraction.bind(py))? {
        let pair = (value.getattr("numerator")?, value.getattr("denominator")?);
        return value_from_py(name, "rational", &pair.into_pyobject(py)?.into_any());
    }
    if let Ok(list) = value.cast::<PyList>() {
        let items: Vec<Bound<'_, PyAny>> = list.iter().collect();
        let all = |test: &dyn Fn(&Bound<'_, PyAny>) -> PyResult<bool>| -> PyResult<bool> {
            items
                .iter()
                .try_fold(true, |ok, item| Ok(ok && test(item)?))
        };
        let channel = shapes.channel.bind(py);
        if !items.is_empty() && all(&|i| i.is_instance(channel))? {
            let channels = items
                .iter()
                .map(|c| {
                    Ok(Channel {
                        name: c.getattr("name")?.extract()?,
                        pixel_type: pixel_type(&c.getattr("pixel_type")?.extract::<String>()?)?,
                        linear: c.getattr("linear")?.extract()?,
                        x_sampling: c.getattr("x_sampling")?.extract()?,
                        y_sampling: c.getattr("y_sampling")?.extract()?,
                    })
                })
                .collect::<PyResult<Vec<_>>>()?;
            return Ok(AttributeValue::Channels(channels));
        }
        if all(&|i| Ok(i.is_instance_of::<PyString>()))? {
            return value_from_py(name, "stringvector", value);
        }
        if all(&|i| {
            Ok(
                (i.is_instance_of::<PyInt>() || i.is_instance_of::<PyFloat>())
                    && !i.is_instance_of::<PyBool>(),
            )
        })? {
            return value_from_py(name, "floatvector", value);
        }
        return Err(unknown());
    }
    if let Ok(tuple) = value.cast::<PyTuple>() {
        let numbers = tuple.iter().all(|v| {
            (v.is_instance_of::<PyInt>() || v.is_instance_of::<PyFloat>())
                && !v.is_instance_of::<PyBool>()
        });
        if tuple.len() == 8 && numbers {
            return value_from_py(name, "chromaticities", value);
        }
        if tuple.len() == 2 {
            let lo = numpy.call_method1("asarray", (tuple.get_item(0)?,))?;
            let hi = numpy.call_method1("asarray", (tuple.get_item(1)?,))?;
            let shape = |a: &Bound<'_, PyAny>| a.getattr("shape")?.extract::<Vec<usize>>();
            if shape(&lo)? == [2] && shape(&hi)? == [2] {
                let kind = |a: &Bound<'_, PyAny>| -> PyResult<String> {
                    a.getattr("dtype")?.getattr("kind")?.extract()
                };
                let integral =
                    "iu".contains(kind(&lo)?.as_str()) && "iu".contains(kind(&hi)?.as_str());
                let (type_name, dtype) = if integral {
                    ("box2i", "int64")
                } else {
                    ("box2f", "float64")
                };
                let corner = |a: &Bound<'py, PyAny>| -> PyResult<Bound<'py, PyTuple>> {
                    let items: Vec<Bound<'py, PyAny>> = a
                        .call_method1("astype", (dtype,))?
                        .call_method0("tolist")?
                        .extract()?;
                    PyTuple::new(py, items)
                };
                let corners = PyTuple::new(py, [corner(&lo)?, corner(&hi)?])?;
                return value_from_py(name, type_name, corners.as_any());
            }
        }
        return Err(unknown());
    }
    if value.is_instance(&numpy.getattr("ndarray")?)? {
        let shape: Vec<usize> = value.getattr("shape")?.extract()?;
        let dtype = value.getattr("dtype")?;
        let kind: String = dtype.getattr("kind")?.extract()?;
        let double = dtype.eq(numpy.getattr("float64")?)?;
        let letter = if "iu".contains(kind.as_str()) {
            "i"
        } else if double {
            "d"
        } else {
            "f"
        };
        let flat = value.call_method0("ravel")?.call_method0("tolist")?;
        match (shape.as_slice(), letter) {
            ([1], "d") => return value_from_py(name, "double", &flat.get_item(0)?),
            ([n @ (2 | 3)], _) => return value_from_py(name, &format!("v{n}{letter}"), &flat),
            ([n @ (3 | 4), m], "f" | "d") if n == m => {
                return value_from_py(name, &format!("m{n}{n}{letter}"), &flat);
            }
            _ => {}
        }
    }
    Err(unknown())
}

/// A header's attributes in their public shapes, by name, in file order.
pub(super) fn attributes_of<'py>(py: Python<'py>, header: &Header) -> PyResult<Bound<'py, PyDict>> {
    let attributes = PyDict::new(py);
    for (name, value) in &header.attributes {
        attributes.set_item(name, value_to_py(py, value)?)?;
    }
    Ok(attributes)
}
