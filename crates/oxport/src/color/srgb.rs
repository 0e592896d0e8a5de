//! The sRGB transfer function (IEC 61966-2-1), extended to all reals as
//! CSS Color 4 does: negative values mirror the positive curve, values
//! past 1 continue it.

/// sRGB-encoded to linear light.
#[inline]
pub fn to_linear(c: f64) -> f64 {
    let abs = c.abs();
    if abs <= 0.04045 {
        c / 12.92
    } else {
        ((abs + 0.055) / 1.055).powf(2.4).copysign(c)
    }
}

/// Linear light to sRGB-encoded: the inverse of [`to_linear`].
#[inline]
pub fn from_linear(c: f64) -> f64 {
    let abs = c.abs();
    if abs > 0.0031308 {
        (1.055 * abs.powf(1.0 / 2.4) - 0.055).copysign(c)
    } else {
        12.92 * c
    }
}

/// An 8-bit channel as a float in [0, 1].
#[inline]
pub fn from_u8(v: u8) -> f64 {
    f64::from(v) / 255.0
}

/// A float channel as 8 bits: clamped to [0, 1], rounded to nearest.
#[inline]
pub fn to_u8(c: f64) -> u8 {
    // NaN becomes 0: `as` saturates and maps NaN to 0.
    (c.clamp(0.0, 1.0) * 255.0).round() as u8
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_curve_matches_its_definition_and_inverts() {
        assert_eq!(to_linear(0.0), 0.0);
        assert_eq!(to_linear(1.0), 1.0);
        assert_eq!(to_linear(0.04045), 0.04045 / 12.92);
        assert!((to_linear(0.5) - 0.21404114048223255).abs() < 1e-15);
        assert_eq!(to_linear(-0.5), -to_linear(0.5));
        for i in -300..=1300 {
            let c = f64::from(i) / 1000.0;
            assert!((from_linear(to_linear(c)) - c).abs() < 1e-14, "{c}");
        }
        assert_eq!((to_u8(from_u8(200))), 200);
        assert_eq!((to_u8(-3.0), to_u8(7.0), to_u8(f64::NAN)), (0, 255, 0));
    }
}
