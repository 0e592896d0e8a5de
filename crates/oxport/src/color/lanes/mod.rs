//! Conversions over blocks of colors in SIMD lanes: eight colors at a time,
//! each channel in its own array, through the steps of the chain sRGB ↔
//! linear sRGB ↔ Oklab ↔ Oklch. The transfer curve and the cube root are
//! [`math`]'s (within 2e-15 of the C library's), on 24 values at a time
//! ([`wide::Wide`]: six vectors of four, independent chains the processor
//! overlaps); the matrices are the scalar path's, in the same order.
//!
//! One function is compiled for x86-64 with AVX2 and FMA, chosen at run time
//! where the processor has them, and once for the target's baseline (SSE2
//! on x86-64; NEON on AArch64), the portable fallback.
//!
//! The polar step (Oklab ↔ Oklch) is [`polar`]'s, but for hues past
//! ±1e9 degrees (and NaN), which take the scalar path.

#[cfg(target_arch = "x86_64")]
mod avx512;
mod math;
mod polar;
mod wide;

use super::oklab::{LMS_TO_OKLAB, LMS_TO_SRGB, Matrix, OKLAB_TO_LMS, SRGB_TO_LMS};
use super::space::Space;
use super::{oklch, srgb};
use wide::Wide;

/// Colors per block.
pub(super) const LANES: usize = 8;

pub(super) type Lanes = [f64; LANES];

/// A block of colors, each channel in its own array.
pub(super) type Block = [Lanes; 3];

/// Values a function of [`math`] takes at once: a block's three channels,
/// six vectors of four with AVX2. A root is a chain of dependent steps, so
/// its time is latency; more independent chains side by side hide it
/// better than fewer (on one Xeon, 24 values were 15% faster than 12 and
/// 2× faster than 4), though some spill to the stack.
const WIDTH: usize = 24;

/// `$f` on every value of the block `$c`, `WIDTH` at a time. A macro, not
/// a function taking a closure: a closure (or a function passed as a
/// value) is compiled apart, without the caller's instruction set, when it
/// is too big to inline, and would take the work with it.
macro_rules! each {
    ($c:expr, $f:expr) => {
        for chunk in $c.as_flattened_mut().chunks_exact_mut(WIDTH) {
            let mut values = Wide([0.0; WIDTH]);
            values.0.copy_from_slice(chunk);
            chunk.copy_from_slice(&$f(values).0);
        }
    };
}

/// One step along the chain sRGB ↔ linear sRGB ↔ Oklab ↔ Oklch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Step {
    SrgbToLinear,
    LinearToSrgb,
    LinearToOklab,
    OklabToLinear,
    OklabToOklch,
    OklchToOklab,
}

/// The steps from `from` to `to`, up or down the chain (none when equal).
pub(super) fn path(from: Space, to: Space) -> impl Iterator<Item = Step> {
    const UP: [Step; 3] = [Step::SrgbToLinear, Step::LinearToOklab, Step::OklabToOklch];
    const DOWN: [Step; 3] = [Step::LinearToSrgb, Step::OklabToLinear, Step::OklchToOklab];
    let (from, to) = (from as usize, to as usize);
    let up = (from..to).map(|rank| UP[rank]);
    let down = (to..from).rev().map(|rank| DOWN[rank]);
    up.chain(down)
}

impl Step {
    /// The step on one color: the exact scalar path (the C library's
    /// functions), which the lanes are measured against.
    #[inline]
    pub(super) fn scalar(self, c: [f64; 3]) -> [f64; 3] {
        match self {
            Step::SrgbToLinear => c.map(srgb::to_linear),
            Step::LinearToSrgb => c.map(srgb::from_linear),
            Step::LinearToOklab => super::oklab::from_linear_srgb(c),
            Step::OklabToLinear => super::oklab::to_linear_srgb(c),
            Step::OklabToOklch => oklch::from_oklab(c),
            Step::OklchToOklab => oklch::to_oklab(c),
        }
    }

    /// The step on a block of colors.
    #[inline(always)]
    fn lanes<const F: bool>(self, c: &mut Block) {
        match self {
            Step::SrgbToLinear => each!(c, to_linear::<F>),
            Step::LinearToSrgb => each!(c, from_linear::<F>),
            Step::LinearToOklab => {
                let mut lms = apply(&SRGB_TO_LMS, c);
                each!(lms, math::cbrt::<F, WIDTH>);
                *c = apply(&LMS_TO_OKLAB, &lms);
            }
            Step::OklabToLinear => {
                let mut lms = apply(&OKLAB_TO_LMS, c);
                each!(lms, |v: Wide<WIDTH>| v * v * v);
                *c = apply(&LMS_TO_SRGB, &lms);
            }
            Step::OklabToOklch => {
                let (chroma, hue) = polar::from_oklab::<F, LANES>(Wide(c[1]), Wide(c[2]));
                (c[1], c[2]) = (chroma.0, hue.0);
            }
            // Hues past the limit (and NaN) take the scalar path, lane by
            // lane, so that no color's result depends on its neighbours'.
            Step::OklchToOklab => {
                let (a, b) = polar::to_oklab::<F, LANES>(Wide(c[1]), Wide(c[2]));
                let [l, chroma, hue] = c;
                let lanes = l.iter().zip(chroma.iter_mut()).zip(hue.iter_mut());
                for (i, ((&l, chroma), hue)) in lanes.enumerate() {
                    (*chroma, *hue) = if hue.abs() <= polar::HUE_LIMIT {
                        (a.0[i], b.0[i])
                    } else {
                        let [_, a, b] = self.scalar([l, *chroma, *hue]);
                        (a, b)
                    };
                }
            }
        }
    }
}

/// `m` times every color of the block, in the scalar path's order.
#[inline(always)]
fn apply(m: &Matrix, c: &Block) -> Block {
    let mut out = [[0.0; LANES]; 3];
    for (row, out) in m.iter().zip(&mut out) {
        for i in 0..LANES {
            out[i] = row[0] * c[0][i] + row[1] * c[1][i] + row[2] * c[2][i];
        }
    }
    out
}

/// [`srgb::to_linear`] on every lane.
#[inline(always)]
fn to_linear<const F: bool>(c: Wide<WIDTH>) -> Wide<WIDTH> {
    // Multiplications by the reciprocals rather than divisions: within a
    // unit in the last place of them.
    let abs = c.abs();
    let t = abs.mul_add::<F>(Wide::splat(1.0 / 1.055), Wide::splat(0.055 / 1.055));
    let curve = math::pow_12_5::<F, WIDTH>(t).copysign(c);
    abs.le(Wide::splat(0.04045))
        .select(c * (1.0 / 12.92), curve)
}

/// [`srgb::from_linear`] on every lane.
#[inline(always)]
fn from_linear<const F: bool>(c: Wide<WIDTH>) -> Wide<WIDTH> {
    let abs = c.abs();
    let curve = (math::pow_5_12::<F, WIDTH>(abs) * 1.055 - 0.055).copysign(c);
    abs.gt(Wide::splat(0.0031308)).select(curve, c * 12.92)
}

/// Every block through `steps`, in place: on AVX-512 where the processor
/// has it, else on [`Wide`] lanes.
pub(super) fn convert_blocks(blocks: &mut [Block], steps: &[Step]) {
    #[cfg(target_arch = "x86_64")]
    if avx512::available() {
        // SAFETY: the processor has the instructions it is compiled for.
        unsafe { avx512::convert_blocks(blocks, steps) };
        return;
    }
    convert_wide(blocks, steps);
}

/// Every block through `steps` on [`Wide`] lanes, in place: compiled for
/// AVX2 with FMA where the processor has them (unless the fallback is
/// forced: [`crate::cpu::portable`]), else for the target's baseline.
fn convert_wide(blocks: &mut [Block], steps: &[Step]) {
    #[cfg(target_arch = "x86_64")]
    if crate::cpu::avx2() && std::arch::is_x86_feature_detected!("fma") {
        // SAFETY: the processor has AVX2 and FMA (checked just above).
        unsafe { convert_avx2_fma(blocks, steps) };
        return;
    }
    convert_lanes::<{ cfg!(target_feature = "fma") }>(blocks, steps);
}

/// [`convert_lanes`] compiled for AVX2 and FMA.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
fn convert_avx2_fma(blocks: &mut [Block], steps: &[Step]) {
    convert_lanes::<true>(blocks, steps);
}

/// Every block through `steps`, fused multiply-adds where `F`; inlined
/// into its callers, compiled for what each is compiled for.
#[inline(always)]
fn convert_lanes<const F: bool>(blocks: &mut [Block], steps: &[Step]) {
    for block in blocks {
        for &step in steps {
            step.lanes::<F>(block);
        }
    }
}

#[cfg(test)]
mod tests;
