//! Does formatting scale with threads? Each of T threads formats 2 million
//! integers and 2 million floats (6 decimals) into its own buffer; the wall
//! time is the median of 5 runs. Prints CSV: method,threads,seconds.
//! `cargo bench -p oxport --bench numfmt_scaling`; `bench/numfmt_scaling.py`
//! turns the output into the table and chart of docs/benchmarks.md.

use std::hint::black_box;
use std::io::Write;
use std::time::Instant;

use oxport::numfmt;
use oxport::synth::Rng;

const PER_THREAD: usize = 2_000_000;
const RUNS: usize = 5;

type Method = fn(&[u32], &[f32], &mut Vec<u8>);

fn oxport_format(ints: &[u32], floats: &[f32], out: &mut Vec<u8>) {
    for (&i, &f) in ints.iter().zip(floats) {
        numfmt::write_u32(out, i);
        out.push(b' ');
        numfmt::write_fixed(out, f, 6);
        out.push(b'\n');
    }
}

fn snprintf_format(ints: &[u32], floats: &[f32], out: &mut Vec<u8>) {
    let mut buf = [0u8; 64];
    for (&i, &f) in ints.iter().zip(floats) {
        // SAFETY: the buffer holds any "%u %.6f\n" of a u32 and an f32.
        let n = unsafe {
            libc::snprintf(
                buf.as_mut_ptr().cast(),
                buf.len(),
                c"%u %.6f\n".as_ptr(),
                i,
                f64::from(f),
            )
        };
        out.extend_from_slice(&buf[..n as usize]);
    }
}

fn rust_format(ints: &[u32], floats: &[f32], out: &mut Vec<u8>) {
    for (&i, &f) in ints.iter().zip(floats) {
        writeln!(out, "{i} {f:.6}").unwrap();
    }
}

fn main() {
    // `cargo bench` passes `--bench`; nothing else is read.
    let mut rng = Rng::new(3);
    let ints: Vec<u32> = (0..PER_THREAD).map(|_| rng.below(1 << 24)).collect();
    let floats: Vec<f32> = (0..PER_THREAD).map(|_| rng.range(-100.0, 100.0)).collect();
    let methods: [(&str, Method); 3] = [
        ("oxport", oxport_format),
        ("snprintf", snprintf_format),
        ("rust format!", rust_format),
    ];
    println!("method,threads,seconds");
    for threads in [1, 2, 4] {
        for (name, method) in methods {
            let mut times: Vec<f64> = (0..RUNS)
                .map(|_| {
                    let start = Instant::now();
                    std::thread::scope(|scope| {
                        for _ in 0..threads {
                            scope.spawn(|| {
                                let mut out = Vec::with_capacity(PER_THREAD * 20);
                                method(&ints, &floats, &mut out);
                                black_box(out.len());
                            });
                        }
                    });
                    start.elapsed().as_secs_f64()
                })
                .collect();
            times.sort_by(f64::total_cmp);
            println!("{name},{threads},{:.4}", times[RUNS / 2]);
        }
    }
}
