//! OBJ and MTL: `WriteOptions`, `write_obj`, `ObjWriter`, `write_mtl`,
//! `read_obj`, `read_mtl`.

use std::path::PathBuf;

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};

use oxport::obj::{self, Precision};

use crate::errors::{invalid, to_py_err};
use crate::mesh::Mesh;
use crate::model::TextureMap;
use crate::open::Open;
use crate::source::open_reader;

/// How to write OBJ files (`oxport.write_obj`, `oxport.ObjWriter`). The
/// defaults are Blender 3.4's.
#[pyclass(frozen, module = "oxport._native")]
pub struct WriteOptions {
    pub(crate) options: obj::WriteOptions,
}

/// `Precision` from `int` (0 to 9) or `"shortest"` (`obj::Precision`'s
/// rule and message).
fn precision(object: &Bound<'_, PyAny>, argument: &str) -> PyResult<Precision> {
    let parsed = if object.is_instance_of::<PyString>() {
        object.extract::<String>()?.parse::<Precision>()
    } else if let Ok(decimals) = object.extract::<i64>() {
        Precision::fixed(decimals)
    } else {
        return Err(invalid(
            argument,
            format!(
                "expected an integer from 0 to 9 or \"shortest\", got {}",
                object.repr().map_or_else(|_| "?".into(), |r| r.to_string())
            ),
        ));
    };
    parsed.map_err(|e| crate::errors::invalid_argument(argument, e))
}

/// The layout of the exporter of Blender `(major, minor)` (None: 3.4).
fn dialect(blender_version: Option<(u32, u32)>) -> obj::Dialect {
    oxport::blender_obj::dialect(crate::model::exporter(blender_version))
}

/// Text as lines (`None`: no lines).
fn lines(text: Option<&str>) -> Vec<String> {
    text.map_or_else(Vec::new, |t| t.split('\n').map(String::from).collect())
}

#[pymethods]
impl WriteOptions {
    #[new]
    #[pyo3(signature = (*, header=None, mtllib=None, precision=None, uv_precision=None,
        normal_precision=None, color_precision=None, normals=true, uvs=true, colors=true,
        materials=true, object_groups=false, deduplicate_normals=false, deduplicate_uvs=false,
        threads=None, direct=false, blender_version=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        header: Option<&str>,
        mtllib: Option<String>,
        precision: Option<&Bound<'_, PyAny>>,
        uv_precision: Option<&Bound<'_, PyAny>>,
        normal_precision: Option<&Bound<'_, PyAny>>,
        color_precision: Option<&Bound<'_, PyAny>>,
        normals: bool,
        uvs: bool,
        colors: bool,
        materials: bool,
        object_groups: bool,
        deduplicate_normals: bool,
        deduplicate_uvs: bool,
        threads: Option<usize>,
        direct: bool,
        blender_version: Option<(u32, u32)>,
    ) -> PyResult<Self> {
        let defaults = obj::WriteOptions::default();
        let given = |object: Option<&Bound<'_, PyAny>>, argument, default| match object {
            Some(object) => self::precision(object, argument),
            None => Ok(default),
        };
        Ok(WriteOptions {
            options: obj::WriteOptions {
                precision: given(precision, "precision", defaults.precision)?,
                uv_precision: given(uv_precision, "uv_precision", defaults.uv_precision)?,
                normal_precision: given(
                    normal_precision,
                    "normal_precision",
                    defaults.normal_precision,
                )?,
                color_precision: given(
                    color_precision,
                    "color_precision",
                    defaults.color_precision,
                )?,
                normals,
                uvs,
                colors,
                materials,
                object_groups,
                deduplicate_normals,
                deduplicate_uvs,
                header: lines(header),
                mtllib,
                dialect: dialect(blender_version),
                threads,
                direct,
                ..defaults
            },
        })
    }
}

/// What a write produced, as `oxport.WriteSummary`.
fn summary(py: Python<'_>, s: obj::WriteSummary) -> PyResult<Py<PyAny>> {
    let kwargs = PyDict::new(py);
    kwargs.set_item("bytes", s.bytes)?;
    kwargs.set_item("objects", s.objects)?;
    kwargs.set_item("vertices", s.vertices)?;
    kwargs.set_item("faces", s.faces)?;
    kwargs.set_item("threads", s.threads)?;
    kwargs.set_item("direct", s.direct)?;
    crate::facade::build(py, "_obj", "WriteSummary", &kwargs)
}

/// The library's view of each mesh.
fn views<'a>(meshes: &'a [PyRef<'_, Mesh>]) -> Vec<oxport::Mesh<'a>> {
    meshes.iter().map(|m| m.view()).collect()
}

/// `meshes` as a list of `Mesh` (one `Mesh` alone is a mistake worth naming).
fn meshes<'py>(meshes: &Bound<'py, PyAny>) -> PyResult<Vec<PyRef<'py, Mesh>>> {
    if meshes.is_instance_of::<Mesh>() {
        return Err(invalid(
            "meshes",
            "expected a sequence of Mesh, got one Mesh",
        ));
    }
    meshes
        .try_iter()
        .map_err(|_| invalid("meshes", "expected a sequence of Mesh"))?
        .enumerate()
        .map(|(i, mesh)| {
            let mesh = mesh?;
            mesh.extract::<PyRef<'py, Mesh>>().map_err(|_| {
                invalid(
                    &format!("meshes[{i}]"),
                    format!(
                        "expected oxport.Mesh, got {}",
                        mesh.get_type()
                            .name()
                            .map_or_else(|_| "?".into(), |n| n.to_string())
                    ),
                )
            })
        })
        .collect()
}

/// `mtl_materials` (objects with `oxport.Material`'s attributes) and the
/// MTL header's text as the library writes them.
fn library(
    mtl_materials: Option<Vec<Bound<'_, PyAny>>>,
    mtl_header: Option<&str>,
) -> PyResult<Option<obj::MaterialLibrary>> {
    mtl_materials
        .map(|materials| {
            Ok(obj::MaterialLibrary {
                materials: materials_of(&materials)?,
                header: lines(mtl_header),
            })
        })
        .transpose()
}

/// Writes `meshes` as an OBJ file and, with `mtl_materials`, their MTL file
/// beside it (`oxport.obj.write_with_mtl`). The GIL is released.
#[pyfunction]
#[pyo3(signature = (path, meshes, options, *, mtl_materials=None, mtl_header=None))]
pub(crate) fn write_obj(
    py: Python<'_>,
    path: PathBuf,
    meshes: &Bound<'_, PyAny>,
    options: &WriteOptions,
    mtl_materials: Option<Vec<Bound<'_, PyAny>>>,
    mtl_header: Option<&str>,
) -> PyResult<Py<PyAny>> {
    let meshes = self::meshes(meshes)?;
    let library = library(mtl_materials, mtl_header)?;
    let views = views(&meshes);
    py.detach(|| obj::write_with_mtl(&path, &views, library.as_ref(), &options.options, |_, _| {}))
        .map_err(to_py_err)
        .and_then(|s| summary(py, s))
}

/// Writes a scene read from an OBJ file again (`oxport.obj.write_scene`:
/// its header, `mtllib` and MTL file by the library's rule). The GIL is
/// released.
#[pyfunction]
#[pyo3(signature = (path, meshes, options, *, header, mtllibs, materials, mtl_header, mtl_files))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn write_scene(
    py: Python<'_>,
    path: PathBuf,
    meshes: &Bound<'_, PyAny>,
    options: &WriteOptions,
    header: Vec<String>,
    mtllibs: Vec<String>,
    materials: Vec<Bound<'_, PyAny>>,
    mtl_header: Vec<String>,
    mtl_files: Vec<PathBuf>,
) -> PyResult<Py<PyAny>> {
    let meshes = self::meshes(meshes)?;
    let materials = materials_of(&materials)?;
    let views = views(&meshes);
    let text = obj::SceneText {
        header: &header,
        mtllibs: &mtllibs,
        materials: &materials,
        mtl_header: &mtl_header,
        mtl_files: &mtl_files,
    };
    py.detach(|| obj::write_scene(&path, &views, text, &options.options, |_, _| {}))
        .map_err(to_py_err)
        .and_then(|s| summary(py, s))
}

/// An OBJ file written batch after batch; see `oxport.ObjWriter`.
#[pyclass(module = "oxport._native")]
pub struct ObjWriter {
    writer: Open<obj::FileWriter>,
}

impl ObjWriter {
    /// The open file, handed to a stream that writes into it
    /// (`oxport.blender.MeshStream`) until [`ObjWriter::give_back`].
    pub(crate) fn lend(&self) -> PyResult<obj::FileWriter> {
        self.writer.take_open()
    }

    /// Takes back the file lent by [`ObjWriter::lend`].
    pub(crate) fn give_back(&self, writer: obj::FileWriter) {
        self.writer.put(writer);
    }

    /// Runs `work` on the open writer without the GIL.
    fn with<R: Send>(
        &self,
        py: Python<'_>,
        work: impl FnOnce(&mut obj::FileWriter) -> oxport::Result<R> + Send,
    ) -> PyResult<R> {
        self.writer.with(py, work)
    }
}

#[pymethods]
impl ObjWriter {
    #[new]
    fn new(py: Python<'_>, path: PathBuf, options: &WriteOptions) -> PyResult<Self> {
        let options = options.options.clone();
        let writer = py
            .detach(|| obj::FileWriter::create(&path, options))
            .map_err(to_py_err)?;
        Ok(ObjWriter {
            writer: Open::new(writer, "the writer is closed"),
        })
    }

    /// Writes `meshes` after those already written.
    fn write(&self, py: Python<'_>, meshes: &Bound<'_, PyAny>) -> PyResult<()> {
        let meshes = self::meshes(meshes)?;
        let views = views(&meshes);
        self.with(py, |writer| writer.write(&views))
    }

    /// Writes `text` as it is, after what was written.
    fn write_text(&self, py: Python<'_>, text: &str) -> PyResult<()> {
        self.with(py, |writer| writer.write_text(text))
    }

    /// Writes free-form curves after what was written (Blender writes them
    /// after every mesh).
    fn write_curves(
        &self,
        py: Python<'_>,
        curves: Vec<PyRef<'_, crate::model::Curve>>,
    ) -> PyResult<()> {
        let curves: Vec<oxport::Curve> = curves.iter().map(|c| c.curve.clone()).collect();
        self.with(py, |writer| writer.write_curves(&curves))
    }

    /// Completes the file under its name; with `mtl_materials`, after
    /// writing them as the MTL file it names (`obj::FileWriter::finish_with_mtl`).
    #[pyo3(signature = (*, mtl_materials = None, mtl_header = None))]
    fn close(
        &self,
        py: Python<'_>,
        mtl_materials: Option<Vec<Bound<'_, PyAny>>>,
        mtl_header: Option<&str>,
    ) -> PyResult<Py<PyAny>> {
        let library = library(mtl_materials, mtl_header);
        let writer = self.writer.take_open()?;
        // A material that cannot be read leaves no file behind either.
        let library = library?;
        py.detach(|| match &library {
            Some(library) => writer.finish_with_mtl(library),
            None => writer.finish(),
        })
        .map_err(to_py_err)
        .and_then(|s| summary(py, s))
    }

    /// Gives up: the temporary file is removed, nothing appears under the name.
    fn abort(&self) {
        drop(self.writer.take());
    }
}

/// Writes an MTL file; `materials` are objects with the attributes of
/// `oxport.Material`.
#[pyfunction]
#[pyo3(signature = (path, materials, *, header=None, blender_version=None))]
pub(crate) fn write_mtl(
    py: Python<'_>,
    path: PathBuf,
    materials: Vec<Bound<'_, PyAny>>,
    header: Option<&str>,
    blender_version: Option<(u32, u32)>,
) -> PyResult<()> {
    let materials = materials_of(&materials)?;
    let header = lines(header);
    let dialect = dialect(blender_version);
    py.detach(|| obj::write_mtl(&path, &materials, &header, dialect))
        .map_err(to_py_err)
}

/// The MTL file written beside the OBJ file `path` when no `mtllib` names
/// another (`oxport::obj::mtl_path`).
#[pyfunction]
pub(crate) fn mtl_path(path: PathBuf) -> String {
    // A string, not a path: a URL's `//` must survive (`pathlib` folds it).
    obj::mtl_path(&path).to_string_lossy().into_owned()
}

fn materials_of(materials: &[Bound<'_, PyAny>]) -> PyResult<Vec<oxport::Material>> {
    materials
        .iter()
        .enumerate()
        .map(|(i, m)| material(m).map_err(|e| invalid(&format!("materials[{i}]"), e)))
        .collect()
}

fn material(object: &Bound<'_, PyAny>) -> PyResult<oxport::Material> {
    let get = |name: &str| object.getattr(name);
    let maps = get("maps")?
        .try_iter()?
        .map(|map| map?.extract::<PyRef<'_, TextureMap>>()?.to_library())
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
        roughness: get("roughness")?.extract()?,
        metallic: get("metallic")?.extract()?,
        sheen: get("sheen")?.extract()?,
        clearcoat: get("clearcoat")?.extract()?,
        clearcoat_roughness: get("clearcoat_roughness")?.extract()?,
        anisotropy: get("anisotropy")?.extract()?,
        anisotropy_rotation: get("anisotropy_rotation")?.extract()?,
        transmission_filter: get("transmission_filter")?.extract()?,
        statements: get("statements")?.extract()?,
        maps,
    })
}

/// A read warning as `oxport.ReadWarning`.
fn warning_object(py: Python<'_>, w: obj::ReadWarning) -> PyResult<Py<PyAny>> {
    let kwargs = PyDict::new(py);
    let path = match w.path {
        Some(path) => Some(py.import("os")?.call_method1("fspath", (path,))?),
        None => None,
    };
    kwargs.set_item("path", path)?;
    kwargs.set_item("line", w.line)?;
    kwargs.set_item("what", w.what)?;
    kwargs.set_item("count", w.count)?;
    crate::facade::build(py, "_obj", "ReadWarning", &kwargs)
}

/// Read warnings as `oxport.ReadWarning`s.
pub(crate) fn warning_objects(
    py: Python<'_>,
    warnings: Vec<obj::ReadWarning>,
) -> PyResult<Vec<Py<PyAny>>> {
    warnings
        .into_iter()
        .map(|w| warning_object(py, w))
        .collect()
}

/// Reads an OBJ file (a path, a URL or a binary file object) on all cores,
/// and the MTL files it names (the GIL is released).
#[pyfunction]
#[pyo3(signature = (path, *, threads=None, strict=false, materials=true, mtl_root=None))]
pub(crate) fn read_obj(
    py: Python<'_>,
    path: &Bound<'_, PyAny>,
    threads: Option<usize>,
    strict: bool,
    materials: bool,
    mtl_root: Option<PathBuf>,
) -> PyResult<Py<PyAny>> {
    let options = obj::ReadOptions {
        threads,
        strict,
        materials,
        mtl_root,
        ..obj::ReadOptions::default()
    };
    let scene = open_reader(
        py,
        path,
        |path| obj::read(path, &options),
        |source| obj::read_source(&*source, &options),
    )?;
    let kwargs = PyDict::new(py);
    let meshes: Vec<Mesh> = scene.meshes.into_iter().map(Mesh::from_owned).collect();
    kwargs.set_item("meshes", meshes)?;
    kwargs.set_item("mtllibs", scene.mtllibs)?;
    kwargs.set_item("header", scene.header)?;
    kwargs.set_item("skipped", scene.skipped)?;
    let curves = (scene.curves.into_iter())
        .map(|curve| free_form_curve(py, curve))
        .collect::<PyResult<Vec<_>>>()?;
    kwargs.set_item("curves", curves)?;
    kwargs.set_item("warnings", warning_objects(py, scene.warnings)?)?;
    kwargs.set_item("materials", material_objects(py, scene.materials)?)?;
    kwargs.set_item("mtl_header", scene.mtl_header)?;
    kwargs.set_item("mtl_files", scene.mtl_files)?;
    crate::facade::build(py, "_obj", "Scene", &kwargs)
}

/// Reads an OBJ file and the MTL files it names and writes them again with
/// `options` (`oxport.obj.convert`); the GIL is released.
#[pyfunction]
#[pyo3(signature = (src, dst, options, *, strict=false, materials=true, mtl_root=None))]
pub(crate) fn convert_obj(
    py: Python<'_>,
    src: PathBuf,
    dst: PathBuf,
    options: &WriteOptions,
    strict: bool,
    materials: bool,
    mtl_root: Option<PathBuf>,
) -> PyResult<Py<PyAny>> {
    let reading = obj::ReadOptions {
        threads: options.options.threads,
        strict,
        materials,
        mtl_root,
        ..obj::ReadOptions::default()
    };
    let done = py
        .detach(|| obj::convert(&src, &dst, &reading, &options.options, |_, _| {}))
        .map_err(to_py_err)?;
    let kwargs = PyDict::new(py);
    kwargs.set_item("bytes_read", done.bytes_read)?;
    kwargs.set_item("skipped", done.skipped)?;
    kwargs.set_item("materials", done.materials)?;
    kwargs.set_item("warnings", warning_objects(py, done.warnings)?)?;
    kwargs.set_item("written", summary(py, done.written)?)?;
    crate::facade::build(py, "_obj", "ObjConversion", &kwargs)
}

/// Reads an MTL file: its materials (`oxport.Material`s) and the comment
/// lines that open it.
#[pyfunction]
pub(crate) fn read_mtl(py: Python<'_>, path: PathBuf) -> PyResult<(Vec<Py<PyAny>>, Vec<String>)> {
    let library = py.detach(|| obj::read_mtl(&path)).map_err(to_py_err)?;
    Ok((material_objects(py, library.materials)?, library.header))
}

/// A material as `oxport.Material`.
pub(crate) fn material_object(py: Python<'_>, m: oxport::Material) -> PyResult<Py<PyAny>> {
    let kwargs = PyDict::new(py);
    kwargs.set_item("name", m.name)?;
    kwargs.set_item("specular_exponent", m.specular_exponent)?;
    kwargs.set_item("ambient", m.ambient)?;
    kwargs.set_item("diffuse", m.diffuse)?;
    kwargs.set_item("specular", m.specular)?;
    kwargs.set_item("emissive", m.emissive)?;
    kwargs.set_item("ior", m.ior)?;
    kwargs.set_item("dissolve", m.dissolve)?;
    kwargs.set_item("illum", m.illum)?;
    kwargs.set_item("roughness", m.roughness)?;
    kwargs.set_item("metallic", m.metallic)?;
    kwargs.set_item("sheen", m.sheen)?;
    kwargs.set_item("clearcoat", m.clearcoat)?;
    kwargs.set_item("clearcoat_roughness", m.clearcoat_roughness)?;
    kwargs.set_item("anisotropy", m.anisotropy)?;
    kwargs.set_item("anisotropy_rotation", m.anisotropy_rotation)?;
    kwargs.set_item("transmission_filter", m.transmission_filter)?;
    kwargs.set_item("statements", m.statements)?;
    let maps: Vec<TextureMap> = m.maps.into_iter().map(TextureMap::from_library).collect();
    kwargs.set_item("maps", maps)?;
    crate::facade::build(py, "_obj", "Material", &kwargs)
}

fn material_objects(py: Python<'_>, materials: Vec<oxport::Material>) -> PyResult<Vec<Py<PyAny>>> {
    materials
        .into_iter()
        .map(|m| material_object(py, m))
        .collect()
}

/// An `oxport.FreeFormCurve`.
fn free_form_curve(py: Python<'_>, curve: obj::FreeFormCurve) -> PyResult<Py<PyAny>> {
    let kwargs = PyDict::new(py);
    kwargs.set_item("name", curve.name)?;
    kwargs.set_item("group", curve.group)?;
    kwargs.set_item("rational", curve.rational)?;
    kwargs.set_item("degree", curve.degree)?;
    kwargs.set_item("range", (curve.range[0], curve.range[1]))?;
    kwargs.set_item("controls", curve.controls)?;
    let points: Vec<(f32, f32, f32)> = curve.points.iter().map(|p| (p[0], p[1], p[2])).collect();
    kwargs.set_item("points", points)?;
    kwargs.set_item("weights", curve.weights)?;
    kwargs.set_item("knots", curve.knots)?;
    kwargs.set_item("meshes_before", curve.meshes_before)?;
    crate::facade::build(py, "_obj", "FreeFormCurve", &kwargs)
}
