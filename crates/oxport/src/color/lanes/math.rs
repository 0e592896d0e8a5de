//! The powers and roots the conversions need, for SIMD lanes: written per
//! lane without branches (a comparison picks between two values both
//! computed), so that a loop over a block of lanes compiles to vector
//! instructions.
//!
//! Each root reduces its argument to x = y·2^(N·q), y in [1, 2^N), with
//! y = m·2^r for the mantissa m in [1, 2) and r in 0..N. The estimate of
//! y^(−1/N) is a polynomial for m^(−1/N) (to about 1e-6) times a short
//! series for 2^(−r/N); one step of third order on y·s^N = 1, which needs
//! no division, then cubes that error away: the results are within 2e-15
//! (relative) of the C library's (the tests measure it). `F` says whether
//! `mul_add` is a fused instruction here (where it is not, it is a slow
//! call).

use std::f64::consts::LN_2;

use super::wide::Wide;

/// Horner's rule over `coefficients`, the highest power first.
#[inline(always)]
pub(super) fn horner<const F: bool, const L: usize, const N: usize>(
    x: Wide<L>,
    coefficients: &[f64; N],
) -> Wide<L> {
    let mut sum = Wide::splat(coefficients[0]);
    for &c in &coefficients[1..] {
        sum = sum.mul_add::<F>(x, Wide::splat(c));
    }
    sum
}

// `tools/root_coefficients.py` prints these three.

/// m^(−1/3)·2^(−2/6) on [1, 2] in powers of 2m − 3, to 1.1e-06.
pub(super) const INVERSE_ROOT_3: [f64; 7] = [
    0.00012484312323936462,
    -0.0004192268690602471,
    0.0012229089452269195,
    -0.004405845149855395,
    0.017121298637566968,
    -0.07704427579776699,
    0.6933612743506349,
];
/// m^(−1/5)·2^(−4/10) on [1, 2] in powers of 2m − 3, to 5.1e-07.
pub(super) const INVERSE_ROOT_5: [f64; 7] = [
    5.7736006271775455e-05,
    -0.00019867502570912267,
    0.0006029167371116427,
    -0.0022628466306721896,
    0.009318258885457897,
    -0.04659034757510081,
    0.698827118771579,
];
/// m^(−1/12)·2^(−11/24) on [1, 2] in powers of 2m − 3, to 1.7e-07.
pub(super) const INVERSE_ROOT_12: [f64; 7] = [
    1.8856169982634746e-05,
    -6.632608910311128e-05,
    0.00020849481332379277,
    -0.0008121667008143936,
    0.00352926203568295,
    -0.01954629683990116,
    0.7036450665680529,
];
/// 1/k! for k = 6 down to 0: e^g for |g| ≤ ln2·11/24, to 1.4e-7.
const EXP: [f64; 7] = [
    1.0 / 720.0,
    1.0 / 120.0,
    1.0 / 24.0,
    1.0 / 6.0,
    1.0 / 2.0,
    1.0,
    1.0,
];

/// 2^⅓.
const CBRT_2: f64 = 1.2599210498948732;
/// 1.5·2^52: added to |y| < 2^51, rounds y to an integer in the low bits.
pub(super) const ROUND: f64 = 6755399441055744.0;
/// 2^52: an integer below it, added to this, sits in the low mantissa bits.
const TWO_52: f64 = 4503599627370496.0;
/// 2^600, to lift subnormal values into the normal range.
const TWO_600: f64 = f64::from_bits((1023 + 600) << 52);
/// The mantissa field.
const MANTISSA: u64 = (1 << 52) - 1;

/// `y`^`n` by multiplications (`powi` promises no precision); `n` is a
/// constant where it is inlined.
#[inline(always)]
fn power<const L: usize>(y: Wide<L>, n: i32) -> Wide<L> {
    let y2 = y * y;
    match n {
        2 => y2,
        3 => y2 * y,
        4 => y2 * y2,
        5 => y2 * y2 * y,
        12 => {
            let y4 = y2 * y2;
            y4 * y4 * y4
        }
        _ => unreachable!("the powers taken are 2 to 5 and 12"),
    }
}

/// A positive finite `x` as y·2^(N·q), and y^(−1/N).
struct Reduced<const L: usize> {
    /// x / 2^(N·q), in [1, 2^N).
    y: Wide<L>,
    /// y^(−1/N), to rounding.
    s: Wide<L>,
    /// q + [`ROUND`]: q in the low bits.
    q: Wide<L>,
}

/// `x` (positive, finite; normal unless `S`) reduced, and the root of its
/// reduction. `S` lifts subnormal values first, at a few instructions.
/// For 0 and ∞ the results are finite and meaningless (for NaN, anything).
#[inline(always)]
fn reduce<const F: bool, const L: usize, const N: i32, const S: bool>(x: Wide<L>) -> Reduced<L> {
    let n = f64::from(N);
    let (x, bias) = if S {
        let subnormal = x.lt(Wide::splat(f64::MIN_POSITIVE));
        let bias = subnormal.select(Wide::splat(1623.0), Wide::splat(1023.0));
        (subnormal.select(x * TWO_600, x), bias)
    } else {
        (x, Wide::splat(1023.0))
    };
    // The exponent as a float (it is below 2^12) without an integer
    // conversion, which AVX2 does not have for 64-bit lanes.
    let field = x.bits(|b| TWO_52.to_bits() | (b >> 52)) - TWO_52;
    let e = field - bias;
    let m = x.bits(|b| (b & MANTISSA) | 1f64.to_bits());
    // q = ⌊e/N⌋: (e − (N−1)/2)/N is within (N−1)/2N < ½ of it.
    let q = (e - (n - 1.0) / 2.0).mul_add::<F>(Wide::splat(1.0 / n), Wide::splat(ROUND));
    let r = (q - ROUND).mul_add::<F>(Wide::splat(-n), e);
    let y = m.bits2(r + ROUND, |m, r| {
        m.wrapping_add(r.wrapping_sub(ROUND.to_bits()) << 52)
    });
    let coefficients = match N {
        3 => &INVERSE_ROOT_3,
        5 => &INVERSE_ROOT_5,
        12 => &INVERSE_ROOT_12,
        _ => unreachable!("the roots taken are the 3rd, 5th and 12th"),
    };
    let estimate = horner::<F, L, 7>(
        m.mul_add::<F>(Wide::splat(2.0), Wide::splat(-3.0)),
        coefficients,
    );
    // 2^(−r/N) = 2^(−(N−1)/2N) · 2^((N−1)/2N − r/N); the polynomial has
    // the first factor. The second: for cube roots one of three values,
    // else e^g, |g| ≤ ln2·(N−1)/2N.
    let second = if N == 3 {
        let (first, third) = (Wide::splat(CBRT_2), Wide::splat(1.0 / CBRT_2));
        r.gt(Wide::splat(0.5)).select(
            r.gt(Wide::splat(1.5)).select(third, Wide::splat(1.0)),
            first,
        )
    } else {
        let middle = (n - 1.0) / (2.0 * n);
        let g = r.mul_add::<F>(Wide::splat(-LN_2 / n), Wide::splat(middle * LN_2));
        horner::<F, L, 7>(g, &EXP)
    };
    let s = estimate * second;
    // s·(1 − e)^(−1/N) to second order in e = 1 − y·s^N.
    let e = (-y).mul_add::<F>(power(s, N), Wide::splat(1.0));
    let step = e * e.mul_add::<F>(Wide::splat((n + 1.0) / (2.0 * n * n)), Wide::splat(1.0 / n));
    Reduced {
        y,
        s: s.mul_add::<F>(step, s),
        q,
    }
}

/// `v` times 2^`sign`·q, for q in the low bits of `q` and `v` and the
/// result normal: the exponent field moved.
#[inline(always)]
fn scale<const L: usize>(v: Wide<L>, q: Wide<L>, negative: bool) -> Wide<L> {
    v.bits2(q, |v, q| {
        let shift = q.wrapping_sub(ROUND.to_bits()) << 52;
        if negative {
            v.wrapping_sub(shift)
        } else {
            v.wrapping_add(shift)
        }
    })
}

/// `x` where it is positive and finite, else 1 (where a root is `x`
/// itself): [`ordinary`] tells them apart after.
#[inline(always)]
fn safe<const L: usize>(x: Wide<L>) -> Wide<L> {
    x.gt(Wide::splat(0.0))
        .select(x.min(Wide::splat(f64::MAX)), Wide::splat(1.0))
}

/// `value` where `safe` (of [`safe`]) is `x`, else `x`: 0, ∞ and NaN are
/// their own roots and powers (and 1, where `value` is 1 too).
#[inline(always)]
fn ordinary<const L: usize>(x: Wide<L>, safe: Wide<L>, value: Wide<L>) -> Wide<L> {
    safe.eq(x).select(value, x)
}

/// The `N`th root of `x` ≥ 0 (0, ∞ and NaN are their own root):
/// y·s^(N−1)·2^q.
#[inline(always)]
fn root<const F: bool, const L: usize, const N: i32, const S: bool>(x: Wide<L>) -> Wide<L> {
    let safe = safe(x);
    let Reduced { y, s, q } = reduce::<F, L, N, S>(safe);
    ordinary(x, safe, scale(y * power(s, N - 1), q, false))
}

/// `t`^2.4 for `t` ≥ 0 with t² normal, or 0, ∞ or NaN (the sRGB curve's
/// power, which it takes for t ≥ 0.052): t² · (t²)^⅕, one root from a
/// square rounded once.
#[inline(always)]
pub(super) fn pow_12_5<const F: bool, const L: usize>(t: Wide<L>) -> Wide<L> {
    let t2 = t * t;
    t2 * root::<F, L, 5, false>(t2)
}

/// `x`^(1/2.4) for normal `x` > 0, or 0, ∞ or NaN (the inverse curve's
/// power, which it takes for x > 0.0031308): √x · x^(−1/12), the square
/// root exact. The special values need no test: the root of their
/// reduction is finite for 0 and ∞, and √x carries them.
#[inline(always)]
pub(super) fn pow_5_12<const F: bool, const L: usize>(x: Wide<L>) -> Wide<L> {
    let Reduced { s, q, .. } = reduce::<F, L, 12, false>(x);
    x.sqrt() * scale(s, q, true)
}

/// The cube root, keeping the sign (as `f64::cbrt`).
#[inline(always)]
pub(super) fn cbrt<const F: bool, const L: usize>(x: Wide<L>) -> Wide<L> {
    root::<F, L, 3, true>(x.abs()).copysign(x)
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        a == b || (a - b).abs() <= tolerance * b.abs()
    }

    /// One of the functions, the C library's, and a name starting with
    /// "cbrt", "pow 2.4" or "pow 1/2.4".
    pub(in super::super) type Pair = (fn(f64) -> f64, fn(f64) -> f64, &'static str);

    /// One lane of `f`.
    fn one<const F: bool>(f: fn(Wide<1>) -> Wide<1>, x: f64) -> f64 {
        f(Wide([x])).0[0]
    }

    /// t^(12/5) from the C library's `pow`, whose exponent is the double
    /// nearest 2.4, 8.9e-17 below it: a relative 8.9e-17·ln t (2.4e-14 at
    /// t = 2^400) that is the exponent's, not the function's.
    pub(in super::super) fn exact_12_5(t: f64) -> f64 {
        let p = t.powf(2.4);
        if p.is_normal() {
            p * (1.0 + 8.881784197001253e-17 * t.ln())
        } else {
            p
        }
    }

    /// x^(5/12) likewise (the double nearest 1/2.4 is 1.9e-17 above it).
    pub(in super::super) fn exact_5_12(x: f64) -> f64 {
        let p = x.powf(1.0 / 2.4);
        if p.is_normal() {
            p * (1.0 - 1.850371707708594e-17 * x.ln())
        } else {
            p
        }
    }

    /// Each function, with and without FMA, beside the C library's.
    const PAIRS: [Pair; 6] = [
        (|x| one::<false>(cbrt::<false, 1>, x), f64::cbrt, "cbrt"),
        (|x| one::<true>(cbrt::<true, 1>, x), f64::cbrt, "cbrt (fma)"),
        (
            |x| one::<false>(pow_12_5::<false, 1>, x),
            exact_12_5,
            "pow 2.4",
        ),
        (
            |x| one::<true>(pow_12_5::<true, 1>, x),
            exact_12_5,
            "pow 2.4 (fma)",
        ),
        (
            |x| one::<false>(pow_5_12::<false, 1>, x),
            exact_5_12,
            "pow 1/2.4",
        ),
        (
            |x| one::<true>(pow_5_12::<true, 1>, x),
            exact_5_12,
            "pow 1/2.4 (fma)",
        ),
    ];

    #[test]
    #[cfg_attr(
        not(all(target_os = "linux", target_env = "gnu")),
        ignore = "the reference is glibc's libm (mingw's pow is 2e-14 off near 1e284)"
    )]
    fn the_functions_agree_with_the_c_library() {
        agree_with_the_c_library(&PAIRS);
    }

    #[test]
    fn special_values() {
        special_values_are_the_c_library_s(&PAIRS);
        assert_eq!(one::<true>(cbrt::<true, 1>, -8.0), -2.0);
        assert_eq!(
            one::<false>(cbrt::<false, 1>, f64::NEG_INFINITY),
            f64::NEG_INFINITY
        );
    }

    /// Each of `pairs` within 2e-15 of the C library's, over the range it
    /// takes and densely over the transfer curve's.
    pub(in super::super) fn agree_with_the_c_library(pairs: &[Pair]) {
        let mut rng = crate::synth::Rng::new(7);
        for &(ours, libm, name) in pairs {
            // Magnitudes over the range each takes (the powers stay finite
            // and take normal values), either sign for the cube root.
            let span = if name.starts_with("pow 2.4") {
                400.0
            } else if name.starts_with("pow") {
                1020.0
            } else {
                1070.0
            };
            for _ in 0..300_000 {
                let sign = if name.starts_with("cbrt") && rng.below(2) == 0 {
                    -1.0
                } else {
                    1.0
                };
                let x = sign * 2f64.powf(f64::from(rng.range(-span, span)));
                let (a, b) = (ours(x), libm(x));
                assert!(
                    close(a, b, 2e-15),
                    "{name}({x:e}) = {a:e}, the C library says {b:e}"
                );
            }
            // The transfer curve's own range, densely.
            for i in 0..=100_000 {
                let x = f64::from(i) / 50_000.0;
                assert!(close(ours(x), libm(x), 2e-15), "{name}({x})");
            }
        }
    }

    /// 0, ∞, NaN, 1 and subnormal values through each of `pairs`.
    pub(in super::super) fn special_values_are_the_c_library_s(pairs: &[Pair]) {
        for &(f, libm, name) in pairs {
            for x in [0.0, -0.0, 1.0, f64::INFINITY, 5e-324, 1e-310, 1e300] {
                if name.starts_with("pow 1/2.4") && x.is_subnormal() {
                    continue; // the curve takes its linear segment there
                }
                let (a, b) = (f(x), libm(x));
                assert!(
                    a.to_bits() == b.to_bits() || close(a, b, 2e-15),
                    "{name}({x:e}) = {a:e}, the C library says {b:e}"
                );
            }
            assert!(f(f64::NAN).is_nan(), "{name}");
        }
    }
}
