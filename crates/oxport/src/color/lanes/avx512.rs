//! The lanes on AVX-512 (F and DQ), chosen at run time where the processor
//! has them: [`super::math`]'s roots by the same method, eight values to a
//! register, with the instructions AVX2 lacks for the work a root spends
//! most of its time on there: a double's exponent and mantissa
//! (`vgetexppd`, `vgetmantpd`), scaling by a power of two (`vscalefpd`),
//! 2^(−r/N) looked up across the register (`vpermpd`) rather than summed
//! as a series, and the special values classed at once (`vfpclasspd`),
//! subnormal ones included. The results keep [`super::math`]'s bounds (the
//! tests hold both to them); the matrices are the scalar path's, in its
//! order, and the polar steps are the generic lanes', compiled here.

use std::arch::x86_64::*;

use super::math::{INVERSE_ROOT_3, INVERSE_ROOT_5, INVERSE_ROOT_12, ROUND};
use super::{Block, LANES, Step};
use crate::color::oklab::{LMS_TO_OKLAB, LMS_TO_SRGB, Matrix, OKLAB_TO_LMS, SRGB_TO_LMS};

type V = __m512d;

const _: () = assert!(LANES == 8, "a block's channel is one register");

/// Blocks converted together: their six channels are independent chains,
/// which the processor overlaps (a root's time is latency).
const BLOCKS: usize = 2;
const K: usize = 3 * BLOCKS;

/// Whether this processor has what [`convert_blocks`] needs.
fn present() -> bool {
    is_x86_feature_detected!("avx512f") && is_x86_feature_detected!("avx512dq")
}

/// Whether [`convert_blocks`] runs: the processor has it and the fallback
/// is not forced ([`crate::cpu::portable`]).
pub(super) fn available() -> bool {
    !crate::cpu::portable() && present()
}

#[inline]
#[target_feature(enable = "avx512f,avx512dq")]
fn splat(v: f64) -> V {
    _mm512_set1_pd(v)
}

/// Horner's rule over `coefficients`, the highest power first.
#[inline]
#[target_feature(enable = "avx512f,avx512dq")]
fn horner<const N: usize>(x: V, coefficients: &[f64; N]) -> V {
    let mut sum = splat(coefficients[0]);
    for &c in &coefficients[1..] {
        sum = _mm512_fmadd_pd(sum, x, splat(c));
    }
    sum
}

/// `y`^`n` by multiplications, as [`super::math`] takes it.
#[inline]
#[target_feature(enable = "avx512f,avx512dq")]
fn power(y: V, n: i32) -> V {
    let y2 = _mm512_mul_pd(y, y);
    match n {
        2 => y2,
        3 => _mm512_mul_pd(y2, y),
        4 => _mm512_mul_pd(y2, y2),
        5 => _mm512_mul_pd(_mm512_mul_pd(y2, y2), y),
        12 => {
            let y4 = _mm512_mul_pd(y2, y2);
            _mm512_mul_pd(_mm512_mul_pd(y4, y4), y4)
        }
        _ => unreachable!("the powers taken are 2 to 5 and 12"),
    }
}

/// Where `x` is 0, ∞ or NaN (of either sign): their own roots.
#[inline]
#[target_feature(enable = "avx512f,avx512dq")]
fn special(x: V) -> __mmask8 {
    // Quiet NaN, +0, −0, +∞, −∞, signalling NaN.
    _mm512_fpclass_pd_mask::<0x9F>(x)
}

/// `x` > 0 (finite; subnormal too) as y·2^(N·q) with y in [1, 2^N), and
/// y^(−1/N) to rounding: the reduction, estimate and step of
/// [`super::math`], the estimate's second factor 2^((N−1)/2N − r/N) read
/// from a table. For 0, ∞ and NaN, anything.
#[inline]
#[target_feature(enable = "avx512f,avx512dq")]
fn reduce<const N: i32>(x: V) -> (V, V, V) {
    let n = f64::from(N);
    let m = _mm512_getmant_pd::<_MM_MANT_NORM_1_2, _MM_MANT_SIGN_ZERO>(x);
    let e = _mm512_getexp_pd(x);
    // q = ⌊e/N⌋: (e − (N−1)/2)/N is within (N−1)/2N < ½ of it.
    let q = _mm512_fmadd_pd(
        _mm512_sub_pd(e, splat((n - 1.0) / 2.0)),
        splat(1.0 / n),
        splat(ROUND),
    );
    let q = _mm512_sub_pd(q, splat(ROUND));
    let r = _mm512_fnmadd_pd(q, splat(n), e);
    let y = _mm512_scalef_pd(m, r);
    let (coefficients, second) = match N {
        3 => (&INVERSE_ROOT_3, &SECOND_3[..]),
        5 => (&INVERSE_ROOT_5, &SECOND_5[..]),
        12 => (&INVERSE_ROOT_12, &SECOND_12[..]),
        _ => unreachable!("the roots taken are the 3rd, 5th and 12th"),
    };
    let estimate = horner(_mm512_fmadd_pd(m, splat(2.0), splat(-3.0)), coefficients);
    // r in the low bits of the index; the lookup reads those.
    let index = _mm512_castpd_si512(_mm512_add_pd(r, splat(ROUND)));
    let table = |at: usize| {
        let t = |i: usize| second.get(at + i).copied().unwrap_or(0.0);
        _mm512_setr_pd(t(0), t(1), t(2), t(3), t(4), t(5), t(6), t(7))
    };
    let second = if N <= 8 {
        _mm512_permutexvar_pd(index, table(0))
    } else {
        _mm512_permutex2var_pd(table(0), index, table(8))
    };
    let s = _mm512_mul_pd(estimate, second);
    // s·(1 − e)^(−1/N) to second order in e = 1 − y·s^N.
    let e = _mm512_fnmadd_pd(y, power(s, N), splat(1.0));
    let step = _mm512_mul_pd(
        e,
        _mm512_fmadd_pd(e, splat((n + 1.0) / (2.0 * n * n)), splat(1.0 / n)),
    );
    (y, _mm512_fmadd_pd(s, step, s), q)
}

/// 2^((N−1)/2N − r/N) for r in 0..N: the factor of 2^(−r/N) the
/// estimate's polynomial leaves (`tools/root_coefficients.py` prints them).
const SECOND_3: [f64; 3] = [1.2599210498948732, 1.0, 0.7937005259840998];
const SECOND_5: [f64; 5] = [
    1.3195079107728942,
    1.148698354997035,
    1.0,
    0.8705505632961241,
    0.757858283255199,
];
const SECOND_12: [f64; 12] = [
    1.3739536474580891,
    1.2968395546510096,
    1.224053543304655,
    1.155352696872273,
    1.0905077326652577,
    1.029302236643492,
    0.9715319411536059,
    0.9170040432046712,
    0.8655365610061431,
    0.8169577266205499,
    0.7711054127039704,
    0.7278265914210937,
];

/// The `N`th root of `x` ≥ 0 (0, ∞ and NaN their own root).
#[inline]
#[target_feature(enable = "avx512f,avx512dq")]
fn root<const N: i32>(x: V) -> V {
    let (y, s, q) = reduce::<N>(x);
    let root = _mm512_scalef_pd(_mm512_mul_pd(y, power(s, N - 1)), q);
    _mm512_mask_mov_pd(root, special(x), x)
}

/// `a` with the sign of `b`.
#[inline]
#[target_feature(enable = "avx512f,avx512dq")]
fn copysign(a: V, b: V) -> V {
    let sign = splat(-0.0);
    _mm512_or_pd(_mm512_andnot_pd(sign, a), _mm512_and_pd(sign, b))
}

/// [`super::math::pow_12_5`]: t² · (t²)^⅕.
#[inline]
#[target_feature(enable = "avx512f,avx512dq")]
pub(super) fn pow_12_5(t: V) -> V {
    let t2 = _mm512_mul_pd(t, t);
    _mm512_mul_pd(t2, root::<5>(t2))
}

/// [`super::math::pow_5_12`]: √x · x^(−1/12), for `x` ≥ 0 (0, ∞ and NaN
/// their own power).
#[inline]
#[target_feature(enable = "avx512f,avx512dq")]
pub(super) fn pow_5_12(x: V) -> V {
    let (_, s, q) = reduce::<12>(x);
    let power = _mm512_mul_pd(
        _mm512_sqrt_pd(x),
        _mm512_scalef_pd(s, _mm512_sub_pd(splat(0.0), q)),
    );
    _mm512_mask_mov_pd(power, special(x), x)
}

/// The cube root, keeping the sign (as `f64::cbrt`).
#[inline]
#[target_feature(enable = "avx512f,avx512dq")]
pub(super) fn cbrt(x: V) -> V {
    copysign(root::<3>(_mm512_abs_pd(x)), x)
}

/// [`super::to_linear`].
#[inline]
#[target_feature(enable = "avx512f,avx512dq")]
fn to_linear(c: V) -> V {
    let abs = _mm512_abs_pd(c);
    let t = _mm512_fmadd_pd(abs, splat(1.0 / 1.055), splat(0.055 / 1.055));
    let curve = copysign(pow_12_5(t), c);
    let linear = _mm512_cmp_pd_mask::<_CMP_LE_OQ>(abs, splat(0.04045));
    _mm512_mask_mov_pd(curve, linear, _mm512_mul_pd(c, splat(1.0 / 12.92)))
}

/// [`super::from_linear`].
#[inline]
#[target_feature(enable = "avx512f,avx512dq")]
fn from_linear(c: V) -> V {
    let abs = _mm512_abs_pd(c);
    let scaled = _mm512_mul_pd(pow_5_12(abs), splat(1.055));
    let curve = copysign(_mm512_sub_pd(scaled, splat(0.055)), c);
    let linear = _mm512_cmp_pd_mask::<_CMP_LE_OQ>(abs, splat(0.0031308));
    _mm512_mask_mov_pd(curve, linear, _mm512_mul_pd(c, splat(12.92)))
}

/// `m` times each block's colors (channels `3b..3b + 3`), in the scalar
/// path's order.
#[inline]
#[target_feature(enable = "avx512f,avx512dq")]
fn matrix(m: &Matrix, v: &mut [V; K]) {
    for block in v.as_chunks_mut::<3>().0 {
        let c = *block;
        for (row, out) in m.iter().zip(block) {
            let sum = _mm512_add_pd(
                _mm512_mul_pd(splat(row[0]), c[0]),
                _mm512_mul_pd(splat(row[1]), c[1]),
            );
            *out = _mm512_add_pd(sum, _mm512_mul_pd(splat(row[2]), c[2]));
        }
    }
}

/// Every block through `steps`, in place, [`BLOCKS`] at a time.
#[target_feature(enable = "avx512f,avx512dq")]
pub(super) fn convert_blocks(blocks: &mut [Block], steps: &[Step]) {
    for group in blocks.chunks_mut(BLOCKS) {
        let mut v = [splat(0.0); K];
        let load = |group: &[Block], v: &mut [V; K]| {
            for (v, channel) in v.iter_mut().zip(group.as_flattened()) {
                // SAFETY: a channel is eight doubles.
                *v = unsafe { _mm512_loadu_pd(channel.as_ptr()) };
            }
        };
        let store = |v: &[V; K], group: &mut [Block]| {
            for (v, channel) in v.iter().zip(group.as_flattened_mut()) {
                // SAFETY: a channel is eight doubles.
                unsafe { _mm512_storeu_pd(channel.as_mut_ptr(), *v) };
            }
        };
        load(group, &mut v);
        for &step in steps {
            match step {
                Step::SrgbToLinear => {
                    for v in &mut v {
                        *v = to_linear(*v);
                    }
                }
                Step::LinearToSrgb => {
                    for v in &mut v {
                        *v = from_linear(*v);
                    }
                }
                Step::LinearToOklab => {
                    matrix(&SRGB_TO_LMS, &mut v);
                    for v in &mut v {
                        *v = cbrt(*v);
                    }
                    matrix(&LMS_TO_OKLAB, &mut v);
                }
                Step::OklabToLinear => {
                    matrix(&OKLAB_TO_LMS, &mut v);
                    for v in &mut v {
                        *v = _mm512_mul_pd(_mm512_mul_pd(*v, *v), *v);
                    }
                    matrix(&LMS_TO_SRGB, &mut v);
                }
                Step::OklabToOklch | Step::OklchToOklab => {
                    store(&v, group);
                    for block in group.iter_mut() {
                        step.lanes::<true>(block);
                    }
                    load(group, &mut v);
                }
            }
        }
        store(&v, group);
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::super::math::tests::{
        Pair, agree_with_the_c_library, exact_5_12, exact_12_5, special_values_are_the_c_library_s,
    };
    use super::*;

    /// The functions tested, by name.
    #[derive(Clone, Copy)]
    enum Function {
        Cbrt,
        Pow125,
        Pow512,
    }

    /// `f` of `x` in every lane; the first (all must agree).
    fn lane(f: Function, x: f64) -> f64 {
        // SAFETY: the tests call this only where `available`.
        let lanes = unsafe { lanes_of(f, x) };
        assert!(lanes.iter().all(|v| v.to_bits() == lanes[0].to_bits()));
        lanes[0]
    }

    #[target_feature(enable = "avx512f,avx512dq")]
    fn lanes_of(f: Function, x: f64) -> [f64; 8] {
        let v = splat(x);
        let v = match f {
            Function::Cbrt => cbrt(v),
            Function::Pow125 => pow_12_5(v),
            Function::Pow512 => pow_5_12(v),
        };
        let mut out = [0.0; 8];
        // SAFETY: eight doubles.
        unsafe { _mm512_storeu_pd(out.as_mut_ptr(), v) };
        out
    }

    const PAIRS: [Pair; 3] = [
        (|x| lane(Function::Cbrt, x), f64::cbrt, "cbrt (avx-512)"),
        (
            |x| lane(Function::Pow125, x),
            exact_12_5,
            "pow 2.4 (avx-512)",
        ),
        (
            |x| lane(Function::Pow512, x),
            exact_5_12,
            "pow 1/2.4 (avx-512)",
        ),
    ];

    /// Whether the tests of this kernel can run here; says so where not.
    pub(in super::super) fn runs_here() -> bool {
        let here = present();
        if !here {
            crate::testing::skip("this processor has no AVX-512: its kernel is not tested here");
        }
        here
    }

    #[test]
    #[cfg_attr(
        not(all(target_os = "linux", target_env = "gnu")),
        ignore = "the reference is glibc's libm (mingw's pow is 2e-14 off near 1e284)"
    )]
    fn the_functions_agree_with_the_c_library() {
        if runs_here() {
            agree_with_the_c_library(&PAIRS);
        }
    }

    #[test]
    fn special_values() {
        if runs_here() {
            special_values_are_the_c_library_s(&PAIRS);
            assert_eq!(lane(Function::Cbrt, -8.0), -2.0);
            assert_eq!(lane(Function::Cbrt, f64::NEG_INFINITY), f64::NEG_INFINITY);
            assert_eq!(lane(Function::Cbrt, -0.0).to_bits(), (-0.0f64).to_bits());
        }
    }

    #[test]
    fn the_tables_are_the_powers_of_two() {
        for (n, table) in [(3, &SECOND_3[..]), (5, &SECOND_5), (12, &SECOND_12)] {
            for (r, &v) in table.iter().enumerate() {
                let want = 2f64.powf(f64::from(n - 1) / f64::from(2 * n) - r as f64 / f64::from(n));
                assert!(
                    (v - want).abs() <= 2e-16 * want,
                    "2^(−{r}/{n}): {v} against {want}"
                );
            }
        }
    }
}
