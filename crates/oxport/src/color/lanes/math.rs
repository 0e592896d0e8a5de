//! The elementary functions the conversions need, for SIMD lanes: written
//! per lane without branches (a comparison picks between two values both
//! computed), so that a loop over a block of lanes compiles to vector
//! instructions; and exact enough that every result stays within 1e-15 or so
//! of the C library's (the tests measure it).
//!
//! `log2` reduces to a mantissa in [√½, √2) and sums the series of
//! 2·atanh((m − 1)/(m + 1)); `exp2` reduces to a fraction in [−½, ½] and sums
//! the series of e^x; `pow` and `cbrt` are made of the two. (`pow`'s error
//! grows with |log2 t|: about 1e-15 relative for the transfer curve's bases
//! up to 2^20, the colors of any picture.) `F` says whether
//! `mul_add` is a fused instruction here (it is a slow call where not).

use std::f64::consts::{LN_2, LOG2_E, SQRT_2};

/// `a * b + c`, fused where the target has FMA.
#[inline(always)]
pub(super) fn fma<const F: bool>(a: f64, b: f64, c: f64) -> f64 {
    if F { a.mul_add(b, c) } else { a * b + c }
}

/// `a` where `pick`, else `b`: both already computed, so no branch.
#[inline(always)]
pub(super) fn select(pick: bool, a: f64, b: f64) -> f64 {
    if pick { a } else { b }
}

/// Horner's rule over `coefficients`, the highest power first.
#[inline(always)]
fn horner<const F: bool, const N: usize>(x: f64, coefficients: &[f64; N]) -> f64 {
    let mut sum = coefficients[0];
    for &c in &coefficients[1..] {
        sum = fma::<F>(sum, x, c);
    }
    sum
}

/// 1/(2k + 1) for k = 11 down to 0: 2·atanh(s) = 2s·Σ s^2k/(2k + 1), which
/// for |s| ≤ 3 − 2√2 (m in [√½, √2)) has converged past f64 by k = 11.
const ATANH: [f64; 12] = [
    1.0 / 23.0,
    1.0 / 21.0,
    1.0 / 19.0,
    1.0 / 17.0,
    1.0 / 15.0,
    1.0 / 13.0,
    1.0 / 11.0,
    1.0 / 9.0,
    1.0 / 7.0,
    1.0 / 5.0,
    1.0 / 3.0,
    1.0,
];

/// 1/k! for k = 14 down to 0: e^g for |g| ≤ ln2/2 has converged past f64
/// by k = 14.
const EXP: [f64; 15] = [
    1.0 / 87178291200.0,
    1.0 / 6227020800.0,
    1.0 / 479001600.0,
    1.0 / 39916800.0,
    1.0 / 3628800.0,
    1.0 / 362880.0,
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
const ROUND: f64 = 6755399441055744.0;
/// 2^600, to lift subnormals into the normal range.
const TWO_600: f64 = f64::from_bits((1023 + 600) << 52);

/// log2 of `x` ≥ 0: −1623 for 0 (below anything `exp2` does not take to
/// 0), ∞ for ∞; NaN and negative `x` give unspecified values (the callers
/// pass magnitudes and pick NaN themselves).
#[inline(always)]
pub(super) fn log2<const F: bool>(x: f64) -> f64 {
    let tiny = x < f64::MIN_POSITIVE;
    let scaled = select(tiny, x * TWO_600, x);
    let bits = scaled.to_bits();
    // The exponent field as a float (it is below 2^12) without an integer
    // conversion, which AVX2 does not have for 64-bit lanes.
    let field = f64::from_bits(TWO_52.to_bits() | (bits >> 52)) - TWO_52;
    let m = f64::from_bits((bits & 0x000F_FFFF_FFFF_FFFF) | 1f64.to_bits());
    let big = m > SQRT_2;
    let m = select(big, m * 0.5, m);
    let e = field - 1023.0 + select(big, 1.0, 0.0) - select(tiny, 600.0, 0.0);
    let s = (m - 1.0) / (m + 1.0);
    let ln_m = 2.0 * s * horner::<F, 12>(s * s, &ATANH);
    select(x == f64::INFINITY, x, fma::<F>(ln_m, LOG2_E, e))
}

/// 2^`y`: ∞ from 1024 up, 0 below −1021 (no subnormal results: none of the
/// conversions comes near them), NaN for NaN.
#[inline(always)]
pub(super) fn exp2<const F: bool>(y: f64) -> f64 {
    let clamped = y.clamp(-1100.0, 1100.0);
    let rounded = clamped + ROUND;
    let n = rounded - ROUND;
    let g = (clamped - n) * LN_2;
    let p = horner::<F, 15>(g, &EXP);
    // 2^n: n added to the exponent field (n is in the low bits of `rounded`).
    let n_bits = rounded.to_bits().wrapping_sub(ROUND.to_bits());
    let scaled = f64::from_bits(p.to_bits().wrapping_add(n_bits << 52));
    let out = select(y >= 1024.0, f64::INFINITY, select(y < -1021.0, 0.0, scaled));
    select(y.is_nan(), y, out)
}

/// `t`^`p` for `t` ≥ 0 and `p` > 0 (NaN for NaN).
#[inline(always)]
pub(super) fn pow<const F: bool>(t: f64, p: f64) -> f64 {
    let r = exp2::<F>(p * log2::<F>(t));
    select(t.is_nan(), t, r)
}

/// The cube root, keeping the sign (as `f64::cbrt`): 2^(log2|x| / 3), whose
/// error grows with |log2 x|, then one Newton step, which squares it.
#[inline(always)]
pub(super) fn cbrt<const F: bool>(x: f64) -> f64 {
    let a = x.abs();
    let y = exp2::<F>(log2::<F>(a) * (1.0 / 3.0));
    let y = y - (y - a / (y * y)) * (1.0 / 3.0);
    let r = select(a == 0.0 || a == f64::INFINITY, a, y).copysign(x);
    select(x.is_nan(), x, r)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        (a == b) || (a - b).abs() <= tolerance * b.abs()
    }

    fn each_variant(mut check: impl FnMut(&dyn Fn(f64) -> f64, &dyn Fn(f64) -> f64, &str)) {
        check(&log2::<false>, &f64::log2, "log2");
        check(&log2::<true>, &f64::log2, "log2 fma");
        check(&exp2::<false>, &f64::exp2, "exp2");
        check(&exp2::<true>, &f64::exp2, "exp2 fma");
        check(&cbrt::<false>, &f64::cbrt, "cbrt");
        check(&cbrt::<true>, &f64::cbrt, "cbrt fma");
    }

    #[test]
    fn the_functions_agree_with_the_c_library() {
        let mut rng = crate::synth::Rng::new(7);
        each_variant(|ours, libm, name| {
            let domain = if name.starts_with("exp2") {
                -1000.0..1000.0
            } else {
                -700.0..700.0
            };
            for _ in 0..200_000 {
                let x = if name.starts_with("exp2") {
                    f64::from(rng.range(domain.start as f32, domain.end as f32))
                        + f64::from(rng.range(-1.0, 1.0))
                } else {
                    // Magnitudes over the whole range, either sign for cbrt.
                    let sign = if name.starts_with("cbrt") && rng.below(2) == 0 {
                        -1.0
                    } else {
                        1.0
                    };
                    sign * 2f64.powf(f64::from(rng.range(-700.0, 700.0)))
                };
                let (a, b) = (ours(x), libm(x));
                // log2 near 1 is near 0: its error is absolute there.
                let ok = if name.starts_with("log2") {
                    (a - b).abs() <= 4e-16 * b.abs().max(1.0)
                } else {
                    close(a, b, 4e-16)
                };
                assert!(ok, "{name}({x:e}) = {a:e}, the C library says {b:e}");
            }
        });
    }

    #[test]
    fn special_values() {
        for f in [cbrt::<false>, cbrt::<true>] {
            assert_eq!(f(0.0).to_bits(), 0f64.to_bits());
            assert_eq!(f(-0.0).to_bits(), (-0f64).to_bits());
            assert_eq!(f(f64::INFINITY), f64::INFINITY);
            assert_eq!(f(f64::NEG_INFINITY), f64::NEG_INFINITY);
            assert!(f(f64::NAN).is_nan());
            assert!(close(f(5e-324), 5e-324f64.cbrt(), 4e-16));
            assert_eq!(f(-8.0), -2.0);
        }
        for f in [pow::<false>, pow::<true>] {
            assert_eq!(f(0.0, 2.4), 0.0);
            assert_eq!(f(1.0, 2.4), 1.0);
            assert_eq!(f(f64::INFINITY, 2.4), f64::INFINITY);
            assert!(f(f64::NAN, 2.4).is_nan());
            assert!(close(f(0.5, 2.4), 0.5f64.powf(2.4), 4e-16));
        }
        assert_eq!(exp2::<true>(1024.0), f64::INFINITY);
        assert_eq!(exp2::<true>(-2000.0), 0.0);
        assert_eq!(exp2::<false>(-1.0), 0.5);
        assert_eq!(log2::<true>(0.25), -2.0);
    }
}
