//! OpenEXR's AVX inverse DCT: rows in pairs (one per 128-bit lane), each
//! half of a row's output a sum of products of a broadcast input and a
//! column of the matrix; then all eight columns at once, leaving out the
//! products of rows known to be zero. `intrinsics` runs it on the CPU's
//! AVX unit; `lanes` spells out every lane in plain arithmetic, for CPUs
//! without AVX and as the test of the first.

use super::{A, B, C, D, E, F, G};

/// The columns of the even (M1) and odd (M2) halves of the matrix, as the
/// AVX code holds them.
const M1_COLUMNS: [[f32; 4]; 4] = [[A, A, A, A], [C, F, -F, -C], [A, -A, -A, A], [F, -C, C, -F]];
const M2_COLUMNS: [[f32; 4]; 4] = [[B, D, E, G], [D, -G, -B, -E], [E, -B, G, D], [G, -E, D, -B]];

/// Transforms `block` whose first `rows` rows (1 to 8) may be non-zero.
pub(super) fn inverse(block: &mut [f32; 64], rows: usize) {
    #[cfg(target_arch = "x86_64")]
    {
        if !crate::cpu::portable() && std::arch::is_x86_feature_detected!("avx") {
            // SAFETY: the CPU has AVX (checked just above).
            unsafe { intrinsics::inverse(block, rows) };
            return;
        }
    }
    lanes::inverse(block, rows);
}

#[cfg(target_arch = "x86_64")]
pub(crate) mod intrinsics {
    use std::arch::x86_64::*;

    use super::super::{A, B, C, D, E, F, G};
    use super::{M1_COLUMNS, M2_COLUMNS};

    /// Transforms `block` whose first `rows` rows (1 to 8) may be non-zero.
    ///
    /// # Safety
    /// The CPU must have AVX.
    #[inline]
    #[target_feature(enable = "avx")]
    pub(crate) unsafe fn inverse(block: &mut [f32; 64], rows: usize) {
        match rows {
            0 | 1 => first_row_only(block),
            2 => columns::<2>(block),
            3 => columns::<3>(block),
            4 => columns::<4>(block),
            5 => columns::<5>(block),
            6 => columns::<6>(block),
            7 => columns::<7>(block),
            _ => columns::<8>(block),
        }
    }

    /// A column of the matrix in both lanes.
    #[inline]
    #[target_feature(enable = "avx")]
    fn column(c: [f32; 4]) -> __m256 {
        _mm256_setr_ps(c[0], c[1], c[2], c[3], c[0], c[1], c[2], c[3])
    }

    /// Rows `2·pair` and `2·pair + 1`, one per lane.
    #[inline]
    #[target_feature(enable = "avx")]
    fn row_pair(block: &mut [f32; 64], pair: usize) {
        let rows: &mut [f32; 16] = (&mut block[16 * pair..16 * pair + 16])
            .try_into()
            .expect("16");
        let p = rows.as_mut_ptr();
        // SAFETY: every load and store is of 4 or 8 floats inside `rows`.
        unsafe {
            let front = _mm256_insertf128_ps::<1>(
                _mm256_castps128_ps256(_mm_loadu_ps(p)),
                _mm_loadu_ps(p.add(8)),
            );
            let back = _mm256_insertf128_ps::<1>(
                _mm256_castps128_ps256(_mm_loadu_ps(p.add(4))),
                _mm_loadu_ps(p.add(12)),
            );
            let m = |x: __m256, c: [f32; 4]| _mm256_mul_ps(x, column(c));
            let even = _mm256_add_ps(
                _mm256_add_ps(
                    m(_mm256_permute_ps::<0x00>(front), M1_COLUMNS[0]),
                    m(_mm256_permute_ps::<0xaa>(front), M1_COLUMNS[1]),
                ),
                _mm256_add_ps(
                    m(_mm256_permute_ps::<0x00>(back), M1_COLUMNS[2]),
                    m(_mm256_permute_ps::<0xaa>(back), M1_COLUMNS[3]),
                ),
            );
            let odd = _mm256_add_ps(
                _mm256_add_ps(
                    m(_mm256_permute_ps::<0x55>(front), M2_COLUMNS[0]),
                    m(_mm256_permute_ps::<0xff>(front), M2_COLUMNS[1]),
                ),
                _mm256_add_ps(
                    m(_mm256_permute_ps::<0x55>(back), M2_COLUMNS[2]),
                    m(_mm256_permute_ps::<0xff>(back), M2_COLUMNS[3]),
                ),
            );
            let sum = _mm256_add_ps(even, odd);
            // The differences go to each row's last four, last first.
            let difference = _mm256_permute_ps::<0x1b>(_mm256_sub_ps(even, odd));
            _mm256_storeu_ps(p, _mm256_permute2f128_ps::<0x20>(sum, difference));
            _mm256_storeu_ps(p.add(8), _mm256_permute2f128_ps::<0x31>(sum, difference));
        }
    }

    /// A block whose only non-zero row is the first.
    #[inline]
    #[target_feature(enable = "avx")]
    fn first_row_only(block: &mut [f32; 64]) {
        row_pair(block, 0);
        // SAFETY: 8 floats read and 8 written per row, inside `block`.
        unsafe {
            let first = _mm256_mul_ps(_mm256_set1_ps(A), _mm256_loadu_ps(block.as_ptr()));
            for r in 0..8 {
                _mm256_storeu_ps(block.as_mut_ptr().add(8 * r), first);
            }
        }
    }

    /// The row pass over the first `ROWS` rows (2 to 8), then the column
    /// pass without the products of the zero rows.
    #[inline]
    #[target_feature(enable = "avx")]
    fn columns<const ROWS: usize>(block: &mut [f32; 64]) {
        for pair in 0..4 {
            if 2 * pair < ROWS {
                row_pair(block, pair);
            }
        }
        // SAFETY: row r's 8 floats are inside `block` (r < 8).
        let y = |r: usize| unsafe { _mm256_loadu_ps(block.as_ptr().add(8 * r)) };
        let k = |x: f32| _mm256_set1_ps(x);
        let (add, sub, mul) = (_mm256_add_ps, _mm256_sub_ps, _mm256_mul_ps);
        let has = |r: usize| r < ROWS;
        // Odd outputs.
        let mut o0 = mul(k(B), y(1));
        if has(3) {
            o0 = add(o0, mul(k(D), y(3)));
        }
        if has(5) {
            let mut t = mul(k(E), y(5));
            if has(7) {
                t = add(t, mul(k(G), y(7)));
            }
            o0 = add(o0, t);
        }
        let mut o1 = mul(k(D), y(1));
        if has(3) {
            let mut t = mul(k(G), y(3));
            if has(5) {
                t = add(t, mul(k(B), y(5)));
            }
            o1 = sub(o1, t);
        }
        if has(7) {
            o1 = sub(o1, mul(k(E), y(7)));
        }
        let mut o2 = mul(k(E), y(1));
        if has(3) {
            o2 = sub(o2, mul(k(B), y(3)));
        }
        if has(5) {
            o2 = add(o2, mul(k(G), y(5)));
        }
        if has(7) {
            o2 = add(o2, mul(k(D), y(7)));
        }
        let mut o3 = mul(k(G), y(1));
        if has(5) {
            o3 = add(o3, mul(k(D), y(5)));
        }
        if has(3) {
            let mut t = mul(k(E), y(3));
            if has(7) {
                t = add(t, mul(k(B), y(7)));
            }
            o3 = sub(o3, t);
        }
        // Even outputs.
        let mut sum = mul(k(A), y(0));
        let mut difference = sum;
        if has(4) {
            let t = mul(k(A), y(4));
            sum = add(sum, t);
            difference = sub(difference, t);
        }
        let (mut e0, mut e3) = (sum, sum);
        let (mut e1, mut e2) = (difference, difference);
        if has(2) {
            let mut t = mul(k(C), y(2));
            if has(6) {
                t = add(t, mul(k(F), y(6)));
            }
            e0 = add(e0, t);
            e3 = sub(e3, t);
            let mut u = mul(k(F), y(2));
            if has(6) {
                u = sub(u, mul(k(C), y(6)));
            }
            e1 = add(difference, u);
            e2 = sub(difference, u);
        }
        let out = [
            add(e0, o0),
            add(e1, o1),
            add(e2, o2),
            add(e3, o3),
            sub(e3, o3),
            sub(e2, o2),
            sub(e1, o1),
            sub(e0, o0),
        ];
        for (r, row) in out.into_iter().enumerate() {
            // SAFETY: row r's 8 floats are inside `block`.
            unsafe { _mm256_storeu_ps(block.as_mut_ptr().add(8 * r), row) };
        }
    }
}

/// The same operations lane by lane, on arrays.
mod lanes {
    use super::super::{A, B, C, D, E, F, G};
    use super::{M1_COLUMNS, M2_COLUMNS};

    /// Transforms `block` whose first `rows` rows (1 to 8) may be non-zero.
    pub(super) fn inverse(block: &mut [f32; 64], rows: usize) {
        if rows <= 1 {
            first_row_only(block);
        } else {
            columns(block, rows);
        }
    }

    type Row = [f32; 8];

    fn scale<const N: usize>(k: f32, v: [f32; N]) -> [f32; N] {
        v.map(|x| x * k)
    }

    fn add<const N: usize>(a: [f32; N], b: [f32; N]) -> [f32; N] {
        std::array::from_fn(|i| a[i] + b[i])
    }

    fn sub<const N: usize>(a: [f32; N], b: [f32; N]) -> [f32; N] {
        std::array::from_fn(|i| a[i] - b[i])
    }

    /// One row of the AVX code: each half of the output as a sum of two pairs
    /// of products of a broadcast input and a column of the matrix.
    fn row(row: &mut [f32]) {
        let x: Row = row[..8].try_into().expect("8");
        let product = |i: usize, column: [f32; 4]| scale(x[i], column);
        let even = add(
            add(product(0, M1_COLUMNS[0]), product(2, M1_COLUMNS[1])),
            add(product(4, M1_COLUMNS[2]), product(6, M1_COLUMNS[3])),
        );
        let odd = add(
            add(product(1, M2_COLUMNS[0]), product(3, M2_COLUMNS[1])),
            add(product(5, M2_COLUMNS[2]), product(7, M2_COLUMNS[3])),
        );
        let front = add(even, odd);
        let back = sub(even, odd);
        row[..4].copy_from_slice(&front);
        for k in 0..4 {
            row[7 - k] = back[k];
        }
    }

    /// The AVX code with the first `rows` rows (2 to 8) non-zero: rows go by
    /// pairs in the first pass, and the second pass (all eight columns at
    /// once) leaves out the products of the zero rows.
    fn columns(block: &mut [f32; 64], rows: usize) {
        for pair in 0..4 {
            if 2 * pair < rows {
                row(&mut block[16 * pair..16 * pair + 8]);
                row(&mut block[16 * pair + 8..16 * pair + 16]);
            }
        }
        let y = |r: usize| -> Row { block[8 * r..8 * r + 8].try_into().expect("8") };
        let has = |r: usize| r < rows;
        // Odd outputs.
        let mut o0 = scale(B, y(1));
        if has(3) {
            o0 = add(o0, scale(D, y(3)));
        }
        if has(5) {
            let mut t = scale(E, y(5));
            if has(7) {
                t = add(t, scale(G, y(7)));
            }
            o0 = add(o0, t);
        }
        let mut o1 = scale(D, y(1));
        if has(3) {
            let mut t = scale(G, y(3));
            if has(5) {
                t = add(t, scale(B, y(5)));
            }
            o1 = sub(o1, t);
        }
        if has(7) {
            o1 = sub(o1, scale(E, y(7)));
        }
        let mut o2 = scale(E, y(1));
        if has(3) {
            o2 = sub(o2, scale(B, y(3)));
        }
        if has(5) {
            o2 = add(o2, scale(G, y(5)));
        }
        if has(7) {
            o2 = add(o2, scale(D, y(7)));
        }
        let mut o3 = scale(G, y(1));
        if has(5) {
            o3 = add(o3, scale(D, y(5)));
        }
        if has(3) {
            let mut t = scale(E, y(3));
            if has(7) {
                t = add(t, scale(B, y(7)));
            }
            o3 = sub(o3, t);
        }
        // Even outputs.
        let mut sum = scale(A, y(0));
        let mut difference = sum;
        if has(4) {
            let t = scale(A, y(4));
            sum = add(sum, t);
            difference = sub(difference, t);
        }
        let (mut e0, mut e3) = (sum, sum);
        let (mut e1, mut e2) = (difference, difference);
        if has(2) {
            let mut t = scale(C, y(2));
            if has(6) {
                t = add(t, scale(F, y(6)));
            }
            e0 = add(e0, t);
            e3 = sub(e3, t);
            let mut u = scale(F, y(2));
            if has(6) {
                u = sub(u, scale(C, y(6)));
            }
            e1 = add(difference, u);
            e2 = sub(difference, u);
        }
        let out = [
            add(e0, o0),
            add(e1, o1),
            add(e2, o2),
            add(e3, o3),
            sub(e3, o3),
            sub(e2, o2),
            sub(e1, o1),
            sub(e0, o0),
        ];
        for (r, row) in out.iter().enumerate() {
            block[8 * r..8 * r + 8].copy_from_slice(row);
        }
    }

    /// The AVX code for a block whose only non-zero row is the first.
    fn first_row_only(block: &mut [f32; 64]) {
        row(&mut block[..8]);
        let first: Row = scale(A, block[..8].try_into().expect("8"));
        for row in block.chunks_exact_mut(8) {
            row.copy_from_slice(&first);
        }
    }
}

#[cfg(all(test, target_arch = "x86_64"))]
mod tests {
    #[test]
    fn the_intrinsics_give_every_lane_s_bits() {
        if !std::arch::is_x86_feature_detected!("avx") {
            return crate::testing::skip(
                "this processor has no AVX: the AVX inverse DCT is not tested here",
            );
        }
        let mut seed = 7u32;
        let mut next = || {
            seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            f32::from_bits(seed) // every kind of float, NaNs and infinities included
        };
        for round in 0..20_000 {
            let rows = 1 + round % 8;
            let mut block = [0f32; 64];
            for v in block.iter_mut().take(8 * rows) {
                let x = next();
                // Mostly ordinary coefficients, sometimes any bits.
                *v = if round % 5 == 0 {
                    x
                } else {
                    (x.to_bits() >> 9) as f32 / 4096.0 - 1024.0
                };
            }
            let (mut ours, mut theirs) = (block, block);
            // SAFETY: the CPU has AVX (checked above).
            unsafe { super::intrinsics::inverse(&mut ours, rows) };
            super::lanes::inverse(&mut theirs, rows);
            for (a, b) in ours.iter().zip(&theirs) {
                assert!(
                    a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan()),
                    "{rows}: {a} {b}"
                );
            }
        }
    }
}
