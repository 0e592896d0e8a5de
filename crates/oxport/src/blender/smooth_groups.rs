//! Blender's smooth groups (`BKE_mesh_calc_smoothgroups`): faces flooded
//! across smooth edges, as numbers or as bit flags.

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
pub fn smooth_groups(
    face_offsets: &[u32],
    smooth: &[u32],
    input: &SmoothGroupInput,
) -> Result<Vec<u32>> {
    let edge_count = input.sharp_edges.len();
    let faces = smooth.len();
    // Faces of each edge, in face order (a face using an edge twice is there twice).
    let mut uses = vec![0u32; edge_count + 1];
    for (corner, &e) in input.corner_edges.iter().enumerate() {
        if e as usize >= edge_count {
            return Err(Error::invalid(format!(
                "loop {corner} uses edge {e} of {edge_count}"
            )));
        }
        uses[e as usize + 1] += 1;
    }
    for e in 0..edge_count {
        uses[e + 1] += uses[e];
    }
    let mut fill = uses.clone();
    let mut edge_faces = vec![0u32; input.corner_edges.len()];
    for f in 0..faces {
        for c in face_offsets[f]..face_offsets[f + 1] {
            let e = input.corner_edges[c as usize] as usize;
            edge_faces[fill[e] as usize] = f as u32;
            fill[e] += 1;
        }
    }
    let faces_of = |e: usize| &edge_faces[uses[e] as usize..uses[e + 1] as usize];
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
                    for &g in faces_of(e) {
                        let bit = groups[g as usize];
                        if ![0, id, OVERFLOW].contains(&bit) {
                            taken |= bit;
                        }
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
            smooth_groups(&face_offsets, &smooth, &input(false)).unwrap(),
            [1, 1, 2, 2]
        );
        // Bits: the second group borders the first (across the sharp edge).
        assert_eq!(
            smooth_groups(&face_offsets, &smooth, &input(true)).unwrap(),
            [1, 1, 2, 2]
        );
        // A flat face is a group of its own and cuts the strip.
        let smooth = [1, 0, 1, 1];
        assert_eq!(
            smooth_groups(&face_offsets, &smooth, &input(false)).unwrap(),
            [1, 2, 3, 3]
        );
        let bits = smooth_groups(&face_offsets, &smooth, &input(true)).unwrap();
        assert_eq!(bits, [1, 2, 1, 1]);
        let bad = SmoothGroupInput {
            corner_edges: &[0, 99, 1, 2],
            sharp_edges: &sharp,
            bitflags: false,
        };
        assert!(smooth_groups(&[0, 4], &[1], &bad).is_err());
    }
}
