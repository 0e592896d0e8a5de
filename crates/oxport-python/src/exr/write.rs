//! Writing: parts described by the facade (`ExrNewPart`), and conversions.

use std::path::PathBuf;

use oxport::exr::{self, Compression};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use super::attributes::{attribute_from_py, pixel_type};
use crate::bytes::Buffer;
use crate::errors::to_py_err;
use crate::sink::write_output;

/// One part to write, as the facade's `OutputPart` describes it: its size,
/// its channels (name → pixel type, in the order of its planes), its planes
/// by level (a deep part's: each channel's samples), a deep part's sample
/// counts by level, the attributes its caller gives (name → value in
/// its public shape, or `oxport.exr.Attribute`), and how it is stored.
/// The header and the file's order of channels are the library's
/// (`exr::NewPart`, `exr::write_new_parts`).
#[pyclass(frozen, module = "oxport._native")]
pub struct ExrNewPart {
    part: exr::NewPart,
    levels: Vec<Vec<Buffer>>,
    counts: Option<Vec<Vec<u32>>>,
}

#[pymethods]
impl ExrNewPart {
    #[new]
    #[pyo3(signature = (*, width, height, channels, levels, attributes, compression = None,
                        tiles = None, level_mode = "one", rounding = "down", counts = None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        width: u32,
        height: u32,
        channels: &Bound<'_, PyDict>,
        levels: Vec<Vec<Bound<'_, PyAny>>>,
        attributes: &Bound<'_, PyDict>,
        compression: Option<&str>,
        tiles: Option<(u32, u32)>,
        level_mode: &str,
        rounding: &str,
        counts: Option<Vec<Bound<'_, PyAny>>>,
    ) -> PyResult<Self> {
        let channels = channels
            .iter()
            .map(|(name, pixel)| Ok((name.extract()?, pixel_type(&pixel.extract::<String>()?)?)))
            .collect::<PyResult<Vec<(String, _)>>>()?;
        let attributes = attributes
            .iter()
            .map(|(name, value)| {
                let name: String = name.extract()?;
                let value = attribute_from_py(&name, &value)?;
                Ok((name, value))
            })
            .collect::<PyResult<Vec<_>>>()?;
        let tiles = tiles
            .map(|(w, h)| exr::Tiles::new(w, h, level_mode.parse()?, rounding.parse()?))
            .transpose()
            .map_err(to_py_err)?;
        let counts = counts
            .map(|levels| {
                levels
                    .iter()
                    .map(|counts| -> PyResult<Vec<u32>> {
                        let bytes = Buffer::read(counts)?;
                        Ok(bytes
                            .as_slice()
                            .chunks_exact(4)
                            .map(|b| u32::from_le_bytes(b.try_into().expect("4")))
                            .collect())
                    })
                    .collect::<PyResult<Vec<_>>>()
            })
            .transpose()?;
        let part = exr::NewPart {
            width,
            height,
            channels,
            compression: compression
                .map(str::parse::<Compression>)
                .transpose()
                .map_err(to_py_err)?,
            tiles,
            deep: counts.is_some(),
            attributes,
        };
        let levels = levels
            .iter()
            .map(|planes| planes.iter().map(Buffer::read).collect())
            .collect::<PyResult<_>>()?;
        Ok(ExrNewPart {
            part,
            levels,
            counts,
        })
    }
}

impl ExrNewPart {
    /// The part's pixels as the library takes them.
    fn pixels(&self) -> PyResult<exr::Pixels<'_>> {
        let levels: Vec<Vec<&[u8]>> = self
            .levels
            .iter()
            .map(|planes| planes.iter().map(Buffer::as_slice).collect())
            .collect();
        Ok(match &self.counts {
            None => exr::Pixels::Flat(levels),
            Some(counts) => {
                if levels.len() != counts.len() {
                    return Err(PyValueError::new_err(format!(
                        "a deep part takes a list of sample arrays per level: {} for {} levels \
                         of counts",
                        levels.len(),
                        counts.len()
                    )));
                }
                exr::Pixels::Deep(
                    counts
                        .iter()
                        .zip(levels)
                        .map(|(counts, channels)| exr::DeepLevel { counts, channels })
                        .collect(),
                )
            }
        })
    }
}

/// Writes an OpenEXR file of `parts` (one part: a single-part file).
#[pyfunction]
#[pyo3(signature = (path, parts, *, level = None, threads = None))]
pub fn exr_write(
    py: Python<'_>,
    path: &Bound<'_, PyAny>,
    parts: Vec<PyRef<'_, ExrNewPart>>,
    level: Option<i32>,
    threads: Option<usize>,
) -> PyResult<()> {
    let parts = parts
        .iter()
        .map(|p| Ok((p.part.clone(), p.pixels()?)))
        .collect::<PyResult<Vec<_>>>()?;
    let options = exr::WriteOptions { level, threads };
    write_output(py, path, |output| {
        exr::write_new_parts(output, &parts, &options)
    })
    .map(drop)
}

/// A conversion's options as Python names them (`exr.convert`'s, and
/// `oxport.dask`'s for `kind="exr"`); threads are the caller's.
pub(crate) fn convert_options(
    compression: &str,
    level: Option<i32>,
    scanlines: bool,
    tiles: Option<(u32, u32)>,
    levels: &str,
    rounding: &str,
) -> PyResult<exr::ConvertOptions> {
    Ok(exr::ConvertOptions {
        compression: compression.parse::<Compression>().map_err(to_py_err)?,
        level,
        storing: exr::Storing::choose(scanlines, tiles, levels, rounding).map_err(to_py_err)?,
        threads: None,
    })
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
    dst: &Bound<'_, PyAny>,
    compression: &str,
    level: Option<i32>,
    threads: Option<usize>,
    scanlines: bool,
    tiles: Option<(u32, u32)>,
    levels: &str,
    rounding: &str,
) -> PyResult<(u64, u64)> {
    let options = exr::ConvertOptions {
        threads,
        ..convert_options(compression, level, scanlines, tiles, levels, rounding)?
    };
    write_output(py, dst, |output| exr::convert(&src, output, &options))
        .map(|c| (c.input_bytes, c.output_bytes))
}
