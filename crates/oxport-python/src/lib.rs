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

const FIELDS: [&str; 12] = [
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
    "edges",
];

#[pymethods]
impl Mesh {
    #[new]
    #[pyo3(signature = (name, positions, face_offsets, position_indices, *, uvs=None, uv_indices=None,
        normals=None, normal_indices=None, colors=None, smooth=None, materials=None,
        material_indices=None, edges=None))]
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
        edges: Option<Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let material_names: Vec<String> = match &materials {
            Some(m) if !m.is_none() => m.extract().map_err(|_| {
                PyValueError::new_err("materials: expected a list of material names (str)")
            })?,
            _ => Vec::new(),
        };
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
    /// for meshes made by oxport a read-only `memoryview` of its own array; None
    /// where the mesh has none.
    fn field(&self, py: Python<'_>, field: &str) -> PyResult<Option<Py<PyAny>>> {
        let i = FIELDS
            .iter()
            .position(|f| *f == field)
            .ok_or_else(|| PyValueError::new_err(format!("no field {field:?}")))?;
        if let Some(object) = &self.objects[i] {
            return Ok(Some(object.clone_ref(py)));
        }
        let view = self.view();
        let floats = |values: &[f32], width: usize| {
            owned_view(py, bytemuck_f32(values), "f", values.len() / width, width)
        };
        let ints = |values: &[u32], width: usize| {
            owned_view(py, bytemuck_u32(values), "I", values.len() / width, width)
        };
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
            "edges" => view
                .edges
                .as_ref()
                .map(|v| ints(v.as_flattened(), 2))
                .transpose()?,
            "materials" if !self.materials.is_empty() => Some(
                self.materials
                    .clone()
                    .into_pyobject(py)?
                    .into_any()
                    .unbind(),
            ),
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
            let view = self.view();
            let owned = |v: &[u32]| std::borrow::Cow::Owned(v.to_vec());
            let copy = oxport::Mesh {
                name: view.name.into_owned().into(),
                positions: view.positions.into_owned().into(),
                colors: view.colors.map(|c| c.into_owned().into()),
                uvs: view.uvs.map(|u| u.into_owned().into()),
                normals: view.normals.map(|n| n.into_owned().into()),
                face_offsets: owned(&view.face_offsets),
                position_indices: owned(&view.position_indices),
                uv_indices: view.uv_indices.as_deref().map(owned),
                normal_indices: view.normal_indices.as_deref().map(owned),
                smooth: view.smooth.as_deref().map(owned),
                materials: view
                    .materials
                    .iter()
                    .map(|m| m.to_string().into())
                    .collect(),
                material_indices: view.material_indices.as_deref().map(owned),
                edges: Some(edges.as_slice().to_vec().into()),
            };
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

fn bytemuck_f32(values: &[f32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_ne_bytes()).collect()
}

fn bytemuck_u32(values: &[u32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_ne_bytes()).collect()
}

/// A read-only `memoryview` of `bytes` with the given format and shape.
fn owned_view(
    py: Python<'_>,
    bytes: Vec<u8>,
    format: &str,
    rows: usize,
    width: usize,
) -> PyResult<Py<PyAny>> {
    let bytes = pyo3::types::PyBytes::new(py, &bytes);
    let view = py
        .import("builtins")?
        .getattr("memoryview")?
        .call1((bytes,))?;
    let shape: Vec<usize> = if width == 1 {
        vec![rows]
    } else {
        vec![rows, width]
    };
    Ok(view.call_method1("cast", (format, shape))?.unbind())
}

impl Mesh {
    /// A mesh that owns its arrays (made by oxport, not given by Python).
    fn from_owned(mesh: oxport::Mesh<'static>) -> Self {
        fn own<T: Clone>(values: std::borrow::Cow<'static, [T]>) -> Array<T> {
            Array::Owned(values.into_owned())
        }
        fn own_flat(values: std::borrow::Cow<'static, [u32]>) -> Array<[u32; 1]> {
            Array::Owned(values.iter().map(|&v| [v]).collect())
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

/// The mesh Blender 3.4's OBJ exporter writes for one evaluated Blender mesh;
/// see `oxport.blender.mesh`.
#[pyfunction]
#[pyo3(signature = (name, world, axes, scale, positions, corner_vertices, face_starts, *,
    corner_normals=None, vertex_normals=None, corner_uvs=None, smooth=None,
    material_indices=None, materials=None, edges=None))]
#[allow(clippy::too_many_arguments)]
fn blender_mesh(
    py: Python<'_>,
    name: String,
    world: Bound<'_, PyAny>,
    axes: Bound<'_, PyAny>,
    scale: f32,
    positions: Bound<'_, PyAny>,
    corner_vertices: Bound<'_, PyAny>,
    face_starts: Bound<'_, PyAny>,
    corner_normals: Option<Bound<'_, PyAny>>,
    vertex_normals: Option<Bound<'_, PyAny>>,
    corner_uvs: Option<Bound<'_, PyAny>>,
    smooth: Option<Bound<'_, PyAny>>,
    material_indices: Option<Bound<'_, PyAny>>,
    materials: Option<Vec<String>>,
    edges: Option<Bound<'_, PyAny>>,
) -> PyResult<Mesh> {
    let world = matrix::<4>(&world, "world")?;
    let axes = matrix::<3>(&axes, "axes")?;
    let positions = float_rows::<3>(&positions, "positions")?;
    let corner_vertices = index_rows::<1>(&corner_vertices, "corner_vertices")?;
    let face_starts = index_rows::<1>(&face_starts, "face_starts")?;
    let corner_normals = optional(&corner_normals, |o| float_rows::<3>(o, "corner_normals"))?;
    let vertex_normals = optional(&vertex_normals, |o| float_rows::<3>(o, "vertex_normals"))?;
    let normals = match (&corner_normals, &vertex_normals) {
        (Some(_), Some(_)) => {
            return Err(PyValueError::new_err(
                "corner_normals and vertex_normals: give one or the other",
            ));
        }
        (Some(c), None) => Some(oxport::blender::NormalSource::Corners(c.as_slice())),
        (None, Some(v)) => Some(oxport::blender::NormalSource::Vertices(v.as_slice())),
        (None, None) => None,
    };
    let corner_uvs = optional(&corner_uvs, |o| float_rows::<2>(o, "corner_uvs"))?;
    let smooth = optional(&smooth, |o| index_rows::<1>(o, "smooth"))?;
    let material_indices = optional(&material_indices, |o| {
        index_rows::<1>(o, "material_indices")
    })?;
    let edges = optional(&edges, |o| index_rows::<2>(o, "edges"))?;
    let gathered = oxport::blender::Gathered {
        name,
        transform: Some(oxport::blender::world_and_axes_transform(&axes, &world)),
        scale,
        positions: positions.as_slice(),
        corner_vertices: corner_vertices.as_slice().as_flattened(),
        face_starts: face_starts.as_slice().as_flattened(),
        normals,
        corner_uvs: corner_uvs.as_ref().map(|a| a.as_slice()),
        smooth: smooth.as_ref().map(|a| a.as_slice().as_flattened()),
        material_indices: material_indices
            .as_ref()
            .map(|a| a.as_slice().as_flattened()),
        materials: materials.unwrap_or_default(),
        edges: edges.as_ref().map(|a| a.as_slice()),
    };
    let mesh = py
        .detach(|| oxport::blender::mesh(&gathered))
        .map_err(to_py_err)?;
    Ok(Mesh::from_owned(mesh))
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

/// Writes meshes as OBJ; see `oxport.write_obj`. Returns
/// `(bytes, objects, vertices, faces, threads)`.
#[pyfunction]
#[pyo3(signature = (path, meshes, *, header, mtllib, precision, uv_precision, normal_precision,
    normals, uvs, colors, materials, deduplicate_normals, deduplicate_uvs, threads, direct=false))]
#[allow(clippy::too_many_arguments)]
fn write_obj(
    py: Python<'_>,
    path: PathBuf,
    meshes: Vec<Bound<'_, Mesh>>,
    header: Vec<String>,
    mtllib: Option<String>,
    precision: Bound<'_, PyAny>,
    uv_precision: Bound<'_, PyAny>,
    normal_precision: Bound<'_, PyAny>,
    normals: bool,
    uvs: bool,
    colors: bool,
    materials: bool,
    deduplicate_normals: bool,
    deduplicate_uvs: bool,
    threads: Option<usize>,
    direct: bool,
) -> PyResult<(u64, u64, u64, u64, usize)> {
    if threads == Some(0) {
        return Err(PyValueError::new_err(
            "threads: must be at least 1 (or None for one per core)",
        ));
    }
    let options = oxport::obj::WriteOptions {
        precision: self::precision(&precision, "precision")?,
        uv_precision: self::precision(&uv_precision, "uv_precision")?,
        normal_precision: self::precision(&normal_precision, "normal_precision")?,
        normals,
        uvs,
        colors,
        materials,
        deduplicate_normals,
        deduplicate_uvs,
        header,
        mtllib,
        threads,
        direct,
        ..Default::default()
    };
    let meshes: Vec<&Mesh> = meshes.iter().map(|m| m.get()).collect();
    let views: Vec<oxport::Mesh> = meshes.iter().map(|m| m.view()).collect();
    let summary = py
        .detach(|| oxport::obj::write(&path, &views, &options))
        .map_err(to_py_err)?;
    Ok((
        summary.bytes,
        summary.objects,
        summary.vertices,
        summary.faces,
        summary.threads,
    ))
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
    m.add_function(wrap_pyfunction!(write_obj, m)?)?;
    m.add_function(wrap_pyfunction!(write_mtl, m)?)?;
    m.add_function(wrap_pyfunction!(format_fixed, m)?)?;
    m.add_function(wrap_pyfunction!(blender_mesh, m)?)?;
    m.add("Error", py.get_type::<Error>())?;
    m.add("ParseError", py.get_type::<ParseError>())?;
    m.add("CorruptError", py.get_type::<CorruptError>())?;
    m.add("UnsupportedError", py.get_type::<UnsupportedError>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
