//! `blender::meshes`: the same meshes on any number of threads as one by one.

use oxport::blender::{self, Gathered, NormalSource};
use oxport::pipeline::Pipeline;
use oxport::synth;

#[test]
fn meshes_are_the_same_on_any_number_of_threads() {
    let scene = synth::city(40, 5);
    let normals: Vec<Vec<[f32; 3]>> = scene
        .iter()
        .map(|m| {
            m.position_indices
                .iter()
                .map(|&v| m.positions[v as usize])
                .collect()
        })
        .collect();
    let starts: Vec<Vec<u32>> = scene
        .iter()
        .map(|m| m.face_offsets[..m.face_offsets.len() - 1].to_vec())
        .collect();
    let identity = [
        [1.0, 0.0, 0.0, 0.0],
        [0.0, 0.0, -1.0, 0.0],
        [0.0, 1.0, 0.0, 0.0],
        [0.5, 2.0, -3.0, 1.0],
    ];
    let gathered: Vec<Gathered> = scene
        .iter()
        .zip(&normals)
        .zip(&starts)
        .map(|((m, normals), starts)| Gathered {
            name: m.name.to_string(),
            transform: Some(identity),
            scale: 2.0,
            positions: &m.positions,
            corner_vertices: &m.position_indices,
            face_starts: starts,
            normals: Some(NormalSource::Corners(normals)),
            smooth: m.smooth.as_deref(),
            ..Gathered::default()
        })
        .collect();
    let one_by_one: Vec<_> = gathered
        .iter()
        .map(|g| blender::mesh(g, &Pipeline::new(None).unwrap()).unwrap())
        .collect();
    for threads in [Some(1), Some(2), Some(8), None] {
        assert_eq!(
            blender::meshes(&gathered, threads).unwrap(),
            one_by_one,
            "{threads:?}"
        );
    }
    let error = blender::meshes(&gathered, Some(0)).unwrap_err();
    assert!(error.to_string().contains("threads"), "{error}");
}
