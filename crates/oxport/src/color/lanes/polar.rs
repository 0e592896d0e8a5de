//! Oklab ↔ Oklch on lanes: chroma and hue from a and b, and back, without
//! branches. The hue is `atan2` by octant (the ratio of the smaller to the
//! larger of |a| and |b|, past tan(π/8) taken around π/4, then the series
//! of atan); a and b from the hue reduce it by quarter turns in degrees,
//! where the reduction is exact, then sum the series of sin and cos.

use std::f64::consts::{FRAC_PI_2, FRAC_PI_4, PI};

use super::math::{ROUND, horner};
use super::wide::Wide;

/// (−1)^k/(2k + 1) for k = 19 down to 0: atan(x) = x·Σ (−1)^k x^2k/(2k + 1),
/// for |x| ≤ tan(π/8), past f64 by k = 19.
const ATAN: [f64; 20] = {
    let mut c = [0.0; 20];
    let mut k = 0;
    while k < 20 {
        let sign = if k % 2 == 0 { 1.0 } else { -1.0 };
        c[19 - k] = sign / (2 * k + 1) as f64;
        k += 1;
    }
    c
};

/// (−1)^k/(2k + 1)! for k = 8 down to 0: sin(x) = x·Σ (−1)^k x^2k/(2k + 1)!
/// for |x| ≤ π/4, past f64 by k = 8.
const SIN: [f64; 9] = {
    let mut c = [0.0; 9];
    let (mut k, mut factorial) = (0, 1.0);
    while k < 9 {
        let sign = if k % 2 == 0 { 1.0 } else { -1.0 };
        c[8 - k] = sign / factorial;
        factorial *= ((2 * k + 2) * (2 * k + 3)) as f64;
        k += 1;
    }
    c
};

/// (−1)^k/(2k)! for k = 9 down to 0: cos(x) = Σ (−1)^k x^2k/(2k)!.
const COS: [f64; 10] = {
    let mut c = [0.0; 10];
    let (mut k, mut factorial) = (0, 1.0);
    while k < 10 {
        let sign = if k % 2 == 0 { 1.0 } else { -1.0 };
        c[9 - k] = sign / factorial;
        factorial *= ((2 * k + 1) * (2 * k + 2)) as f64;
        k += 1;
    }
    c
};

/// 2^500 and 2^−500: past them, a square would overflow or underflow.
const HUGE: f64 = f64::from_bits((1023 + 500) << 52);
const TINY: f64 = f64::from_bits((1023 - 500) << 52);

/// Hues past this many degrees are left to the scalar path: the reduction
/// by quarter turns is exact only well inside f64's integers.
pub(super) const HUE_LIMIT: f64 = 1e9;

/// Chroma and hue (degrees in [0, 360)) of a and b, as
/// [`crate::color::oklch::from_oklab`]: `hypot` and `atan2`.
#[inline(always)]
pub(super) fn from_oklab<const F: bool, const L: usize>(
    a: Wide<L>,
    b: Wide<L>,
) -> (Wide<L>, Wide<L>) {
    let (x, y) = (a.abs(), b.abs());
    let (small, large) = (x.min(y), y.max(x));
    // hypot without overflow or underflow: scaled by a power of two near
    // the larger magnitude's inverse when it is far from 1.
    // (Far: outside [TINY, HUGE], which clamping changes; NaN too.)
    let far = large
        .max(Wide::splat(TINY))
        .min(Wide::splat(HUGE))
        .ne(large);
    let scale = far.select(
        large.bits(|v| (2046u64 << 52).wrapping_sub(v & (0x7FF << 52))),
        Wide::splat(1.0),
    );
    let (xs, ys) = (x * scale, y * scale);
    let chroma = xs.mul_add::<F>(xs, ys * ys).sqrt() / scale;
    let chroma = large
        .eq(Wide::splat(f64::INFINITY))
        .select(Wide::splat(f64::INFINITY), chroma);
    // The angle of (x, y) in the first quadrant.
    let ratio = small / large;
    let ratio = small.eq(large).select(Wide::splat(1.0), ratio);
    let ratio = large.eq(Wide::splat(0.0)).select(Wide::splat(0.0), ratio);
    let past = ratio.gt(Wide::splat(std::f64::consts::SQRT_2 - 1.0));
    let t = past.select((ratio - 1.0) / (ratio + 1.0), ratio);
    let atan = t * horner::<F, L, 20>(t * t, &ATAN)
        + past.select(Wide::splat(FRAC_PI_4), Wide::splat(0.0));
    let angle = y.gt(x).select(Wide::splat(FRAC_PI_2) - atan, atan);
    let angle = a
        .lt(Wide::splat(0.0))
        .select(Wide::splat(PI) - angle, angle);
    // atan2 takes the sign of b, −0 included, and of a's −0 (π).
    let angle = a.bits2(angle, |a, angle| {
        // −0 for a: the half turn, as for a negative a.
        if a == (-0f64).to_bits() && angle == 0 {
            PI.to_bits()
        } else {
            angle
        }
    });
    let angle = angle.copysign(b);
    let degrees = angle * (180.0 / PI);
    let hue = degrees
        .lt(Wide::splat(0.0))
        .select(degrees + 360.0, degrees);
    // |a| + |b| is NaN only where a or b is (no ∞ − ∞).
    let nan = (x + y).is_nan();
    (nan.select(a + b, chroma), nan.select(a + b, hue))
}

/// a and b of chroma and hue (degrees), as
/// [`crate::color::oklch::to_oklab`]: c·cos h, c·sin h. Hues within
/// ±[`HUE_LIMIT`].
#[inline(always)]
pub(super) fn to_oklab<const F: bool, const L: usize>(
    chroma: Wide<L>,
    hue: Wide<L>,
) -> (Wide<L>, Wide<L>) {
    // Quarter turns, counted exactly in degrees.
    let rounded = hue * (1.0 / 90.0) + ROUND;
    let turns = rounded - ROUND;
    let x = (hue - turns * 90.0) * (PI / 180.0);
    let x2 = x * x;
    let sin = x * horner::<F, L, 9>(x2, &SIN);
    let cos = horner::<F, L, 10>(x2, &COS);
    // The quarter: the count's two low bits (two's complement for negatives).
    let quarter = rounded.bits(|v| v & 3);
    let odd = quarter.bits(|q| q & 1).gt(Wide::splat(0.0));
    let (s, c) = (odd.select(cos, sin), odd.select(sin, cos));
    let flip_sin = quarter.bits(|q| q & 2).gt(Wide::splat(0.0));
    let flip_cos = quarter.bits(|q| (q ^ (q >> 1)) & 1).gt(Wide::splat(0.0));
    let s = flip_sin.select(-s, s);
    let c = flip_cos.select(-c, c);
    (chroma * c, chroma * s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::color::oklch;

    fn both<const F: bool>() {
        // Hues around several turns, either sign, and on every multiple of 45°.
        let hues: Vec<f64> = (-2700..=2700)
            .map(|i| f64::from(i) * 0.37)
            .chain((-16..=16).map(|k| f64::from(k) * 45.0))
            .collect();
        for hue in hues {
            let (a, b) = to_oklab::<F, 1>(Wide([0.3]), Wide([hue]));
            let want = oklch::to_oklab([0.5, 0.3, hue]);
            assert!((a.0[0] - want[1]).abs() <= 1e-15, "{hue}: {a:?} {want:?}");
            assert!((b.0[0] - want[2]).abs() <= 1e-15, "{hue}: {b:?} {want:?}");
        }
        // Points around the circle, on the axes, signed zeros, and far out.
        let mut points = vec![
            (0.0, 0.0),
            (-0.0, 0.0),
            (0.0, -0.0),
            (-0.0, -0.0),
            (1e300, 1e300),
        ];
        for k in 0..720 {
            let angle = f64::from(k) * 0.5f64.to_radians();
            for r in [1e-200, 1e-3, 0.25, 1e200] {
                points.push((r * angle.cos(), r * angle.sin()));
            }
        }
        for (x, y) in points {
            let (chroma, hue) = from_oklab::<F, 1>(Wide([x]), Wide([y]));
            let [_, c, h] = oklch::from_oklab([0.5, x, y]);
            assert!(
                (chroma.0[0] - c).abs() <= 4.5e-16 * c,
                "({x}, {y}): {chroma:?}, want {c}"
            );
            assert!(
                (hue.0[0] - h).abs() <= 1e-12 && hue.0[0].to_bits() >> 63 == h.to_bits() >> 63,
                "({x:e}, {y:e}): hue {hue:?}, want {h}"
            );
        }
        let (c, h) = from_oklab::<F, 1>(Wide([f64::NAN]), Wide([0.1]));
        assert!(c.0[0].is_nan() && h.0[0].is_nan());
    }

    #[test]
    fn the_polar_step_agrees_with_the_c_library() {
        both::<false>();
        both::<true>();
    }
}
