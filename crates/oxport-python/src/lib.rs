//! `oxport._native`: thin wrappers that turn Python objects into the
//! library's types, release the GIL around the work, and map errors.

mod buffers;

use std::borrow::Cow;
use std::path::PathBuf;

use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyOSError, PyValueError};
use pyo3::prelude::*;

use buffers::{Array, float_rows, index_rows};

create_exception!(
    _native,
    Error,
    PyException,
    "Base class of oxport's errors."
);
create_exception!(
    _native,
    ParseError,
    Error,
    "Text input that does not parse."
);
create_exception!(
    _native,
    CorruptError,
    Error,
    "Binary input that is damaged or truncated."
);
create_exception!(
    _native,
    UnsupportedError,
    Error,
    "Valid input that oxport does not handle yet."
);

fn to_py_err(error: oxport::Error) -> PyErr {
    match error {
        oxport::Error::Io { path, source } => {
            // OSError(errno, strerror, filename) makes Python pick the subclass
            // (FileNotFoundError, PermissionError...) as for its own I/O.
            let errno = source.raw_os_error().unwrap_or(0);
            let text = source.to_string();
            let message = text
                .strip_suffix(&format!(" (os error {errno})"))
                .unwrap_or(&text)
                .to_string();
            match path {
                Some(path) => PyOSError::new_err((errno, message, path.into_os_string())),
                None => PyOSError::new_err((errno, message)),
            }
        }
        oxport::Error::InvalidArgument(reason) => PyValueError::new_err(reason.into_owned()),
        error @ oxport::Error::Parse { .. } => ParseError::new_err(error.to_string()),
        error @ oxport::Error::Corrupt { .. } => CorruptError::new_err(error.to_string()),
        error @ oxport::Error::Unsupported(_) => UnsupportedError::new_err(error.to_string()),
        // Internal errors (a bug) and any kind added later: the base class.
        error => Error::new_err(error.to_string()),
    }
}

/// A mesh whose arrays are the caller's own memory (see `oxport.Mesh`).
#[pyclass(frozen, module = "oxport._native")]
pub struct Mesh {
    name: String,
    positions: Array<[f32; 3]>,
    face_offsets: Array<[u32; 1]>,
    position_indices: Array<[u32; 1]>,
    uvs: Option<Array<[f32; 2]>>,
    uv_indices: Option<Array<[u32; 1]>>,
    normals: Option<Array<[f32; 3]>>,
    normal_indices: Option<Array<[u32; 1]>>,
    colors: Option<Array<[f32; 3]>>,
    smooth: Option<Array<[u32; 1]>>,
    materials: Vec<String>,
    material_indices: Option<Array<[u32; 1]>>,
    groups: Vec<String>,
    group_indices: Option<Array<[u32; 1]>>,
    edges: Option<Array<[u32; 2]>>,
    /// The objects as given, returned by the attribute getters.
    objects: Vec<Option<Py<PyAny>>>,
}

fn flat(array: &Array<[u32; 1]>) -> &[u32] {
    array.as_slice().as_flattened()
}

impl Mesh {
    /// A borrowed view in the library's model.
    fn view(&self) -> oxport::Mesh<'_> {
        oxport::Mesh {
            name: Cow::Borrowed(&self.name),
            positions: Cow::Borrowed(self.positions.as_slice()),
            colors: self.colors.as_ref().map(|a| Cow::Borrowed(a.as_slice())),
            uvs: self.uvs.as_ref().map(|a| Cow::Borrowed(a.as_slice())),
            normals: self.normals.as_ref().map(|a| Cow::Borrowed(a.as_slice())),
            face_offsets: Cow::Borrowed(flat(&self.face_offsets)),
            position_indices: Cow::Borrowed(flat(&self.position_indices)),
            uv_indices: self.uv_indices.as_ref().map(|a| Cow::Borrowed(flat(a))),
            normal_indices: self.normal_indices.as_ref().map(|a| Cow::Borrowed(flat(a))),
            smooth: self.smooth.as_ref().map(|a| Cow::Borrowed(flat(a))),
            materials: self
                .materials
                .iter()
                .map(|m| Cow::Borrowed(m.as_str()))
                .collect(),
            material_indices: self
                .material_indices
                .as_ref()
                .map(|a| Cow::Borrowed(flat(a))),
            groups: self
                .groups
                .iter()
                .map(|g| Cow::Borrowed(g.as_str()))
                .collect(),
            group_indices: self.group_indices.as_ref().map(|a| Cow::Borrowed(flat(a))),
            edges: self.edges.as_ref().map(|a| Cow::Borrowed(a.as_slice())),
        }
    }
}

fn optional<'py, T>(
    object: &Option<Bound<'py, PyAny>>,
    convert: impl FnOnce(&Bound<'py, PyAny>) -> PyResult<T>,
) -> PyResult<Option<T>> {
    object
        .as_ref()
        .filter(|o| !o.is_none())
        .map(convert)
        .transpose()
}

const FIELDS: [&str; 14] = [
    "positions",
    "face_offsets",
    "position_indices",
    "uvs",
    "uv_indices",
    "normals",
    "normal_indices",
    "colors",
    "smooth",
    "materials",
    "material_indices",
    "groups",
    "group_indices",
    "edges",
];

#[pymethods]
impl Mesh {
    #[new]
    #[pyo3(signature = (name, positions, face_offsets, position_indices, *, uvs=None, uv_indices=None,
        normals=None, normal_indices=None, colors=None, smooth=None, materials=None,
        material_indices=None, groups=None, group_indices=None, edges=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        name: String,
        positions: Bound<'_, PyAny>,
        face_offsets: Bound<'_, PyAny>,
        position_indices: Bound<'_, PyAny>,
        uvs: Option<Bound<'_, PyAny>>,
        uv_indices: Option<Bound<'_, PyAny>>,
        normals: Option<Bound<'_, PyAny>>,
        normal_indices: Option<Bound<'_, PyAny>>,
        colors: Option<Bound<'_, PyAny>>,
        smooth: Option<Bound<'_, PyAny>>,
        materials: Option<Bound<'_, PyAny>>,
        material_indices: Option<Bound<'_, PyAny>>,
        groups: Option<Bound<'_, PyAny>>,
        group_indices: Option<Bound<'_, PyAny>>,
        edges: Option<Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let names = |object: &Option<Bound<'_, PyAny>>, what: &str| -> PyResult<Vec<String>> {
            match object {
                Some(m) if !m.is_none() => m.extract().map_err(|_| {
                    PyValueError::new_err(format!("{what}: expected a list of {what} names (str)"))
                }),
                _ => Ok(Vec::new()),
            }
        };
        let material_names = names(&materials, "materials")?;
        let group_names = names(&groups, "groups")?;
        let keep = |o: &Option<Bound<'_, PyAny>>| {
            o.as_ref()
                .filter(|o| !o.is_none())
                .map(|o| o.clone().unbind())
        };
        let objects = vec![
            Some(positions.clone().unbind()),
            Some(face_offsets.clone().unbind()),
            Some(position_indices.clone().unbind()),
            keep(&uvs),
            keep(&uv_indices),
            keep(&normals),
            keep(&normal_indices),
            keep(&colors),
            keep(&smooth),
            keep(&materials),
            keep(&material_indices),
            keep(&groups),
            keep(&group_indices),
            keep(&edges),
        ];
        let mesh = Mesh {
            name,
            positions: float_rows(&positions, "positions")?,
            face_offsets: index_rows(&face_offsets, "face_offsets")?,
            position_indices: index_rows(&position_indices, "position_indices")?,
            uvs: optional(&uvs, |o| float_rows(o, "uvs"))?,
            uv_indices: optional(&uv_indices, |o| index_rows(o, "uv_indices"))?,
            normals: optional(&normals, |o| float_rows(o, "normals"))?,
            normal_indices: optional(&normal_indices, |o| index_rows(o, "normal_indices"))?,
            colors: optional(&colors, |o| float_rows(o, "colors"))?,
            smooth: optional(&smooth, |o| index_rows(o, "smooth"))?,
            materials: material_names,
            material_indices: optional(&material_indices, |o| index_rows(o, "material_indices"))?,
            groups: group_names,
            group_indices: optional(&group_indices, |o| index_rows(o, "group_indices"))?,
            edges: optional(&edges, |o| index_rows(o, "edges"))?,
            objects,
        };
        mesh.view().validate().map_err(to_py_err)?;
        Ok(mesh)
    }

    #[getter]
    fn name(&self) -> &str {
        &self.name
    }

    /// The array given for `field` (one of the constructor's arguments), or
    /// for meshes made by oxport a read-only numpy array of its own memory
    /// (no copy); None where the mesh has none.
    fn field(slf: &Bound<'_, Self>, field: &str) -> PyResult<Option<Py<PyAny>>> {
        let py = slf.py();
        let this = slf.get();
        let i = FIELDS
            .iter()
            .position(|f| *f == field)
            .ok_or_else(|| PyValueError::new_err(format!("no field {field:?}")))?;
        if let Some(object) = &this.objects[i] {
            return Ok(Some(object.clone_ref(py)));
        }
        let view = this.view();
        let floats = |values: &[f32], width: usize| numpy_view(slf, values, width);
        let ints = |values: &[u32], width: usize| numpy_view(slf, values, width);
        Ok(match field {
            "positions" => Some(floats(view.positions.as_flattened(), 3)?),
            "face_offsets" => Some(ints(&view.face_offsets, 1)?),
            "position_indices" => Some(ints(&view.position_indices, 1)?),
            "uvs" => view
                .uvs
                .as_ref()
                .map(|v| floats(v.as_flattened(), 2))
                .transpose()?,
            "uv_indices" => view.uv_indices.as_ref().map(|v| ints(v, 1)).transpose()?,
            "normals" => view
                .normals
                .as_ref()
                .map(|v| floats(v.as_flattened(), 3))
                .transpose()?,
            "normal_indices" => view
                .normal_indices
                .as_ref()
                .map(|v| ints(v, 1))
                .transpose()?,
            "colors" => view
                .colors
                .as_ref()
                .map(|v| floats(v.as_flattened(), 3))
                .transpose()?,
            "smooth" => view.smooth.as_ref().map(|v| ints(v, 1)).transpose()?,
            "material_indices" => view
                .material_indices
                .as_ref()
                .map(|v| ints(v, 1))
                .transpose()?,
            "group_indices" => view
                .group_indices
                .as_ref()
                .map(|v| ints(v, 1))
                .transpose()?,
            "edges" => view
                .edges
                .as_ref()
                .map(|v| ints(v.as_flattened(), 2))
                .transpose()?,
            "materials" if !this.materials.is_empty() => Some(
                this.materials
                    .clone()
                    .into_pyobject(py)?
                    .into_any()
                    .unbind(),
            ),
            "groups" if !this.groups.is_empty() => {
                Some(this.groups.clone().into_pyobject(py)?.into_any().unbind())
            }
            _ => None,
        })
    }

    fn face_count(&self) -> usize {
        self.view().face_count()
    }

    /// A copy of this mesh with `edges` as its loose edges.
    fn with_edges(&self, py: Python<'_>, edges: Bound<'_, PyAny>) -> PyResult<Mesh> {
        let edges = index_rows::<2>(&edges, "edges")?;
        let mesh = py.detach(|| {
            let mut copy = self.view().into_owned();
            copy.edges = Some(edges.as_slice().to_vec().into());
            copy.validate().map(|()| copy)
        });
        Ok(Mesh::from_owned(mesh.map_err(to_py_err)?))
    }

    fn __repr__(&self) -> String {
        let view = self.view();
        format!(
            "Mesh({:?}, {} vertices, {} faces)",
            self.name,
            view.positions.len(),
            view.face_count()
        )
    }
}

/// The element types of a mesh's arrays: plain values without padding, with
/// their `struct` format.
trait Plain: numpy::Element {
    const FORMAT: &'static str;
}

impl Plain for f32 {
    const FORMAT: &'static str = "f";
}

impl Plain for u32 {
    const FORMAT: &'static str = "I";
}

/// A read-only numpy array of `values` (rows of `width`), which `owner`'s
/// memory backs: no copy. Where numpy cannot be imported (Blender builds
/// without it), a read-only `memoryview` of a copy.
fn numpy_view<T: Plain>(
    owner: &Bound<'_, Mesh>,
    values: &[T],
    width: usize,
) -> PyResult<Py<PyAny>> {
    use numpy::ndarray::{ArrayView1, ArrayView2};
    use numpy::{PyArray1, PyArray2};
    static NUMPY: pyo3::sync::PyOnceLock<bool> = pyo3::sync::PyOnceLock::new();
    let py = owner.py();
    let shape: Vec<usize> = if width == 1 {
        vec![values.len()]
    } else {
        vec![values.len() / width, width]
    };
    if !*NUMPY.get_or_init(py, || py.import("numpy").is_ok()) {
        // SAFETY: `Plain` values have no padding: every byte is initialized.
        let bytes = unsafe {
            std::slice::from_raw_parts(values.as_ptr().cast::<u8>(), std::mem::size_of_val(values))
        };
        let view = pyo3::types::PyMemoryView::from(&pyo3::types::PyBytes::new(py, bytes))?;
        return Ok(view.call_method1("cast", (T::FORMAT, shape))?.unbind());
    }
    let container = owner.clone().into_any();
    // SAFETY: the arrays of a (frozen) `Mesh` are never changed nor moved
    // while it lives, and the numpy array keeps it alive.
    let array = if width == 1 {
        let view = ArrayView1::from(values);
        unsafe { PyArray1::borrow_from_array(&view, container) }.into_any()
    } else {
        let view = ArrayView2::from_shape((shape[0], width), values)
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        unsafe { PyArray2::borrow_from_array(&view, container) }.into_any()
    };
    let kwargs = pyo3::types::PyDict::new(py);
    kwargs.set_item("write", false)?;
    array.call_method("setflags", (), Some(&kwargs))?;
    Ok(array.unbind())
}

impl Mesh {
    /// A mesh that owns its arrays (made by oxport, not given by Python).
    fn from_owned(mesh: oxport::Mesh<'static>) -> Self {
        fn own<T: Clone>(values: std::borrow::Cow<'static, [T]>) -> Array<T> {
            Array::Owned(values.into_owned())
        }
        fn own_flat(values: std::borrow::Cow<'static, [u32]>) -> Array<[u32; 1]> {
            let mut values = std::mem::ManuallyDrop::new(values.into_owned());
            let (pointer, len, capacity) = (values.as_mut_ptr(), values.len(), values.capacity());
            // SAFETY: the allocation of a `Vec<u32>` taken whole (`values` is
            // not dropped); `[u32; 1]` has the size and alignment of `u32`.
            Array::Owned(unsafe { Vec::from_raw_parts(pointer.cast::<[u32; 1]>(), len, capacity) })
        }
        Mesh {
            name: mesh.name.into_owned(),
            positions: own(mesh.positions),
            face_offsets: own_flat(mesh.face_offsets),
            position_indices: own_flat(mesh.position_indices),
            uvs: mesh.uvs.map(own),
            uv_indices: mesh.uv_indices.map(own_flat),
            normals: mesh.normals.map(own),
            normal_indices: mesh.normal_indices.map(own_flat),
            colors: mesh.colors.map(own),
            smooth: mesh.smooth.map(own_flat),
            materials: mesh.materials.into_iter().map(|m| m.into_owned()).collect(),
            material_indices: mesh.material_indices.map(own_flat),
            groups: mesh.groups.into_iter().map(|g| g.into_owned()).collect(),
            group_indices: mesh.group_indices.map(own_flat),
            edges: mesh.edges.map(own),
            objects: (0..FIELDS.len()).map(|_| None).collect(),
        }
    }
}

fn matrix<const N: usize>(object: &Bound<'_, PyAny>, name: &str) -> PyResult<[[f32; N]; N]> {
    let rows: Vec<Vec<f32>> = object
        .extract()
        .map_err(|_| PyValueError::new_err(format!("{name}: expected {N} rows of {N} numbers")))?;
    let mut m = [[0.0f32; N]; N];
    if rows.len() != N || rows.iter().any(|r| r.len() != N) {
        return Err(PyValueError::new_err(format!(
            "{name}: expected {N} rows of {N} numbers"
        )));
    }
    for (i, row) in rows.iter().enumerate() {
        m[i].copy_from_slice(row);
    }
    Ok(m)
}

/// The arrays of one gathered Blender mesh, taken from a dict of
/// `oxport.blender.mesh`'s arguments.
struct GatheredArrays {
    name: String,
    transform: oxport::blender::Matrix4,
    scale: f32,
    positions: Array<[f32; 3]>,
    corner_vertices: Array<[u32; 1]>,
    face_starts: Array<[u32; 1]>,
    corner_normals: Option<Array<[f32; 3]>>,
    vertex_normals: Option<Array<[f32; 3]>>,
    corner_uvs: Option<Array<[f32; 2]>>,
    smooth: Option<Array<[u32; 1]>>,
    material_indices: Option<Array<[u32; 1]>>,
    materials: Vec<String>,
    edges: Option<Array<[u32; 2]>>,
    vertex_colors: Option<Array<[f32; 4]>>,
    corner_colors: Option<Array<[f32; 4]>>,
    corner_colors_srgb8: Option<Array<[f32; 4]>>,
    corner_edges: Option<Array<[u32; 1]>>,
    sharp_edges: Option<Array<[u32; 1]>>,
    smooth_group_bitflags: bool,
    material_groups: Option<String>,
    vertex_group_names: Option<Vec<String>>,
    vertex_group_offsets: Option<Array<[u32; 1]>>,
    vertex_group_indices: Option<Array<[u32; 1]>>,
    vertex_group_weights: Option<Array<[f32; 1]>>,
}

/// The optional float array `key` of a dict (absent or None: None).
fn item_floats<const N: usize>(
    item: &Bound<'_, pyo3::types::PyDict>,
    key: &str,
) -> PyResult<Option<Array<[f32; N]>>> {
    optional(&item.get_item(key)?, |o| float_rows(o, key))
}

/// The optional index array `key` of a dict (absent or None: None).
fn item_indices<const N: usize>(
    item: &Bound<'_, pyo3::types::PyDict>,
    key: &str,
) -> PyResult<Option<Array<[u32; N]>>> {
    optional(&item.get_item(key)?, |o| index_rows(o, key))
}

impl GatheredArrays {
    fn from_dict(item: &Bound<'_, pyo3::types::PyDict>) -> PyResult<Self> {
        let required = |key: &str| {
            item.get_item(key)?
                .ok_or_else(|| PyValueError::new_err(format!("{key}: missing")))
        };
        let optional_item = |key: &str| -> PyResult<Option<Bound<'_, PyAny>>> {
            Ok(item.get_item(key)?.filter(|o| !o.is_none()))
        };
        let world = matrix::<4>(&required("world")?, "world")?;
        let axes = matrix::<3>(&required("axes")?, "axes")?;
        let corner_normals = item_floats(item, "corner_normals")?;
        let vertex_normals = item_floats(item, "vertex_normals")?;
        if corner_normals.is_some() && vertex_normals.is_some() {
            return Err(PyValueError::new_err(
                "corner_normals and vertex_normals: give one or the other",
            ));
        }
        Ok(GatheredArrays {
            name: required("name")?.extract()?,
            transform: oxport::blender::world_and_axes_transform(&axes, &world),
            scale: optional_item("scale")?.map_or(Ok(1.0), |s| s.extract())?,
            positions: float_rows(&required("positions")?, "positions")?,
            corner_vertices: index_rows(&required("corner_vertices")?, "corner_vertices")?,
            face_starts: index_rows(&required("face_starts")?, "face_starts")?,
            corner_normals,
            vertex_normals,
            corner_uvs: item_floats(item, "corner_uvs")?,
            smooth: item_indices(item, "smooth")?,
            material_indices: item_indices(item, "material_indices")?,
            materials: optional_item("materials")?.map_or(Ok(Vec::new()), |m| m.extract())?,
            edges: item_indices(item, "edges")?,
            vertex_colors: item_floats(item, "vertex_colors")?,
            corner_colors: item_floats(item, "corner_colors")?,
            corner_colors_srgb8: item_floats(item, "corner_colors_srgb8")?,
            corner_edges: item_indices(item, "corner_edges")?,
            sharp_edges: item_indices(item, "sharp_edges")?,
            smooth_group_bitflags: optional_item("smooth_group_bitflags")?
                .map_or(Ok(false), |b| b.extract())?,
            material_groups: optional_item("material_groups")?
                .map(|o| o.extract())
                .transpose()?,
            vertex_group_names: optional_item("vertex_group_names")?
                .map(|o| o.extract())
                .transpose()?,
            vertex_group_offsets: item_indices(item, "vertex_group_offsets")?,
            vertex_group_indices: item_indices(item, "vertex_group_indices")?,
            vertex_group_weights: item_floats(item, "vertex_group_weights")?,
        })
    }

    fn gathered(&self) -> oxport::blender::Gathered<'_> {
        use oxport::blender::NormalSource;
        let normals = match (&self.corner_normals, &self.vertex_normals) {
            (Some(c), _) => Some(NormalSource::Corners(c.as_slice())),
            (None, Some(v)) => Some(NormalSource::Vertices(v.as_slice())),
            (None, None) => None,
        };
        fn flat(a: &Array<[u32; 1]>) -> &[u32] {
            a.as_slice().as_flattened()
        }
        oxport::blender::Gathered {
            name: self.name.clone(),
            transform: Some(self.transform),
            scale: self.scale,
            positions: self.positions.as_slice(),
            corner_vertices: flat(&self.corner_vertices),
            face_starts: flat(&self.face_starts),
            normals,
            corner_uvs: self.corner_uvs.as_ref().map(|a| a.as_slice()),
            smooth: self.smooth.as_ref().map(flat),
            material_indices: self.material_indices.as_ref().map(flat),
            materials: self.materials.clone(),
            edges: self.edges.as_ref().map(|a| a.as_slice()),
            vertex_colors: self.vertex_colors.as_ref().map(|a| a.as_slice()),
            corner_colors: self.corner_colors.as_ref().map(|a| a.as_slice()),
            corner_colors_srgb8: self.corner_colors_srgb8.as_ref().map(|a| a.as_slice()),
            smooth_groups: match (&self.corner_edges, &self.sharp_edges) {
                (Some(corner_edges), Some(sharp_edges)) => {
                    Some(oxport::blender::SmoothGroupInput {
                        corner_edges: flat(corner_edges),
                        sharp_edges: flat(sharp_edges),
                        bitflags: self.smooth_group_bitflags,
                    })
                }
                _ => None,
            },
            material_groups: self.material_groups.clone(),
            vertex_groups: match (
                &self.vertex_group_names,
                &self.vertex_group_offsets,
                &self.vertex_group_indices,
                &self.vertex_group_weights,
            ) {
                (Some(names), Some(offsets), Some(groups), Some(weights)) => {
                    Some(oxport::blender::VertexGroupInput {
                        names: names.clone(),
                        offsets: flat(offsets),
                        groups: flat(groups),
                        weights: weights.as_slice().as_flattened(),
                    })
                }
                _ => None,
            },
        }
    }
}

/// The meshes Blender 3.4's OBJ exporter writes for evaluated Blender meshes,
/// each given as a dict of `oxport.blender.mesh`'s arguments (with the
/// matrices in Blender's layout); built in parallel without the GIL.
#[pyfunction]
fn blender_meshes(
    py: Python<'_>,
    items: Vec<Bound<'_, pyo3::types::PyDict>>,
) -> PyResult<Vec<Mesh>> {
    let arrays = items
        .iter()
        .enumerate()
        .map(|(i, item)| {
            GatheredArrays::from_dict(item)
                .map_err(|e| PyValueError::new_err(format!("mesh {i}: {}", e.value(py))))
        })
        .collect::<PyResult<Vec<_>>>()?;
    let meshes = py.detach(|| {
        use rayon::prelude::*;
        arrays
            .par_iter()
            .map(|a| oxport::blender::mesh(&a.gathered()))
            .collect::<oxport::Result<Vec<_>>>()
    });
    Ok(meshes
        .map_err(to_py_err)?
        .into_iter()
        .map(Mesh::from_owned)
        .collect())
}

/// What `read_obj` gives Python: meshes, mtllib texts, header lines, skipped
/// statements, and the MTL files found beside it.
type SceneParts = (Vec<Mesh>, Vec<String>, Vec<String>, u64, Vec<PathBuf>);

/// Reads an OBJ file on all cores.
#[pyfunction]
#[pyo3(signature = (path, *, threads, strict))]
fn read_obj(
    py: Python<'_>,
    path: PathBuf,
    threads: Option<usize>,
    strict: bool,
) -> PyResult<SceneParts> {
    if threads == Some(0) {
        return Err(PyValueError::new_err(
            "threads: must be at least 1 (or None for one per core)",
        ));
    }
    let options = oxport::obj::ReadOptions { threads, strict };
    let scene = py
        .detach(|| oxport::obj::read(&path, &options))
        .map_err(to_py_err)?;
    let meshes = scene.meshes.into_iter().map(Mesh::from_owned).collect();
    let mtl_files = oxport::obj::mtl_files(&path, &scene.mtllibs);
    Ok((
        meshes,
        scene.mtllibs,
        scene.header,
        scene.skipped,
        mtl_files,
    ))
}

/// Reads an MTL file: (materials as dicts of `oxport.Material`'s fields, header lines).
#[pyfunction]
fn read_mtl<'py>(
    py: Python<'py>,
    path: PathBuf,
) -> PyResult<(Vec<Bound<'py, pyo3::types::PyDict>>, Vec<String>)> {
    let library = py
        .detach(|| oxport::obj::read_mtl(&path))
        .map_err(to_py_err)?;
    let materials = library
        .materials
        .into_iter()
        .map(|m| {
            let dict = pyo3::types::PyDict::new(py);
            dict.set_item("name", m.name)?;
            dict.set_item("specular_exponent", m.specular_exponent)?;
            dict.set_item("ambient", m.ambient)?;
            dict.set_item("diffuse", m.diffuse)?;
            dict.set_item("specular", m.specular)?;
            dict.set_item("emissive", m.emissive)?;
            dict.set_item("ior", m.ior)?;
            dict.set_item("dissolve", m.dissolve)?;
            dict.set_item("illum", m.illum)?;
            dict.set_item("statements", m.statements)?;
            let maps: Vec<(String, String, String)> = m
                .maps
                .into_iter()
                .map(|t| (t.key, t.path, t.options))
                .collect();
            dict.set_item("maps", maps)?;
            Ok(dict)
        })
        .collect::<PyResult<Vec<_>>>()?;
    Ok((materials, library.header))
}

/// How many of `edge_count` edges no corner uses (`oxport.blender.unused_edges`).
#[pyfunction]
fn blender_unused_edges(
    py: Python<'_>,
    corner_edges: &Bound<'_, PyAny>,
    edge_count: usize,
) -> PyResult<usize> {
    let corner_edges = index_rows::<1>(corner_edges, "corner_edges")?;
    py.detach(|| oxport::blender::unused_edges(corner_edges.as_slice().as_flattened(), edge_count))
        .map_err(to_py_err)
}

/// `Precision` from `int` (0 to 9) or `"shortest"`.
fn precision(object: &Bound<'_, PyAny>, name: &str) -> PyResult<oxport::obj::Precision> {
    if let Ok(text) = object.extract::<String>() {
        if text == "shortest" {
            return Ok(oxport::obj::Precision::Shortest);
        }
    } else if let Ok(p) = object.extract::<u8>()
        && p <= 9
    {
        return Ok(oxport::obj::Precision::Fixed(p));
    }
    Err(PyValueError::new_err(format!(
        "{name}: expected an integer from 0 to 9 or \"shortest\", got {}",
        object.repr().map_or_else(|_| "?".into(), |r| r.to_string())
    )))
}

/// `WriteOptions` from the dict the facade builds (the keyword arguments of
/// `oxport.write_obj` and `oxport.ObjWriter`).
fn write_options(options: &Bound<'_, pyo3::types::PyDict>) -> PyResult<oxport::obj::WriteOptions> {
    let get = |key: &str| -> PyResult<Bound<'_, PyAny>> {
        options
            .get_item(key)?
            .ok_or_else(|| PyValueError::new_err(format!("{key}: missing")))
    };
    let flag = |key: &str| -> PyResult<bool> { get(key)?.extract() };
    let threads: Option<usize> = get("threads")?
        .extract()
        .map_err(|_| PyValueError::new_err("threads: expected a positive integer or None"))?;
    if threads == Some(0) {
        return Err(PyValueError::new_err(
            "threads: must be at least 1 (or None for one per core)",
        ));
    }
    Ok(oxport::obj::WriteOptions {
        precision: precision(&get("precision")?, "precision")?,
        uv_precision: precision(&get("uv_precision")?, "uv_precision")?,
        normal_precision: precision(&get("normal_precision")?, "normal_precision")?,
        color_precision: precision(&get("color_precision")?, "color_precision")?,
        normals: flag("normals")?,
        uvs: flag("uvs")?,
        colors: flag("colors")?,
        materials: flag("materials")?,
        object_groups: flag("object_groups")?,
        deduplicate_normals: flag("deduplicate_normals")?,
        deduplicate_uvs: flag("deduplicate_uvs")?,
        header: get("header")?.extract()?,
        mtllib: get("mtllib")?.extract()?,
        threads,
        direct: flag("direct")?,
        ..Default::default()
    })
}

type Summary = (u64, u64, u64, u64, usize);

fn summary_tuple(s: oxport::obj::WriteSummary) -> Summary {
    (s.bytes, s.objects, s.vertices, s.faces, s.threads)
}

/// Writes meshes as OBJ; see `oxport.write_obj`. Returns
/// `(bytes, objects, vertices, faces, threads)`.
#[pyfunction]
fn write_obj(
    py: Python<'_>,
    path: PathBuf,
    meshes: Vec<Bound<'_, Mesh>>,
    options: Bound<'_, pyo3::types::PyDict>,
) -> PyResult<Summary> {
    let options = write_options(&options)?;
    let meshes: Vec<&Mesh> = meshes.iter().map(|m| m.get()).collect();
    let views: Vec<oxport::Mesh> = meshes.iter().map(|m| m.view()).collect();
    let summary = py
        .detach(|| oxport::obj::write(&path, &views, &options))
        .map_err(to_py_err)?;
    Ok(summary_tuple(summary))
}

/// An OBJ file written batch after batch; see `oxport.ObjWriter`.
#[pyclass(module = "oxport._native")]
pub struct ObjWriter {
    writer: std::sync::Mutex<Option<oxport::obj::FileWriter>>,
}

#[pymethods]
impl ObjWriter {
    #[new]
    fn new(
        py: Python<'_>,
        path: PathBuf,
        options: Bound<'_, pyo3::types::PyDict>,
    ) -> PyResult<Self> {
        let options = write_options(&options)?;
        let writer = py
            .detach(|| oxport::obj::FileWriter::create(&path, options))
            .map_err(to_py_err)?;
        Ok(ObjWriter {
            writer: std::sync::Mutex::new(Some(writer)),
        })
    }

    /// Writes `meshes` after those already written.
    fn write(&self, py: Python<'_>, meshes: Vec<Bound<'_, Mesh>>) -> PyResult<()> {
        let meshes: Vec<&Mesh> = meshes.iter().map(|m| m.get()).collect();
        let views: Vec<oxport::Mesh> = meshes.iter().map(|m| m.view()).collect();
        py.detach(|| {
            let mut guard = self.writer.lock().unwrap_or_else(|e| e.into_inner());
            match guard.as_mut() {
                Some(writer) => writer.write(&views).map_err(to_py_err),
                None => Err(PyValueError::new_err("the writer is closed")),
            }
        })
    }

    /// Completes the file under its name; returns `(bytes, objects, vertices, faces, threads)`.
    fn write_text(&self, py: Python<'_>, text: &str) -> PyResult<()> {
        py.detach(|| {
            let mut guard = self.writer.lock().unwrap_or_else(|e| e.into_inner());
            match guard.as_mut() {
                Some(writer) => writer.write_text(text).map_err(to_py_err),
                None => Err(PyValueError::new_err("the writer is closed")),
            }
        })
    }

    fn close(&self, py: Python<'_>) -> PyResult<Summary> {
        let writer = self.writer.lock().unwrap_or_else(|e| e.into_inner()).take();
        let writer = writer.ok_or_else(|| PyValueError::new_err("the writer is closed"))?;
        let summary = py.detach(|| writer.finish()).map_err(to_py_err)?;
        Ok(summary_tuple(summary))
    }

    /// Gives up: the temporary file is removed, nothing appears under the name.
    fn abort(&self) {
        drop(self.writer.lock().unwrap_or_else(|e| e.into_inner()).take());
    }
}

/// Writes an MTL file. `materials` is a list of objects with the attributes of
/// `oxport.Material`.
#[pyfunction]
#[pyo3(signature = (path, materials, *, header))]
fn write_mtl(
    py: Python<'_>,
    path: PathBuf,
    materials: Vec<Bound<'_, PyAny>>,
    header: Vec<String>,
) -> PyResult<()> {
    let materials = materials
        .iter()
        .enumerate()
        .map(|(i, m)| {
            material(m).map_err(|e| PyValueError::new_err(format!("materials[{i}]: {e}")))
        })
        .collect::<PyResult<Vec<_>>>()?;
    py.detach(|| oxport::obj::write_mtl(&path, &materials, &header))
        .map_err(to_py_err)
}

fn material(object: &Bound<'_, PyAny>) -> PyResult<oxport::Material> {
    let get = |name: &str| object.getattr(name);
    let maps = get("maps")?
        .try_iter()?
        .map(|map| {
            let map = map?;
            Ok(oxport::TextureMap {
                key: map.getattr("key")?.extract()?,
                options: map.getattr("options")?.extract()?,
                path: map.getattr("path")?.extract()?,
            })
        })
        .collect::<PyResult<Vec<_>>>()?;
    Ok(oxport::Material {
        name: get("name")?.extract()?,
        specular_exponent: get("specular_exponent")?.extract()?,
        ambient: get("ambient")?.extract()?,
        diffuse: get("diffuse")?.extract()?,
        specular: get("specular")?.extract()?,
        emissive: get("emissive")?.extract()?,
        ior: get("ior")?.extract()?,
        dissolve: get("dissolve")?.extract()?,
        illum: get("illum")?.extract()?,
        statements: get("statements")?.extract()?,
        maps,
    })
}

/// Formats `values` (a float32 or float64 buffer) with `precision` decimals,
/// exactly as C's `printf("%.Nf")`, one value per line; for tests and benchmarks.
#[pyfunction]
fn format_fixed(py: Python<'_>, values: Bound<'_, PyAny>, precision: usize) -> PyResult<Vec<u8>> {
    if precision > oxport::numfmt::MAX_PRECISION {
        return Err(PyValueError::new_err("precision: must be 0 to 9"));
    }
    let buffer = pyo3::buffer::PyUntypedBuffer::get(&values)?;
    let mut out = Vec::new();
    match pyo3::buffer::ElementType::from_format(buffer.format()) {
        pyo3::buffer::ElementType::Float { bytes: 4 } => {
            let values = buffer.into_typed::<f32>()?.to_vec(py)?;
            for v in values {
                oxport::numfmt::write_fixed(&mut out, v, precision);
                out.push(b'\n');
            }
        }
        pyo3::buffer::ElementType::Float { bytes: 8 } => {
            let values = buffer.into_typed::<f64>()?.to_vec(py)?;
            for v in values {
                oxport::numfmt::write_fixed(&mut out, v, precision);
                out.push(b'\n');
            }
        }
        _ => return Err(PyValueError::new_err("values: expected float32 or float64")),
    }
    Ok(out)
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_class::<Mesh>()?;
    m.add_class::<ObjWriter>()?;
    m.add_function(wrap_pyfunction!(write_obj, m)?)?;
    m.add_function(wrap_pyfunction!(read_obj, m)?)?;
    m.add_function(wrap_pyfunction!(read_mtl, m)?)?;
    m.add_function(wrap_pyfunction!(write_mtl, m)?)?;
    m.add_function(wrap_pyfunction!(format_fixed, m)?)?;
    m.add_function(wrap_pyfunction!(blender_meshes, m)?)?;
    m.add_function(wrap_pyfunction!(blender_unused_edges, m)?)?;
    m.add("Error", py.get_type::<Error>())?;
    m.add("ParseError", py.get_type::<ParseError>())?;
    m.add("CorruptError", py.get_type::<CorruptError>())?;
    m.add("UnsupportedError", py.get_type::<UnsupportedError>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
