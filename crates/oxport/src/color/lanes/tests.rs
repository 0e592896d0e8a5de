//! The lanes against the exact scalar path: within 1e-12 (relative past 1)
//! for `f64`, within one unit in the last place for `f32`, on every kernel
//! (the generic lanes with and without FMA, AVX-512 where the processor has
//! it), over random colors in and out of gamut (see [`check`]) and over
//! every `f32` channel value the transfer curve takes.

use super::*;
use crate::color::image::convert_steps;

/// `colors` through `steps` on the lanes, in place.
fn convert_f64(colors: &mut [[f64; 3]], steps: &[Step]) {
    convert_steps(colors.as_flattened_mut(), steps);
}

/// `colors` through `step` on the lanes, fused multiply-adds where `F`
/// (compiled for this target's baseline, where they are calls).
fn step_on_lanes<const F: bool>(colors: &mut [[f64; 3]], step: Step) {
    step_on_blocks(colors, |block| step.lanes::<F>(block));
}

/// `colors` through `step` on the lanes compiled for this processor (AVX2
/// and FMA where it has them), as they run where AVX-512 is missing.
fn step_on_wide(colors: &mut [[f64; 3]], step: Step) {
    step_on_blocks(colors, |block| {
        convert_wide(std::slice::from_mut(block), &[step])
    });
}

/// `colors` through `step` on the AVX-512 kernel.
#[cfg(target_arch = "x86_64")]
fn step_on_avx512(colors: &mut [[f64; 3]], step: Step) {
    // SAFETY: the kernels list this one only where it is available.
    step_on_blocks(colors, |block| unsafe {
        avx512::convert_blocks(std::slice::from_mut(block), &[step])
    });
}

/// `colors` through `f`, a block at a time.
fn step_on_blocks(colors: &mut [[f64; 3]], f: impl Fn(&mut Block)) {
    for piece in colors.chunks_mut(LANES) {
        let mut block: Block = [[0.0; LANES]; 3];
        for (i, color) in piece.iter().enumerate() {
            for (channel, &v) in block.iter_mut().zip(color) {
                channel[i] = v;
            }
        }
        f(&mut block);
        for (i, color) in piece.iter_mut().enumerate() {
            for (v, channel) in color.iter_mut().zip(&block) {
                *v = channel[i];
            }
        }
    }
}

/// A step on blocks of colors.
type Kernel = (&'static str, fn(&mut [[f64; 3]], Step));

/// Every kernel this processor runs: the generic lanes with and without
/// FMA, as compiled for the baseline and for this processor, and AVX-512
/// where it has it.
fn kernels() -> Vec<Kernel> {
    #[cfg_attr(not(target_arch = "x86_64"), allow(unused_mut))]
    let mut kernels: Vec<Kernel> = vec![
        ("lanes", step_on_lanes::<false>),
        ("lanes (fma)", step_on_lanes::<true>),
        ("lanes (this processor's)", step_on_wide),
    ];
    #[cfg(target_arch = "x86_64")]
    if avx512::tests::runs_here() {
        kernels.push(("avx-512", step_on_avx512));
    }
    kernels
}

/// [`convert_f64`] for `f32` colors.
fn convert_f32(colors: &mut [[f32; 3]], steps: &[Step]) {
    convert_steps(colors.as_flattened_mut(), steps);
}
use crate::pipeline::Pipeline;
use crate::synth::Rng;

/// Random colors of `space`: its usual range and well past it, negatives too.
fn random_colors(space: Space, count: usize, seed: u64) -> Vec<[f64; 3]> {
    let mut rng = Rng::new(seed);
    let mut next = |lo: f64, hi: f64| lo + (hi - lo) * f64::from(rng.range(0.0, 1.0));
    (0..count)
        .map(|_| match space {
            Space::Srgb | Space::Linear => [next(-0.5, 1.5), next(-0.5, 1.5), next(-0.5, 1.5)],
            Space::Oklab => [next(-0.2, 1.2), next(-0.5, 0.5), next(-0.5, 0.5)],
            Space::Oklch => [next(-0.2, 1.2), next(0.0, 0.5), next(0.0, 360.0)],
        })
        .collect()
}

/// Whether `got` is within 1e-12 of `want`, relative to the color's
/// largest component past 1 (Oklab's a and b, and a gray's sRGB channels'
/// differences, are differences of values of that size: their rounding is
/// its). In Oklch the hue counts by the distance it moves the color on the
/// a–b plane (angle times chroma): a low-chroma color's hue is an angle
/// between tiny a and b, as uncertain as their last bits.
fn agree(got: [f64; 3], want: [f64; 3], to: Space) -> bool {
    let scale = want.iter().take(2).fold(1f64, |m, v| m.max(v.abs()));
    let scale = if to == Space::Oklch {
        scale
    } else {
        scale.max(want[2].abs())
    };
    let near =
        |g: f64, w: f64| g == w || (g.is_nan() && w.is_nan()) || (g - w).abs() <= 1e-12 * scale;
    if to != Space::Oklch {
        return (0..3).all(|i| near(got[i], want[i]));
    }
    let turn = (got[2] - want[2]).abs() % 360.0;
    let turn = turn.min(360.0 - turn).to_radians();
    let hue = got[2] == want[2]
        || (got[2].is_nan() && want[2].is_nan())
        || turn * want[1].abs() <= 1e-12 * scale;
    near(got[0], want[0]) && near(got[1], want[1]) && hue
}

fn scalar(c: [f64; 3], steps: &[Step]) -> [f64; 3] {
    steps.iter().fold(c, |c, step| step.scalar(c))
}

/// Distance in units in the last place between two `f32`s.
fn ulps(a: f32, b: f32) -> u64 {
    let key = |x: f32| {
        let bits = x.to_bits() as i64;
        if bits < 0 { i64::MIN - bits } else { bits }
    };
    if a.is_nan() && b.is_nan() {
        return 0;
    }
    key(a).abs_diff(key(b))
}

/// Random colors of `from` to `to`: each step of the lanes within 1e-12 of
/// the scalar step on the same input, on every kernel; the whole chain
/// within 1e-12 for colors in the sRGB gamut; `f32` colors the `f64` lanes'
/// results rounded, so within one unit in the last place of those.
///
/// Out of gamut, the chain is checked a step at a time: where the linear
/// sRGB to LMS matrix cancels (LMS near 0, where the cube root is steepest),
/// one unit in the last place of a linear value moves the Oklab result by
/// up to 1e-11, on any path not bit for bit the C library's.
fn check(from: Space, to: Space, count: usize) {
    let steps: Vec<Step> = path(from, to).collect();
    let pipeline = Pipeline::new(None).unwrap();
    let colors = random_colors(from, count, 11 + from as u64 * 4 + to as u64);
    let kernels = kernels();
    pipeline.map_ranges(count, 1 << 12, |range| {
        let input = &colors[range];
        for &(kernel, step_on) in &kernels {
            let mut lanes = input.to_vec();
            for &step in &steps {
                let before = lanes.clone();
                step_on(&mut lanes, step);
                for (got, c) in lanes.iter().zip(&before) {
                    let want = step.scalar(*c);
                    let space = match step {
                        Step::OklabToOklch => Space::Oklch,
                        _ => Space::Srgb,
                    };
                    assert!(
                        agree(*got, want, space),
                        "{step:?} ({kernel}) on {c:?}: {got:?}, the scalar path says {want:?}"
                    );
                }
            }
        }
        let mut wide = input.to_vec();
        convert_f64(&mut wide, &steps);
        let in_gamut = |c: &[f64; 3]| match from {
            Space::Srgb | Space::Linear => c.iter().all(|v| (0.0..=1.0).contains(v)),
            _ => false,
        };
        for (got, c) in wide.iter().zip(input) {
            if in_gamut(c) {
                let want = scalar(*c, &steps);
                assert!(
                    agree(*got, want, to),
                    "{from} -> {to} on {c:?}: {got:?}, the scalar path says {want:?}"
                );
            }
        }
        let mut narrow: Vec<[f32; 3]> = input.iter().map(|c| c.map(|v| v as f32)).collect();
        let mut widened: Vec<[f64; 3]> = narrow.iter().map(|c| c.map(f64::from)).collect();
        convert_f32(&mut narrow, &steps);
        convert_f64(&mut widened, &steps);
        for (got, want) in narrow.iter().zip(&widened) {
            let want = want.map(|v| v as f32);
            assert!(
                got.iter()
                    .zip(&want)
                    .all(|(g, w)| g.to_bits() == w.to_bits() || (g.is_nan() && w.is_nan())),
                "{from} -> {to} (f32): {got:?}, the f64 lanes rounded give {want:?}"
            );
        }
    });
}

#[test]
fn srgb_and_oklab_both_ways_on_ten_million_colors() {
    let count = crate::testing::sweep(10_000_000);
    check(Space::Srgb, Space::Oklab, count);
    check(Space::Oklab, Space::Srgb, count);
}

#[test]
fn every_pair_of_spaces_on_a_million_colors() {
    for from in Space::ALL {
        for to in Space::ALL {
            check(from, to, crate::testing::sweep(1_000_000));
        }
    }
}

#[test]
fn every_f32_channel_value_through_the_transfer_curve() {
    // Every f32 in [0, 1], as the three channels of colors, both ways
    // (every so many under an emulator).
    let one = 1f32.to_bits();
    let stride = 3 * (one as usize / crate::testing::sweep(one as usize));
    let pipeline = Pipeline::new(None).unwrap();
    for steps in [[Step::SrgbToLinear], [Step::LinearToSrgb]] {
        let failures = pipeline.map_ranges(one as usize + 1, 1 << 10, |range| {
            let mut colors: Vec<[f32; 3]> = range
                .clone()
                .step_by(stride)
                .map(|b| {
                    let v = |k: usize| f32::from_bits((b + k).min(one as usize) as u32);
                    [v(0), v(1), v(2)]
                })
                .collect();
            let input = colors.clone();
            convert_f32(&mut colors, &steps);
            let mut failures = 0usize;
            for (got, c) in colors.iter().zip(&input) {
                let want = scalar(c.map(f64::from), &steps).map(|v| v as f32);
                for (&g, &w) in got.iter().zip(&want) {
                    failures += usize::from(ulps(g, w) > 1);
                }
            }
            failures
        });
        assert_eq!(failures.iter().sum::<usize>(), 0, "{steps:?}");
    }
}

#[test]
fn special_values_follow_the_scalar_path() {
    let values = [
        0.0,
        -0.0,
        1.0,
        -1.0,
        1e300,
        -1e300,
        f64::INFINITY,
        1e-310,
        0.04045,
        0.0031308,
    ];
    for from in Space::ALL {
        for to in Space::ALL {
            let steps: Vec<Step> = path(from, to).collect();
            let mut colors: Vec<[f64; 3]> = values.iter().map(|&v| [v, v, v]).collect();
            colors.push([f64::NAN, 0.5, 0.5]);
            let expected: Vec<[f64; 3]> = colors.iter().map(|&c| scalar(c, &steps)).collect();
            convert_f64(&mut colors, &steps);
            for (got, want) in colors.iter().zip(&expected) {
                assert!(
                    agree(*got, *want, to),
                    "{from} -> {to}: {got:?}, the scalar path says {want:?}"
                );
            }
        }
    }
}

#[test]
fn the_path_goes_up_or_down_the_chain() {
    use Step::*;
    let steps = |a, b| path(a, b).collect::<Vec<_>>();
    assert_eq!(
        steps(Space::Srgb, Space::Oklch),
        [SrgbToLinear, LinearToOklab, OklabToOklch]
    );
    assert_eq!(
        steps(Space::Oklab, Space::Srgb),
        [OklabToLinear, LinearToSrgb]
    );
    assert!(steps(Space::Linear, Space::Linear).is_empty());
}
