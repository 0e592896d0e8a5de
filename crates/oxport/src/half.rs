//! HALF ⇄ f32 as OpenEXR converts them (Imath's rules): f32 to half rounds
//! to nearest, ties to even; values past the largest half become
//! infinities; NaNs stay NaNs. Lossy methods (B44's log table, DWA) decide
//! pixels through these, so they must be OpenEXR's exactly. Images of
//! colors (`color::convert_pixels`) store f64 results by [`from_f64`],
//! rounded once.

/// The f32 a half's bits stand for (exact). Normal halves, nearly all of
/// them, take a few integer operations and no memory: faster than the
/// table where the halves come in no order (a table lookup misses the
/// cache).
#[inline]
pub(crate) fn to_f32(h: u16) -> f32 {
    let exponent = h & 0x7c00;
    let sign = u32::from(h & 0x8000) << 16;
    if exponent != 0 && exponent != 0x7c00 {
        return f32::from_bits(sign | ((u32::from(h & 0x7fff) << 13) + (112 << 23)));
    }
    if h & 0x7fff == 0 {
        return f32::from_bits(sign);
    }
    other_to_f32(h)
}

/// Subnormals, infinities and NaNs (and zeros).
#[cold]
fn other_to_f32(h: u16) -> f32 {
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

/// `to_f32` of every half, for loops that convert many: one load each.
pub(crate) fn table() -> &'static [f32; 65536] {
    static TABLE: std::sync::OnceLock<Box<[f32; 65536]>> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let mut table = Box::new([0f32; 65536]);
        for (h, f) in table.iter_mut().enumerate() {
            *f = to_f32(h as u16);
        }
        table
    })
}

/// Blocks of 64 values converted with the F16C instructions, as OpenEXR
/// converts DWA blocks on a CPU with AVX and F16C. They round as
/// [`from_f32`] does and give [`to_f32`]'s values, and differ from them
/// only in NaNs' payloads.
#[cfg(target_arch = "x86_64")]
pub(crate) mod f16c {
    use std::arch::x86_64::*;

    /// # Safety
    /// The CPU must have F16C and AVX.
    #[inline]
    #[target_feature(enable = "f16c,avx")]
    pub(crate) unsafe fn from_f32_64(src: &[f32; 64], dst: &mut [u16; 64]) {
        for (s, d) in src.chunks_exact(8).zip(dst.chunks_exact_mut(8)) {
            // SAFETY: 8 floats read and 8 halves written, unaligned,
            // inside the chunks.
            unsafe {
                let v = _mm256_loadu_ps(s.as_ptr());
                let h = _mm256_cvtps_ph::<_MM_FROUND_TO_NEAREST_INT>(v);
                _mm_storeu_si128(d.as_mut_ptr().cast(), h);
            }
        }
    }

    /// # Safety
    /// The CPU must have F16C and AVX.
    #[inline]
    #[target_feature(enable = "f16c,avx")]
    pub(crate) unsafe fn to_f32_64(src: &[u16; 64], dst: &mut [f32; 64]) {
        for (s, d) in src.chunks_exact(8).zip(dst.chunks_exact_mut(8)) {
            // SAFETY: 8 halves read and 8 floats written, unaligned,
            // inside the chunks.
            unsafe {
                let h = _mm_loadu_si128(s.as_ptr().cast());
                _mm256_storeu_ps(d.as_mut_ptr(), _mm256_cvtph_ps(h));
            }
        }
    }

    /// Whether this CPU has what these need.
    pub(crate) fn present() -> bool {
        std::arch::is_x86_feature_detected!("avx") && std::arch::is_x86_feature_detected!("f16c")
    }

    /// Whether these run: the CPU has them and the fallback is not forced
    /// ([`crate::cpu::portable`]).
    pub(crate) fn available() -> bool {
        !crate::cpu::portable() && present()
    }
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

/// The half nearest `v` (ties to even), rounded once: `v` is first rounded
/// to an f32 by rounding to odd (toward zero, then the last bit set if
/// anything was lost), which keeps enough of what was cut for the second
/// rounding, 13 bits shorter, to be the one a direct rounding makes.
pub(crate) fn from_f64(v: f64) -> u16 {
    from_f32(to_f32_odd(v))
}

/// `v` rounded to an f32 by rounding to odd, without branches (a loop of
/// them compiles to vector instructions).
#[inline(always)]
fn to_f32_odd(v: f64) -> f32 {
    let f = v as f32;
    let past = f64::from(f).abs() > v.abs();
    let toward_zero = f.to_bits() - u32::from(past);
    let inexact = f64::from(f32::from_bits(toward_zero)) != v && !v.is_nan();
    f32::from_bits(toward_zero | u32::from(inexact))
}

/// [`from_f64`] on 64 values: through F16C where the CPU has it.
pub(crate) fn from_f64_64(values: &[f64; 64], halves: &mut [u16; 64]) {
    let odd: [f32; 64] = std::array::from_fn(|i| to_f32_odd(values[i]));
    #[cfg(target_arch = "x86_64")]
    if f16c::available() {
        // SAFETY: the CPU has F16C and AVX.
        unsafe { f16c::from_f32_64(&odd, halves) };
        return;
    }
    for (h, &f) in halves.iter_mut().zip(&odd) {
        *h = from_f32(f);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn f64_rounds_to_the_nearest_half_once() {
        // Halfway between two halves, then a hair either side: a rounding
        // through the nearest f32 would land on the tie and round to even.
        let mut rng = crate::synth::Rng::new(3);
        for h in 0..0x7bffu16 {
            let (lo, hi) = (f64::from(to_f32(h)), f64::from(to_f32(h + 1)));
            let middle = (lo + hi) / 2.0;
            let even = if h % 2 == 0 { h } else { h + 1 };
            assert_eq!(from_f64(middle), even, "{middle:e}");
            let hair = (hi - lo) * 1e-12;
            assert_eq!(from_f64(middle + hair), h + 1, "{middle:e} + {hair:e}");
            assert_eq!(from_f64(middle - hair), h, "{middle:e} - {hair:e}");
            assert_eq!(from_f64(-(middle + hair)), (h + 1) | 0x8000);
            let inside = lo + (hi - lo) * f64::from(rng.range(0.0, 0.4));
            assert_eq!(from_f64(inside), h, "{inside:e}");
            assert_eq!(from_f32(inside as f32), from_f64(inside));
        }
        assert_eq!(from_f64(f64::INFINITY), 0x7c00);
        assert_eq!(from_f64(1e300), 0x7c00);
        assert_eq!(from_f64(-1e-300), 0x8000);
        assert_eq!(from_f64(65519.99), 0x7bff);
        assert_eq!(from_f64(65520.0), 0x7c00);
        assert!(to_f32(from_f64(f64::NAN)).is_nan());
        // 64 at a time (through F16C where there is one): the same halves.
        let values: [f64; 64] = std::array::from_fn(|i| {
            [1.0 + 2f64.powi(-11), -65519.99, 1e-9, 0.1 * i as f64, 7e4][i % 5]
                * (1.0 + i as f64 * 1e-13)
        });
        let mut halves = [0u16; 64];
        from_f64_64(&values, &mut halves);
        assert!(values.iter().zip(&halves).all(|(&v, &h)| h == from_f64(v)));
    }

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
    fn the_table_and_the_block_conversion_agree_with_the_scalar_ones() {
        let table = table();
        assert!((0..=u16::MAX).all(|h| table[usize::from(h)].to_bits() == to_f32(h).to_bits()));
        // Every rounding case F16C and the scalar code share: each half and
        // the points half way to its neighbour, in blocks of 64.
        let mut values = Vec::new();
        for h in 0..0x7c00u16 {
            let f = to_f32(h);
            let next = to_f32(h + 1);
            values.extend([f, -f, (f + next) / 2.0, -(f + next) / 2.0, f * 1.000_01]);
        }
        values.extend([65519.0, 65520.0, 1e9, -1e9, f32::INFINITY, 1e-9]);
        #[cfg(target_arch = "x86_64")]
        if !f16c::present() {
            crate::testing::skip(
                "this processor has no F16C: its half conversion is not tested here",
            );
        } else {
            for block in values.chunks(64).filter(|b| b.len() == 64) {
                let src: [f32; 64] = block.try_into().unwrap();
                let mut dst = [0u16; 64];
                // SAFETY: the CPU has F16C and AVX (checked above).
                unsafe { f16c::from_f32_64(&src, &mut dst) };
                for (f, h) in src.iter().zip(dst) {
                    assert_eq!(h, from_f32(*f), "{f}");
                }
            }
            let halves: Vec<u16> = (0..=u16::MAX).collect();
            for block in halves.chunks_exact(64) {
                let mut dst = [0f32; 64];
                // SAFETY: as above.
                unsafe { f16c::to_f32_64(block.try_into().unwrap(), &mut dst) };
                for (&h, f) in block.iter().zip(dst) {
                    let want = to_f32(h);
                    assert!(
                        f.to_bits() == want.to_bits() || (f.is_nan() && want.is_nan()),
                        "{h:#x}"
                    );
                }
            }
        }
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

    #[test]
    fn the_fast_path_gives_every_half_exactly() {
        for h in 0..=u16::MAX {
            let fast = to_f32(h);
            let slow = other_to_f32(h);
            if h & 0x7c00 == 0 || h & 0x7c00 == 0x7c00 {
                assert_eq!(fast.to_bits(), slow.to_bits(), "{h:#x}");
            } else {
                // Normal: the value is the mantissa and exponent shifted in.
                let e = i32::from(h >> 10 & 0x1f) - 15;
                let m = 1.0 + f64::from(h & 0x3ff) / 1024.0;
                let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
                assert_eq!(f64::from(fast), sign * m * 2f64.powi(e), "{h:#x}");
            }
        }
    }
}
