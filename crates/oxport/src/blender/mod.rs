//! What Blender's OBJ exporter (3.4's, or 4.5's and 5.0's: [`Exporter`])
//! computes before it writes, reproduced bit
//! for bit, so that meshes gathered from Blender's Python API come out as the
//! same bytes: the float32 arithmetic of its matrix code (same operations in
//! the same order), its rounding of normals to four digits, its merging of
//! normals and of UVs, its face order.
//!
//! Matrices are in Blender's layout: `m[column][row]`, as `Object.matrix_world`
//! transposed.

mod check;
mod colors;
mod curve_import;
mod custom_normals;
mod edges;
mod exporter;
mod import;
mod material;
mod mesh;
mod normals;
mod nurbs;
mod order;
mod smooth_groups;
mod sort;
mod transform;
mod uvs;
mod validity;
mod vertex_groups;

/// A unit cube's quads, wound outwards, over vertices `i` at
/// `(i & 1, i >> 1 & 1, i >> 2 & 1)`: the tests' mesh.
#[cfg(test)]
pub(crate) const CUBE_QUADS: [[u32; 4]; 6] = [
    [0, 2, 3, 1],
    [4, 5, 7, 6],
    [0, 1, 5, 4],
    [2, 6, 7, 3],
    [0, 4, 6, 2],
    [1, 3, 7, 5],
];

pub use colors::{corner_colors_to_vertices, linear_to_srgb, srgb_to_linear, srgb_to_linear_v3};
pub use curve_import::{CurveInput, ImportedCurve, curve_obj, imported_curve};
pub use custom_normals::{CustomNormals, ImportedSource, NormalsStream, encode_custom_normals};
pub use exporter::{Exporter, exported_name};
pub use import::{
    CurvePlace, ImportOptions, ImportedMesh, clamped_scale, clamped_scale_with_curves,
    collection_path, collection_separator, imported_mesh, imported_meshes, imported_objects,
};
pub use material::{Bsdf, ImageTexture, MaterialInput, TextureInput, mtl_material};
pub use mesh::{Gathered, mesh, meshes, unused_edges};
pub use normals::{NormalSource, corner_normals, domain_normals, face_normal};
pub use nurbs::{NurbsSpline, nurbs_curves};
pub use order::{face_order, reorder_faces};
pub use smooth_groups::{SmoothGroupInput, smooth_groups};
pub use transform::{
    Matrix3, Matrix4, normal_transform, scaled_transform, transform_position, transform_positions,
    world_and_axes_transform,
};
pub use uvs::{UV_CONNECT_LIMIT, uv_exact_map, uv_vertex_map};
pub use vertex_groups::{VertexGroupInput, face_vertex_groups};
