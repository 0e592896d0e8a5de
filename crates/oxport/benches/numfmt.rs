//! One `f32` at 6 decimals, one `u32`: oxport against glibc `snprintf` and
//! Rust's `format!` in the same group. `cargo bench -p oxport --bench numfmt`

use std::hint::black_box;
use std::io::Write;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use oxport::numfmt;
use oxport::synth::Rng;

const COUNT: usize = 10_000;

fn values() -> Vec<f32> {
    // What meshes hold: coordinates of a few units, normals in [-1, 1].
    let mut rng = Rng::new(1);
    (0..COUNT)
        .map(|i| rng.range(-1.0, 1.0) * [1.0, 10.0, 100.0][i % 3])
        .collect()
}

fn fixed(c: &mut Criterion) {
    let values = values();
    let mut group = c.benchmark_group("f32 at 6 decimals");
    group.throughput(Throughput::Elements(COUNT as u64));
    let mut out = Vec::with_capacity(COUNT * 16);
    group.bench_function(BenchmarkId::new("oxport", COUNT), |b| {
        b.iter(|| {
            out.clear();
            for &v in &values {
                numfmt::write_fixed(&mut out, black_box(v), 6);
                out.push(b' ');
            }
            black_box(out.len())
        })
    });
    let format = c"%.6f ";
    let mut buf = [0u8; 64];
    group.bench_function(BenchmarkId::new("snprintf", COUNT), |b| {
        b.iter(|| {
            out.clear();
            for &v in &values {
                // SAFETY: the buffer holds any %.6f of an f32 (at most 48 bytes).
                let n = unsafe {
                    libc::snprintf(
                        buf.as_mut_ptr().cast(),
                        buf.len(),
                        format.as_ptr(),
                        f64::from(black_box(v)),
                    )
                };
                out.extend_from_slice(&buf[..n as usize]);
            }
            black_box(out.len())
        })
    });
    group.bench_function(BenchmarkId::new("rust {:.6}", COUNT), |b| {
        b.iter(|| {
            out.clear();
            for &v in &values {
                write!(out, "{:.6} ", black_box(v)).unwrap();
            }
            black_box(out.len())
        })
    });
    group.finish();
}

fn integers(c: &mut Criterion) {
    let mut rng = Rng::new(2);
    let values: Vec<u32> = (0..COUNT).map(|_| rng.below(10_000_000)).collect();
    let mut group = c.benchmark_group("u32");
    group.throughput(Throughput::Elements(COUNT as u64));
    let mut out = Vec::with_capacity(COUNT * 12);
    group.bench_function(BenchmarkId::new("oxport", COUNT), |b| {
        b.iter(|| {
            out.clear();
            for &v in &values {
                numfmt::write_u32(&mut out, black_box(v));
                out.push(b' ');
            }
            black_box(out.len())
        })
    });
    group.bench_function(BenchmarkId::new("rust {}", COUNT), |b| {
        b.iter(|| {
            out.clear();
            for &v in &values {
                write!(out, "{} ", black_box(v)).unwrap();
            }
            black_box(out.len())
        })
    });
    group.finish();
}

criterion_group!(benches, fixed, integers);
criterion_main!(benches);
