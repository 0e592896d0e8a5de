//! The encoding against Blender's own, fans and sharp edges.

use super::*;
use crate::pipeline::Pipeline;

/// A unit cube: 8 vertices, 6 quads wound outwards, its 12 edges numbered
/// in order of first use.
fn cube(normals: impl Fn(usize, [f32; 3]) -> [f32; 3]) -> (ImportedMesh, Vec<u32>, usize) {
    let positions: Vec<[f32; 3]> = (0..8)
        .map(|i| [(i & 1) as f32, (i >> 1 & 1) as f32, (i >> 2 & 1) as f32])
        .collect();
    let faces = crate::blender::CUBE_QUADS;
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
        edges: edges.clone(),
        corner_edges: corner_edges.clone(),
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

/// A mesh as the binding keeps it.
struct Owned(ImportedMesh);

impl ImportedSource for Owned {
    fn imported(&self) -> &ImportedMesh {
        &self.0
    }
}

/// Cubes of many kinds: flat, smooth, tilted normals, none, and one that
/// uses a vertex twice.
fn cubes(count: usize) -> Vec<Owned> {
    (0..count)
        .map(|i| {
            let tilt = i as f32 / count as f32;
            let (mut mesh, _, _) = cube(|c, face| match i % 4 {
                0 => face,
                1 => [0.0; 3],
                2 => [
                    face[0] + tilt,
                    face[1] - tilt * (c % 3) as f32,
                    face[2] + 0.5,
                ],
                _ => [tilt, 1.0, (c % 5) as f32],
            });
            mesh.name = format!("cube{i}");
            if i % 9 == 5 {
                mesh.corner_normals = None;
            }
            if i % 13 == 7 {
                mesh.corner_vertices[1] = mesh.corner_vertices[0];
            }
            Owned(mesh)
        })
        .collect()
}

#[test]
fn streamed_meshes_get_the_normals_of_one_call_each_in_order() {
    let pipeline = Pipeline::new(Some(1)).unwrap();
    let expected: Vec<Option<CustomNormals>> = cubes(500)
        .iter()
        .map(|o| {
            encode_custom_normals(&o.0, &o.0.corner_edges, o.0.edges.len(), &pipeline).unwrap()
        })
        .collect();
    assert!(expected.iter().any(Option::is_none));
    assert!(expected.iter().filter(|n| n.is_some()).count() > 400);
    for threads in [1, 2, 4] {
        let mut stream = NormalsStream::new(Some(threads)).unwrap();
        for mesh in cubes(500) {
            stream.add(mesh).unwrap();
        }
        assert!(stream.finish().unwrap() == expected, "{threads} threads");
    }
}

#[test]
fn a_mesh_that_fails_stops_the_stream_with_its_name() {
    let mut stream = NormalsStream::new(Some(2)).unwrap();
    let mut meshes = cubes(300);
    meshes[10].0.corner_edges[3] = 99;
    let mut error = None;
    for mesh in meshes {
        if let Err(e) = stream.add(mesh) {
            error = Some(e);
            break;
        }
    }
    let error = match error {
        Some(error) => error,
        None => stream.finish().expect_err("the broken mesh fails"),
    };
    assert_eq!(
        error.to_string(),
        "invalid argument: mesh \"cube10\": corner 3 uses edge 99 of 12"
    );
    // Dropped unfinished, a stream stops.
    let mut stream = NormalsStream::new(Some(2)).unwrap();
    for mesh in cubes(100) {
        stream.add(mesh).unwrap();
    }
    drop(stream);
}
