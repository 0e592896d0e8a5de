//! Batch jobs (`oxport::batch`) for `oxport.dask`: built by keyword, one
//! constructor per conversion, or from the JSON the command line hands
//! over; planned and run by the library.

use std::path::PathBuf;

use oxport::batch::{self, Conversion, Job, Output};
use oxport::obj;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

use crate::errors::to_py_err;
use crate::obj::WriteOptions;

fn strings(paths: &[PathBuf]) -> Vec<String> {
    // Strings, not paths: a URL's `//` must survive (`pathlib` folds it).
    paths
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect()
}

/// Files converted one task each into a directory (or a bucket's prefix):
/// the inputs, where their outputs go and the conversion with its options
/// (`oxport::batch::Job`).
#[pyclass(module = "oxport._native", frozen)]
pub(crate) struct BatchJob {
    job: Job,
}

/// Threads are not a conversion's option: each task is given its worker's.
fn no_threads(threads: Option<usize>) -> PyResult<()> {
    match threads {
        Some(_) => Err(PyTypeError::new_err(
            "threads: each task uses the threads of its worker, not an option",
        )),
        None => Ok(()),
    }
}

impl BatchJob {
    fn new(inputs: Vec<PathBuf>, output_dir: PathBuf, conversion: Conversion) -> PyResult<Self> {
        conversion.check().map_err(to_py_err)?;
        Ok(BatchJob {
            job: Job {
                inputs,
                output: Output::Directory(output_dir),
                conversion,
            },
        })
    }
}

#[pymethods]
impl BatchJob {
    /// OpenEXR files recompressed (`oxport.exr.convert`'s options).
    #[staticmethod]
    #[pyo3(signature = (inputs, output_dir, *, compression = "zstd", level = None,
                        scanlines = false, tiles = None, levels = "one", rounding = "down",
                        threads = None))]
    #[allow(clippy::too_many_arguments)]
    fn exr(
        inputs: Vec<PathBuf>,
        output_dir: PathBuf,
        compression: &str,
        level: Option<i32>,
        scanlines: bool,
        tiles: Option<(u32, u32)>,
        levels: &str,
        rounding: &str,
        threads: Option<usize>,
    ) -> PyResult<Self> {
        no_threads(threads)?;
        let options =
            crate::exr::convert_options(compression, level, scanlines, tiles, levels, rounding)?;
        Self::new(inputs, output_dir, Conversion::Exr(options))
    }

    /// Files packed into seekable archives `NAME.zst`
    /// (`oxport.seekable.pack`'s options; `None`: its defaults).
    #[staticmethod]
    #[pyo3(signature = (inputs, output_dir, *, level = None, frame_size = None, checksums = None,
                        threads = None))]
    fn seekable(
        inputs: Vec<PathBuf>,
        output_dir: PathBuf,
        level: Option<i32>,
        frame_size: Option<usize>,
        checksums: Option<bool>,
        threads: Option<usize>,
    ) -> PyResult<Self> {
        no_threads(threads)?;
        let options = crate::seekable::write_options(level, frame_size, checksums, None);
        Self::new(inputs, output_dir, Conversion::Seekable(options))
    }

    /// OBJ files read (`strict`, `read_materials`, `mtl_root`) and written
    /// again with the other keywords, `WriteOptions`' (`oxport.convert_obj`).
    #[staticmethod]
    #[pyo3(signature = (inputs, output_dir, *, strict = false, read_materials = true,
                        mtl_root = None, **writing))]
    fn obj(
        py: Python<'_>,
        inputs: Vec<PathBuf>,
        output_dir: PathBuf,
        strict: bool,
        read_materials: bool,
        mtl_root: Option<PathBuf>,
        writing: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        let writing = py.get_type::<WriteOptions>().call((), writing)?;
        let writing = writing.cast::<WriteOptions>()?.get().options.clone();
        no_threads(writing.threads)?;
        let reading = obj::ReadOptions {
            threads: None,
            strict,
            materials: read_materials,
            mtl_root,
            ..obj::ReadOptions::default()
        };
        Self::new(inputs, output_dir, Conversion::Obj { reading, writing })
    }

    /// A job from the JSON the command line hands to `python -m oxport.dask`
    /// (`oxport::batch::Job::to_json`); `ValueError` for other text.
    #[staticmethod]
    fn from_json(text: &str) -> PyResult<Self> {
        let job = Job::from_json(text).map_err(to_py_err)?;
        Ok(BatchJob { job })
    }

    /// The job as JSON.
    fn to_json(&self) -> String {
        self.job.to_json()
    }

    /// The input files (paths or URLs), in order.
    #[getter]
    fn inputs(&self) -> Vec<String> {
        strings(&self.job.inputs)
    }

    /// The directory (or URL prefix), or the one output file.
    #[getter]
    fn output(&self) -> String {
        self.job.output.path().to_string_lossy().into_owned()
    }

    /// What each file goes through.
    #[getter]
    fn conversion(&self) -> BatchConversion {
        BatchConversion {
            conversion: self.job.conversion.clone(),
        }
    }

    /// Each input's output, in order, once the job is known to be possible
    /// (`oxport::batch::Job::plan`): two inputs that would write one file
    /// are a `ValueError`, and the output directory is created.
    fn plan(&self, py: Python<'_>) -> PyResult<Vec<String>> {
        let targets = py.detach(|| self.job.plan()).map_err(to_py_err)?;
        Ok(strings(&targets))
    }

    /// Removes what killed writers left beside the outputs `targets` (once
    /// every task has ended); returns how many files.
    fn remove_temporaries(&self, py: Python<'_>, targets: Vec<PathBuf>) -> PyResult<usize> {
        py.detach(|| self.job.remove_temporaries(&targets))
            .map_err(to_py_err)
    }
}

/// What each file of a batch goes through (`oxport::batch::Conversion`);
/// pickled as its JSON, so that it travels to Dask's workers.
#[pyclass(module = "oxport._native", frozen)]
pub(crate) struct BatchConversion {
    conversion: Conversion,
}

/// What one file's conversion read and wrote.
#[pyclass(module = "oxport._native", frozen, get_all)]
pub(crate) struct BatchDone {
    /// The input's size in bytes.
    bytes_in: u64,
    /// The size of what was written (an OBJ file with its MTL file).
    bytes_out: u64,
}

#[pymethods]
impl BatchDone {
    #[new]
    #[pyo3(signature = (*, bytes_in, bytes_out))]
    fn new(bytes_in: u64, bytes_out: u64) -> Self {
        BatchDone {
            bytes_in,
            bytes_out,
        }
    }

    /// Pickled by keyword: a task's result travels back from its worker.
    fn __getnewargs_ex__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyTuple>, Bound<'py, PyDict>)> {
        let kwargs = PyDict::new(py);
        kwargs.set_item("bytes_in", self.bytes_in)?;
        kwargs.set_item("bytes_out", self.bytes_out)?;
        Ok((PyTuple::empty(py), kwargs))
    }

    fn __repr__(&self) -> String {
        format!(
            "BatchDone(bytes_in={}, bytes_out={})",
            self.bytes_in, self.bytes_out
        )
    }
}

#[pymethods]
impl BatchConversion {
    /// `"exr"`, `"seekable"` or `"obj"`.
    #[getter]
    fn kind(&self) -> &'static str {
        self.conversion.kind()
    }

    /// Converts `input` into `target` on `threads` threads (`None`: one per
    /// core), whole or not at all; the GIL is released.
    #[pyo3(signature = (input, target, *, threads = None))]
    fn run(
        &self,
        py: Python<'_>,
        input: PathBuf,
        target: PathBuf,
        threads: Option<usize>,
    ) -> PyResult<BatchDone> {
        let done = py
            .detach(|| self.conversion.run(&input, &target, threads, &|_| {}))
            .map_err(to_py_err)?;
        Ok(BatchDone {
            bytes_in: done.bytes_in,
            bytes_out: done.bytes_out,
        })
    }

    /// The conversion from its JSON (what pickling keeps).
    #[staticmethod]
    fn from_json(text: &str) -> PyResult<Self> {
        let conversion = Conversion::from_json(text).map_err(to_py_err)?;
        Ok(BatchConversion { conversion })
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let text = slf.get().conversion.to_json();
        let from_json = slf.get_type().getattr("from_json")?;
        PyTuple::new(py, [from_json, PyTuple::new(py, [text])?.into_any()])
    }
}

/// A failed file's message, led by its path unless it names it already
/// (`oxport::batch::located`).
#[pyfunction]
pub(crate) fn batch_located(path: PathBuf, message: &str) -> String {
    batch::located(&path, message)
}
