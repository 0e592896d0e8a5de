//! Times `oxport::blender::mesh` on the level-10 sphere's arrays laid out as
//! Blender's Python API gives them (per-corner normals and UVs), step by step.
//! `cargo run --release -p oxport --example blender_mesh`

use std::time::Instant;

use oxport::blender::{self, Gathered, NormalSource};
use oxport::pipeline::Pipeline;

fn main() {
    let sphere = oxport::synth::sphere(10);
    let corners = sphere.position_indices.len();
    let normals = sphere.normals.as_deref().unwrap();
    let uvs = sphere.uvs.as_deref().unwrap();
    let corner_normals: Vec<[f32; 3]> = sphere
        .position_indices
        .iter()
        .map(|&v| normals[v as usize])
        .collect();
    let uv_indices = sphere.uv_indices.as_deref().unwrap();
    let corner_uvs: Vec<[f32; 2]> = uv_indices.iter().map(|&t| uvs[t as usize]).collect();
    let face_starts = &sphere.face_offsets[..sphere.face_offsets.len() - 1];
    let axes = [[1.0, 0.0, 0.0], [0.0, 0.0, -1.0], [0.0, 1.0, 0.0]];
    let world = [
        [1.0, 0.0, 0.0, 0.0],
        [0.0, 1.0, 0.0, 0.0],
        [0.0, 0.0, 1.0, 0.0],
        [0.0, 0.0, 0.0, 1.0],
    ];
    let transform = blender::world_and_axes_transform(&axes, &world);
    println!("{corners} corners, {} vertices", sphere.positions.len());
    for _ in 0..3 {
        let t = Instant::now();
        let (n, _) = blender::corner_normals(
            NormalSource::Corners(&corner_normals),
            &sphere.position_indices,
            sphere.smooth.as_deref(),
            sphere.positions.len(),
            &blender::normal_transform(&transform, blender::Exporter::Blender34),
            &Pipeline::new(None).unwrap(),
        )
        .unwrap();
        let normals_s = t.elapsed().as_secs_f64();
        let t = Instant::now();
        let (n2, _) = blender::corner_normals(
            NormalSource::Vertices(normals),
            &sphere.position_indices,
            sphere.smooth.as_deref(),
            sphere.positions.len(),
            &blender::normal_transform(&transform, blender::Exporter::Blender34),
            &Pipeline::new(None).unwrap(),
        )
        .unwrap();
        assert_eq!(n, n2);
        let vertex_normals_s = t.elapsed().as_secs_f64();
        let t = Instant::now();
        let (u, _) = blender::uv_vertex_map(
            &corner_uvs,
            &sphere.position_indices,
            &sphere.face_offsets,
            sphere.positions.len(),
        );
        let uvs_s = t.elapsed().as_secs_f64();
        let t = Instant::now();
        let mesh = blender::mesh(
            &Gathered {
                name: "sphere".into(),
                transform: Some(transform),
                scale: 1.0,
                positions: &sphere.positions,
                corner_vertices: &sphere.position_indices,
                face_starts,
                normals: Some(NormalSource::Corners(&corner_normals)),
                corner_uvs: Some(&corner_uvs),
                smooth: sphere.smooth.as_deref(),
                ..Gathered::default()
            },
            &Pipeline::new(None).unwrap(),
        )
        .unwrap();
        let total = t.elapsed().as_secs_f64();
        println!(
            "corner normals {normals_s:.3} s, vertex normals {vertex_normals_s:.3} s ({} kept), uvs {uvs_s:.3} s ({} kept), whole mesh {total:.3} s ({} faces)",
            n.len(),
            u.len(),
            mesh.face_count()
        );
    }
}
