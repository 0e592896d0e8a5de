//! `oxport.exr`: OpenEXR images. Attributes cross as
//! `(name, type name, value)` with plain Python values (the facade gives
//! them numpy and `Fraction` shapes); pixels come out decoded straight into
//! one `uint8` numpy array per channel and go in as buffers read in place.

use std::path::PathBuf;

use numpy::PyArray1;
use oxport::exr::{self, AttributeValue, Channel, Compression, Header, LineOrder, PixelType};
use oxport::source::Source;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList, PyTuple};

use crate::bytes::Buffer;
use crate::errors::to_py_err;
use crate::source::open_reader;

fn pixel_type_name(t: PixelType) -> &'static str {
    match t {
        PixelType::Uint => "uint",
        PixelType::Half => "half",
        PixelType::Float => "float",
    }
}

fn pixel_type(name: &str) -> PyResult<PixelType> {
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

fn value_from_py(
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

type Attributes<'py> = Vec<(String, String, Bound<'py, PyAny>)>;

/// A header's attributes as `(name, type, value)`, in file order.
fn attributes_of<'py>(py: Python<'py>, header: &Header) -> PyResult<Attributes<'py>> {
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

/// A part as the facade describes it: its attributes, its `type`, its
/// levels as `(x, y, width, height)`.
type PartInfo<'py> = (
    Attributes<'py>,
    &'static str,
    Vec<(usize, usize, usize, usize)>,
);

/// Planes as `(channel name, pixel type, width, height, uint8 array)`.
type Planes<'py> = Vec<(String, &'static str, usize, usize, Bound<'py, PyArray1<u8>>)>;

/// What `read` and `read_deep` are asked for, as the library's selection.
fn selection(
    part: usize,
    level: (usize, usize),
    channels: Option<Vec<usize>>,
    window: Option<(i32, i32, i32, i32)>,
) -> exr::Selection {
    exr::Selection {
        part,
        level,
        channels,
        window: window.map(|(x_min, y_min, x_max, y_max)| exr::Window {
            x_min,
            y_min,
            x_max,
            y_max,
        }),
    }
}

/// An OpenEXR file whose headers and offset tables are read: its parts are
/// read on demand, each read fetching only the chunks it needs.
#[pyclass(module = "oxport._native", frozen)]
pub struct ExrReader {
    reader: exr::Reader<Box<dyn Source>>,
}

#[pymethods]
impl ExrReader {
    /// Opens `file`: a path, a URL, or a readable, seekable binary file
    /// object.
    #[new]
    fn new(py: Python<'_>, file: &Bound<'_, PyAny>) -> PyResult<Self> {
        let reader = open_reader(py, file, exr::Reader::open, exr::Reader::new)?;
        Ok(ExrReader { reader })
    }

    /// Whether chunks name their part (a multi-part file).
    #[getter]
    fn multipart(&self) -> bool {
        self.reader.is_multipart()
    }

    /// Every part, in file order.
    fn parts<'py>(&self, py: Python<'py>) -> PyResult<Vec<PartInfo<'py>>> {
        self.reader
            .parts()
            .iter()
            .map(|part| {
                let levels = part
                    .levels()
                    .iter()
                    .map(|l| (l.x, l.y, l.width, l.height))
                    .collect();
                Ok((
                    attributes_of(py, part.header())?,
                    part.storage().type_name(),
                    levels,
                ))
            })
            .collect()
    }

    /// Reads `channels` (indices into the part's channels; `None`: all) of
    /// `window` (`(x min, y min, x max, y max)` inclusive, in the level's
    /// coordinates; `None`: all of it) of level `level` of part `part`.
    /// The arrays are numpy's own, decoded into without being zeroed first.
    #[pyo3(signature = (part, level, channels = None, window = None, *, threads = None))]
    fn read<'py>(
        &self,
        py: Python<'py>,
        part: usize,
        level: (usize, usize),
        channels: Option<Vec<usize>>,
        window: Option<(i32, i32, i32, i32)>,
        threads: Option<usize>,
    ) -> PyResult<Planes<'py>> {
        let selection = selection(part, level, channels, window);
        let shapes = self.reader.shapes(&selection).map_err(to_py_err)?;
        let all = self.reader.parts()[part]
            .header()
            .channels()
            .map_err(to_py_err)?;
        // SAFETY: uninitialised memory that nothing reads before the read
        // has written every byte of it; on an error the arrays are dropped unseen.
        let arrays: Vec<Bound<'py, PyArray1<u8>>> = shapes
            .iter()
            .map(|s| unsafe { PyArray1::<u8>::new(py, s.bytes(), false) })
            .collect();
        let mut buffers = arrays
            .iter()
            .map(|a| Buffer::write(a.as_any()))
            .collect::<PyResult<Vec<_>>>()?;
        py.detach(|| {
            let mut slices: Vec<&mut [u8]> = buffers.iter_mut().map(Buffer::as_mut_slice).collect();
            self.reader
                .read_selection_into(&selection, &mut slices, &exr::ReadOptions { threads })
        })
        .map_err(to_py_err)?;
        drop(buffers);
        Ok(shapes
            .iter()
            .zip(arrays)
            .map(|(s, array)| {
                let channel = &all[s.channel];
                (
                    channel.name.clone(),
                    pixel_type_name(channel.pixel_type),
                    s.width,
                    s.height,
                    array,
                )
            })
            .collect())
    }

    /// Reads the samples of a deep part: like `read`, with the counts per
    /// pixel and each channel's samples, pixel after pixel.
    #[pyo3(signature = (part, level, channels = None, window = None, *, threads = None))]
    fn read_deep<'py>(
        &self,
        py: Python<'py>,
        part: usize,
        level: (usize, usize),
        channels: Option<Vec<usize>>,
        window: Option<(i32, i32, i32, i32)>,
        threads: Option<usize>,
    ) -> PyResult<DeepRead<'py>> {
        let selection = selection(part, level, channels, window);
        let image = py
            .detach(|| {
                self.reader
                    .read_deep(&selection, &exr::ReadOptions { threads })
            })
            .map_err(to_py_err)?;
        let all = self.reader.parts()[part]
            .header()
            .channels()
            .map_err(to_py_err)?;
        let counts: Vec<u8> = image.counts.iter().flat_map(|n| n.to_le_bytes()).collect();
        let channels = image
            .channel_indices
            .iter()
            .zip(image.channels)
            .map(|(&c, samples)| {
                (
                    all[c].name.clone(),
                    pixel_type_name(all[c].pixel_type),
                    PyArray1::from_vec(py, samples),
                )
            })
            .collect();
        Ok((
            image.width,
            image.height,
            PyArray1::from_vec(py, counts),
            channels,
        ))
    }
}

/// A deep read as `(width, height, counts, [(name, pixel type, samples)])`:
/// uint8 arrays the facade views as uint32 counts and typed samples.
type DeepRead<'py> = (
    usize,
    usize,
    Bound<'py, PyArray1<u8>>,
    Vec<(String, &'static str, Bound<'py, PyArray1<u8>>)>,
);

/// One part to write: its size, its channels' `(name, pixel type)`, its
/// compression (`None`: the default), its tiles `(width, height, levels,
/// rounding)` (`None`: scan lines), whether it is deep, the attributes the
/// caller gives as `(name, type, value)`, its planes by level (one
/// bytes-like object per channel, in the order of the channels; a deep part
/// has one "level": each channel's samples), and a deep part's sample
/// counts (`None` for a flat part). The header is the library's
/// (`exr::NewPart::header`).
#[derive(FromPyObject)]
pub struct PartInput<'py>(
    u32,
    u32,
    Vec<(String, String)>,
    Option<String>,
    Option<(u32, u32, String, String)>,
    bool,
    Vec<(String, String, Bound<'py, PyAny>)>,
    Vec<Vec<Bound<'py, PyAny>>>,
    Option<Bound<'py, PyAny>>,
);

impl PartInput<'_> {
    /// The part as the library describes it, and its planes by level in the
    /// order of its channels sorted by name (the header's order).
    #[allow(clippy::type_complexity)]
    fn new_part(&self) -> PyResult<(exr::NewPart, Vec<Vec<Buffer>>)> {
        let PartInput(width, height, channels, compression, tiles, deep, attributes, levels, _) =
            self;
        let tiles = tiles
            .as_ref()
            .map(|(w, h, mode, rounding)| exr::Tiles::new(*w, *h, mode.parse()?, rounding.parse()?))
            .transpose()
            .map_err(to_py_err)?;
        let attributes = attributes
            .iter()
            .map(|(name, type_name, value)| {
                Ok((name.clone(), value_from_py(name, type_name, value)?))
            })
            .collect::<PyResult<Vec<_>>>()?;
        let mut order: Vec<usize> = (0..channels.len()).collect();
        order.sort_by(|&a, &b| channels[a].0.as_bytes().cmp(channels[b].0.as_bytes()));
        let part = exr::NewPart {
            width: *width,
            height: *height,
            channels: order
                .iter()
                .map(|&i| Ok((channels[i].0.clone(), pixel_type(&channels[i].1)?)))
                .collect::<PyResult<_>>()?,
            compression: compression
                .as_deref()
                .map(str::parse::<Compression>)
                .transpose()
                .map_err(to_py_err)?,
            tiles,
            deep: *deep,
            attributes,
        };
        let planes = levels
            .iter()
            .map(|planes| {
                if planes.len() != channels.len() {
                    return Err(PyValueError::new_err(format!(
                        "{} planes for {} channels",
                        planes.len(),
                        channels.len()
                    )));
                }
                order.iter().map(|&i| Buffer::read(&planes[i])).collect()
            })
            .collect::<PyResult<Vec<_>>>()?;
        Ok((part, planes))
    }
}

/// Writes an OpenEXR file of `parts` (one part: a single-part file).
#[pyfunction]
#[pyo3(signature = (path, parts, *, level = None, threads = None))]
pub fn exr_write(
    py: Python<'_>,
    path: PathBuf,
    parts: Vec<PartInput<'_>>,
    level: Option<i32>,
    threads: Option<usize>,
) -> PyResult<()> {
    let mut described = Vec::with_capacity(parts.len());
    let mut buffers = Vec::with_capacity(parts.len());
    for input in &parts {
        let (part, levels) = input.new_part()?;
        described.push(part);
        let counts = input.8.as_ref().map(Buffer::read).transpose()?;
        buffers.push((levels, counts));
    }
    let display = exr::shared_display_window(&described);
    let headers = described
        .iter()
        .map(|part| part.header(Some(&display)))
        .collect::<oxport::Result<Vec<_>>>()
        .map_err(to_py_err)?;
    let count_arrays: Vec<Option<Vec<u32>>> = buffers
        .iter()
        .map(|(_, counts)| {
            counts.as_ref().map(|bytes| {
                bytes
                    .as_slice()
                    .chunks_exact(4)
                    .map(|b| u32::from_le_bytes(b.try_into().expect("4")))
                    .collect()
            })
        })
        .collect();
    let mut inputs = Vec::with_capacity(parts.len());
    for ((header, (levels, _)), counts) in headers.iter().zip(&buffers).zip(&count_arrays) {
        let mut slices: Vec<Vec<&[u8]>> = levels
            .iter()
            .map(|planes| planes.iter().map(Buffer::as_slice).collect())
            .collect();
        let pixels = match counts {
            Some(counts) => {
                if slices.len() != 1 {
                    return Err(pyo3::exceptions::PyValueError::new_err(
                        "a deep part takes one list of sample arrays",
                    ));
                }
                exr::Pixels::Deep {
                    counts,
                    channels: slices.pop().expect("one"),
                }
            }
            None => exr::Pixels::Flat(slices),
        };
        inputs.push(exr::WritePart { header, pixels });
    }
    let options = exr::WriteOptions { level, threads };
    py.detach(|| exr::write_parts(&path, &inputs, &options))
        .map(drop)
        .map_err(to_py_err)
}

/// Rewrites the OpenEXR file `src` as `dst` with another compression (the
/// pixels and other attributes unchanged, every part and level kept),
/// stored as scan lines (`scanlines`) or in `tiles` if asked;
/// `(input bytes, output bytes)`.
#[pyfunction]
#[pyo3(signature = (src, dst, *, compression = "zstd", level = None, threads = None,
                    scanlines = false, tiles = None, levels = "one", rounding = "down"))]
#[allow(clippy::too_many_arguments)]
pub fn exr_convert(
    py: Python<'_>,
    src: PathBuf,
    dst: PathBuf,
    compression: &str,
    level: Option<i32>,
    threads: Option<usize>,
    scanlines: bool,
    tiles: Option<(u32, u32)>,
    levels: &str,
    rounding: &str,
) -> PyResult<(u64, u64)> {
    let storing = match (scanlines, tiles) {
        (true, Some(_)) => {
            return Err(pyo3::exceptions::PyValueError::new_err(
                "scanlines and tiles: one or the other",
            ));
        }
        (true, None) => exr::Storing::ScanLines,
        (false, Some((width, height))) => exr::Storing::Tiles(
            exr::Tiles::new(
                width,
                height,
                levels.parse().map_err(to_py_err)?,
                rounding.parse().map_err(to_py_err)?,
            )
            .map_err(to_py_err)?,
        ),
        (false, None) => exr::Storing::Keep,
    };
    let options = exr::ConvertOptions {
        compression: compression.parse::<Compression>().map_err(to_py_err)?,
        level,
        storing,
        threads,
    };
    py.detach(|| exr::convert(&src, &dst, &options))
        .map(|c| (c.input_bytes, c.output_bytes))
        .map_err(to_py_err)
}

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
