//! Reading: an open file's parts, and the planes of a selection decoded
//! into numpy arrays.

use numpy::{PyArray1, PyArrayMethods};
use oxport::exr::{self, Channel};
use oxport::source::Source;
use pyo3::exceptions::PyIndexError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use super::attributes::attributes_of;
use crate::bytes::Buffer;
use crate::errors::to_py_err;
use crate::source::open_reader;

/// The numpy dtype of a pixel type (little-endian, as the file has it).
fn dtype(t: exr::PixelType) -> &'static str {
    match t {
        exr::PixelType::Half => "<f2",
        exr::PixelType::Float => "<f4",
        exr::PixelType::Uint => "<u4",
    }
}

/// A byte array decoded into, seen as its pixel type.
fn typed<'py>(bytes: Bound<'py, PyArray1<u8>>, t: exr::PixelType) -> PyResult<Bound<'py, PyAny>> {
    bytes.call_method1("view", (dtype(t),))
}

/// A level as the facade takes it: `n` for `(n, n)`, or `(x, y)`.
#[derive(FromPyObject)]
enum LevelArgument {
    Both(usize),
    Each(usize, usize),
}

/// A window as the facade takes it: `((x min, y min), (x max, y max))`.
type WindowArgument = ((i32, i32), (i32, i32));

impl ExrReader {
    /// What `read` and `read_deep` are asked for, as the library's
    /// selection (channels by name: an error names those the part lacks),
    /// and the part's channels, which its indices point into.
    fn selection(
        &self,
        part: usize,
        level: Option<LevelArgument>,
        channels: Option<Vec<String>>,
        window: Option<WindowArgument>,
    ) -> PyResult<(exr::Selection, &[Channel])> {
        let header = self
            .reader
            .parts()
            .get(part)
            .ok_or_else(|| {
                PyIndexError::new_err(format!(
                    "part {part}: the file has {} parts",
                    self.reader.parts().len()
                ))
            })?
            .header();
        let all = header.channels().map_err(to_py_err)?;
        let channels = channels
            .map(|names| header.channel_indices(&names))
            .transpose()
            .map_err(to_py_err)?;
        let selection = exr::Selection {
            part,
            level: match level {
                None => (0, 0),
                Some(LevelArgument::Both(n)) => (n, n),
                Some(LevelArgument::Each(x, y)) => (x, y),
            },
            channels,
            window: window.map(|((x_min, y_min), (x_max, y_max))| exr::Window {
                x_min,
                y_min,
                x_max,
                y_max,
            }),
        };
        Ok((selection, all))
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

    /// Every part, in file order, as `oxport.exr.Part`s.
    fn parts(&self, py: Python<'_>) -> PyResult<Vec<Py<PyAny>>> {
        let mut parts = Vec::with_capacity(self.reader.parts().len());
        for (index, part) in self.reader.parts().iter().enumerate() {
            let levels = part
                .levels()
                .iter()
                .map(|l| {
                    let kwargs = PyDict::new(py);
                    kwargs.set_item("x", l.x)?;
                    kwargs.set_item("y", l.y)?;
                    kwargs.set_item("width", l.width)?;
                    kwargs.set_item("height", l.height)?;
                    crate::facade::build(py, "exr", "Level", &kwargs)
                })
                .collect::<PyResult<Vec<_>>>()?;
            let kwargs = PyDict::new(py);
            kwargs.set_item("index", index)?;
            kwargs.set_item("header", attributes_of(py, part.header())?)?;
            kwargs.set_item("type", part.storage().type_name())?;
            kwargs.set_item("levels", levels)?;
            parts.push(crate::facade::build(py, "exr", "Part", &kwargs)?);
        }
        Ok(parts)
    }

    /// Reads `channels` (names; `None`: all) of `window` (`((x min, y min),
    /// (x max, y max))` inclusive, in the level's coordinates; `None`: all
    /// of it) of level `level` (`n` or `(x, y)`; `None`: 0) of part `part`.
    /// Each channel by name, a `(height, width)` array of its pixel type:
    /// numpy's own, decoded into without being zeroed first.
    #[pyo3(signature = (part, *, level = None, channels = None, window = None, threads = None))]
    fn read<'py>(
        &self,
        py: Python<'py>,
        part: usize,
        level: Option<LevelArgument>,
        channels: Option<Vec<String>>,
        window: Option<WindowArgument>,
        threads: Option<usize>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let (selection, all) = self.selection(part, level, channels, window)?;
        let shapes = self.reader.shapes(&selection).map_err(to_py_err)?;
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
        let planes = PyDict::new(py);
        for (s, array) in shapes.iter().zip(arrays) {
            let channel = &all[s.channel];
            let plane =
                typed(array, channel.pixel_type)?.call_method1("reshape", (s.height, s.width))?;
            planes.set_item(&channel.name, plane)?;
        }
        Ok(planes)
    }

    /// Reads the samples of a deep part, like `read`: an
    /// `oxport.exr.DeepPixels` (the counts per pixel, and each channel's
    /// samples, pixel after pixel).
    #[pyo3(signature = (part, *, level = None, channels = None, window = None, threads = None))]
    fn read_deep<'py>(
        &self,
        py: Python<'py>,
        part: usize,
        level: Option<LevelArgument>,
        channels: Option<Vec<String>>,
        window: Option<WindowArgument>,
        threads: Option<usize>,
    ) -> PyResult<Py<PyAny>> {
        let (selection, all) = self.selection(part, level, channels, window)?;
        let image = py
            .detach(|| {
                self.reader
                    .read_deep(&selection, &exr::ReadOptions { threads })
            })
            .map_err(to_py_err)?;
        let counts = PyArray1::from_vec(py, image.counts).reshape([image.height, image.width])?;
        let channels = PyDict::new(py);
        for (&c, samples) in image.channel_indices.iter().zip(image.channels) {
            let samples = typed(PyArray1::from_vec(py, samples), all[c].pixel_type)?;
            channels.set_item(&all[c].name, samples)?;
        }
        let kwargs = PyDict::new(py);
        kwargs.set_item("counts", counts)?;
        kwargs.set_item("channels", channels)?;
        crate::facade::build(py, "exr", "DeepPixels", &kwargs)
    }
}
