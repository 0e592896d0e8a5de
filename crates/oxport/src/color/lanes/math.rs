//! The powers and roots the conversions need, for SIMD lanes: written per
//! lane without branches (a comparison picks between two values both
//! computed), so that a loop over a block of lanes compiles to vector
//! instructions.
//!
//! Each root starts from 2^(log2(x) / n), taken to about 1e-9 by short
//! series (`log2` sums 2·atanh((m − 1)/(m + 1)) for a mantissa m in
//! [√½, √2), `exp2` the series of e^x on [−½, ½]·ln 2), and one Newton step
//! squares that error: the results are within 2e-15 (relative) of the C
//! library's (the tests measure it). `F` says whether `mul_add` is
//! a fused instruction here (where it is not, it is a slow call).

use std::f64::consts::{LN_2, LOG2_E, SQRT_2};

use super::wide::Wide;

/// `a * b + c`, fused where the target has FMA.
#[inline(always)]
pub(super) fn fma<const F: bool>(a: f64, b: f64, c: f64) -> f64 {
    if F { a.mul_add(b, c) } else { a * b + c }
}

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

/// 1/(2k + 1) for k = 4 down to 0: 2·atanh(s) = 2s·Σ s^2k/(2k + 1), for
/// |s| ≤ 3 − 2√2, to 2e-9.
const ATANH: [f64; 5] = [1.0 / 9.0, 1.0 / 7.0, 1.0 / 5.0, 1.0 / 3.0, 1.0];

/// 1/k! for k = 8 down to 0: e^g for |g| ≤ ln2/2, to 2e-10.
const EXP: [f64; 9] = [
    1.0 / 40320.0,
    1.0 / 5040.0,
    1.0 / 720.0,
    1.0 / 120.0,
    1.0 / 24.0,
    1.0 / 6.0,
    1.0 / 2.0,
    1.0,
    1.0,
];

/// 2^52: an integer below it, added to this, sits in the low mantissa bits.
const TWO_52: f64 = 4503599627370496.0;
/// 1.5·2^52: added to |y| < 2^51, rounds y to an integer in the low bits.
pub(super) const ROUND: f64 = 6755399441055744.0;
/// 2^600, to lift small values well into the normal range.
const TWO_600: f64 = f64::from_bits((1023 + 600) << 52);

/// log2 of normal `x` > 0, to about 1e-9 (absolute).
#[inline(always)]
fn log2<const F: bool, const L: usize>(x: Wide<L>) -> Wide<L> {
    // The exponent field as a float (it is below 2^12) without an integer
    // conversion, which AVX2 does not have for 64-bit lanes.
    let field = x.bits(|b| TWO_52.to_bits() | (b >> 52)) - TWO_52;
    let m = x.bits(|b| (b & 0x000F_FFFF_FFFF_FFFF) | 1f64.to_bits());
    let big = m.gt(Wide::splat(SQRT_2));
    let m = big.select(m * 0.5, m);
    let e = field - big.select(Wide::splat(1022.0), Wide::splat(1023.0));
    let s = (m - 1.0) / (m + 1.0);
    let ln_m = s * 2.0 * horner::<F, L, 5>(s * s, &ATANH);
    ln_m.mul_add::<F>(Wide::splat(LOG2_E), e)
}

/// 2^`y` for `y` in [−1021, 1023], to about 2e-10 (relative).
#[inline(always)]
fn exp2<const F: bool, const L: usize>(y: Wide<L>) -> Wide<L> {
    let rounded = y + ROUND;
    let n = rounded - ROUND;
    let p = horner::<F, L, 9>((y - n) * LN_2, &EXP);
    // 2^n: n added to the exponent field (n is in the low bits of `rounded`).
    p.bits2(rounded, |p, r| {
        p.wrapping_add(r.wrapping_sub(ROUND.to_bits()) << 52)
    })
}

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

/// x^(−1/`N`) for `x` ≥ 0 (∞ for 0, 0 for ∞, NaN for NaN): the series'
/// estimate, then one Newton step on x·r^N = 1, which has no division.
/// `N` divides 600: below 2^−600 `x` is scaled up by 2^600 first, so that
/// x·r^N stays a normal number.
#[inline(always)]
fn inverse_root<const F: bool, const L: usize, const N: i32>(x: Wide<L>) -> Wide<L> {
    let tiny = x.lt(Wide::splat(f64::from_bits((1023 - 600) << 52)));
    let scaled = tiny.select(x * TWO_600, x).min(Wide::splat(f64::MAX));
    let r = exp2::<F, L>(log2::<F, L>(scaled) * (-1.0 / f64::from(N)));
    let error = (-scaled).mul_add::<F>(power(r, N), Wide::splat(1.0));
    let r = (r * error).mul_add::<F>(Wide::splat(1.0 / f64::from(N)), r);
    let unscale = f64::from_bits(((1023 + 600 / N) as u64) << 52);
    let r = r * tiny.select(Wide::splat(unscale), Wide::splat(1.0));
    let zero = x.eq(Wide::splat(0.0));
    let infinite = x.eq(Wide::splat(f64::INFINITY));
    let r = zero.select(
        Wide::splat(f64::INFINITY),
        infinite.select(Wide::splat(0.0), r),
    );
    x.is_nan().select(x, r)
}

/// The `N`th root of `x` ≥ 0 (0 for 0, ∞ for ∞, NaN for NaN): x·x^(−1/N)^(N−1).
#[inline(always)]
fn root<const F: bool, const L: usize, const N: i32>(x: Wide<L>) -> Wide<L> {
    let r = inverse_root::<F, L, N>(x);
    let edge = x.eq(Wide::splat(0.0)).or(x.eq(Wide::splat(f64::INFINITY)));
    edge.select(x, x * power(r, N - 1))
}

/// `t`^2.4 for `t` ≥ 0 (the sRGB curve's power): t² · (t²)^⅕, one root
/// from a square rounded once.
#[inline(always)]
pub(super) fn pow_12_5<const F: bool, const L: usize>(t: Wide<L>) -> Wide<L> {
    let t2 = t * t;
    t2 * root::<F, L, 5>(t2)
}

/// `x`^(1/2.4) for `x` ≥ 0 (the inverse curve's power): √x · x^(−1/12),
/// the square root exact.
#[inline(always)]
pub(super) fn pow_5_12<const F: bool, const L: usize>(x: Wide<L>) -> Wide<L> {
    let edge = x.eq(Wide::splat(0.0)).or(x.eq(Wide::splat(f64::INFINITY)));
    edge.select(x, x.sqrt() * inverse_root::<F, L, 12>(x))
}

/// The cube root, keeping the sign (as `f64::cbrt`).
#[inline(always)]
pub(super) fn cbrt<const F: bool, const L: usize>(x: Wide<L>) -> Wide<L> {
    x.is_nan().select(x, root::<F, L, 3>(x.abs()).copysign(x))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        a == b || (a - b).abs() <= tolerance * b.abs()
    }

    type Pair = (fn(f64) -> f64, fn(f64) -> f64, &'static str);

    /// One lane of `f`.
    fn one<const F: bool>(f: fn(Wide<1>) -> Wide<1>, x: f64) -> f64 {
        f(Wide([x])).0[0]
    }

    /// t^(12/5) from the C library's `pow`, whose exponent is the double
    /// nearest 2.4, 8.9e-17 below it: a relative 8.9e-17·ln t (2.4e-14 at
    /// t = 2^400) that is the exponent's, not the function's.
    fn exact_12_5(t: f64) -> f64 {
        let p = t.powf(2.4);
        if p.is_normal() {
            p * (1.0 + 8.881784197001253e-17 * t.ln())
        } else {
            p
        }
    }

    /// x^(5/12) likewise (the double nearest 1/2.4 is 1.9e-17 above it).
    fn exact_5_12(x: f64) -> f64 {
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
    fn the_functions_agree_with_the_c_library() {
        let mut rng = crate::synth::Rng::new(7);
        for (ours, libm, name) in PAIRS {
            // Magnitudes over the range each takes (the powers stay finite),
            // either sign for the cube root.
            let span = if name.starts_with("pow 2.4") {
                400.0
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

    #[test]
    fn special_values() {
        for (f, libm, name) in PAIRS {
            for x in [0.0, -0.0, 1.0, f64::INFINITY, 5e-324, 1e-310, 1e300] {
                let (a, b) = (f(x), libm(x));
                assert!(
                    a.to_bits() == b.to_bits() || close(a, b, 2e-15),
                    "{name}({x:e}) = {a:e}, the C library says {b:e}"
                );
            }
            assert!(f(f64::NAN).is_nan(), "{name}");
        }
        assert_eq!(one::<true>(cbrt::<true, 1>, -8.0), -2.0);
        assert_eq!(
            one::<false>(cbrt::<false, 1>, f64::NEG_INFINITY),
            f64::NEG_INFINITY
        );
        assert_eq!(exp2::<false, 1>(Wide([-1.0])).0[0], 0.5);
    }
}
