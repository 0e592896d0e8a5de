//! `oxport.blender.MeshStream`: the add-on's export hands each gathered
//! mesh to the library's stream (`oxport::blender_obj::MeshStream`), which
//! builds and writes them in order on its threads while Blender's Python
//! gathers the next; nothing of the pipeline is in Python.

use oxport::blender_obj as library;
use pyo3::prelude::*;

use crate::blender::Gathered;
use crate::buffers::index_rows;
use crate::errors::to_py_err;
use crate::obj::ObjWriter;
use crate::open::Open;

/// A gathered mesh kept alive (its buffers pinned) until it is built.
struct Source(Py<Gathered>);

impl library::GatheredSource for Source {
    fn gathered(&self) -> oxport::blender::Gathered<'_> {
        self.0.get().view()
    }
}

/// Meshes built and written in order into an `ObjWriter`'s file while the
/// caller gathers more (see `oxport.blender.MeshStream`).
#[pyclass(frozen, module = "oxport._native")]
pub(crate) struct MeshStream {
    stream: Open<library::MeshStream<Source>>,
    writer: Py<ObjWriter>,
}

impl MeshStream {
    fn with<R: Send>(
        &self,
        py: Python<'_>,
        work: impl FnOnce(&mut library::MeshStream<Source>) -> oxport::Result<R> + Send,
    ) -> PyResult<R> {
        // Without the GIL: a full stream waits here for room.
        self.stream.with(py, work)
    }
}

#[pymethods]
impl MeshStream {
    /// Streams into `writer`'s file, which it has until `finish`.
    #[new]
    #[pyo3(signature = (writer, *, threads = None))]
    fn new(writer: Bound<'_, ObjWriter>, threads: Option<usize>) -> PyResult<Self> {
        oxport::pipeline::thread_count(threads).map_err(to_py_err)?;
        let file = writer.borrow().lend()?;
        let stream = library::MeshStream::new(file, threads).map_err(to_py_err)?;
        Ok(MeshStream {
            stream: Open::new(stream, "the stream is closed"),
            writer: writer.unbind(),
        })
    }

    /// Hands over `gathered` (its loose edges among its arrays).
    fn add(&self, py: Python<'_>, gathered: Py<Gathered>) -> PyResult<()> {
        self.with(py, |stream| stream.add(Source(gathered)))
    }

    /// Hands over `gathered`, whose loose edges follow through the returned
    /// `LooseEdges`: its build starts at once.
    fn add_then_edges(&self, py: Python<'_>, gathered: Py<Gathered>) -> PyResult<LooseEdges> {
        let sender = self.with(py, |stream| stream.add_then_edges(Source(gathered)))?;
        Ok(LooseEdges {
            sender: Open::new(sender, "the edges were sent"),
        })
    }

    /// Waits until every mesh is written and gives the file back to the
    /// writer; the first error of any build or write is raised (and the
    /// file is dropped).
    fn finish(&self, py: Python<'_>) -> PyResult<()> {
        let stream = self.stream.take_open()?;
        let file = py.detach(|| stream.finish()).map_err(to_py_err)?;
        self.writer.bind(py).borrow().give_back(file);
        Ok(())
    }

    /// Stops an unfinished stream: what is not written is dropped, and the
    /// file with it. Does nothing after `finish`.
    fn close(&self, py: Python<'_>) {
        let stream = self.stream.take();
        py.detach(|| drop(stream));
    }
}

/// The loose edges of a mesh handed over before them.
#[pyclass(frozen, module = "oxport._native")]
pub(crate) struct LooseEdges {
    sender: Open<library::LooseEdges>,
}

#[pymethods]
impl LooseEdges {
    /// The mesh's loose edges (pairs of vertex indices, flat or as rows),
    /// or `None` when it has none.
    #[pyo3(signature = (edges))]
    fn send(&self, edges: Option<Bound<'_, PyAny>>) -> PyResult<()> {
        let edges = match edges.filter(|e| !e.is_none()) {
            Some(edges) => Some(index_rows::<2>(&edges, "edges")?.as_slice().to_vec()),
            None => None,
        };
        let sender = self.sender.take_open()?;
        sender.send(edges);
        Ok(())
    }

    /// Gives up on the edges (the gathering failed): the mesh fails to
    /// build, and the stream with it.
    fn cancel(&self) {
        self.sender.take();
    }
}
