//! Color conversions of 1 million random sRGB colors (and their Oklab
//! values) in place: the SIMD lanes on one thread and on every core against
//! the exact scalar path (`convert_one`, one color at a time) on one thread,
//! in the same group. `cargo bench -p oxport --bench color`

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use oxport::color::{self, Space};
use oxport::synth::Rng;

const COLORS: usize = 1 << 20;

fn convert(c: &mut Criterion) {
    let mut rng = Rng::new(1);
    let srgb: Vec<[f64; 3]> = (0..COLORS)
        .map(|_| [0; 3].map(|_| f64::from(rng.range(0.0, 1.0))))
        .collect();
    let mut oklab = srgb.clone();
    color::convert(&mut oklab, Space::Srgb, Space::Oklab, None).unwrap();
    for (from, to, input) in [
        (Space::Srgb, Space::Oklab, &srgb),
        (Space::Oklab, Space::Srgb, &oklab),
        (Space::Srgb, Space::Oklch, &srgb),
    ] {
        let mut group = c.benchmark_group(format!("{from} to {to}, 1M colors"));
        group.throughput(Throughput::Elements(COLORS as u64));
        group.sample_size(10);
        let mut colors = input.clone();
        for threads in [Some(1), None] {
            let name = threads.map_or("all cores".to_string(), |t| format!("{t} thread"));
            group.bench_function(BenchmarkId::new("lanes", name), |b| {
                b.iter(|| {
                    colors.copy_from_slice(input);
                    color::convert(black_box(&mut colors), from, to, threads).unwrap();
                })
            });
        }
        group.bench_function(BenchmarkId::new("scalar path", "1 thread"), |b| {
            b.iter(|| {
                colors.copy_from_slice(input);
                for c in black_box(&mut colors).iter_mut() {
                    *c = color::convert_one(*c, from, to);
                }
            })
        });
        group.finish();
    }
}

criterion_group!(benches, convert);
criterion_main!(benches);
