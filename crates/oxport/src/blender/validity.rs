//! Whether Blender's `Mesh.validate` (`BKE_mesh_validate`, which its
//! importer runs by default from 4.1) would change a mesh its importer
//! builds: the importer can skip it when not, which on big meshes costs as
//! much as the rest of the import.
//!
//! For the meshes [`super::imported_mesh`] builds (every index in range,
//! edges made by Blender from the faces), `validate` changes something only
//! where a position is not finite, a face has fewer than three corners or
//! uses a vertex twice, two faces use the same vertices, or a loose edge
//! joins a vertex to itself or repeats another.

use super::ImportedMesh;
use crate::pipeline::Pipeline;

/// True when Blender's `validate` would find nothing to fix in `mesh`.
pub(super) fn valid(mesh: &ImportedMesh, pipeline: &Pipeline) -> bool {
    finite(mesh, pipeline) && faces_valid(mesh, pipeline) && loose_edges_valid(mesh.loose_edges())
}

fn finite(mesh: &ImportedMesh, pipeline: &Pipeline) -> bool {
    let positions = &mesh.positions;
    pipeline.all(positions.len(), 12, |i| {
        positions[i].iter().all(|c| c.is_finite())
    })
}

/// Every face has three or more distinct vertices, and no two faces the
/// same set: the faces are sorted by a hash of their sorted vertices, and
/// faces of equal hashes compared.
fn faces_valid(mesh: &ImportedMesh, pipeline: &Pipeline) -> bool {
    let offsets = &mesh.face_offsets;
    let face = |f: usize| &mesh.corner_vertices[offsets[f] as usize..offsets[f + 1] as usize];
    // A face reads its corners (four of 4 bytes, typically) and writes a key.
    let keys: Option<Vec<(u64, u32)>> = pipeline
        .map_indices(offsets.len().saturating_sub(1), 32, |f| {
            let sorted = sorted_face(face(f))?;
            Some((hash(&sorted), f as u32))
        })
        .into_iter()
        .collect();
    let Some(mut keys) = keys else {
        return false;
    };
    pipeline.sort_unstable_by(&mut keys, size_of::<(u64, u32)>(), Ord::cmp);
    keys.chunk_by(|a, b| a.0 == b.0)
        .filter(|run| run.len() > 1)
        .all(|run| {
            let sets: Vec<Vec<u32>> = run.iter().map(|&(_, f)| sorted(face(f as usize))).collect();
            (0..sets.len()).all(|i| !sets[..i].contains(&sets[i]))
        })
}

/// No loose edge joins a vertex to itself or repeats another.
fn loose_edges_valid(edges: &[[u32; 2]]) -> bool {
    let mut pairs: Vec<[u32; 2]> = edges.iter().map(|&[a, b]| [a.min(b), a.max(b)]).collect();
    pairs.sort_unstable();
    pairs.iter().all(|[a, b]| a != b) && pairs.windows(2).all(|w| w[0] != w[1])
}

/// A face's vertices sorted, or None where it has fewer than three or uses
/// one twice (faces `validate` removes, which other code here leaves to
/// Blender too).
pub(super) fn sorted_face(vertices: &[u32]) -> Option<Vec<u32>> {
    if vertices.len() < 3 {
        return None;
    }
    let sorted = sorted(vertices);
    sorted.windows(2).all(|w| w[0] != w[1]).then_some(sorted)
}

fn sorted(vertices: &[u32]) -> Vec<u32> {
    let mut sorted = vertices.to_vec();
    sorted.sort_unstable();
    sorted
}

/// FxHash's mixing with a finalizer (MurmurHash3's) over the vertices.
fn hash(vertices: &[u32]) -> u64 {
    let mut h = vertices.len() as u64;
    for &v in vertices {
        h = (h.rotate_left(5) ^ u64::from(v)).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^= h >> 33;
    h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    h ^ (h >> 33)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::Pipeline;

    fn mesh(positions: usize, faces: &[&[u32]], edges: &[[u32; 2]]) -> ImportedMesh {
        let mut offsets = vec![0u32];
        let mut corners = Vec::new();
        for face in faces {
            corners.extend_from_slice(face);
            offsets.push(corners.len() as u32);
        }
        ImportedMesh {
            positions: vec![[0.0, 1.0, 2.0]; positions],
            face_offsets: offsets,
            corner_vertices: corners,
            edges: edges.to_vec(),
            loose_edge_count: edges.len(),
            ..Default::default()
        }
    }

    #[test]
    fn a_plain_mesh_is_valid() {
        assert!(valid(
            &mesh(5, &[&[0, 1, 2], &[2, 1, 3, 4]], &[[0, 4]]),
            &Pipeline::new(None).unwrap()
        ));
        // The same vertices in another face, but not all of them.
        assert!(valid(
            &mesh(4, &[&[0, 1, 2], &[0, 1, 2, 3]], &[]),
            &Pipeline::new(None).unwrap()
        ));
    }

    #[test]
    fn what_validate_would_fix_is_found() {
        // The same vertices in another order.
        assert!(!valid(
            &mesh(3, &[&[0, 1, 2], &[2, 1, 0]], &[]),
            &Pipeline::new(None).unwrap()
        ));
        assert!(!valid(
            &mesh(3, &[&[0, 1, 1]], &[]),
            &Pipeline::new(None).unwrap()
        ));
        assert!(!valid(
            &mesh(3, &[&[0, 1]], &[]),
            &Pipeline::new(None).unwrap()
        ));
        assert!(!valid(
            &mesh(3, &[&[0, 1, 2]], &[[1, 1]]),
            &Pipeline::new(None).unwrap()
        ));
        assert!(!valid(
            &mesh(3, &[&[0, 1, 2]], &[[0, 2], [2, 0]]),
            &Pipeline::new(None).unwrap()
        ));
        let mut nan = mesh(3, &[&[0, 1, 2]], &[]);
        nan.positions[1][2] = f32::NAN;
        assert!(!valid(&nan, &Pipeline::new(None).unwrap()));
    }
}
