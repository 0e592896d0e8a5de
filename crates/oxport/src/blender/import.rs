//! Meshes as Blender's OBJ importer (`wm.obj_import`) builds them, from the
//! objects of an OBJ file (`crate::blender_obj` reads them): the arrays a
//! Blender mesh is filled with, in Blender's order and with its float
//! arithmetic, so that an add-on only copies them in.
//!
//! | rule | 3.4 | 4.5, 5.0 |
//! | --- | --- | --- |
//! | vertices | those the faces and `l` lines use (and the skipped faces read), in file order | the same |
//! | normals | each `vn` normalized (`normalize_v3`), per corner | the same |
//! | flat faces | the faces after `s 0` / `s off` | with normals: none, but faces of area below 1e-12; without: as 3.4 |
//! | vertex colors | `v x y z r g b` from sRGB to linear (`srgb_to_linearrgb_v3_v3`) | the same, when every vertex used has one |
//!
//! The file is read by `ObjectRule::Blender` (objects, materials, vertex
//! order, smooth state and one mesh per object whatever its faces' layouts,
//! as Blender's parser gives them). What differs from that parser, which
//! reads the file on one thread: for 3.4, vertex colors on some of an
//! object's vertices only are kept, black elsewhere (3.4 keeps none unless
//! one run of colored vertices covers the object's; from 4.5 a mesh has
//! colors when every vertex it uses has one, as here).

use super::Exporter;
use super::colors::srgb_to_linear_v3;
use super::edges::{MeshEdges, mesh_edges};
use super::exporter::creation_order;
use super::normals::newell;
use super::transform::{cross, normalize, sub};
use crate::mesh::Mesh;
use crate::pipeline::Pipeline;
use crate::{Error, Result};

/// One mesh object as Blender's importer builds it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ImportedMesh {
    /// The object's name (and its mesh's), as the `o` line gives it (or the
    /// file's name), after its collections with a collection separator.
    pub name: String,
    /// With a collection separator, the collections the object is linked
    /// into, outermost first ([`collection_path`]).
    pub collections: Vec<String>,
    /// The vertices the faces and loose edges use, in file order.
    pub positions: Vec<[f32; 3]>,
    /// `F + 1` offsets into the corners (`loop_start`, and the total).
    pub face_offsets: Vec<u32>,
    /// Each face's corner count (`loop_total`).
    pub face_sizes: Vec<u32>,
    /// The vertex of each corner.
    pub corner_vertices: Vec<u32>,
    /// Per corner (`(0, 0)` where a corner has none), when any corner has one.
    pub corner_uvs: Option<Vec<[f32; 2]>>,
    /// Per corner, normalized (zero where a corner has none), when the file
    /// has normals: set as custom normals.
    pub corner_normals: Option<Vec<[f32; 3]>>,
    /// Per face: shaded smooth (`use_smooth`; `sharp_face` is its negation).
    pub smooth_faces: Vec<bool>,
    /// Per face, into `materials`.
    pub material_indices: Vec<u32>,
    /// The materials in the order the object first uses them.
    pub materials: Vec<String>,
    /// Every edge, as Blender makes them (`.edge_verts`): the `l` lines'
    /// edges ([`ImportedMesh::loose_edges`]), then the faces' by smaller
    /// vertex and first use (Blender's own order depends on its thread count).
    pub edges: Vec<[u32; 2]>,
    /// How many of `edges` are the `l` lines'.
    pub loose_edge_count: usize,
    /// Per corner, its edge in `edges` (`.corner_edge`).
    pub corner_edges: Vec<u32>,
    /// Per vertex, linear RGB and alpha 1, when the file has vertex colors.
    pub colors: Option<Vec<[f32; 4]>>,
    /// With vertex groups: each group's name and the vertices its faces use
    /// (each with weight 1), in the order the groups first come.
    pub vertex_groups: Vec<(String, Vec<u32>)>,
    /// Blender's `Mesh.validate` would change nothing (no position that is
    /// not finite, no face of fewer than three vertices or using one twice,
    /// no two faces on one set of vertices, no degenerate or repeated loose
    /// edge): an importer may skip it.
    pub valid: bool,
    /// The object had a face skipped for an index out of range or 0 (given
    /// by [`imported_objects`]): Blender's importer then validates its
    /// mesh, whatever `validate_meshes` says.
    pub faces_skipped: bool,
}

impl ImportedMesh {
    /// The `l` lines' edges, between the mesh's vertices: the first of `edges`.
    pub fn loose_edges(&self) -> &[[u32; 2]] {
        &self.edges[..self.loose_edge_count]
    }
}

/// What the import is asked for (`wm.obj_import`'s options that shape meshes).
#[derive(Clone, Copy, Debug)]
pub struct ImportOptions {
    /// The importer of this Blender version.
    pub importer: Exporter,
    /// `import_vertex_groups`: the `g` groups as vertex groups.
    pub vertex_groups: bool,
    /// `clamp_size`: the largest size of the objects together (0: any).
    pub clamp_size: f32,
    /// `global_scale`: the objects' scale, where `clamp_size` leaves it.
    pub global_scale: f32,
    /// `use_split_objects`: an object per `o` (else one for the file).
    pub split_objects: bool,
    /// `use_split_groups`: an object per `g`.
    pub split_groups: bool,
    /// `collection_separator`: objects in the collections their names give
    /// ([`collection_path`]). Blender splits at the separator's first byte:
    /// only an ASCII character is taken.
    pub collection_separator: Option<char>,
    /// `close_spline_loops`: a curve whose last points repeat its first,
    /// with knots to match, is a cyclic spline (4.5 and 5.0).
    pub close_spline_loops: bool,
}

impl Default for ImportOptions {
    fn default() -> Self {
        ImportOptions {
            importer: Exporter::default(),
            vertex_groups: false,
            clamp_size: 0.0,
            global_scale: 1.0,
            split_objects: true,
            split_groups: false,
            collection_separator: None,
            close_spline_loops: true,
        }
    }
}

/// The scale Blender's importer gives every object of a file (`meshes`)
/// for `clamp_size` (`None`: the objects keep theirs), in f32 as Blender
/// computes it. From 4.5: where the objects' bounds together, scaled by
/// `global_scale`, are larger than `clamp_size` in some axis, `clamp_size`
/// over their largest size. 3.4 measures each object before its mesh has
/// vertices, and so an empty mesh's bounds (−1 to 1): the largest power of
/// ten up to 1 at which 2 fits in `clamp_size`, given every object, in
/// place of `global_scale`.
pub fn clamped_scale(meshes: &[ImportedMesh], options: &ImportOptions) -> Option<f32> {
    clamped_scale_with_curves(meshes, &[], options)
}

/// [`clamped_scale`] of a file with curve objects too (from 4.5 their
/// control points count, each widened by its radius, 1, as Blender bounds
/// a curve).
pub fn clamped_scale_with_curves(
    meshes: &[ImportedMesh],
    curves: &[super::ImportedCurve],
    options: &ImportOptions,
) -> Option<f32> {
    let clamp = options.clamp_size;
    if options.importer < Exporter::Blender45 {
        if clamp == 0.0 {
            return None;
        }
        let mut scale = 1.0f32;
        // (Ends: the scale reaches 0 after some forty divisions at most.)
        while clamp < 2.0 * scale {
            scale /= 10.0;
        }
        return Some(scale);
    }
    if clamp <= 0.0 {
        return None;
    }
    let positions = meshes.iter().flat_map(|m| &m.positions).map(|p| (*p, *p));
    let widened = |p: &[f32; 4]| {
        let [x, y, z, _] = *p;
        ([x - 1.0, y - 1.0, z - 1.0], [x + 1.0, y + 1.0, z + 1.0])
    };
    let controls = curves.iter().flat_map(|c| &c.points).map(widened);
    let mut bounds = positions.chain(controls).peekable();
    bounds.peek()?;
    let (mut min, mut max) = ([f32::MAX; 3], [f32::MIN; 3]);
    for (low, high) in bounds {
        for axis in 0..3 {
            min[axis] = min[axis].min(low[axis]);
            max[axis] = max[axis].max(high[axis]);
        }
    }
    let largest = (0..3).map(|a| max[a] - min[a]).fold(f32::MIN, f32::max);
    (clamp < largest * options.global_scale).then(|| clamp / largest)
}

/// Where Blender's importer (4.1+, `collection_separator`) puts the object
/// of an OBJ object named `name`: the collections it is linked into,
/// outermost first, each a child of the one before and the first of the
/// active collection (the parts of the name before each `separator`, empty
/// parts left out), and the object's own name (the part after the last
/// separator; `Untitled` where that is empty). Without a separator, no
/// collections and the whole name.
pub fn collection_path(name: &str, separator: Option<char>) -> (Vec<&str>, &str) {
    let Some(separator) = separator else {
        return (Vec::new(), name);
    };
    let mut parts: Vec<&str> = name.split(separator).collect();
    let own = parts
        .pop()
        .filter(|own| !own.is_empty())
        .unwrap_or("Untitled");
    parts.retain(|part| !part.is_empty());
    (parts, own)
}

/// The collection separator `wm.obj_import` is given (`collection_separator`):
/// none where empty; Blender splits names at its first byte, so one ASCII
/// character or an error.
pub fn collection_separator(text: &str) -> Result<Option<char>> {
    match text.as_bytes() {
        [] => Ok(None),
        &[byte] if byte.is_ascii() => Ok(Some(byte as char)),
        _ => Err(Error::invalid(format!(
            "collection_separator {text:?}: one ASCII character expected"
        ))),
    }
}

/// The objects Blender's importer makes of `meshes` (an OBJ file's objects,
/// in file order), in the order it makes them: by name, case aside; an
/// object without vertices is not made. Built on `threads` (None: every
/// core; each mesh's own work too). The mesh without a name (the one before
/// the first `o`) is named `unnamed`: Blender names it after the file.
/// `file_uvs`: the file declares UVs (`vt`), which gives every mesh a UV
/// layer in Blender 3.4.
pub fn imported_meshes(
    meshes: &[Mesh],
    unnamed: &str,
    file_uvs: bool,
    options: &ImportOptions,
    threads: Option<usize>,
) -> Result<Vec<ImportedMesh>> {
    let made = imported_objects(meshes, &[], &[], unnamed, file_uvs, options, threads)?;
    Ok(made.0)
}

/// Where Blender's importer makes a curve among a file's objects: after how
/// many of its meshes, and at which place among all it makes.
pub type CurvePlace = (usize, usize);

/// [`imported_meshes`], with the file's curves among them: `curves` gives
/// each curve's name and how many of `meshes` come before it in the file.
/// Blender's importer sorts curves and meshes together; the second result
/// is, per curve, how many of the meshes it makes before that curve and
/// the curve's place among every object it makes. `faces_skipped` lists
/// the meshes that had a face skipped ([`crate::obj::Scene::faces_skipped`]).
pub fn imported_objects(
    meshes: &[Mesh],
    curves: &[(usize, &str)],
    faces_skipped: &[usize],
    unnamed: &str,
    file_uvs: bool,
    options: &ImportOptions,
    threads: Option<usize>,
) -> Result<(Vec<ImportedMesh>, Vec<CurvePlace>)> {
    let name = |mesh: &Mesh| -> String {
        if mesh.name.is_empty() {
            unnamed.to_string()
        } else {
            mesh.name.to_string()
        }
    };
    let names: Vec<String> = meshes.iter().map(name).collect();
    let uses = |m: &Mesh| !m.position_indices.is_empty() || has_edges(m) || m.points.is_some();
    let pipeline = Pipeline::new(threads)?;
    // A file whose faces and lines use no vertex: its last object takes
    // every vertex, as a point cloud (after every curve).
    if !meshes.iter().any(uses) {
        let last = meshes.iter().rposition(|m| !m.positions.is_empty());
        let cloud = |i: usize| built(&meshes[i], &names[i], options, file_uvs, &pipeline, true);
        let places = (0..curves.len()).map(|c| (0, c)).collect();
        return Ok((last.map(cloud).into_iter().collect(), places));
    }
    // Meshes and curves in file order (a curve after the meshes before it),
    // as Blender's importer lists them before it sorts them.
    enum Listed {
        Mesh(usize),
        Curve(usize),
    }
    let mut listed: Vec<(&str, Listed)> = Vec::with_capacity(names.len() + curves.len());
    let mut next_curve = 0;
    for m in 0..=names.len() {
        while next_curve < curves.len() && curves[next_curve].0 <= m {
            listed.push((curves[next_curve].1, Listed::Curve(next_curve)));
            next_curve += 1;
        }
        if m < names.len() {
            listed.push((&names[m], Listed::Mesh(m)));
        }
    }
    let list_names: Vec<&str> = listed.iter().map(|l| l.0).collect();
    let mut made = Vec::with_capacity(names.len());
    let mut places = vec![(0, 0); curves.len()];
    let mut curves_made = 0;
    for i in creation_order(&list_names) {
        match listed[i].1 {
            Listed::Mesh(m) if uses(&meshes[m]) => made.push(m),
            Listed::Mesh(_) => {}
            Listed::Curve(c) => {
                places[c] = (made.len(), made.len() + curves_made);
                curves_made += 1;
            }
        }
    }
    let built = pipeline.map(made, |i| ImportedMesh {
        faces_skipped: faces_skipped.binary_search(&i).is_ok(),
        ..imported_mesh(&meshes[i], &names[i], options, file_uvs, &pipeline)
    });
    Ok((built, places))
}

fn has_edges(mesh: &Mesh) -> bool {
    mesh.edges.as_ref().is_some_and(|e| !e.is_empty())
}

/// The mesh Blender's importer builds for `mesh`, named `name` (Blender
/// names the object before the first `o` after the file); `file_uvs`: the
/// file has UVs (Blender 3.4 then gives a mesh without any a layer of zeros).
pub fn imported_mesh(
    mesh: &Mesh,
    name: &str,
    options: &ImportOptions,
    file_uvs: bool,
    pipeline: &Pipeline,
) -> ImportedMesh {
    built(mesh, name, options, file_uvs, pipeline, false)
}

/// [`imported_mesh`], of every vertex of `mesh` where `every_vertex` (a
/// point cloud: Blender's mesh of a file whose faces and lines use none).
fn built(
    mesh: &Mesh,
    name: &str,
    options: &ImportOptions,
    file_uvs: bool,
    pipeline: &Pipeline,
    every_vertex: bool,
) -> ImportedMesh {
    let faces = mesh.face_offsets.len().saturating_sub(1);
    // The vertices used, in file order.
    let unused = if every_vertex { 0 } else { u32::MAX };
    let mut local = vec![unused; mesh.positions.len()];
    let mut used = |v: u32| local[v as usize] = 0;
    mesh.position_indices.iter().for_each(|&v| used(v));
    let edges = mesh.edges.as_deref().unwrap_or_default();
    edges.iter().flatten().for_each(|&v| used(v));
    // (The positions of faces Blender's importer skips, which it keeps.)
    let points = mesh.points.as_deref().unwrap_or_default();
    points.iter().for_each(|&v| used(v));
    let mut positions = Vec::new();
    for (v, slot) in local.iter_mut().enumerate() {
        if *slot == 0 {
            *slot = positions.len() as u32;
            positions.push(mesh.positions[v]);
        }
    }
    let indices = &mesh.position_indices;
    // A corner reads an index and the vertex's (8 bytes, one cache miss).
    let corner_vertices = pipeline.map_indices(indices.len(), 64, |c| local[indices[c] as usize]);
    // From 4.5 a mesh without corners (its faces all skipped) has neither
    // UVs nor normals.
    let cornered = !corner_vertices.is_empty() || options.importer < Exporter::Blender45;
    let given = mesh
        .uvs
        .as_ref()
        .zip(mesh.uv_indices.as_ref())
        .filter(|_| cornered);
    let corner_uvs = match (given, options.importer) {
        (Some((uvs, indices)), _) => Some(pipeline.map_indices(indices.len(), 64, |c| {
            uvs.get(indices[c] as usize).copied().unwrap_or([0.0; 2])
        })),
        // A file with UVs gives every mesh a layer in 3.4 (of zeros).
        (None, Exporter::Blender34) if file_uvs => Some(vec![[0.0; 2]; corner_vertices.len()]),
        (None, _) => None,
    };
    let corner_normals = mesh.normals.as_ref().filter(|_| cornered).map(|normals| {
        let unit = pipeline.map_indices(normals.len(), 24, |n| {
            normalize(normals[n]).unwrap_or([0.0; 3])
        });
        match mesh.normal_indices.as_ref() {
            Some(indices) => pipeline.map_indices(indices.len(), 64, |c| {
                unit.get(indices[c] as usize).copied().unwrap_or([0.0; 3])
            }),
            None => vec![[0.0; 3]; corner_vertices.len()],
        }
    });
    let smooth = |f: usize| mesh.smooth.as_ref().is_some_and(|s| s[f] != 0);
    // A face reads its corners' positions (four of 16 bytes, typically).
    let smooth_faces = pipeline.map_indices(faces, 64, |f| {
        match (&corner_normals, options.importer) {
            // 4.1+ leaves the shading to the custom normals, but for
            // degenerate faces, which would spoil the fans of their vertices.
            (Some(_), importer) if importer >= Exporter::Blender45 => {
                let corners = &corner_vertices
                    [mesh.face_offsets[f] as usize..mesh.face_offsets[f + 1] as usize];
                face_area(&positions, corners) >= 1.0e-12
            }
            _ => smooth(f),
        }
    });
    let material_indices = match &mesh.material_indices {
        Some(indices) => indices.to_vec(),
        None => vec![0; faces],
    };
    // A color with a component below 0 is none (Blender's parser keeps
    // none such, and `ObjectRule::Blender` gives -1s to vertices without).
    // From 4.5 a mesh has colors when every vertex it uses has one; 3.4's
    // are black where there is none.
    let colored = |c: &[f32; 3]| c.iter().all(|&x| x >= 0.0);
    let every_vertex_colored = |colors: &[[f32; 3]]| {
        let mut used = local
            .iter()
            .zip(colors)
            .filter(|(slot, _)| **slot != u32::MAX);
        options.importer < Exporter::Blender45 || used.all(|(_, c)| colored(c))
    };
    let given = mesh.colors.as_deref().filter(|c| every_vertex_colored(c));
    let colors = given.map(|colors| {
        let mut linear = vec![[0.0f32, 0.0, 0.0, 1.0]; positions.len()];
        for (v, &slot) in local.iter().enumerate() {
            if slot != u32::MAX && colored(&colors[v]) {
                let [r, g, b] = srgb_to_linear_v3(colors[v]);
                linear[slot as usize] = [r, g, b, 1.0];
            }
        }
        linear
    });
    let vertex_groups = match (&mesh.group_indices, options.vertex_groups) {
        (Some(groups), true) => {
            let mut members = vec![Vec::new(); mesh.groups.len()];
            for f in 0..faces {
                let corners = mesh.face_offsets[f] as usize..mesh.face_offsets[f + 1] as usize;
                if let Some(list) = members.get_mut(groups[f] as usize) {
                    list.extend(corners.map(|c| corner_vertices[c]));
                }
            }
            mesh.groups
                .iter()
                .zip(members)
                .map(|(name, mut vertices)| {
                    vertices.sort_unstable();
                    vertices.dedup();
                    (group_name(name), vertices)
                })
                .collect()
        }
        _ => Vec::new(),
    };
    let loose_edges: Vec<[u32; 2]> = edges.iter().map(|e| e.map(|v| local[v as usize])).collect();
    let MeshEdges {
        edges,
        corner_edges,
    } = mesh_edges(
        &mesh.face_offsets,
        &corner_vertices,
        &loose_edges,
        positions.len(),
        pipeline,
    );
    let (collections, name) = collection_path(name, options.collection_separator);
    let mut imported = ImportedMesh {
        name: name.to_string(),
        collections: collections.into_iter().map(str::to_owned).collect(),
        positions,
        face_offsets: mesh.face_offsets.to_vec(),
        face_sizes: mesh.face_offsets.windows(2).map(|w| w[1] - w[0]).collect(),
        corner_vertices,
        corner_uvs,
        corner_normals,
        smooth_faces,
        material_indices,
        materials: mesh.materials.iter().map(|m| m.to_string()).collect(),
        loose_edge_count: loose_edges.len(),
        edges,
        corner_edges,
        colors,
        vertex_groups,
        valid: false,
        faces_skipped: false,
    };
    imported.valid = super::validity::valid(&imported, pipeline);
    imported
}

/// A `g` group's name as Blender's importer takes it: none (Blender then
/// calls the vertex group `Group`) when it holds `off`, `null` or `default`
/// anywhere.
fn group_name(name: &str) -> String {
    if ["off", "null", "default"]
        .iter()
        .any(|word| name.contains(word))
    {
        String::new()
    } else {
        name.to_string()
    }
}

/// A face's area as Blender computes it (`face_area_calc`): half the length
/// of the cross product of a triangle, or of Newell's normal of a polygon.
fn face_area(positions: &[[f32; 3]], corners: &[u32]) -> f32 {
    let p = |i: usize| positions[corners[i] as usize];
    let n = if corners.len() == 3 {
        cross(sub(p(0), p(1)), sub(p(1), p(2)))
    } else {
        newell(positions, corners)
    };
    (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt() * 0.5
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::Pipeline;
    use std::borrow::Cow;

    fn mesh() -> Mesh<'static> {
        Mesh {
            name: "quad".into(),
            // Vertex 2 is not used: it is left out.
            positions: vec![
                [0.0, 0.0, 0.0],
                [1.0, 0.0, 0.0],
                [9.0; 3],
                [1.0, 1.0, 0.0],
                [0.0, 1.0, 0.0],
                [2.0, 2.0, 0.0],
            ]
            .into(),
            colors: Some(vec![[1.0, 0.5, 0.0]; 6].into()),
            normals: Some(vec![[0.0, 0.0, 2.0]].into()),
            face_offsets: vec![0, 4].into(),
            position_indices: vec![0, 1, 3, 4].into(),
            normal_indices: Some(vec![0, 0, 0, 0].into()),
            smooth: Some(vec![1].into()),
            edges: Some(Cow::Owned(vec![[4, 5]])),
            groups: vec!["top".into()],
            group_indices: Some(vec![0].into()),
            ..Mesh::default()
        }
    }

    #[test]
    fn collections_are_the_parts_before_each_separator() {
        let path = |name| collection_path(name, Some('/'));
        assert_eq!(path("a/b/c"), (vec!["a", "b"], "c"));
        assert_eq!(path("a//b/"), (vec!["a", "b"], "Untitled"));
        assert_eq!(path("/a"), (vec![], "a"));
        assert_eq!(path("/"), (vec![], "Untitled"));
        assert_eq!(path("plain"), (vec![], "plain"));
        assert_eq!(collection_path("a/b", None), (vec![], "a/b"));
        assert_eq!(collection_path("a.b.c", Some('.')), (vec!["a", "b"], "c"));
        assert_eq!(collection_separator("").unwrap(), None);
        assert_eq!(collection_separator("/").unwrap(), Some('/'));
        for bad in ["//", "é"] {
            let error = collection_separator(bad).unwrap_err().to_string();
            assert!(error.contains("one ASCII character"), "{error}");
        }
    }

    #[test]
    fn meshes_hold_the_used_vertices_and_normalized_normals() {
        let options = ImportOptions {
            importer: Exporter::Blender34,
            vertex_groups: true,
            ..ImportOptions::default()
        };
        let m = imported_mesh(
            &mesh(),
            "quad",
            &options,
            false,
            &Pipeline::new(None).unwrap(),
        );
        assert_eq!(m.positions.len(), 5);
        assert_eq!(m.corner_vertices, [0, 1, 2, 3]);
        assert_eq!(m.loose_edges(), [[3, 4]]);
        assert_eq!(m.corner_normals.unwrap()[0], [0.0, 0.0, 1.0]);
        assert_eq!(m.smooth_faces, [true]);
        assert_eq!(m.face_sizes, [4]);
        assert_eq!(m.material_indices, [0]);
        assert_eq!(m.vertex_groups, [("top".to_string(), vec![0, 1, 2, 3])]);
        let colors = m.colors.unwrap();
        let [r, g, b] = srgb_to_linear_v3([1.0, 0.5, 0.0]);
        assert_eq!(colors[0], [r, g, b, 1.0]);
        assert!((g - 0.214).abs() < 0.001, "{g}");
        assert!(m.corner_uvs.is_none());
    }

    /// A vertex without a color (-1s, by the reader's Blender rule): from
    /// 4.5 a mesh that uses it has no colors, in 3.4 it is black.
    #[test]
    fn colors_are_kept_from_45_when_every_vertex_used_has_one() {
        let colors = |uncolored: usize, importer| {
            let mut some = mesh();
            let mut colors = vec![[1.0, 0.5, 0.0]; 6];
            colors[uncolored] = [-1.0; 3];
            some.colors = Some(colors.into());
            let options = ImportOptions {
                importer,
                ..ImportOptions::default()
            };
            let pipeline = Pipeline::new(None).unwrap();
            imported_mesh(&some, "quad", &options, false, &pipeline).colors
        };
        assert_eq!(colors(3, Exporter::Blender45), None);
        assert_eq!(colors(3, Exporter::Blender50), None);
        let black = colors(3, Exporter::Blender34).unwrap();
        assert_eq!(black[2], [0.0, 0.0, 0.0, 1.0]);
        assert_ne!(black[1], black[2]);
        // Vertex 2 is not used: it may have none.
        assert!(colors(2, Exporter::Blender50).is_some());
    }

    #[test]
    fn from_4_1_faces_with_normals_are_smooth_unless_degenerate() {
        let options = ImportOptions {
            importer: Exporter::Blender45,
            ..ImportOptions::default()
        };
        let mut flat = mesh();
        flat.smooth = Some(vec![0].into());
        let m = imported_mesh(
            &flat,
            "quad",
            &options,
            false,
            &Pipeline::new(None).unwrap(),
        );
        assert_eq!(m.smooth_faces, [true]);
        assert_eq!(m.face_sizes, [4]);
        assert!(m.vertex_groups.is_empty());
        let mut degenerate = mesh();
        degenerate.positions = vec![[0.0; 3]; 6].into();
        assert_eq!(
            imported_mesh(
                &degenerate,
                "quad",
                &options,
                false,
                &Pipeline::new(None).unwrap()
            )
            .smooth_faces,
            [false]
        );
        // Without normals, the file's shading.
        flat.normals = None;
        assert_eq!(
            imported_mesh(
                &flat,
                "quad",
                &options,
                false,
                &Pipeline::new(None).unwrap()
            )
            .smooth_faces,
            [false]
        );
    }

    #[test]
    fn clamp_size_scales_every_object_by_their_bounds_together() {
        let at = |positions: Vec<[f32; 3]>| ImportedMesh {
            positions,
            ..ImportedMesh::default()
        };
        let meshes = [
            at(vec![[0.0, 0.0, 0.0], [123.0, 0.0, 0.0]]),
            at(vec![[-1.0, 5.0, 0.0], [0.5, 40.0, 0.1]]),
        ];
        let options = |importer, clamp_size, global_scale| ImportOptions {
            importer,
            clamp_size,
            global_scale,
            ..ImportOptions::default()
        };
        let scale = |o: ImportOptions| clamped_scale(&meshes, &o);
        // 124 wide (x from -1 to 123).
        assert_eq!(
            scale(options(Exporter::Blender50, 10.0, 1.0)),
            Some(10.0 / 124.0)
        );
        assert_eq!(
            scale(options(Exporter::Blender45, 200.0, 2.0)),
            Some(200.0 / 124.0)
        );
        assert_eq!(scale(options(Exporter::Blender50, 1000.0, 2.0)), None);
        assert_eq!(scale(options(Exporter::Blender50, 0.0, 1.0)), None);
        // 3.4: by the bounds of an empty mesh, whatever the objects.
        assert_eq!(scale(options(Exporter::Blender34, 10.0, 2.0)), Some(1.0));
        assert_eq!(scale(options(Exporter::Blender34, 0.5, 2.0)), Some(0.1));
        assert_eq!(
            scale(options(Exporter::Blender34, 0.01, 1.0)),
            Some(1.0f32 / 10.0 / 10.0 / 10.0)
        );
        assert_eq!(scale(options(Exporter::Blender34, 0.0, 1.0)), None);
        assert_eq!(
            clamped_scale(&[], &options(Exporter::Blender50, 10.0, 1.0)),
            None
        );
        // A curve's control points count, widened by their radius (Blender
        // 5.0 gives 2/22 for points from z 0 to 20, beside a triangle within).
        let curve = super::super::ImportedCurve {
            points: vec![[0.0, 0.0, 0.0, 1.0], [0.0, 0.0, 20.0, 1.0]],
            ..Default::default()
        };
        let with_curve = |importer| {
            let o = options(importer, 2.0, 1.0);
            clamped_scale_with_curves(&[], std::slice::from_ref(&curve), &o)
        };
        assert_eq!(with_curve(Exporter::Blender50), Some(2.0f32 / 22.0));
        assert_eq!(
            with_curve(Exporter::Blender34),
            scale(options(Exporter::Blender34, 2.0, 1.0))
        );
    }

    /// A file whose faces and lines use no vertex makes one object of every
    /// vertex (the last object's); otherwise an object without faces or
    /// lines is not made.
    #[test]
    fn a_file_without_faces_is_a_point_cloud() {
        let points = Mesh {
            name: "cloud".into(),
            positions: vec![[0.0; 3], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]].into(),
            ..Mesh::default()
        };
        let options = ImportOptions::default();
        let made = imported_meshes(
            std::slice::from_ref(&points),
            "file",
            false,
            &options,
            Some(1),
        )
        .unwrap();
        let [cloud] = &made[..] else {
            panic!("{made:?}")
        };
        assert_eq!((cloud.name.as_str(), cloud.positions.len()), ("cloud", 3));
        assert!(cloud.corner_vertices.is_empty() && cloud.valid);
        let both = [points, mesh()];
        let made = imported_meshes(&both, "file", false, &options, Some(1)).unwrap();
        assert_eq!(made.len(), 1);
        assert_eq!(made[0].name, "quad");
    }
}
