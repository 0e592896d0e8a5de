//! `Mesh`: a mesh whose arrays are the caller's own memory (borrowed through
//! the buffer protocol), or oxport's (read-only numpy arrays, no copy).

use std::borrow::Cow;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

use crate::buffers::{Array, float_rows, index_rows};
use crate::errors::{invalid, to_py_err};

/// Names from any sequence of `str` (a list, a tuple...), or none.
pub(crate) fn names(object: Option<&Bound<'_, PyAny>>, argument: &str) -> PyResult<Vec<String>> {
    match object {
        Some(names) if !names.is_none() => {
            if names.is_instance_of::<pyo3::types::PyString>() {
                return Err(invalid(
                    argument,
                    "expected a sequence of names, got one str",
                ));
            }
            names
                .try_iter()
                .and_then(|items| items.map(|n| n?.extract::<String>()).collect())
                .map_err(|_| invalid(argument, "expected a sequence of names (str)"))
        }
        _ => Ok(Vec::new()),
    }
}

/// A mesh whose arrays are the caller's own memory (see `oxport.Mesh`).
/// A polygon mesh in the OBJ model, as structure of arrays.
///
/// Face `i` uses corners `face_offsets[i]:face_offsets[i + 1]`; corner `c`
/// uses position `position_indices[c]`, and where given `uv_indices[c]` and
/// `normal_indices[c]`. Indices are 0-based and local to the mesh. Arrays are
/// any array-like: C-contiguous float32 and 32-bit integer buffers are used in
/// place (they must not change while a write runs), others are converted once.
/// The attributes give back the objects passed; those of meshes made by oxport
/// are read-only numpy arrays of its own memory. Wrong shapes, types or indices
/// raise `ValueError` naming the argument.
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
    points: Option<Array<[u32; 1]>>,
    /// The array objects as given (by [`Field`]), returned by the attribute
    /// getters; `None` for meshes made by oxport.
    objects: Vec<Option<Py<PyAny>>>,
}

pub(crate) fn flat(array: &Array<[u32; 1]>) -> &[u32] {
    array.as_slice().as_flattened()
}

impl Mesh {
    /// A borrowed view in the library's model.
    pub(crate) fn view(&self) -> oxport::Mesh<'_> {
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
            points: self.points.as_ref().map(|a| Cow::Borrowed(flat(a))),
        }
    }
}

pub(crate) fn optional<'py, T>(
    object: &Option<Bound<'py, PyAny>>,
    convert: impl FnOnce(&Bound<'py, PyAny>) -> PyResult<T>,
) -> PyResult<Option<T>> {
    object
        .as_ref()
        .filter(|o| !o.is_none())
        .map(convert)
        .transpose()
}

/// The array arguments, in the order of [`Mesh::objects`].
#[derive(Clone, Copy)]
enum Field {
    Positions,
    FaceOffsets,
    PositionIndices,
    Uvs,
    UvIndices,
    Normals,
    NormalIndices,
    Colors,
    Smooth,
    MaterialIndices,
    GroupIndices,
    Edges,
    Points,
}

const FIELDS: usize = Field::Points as usize + 1;

/// The object given for `field`, or for meshes made by oxport `made` of it.
fn given_or(
    slf: &Bound<'_, Mesh>,
    field: Field,
    made: impl FnOnce(&Bound<'_, Mesh>) -> PyResult<Py<PyAny>>,
) -> PyResult<Py<PyAny>> {
    match &slf.get().objects[field as usize] {
        Some(object) => Ok(object.clone_ref(slf.py())),
        None => made(slf),
    }
}

/// [`given_or`] for an array the mesh may not have.
fn optional_field<T>(
    slf: &Bound<'_, Mesh>,
    field: Field,
    values: Option<T>,
    made: impl FnOnce(&Bound<'_, Mesh>, T) -> PyResult<Py<PyAny>>,
) -> PyResult<Option<Py<PyAny>>> {
    match values {
        Some(values) => given_or(slf, field, |s| made(s, values)).map(Some),
        None => Ok(None),
    }
}

#[pymethods]
impl Mesh {
    #[new]
    #[pyo3(signature = (name, positions, face_offsets, position_indices, *, uvs=None, uv_indices=None,
        normals=None, normal_indices=None, colors=None, smooth=None, materials=None,
        material_indices=None, groups=None, group_indices=None, edges=None, points=None))]
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
        points: Option<Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let material_names = names(materials.as_ref(), "materials")?;
        let group_names = names(groups.as_ref(), "groups")?;
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
            keep(&material_indices),
            keep(&group_indices),
            keep(&edges),
            keep(&points),
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
            points: optional(&points, |o| index_rows(o, "points"))?,
            objects,
        };
        mesh.view().validate().map_err(to_py_err)?;
        Ok(mesh)
    }

    #[getter]
    fn name(&self) -> &str {
        &self.name
    }

    /// `(V, 3)` float32.
    #[getter]
    fn positions(slf: &Bound<'_, Self>) -> PyResult<Py<PyAny>> {
        let values = slf.get().view().positions;
        given_or(slf, Field::Positions, |s| {
            numpy_view(s, values.as_flattened(), 3)
        })
    }

    /// `(F + 1,)` uint32: face `i` uses corners `face_offsets[i]:face_offsets[i + 1]`.
    #[getter]
    fn face_offsets(slf: &Bound<'_, Self>) -> PyResult<Py<PyAny>> {
        let values = slf.get().view().face_offsets;
        given_or(slf, Field::FaceOffsets, |s| numpy_view(s, &values, 1))
    }

    /// `(C,)` uint32.
    #[getter]
    fn position_indices(slf: &Bound<'_, Self>) -> PyResult<Py<PyAny>> {
        let values = slf.get().view().position_indices;
        given_or(slf, Field::PositionIndices, |s| numpy_view(s, &values, 1))
    }

    /// `(T, 2)` float32, or None.
    #[getter]
    fn uvs(slf: &Bound<'_, Self>) -> PyResult<Option<Py<PyAny>>> {
        let values = slf.get().view().uvs;
        optional_field(slf, Field::Uvs, values, |s, v| {
            numpy_view(s, v.as_flattened(), 2)
        })
    }

    /// `(C,)` uint32, or None.
    #[getter]
    fn uv_indices(slf: &Bound<'_, Self>) -> PyResult<Option<Py<PyAny>>> {
        let values = slf.get().view().uv_indices;
        optional_field(slf, Field::UvIndices, values, |s, v| numpy_view(s, &v, 1))
    }

    /// `(N, 3)` float32, or None.
    #[getter]
    fn normals(slf: &Bound<'_, Self>) -> PyResult<Option<Py<PyAny>>> {
        let values = slf.get().view().normals;
        optional_field(slf, Field::Normals, values, |s, v| {
            numpy_view(s, v.as_flattened(), 3)
        })
    }

    /// `(C,)` uint32, or None.
    #[getter]
    fn normal_indices(slf: &Bound<'_, Self>) -> PyResult<Option<Py<PyAny>>> {
        let values = slf.get().view().normal_indices;
        optional_field(slf, Field::NormalIndices, values, |s, v| {
            numpy_view(s, &v, 1)
        })
    }

    /// `(V, 3)` float32, or None.
    #[getter]
    fn colors(slf: &Bound<'_, Self>) -> PyResult<Option<Py<PyAny>>> {
        let values = slf.get().view().colors;
        optional_field(slf, Field::Colors, values, |s, v| {
            numpy_view(s, v.as_flattened(), 3)
        })
    }

    /// `(F,)` uint32 smooth group per face, or None.
    #[getter]
    fn smooth(slf: &Bound<'_, Self>) -> PyResult<Option<Py<PyAny>>> {
        let values = slf.get().view().smooth;
        optional_field(slf, Field::Smooth, values, |s, v| numpy_view(s, &v, 1))
    }

    /// The material names, or None.
    #[getter]
    fn materials(&self) -> Option<Vec<String>> {
        (!self.materials.is_empty()).then(|| self.materials.clone())
    }

    /// `(F,)` uint32 indices into `materials`, or None.
    #[getter]
    fn material_indices(slf: &Bound<'_, Self>) -> PyResult<Option<Py<PyAny>>> {
        let values = slf.get().view().material_indices;
        optional_field(slf, Field::MaterialIndices, values, |s, v| {
            numpy_view(s, &v, 1)
        })
    }

    /// The group names, or None.
    #[getter]
    fn groups(&self) -> Option<Vec<String>> {
        (!self.groups.is_empty()).then(|| self.groups.clone())
    }

    /// `(F,)` uint32 indices into `groups`, or None.
    #[getter]
    fn group_indices(slf: &Bound<'_, Self>) -> PyResult<Option<Py<PyAny>>> {
        let values = slf.get().view().group_indices;
        optional_field(slf, Field::GroupIndices, values, |s, v| {
            numpy_view(s, &v, 1)
        })
    }

    /// `(E, 2)` uint32 loose edges, or None.
    #[getter]
    fn edges(slf: &Bound<'_, Self>) -> PyResult<Option<Py<PyAny>>> {
        let values = slf.get().view().edges;
        optional_field(slf, Field::Edges, values, |s, v| {
            numpy_view(s, v.as_flattened(), 2)
        })
    }

    /// `(P,)` uint32 positions without faces or lines (`p`), or None.
    #[getter]
    fn points(slf: &Bound<'_, Self>) -> PyResult<Option<Py<PyAny>>> {
        let values = slf.get().view().points;
        optional_field(slf, Field::Points, values, |s, v| numpy_view(s, &v, 1))
    }

    /// The number of faces.
    #[getter]
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

    /// Pickling and copying: the arguments that build this mesh again (the
    /// arrays as numpy arrays, which pickle copies).
    fn __getnewargs_ex__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyTuple>, Bound<'py, PyDict>)> {
        let py = slf.py();
        let required = ["name", "positions", "face_offsets", "position_indices"];
        let args = required
            .iter()
            .map(|name| slf.getattr(*name))
            .collect::<PyResult<Vec<_>>>()?;
        let options = PyDict::new(py);
        for name in [
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
            "points",
        ] {
            let value = slf.getattr(name)?;
            if !value.is_none() {
                options.set_item(name, value)?;
            }
        }
        Ok((PyTuple::new(py, args)?, options))
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
pub(crate) trait Plain: numpy::Element {
    const FORMAT: &'static str;
}

impl Plain for f32 {
    const FORMAT: &'static str = "f";
}

impl Plain for u32 {
    const FORMAT: &'static str = "I";
}

impl Plain for i16 {
    const FORMAT: &'static str = "h";
}

impl Plain for bool {
    const FORMAT: &'static str = "?";
}

/// A read-only numpy array of `values` (rows of `width`), which `owner`'s
/// memory backs: no copy. Where numpy cannot be imported (Blender builds
/// without it), a read-only `memoryview` of a copy.
pub(crate) fn numpy_view<T: Plain, O: pyo3::PyClass>(
    owner: &Bound<'_, O>,
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
        // A memoryview cannot take a shape with a zero: an empty one is flat.
        if values.is_empty() {
            return Ok(view.call_method1("cast", (T::FORMAT,))?.unbind());
        }
        return Ok(view.call_method1("cast", (T::FORMAT, shape))?.unbind());
    }
    let container = owner.clone().into_any();
    // SAFETY: the arrays of `owner` (a frozen class) are never changed nor
    // moved while it lives, and the numpy array keeps it alive.
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
    pub(crate) fn from_owned(mesh: oxport::Mesh<'static>) -> Self {
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
            points: mesh.points.map(own_flat),
            objects: (0..FIELDS).map(|_| None).collect(),
        }
    }
}
