//! UVs merged as Blender's exporters merge them: per vertex within a
//! limit (3.4), or equal ones anywhere in the mesh (4.1+).

use crate::merge::{Item, merge};
use crate::pipeline::Pipeline;

/// Blender's `STD_UV_CONNECT_LIMIT`.
pub const UV_CONNECT_LIMIT: f32 = 0.0001;

/// UVs merged as Blender 3.4's exporter merges them (`BKE_mesh_uv_vert_map_create`
/// with a limit of 0.0001, then numbered vertex by vertex): per vertex, the
/// corners using it are grouped with the first remaining corner whose UV is
/// within the limit on both axes; each group is one UV, numbered in reverse
/// order of grouping, with the UV of the corner that started the group.
///
/// `corner_vertices[c]` is the vertex of corner `c`; faces are
/// `face_offsets[f]..face_offsets[f + 1]`. Returns the UVs and one index per corner.
pub fn uv_vertex_map(
    uvs: &[[f32; 2]],
    corner_vertices: &[u32],
    face_offsets: &[u32],
    vertex_count: usize,
) -> (Vec<[f32; 2]>, Vec<u32>) {
    let corners = corner_vertices.len();
    // Blender pushes every corner at the front of its vertex's list while
    // walking faces in order, so each list runs from the last corner to the
    // first: counting sort by vertex, then reversed within each vertex.
    let mut start = vec![0u32; vertex_count + 1];
    for &v in corner_vertices {
        start[v as usize + 1] += 1;
    }
    for v in 0..vertex_count {
        start[v + 1] += start[v];
    }
    let mut fill = start.clone();
    let mut by_vertex = vec![0u32; corners];
    // Corners in face order: faces may not cover the corner array in order.
    for face in face_offsets.windows(2) {
        for c in face[0]..face[1] {
            let v = corner_vertices[c as usize] as usize;
            by_vertex[fill[v] as usize] = c;
            fill[v] += 1;
        }
    }
    let mut out_uvs = Vec::with_capacity(vertex_count);
    let mut out_indices = vec![0u32; corners];
    let mut pending: Vec<u32> = Vec::new();
    // The groups of one vertex, one after the other; `ends[g]` closes group g.
    let mut grouped: Vec<u32> = Vec::new();
    let mut ends: Vec<usize> = Vec::new();
    for v in 0..vertex_count {
        pending.clear();
        pending.extend(
            by_vertex[start[v] as usize..start[v + 1] as usize]
                .iter()
                .rev(),
        );
        grouped.clear();
        ends.clear();
        let mut rest = 0;
        // `pending[rest..]` is Blender's remaining list, in list order.
        while rest < pending.len() {
            let seed = pending[rest];
            rest += 1;
            let uv = uvs[seed as usize];
            grouped.push(seed);
            let mut kept = rest;
            for k in rest..pending.len() {
                let c = pending[k];
                let other = uvs[c as usize];
                if (uv[0] - other[0]).abs() < UV_CONNECT_LIMIT
                    && (uv[1] - other[1]).abs() < UV_CONNECT_LIMIT
                {
                    grouped.push(c);
                } else {
                    pending[kept] = c;
                    kept += 1;
                }
            }
            pending.truncate(kept);
            ends.push(grouped.len());
        }
        // The final list holds the groups last-made first; the exporter gives
        // each group the next index and keeps the UV of its seed.
        for g in (0..ends.len()).rev() {
            let group = &grouped[if g == 0 { 0 } else { ends[g - 1] }..ends[g]];
            let index = out_uvs.len() as u32;
            out_uvs.push(uvs[group[0] as usize]);
            for &c in group {
                out_indices[c as usize] = index;
            }
        }
    }
    (out_uvs, out_indices)
}

/// UVs merged as Blender 4.1+'s exporter merges them: corners in order,
/// each UV equal (bit for bit; a NaN never) to one already seen gets its
/// index, others the next one. `corner_vertices` (below `vertex_count`)
/// only speed it up: the corners of a vertex mostly share its UV. Returns
/// the UVs and one index per corner.
pub fn uv_exact_map(
    uvs: &[[f32; 2]],
    corner_vertices: &[u32],
    vertex_count: usize,
    pipeline: &Pipeline,
) -> (Vec<[f32; 2]>, Vec<u32>) {
    let item = |i: usize| {
        let uv = uvs[i];
        let nan = uv[0].is_nan() || uv[1].is_nan();
        Item {
            slot: i,
            vertex: corner_vertices.get(i).map_or(usize::MAX, |&v| v as usize),
            value: uv,
            key: (!nan).then(|| u64::from(uv[0].to_bits()) | u64::from(uv[1].to_bits()) << 32),
        }
    };
    merge(uvs.len(), item, vertex_count, uvs.len(), pipeline)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uvs_merge_per_vertex_within_the_limit() {
        // Two quads sharing vertices 1 and 2; the shared corners agree on vertex 1
        // and differ on vertex 2 (a seam).
        let corner_vertices = [0, 1, 2, 3, 1, 4, 5, 2];
        let uvs = [
            [0.0, 0.0],
            [1.0, 0.0],
            [1.0, 1.0],
            [0.0, 1.0],
            [1.00005, 0.0],
            [2.0, 0.0],
            [2.0, 1.0],
            [5.0, 5.0],
        ];
        let (merged, indices) = uv_vertex_map(&uvs, &corner_vertices, &[0, 4, 8], 6);
        assert_eq!(merged.len(), 7);
        assert_eq!(indices[1], indices[4]);
        assert_ne!(indices[2], indices[7]);
        // Vertex 1's list is [corner 4, corner 1]: corner 4 seeds the group.
        assert_eq!(merged[indices[1] as usize], [1.00005, 0.0]);
        // Vertex 2 has two groups: seeded by corner 7 then corner 2, numbered last-made first.
        assert_eq!(merged[indices[2] as usize], [1.0, 1.0]);
        assert_eq!(indices[7], indices[2] + 1);
    }

    #[test]
    fn equal_uvs_merge_anywhere_in_corner_order() {
        let uvs = [
            [0.5, 0.5],
            [1.0, 0.0],
            [0.5, 0.5], // the first again, from any vertex
            [1.00005, 0.0],
            [-0.0, 0.0],
            [0.0, 0.0], // -0 and 0 are other bits: not merged
            [f32::NAN, 0.0],
            [f32::NAN, 0.0], // a NaN never equals anything
        ];
        let (merged, indices) = uv_exact_map(
            &uvs,
            &[0, 1, 0, 1, 2, 2, 3, 3],
            4,
            &Pipeline::new(None).unwrap(),
        );
        assert_eq!(indices, [0, 1, 0, 2, 3, 4, 5, 6]);
        assert_eq!(merged.len(), 7);
        assert_eq!(merged[2], [1.00005, 0.0]);
        assert_eq!(merged[3][0].to_bits(), (-0.0f32).to_bits());
    }

    #[test]
    fn uvs_merge_the_same_on_any_number_of_threads() {
        let mut rng = crate::synth::Rng::new(3);
        let pool: Vec<[f32; 2]> = (0..700)
            .map(|i| match i % 100 {
                0 => [f32::NAN, 0.5],
                1 => [-0.0, rng.range(0.0, 1.0)],
                _ => [rng.range(0.0, 1.0), rng.range(0.0, 1.0)],
            })
            .collect();
        let corners = 1 << 17;
        let vertices: Vec<u32> = (0..corners).map(|_| rng.below(5000)).collect();
        // Vertices mostly keep one UV, as in a mesh.
        let uvs: Vec<[f32; 2]> = vertices
            .iter()
            .map(|&v| pool[((v + rng.below(2)) % 700) as usize])
            .collect();
        // The rule itself, spelled out.
        let mut expected: Vec<u32> = Vec::new();
        let mut merged: Vec<[f32; 2]> = Vec::new();
        for uv in &uvs {
            let bits = |u: &[f32; 2]| (u[0].to_bits(), u[1].to_bits());
            let same = (!uv[0].is_nan() && !uv[1].is_nan())
                .then(|| merged.iter().position(|m| bits(m) == bits(uv)))
                .flatten();
            expected.push(same.unwrap_or_else(|| {
                merged.push(*uv);
                merged.len() - 1
            }) as u32);
        }
        for threads in [1, 2, 3] {
            let pipeline = Pipeline::new(Some(threads)).unwrap();
            let (values, indices) = uv_exact_map(&uvs, &vertices, 5000, &pipeline);
            assert_eq!(indices, expected, "{threads} threads");
            assert_eq!(values.len(), merged.len());
        }
    }
}
