//! `oxport.blender.import_obj`: an OBJ file read into the arrays Blender's
//! importer fills its meshes with.

use std::path::PathBuf;

use pyo3::prelude::*;
use pyo3::types::PyDict;

use oxport::blender as library;

use crate::errors::to_py_err;
use crate::mesh::numpy_view;
use crate::obj::warning_objects;
use crate::open::Open;

/// One mesh object as Blender's OBJ importer builds it: read-only numpy
/// arrays that its memory backs.
#[pyclass(frozen, module = "oxport._native")]
pub struct ImportedMesh {
    mesh: library::ImportedMesh,
}

#[pymethods]
impl ImportedMesh {
    #[getter]
    fn name(&self) -> &str {
        &self.mesh.name
    }

    /// `(V, 3)` float32: the vertices used, in file order.
    #[getter]
    fn positions(slf: &Bound<'_, Self>) -> PyResult<Py<PyAny>> {
        numpy_view(slf, slf.get().mesh.positions.as_flattened(), 3)
    }

    /// `(F + 1,)` uint32: face `i` uses corners `face_offsets[i]:face_offsets[i + 1]`.
    #[getter]
    fn face_offsets(slf: &Bound<'_, Self>) -> PyResult<Py<PyAny>> {
        numpy_view(slf, &slf.get().mesh.face_offsets, 1)
    }

    /// `(C,)` uint32: each corner's vertex.
    #[getter]
    fn corner_vertices(slf: &Bound<'_, Self>) -> PyResult<Py<PyAny>> {
        numpy_view(slf, &slf.get().mesh.corner_vertices, 1)
    }

    /// `(C, 2)` float32, or None.
    #[getter]
    fn corner_uvs(slf: &Bound<'_, Self>) -> PyResult<Option<Py<PyAny>>> {
        let mesh = &slf.get().mesh;
        mesh.corner_uvs
            .as_ref()
            .map(|v| numpy_view(slf, v.as_flattened(), 2))
            .transpose()
    }

    /// `(C, 3)` float32, normalized, or None.
    #[getter]
    fn corner_normals(slf: &Bound<'_, Self>) -> PyResult<Option<Py<PyAny>>> {
        let mesh = &slf.get().mesh;
        mesh.corner_normals
            .as_ref()
            .map(|v| numpy_view(slf, v.as_flattened(), 3))
            .transpose()
    }

    /// `(F,)` uint32: each face's corner count (`loop_total`).
    #[getter]
    fn face_sizes(slf: &Bound<'_, Self>) -> PyResult<Py<PyAny>> {
        numpy_view(slf, &slf.get().mesh.face_sizes, 1)
    }

    /// `(F,)` bool: faces shaded smooth (`use_smooth`).
    #[getter]
    fn smooth_faces(slf: &Bound<'_, Self>) -> PyResult<Py<PyAny>> {
        numpy_view(slf, &slf.get().mesh.smooth_faces, 1)
    }

    /// `(F,)` uint32, into `materials`.
    #[getter]
    fn material_indices(slf: &Bound<'_, Self>) -> PyResult<Py<PyAny>> {
        numpy_view(slf, &slf.get().mesh.material_indices, 1)
    }

    /// With a collection separator, the collections the object is linked
    /// into, outermost first (else empty).
    #[getter]
    fn collections(&self) -> Vec<String> {
        self.mesh.collections.clone()
    }

    #[getter]
    fn materials(&self) -> Vec<String> {
        self.mesh.materials.clone()
    }

    /// `(E, 2)` uint32: the `l` lines' edges.
    #[getter]
    fn loose_edges(slf: &Bound<'_, Self>) -> PyResult<Py<PyAny>> {
        numpy_view(slf, slf.get().mesh.loose_edges().as_flattened(), 2)
    }

    /// `(E, 2)` uint32: every edge (`.edge_verts`), the loose ones first.
    #[getter]
    fn edges(slf: &Bound<'_, Self>) -> PyResult<Py<PyAny>> {
        numpy_view(slf, slf.get().mesh.edges.as_flattened(), 2)
    }

    /// `(C,)` uint32: each corner's edge (`.corner_edge`).
    #[getter]
    fn corner_edges(slf: &Bound<'_, Self>) -> PyResult<Py<PyAny>> {
        numpy_view(slf, &slf.get().mesh.corner_edges, 1)
    }

    /// `(V, 4)` float32 linear RGBA, or None.
    #[getter]
    fn colors(slf: &Bound<'_, Self>) -> PyResult<Option<Py<PyAny>>> {
        let mesh = &slf.get().mesh;
        mesh.colors
            .as_ref()
            .map(|v| numpy_view(slf, v.as_flattened(), 4))
            .transpose()
    }

    /// `[(name, vertices)]`: each vertex group and its vertices (`(N,)` uint32).
    #[getter]
    fn vertex_groups(slf: &Bound<'_, Self>) -> PyResult<Vec<(String, Py<PyAny>)>> {
        slf.get()
            .mesh
            .vertex_groups
            .iter()
            .map(|(name, vertices)| Ok((name.clone(), numpy_view(slf, vertices, 1)?)))
            .collect()
    }

    /// Blender's `Mesh.validate` would change nothing in this mesh (no
    /// position that is not finite, no face of fewer than three vertices or
    /// using one twice, no two faces on one set of vertices, no degenerate
    /// or repeated loose edge): an importer may skip it.
    #[getter]
    fn valid(&self) -> bool {
        self.mesh.valid
    }

    /// The object had a face skipped for an index out of range or 0:
    /// Blender's importer then validates its mesh, whatever
    /// `validate_meshes` says.
    #[getter]
    fn faces_skipped(&self) -> bool {
        self.mesh.faces_skipped
    }

    fn __repr__(&self) -> String {
        format!(
            "ImportedMesh({:?}, {} vertices, {} faces)",
            self.mesh.name,
            self.mesh.positions.len(),
            self.mesh.smooth_faces.len()
        )
    }
}

/// A mesh's custom normals as Blender stores them (`ImportedMesh.custom_normals`).
#[pyclass(frozen, module = "oxport._native")]
pub struct CustomNormals {
    normals: library::CustomNormals,
}

#[pymethods]
impl CustomNormals {
    /// `(C, 2)` int16: the `custom_normal` attribute (face corners, `INT16_2D`).
    #[getter]
    fn encoded(slf: &Bound<'_, Self>) -> PyResult<Py<PyAny>> {
        numpy_view(slf, slf.get().normals.encoded.as_flattened(), 2)
    }

    /// `(E,)` bool: the `sharp_edge` attribute.
    #[getter]
    fn sharp_edges(slf: &Bound<'_, Self>) -> PyResult<Py<PyAny>> {
        numpy_view(slf, &slf.get().normals.sharp_edges, 1)
    }
}

/// A mesh handed to the stream: the object, its arrays read on the
/// stream's threads.
struct Source(Py<ImportedMesh>);

impl library::ImportedSource for Source {
    fn imported(&self) -> &library::ImportedMesh {
        &self.0.get().mesh
    }
}

/// Blender 4.5's and 5.0's custom normals computed in order as the meshes
/// are made (see `oxport.blender.CustomNormalsStream`).
#[pyclass(frozen, module = "oxport._native")]
pub(crate) struct CustomNormalsStream {
    stream: Open<library::NormalsStream<Source>>,
}

#[pymethods]
impl CustomNormalsStream {
    #[new]
    #[pyo3(signature = (*, threads = None))]
    fn new(threads: Option<usize>) -> PyResult<Self> {
        let stream = library::NormalsStream::new(threads).map_err(to_py_err)?;
        Ok(CustomNormalsStream {
            stream: Open::new(stream, "the stream is closed"),
        })
    }

    /// Hands over `mesh`, whose normals are computed against its own edges.
    fn add(&self, py: Python<'_>, mesh: Py<ImportedMesh>) -> PyResult<()> {
        // Without the GIL: a full stream waits here for room.
        self.stream.with(py, |stream| stream.add(Source(mesh)))
    }

    /// Waits for every mesh: per mesh, in the order handed over, its
    /// `CustomNormals` or None.
    fn finish(&self, py: Python<'_>) -> PyResult<Vec<Option<CustomNormals>>> {
        let stream = self.stream.take_open()?;
        let normals = py.detach(|| stream.finish()).map_err(to_py_err)?;
        Ok(normals
            .into_iter()
            .map(|n| n.map(|normals| CustomNormals { normals }))
            .collect())
    }

    /// Stops an unfinished stream. Does nothing after `finish`.
    fn close(&self, py: Python<'_>) {
        let stream = self.stream.take();
        py.detach(|| drop(stream));
    }
}

/// Reads an OBJ file on all cores into meshes as the importer of
/// `blender_version` builds them (the GIL is released): an
/// `oxport.blender.ImportedScene`.
#[pyfunction]
#[pyo3(signature = (path, *, blender_version=None, vertex_groups=false, clamp_size=0.0, global_scale=1.0, split_objects=true, split_groups=false, collection_separator="", close_spline_loops=true, threads=None))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn blender_import_obj(
    py: Python<'_>,
    path: PathBuf,
    blender_version: Option<(u32, u32)>,
    vertex_groups: bool,
    clamp_size: f32,
    global_scale: f32,
    split_objects: bool,
    split_groups: bool,
    collection_separator: &str,
    close_spline_loops: bool,
    threads: Option<usize>,
) -> PyResult<Py<PyAny>> {
    let options = library::ImportOptions {
        importer: crate::model::exporter(blender_version),
        vertex_groups,
        clamp_size,
        global_scale,
        split_objects,
        split_groups,
        collection_separator: library::collection_separator(collection_separator)
            .map_err(to_py_err)?,
        close_spline_loops,
    };
    let scene = py
        .detach(|| oxport::blender_obj::import_obj(&path, &options, threads))
        .map_err(to_py_err)?;
    let meshes: Vec<ImportedMesh> = scene
        .meshes
        .into_iter()
        .map(|mesh| ImportedMesh { mesh })
        .collect();
    let kwargs = PyDict::new(py);
    kwargs.set_item("meshes", meshes)?;
    kwargs.set_item("mtllibs", scene.mtllibs)?;
    kwargs.set_item("warnings", warning_objects(py, scene.warnings)?)?;
    let curves = (scene.curves.into_iter())
        .map(|curve| curve_object(py, curve))
        .collect::<PyResult<Vec<_>>>()?;
    kwargs.set_item("curves", curves)?;
    kwargs.set_item("scale", scene.scale)?;
    crate::facade::build(py, "blender", "ImportedScene", &kwargs)
}

/// An `oxport.blender.ImportedCurve`.
fn curve_object(py: Python<'_>, curve: library::ImportedCurve) -> PyResult<Py<PyAny>> {
    let kwargs = PyDict::new(py);
    kwargs.set_item("name", curve.name)?;
    kwargs.set_item("collections", curve.collections)?;
    let points: Vec<(f32, f32, f32, f32)> = curve
        .points
        .iter()
        .map(|p| (p[0], p[1], p[2], p[3]))
        .collect();
    kwargs.set_item("points", points)?;
    kwargs.set_item("order", curve.order)?;
    kwargs.set_item("cyclic", curve.cyclic)?;
    kwargs.set_item("endpoint", curve.endpoint)?;
    kwargs.set_item("bezier", curve.bezier)?;
    kwargs.set_item("custom_knots", curve.custom_knots)?;
    kwargs.set_item("obj", curve.obj)?;
    kwargs.set_item("made_after", curve.made_after)?;
    crate::facade::build(py, "blender", "ImportedCurve", &kwargs)
}
