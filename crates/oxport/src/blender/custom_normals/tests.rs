//! The encoding against Blender's own, fans and sharp edges.

use super::*;
use crate::pipeline::Pipeline;

/// A unit cube: 8 vertices, 6 quads wound outwards, its 12 edges numbered
/// in order of first use.
fn cube(normals: impl Fn(usize, [f32; 3]) -> [f32; 3]) -> (ImportedMesh, Vec<u32>, usize) {
    let positions: Vec<[f32; 3]> = (0..8)
        .map(|i| [(i & 1) as f32, (i >> 1 & 1) as f32, (i >> 2 & 1) as f32])
        .collect();
    let faces: [[u32; 4]; 6] = [
        [0, 2, 3, 1],
        [4, 5, 7, 6],
        [0, 1, 5, 4],
        [2, 6, 7, 3],
        [0, 4, 6, 2],
        [1, 3, 7, 5],
    ];
    let corner_vertices: Vec<u32> = faces.iter().flatten().copied().collect();
    let mut edges: Vec<[u32; 2]> = Vec::new();
    let mut corner_edges = Vec::new();
    for face in &faces {
        for i in 0..4 {
            let (a, b) = (face[i], face[(i + 1) % 4]);
            let key = [a.min(b), a.max(b)];
            let e = edges.iter().position(|&e| e == key).unwrap_or_else(|| {
                edges.push(key);
                edges.len() - 1
            });
            corner_edges.push(e as u32);
        }
    }
    let corner_normals = (0..24)
        .map(|c| {
            let face = &corner_vertices[c / 4 * 4..c / 4 * 4 + 4];
            normals(c, face_normal(&positions, face))
        })
        .collect();
    let mesh = ImportedMesh {
        positions,
        face_offsets: (0..=6).map(|f| f * 4).collect(),
        corner_vertices,
        corner_normals: Some(corner_normals),
        smooth_faces: vec![true; 6],
        ..Default::default()
    };
    (mesh, corner_edges, edges.len())
}

#[test]
fn flat_normals_part_every_edge_and_encode_as_the_faces() {
    let (mesh, corner_edges, edges) = cube(|_, face| face);
    let normals = encode_custom_normals(&mesh, &corner_edges, edges, &Pipeline::new(None).unwrap())
        .unwrap()
        .unwrap();
    assert_eq!(normals.sharp_edges, vec![true; 12]);
    // Each corner is then a fan of its own, whose normal is its face's.
    assert_eq!(normals.encoded, vec![[0, 0]; 24]);
}

#[test]
fn corners_without_normals_take_their_fans() {
    let (mesh, corner_edges, edges) = cube(|_, _| [0.0; 3]);
    let normals = encode_custom_normals(&mesh, &corner_edges, edges, &Pipeline::new(None).unwrap())
        .unwrap()
        .unwrap();
    assert_eq!(normals.sharp_edges, vec![false; 12]);
    assert_eq!(normals.encoded, vec![[0, 0]; 24]);
}

#[test]
fn smooth_normals_keep_the_edges_and_encode_alike_per_vertex() {
    // Each vertex's normal points away from the centre: one fan per
    // vertex, not along its space's own normal.
    let (mesh, corner_edges, edges) = cube(|_, _| [0.0; 3]);
    let positions = mesh.positions.clone();
    let mut mesh = mesh;
    mesh.corner_normals = Some(
        mesh.corner_vertices
            .iter()
            .map(|&v| positions[v as usize].map(|x| x - 0.5))
            .collect(),
    );
    let normals = encode_custom_normals(&mesh, &corner_edges, edges, &Pipeline::new(None).unwrap())
        .unwrap()
        .unwrap();
    assert_eq!(normals.sharp_edges, vec![false; 12]);
    for v in 0..8u32 {
        let codes: Vec<[i16; 2]> = (0..24)
            .filter(|&c| mesh.corner_vertices[c] == v)
            .map(|c| normals.encoded[c])
            .collect();
        assert!(
            codes.iter().all(|&c| c == codes[0]),
            "vertex {v}: {codes:?}"
        );
    }
}

#[test]
fn faces_using_a_vertex_twice_are_left_to_blender() {
    let (mut mesh, corner_edges, edges) = cube(|_, face| face);
    mesh.corner_vertices[1] = mesh.corner_vertices[0];
    assert_eq!(
        encode_custom_normals(&mesh, &corner_edges, edges, &Pipeline::new(None).unwrap()).unwrap(),
        None
    );
    let (mesh, mut corner_edges, edges) = cube(|_, face| face);
    corner_edges[3] = 99;
    assert!(
        encode_custom_normals(&mesh, &corner_edges, edges, &Pipeline::new(None).unwrap()).is_err()
    );
}
