//! Blender's smooth groups (`BKE_mesh_calc_smoothgroups`): faces flooded
//! across smooth edges, as numbers or as bit flags. From Blender 3.5 a
//! group's bit also differs from those of the groups that only touch it at a
//! vertex of its boundary.

use crate::{Error, Result};

/// What smooth groups are computed from.
#[derive(Clone, Copy, Debug)]
pub struct SmoothGroupInput<'a> {
    /// `loops[].edge_index`
    pub corner_edges: &'a [u32],
    /// `edges[].use_edge_sharp`, one per edge (nonzero: sharp).
    pub sharp_edges: &'a [u32],
    /// Groups as bits (1, 2, 4...), neighbours never sharing one.
    pub bitflags: bool,
}

/// Blender's smooth groups (`BKE_mesh_calc_smoothgroups`): faces are flooded,
/// lowest unvisited face first, across edges used by exactly two faces, both
/// smooth, the edge not sharp. Without `bitflags` groups are numbered 1, 2...
/// in that order; with it, each group takes the lowest bit that no group next
/// to it (across a boundary edge) already has, or 0 when all 32 are taken.
/// Flat faces get groups too (Blender writes `s 0` for them).
///
/// With `boundary_vertices` (`loops[].vertex_index` and the vertex count:
/// Blender 3.5 and later), a group's bit also differs from the bits of the
/// faces around each corner's vertex where the corner's edge bounds it.
pub fn smooth_groups(
    face_offsets: &[u32],
    smooth: &[u32],
    input: &SmoothGroupInput,
    boundary_vertices: Option<(&[u32], usize)>,
) -> Result<Vec<u32>> {
    let faces = smooth.len();
    let edge_faces = FacesOf::new(
        face_offsets,
        faces,
        input.corner_edges,
        input.sharp_edges.len(),
        "edge",
    )?;
    let vertex_faces = match boundary_vertices {
        Some((corner_vertices, count)) if input.bitflags => Some((
            corner_vertices,
            FacesOf::new(face_offsets, faces, corner_vertices, count, "vertex")?,
        )),
        _ => None,
    };
    let faces_of = |e: usize| edge_faces.of(e);
    // An edge bounds a group unless both its (two) faces are smooth and it is not sharp.
    let boundary = |f: usize, e: usize| {
        let users = faces_of(e);
        if smooth[f] == 0 || input.sharp_edges[e] != 0 || users.len() != 2 {
            return true;
        }
        let other = if users[0] as usize == f {
            users[1]
        } else {
            users[0]
        };
        smooth[other as usize] == 0
    };
    const PENDING: u32 = 3; // Blender's placeholders: not powers of two
    const OVERFLOW: u32 = 5;
    let mut groups = vec![0u32; faces];
    let mut stack: Vec<u32> = Vec::with_capacity(faces);
    let (mut next_group, mut start, mut overflowed) = (0u32, 0usize, false);
    while let Some(seed) = (start..faces).find(|&f| groups[f] == 0) {
        start = seed + 1;
        let id = if input.bitflags {
            PENDING
        } else {
            next_group += 1;
            next_group
        };
        groups[seed] = id;
        stack.clear();
        stack.push(seed as u32);
        let (mut current, mut taken) = (0, 0u32);
        while current < stack.len() {
            let f = stack[current] as usize;
            current += 1;
            for c in face_offsets[f]..face_offsets[f + 1] {
                let e = input.corner_edges[c as usize] as usize;
                if !boundary(f, e) {
                    for &g in faces_of(e) {
                        if groups[g as usize] == 0 {
                            groups[g as usize] = id;
                            stack.push(g);
                        }
                    }
                } else if input.bitflags {
                    let mut exclude = |neighbours: &[u32]| {
                        for &g in neighbours {
                            let bit = groups[g as usize];
                            if ![0, id, OVERFLOW].contains(&bit) {
                                taken |= bit;
                            }
                        }
                    };
                    exclude(faces_of(e));
                    if let Some((corner_vertices, vertex_faces)) = &vertex_faces {
                        exclude(vertex_faces.of(corner_vertices[c as usize] as usize));
                    }
                }
            }
        }
        if input.bitflags {
            let bit = (0..32).find(|b| taken & (1u32 << b) == 0);
            let group = match bit {
                Some(b) => 1u32 << b,
                None => {
                    overflowed = true;
                    OVERFLOW
                }
            };
            for &f in &stack {
                groups[f as usize] = group;
            }
        }
    }
    if overflowed {
        for g in &mut groups {
            if *g == OVERFLOW {
                *g = 0;
            }
        }
    }
    Ok(groups)
}

/// The faces around each element (edge or vertex) of the corners, in face
/// order: a face is there once per corner that uses the element.
struct FacesOf {
    offsets: Vec<u32>,
    faces: Vec<u32>,
}

impl FacesOf {
    fn new(
        face_offsets: &[u32],
        faces: usize,
        of_corner: &[u32],
        count: usize,
        what: &str,
    ) -> Result<FacesOf> {
        let mut offsets = vec![0u32; count + 1];
        for (corner, &e) in of_corner.iter().enumerate() {
            if e as usize >= count {
                return Err(Error::invalid(format!(
                    "loop {corner} uses {what} {e} of {count}"
                )));
            }
            offsets[e as usize + 1] += 1;
        }
        for e in 0..count {
            offsets[e + 1] += offsets[e];
        }
        let mut fill = offsets.clone();
        let mut list = vec![0u32; of_corner.len()];
        for f in 0..faces {
            for c in face_offsets[f]..face_offsets[f + 1] {
                let e = of_corner[c as usize] as usize;
                list[fill[e] as usize] = f as u32;
                fill[e] += 1;
            }
        }
        Ok(FacesOf {
            offsets,
            faces: list,
        })
    }

    fn of(&self, element: usize) -> &[u32] {
        &self.faces[self.offsets[element] as usize..self.offsets[element + 1] as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn smooth_groups_flood_across_smooth_edges() {
        // A strip of four quads: 0-1 share edge 1, 1-2 edge 2 (sharp), 2-3 edge 3.
        // Edges: 0 and 4 are the ends; the others are borders (one face each).
        let face_offsets = [0, 4, 8, 12, 16];
        let corner_edges = [
            0, 1, 5, 6, // face 0
            1, 2, 7, 8, // face 1
            2, 3, 9, 10, // face 2
            3, 4, 11, 12, // face 3
        ];
        let mut sharp = vec![0u32; 13];
        sharp[2] = 1;
        let input = |bitflags| SmoothGroupInput {
            corner_edges: &corner_edges,
            sharp_edges: &sharp,
            bitflags,
        };
        let smooth = [1, 1, 1, 1];
        assert_eq!(
            smooth_groups(&face_offsets, &smooth, &input(false), None).unwrap(),
            [1, 1, 2, 2]
        );
        // Bits: the second group borders the first (across the sharp edge).
        assert_eq!(
            smooth_groups(&face_offsets, &smooth, &input(true), None).unwrap(),
            [1, 1, 2, 2]
        );
        // A flat face is a group of its own and cuts the strip.
        let smooth = [1, 0, 1, 1];
        assert_eq!(
            smooth_groups(&face_offsets, &smooth, &input(false), None).unwrap(),
            [1, 2, 3, 3]
        );
        let bits = smooth_groups(&face_offsets, &smooth, &input(true), None).unwrap();
        assert_eq!(bits, [1, 2, 1, 1]);
        let bad = SmoothGroupInput {
            corner_edges: &[0, 99, 1, 2],
            sharp_edges: &sharp,
            bitflags: false,
        };
        assert!(smooth_groups(&[0, 4], &[1], &bad, None).is_err());
    }

    #[test]
    fn from_3_5_groups_touching_at_a_boundary_vertex_take_other_bits() {
        // Four quads around vertex 4 of a 3×3 grid, each its own group (all
        // inner edges sharp). Vertices 0..9 row by row; faces:
        // 0: 0 1 4 3, 1: 1 2 5 4, 2: 3 4 7 6, 3: 4 5 8 7.
        let face_offsets = [0, 4, 8, 12, 16];
        let corner_vertices = [0, 1, 4, 3, 1, 2, 5, 4, 3, 4, 7, 6, 4, 5, 8, 7];
        // Edges: inner 0: 1-4, 1: 3-4, 2: 4-5, 3: 4-7; the rest outer.
        let corner_edges = [4, 0, 1, 5, 6, 7, 2, 0, 1, 3, 8, 9, 2, 10, 11, 3];
        let sharp = vec![1u32; 12];
        let input = SmoothGroupInput {
            corner_edges: &corner_edges,
            sharp_edges: &sharp,
            bitflags: true,
        };
        let smooth = [1, 1, 1, 1];
        // Edge neighbours only: faces 0 and 3 share no edge, so one bit.
        let by_edges = smooth_groups(&face_offsets, &smooth, &input, None).unwrap();
        assert_eq!(by_edges, [1, 2, 2, 1]);
        // Across the shared vertex too: four bits.
        let by_vertices =
            smooth_groups(&face_offsets, &smooth, &input, Some((&corner_vertices, 9))).unwrap();
        assert_eq!(by_vertices, [1, 2, 4, 8]);
        let bad = smooth_groups(&face_offsets, &smooth, &input, Some((&corner_vertices, 8)));
        assert!(bad.unwrap_err().to_string().contains("uses vertex 8 of 8"));
    }
}
