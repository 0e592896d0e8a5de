//! `oxport.seekable`: seekable archives from Python. Readers take a path or
//! a readable, seekable binary file object (an `fsspec` file over HTTP or
//! S3: only the seek table and the frames a read needs are fetched).

use std::io::Write;
use std::path::PathBuf;

use oxport::seekable::{self, Index, ReadOptions, Reader, Source, WriteOptions};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};

use crate::bytes::Buffer;
use crate::errors::to_py_err;
use crate::open::Open;
use crate::sink::write_output;
use crate::source::open_reader;

/// An archive open for reading (`oxport.seekable.open(..., "rb")` wraps it).
#[pyclass(module = "oxport._native", frozen)]
pub struct SeekableReader {
    reader: Reader<Box<dyn Source>>,
}

#[pymethods]
impl SeekableReader {
    /// Opens `file`: a path, a URL, or a readable, seekable binary file
    /// object.
    #[new]
    #[pyo3(signature = (file, *, threads = None))]
    fn new(py: Python<'_>, file: &Bound<'_, PyAny>, threads: Option<usize>) -> PyResult<Self> {
        let options = ReadOptions { threads };
        let reader = open_reader(
            py,
            file,
            |path| Reader::open(path, &options),
            |source| Reader::new(source, &options),
        )?;
        Ok(SeekableReader { reader })
    }

    /// The decompressed size; `None` for an archive whose frames do not
    /// record their sizes until it has been read to the end.
    #[getter]
    fn size(&self) -> Option<u64> {
        self.reader.size()
    }

    /// The decompressed size, decompressing the archive to find it if need be.
    fn find_size(&self, py: Python<'_>) -> PyResult<u64> {
        py.detach(|| self.reader.find_size()).map_err(to_py_err)
    }

    /// The size of the archive itself.
    #[getter]
    fn archive_size(&self) -> u64 {
        self.reader.archive_size()
    }

    /// Where the index came from: `"seek table"`, `"frame headers"` or `"none"`.
    #[getter]
    fn index(&self) -> &'static str {
        match self.reader.index() {
            Index::SeekTable { .. } => "seek table",
            Index::FrameHeaders => "frame headers",
            Index::None => "none",
        }
    }

    /// Whether the seek table has checksums (verified as frames are read).
    #[getter]
    fn checksums(&self) -> bool {
        matches!(self.reader.index(), Index::SeekTable { checksums: true })
    }

    /// The frames, as `oxport.seekable.Frame`s.
    fn frames(&self, py: Python<'_>) -> PyResult<Vec<Py<PyAny>>> {
        self.reader
            .frames()
            .iter()
            .map(|f| {
                let kwargs = PyDict::new(py);
                kwargs.set_item("compressed_offset", f.compressed_offset)?;
                kwargs.set_item("compressed_size", f.compressed_size)?;
                kwargs.set_item("offset", f.offset)?;
                kwargs.set_item("size", f.size)?;
                kwargs.set_item("checksum", f.checksum)?;
                crate::facade::build(py, "seekable", "Frame", &kwargs)
            })
            .collect()
    }

    /// Up to `size` decompressed bytes at `offset` (fewer only at the end).
    fn read_at<'py>(
        &self,
        py: Python<'py>,
        offset: u64,
        size: usize,
    ) -> PyResult<Bound<'py, PyBytes>> {
        if let Some(total) = self.reader.size() {
            let size = size.min(total.saturating_sub(offset) as usize);
            return PyBytes::new_with(py, size, |buf| {
                let n = py
                    .detach(|| self.reader.read_at(offset, buf))
                    .map_err(to_py_err)?;
                if n != buf.len() {
                    return Err(crate::errors::Error::new_err(
                        "internal error: a read stopped short of the archive's size",
                    ));
                }
                Ok(())
            });
        }
        // Size unknown (streamed archive): read, then copy what came.
        let mut buf = vec![0u8; size.min(64 << 20)];
        let mut filled = 0;
        while filled < size {
            if filled == buf.len() {
                buf.resize((buf.len() * 2).min(size), 0);
            }
            let n = py
                .detach(|| {
                    self.reader
                        .read_at(offset + filled as u64, &mut buf[filled..])
                })
                .map_err(to_py_err)?;
            if n == 0 {
                break;
            }
            filled += n;
        }
        Ok(PyBytes::new(py, &buf[..filled]))
    }

    /// Reads decompressed bytes at `offset` into `buffer` (a writable,
    /// contiguous bytes-like object); returns the count.
    fn readinto_at(
        &self,
        py: Python<'_>,
        offset: u64,
        buffer: &Bound<'_, PyAny>,
    ) -> PyResult<usize> {
        let mut buffer = Buffer::write(buffer)?;
        let out = buffer.as_mut_slice();
        py.detach(|| self.reader.read_at(offset, out))
            .map_err(to_py_err)
    }
}

/// An archive being written (`oxport.seekable.open(..., "wb")` wraps it).
#[pyclass(module = "oxport._native", frozen)]
pub struct SeekableWriter {
    writer: Open<seekable::FileWriter>,
}

/// The options given, the library's defaults (`seekable::WriteOptions`)
/// for those that are not.
pub(crate) fn write_options(
    level: Option<i32>,
    frame_size: Option<usize>,
    checksums: Option<bool>,
    threads: Option<usize>,
) -> WriteOptions {
    let default = WriteOptions::default();
    WriteOptions {
        level: level.unwrap_or(default.level),
        frame_size: frame_size.unwrap_or(default.frame_size),
        checksums: checksums.unwrap_or(default.checksums),
        threads,
    }
}

/// The library's defaults as module constants, for the Python signatures.
pub fn add_defaults(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let default = WriteOptions::default();
    m.add("SEEKABLE_LEVEL", default.level)?;
    m.add("SEEKABLE_FRAME_SIZE", default.frame_size)?;
    m.add("SEEKABLE_CHECKSUMS", default.checksums)?;
    Ok(())
}

#[pymethods]
impl SeekableWriter {
    #[new]
    #[pyo3(signature = (path, *, level = None, frame_size = None, checksums = None, threads = None))]
    fn new(
        py: Python<'_>,
        path: PathBuf,
        level: Option<i32>,
        frame_size: Option<usize>,
        checksums: Option<bool>,
        threads: Option<usize>,
    ) -> PyResult<Self> {
        let options = write_options(level, frame_size, checksums, threads);
        let writer = py
            .detach(|| seekable::FileWriter::create(&path, &options))
            .map_err(to_py_err)?;
        Ok(SeekableWriter {
            writer: Open::new(writer, "write to a closed file"),
        })
    }

    /// Appends the bytes of `data` (any contiguous bytes-like object).
    fn write(&self, py: Python<'_>, data: &Bound<'_, PyAny>) -> PyResult<usize> {
        let data = Buffer::read(data)?;
        let bytes = data.as_slice();
        let len = bytes.len();
        self.writer
            .with(py, |writer| Ok(writer.write_all(bytes)?))?;
        Ok(len)
    }

    /// Compresses the rest, writes the seek table and puts the file in
    /// place: an `oxport.seekable.Packed`. Closing twice does nothing the
    /// second time (and returns `None`).
    fn close(&self, py: Python<'_>) -> PyResult<Option<Py<PyAny>>> {
        let writer = self.writer.take();
        let packed = py.detach(|| writer.map(|writer| writer.finish()).transpose());
        match packed.map_err(to_py_err)? {
            Some(p) => Ok(Some(packed_object(py, p)?)),
            None => Ok(None),
        }
    }

    /// Drops what was written without putting a file in place.
    fn discard(&self) {
        drop(self.writer.take());
    }

    #[getter]
    fn closed(&self) -> bool {
        self.writer.is_closed()
    }
}

/// What was packed, as `oxport.seekable.Packed`.
fn packed_object(py: Python<'_>, p: seekable::Packed) -> PyResult<Py<PyAny>> {
    let kwargs = PyDict::new(py);
    kwargs.set_item("frames", p.frames)?;
    kwargs.set_item("input_bytes", p.input_bytes)?;
    kwargs.set_item("output_bytes", p.output_bytes)?;
    crate::facade::build(py, "seekable", "Packed", &kwargs)
}

/// Compresses the file `src` into the archive `dst`: an
/// `oxport.seekable.Packed`.
#[pyfunction]
#[pyo3(signature = (src, dst, *, level = None, frame_size = None, checksums = None, threads = None))]
pub fn seekable_pack(
    py: Python<'_>,
    src: PathBuf,
    dst: &Bound<'_, PyAny>,
    level: Option<i32>,
    frame_size: Option<usize>,
    checksums: Option<bool>,
    threads: Option<usize>,
) -> PyResult<Py<PyAny>> {
    let options = write_options(level, frame_size, checksums, threads);
    let packed = write_output(py, dst, |output| {
        seekable::pack_file(&src, output, &options, |_, _| {})
    })?;
    packed_object(py, packed)
}

/// Decompresses the archive `src` into the file `dst`; returns its size.
#[pyfunction]
#[pyo3(signature = (src, dst, *, threads = None))]
pub fn seekable_unpack(
    py: Python<'_>,
    src: PathBuf,
    dst: &Bound<'_, PyAny>,
    threads: Option<usize>,
) -> PyResult<u64> {
    write_output(py, dst, |output| {
        seekable::unpack_file(&src, output, &ReadOptions { threads }, |_, _| {})
    })
}
