//! A mesh's edges, made for Blender as its `mesh_calc_edges` makes them
//! (keeping the edges a mesh already has): the loose edges first, as given,
//! then each edge of the faces once, with each corner's edge (`.corner_edge`:
//! the edge from its vertex to the next corner's). An importer that sets them
//! spares Blender the computation (`Mesh.update(calc_edges=True)`), the
//! largest step of building a big mesh.
//!
//! Blender's own order of the face edges depends on its thread count (one
//! hash table per thread, concatenated); any order is a valid mesh as long as
//! every corner's edge joins the right vertices. Here the face edges come by
//! their smaller vertex, then in the order the corners first use them: each
//! vertex lists the corners whose edge starts at it (a counting sort), and
//! the vertices, spread over the threads, number their edges.

use std::ops::Range;
use std::sync::atomic::{AtomicU32, Ordering};

use crate::pipeline::Pipeline;

/// A mesh's edges and each corner's.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct MeshEdges {
    /// The loose edges as given, then the faces' (smaller vertex first).
    pub edges: Vec<[u32; 2]>,
    /// Per corner, the edge to the next corner of its face.
    pub corner_edges: Vec<u32>,
}

/// The edges of a mesh of `vertices` vertices with faces `face_offsets`
/// (`F + 1` offsets into `corner_vertices`) and `loose` edges. Every index
/// must be in range (as in the meshes the importer builds); an edge that
/// joins a vertex to itself is kept, as Blender keeps it (its `validate`
/// removes it).
pub(crate) fn mesh_edges(
    face_offsets: &[u32],
    corner_vertices: &[u32],
    loose: &[[u32; 2]],
    vertices: usize,
    pipeline: &Pipeline,
) -> MeshEdges {
    let corners = corner_vertices.len();
    let next = |face: Range<usize>, c: usize| if c + 1 == face.end { face.start } else { c + 1 };
    let faces = || {
        face_offsets
            .windows(2)
            .map(|w| w[0] as usize..w[1] as usize)
    };
    // Items: the loose edges (0..L), then the corners (L + c); each with
    // its edge, smaller vertex first.
    let first_corner = loose.len();
    let items = || {
        let corners = faces().flat_map(move |face| {
            face.clone().map(move |c| {
                let b = corner_vertices[next(face.clone(), c)];
                (first_corner + c, corner_vertices[c], b)
            })
        });
        let loose = loose.iter().enumerate().map(|(i, &[a, b])| (i, a, b));
        loose
            .chain(corners)
            .map(|(item, a, b)| (item, a.min(b), a.max(b)))
    };
    let mut starts = vec![0u32; vertices + 1];
    items().for_each(|(_, low, _)| starts[low as usize + 1] += 1);
    for v in 0..vertices {
        starts[v + 1] += starts[v];
    }
    // Per smaller vertex, its edges' other vertex and item, in item order.
    let mut listed = vec![(0u32, 0u32); loose.len() + corners];
    let mut fill = starts.clone();
    items().for_each(|(item, low, high)| {
        let at = &mut fill[low as usize];
        listed[*at as usize] = (high, item as u32);
        *at += 1;
    });
    drop(fill);
    let of = |v: usize| &listed[starts[v] as usize..starts[v + 1] as usize];
    let is_loose = |item: u32| (item as usize) < loose.len();
    // Each task's vertices number their new face edges from the count of
    // those before them: counted first, then numbered (the two passes get
    // the same ranges).
    let bytes = 4 * size_of::<(u32, u32)>();
    let counts = pipeline.map_ranges(vertices, bytes, |range| {
        let mut first = Vec::new();
        let count = range
            .clone()
            .map(|v| {
                let items = of(v);
                firsts(items, &mut first);
                (0..items.len())
                    .filter(|&i| first[i] as usize == i && !is_loose(items[i].1))
                    .count()
            })
            .sum::<usize>();
        (range.start, count)
    });
    let mut number = loose.len();
    let bases: Vec<(usize, usize)> = counts
        .iter()
        .map(|&(start, count)| {
            number += count;
            (start, number - count)
        })
        .collect();
    let corner_edges: Vec<AtomicU32> = (0..corners).map(|_| AtomicU32::new(0)).collect();
    let edge_of = |item: u32| match is_loose(item) {
        true => item,
        false => corner_edges[item as usize - loose.len()].load(Ordering::Relaxed),
    };
    let made = pipeline.map_ranges(vertices, bytes, |range| {
        let task = bases.partition_point(|&(start, _)| start < range.start);
        let mut number = bases[task].1 as u32;
        let (mut edges, mut first) = (Vec::new(), Vec::new());
        for v in range {
            let items = of(v);
            firsts(items, &mut first);
            for (i, &(high, item)) in items.iter().enumerate() {
                if is_loose(item) {
                    continue; // (kept, and numbered, as given)
                }
                let edge = if first[i] as usize == i {
                    edges.push([v as u32, high]);
                    number += 1;
                    number - 1
                } else {
                    // Numbered already: by this task, or a loose edge.
                    edge_of(items[first[i] as usize].1)
                };
                corner_edges[item as usize - loose.len()].store(edge, Ordering::Relaxed);
            }
        }
        edges
    });
    let mut edges = loose.to_vec();
    edges.extend(made.into_iter().flatten());
    MeshEdges {
        edges,
        corner_edges: corner_edges
            .into_iter()
            .map(AtomicU32::into_inner)
            .collect(),
    }
}

/// Per item of one vertex's list, the index of the first item with the same
/// other vertex (its own where it is the first). Most vertices have a few
/// items, compared pairwise; a vertex of many (the pole of a fan) sorts them.
fn firsts(items: &[(u32, u32)], first: &mut Vec<u32>) {
    first.clear();
    if items.len() <= 32 {
        first.extend((0..items.len()).map(|i| {
            let high = items[i].0;
            items[..i].iter().position(|e| e.0 == high).unwrap_or(i) as u32
        }));
        return;
    }
    let mut order: Vec<u32> = (0..items.len() as u32).collect();
    order.sort_unstable_by_key(|&i| (items[i as usize].0, i));
    first.resize(items.len(), 0);
    for run in order.chunk_by(|&a, &b| items[a as usize].0 == items[b as usize].0) {
        for &i in run {
            first[i as usize] = run[0];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    /// The same edges by a hash map: loose edges kept, then the faces' new
    /// edges by smaller vertex and first use.
    fn reference(offsets: &[u32], corners: &[u32], loose: &[[u32; 2]]) -> MeshEdges {
        let key = |a: u32, b: u32| [a.min(b), a.max(b)];
        let mut known: HashMap<[u32; 2], u32> = HashMap::new();
        for (i, &[a, b]) in loose.iter().enumerate() {
            known.entry(key(a, b)).or_insert(i as u32);
        }
        let mut corner_keys = Vec::new();
        let mut first_use: HashMap<[u32; 2], usize> = HashMap::new();
        for w in offsets.windows(2) {
            let (s, e) = (w[0] as usize, w[1] as usize);
            for c in s..e {
                let k = key(corners[c], corners[if c + 1 == e { s } else { c + 1 }]);
                corner_keys.push(k);
                if !known.contains_key(&k) {
                    first_use.entry(k).or_insert(c);
                }
            }
        }
        let mut new: Vec<([u32; 2], usize)> = first_use.into_iter().collect();
        new.sort_by_key(|&(k, c)| (k[0], c));
        let mut edges = loose.to_vec();
        for (k, _) in new {
            known.insert(k, edges.len() as u32);
            edges.push(k);
        }
        let corner_edges = corner_keys.iter().map(|k| known[k]).collect();
        MeshEdges {
            edges,
            corner_edges,
        }
    }

    fn check(offsets: &[u32], corners: &[u32], loose: &[[u32; 2]], vertices: usize) {
        let expected = reference(offsets, corners, loose);
        for threads in [1, 2, 4] {
            let pipeline = Pipeline::new(Some(threads)).unwrap();
            let made = mesh_edges(offsets, corners, loose, vertices, &pipeline);
            assert!(made == expected, "{threads} threads");
        }
        // Each corner's edge joins its vertex and the next corner's.
        for w in offsets.windows(2) {
            let (s, e) = (w[0] as usize, w[1] as usize);
            for c in s..e {
                let [a, b] = expected.edges[expected.corner_edges[c] as usize];
                let next = corners[if c + 1 == e { s } else { c + 1 }];
                assert!([a, b] == [corners[c], next] || [b, a] == [corners[c], next]);
            }
        }
    }

    #[test]
    fn a_cube_has_twelve_edges_by_smaller_vertex() {
        let corners: Vec<u32> = crate::blender::CUBE_QUADS
            .iter()
            .flatten()
            .copied()
            .collect();
        let offsets: Vec<u32> = (0..=6).map(|f| f * 4).collect();
        let pipeline = Pipeline::new(Some(1)).unwrap();
        let made = mesh_edges(&offsets, &corners, &[], 8, &pipeline);
        assert_eq!(
            made.edges,
            [
                [0, 2],
                [0, 1],
                [0, 4],
                [1, 3],
                [1, 5],
                [2, 3],
                [2, 6],
                [3, 7],
                [4, 5],
                [4, 6],
                [5, 7],
                [6, 7]
            ]
        );
        check(&offsets, &corners, &[], 8);
    }

    #[test]
    fn loose_edges_come_first_and_faces_use_them() {
        // A triangle whose edge 1-2 is also a loose edge (given twice), a
        // loose edge of its own and one from a vertex to itself.
        let loose = [[2, 1], [3, 4], [1, 2], [5, 5]];
        let made = mesh_edges(
            &[0, 3],
            &[0, 1, 2],
            &loose,
            6,
            &Pipeline::new(None).unwrap(),
        );
        assert_eq!(made.edges, [[2, 1], [3, 4], [1, 2], [5, 5], [0, 1], [0, 2]]);
        assert_eq!(made.corner_edges, [4, 0, 5]);
        check(&[0, 3], &[0, 1, 2], &loose, 6);
    }

    #[test]
    fn fans_and_random_meshes_match_the_reference() {
        // A fan of 100 triangles around vertex 0 (a list sorted, not scanned).
        let corners: Vec<u32> = (1..=100u32).flat_map(|i| [0, i, i % 100 + 1]).collect();
        let offsets: Vec<u32> = (0..=100).map(|f| f * 3).collect();
        check(&offsets, &corners, &[[0, 7]], 101);
        // Random polygons over few vertices (edges shared many times).
        let mut state = 12345u64;
        let mut random = |n: u32| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 33) as u32 % n
        };
        for vertices in [3u32, 10, 300] {
            let (mut offsets, mut corners) = (vec![0u32], Vec::new());
            for _ in 0..2000 {
                let size = 3 + random(4);
                corners.extend((0..size).map(|_| random(vertices)));
                offsets.push(corners.len() as u32);
            }
            let loose: Vec<[u32; 2]> = (0..20)
                .map(|_| [random(vertices), random(vertices)])
                .collect();
            check(&offsets, &corners, &loose, vertices as usize);
        }
    }
}
