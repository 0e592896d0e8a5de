//! The face order of Blender's exporter: faces sorted by material, stably.

use crate::mesh::Mesh;

/// The exporter's face order: by material index, then by face index. `None`
/// when the faces are already in that order.
pub fn face_order(material_indices: &[u32]) -> Option<Vec<u32>> {
    if material_indices.windows(2).all(|w| w[0] <= w[1]) {
        return None;
    }
    let mut order: Vec<u32> = (0..material_indices.len() as u32).collect();
    order.sort_by_key(|&f| (material_indices[f as usize], f));
    Some(order)
}

/// Puts the faces of `mesh` in `order` (a permutation of its faces).
pub fn reorder_faces(mesh: &mut Mesh, order: &[u32]) {
    let old = mesh.face_offsets.to_vec();
    let mut offsets = Vec::with_capacity(old.len());
    offsets.push(0u32);
    for &f in order {
        let f = f as usize;
        offsets.push(offsets.last().unwrap() + (old[f + 1] - old[f]));
    }
    let permute_corners = |values: &[u32]| -> Vec<u32> {
        order
            .iter()
            .flat_map(|&f| {
                values[old[f as usize] as usize..old[f as usize + 1] as usize]
                    .iter()
                    .copied()
            })
            .collect()
    };
    let permute_faces =
        |values: &[u32]| -> Vec<u32> { order.iter().map(|&f| values[f as usize]).collect() };
    mesh.position_indices = permute_corners(&mesh.position_indices).into();
    if let Some(uv) = &mesh.uv_indices {
        mesh.uv_indices = Some(permute_corners(uv).into());
    }
    if let Some(normal) = &mesh.normal_indices {
        mesh.normal_indices = Some(permute_corners(normal).into());
    }
    if let Some(smooth) = &mesh.smooth {
        mesh.smooth = Some(permute_faces(smooth).into());
    }
    if let Some(materials) = &mesh.material_indices {
        mesh.material_indices = Some(permute_faces(materials).into());
    }
    if let Some(groups) = &mesh.group_indices {
        mesh.group_indices = Some(permute_faces(groups).into());
    }
    mesh.face_offsets = offsets.into();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn faces_sort_by_material_stably() {
        assert_eq!(face_order(&[0, 0, 1]), None);
        assert_eq!(face_order(&[1, 0, 1, 0]), Some(vec![1, 3, 0, 2]));
    }
}
