//! Colors as Blender 3.4's exporter writes them: linear to sRGB through its
//! SSE approximation, face-corner colors averaged per vertex.

/// Blender's `srgb_to_linearrgb` (scalar, with `powf`), from which its table
/// for byte colors is made.
pub fn srgb_to_linear(c: f32) -> f32 {
    if c < 0.04045 {
        if c < 0.0 { 0.0 } else { c * (1.0 / 12.92) }
    } else {
        ((c + 0.055) * (1.0 / 1.055)).powf(2.4)
    }
}

/// Corner colors averaged per vertex as Blender 3.4 does when it reads a
/// corner color attribute on points: float colors summed in corner order and
/// multiplied by the reciprocal of the count; byte colors the same on the
/// bytes, truncated back to bytes, then decoded. Linear RGB per vertex;
/// vertices no corner uses are black.
pub fn corner_colors_to_vertices(
    corner_vertices: &[u32],
    vertex_count: usize,
    colors: &[[f32; 4]],
    srgb_bytes: bool,
) -> Vec<[f32; 4]> {
    let mut sums = vec![[0.0f32; 4]; vertex_count];
    let mut counts = vec![0.0f32; vertex_count];
    for (&v, color) in corner_vertices.iter().zip(colors) {
        let sum = &mut sums[v as usize];
        for k in 0..4 {
            sum[k] += if srgb_bytes {
                (color[k] * 255.0).round()
            } else {
                color[k]
            };
        }
        counts[v as usize] += 1.0;
    }
    sums.iter()
        .zip(&counts)
        .map(|(sum, &count)| {
            if count == 0.0 {
                return [0.0, 0.0, 0.0, 1.0];
            }
            let inverse = 1.0 / count;
            let mean = sum.map(|x| x * inverse);
            if srgb_bytes {
                // Back to bytes (truncated), then Blender's table for them.
                mean.map(|x| srgb_to_linear(f32::from(x as u8) * (1.0 / 255.0)))
            } else {
                mean
            }
        })
        .collect()
}

/// Blender's `linearrgb_to_srgb_v3_v3` on x86-64 builds: not `powf`, but an
/// SSE approximation of `x^(1/2.4)` (an exponent-bits first guess, then
/// Newton steps through `rsqrtps`, whose last bits depend on the processor:
/// Blender's colors do too, and these match them on the same machine).
/// Elsewhere, the exact formula with `powf`.
pub fn linear_to_srgb(rgb: [f32; 3]) -> [f32; 3] {
    #[cfg(target_arch = "x86_64")]
    {
        sse::linear_to_srgb(rgb)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        rgb.map(|c| {
            if c < 0.0031308 {
                (c * 12.92).max(0.0)
            } else {
                1.055 * c.powf(1.0 / 2.4) - 0.055
            }
        })
    }
}

/// Blender's `srgb_to_linearrgb_v3_v3` (what its OBJ importer makes of
/// `v x y z r g b`), on x86-64 builds an SSE approximation of `x^2.4` (an
/// exponent-bits guess of `x^(4/5)`, three Newton steps, cubed); elsewhere
/// [`srgb_to_linear`] per channel.
pub fn srgb_to_linear_v3(rgb: [f32; 3]) -> [f32; 3] {
    #[cfg(target_arch = "x86_64")]
    {
        sse::srgb_to_linear(rgb)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        rgb.map(srgb_to_linear)
    }
}

#[cfg(target_arch = "x86_64")]
mod sse {
    // SSE and SSE2 are part of the x86-64 baseline: these intrinsics are
    // always available on this architecture.
    use std::arch::x86_64::*;

    /// A first guess of `x^e` from the float's bits: `x` scaled by a bias,
    /// its bits read as an integer, times the exponent, back to bits.
    #[inline]
    fn guess_pow(exponent_bits: i32, bias_bits: i32, x: __m128) -> __m128 {
        unsafe {
            let scaled = _mm_mul_ps(x, _mm_castsi128_ps(_mm_set1_epi32(bias_bits)));
            let as_float = _mm_cvtepi32_ps(_mm_castps_si128(scaled));
            let times = _mm_mul_ps(as_float, _mm_castsi128_ps(_mm_set1_epi32(exponent_bits)));
            _mm_castsi128_ps(_mm_cvtps_epi32(times))
        }
    }

    /// `1/sqrt(x)`: the processor's estimate and one Newton step.
    #[inline]
    fn rsqrt(x: __m128) -> __m128 {
        unsafe {
            let r = _mm_rsqrt_ps(x);
            let half_x_r = _mm_mul_ps(_mm_mul_ps(x, _mm_set1_ps(-0.5)), r);
            _mm_add_ps(
                _mm_mul_ps(_mm_set1_ps(1.5), r),
                _mm_mul_ps(half_x_r, _mm_mul_ps(r, r)),
            )
        }
    }

    /// `x^(1/2.4)` as the fourth root of `x^(5/3)`, the mean of an over- and
    /// an under-estimate built from a guess of `x^(2/3)`.
    #[inline]
    fn pow_5_12(x: __m128) -> __m128 {
        unsafe {
            let guess = guess_pow(0x3f2a_aaab, 0x5eb5_04f3, x);
            let over = _mm_mul_ps(x, guess);
            let under = _mm_mul_ps(_mm_mul_ps(x, x), rsqrt(guess));
            // Blender's constant, to its last digit (2^(-2/3) and a bias), folded in float.
            #[allow(clippy::excessive_precision)]
            let weight = 1.0f32 / (3.0f32 * 0.629_960_524_947_437_f32) * 0.999_852_f32;
            let mut mean = _mm_mul_ps(_mm_set1_ps(weight), _mm_add_ps(over, under));
            mean = _mm_mul_ps(mean, rsqrt(mean));
            _mm_mul_ps(mean, rsqrt(mean))
        }
    }

    /// `x^(4/5)` refined by a Newton step of the fifth root of `x^4`.
    #[inline]
    fn improve_fifth_root(guess: __m128, x4: __m128) -> __m128 {
        unsafe {
            let g2 = _mm_mul_ps(guess, guess);
            let g4 = _mm_mul_ps(g2, g2);
            let sum = _mm_add_ps(_mm_mul_ps(_mm_set1_ps(4.0), guess), _mm_div_ps(x4, g4));
            _mm_mul_ps(sum, _mm_set1_ps(1.0 / 5.0))
        }
    }

    /// `x^2.4` as `(x^(4/5))^3`.
    #[inline]
    fn pow_12_5(x: __m128) -> __m128 {
        unsafe {
            let mut root = guess_pow(0x3f4c_cccd, 0x4f55_a7fb, x);
            let x2 = _mm_mul_ps(x, x);
            let x4 = _mm_mul_ps(x2, x2);
            for _ in 0..3 {
                root = improve_fifth_root(root, x4);
            }
            _mm_mul_ps(root, _mm_mul_ps(root, root))
        }
    }

    pub(super) fn srgb_to_linear([r, g, b]: [f32; 3]) -> [f32; 3] {
        unsafe {
            let c = _mm_setr_ps(r, g, b, 1.0);
            let low = _mm_cmplt_ps(c, _mm_set1_ps(0.04045));
            let linear = _mm_max_ps(_mm_mul_ps(c, _mm_set1_ps(1.0 / 12.92)), _mm_set1_ps(0.0));
            let base = _mm_mul_ps(_mm_add_ps(c, _mm_set1_ps(0.055)), _mm_set1_ps(1.0 / 1.055));
            let out = _mm_or_ps(_mm_and_ps(low, linear), _mm_andnot_ps(low, pow_12_5(base)));
            let mut lanes = [0.0f32; 4];
            _mm_storeu_ps(lanes.as_mut_ptr(), out);
            [lanes[0], lanes[1], lanes[2]]
        }
    }

    pub(super) fn linear_to_srgb([r, g, b]: [f32; 3]) -> [f32; 3] {
        unsafe {
            let c = _mm_setr_ps(r, g, b, 1.0);
            let low = _mm_cmplt_ps(c, _mm_set1_ps(0.0031308));
            let linear = _mm_max_ps(_mm_mul_ps(c, _mm_set1_ps(12.92)), _mm_set1_ps(0.0));
            let curve = _mm_add_ps(
                _mm_mul_ps(_mm_set1_ps(1.055), pow_5_12(c)),
                _mm_set1_ps(-0.055),
            );
            let out = _mm_or_ps(_mm_and_ps(low, linear), _mm_andnot_ps(low, curve));
            let mut lanes = [0.0f32; 4];
            _mm_storeu_ps(lanes.as_mut_ptr(), out);
            [lanes[0], lanes[1], lanes[2]]
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn srgb_is_close_to_the_exact_curve() {
        let [negative, low, one] = linear_to_srgb([-1.0, 0.001, 1.0]);
        assert_eq!((negative, low), (0.0, 0.001 * 12.92));
        assert!((one - 1.0).abs() < 1e-4, "{one}");
        // The approximation stays within 2e-4 of the exact curve over [0.0031308, 4].
        for i in 0..4000 {
            let c = 0.0031308 + i as f32 * 0.001;
            let exact = 1.055 * (c as f64).powf(1.0 / 2.4) - 0.055;
            let [got, _, _] = linear_to_srgb([c, 0.5, 0.5]);
            assert!(
                (got as f64 - exact).abs() < 2e-4 * exact.max(1.0),
                "{c}: {got} vs {exact}"
            );
        }
    }

    #[test]
    fn corner_colors_average_per_vertex() {
        // Vertex 0 has two corners, vertex 1 one, vertex 2 none.
        let corners = [0, 1, 0];
        let floats = [[0.5, 0.0, 1.0, 1.0], [0.25; 4], [1.0, 0.0, 0.0, 1.0]];
        let averaged = corner_colors_to_vertices(&corners, 3, &floats, false);
        assert_eq!(averaged[0], [0.75, 0.0, 0.5, 1.0]);
        assert_eq!(averaged[1], [0.25; 4]);
        assert_eq!(averaged[2], [0.0, 0.0, 0.0, 1.0]);
        // Bytes 200 and 101 average to 150.5, truncated to 150, then decoded.
        let bytes = [[200.0 / 255.0; 4], [0.0; 4], [101.0 / 255.0; 4]];
        let averaged = corner_colors_to_vertices(&corners, 2, &bytes, true);
        assert_eq!(averaged[0][0], srgb_to_linear(150.0 / 255.0));
    }
}
