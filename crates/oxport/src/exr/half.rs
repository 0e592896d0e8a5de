//! HALF ⇄ f32 as OpenEXR converts them (Imath's rules): f32 to half rounds
//! to nearest, ties to even; values past the largest half become
//! infinities; NaNs stay NaNs. Lossy methods (B44's log table, DWA) decide
//! pixels through these, so they must be OpenEXR's exactly.

/// The f32 a half's bits stand for (exact).
pub(crate) fn to_f32(h: u16) -> f32 {
    let sign = u32::from(h & 0x8000) << 16;
    let exponent = u32::from(h >> 10) & 0x1f;
    let mantissa = u32::from(h & 0x3ff);
    let bits = match (exponent, mantissa) {
        (0, 0) => sign,
        (0, m) => {
            // Subnormal: m × 2^-24, exact in f32.
            let value = m as f32 * f32::from_bits(0x3380_0000);
            return if sign != 0 { -value } else { value };
        }
        (0x1f, m) => sign | 0x7f80_0000 | m << 13,
        (e, m) => sign | (e + 112) << 23 | m << 13,
    };
    f32::from_bits(bits)
}

/// The half nearest `f` (ties to even).
pub(crate) fn from_f32(f: f32) -> u16 {
    let bits = f.to_bits();
    let sign = ((bits >> 16) & 0x8000) as u16;
    let ui = bits & 0x7fff_ffff;
    if ui >= 0x3880_0000 {
        if ui >= 0x7f80_0000 {
            if ui == 0x7f80_0000 {
                return sign | 0x7c00;
            }
            let m = ((ui & 0x7f_ffff) >> 13) as u16;
            return sign | 0x7c00 | m | u16::from(m == 0);
        }
        if ui > 0x477f_efff {
            return sign | 0x7c00;
        }
        let ui = ui - 0x3800_0000;
        return sign | ((ui + 0x0fff + ((ui >> 13) & 1)) >> 13) as u16;
    }
    if ui < 0x3300_0001 {
        return sign;
    }
    // A subnormal half.
    let shift = 0x7e - (ui >> 23);
    let m = 0x80_0000 | (ui & 0x7f_ffff);
    let rest = m << (32 - shift);
    let mut h = sign | (m >> shift) as u16;
    if rest > 0x8000_0000 || (rest == 0x8000_0000 && h & 1 != 0) {
        h += 1;
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_half_goes_to_f32_and_back() {
        for h in 0..=u16::MAX {
            let f = to_f32(h);
            if f.is_nan() {
                assert!(to_f32(from_f32(f)).is_nan(), "{h:#x}");
            } else {
                assert_eq!(from_f32(f), h, "{h:#x} {f}");
            }
        }
        assert_eq!(to_f32(0x3c00), 1.0);
        assert_eq!(to_f32(0x0001), 5.960_464_5e-8);
        assert_eq!(to_f32(0x8001), -5.960_464_5e-8);
        assert_eq!(to_f32(0x7bff), 65504.0);
    }

    #[test]
    fn rounding_is_to_nearest_with_ties_to_even() {
        // 1 + 2^-11 lies halfway between 1 and the next half: to even (1).
        assert_eq!(from_f32(1.0 + 2f32.powi(-11)), 0x3c00);
        assert_eq!(from_f32(1.0 + 3.0 * 2f32.powi(-11)), 0x3c02);
        assert_eq!(from_f32(65519.0), 0x7bff);
        assert_eq!(from_f32(65520.0), 0x7c00);
        assert_eq!(from_f32(2f32.powi(-25)), 0);
        assert_eq!(from_f32(2f32.powi(-25) * 1.5), 1);
        assert_eq!(from_f32(-0.0), 0x8000);
        assert_eq!(from_f32(f32::NEG_INFINITY), 0xfc00);
    }
}
