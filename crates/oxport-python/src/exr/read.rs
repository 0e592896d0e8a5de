//! Reading: an open file's parts, and the planes of a selection decoded
//! into numpy arrays.

use numpy::PyArray1;
use oxport::exr::{self, Channel};
use oxport::source::Source;
use pyo3::exceptions::PyIndexError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use super::attributes::{attributes_of, pixel_type_name};
use crate::bytes::Buffer;
use crate::errors::to_py_err;
use crate::source::open_reader;

/// A part as the facade describes it: its attributes, its `type`, its
/// levels as `(x, y, width, height)`.
type PartInfo<'py> = (
    Bound<'py, PyDict>,
    &'static str,
    Vec<(usize, usize, usize, usize)>,
);

/// Planes as `(channel name, pixel type, width, height, uint8 array)`.
type Planes<'py> = Vec<(String, &'static str, usize, usize, Bound<'py, PyArray1<u8>>)>;

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

    /// Reads `channels` (names; `None`: all) of `window` (`((x min, y min),
    /// (x max, y max))` inclusive, in the level's coordinates; `None`: all
    /// of it) of level `level` (`n` or `(x, y)`; `None`: 0) of part `part`.
    /// The arrays are numpy's own, decoded into without being zeroed first.
    #[pyo3(signature = (part, *, level = None, channels = None, window = None, threads = None))]
    fn read<'py>(
        &self,
        py: Python<'py>,
        part: usize,
        level: Option<LevelArgument>,
        channels: Option<Vec<String>>,
        window: Option<WindowArgument>,
        threads: Option<usize>,
    ) -> PyResult<Planes<'py>> {
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
    #[pyo3(signature = (part, *, level = None, channels = None, window = None, threads = None))]
    fn read_deep<'py>(
        &self,
        py: Python<'py>,
        part: usize,
        level: Option<LevelArgument>,
        channels: Option<Vec<String>>,
        window: Option<WindowArgument>,
        threads: Option<usize>,
    ) -> PyResult<DeepRead<'py>> {
        let (selection, all) = self.selection(part, level, channels, window)?;
        let image = py
            .detach(|| {
                self.reader
                    .read_deep(&selection, &exr::ReadOptions { threads })
            })
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
