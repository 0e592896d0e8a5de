//! Writing a 131,072-quad sphere as OBJ into memory: oxport (on one thread and
//! on every core) against the same lines written with Rust's `write!` on one
//! thread, in the same group. `cargo bench -p oxport --bench obj_write`

use std::hint::black_box;
use std::io::Write;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use oxport::obj::{self, WriteOptions};
use oxport::{Mesh, synth};

/// The bytes oxport writes for a mesh of positions, normals, UVs and faces
/// (no smooth groups or materials), with `write!` and `{:.N}`.
fn std_write(out: &mut Vec<u8>, mesh: &Mesh) {
    writeln!(out, "o {}", mesh.name).unwrap();
    for [x, y, z] in mesh.positions.iter() {
        writeln!(out, "v {x:.6} {y:.6} {z:.6}").unwrap();
    }
    for [x, y, z] in mesh.normals.as_deref().unwrap_or_default() {
        writeln!(out, "vn {x:.4} {y:.4} {z:.4}").unwrap();
    }
    for [u, v] in mesh.uvs.as_deref().unwrap_or_default() {
        writeln!(out, "vt {u:.6} {v:.6}").unwrap();
    }
    let (uvs, normals) = (mesh.uv_indices.as_deref(), mesh.normal_indices.as_deref());
    for face in mesh.face_offsets.windows(2) {
        out.push(b'f');
        for c in face[0] as usize..face[1] as usize {
            let v = mesh.position_indices[c] + 1;
            match (uvs, normals) {
                (Some(t), Some(n)) => write!(out, " {v}/{}/{}", t[c] + 1, n[c] + 1),
                (Some(t), None) => write!(out, " {v}/{}", t[c] + 1),
                (None, Some(n)) => write!(out, " {v}//{}", n[c] + 1),
                (None, None) => write!(out, " {v}"),
            }
            .unwrap();
        }
        out.push(b'\n');
    }
}

fn write(c: &mut Criterion) {
    let mut mesh = synth::sphere(8);
    // No smooth groups: the std writer writes none.
    mesh.smooth = None;
    let meshes = [mesh];
    let mut expected = Vec::new();
    std_write(&mut expected, &meshes[0]);
    let mut group = c.benchmark_group("OBJ of a 131k-quad sphere");
    group.throughput(Throughput::Bytes(expected.len() as u64));
    group.sample_size(20);
    let mut out = Vec::with_capacity(expected.len());
    for threads in [Some(1), None] {
        let options = WriteOptions {
            threads,
            ..WriteOptions::default()
        };
        out.clear();
        obj::write_to(&mut out, &meshes, &options).unwrap();
        if out != expected {
            let (ours, theirs) = (
                String::from_utf8_lossy(&out),
                String::from_utf8_lossy(&expected),
            );
            let line = ours.lines().zip(theirs.lines()).find(|(a, b)| a != b);
            let n = ours.lines().count().min(theirs.lines().count());
            let rest = (ours.lines().nth(n), theirs.lines().nth(n));
            panic!("not the std writer's bytes: {line:?}, then {rest:?}");
        }
        let name = threads.map_or("all cores".to_string(), |t| format!("{t} thread"));
        group.bench_function(BenchmarkId::new("oxport", name), |b| {
            b.iter(|| {
                out.clear();
                obj::write_to(&mut out, black_box(&meshes), &options).unwrap();
                black_box(out.len())
            })
        });
    }
    group.bench_function(BenchmarkId::new("std write!", "1 thread"), |b| {
        b.iter(|| {
            out.clear();
            std_write(&mut out, black_box(&meshes[0]));
            black_box(out.len())
        })
    });
    group.finish();
}

criterion_group!(benches, write);
criterion_main!(benches);
