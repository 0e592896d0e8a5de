//! Oklab ↔ Oklch: the same lightness, with chroma and hue (degrees in
//! [0, 360)) for a and b.

/// Chroma at or below which CSS Color 4 calls the hue powerless.
pub const ACHROMATIC: f64 = 0.000004;

/// Oklab to Oklch. The hue of an achromatic color is still the angle of
/// its (tiny) a and b; interpolation treats it as missing (see
/// [`ACHROMATIC`]).
#[inline]
pub fn from_oklab([l, a, b]: [f64; 3]) -> [f64; 3] {
    let hue = b.atan2(a).to_degrees();
    [l, a.hypot(b), if hue < 0.0 { hue + 360.0 } else { hue }]
}

/// Oklch to Oklab.
#[inline]
pub fn to_oklab([l, c, h]: [f64; 3]) -> [f64; 3] {
    let (sin, cos) = h.to_radians().sin_cos();
    [l, c * cos, c * sin]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn polar_round_trips() {
        let lch = from_oklab([0.5, -0.1, -0.1]);
        assert!((lch[2] - 225.0).abs() < 1e-12, "{lch:?}");
        let lab = to_oklab(lch);
        assert!((lab[1] + 0.1).abs() < 1e-15 && (lab[2] + 0.1).abs() < 1e-15);
        assert_eq!(from_oklab([0.3, 0.0, 0.0]), [0.3, 0.0, 0.0]);
    }
}
