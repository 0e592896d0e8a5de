//! One gathered Blender mesh to the [`Mesh`] Blender's exporter writes:
//! the arrays checked, then every algorithm of this module applied in its order.

use std::borrow::Cow;

use crate::mesh::Mesh;
use crate::pipeline::Pipeline;
use crate::{Error, Result};

use super::check::check;
use super::normals::mixed_corner_normals;
use super::{
    Exporter, Matrix3, Matrix4, NormalSource, SmoothGroupInput, VertexGroupInput,
    corner_colors_to_vertices, corner_normals, domain_normals, exported_name, face_order,
    face_vertex_groups, linear_to_srgb, normal_transform, reorder_faces, scaled_transform,
    smooth_groups, transform_position, uv_exact_map, uv_vertex_map,
};

/// One evaluated Blender mesh as its Python API gives it (`foreach_get`).
#[derive(Clone, Debug, Default)]
pub struct Gathered<'a> {
    /// The object's name.
    pub name: String,
    /// [`world_and_axes_transform`](super::world_and_axes_transform) of the object.
    pub transform: Option<Matrix4>,
    /// The exporter's `global_scale`.
    pub scale: f32,
    /// `vertices[].co`
    pub positions: &'a [[f32; 3]],
    /// `loops[].vertex_index`
    pub corner_vertices: &'a [u32],
    /// `polygons[].loop_start`
    pub face_starts: &'a [u32],
    /// The normals, when they are exported.
    pub normals: Option<NormalSource<'a>>,
    /// The active UV layer's `data[].uv`, when UVs are exported.
    pub corner_uvs: Option<&'a [[f32; 2]]>,
    /// Smooth group per face (`polygons[].use_smooth` as 0 or 1 without smooth groups).
    pub smooth: Option<&'a [u32]>,
    /// `polygons[].material_index` with the material names of the slots, when
    /// materials are exported (an empty name for an empty slot; indices past
    /// the slots get one too).
    pub material_indices: Option<&'a [u32]>,
    /// The material slots' names, indexed by `material_indices`.
    pub materials: Vec<String>,
    /// Loose edges, as the two vertices to write.
    pub edges: Option<&'a [[u32; 2]]>,
    /// The exporter whose rules the mesh follows (normals, UVs).
    pub exporter: Exporter,
    /// Smooth groups instead of 0/1 for `s` lines (`export_smooth_groups`):
    /// computed from `loops[].edge_index` and `edges[].use_edge_sharp`, as
    /// powers of two when `bitflags` (`smooth_group_bitflags`).
    pub smooth_groups: Option<SmoothGroupInput<'a>>,
    /// Material groups (`export_material_groups`): `g OBJECT_MATERIAL` before
    /// each `usemtl`, with this object name.
    pub material_groups: Option<String>,
    /// Vertex groups (`export_vertex_groups`): `g NAME` where a face's group
    /// changes, the group of most weight over the face's corners, or `off`.
    pub vertex_groups: Option<VertexGroupInput<'a>>,
    /// The active color attribute on the face corner domain (float colors),
    /// linear RGBA: averaged per vertex as Blender's attribute domain
    /// interpolation averages them.
    pub corner_colors: Option<&'a [[f32; 4]]>,
    /// The active color attribute on the face corner domain (byte colors), as
    /// `data[].color_srgb` gives it (bytes / 255): the bytes are averaged per
    /// vertex (truncated, as Blender's byte color mixing does), then decoded.
    pub corner_colors_srgb8: Option<&'a [[f32; 4]]>,
    /// The active color attribute on the point domain, linear RGBA
    /// (`color_attributes.active_color.data[].color`), when colors are exported.
    pub vertex_colors: Option<&'a [[f32; 4]]>,
}

/// The mesh Blender's exporter (`gathered.exporter`) writes for `gathered`:
/// positions transformed, normals transformed, rounded and merged, UVs
/// merged, faces in material order.
pub fn mesh(gathered: &Gathered, pipeline: &Pipeline) -> Result<Mesh<'static>> {
    let g = gathered;
    let object = || format!("object {:?}", g.name);
    check(g).map_err(|e| e.within(&object()))?;
    let corners = g.corner_vertices.len();
    let faces = g.face_starts.len();
    let mut face_offsets: Vec<u32> = Vec::with_capacity(faces + 1);
    face_offsets.extend_from_slice(g.face_starts);
    face_offsets.push(corners as u32);
    let positions = match &g.transform {
        // 4.1+ folds the scale into the matrix; 3.4 scales the results.
        Some(m) if g.exporter >= Exporter::Blender45 => {
            let m = scaled_transform(m, g.scale);
            transformed(g.positions, &m, 1.0, pipeline)
        }
        Some(m) => transformed(g.positions, m, g.scale, pipeline),
        None => g.positions.to_vec(),
    };
    let identity_normals: Matrix3 = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
    let normal_matrix = g
        .transform
        .as_ref()
        .map_or(identity_normals, |m| normal_transform(m, g.exporter));
    let normals = || -> Result<_> {
        Ok(match (g.normals, g.smooth) {
            (Some(source), _) if g.exporter >= Exporter::Blender45 => {
                let (values, indices) = domain_normals(
                    source,
                    g.corner_vertices,
                    &face_offsets,
                    g.positions.len(),
                    &normal_matrix,
                    pipeline,
                )
                .map_err(|e| e.within(&object()))?;
                (Some(values), Some(indices))
            }
            // Flat faces take Blender's face normals.
            (Some(NormalSource::Vertices(vertex_normals)), Some(smooth))
                if vertex_normals.len() == g.positions.len() && smooth.contains(&0) =>
            {
                let (values, indices) = mixed_corner_normals(
                    vertex_normals,
                    g.positions,
                    g.corner_vertices,
                    &face_offsets,
                    smooth,
                    &normal_matrix,
                    pipeline,
                );
                (Some(values), Some(indices))
            }
            (Some(source), _) => {
                let (values, indices) = corner_normals(
                    source,
                    g.corner_vertices,
                    g.smooth,
                    g.positions.len(),
                    &normal_matrix,
                    pipeline,
                )
                .map_err(|e| e.within(&object()))?;
                (Some(values), Some(indices))
            }
            (None, _) => (None, None),
        })
    };
    let uvs = || match g.corner_uvs {
        Some(uv) => {
            let (values, indices) = match g.exporter {
                Exporter::Blender34 => {
                    uv_vertex_map(uv, g.corner_vertices, &face_offsets, g.positions.len())
                }
                Exporter::Blender45 | Exporter::Blender50 => {
                    uv_exact_map(uv, g.corner_vertices, g.positions.len(), pipeline)
                }
            };
            (Some(values), Some(indices))
        }
        None => (None, None),
    };
    // Each has a serial walk of its own (the merge): side by side.
    let (normals, (uvs, uv_indices)) = pipeline.join(normals, uvs);
    let (normals, normal_indices) = normals?;
    let written_smooth = match (g.smooth, &g.smooth_groups) {
        (Some(smooth), Some(input)) => {
            // Blender 3.5+ keeps bits apart across boundary vertices too.
            let vertices = (g.exporter >= Exporter::Blender45)
                .then_some((g.corner_vertices, g.positions.len()));
            let groups = smooth_groups(&face_offsets, smooth, input, vertices)
                .map_err(|e| e.within(&object()))?;
            Some(
                groups
                    .iter()
                    .zip(smooth)
                    .map(|(&group, &s)| if s != 0 { group } else { 0 })
                    .collect(),
            )
        }
        (smooth, _) => smooth.map(<[u32]>::to_vec),
    };
    // Faces may use material indices past the object's slots: Blender writes
    // `usemtl` with an empty name for them, as for empty slots.
    let mut materials: Vec<String> = g
        .materials
        .iter()
        .map(|m| exported_name(m).into_owned())
        .collect();
    if let Some(indices) = g.material_indices {
        let used = indices.iter().max().map_or(0, |&m| m as usize + 1);
        if used > materials.len() {
            materials.resize(used, String::new());
        }
    }
    let (groups, group_indices): (Vec<Cow<str>>, Option<Cow<[u32]>>) =
        match (&g.vertex_groups, &g.material_groups, g.material_indices) {
            (Some(input), _, _) => {
                let faces = face_vertex_groups(&face_offsets, g.corner_vertices, input)
                    .map_err(|e| e.within(&object()))?;
                let mut names: Vec<Cow<str>> =
                    input.names.iter().map(|n| Cow::Owned(n.clone())).collect();
                names.push("off".into());
                (names, Some(faces.into()))
            }
            (None, Some(object), Some(indices)) => {
                let object = exported_name(object);
                (
                    materials
                        .iter()
                        .map(|m| Cow::Owned(format!("{object}_{m}")))
                        .collect(),
                    Some(indices.to_vec().into()),
                )
            }
            _ => (Vec::new(), None),
        };
    let averaged;
    let point_colors = match (g.vertex_colors, g.corner_colors, g.corner_colors_srgb8) {
        (Some(colors), _, _) => Some(colors),
        (None, Some(colors), _) | (None, None, Some(colors)) => {
            let bytes = g.corner_colors.is_none();
            averaged =
                corner_colors_to_vertices(g.corner_vertices, g.positions.len(), colors, bytes);
            Some(averaged.as_slice())
        }
        (None, None, None) => None,
    };
    let mut mesh = Mesh {
        name: exported_name(&g.name).into_owned().into(),
        positions: positions.into(),
        colors: point_colors.map(|colors| {
            Cow::Owned(
                colors
                    .iter()
                    .map(|&[r, g, b, _]| linear_to_srgb([r, g, b]))
                    .collect(),
            )
        }),
        uvs: uvs.map(Cow::Owned),
        normals: normals.map(Cow::Owned),
        face_offsets: face_offsets.into(),
        position_indices: g.corner_vertices.to_vec().into(),
        uv_indices: uv_indices.map(Cow::Owned),
        normal_indices: normal_indices.map(Cow::Owned),
        smooth: written_smooth.map(Cow::Owned),
        materials: materials.into_iter().map(Cow::Owned).collect(),
        material_indices: g.material_indices.map(|m| Cow::Owned(m.to_vec())),
        groups,
        group_indices,
        edges: g.edges.map(|e| Cow::Owned(e.to_vec())),
        points: None,
    };
    if let Some(order) = g.material_indices.and_then(face_order) {
        reorder_faces(&mut mesh, &order);
    }
    // Valid by construction: every index comes from a checked input or from
    // here (the fuzz target asserts it on any input).
    debug_assert!(mesh.validate().is_ok());
    Ok(mesh)
}

/// [`mesh`] for many meshes, built in parallel on `threads` threads (`None`:
/// one per core; the work inside each mesh runs on the same threads).
pub fn meshes(gathered: &[Gathered], threads: Option<usize>) -> Result<Vec<Mesh<'static>>> {
    let pipeline = Pipeline::new(threads)?;
    pipeline
        .map(gathered.iter().collect(), |g| mesh(g, &pipeline))
        .into_iter()
        .collect()
}

/// `positions` transformed by `m` and scaled, in parallel.
fn transformed(
    positions: &[[f32; 3]],
    m: &Matrix4,
    scale: f32,
    pipeline: &Pipeline,
) -> Vec<[f32; 3]> {
    // A position is read and written: 24 bytes.
    pipeline.map_indices(positions.len(), 24, |i| {
        transform_position(positions[i], m, scale)
    })
}

/// How many of `edge_count` edges no corner uses (`loops[].edge_index`):
/// Blender flags loose (`edges[].is_loose`) only edges that no face uses, so
/// when this is zero the slower flag needs no reading.
pub fn unused_edges(corner_edges: &[u32], edge_count: usize) -> Result<usize> {
    let mut used = vec![false; edge_count];
    for (corner, &e) in corner_edges.iter().enumerate() {
        match used.get_mut(e as usize) {
            Some(u) => *u = true,
            None => {
                return Err(Error::invalid(format!(
                    "loop {corner} uses edge {e} of {edge_count}"
                )));
            }
        }
    }
    Ok(used.iter().filter(|&&u| !u).count())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::Pipeline;

    #[test]
    fn vertex_normals_on_smooth_faces_face_normals_on_flat_ones() {
        // Two triangles: the first smooth (vertex normals), the second flat.
        let positions = [
            [0.0, 0.0, 0.0],
            [1.0, 0.0, 0.0],
            [0.0, 1.0, 0.0],
            [1.0, 1.0, 0.0],
        ];
        let vertex_normals = [[0.0, 0.6, 0.8]; 4];
        let gathered = Gathered {
            name: "two".into(),
            positions: &positions,
            corner_vertices: &[0, 1, 2, 1, 3, 2],
            face_starts: &[0, 3],
            normals: Some(NormalSource::Vertices(&vertex_normals)),
            smooth: Some(&[1, 0]),
            scale: 1.0,
            ..Default::default()
        };
        let m = mesh(&gathered, &Pipeline::new(None).unwrap()).unwrap();
        let normals = m.normals.unwrap();
        assert_eq!(normals.as_ref(), &[[0.0, 0.6, 0.8], [-0.0, -0.0, 1.0]]);
        assert_eq!(m.normal_indices.unwrap().as_ref(), &[0, 0, 0, 1, 1, 1]);
    }

    #[test]
    fn unused_edges_are_counted() {
        assert_eq!(unused_edges(&[0, 1, 2], 3).unwrap(), 0);
        assert_eq!(unused_edges(&[0, 2, 2], 4).unwrap(), 2);
        assert!(unused_edges(&[0, 5], 4).is_err());
    }
}
