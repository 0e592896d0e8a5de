//! Reads arbitrary bytes as OBJ on one thread and on rayon's pool (one thread
//! per core, started once), by each [`ObjectRule`]: never a panic, the same
//! result whatever the thread count, and every mesh read is valid (its indices
//! in range), so that it can be written again, and built into consistent
//! arrays by Blender's importers' rules. Built for fuzzing, the reader
//! cuts its input into blocks of 256 bytes, so that objects, relative indices
//! and errors cross block boundaries.
//! `cargo +nightly fuzz run obj_read -- -detect_leaks=0` in `fuzz/` (the
//! parsing threads' allocations outlive a run and would make every run scan for
//! leaks).

use oxport::obj::{ObjectRule, ReadOptions, read_bytes};

fn check(data: &[u8]) {
    let split_groups = ObjectRule::Blender {
        split_objects: false,
        split_groups: true,
        rational_curves: false,
        whole_lines: false,
    };
    for objects in [ObjectRule::Plain, ObjectRule::BLENDER, split_groups] {
        let read = |threads| {
            read_bytes(
                data,
                &ReadOptions {
                    threads,
                    objects,
                    ..ReadOptions::default()
                },
            )
        };
        let (one, three) = (read(Some(1)), read(None));
        match (&one, &three) {
            (Ok(a), Ok(b)) => {
                assert_eq!(a, b);
                for mesh in &a.meshes {
                    mesh.validate().expect("a mesh read must be valid");
                    blender_import(mesh);
                }
                for curve in &a.curves {
                    blender_curve(curve, a.meshes.len(), a.declared[0]);
                }
                let mut out = Vec::new();
                oxport::obj::write_to(&mut out, &a.meshes, &oxport::obj::WriteOptions::default())
                    .expect("what is read can be written");
            }
            (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string()),
            _ => panic!("1 thread and the pool disagree: {one:?} / {three:?}"),
        }
    }
}

/// A curve read, and the curve objects Blender's importers would make of
/// it: consistent arrays.
fn blender_curve(curve: &oxport::obj::FreeFormCurve, meshes: usize, positions: usize) {
    use oxport::blender::{Exporter, curve_obj, imported_curve};
    let count = curve.controls.len();
    assert!(curve.points.len() == count && curve.weights.len() == count);
    assert!(curve.controls.iter().all(|&c| (c as usize) < positions));
    assert!(curve.meshes_before <= meshes);
    let input = oxport::blender_obj::curve_input(curve, &curve.name);
    for importer in [
        Exporter::Blender34,
        Exporter::Blender45,
        Exporter::Blender50,
    ] {
        for close in [false, true] {
            let Some(made) = imported_curve(&input, importer, close, Some('/')) else {
                assert!(importer != Exporter::Blender34 && count == 0);
                continue;
            };
            assert!(made.points.len() <= count);
            if importer != Exporter::Blender34 {
                assert!((2..=127).contains(&made.order), "order {}", made.order);
                assert!(!made.points.is_empty() || made.cyclic);
            }
            if made.by_blender() {
                assert!(curve_obj(&input, &made.name).ends_with("end\n"));
            }
        }
    }
}

/// The mesh Blender's importers would build of it: consistent arrays.
fn blender_import(mesh: &oxport::Mesh) {
    use oxport::blender::{
        Exporter, ImportOptions, clamped_scale, encode_custom_normals, imported_mesh,
    };
    let pipeline = oxport::pipeline::Pipeline::new(Some(2)).expect("two threads");
    for importer in [Exporter::Blender34, Exporter::Blender45] {
        let options = ImportOptions {
            importer,
            vertex_groups: true,
            ..ImportOptions::default()
        };
        let m = imported_mesh(mesh, "fuzz", &options, true, &pipeline);
        let clamp = ImportOptions {
            clamp_size: 1.0,
            ..options
        };
        if let Some(scale) = clamped_scale(std::slice::from_ref(&m), &clamp) {
            assert!(scale >= 0.0 || scale.is_nan(), "a negative scale {scale}");
        }
        let (vertices, corners) = (m.positions.len(), m.corner_vertices.len());
        assert!(m.corner_vertices.iter().all(|&v| (v as usize) < vertices));
        assert!(
            m.loose_edges()
                .iter()
                .flatten()
                .all(|&v| (v as usize) < vertices)
        );
        assert_eq!(
            m.face_sizes.iter().map(|&n| n as usize).sum::<usize>(),
            corners
        );
        assert_eq!(m.smooth_faces.len(), m.face_sizes.len());
        assert_eq!(m.material_indices.len(), m.face_sizes.len());
        assert!(m.corner_uvs.as_ref().is_none_or(|uvs| uvs.len() == corners));
        assert!(m.corner_normals.as_ref().is_none_or(|n| n.len() == corners));
        assert!(m.colors.as_ref().is_none_or(|c| c.len() == vertices));
        for (_, members) in &m.vertex_groups {
            assert!(members.iter().all(|&v| (v as usize) < vertices));
        }
        // Each corner's edge joins its vertex and the next corner's.
        assert_eq!(m.corner_edges.len(), corners);
        for face in m.face_offsets.windows(2) {
            let (start, end) = (face[0] as usize, face[1] as usize);
            for c in start..end {
                let next = m.corner_vertices[if c + 1 == end { start } else { c + 1 }];
                let [a, b] = m.edges[m.corner_edges[c] as usize];
                assert!(
                    [a, b] == [m.corner_vertices[c], next]
                        || [b, a] == [m.corner_vertices[c], next]
                );
            }
        }
        assert!(m.edges.iter().flatten().all(|&v| (v as usize) < vertices));
        let (edges, corner_edges) = (&m.edges, &m.corner_edges);
        if let Ok(Some(normals)) = encode_custom_normals(&m, corner_edges, edges.len(), &pipeline) {
            assert_eq!(normals.encoded.len(), corners);
            assert_eq!(normals.sharp_edges.len(), edges.len());
        }
    }
}

/// One input: the checks the module describes (a panic is a failure).
pub fn run(data: &[u8]) {
    check(data);
}
