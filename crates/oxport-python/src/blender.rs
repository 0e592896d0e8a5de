//! `oxport.blender`: the arrays of evaluated Blender meshes (`Gathered`), and
//! the meshes Blender 3.4's exporter writes for them, built without the GIL.

use pyo3::prelude::*;

use oxport::blender::{self as library, NormalSource, SmoothGroupInput, VertexGroupInput};

use crate::buffers::{Array, float_rows, index_rows};
use crate::errors::{invalid, to_py_err};
use crate::mesh::{Mesh, flat, names, optional};
use crate::model::{Curve, exporter};

/// A matrix given as rows (a `mathutils.Matrix` works), in Blender's C layout
/// (`m[column][row]`).
fn matrix<const N: usize>(object: &Bound<'_, PyAny>, argument: &str) -> PyResult<[[f32; N]; N]> {
    let shape = || invalid(argument, format!("expected {N} rows of {N} numbers"));
    let rows: Vec<Vec<f32>> = object.extract().map_err(|_| shape())?;
    if rows.len() != N || rows.iter().any(|r| r.len() != N) {
        return Err(shape());
    }
    Ok(std::array::from_fn(|column| {
        std::array::from_fn(|row| rows[row][column])
    }))
}

/// One evaluated Blender mesh as its Python API gives it (`foreach_get`):
/// the arguments of `oxport.blender.mesh`, checked for their types and shapes
/// here and against each other when the mesh is built.
#[pyclass(frozen, module = "oxport._native")]
pub struct Gathered {
    name: String,
    transform: library::Matrix4,
    scale: f32,
    positions: Array<[f32; 3]>,
    corner_vertices: Array<[u32; 1]>,
    face_starts: Array<[u32; 1]>,
    corner_normals: Option<Array<[f32; 3]>>,
    vertex_normals: Option<Array<[f32; 3]>>,
    face_normals: Option<Array<[f32; 3]>>,
    exporter: library::Exporter,
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

type Any<'py> = Option<Bound<'py, PyAny>>;

#[pymethods]
impl Gathered {
    #[new]
    #[pyo3(signature = (name, matrix_world, axes, positions, corner_vertices, face_starts, *,
        scale=1.0, corner_normals=None, vertex_normals=None, face_normals=None,
        blender_version=None, corner_uvs=None, smooth=None,
        material_indices=None, materials=None, edges=None, vertex_colors=None,
        corner_colors=None, corner_colors_srgb8=None, corner_edges=None, sharp_edges=None,
        smooth_group_bitflags=false, material_groups=None, vertex_group_names=None,
        vertex_group_offsets=None, vertex_group_indices=None, vertex_group_weights=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        name: String,
        matrix_world: &Bound<'_, PyAny>,
        axes: &Bound<'_, PyAny>,
        positions: &Bound<'_, PyAny>,
        corner_vertices: &Bound<'_, PyAny>,
        face_starts: &Bound<'_, PyAny>,
        scale: f32,
        corner_normals: Any<'_>,
        vertex_normals: Any<'_>,
        face_normals: Any<'_>,
        blender_version: Option<(u32, u32)>,
        corner_uvs: Any<'_>,
        smooth: Any<'_>,
        material_indices: Any<'_>,
        materials: Any<'_>,
        edges: Any<'_>,
        vertex_colors: Any<'_>,
        corner_colors: Any<'_>,
        corner_colors_srgb8: Any<'_>,
        corner_edges: Any<'_>,
        sharp_edges: Any<'_>,
        smooth_group_bitflags: bool,
        material_groups: Option<String>,
        vertex_group_names: Any<'_>,
        vertex_group_offsets: Any<'_>,
        vertex_group_indices: Any<'_>,
        vertex_group_weights: Any<'_>,
    ) -> PyResult<Self> {
        let given = |o: &Any<'_>| o.as_ref().is_some_and(|o| !o.is_none());
        if [&corner_normals, &vertex_normals, &face_normals]
            .into_iter()
            .filter(|o| given(o))
            .count()
            > 1
        {
            return Err(invalid(
                "corner_normals, vertex_normals and face_normals",
                "give one of them",
            ));
        }
        let world = matrix::<4>(matrix_world, "matrix_world")?;
        let axes = matrix::<3>(axes, "axes")?;
        let floats3 = |o: &Any<'_>, n| optional(o, |o| float_rows::<3>(o, n));
        let floats4 = |o: &Any<'_>, n| optional(o, |o| float_rows::<4>(o, n));
        let indices = |o: &Any<'_>, n| optional(o, |o| index_rows::<1>(o, n));
        Ok(Gathered {
            name,
            transform: library::world_and_axes_transform(&axes, &world),
            scale,
            positions: float_rows(positions, "positions")?,
            corner_vertices: index_rows(corner_vertices, "corner_vertices")?,
            face_starts: index_rows(face_starts, "face_starts")?,
            corner_normals: floats3(&corner_normals, "corner_normals")?,
            vertex_normals: floats3(&vertex_normals, "vertex_normals")?,
            face_normals: floats3(&face_normals, "face_normals")?,
            exporter: exporter(blender_version),
            corner_uvs: optional(&corner_uvs, |o| float_rows(o, "corner_uvs"))?,
            smooth: indices(&smooth, "smooth")?,
            material_indices: indices(&material_indices, "material_indices")?,
            materials: names(materials.as_ref(), "materials")?,
            edges: optional(&edges, |o| index_rows(o, "edges"))?,
            vertex_colors: floats4(&vertex_colors, "vertex_colors")?,
            corner_colors: floats4(&corner_colors, "corner_colors")?,
            corner_colors_srgb8: floats4(&corner_colors_srgb8, "corner_colors_srgb8")?,
            corner_edges: indices(&corner_edges, "corner_edges")?,
            sharp_edges: indices(&sharp_edges, "sharp_edges")?,
            smooth_group_bitflags,
            material_groups,
            vertex_group_names: vertex_group_names
                .as_ref()
                .filter(|o| !o.is_none())
                .map(|o| names(Some(o), "vertex_group_names"))
                .transpose()?,
            vertex_group_offsets: indices(&vertex_group_offsets, "vertex_group_offsets")?,
            vertex_group_indices: indices(&vertex_group_indices, "vertex_group_indices")?,
            vertex_group_weights: optional(&vertex_group_weights, |o| {
                float_rows(o, "vertex_group_weights")
            })?,
        })
    }

    #[getter]
    fn name(&self) -> &str {
        &self.name
    }
}

impl Gathered {
    /// The library's view of the arrays.
    pub(crate) fn view(&self) -> library::Gathered<'_> {
        let normals = match (
            &self.corner_normals,
            &self.vertex_normals,
            &self.face_normals,
        ) {
            (Some(c), _, _) => Some(NormalSource::Corners(c.as_slice())),
            (None, Some(v), _) => Some(NormalSource::Vertices(v.as_slice())),
            (None, None, Some(f)) => Some(NormalSource::Faces(f.as_slice())),
            (None, None, None) => None,
        };
        let smooth_groups = match (&self.corner_edges, &self.sharp_edges) {
            (Some(corner_edges), Some(sharp_edges)) => Some(SmoothGroupInput {
                corner_edges: flat(corner_edges),
                sharp_edges: flat(sharp_edges),
                bitflags: self.smooth_group_bitflags,
            }),
            _ => None,
        };
        let vertex_groups = match (
            &self.vertex_group_names,
            &self.vertex_group_offsets,
            &self.vertex_group_indices,
            &self.vertex_group_weights,
        ) {
            (Some(names), Some(offsets), Some(groups), Some(weights)) => Some(VertexGroupInput {
                names: names.clone(),
                offsets: flat(offsets),
                groups: flat(groups),
                weights: weights.as_slice().as_flattened(),
            }),
            _ => None,
        };
        library::Gathered {
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
            exporter: self.exporter,
            vertex_colors: self.vertex_colors.as_ref().map(|a| a.as_slice()),
            corner_colors: self.corner_colors.as_ref().map(|a| a.as_slice()),
            corner_colors_srgb8: self.corner_colors_srgb8.as_ref().map(|a| a.as_slice()),
            smooth_groups,
            material_groups: self.material_groups.clone(),
            vertex_groups,
        }
    }
}

/// The meshes Blender 3.4's OBJ exporter writes for `items`, built in
/// parallel without the GIL.
#[pyfunction]
#[pyo3(signature = (items, *, threads=None))]
pub(crate) fn blender_meshes(
    py: Python<'_>,
    items: Vec<PyRef<'_, Gathered>>,
    threads: Option<usize>,
) -> PyResult<Vec<Mesh>> {
    let views: Vec<library::Gathered> = items.iter().map(|g| g.view()).collect();
    let meshes = py
        .detach(|| library::meshes(&views, threads))
        .map_err(to_py_err)?;
    Ok(meshes.into_iter().map(Mesh::from_owned).collect())
}

/// How many of `edge_count` edges no corner uses (`oxport.blender.unused_edges`).
#[pyfunction]
pub(crate) fn blender_unused_edges(
    py: Python<'_>,
    corner_edges: &Bound<'_, PyAny>,
    edge_count: usize,
) -> PyResult<usize> {
    let corner_edges = index_rows::<1>(corner_edges, "corner_edges")?;
    py.detach(|| library::unused_edges(corner_edges.as_slice().as_flattened(), edge_count))
        .map_err(to_py_err)
}

/// The inputs of a material's Principled BSDF (`node.inputs[NAME].default_value`).
#[pyclass(frozen, module = "oxport._native")]
pub struct Bsdf {
    bsdf: library::Bsdf,
}

#[pymethods]
impl Bsdf {
    #[new]
    #[pyo3(signature = (*, roughness, specular, metallic, ior, alpha, base_color, emission,
        emission_strength=None, sheen=0.0, clearcoat=0.0, clearcoat_roughness=0.0,
        anisotropic=0.0, anisotropic_rotation=0.0, transmission=0.0))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        roughness: f32,
        specular: f32,
        metallic: f32,
        ior: f32,
        alpha: f32,
        base_color: [f32; 3],
        emission: [f32; 3],
        emission_strength: Option<f32>,
        sheen: f32,
        clearcoat: f32,
        clearcoat_roughness: f32,
        anisotropic: f32,
        anisotropic_rotation: f32,
        transmission: f32,
    ) -> Self {
        Bsdf {
            bsdf: library::Bsdf {
                roughness,
                specular,
                metallic,
                ior,
                alpha,
                base_color,
                emission,
                emission_strength,
                sheen,
                clearcoat,
                clearcoat_roughness,
                anisotropic,
                anisotropic_rotation,
                transmission,
            },
        }
    }
}

/// An image texture linked to an input of a material's Principled BSDF.
#[pyclass(frozen, module = "oxport._native")]
pub struct ImageTexture {
    texture: library::ImageTexture,
}

#[pymethods]
impl ImageTexture {
    #[new]
    #[pyo3(signature = (input, path, *, location=[0.0; 3], scale=[1.0; 3], normal_strength=0.0))]
    fn new(
        input: &str,
        path: String,
        location: [f32; 3],
        scale: [f32; 3],
        normal_strength: f32,
    ) -> PyResult<Self> {
        let input = library::TextureInput::from_name(input).ok_or_else(|| {
            let names: Vec<&str> = library::TextureInput::ALL
                .iter()
                .map(|i| i.name())
                .collect();
            pyo3::exceptions::PyValueError::new_err(format!(
                "input: {input:?} is not one of {}",
                names.join(", ")
            ))
        })?;
        Ok(ImageTexture {
            texture: library::ImageTexture {
                input,
                path,
                location,
                scale,
                normal_strength,
            },
        })
    }

    #[getter]
    fn input(&self) -> &'static str {
        self.texture.input.name()
    }

    #[getter]
    fn path(&self) -> &str {
        &self.texture.path
    }
}

/// The MTL values Blender's exporter writes for a material, as an
/// `oxport.Material`.
#[pyfunction]
#[pyo3(signature = (name, *, roughness, specular_intensity, metallic, diffuse_color, bsdf=None,
    textures=Vec::new(), pbr=false, blender_version=None))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn blender_mtl_material(
    py: Python<'_>,
    name: String,
    roughness: f32,
    specular_intensity: f32,
    metallic: f32,
    diffuse_color: [f32; 4],
    bsdf: Option<PyRef<'_, Bsdf>>,
    textures: Vec<PyRef<'_, ImageTexture>>,
    pbr: bool,
    blender_version: Option<(u32, u32)>,
) -> PyResult<Py<PyAny>> {
    let input = library::MaterialInput {
        name,
        roughness,
        specular_intensity,
        metallic,
        diffuse_color,
        bsdf: bsdf.map(|b| b.bsdf.clone()),
        textures: textures.iter().map(|t| t.texture.clone()).collect(),
    };
    crate::obj::material_object(
        py,
        library::mtl_material(&input, pbr, exporter(blender_version)),
    )
}

/// One NURBS spline of a Blender curve object.
#[pyclass(frozen, module = "oxport._native")]
pub struct NurbsSpline {
    points: Vec<[f32; 3]>,
    order: u32,
    cyclic: bool,
    endpoint: bool,
    bezier: bool,
}

#[pymethods]
impl NurbsSpline {
    #[new]
    #[pyo3(signature = (points, *, order, cyclic=false, endpoint=false, bezier=false))]
    fn new(
        points: &Bound<'_, PyAny>,
        order: u32,
        cyclic: bool,
        endpoint: bool,
        bezier: bool,
    ) -> PyResult<Self> {
        Ok(NurbsSpline {
            points: float_rows::<3>(points, "points")?.as_slice().to_vec(),
            order,
            cyclic,
            endpoint,
            bezier,
        })
    }
}

/// The curves the exporter of `blender_version` writes for a NURBS curve
/// object, one per spline.
#[pyfunction]
#[pyo3(signature = (name, matrix_world, axes, splines, *, scale=1.0, blender_version=None))]
pub(crate) fn blender_nurbs_curves(
    name: &str,
    matrix_world: &Bound<'_, PyAny>,
    axes: &Bound<'_, PyAny>,
    splines: Vec<PyRef<'_, NurbsSpline>>,
    scale: f32,
    blender_version: Option<(u32, u32)>,
) -> PyResult<Vec<Curve>> {
    let world = matrix::<4>(matrix_world, "matrix_world")?;
    let axes = matrix::<3>(axes, "axes")?;
    let splines: Vec<library::NurbsSpline> = splines
        .iter()
        .map(|spline| library::NurbsSpline {
            points: &spline.points,
            order: spline.order,
            cyclic: spline.cyclic,
            endpoint: spline.endpoint,
            bezier: spline.bezier,
        })
        .collect();
    let transform = library::world_and_axes_transform(&axes, &world);
    let curves =
        library::nurbs_curves(name, &splines, &transform, scale, exporter(blender_version))
            .map_err(to_py_err)?;
    Ok(curves.into_iter().map(|curve| Curve { curve }).collect())
}

/// The rules of Blender's exporter and importer of one version
/// (`oxport.blender.Exporter`): file names, defaults, what is written.
#[pyclass(frozen, module = "oxport._native", name = "BlenderExporter")]
pub struct BlenderExporter {
    exporter: library::Exporter,
}

#[pymethods]
impl BlenderExporter {
    #[new]
    #[pyo3(signature = (blender_version=None))]
    fn new(blender_version: Option<(u32, u32)>) -> Self {
        BlenderExporter {
            exporter: exporter(blender_version),
        }
    }

    /// The file of one frame of an animation.
    fn frame_path(&self, path: &str, frame: i64) -> String {
        self.exporter.frame_path(path, frame)
    }

    #[getter]
    fn writes_empty_files(&self) -> bool {
        self.exporter.writes_empty_files()
    }

    #[getter]
    fn validates_meshes(&self) -> bool {
        self.exporter.validates_meshes()
    }

    fn __repr__(&self) -> String {
        format!("Exporter({:?})", self.exporter)
    }
}
