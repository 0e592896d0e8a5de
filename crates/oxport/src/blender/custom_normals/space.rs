//! A fan's normal space and a normal encoded in it, with Blender's float
//! arithmetic (`BKE_lnor_space_define`, `BKE_lnor_space_custom_normal_to_data`).

use std::f32::consts::FRAC_PI_2;

use super::super::transform::{add, cross, dot, normalize_dividing, scale, sub};

/// Blender's `LNOR_SPACE_TRIGO_THRESHOLD`.
pub(super) const THRESHOLD: f32 = 1.0 - 1e-4;

/// `float(M_PI) * 2.0f`, which equals `float(M_PI * 2.0)`.
const PI2: f32 = std::f32::consts::PI * 2.0;

/// A corner fan's normal space (Blender's `CornerNormalSpace`); all zero
/// where it cannot be built.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Space {
    pub(super) lnor: [f32; 3],
    reference: [f32; 3],
    ortho: [f32; 3],
    ref_alpha: f32,
    ref_beta: f32,
}

impl Space {
    /// Blender's `corner_fan_space_define`.
    pub(super) fn define(
        lnor: [f32; 3],
        reference: [f32; 3],
        other: [f32; 3],
        edge_vectors: &[[f32; 3]],
    ) -> Space {
        let dtp_ref = dot(reference, lnor);
        let dtp_other = dot(other, lnor);
        if dtp_ref.abs() >= THRESHOLD || dtp_other.abs() >= THRESHOLD {
            return Space::default();
        }
        let ref_alpha = if edge_vectors.is_empty() {
            (safe_acos_approx(dot(reference, lnor)) + safe_acos_approx(dot(other, lnor))) / 2.0
        } else {
            let mut alpha = 0.0f32;
            for &v in edge_vectors {
                alpha += safe_acos_approx(dot(v, lnor));
            }
            alpha / edge_vectors.len() as f32
        };
        let reference = normalize(sub(reference, scale(lnor, dtp_ref)));
        let ortho = normalize(cross(lnor, reference));
        let other = normalize(sub(other, scale(lnor, dtp_other)));
        let dtp = dot(reference, other);
        let ref_beta = if dtp < THRESHOLD {
            let beta = safe_acos_approx(dtp);
            if dot(ortho, other) < 0.0 {
                PI2 - beta
            } else {
                beta
            }
        } else {
            PI2
        };
        Space {
            lnor,
            reference,
            ortho,
            ref_alpha,
            ref_beta,
        }
    }

    /// Blender's `corner_space_custom_normal_to_data`.
    pub(super) fn encode(&self, custom: [f32; 3]) -> [i16; 2] {
        let close = (0..3).all(|i| (self.lnor[i] - custom[i]).abs() <= 1e-4);
        if custom == [0.0; 3] || close {
            return [0, 0];
        }
        let cos_alpha = dot(self.lnor, custom);
        let alpha = safe_acos_approx(cos_alpha);
        let first = if alpha > self.ref_alpha {
            unit_float_to_short(-(PI2 - alpha) / (PI2 - self.ref_alpha))
        } else {
            unit_float_to_short(alpha / self.ref_alpha)
        };
        let v = normalize(add(scale(self.lnor, -cos_alpha), custom));
        let cos_beta = dot(self.reference, v);
        let second = if cos_beta < THRESHOLD {
            let mut beta = safe_acos_approx(cos_beta);
            if dot(self.ortho, v) < 0.0 {
                beta = PI2 - beta;
            }
            if beta > self.ref_beta {
                unit_float_to_short(-(PI2 - beta) / (PI2 - self.ref_beta))
            } else {
                unit_float_to_short(beta / self.ref_beta)
            }
        } else {
            0
        };
        [first, second]
    }
}

/// Blender's `unit_float_to_short`: `short(floorf(v * SHRT_MAX + 0.5f))`,
/// converted as x86-64 does (through a 32-bit integer: NaN and overflow
/// give its "integer indefinite" value, whose low half is 0).
fn unit_float_to_short(v: f32) -> i16 {
    let f = (v * f32::from(i16::MAX) + 0.5).floor();
    if !(-2_147_483_648.0..2_147_483_648.0).contains(&f) {
        0
    } else {
        f as i32 as i16
    }
}

/// Blender's `math::safe_acos_approx`: a polynomial, within 4.6e-5 of `acos`
/// (its constants as Blender writes them, which round to these floats;
/// its `1.5707963267f` is the float nearest to pi/2).
#[allow(clippy::excessive_precision)]
pub(super) fn safe_acos_approx(x: f32) -> f32 {
    let f = x.abs();
    // Clamps, and flushes denormals.
    let m = if f < 1.0 { 1.0 - (1.0 - f) } else { 1.0 };
    let a =
        (1.0 - m).sqrt() * (FRAC_PI_2 + m * (-0.213300989 + m * (0.077980478 + m * -0.02164095)));
    if x < 0.0 { std::f32::consts::PI - a } else { a }
}

/// Blender's `math::normalize`: divided by the length; zero when tiny or NaN.
pub(super) fn normalize(v: [f32; 3]) -> [f32; 3] {
    normalize_dividing(v).unwrap_or([0.0; 3])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unit_floats_round_to_shorts_as_blender_converts_them() {
        assert_eq!(unit_float_to_short(1.0), 32767);
        assert_eq!(unit_float_to_short(-1.0), -32767);
        assert_eq!(unit_float_to_short(0.5), 16384);
        assert_eq!(unit_float_to_short(f32::NAN), 0);
        assert_eq!(safe_acos_approx(1.0), 0.0);
        assert!((safe_acos_approx(0.0) - FRAC_PI_2).abs() < 1e-7);
        assert!((safe_acos_approx(-0.5) - 2.094_395).abs() < 5e-5);
    }
}
