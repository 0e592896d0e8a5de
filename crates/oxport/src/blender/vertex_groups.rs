//! Each face's vertex group: the group of most weight over its corners.

use crate::{Error, Result};

/// The vertex groups of an object and the weights of a mesh's vertices.
#[derive(Clone, Debug, Default)]
pub struct VertexGroupInput<'a> {
    /// `Object.vertex_groups[].name`
    pub names: Vec<String>,
    /// Vertex `v`'s weights are entries `offsets[v]..offsets[v + 1]`.
    pub offsets: &'a [u32],
    /// `vertices[v].groups[].group`, flattened.
    pub groups: &'a [u32],
    /// `vertices[v].groups[].weight`, flattened.
    pub weights: &'a [f32],
}

/// Each face's vertex group as Blender 3.4 writes it: the weights of its
/// corners' vertices summed per group in corner order (float additions), the
/// group with the most (the first of equals); `None` when no corner's vertex
/// is in a group. Returns group indices into `names`, with `names.len()` for none.
pub fn face_vertex_groups(
    face_offsets: &[u32],
    corner_vertices: &[u32],
    input: &VertexGroupInput,
) -> Result<Vec<u32>> {
    let vertices = input.offsets.len().saturating_sub(1);
    if input.groups.len() != input.weights.len()
        || input.offsets.first().is_some_and(|&o| o != 0)
        || input.offsets.windows(2).any(|w| w[0] > w[1])
        || input
            .offsets
            .last()
            .is_some_and(|&o| o as usize != input.groups.len())
    {
        return Err(Error::invalid(
            "vertex group offsets, groups and weights do not agree",
        ));
    }
    let count = input.names.len();
    let none = count as u32;
    let mut sums = vec![0.0f32; count];
    let mut faces = Vec::with_capacity(face_offsets.len().saturating_sub(1));
    for face in face_offsets.windows(2) {
        sums.fill(0.0);
        let mut found = false;
        for &v in &corner_vertices[face[0] as usize..face[1] as usize] {
            if v as usize >= vertices {
                return Err(Error::invalid(format!(
                    "vertex {v} has no vertex group entry ({vertices} vertices)"
                )));
            }
            let range = input.offsets[v as usize] as usize..input.offsets[v as usize + 1] as usize;
            for (&group, &weight) in input.groups[range.clone()]
                .iter()
                .zip(&input.weights[range])
            {
                if let Some(sum) = sums.get_mut(group as usize) {
                    *sum += weight;
                    found = true;
                }
            }
        }
        // std::max_element: a later group wins only with strictly more.
        let mut best = 0;
        for g in 1..count {
            if sums[best] < sums[g] {
                best = g;
            }
        }
        faces.push(if found { best as u32 } else { none });
    }
    Ok(faces)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn faces_take_the_vertex_group_of_most_weight() {
        // Vertex 0 in group 1 (0.5), vertex 1 in groups 0 (0.25) and 1 (0.25),
        // vertex 2 in group 0 (1.0), vertex 3 in none, vertex 4 in group 7 (unknown).
        let input = VertexGroupInput {
            names: vec!["a".into(), "b".into()],
            offsets: &[0, 1, 3, 4, 4, 5],
            groups: &[1, 0, 1, 0, 7],
            weights: &[0.5, 0.25, 0.25, 1.0, 1.0],
        };
        let faces = face_vertex_groups(
            &[0, 3, 6, 9, 11],
            &[0, 1, 3, 1, 2, 3, 3, 4, 3, 0, 2],
            &input,
        )
        .unwrap();
        // b 0.75 over a 0.25; a 1.25 over b 0.25; nothing known: off (2); a 1.0 over b 0.5.
        assert_eq!(faces, [1, 0, 2, 0]);
    }
}
