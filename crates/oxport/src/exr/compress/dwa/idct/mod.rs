//! The inverse 8×8 DCT of DWA blocks, in the orders of operations OpenEXR's
//! builds compute it in: its AVX code (x86-64 CPUs with AVX, where the
//! build has GCC's inline assembly: not Windows'), its SSE2 code (other
//! x86-64), its scalar code (other CPUs), and that scalar code as GCC
//! compiles it for aarch64, products fused into the sums they feed (its
//! aarch64 wheels). Each rounds differently, and a block's pixels are
//! bit-exact only in the order the OpenEXR library on the same platform
//! uses, so the order is chosen the way OpenEXR's build there chooses it.
//! `zeroed` is how many of the block's last rows are zero: OpenEXR skips
//! work for them, which can change the sign of a zero.

pub(super) mod avx;

use super::fma::Fma;

/// The constants of OpenEXR's SIMD code: ½·cos(kπ/16).
const A: f32 = 3.535536e-01;
const B: f32 = 4.903927e-01;
const C: f32 = 4.619398e-01;
const D: f32 = 4.157349e-01;
const E: f32 = 2.777855e-01;
const F: f32 = 1.913422e-01;
const G: f32 = 9.754573e-02;

/// The even (M1) and odd (M2) halves of the inverse DCT matrix, by row.
const M1: [[f32; 4]; 4] = [[A, C, A, F], [A, F, -A, -C], [A, -F, -A, C], [A, -C, A, -F]];
const M2: [[f32; 4]; 4] = [[B, D, E, G], [D, -G, -B, -E], [E, -B, G, D], [G, -E, D, -B]];

/// Which of OpenEXR's orders of operations a build follows (for the
/// inverse DCT here, and DWA's other arithmetic: `fdct`, `lossy`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Order {
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    Avx,
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    Sse2,
    #[cfg_attr(any(target_arch = "x86_64", target_arch = "aarch64"), allow(dead_code))]
    Scalar,
    #[cfg_attr(not(target_arch = "aarch64"), allow(dead_code))]
    Fused,
}

impl Order {
    /// What OpenEXR's build for this platform computes on this CPU:
    /// - x86-64: AVX when the CPU and the OS have it, SSE2 otherwise; on
    ///   Windows always SSE2 (OpenEXR's Windows build, by MSVC, turns its
    ///   AVX check off: it needs GCC's inline assembly);
    /// - aarch64: the scalar code with GCC's fused multiply-adds (checked
    ///   against the `openexr` package's aarch64 Linux wheel; macOS's
    ///   build, by Apple's clang, is taken to fuse the same way: it cannot
    ///   be run here);
    /// - elsewhere: the scalar code.
    pub(crate) fn of_this_cpu() -> Order {
        #[cfg(all(target_arch = "x86_64", not(windows)))]
        {
            if std::arch::is_x86_feature_detected!("avx") {
                Order::Avx
            } else {
                Order::Sse2
            }
        }
        #[cfg(all(target_arch = "x86_64", windows))]
        {
            Order::Sse2
        }
        #[cfg(target_arch = "aarch64")]
        {
            Order::Fused
        }
        #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
        {
            Order::Scalar
        }
    }

    /// Transforms `block` (row-major) in place; its last `zeroed` rows are
    /// zero (0 to 7).
    pub(crate) fn inverse(self, block: &mut [f32; 64], zeroed: usize) {
        match self {
            Order::Avx => avx::inverse(block, 8 - zeroed),
            Order::Sse2 => sse2(block, 8 - zeroed),
            Order::Scalar => scalar(block, 8 - zeroed),
            Order::Fused => fused(block, 8 - zeroed),
        }
    }
}

/// cos(k·3.14159/16) for k = 0 to 7, as OpenEXR's scalar code computes them
/// (its π is 3.14159; GCC folds the cosines at compile time, correctly
/// rounded). Halved, they are the inverse DCT's a (k = 4) to g (k = 7).
pub(super) const COS: [f32; 8] = [
    1.0,
    f32::from_bits(0x3f7b_14bf),
    f32::from_bits(0x3f6c_8361),
    f32::from_bits(0x3f54_db36),
    f32::from_bits(0x3f35_04fb),
    f32::from_bits(0x3f0e_39e5),
    f32::from_bits(0x3ec3_ef33),
    f32::from_bits(0x3e47_c60b),
];

/// `p·x − q·y` with one product fused, as GCC's aarch64 code computes it:
/// its scalar code rounds `q·y` and fuses `p·x`; its vectorized code
/// (`four`) rounds `p·x` and fuses `q·y`. (In a sum both fuse the first.)
#[inline(always)]
pub(super) fn fused_difference(four: bool, p: f32, x: f32, q: f32, y: f32) -> f32 {
    if four {
        (-q).fma(y, p * x)
    } else {
        p.fma(x, -(q * y))
    }
}

/// OpenEXR's scalar code as GCC 14 compiles it for aarch64 (the `openexr`
/// package's wheels): each product fused into the sum or difference it
/// feeds (`Fma`), the first of two in a sum, in a difference as
/// [`fused_difference`] says. GCC vectorizes the rows four at a time when
/// there are at least four and the columns always; rows past the last
/// four are its scalar code's. Checked to the bit against the wheel's
/// compiled functions on random blocks, every count of zero rows.
fn fused(block: &mut [f32; 64], rows: usize) {
    let half = |k: usize| 0.5 * COS[k];
    let (a, b, c, d, e, f, g) = (
        half(4),
        half(1),
        half(2),
        half(3),
        half(5),
        half(6),
        half(7),
    );
    let pass = |x: [f32; 8], four: bool| -> [f32; 8] {
        let theta1 = c.fma(x[2], f * x[6]);
        let theta2 = fused_difference(four, f, x[2], c, x[6]);
        let beta = [
            g.fma(x[7], e.fma(x[5], b.fma(x[1], d * x[3]))),
            (-e).fma(
                x[7],
                (-b).fma(x[5], fused_difference(four, d, x[1], g, x[3])),
            ),
            d.fma(x[7], g.fma(x[5], fused_difference(four, e, x[1], b, x[3]))),
            (-b).fma(x[7], d.fma(x[5], fused_difference(four, g, x[1], e, x[3]))),
        ];
        let (sum, difference) = (x[0] + x[4], x[0] - x[4]);
        let gamma = [
            a.fma(sum, theta1),
            a.fma(difference, theta2),
            a.fma(difference, -theta2),
            a.fma(sum, -theta1),
        ];
        unfold(gamma, beta)
    };
    each_row(block, rows, |r, row| {
        pass(row, rows == 8 || (rows >= 4 && r < 4))
    });
    each_column(block, |column| pass(column, true));
}

/// `pass` on each of the first `rows` rows of `block` (given the row's
/// index), in place.
#[inline(always)]
pub(super) fn each_row(
    block: &mut [f32; 64],
    rows: usize,
    pass: impl Fn(usize, [f32; 8]) -> [f32; 8],
) {
    for (r, row) in block.chunks_exact_mut(8).take(rows).enumerate() {
        let out = pass(r, row.try_into().expect("8"));
        row.copy_from_slice(&out);
    }
}

/// `pass` on each column of `block`, in place.
#[inline(always)]
pub(super) fn each_column(block: &mut [f32; 64], pass: impl Fn([f32; 8]) -> [f32; 8]) {
    for col in 0..8 {
        let out = pass(std::array::from_fn(|r| block[8 * r + col]));
        for (r, v) in out.into_iter().enumerate() {
            block[8 * r + col] = v;
        }
    }
}

/// A block whose only coefficient is its DC: every pixel the same.
pub(crate) fn dc_only(block: &mut [f32; 64]) {
    let value = block[0] * A * A;
    block.fill(value);
}

/// The SSE2 code: rows as running sums from zero, columns in pairs.
fn sse2(block: &mut [f32; 64], rows: usize) {
    for row in block.chunks_exact_mut(8).take(rows) {
        let x = [
            row[0], row[1], row[2], row[3], row[4], row[5], row[6], row[7],
        ];
        for k in 0..4 {
            let (m1, m2) = (M1[k], M2[k]);
            let even = (((0.0 + x[0] * m1[0]) + x[2] * m1[1]) + x[4] * m1[2]) + x[6] * m1[3];
            let odd = (((0.0 + x[1] * m2[0]) + x[3] * m2[1]) + x[5] * m2[2]) + x[7] * m2[3];
            row[k] = even + odd;
            row[7 - k] = even - odd;
        }
    }
    for col in 0..8 {
        let i = |r: usize| block[8 * r + col];
        let alpha = [C * i(2), F * i(2), C * i(6), F * i(6)];
        let beta = [
            (i(1) * B + i(3) * D) + (i(5) * E + i(7) * G),
            (i(1) * D - i(3) * G) - (i(5) * B + i(7) * E),
            (i(1) * E - i(3) * B) + (i(5) * G + i(7) * D),
            (i(1) * G - i(3) * E) + (i(5) * D - i(7) * B),
        ];
        columns(
            block,
            col,
            A * (i(0) + i(4)),
            A * (i(0) - i(4)),
            alpha,
            beta,
        );
    }
}

/// The last step of the SSE2 and scalar codes' column pass.
fn columns(block: &mut [f32; 64], col: usize, t0: f32, t3: f32, alpha: [f32; 4], beta: [f32; 4]) {
    let t1 = alpha[0] + alpha[3];
    let t2 = alpha[1] - alpha[2];
    let gamma = [t0 + t1, t3 + t2, t3 - t2, t0 - t1];
    for k in 0..4 {
        block[8 * k + col] = gamma[k] + beta[k];
        block[8 * (7 - k) + col] = gamma[k] - beta[k];
    }
}

/// The scalar code: its constants computed from cosines in f32, sums from
/// left to right.
#[allow(clippy::approx_constant)]
fn scalar(block: &mut [f32; 64], rows: usize) {
    // OpenEXR's own π, whose cosines give its constants.
    let pi = 3.14159f32;
    let a = 0.5 * (pi / 4.0).cos();
    let b = 0.5 * (pi / 16.0).cos();
    let c = 0.5 * (pi / 8.0).cos();
    let d = 0.5 * (3.0 * pi / 16.0).cos();
    let e = 0.5 * (5.0 * pi / 16.0).cos();
    let f = 0.5 * (3.0 * pi / 8.0).cos();
    let g = 0.5 * (7.0 * pi / 16.0).cos();
    let pass = |x: [f32; 8]| -> [f32; 8] {
        let alpha = [c * x[2], f * x[2], c * x[6], f * x[6]];
        let beta = [
            b * x[1] + d * x[3] + e * x[5] + g * x[7],
            d * x[1] - g * x[3] - b * x[5] - e * x[7],
            e * x[1] - b * x[3] + g * x[5] + d * x[7],
            g * x[1] - e * x[3] + d * x[5] - b * x[7],
        ];
        let t0 = a * (x[0] + x[4]);
        let t3 = a * (x[0] - x[4]);
        let t1 = alpha[0] + alpha[3];
        let t2 = alpha[1] - alpha[2];
        let gamma = [t0 + t1, t3 + t2, t3 - t2, t0 - t1];
        unfold(gamma, beta)
    };
    each_row(block, rows, |_, row| pass(row));
    each_column(block, pass);
}

/// The last stage of both scalar orders: the even half's sums `gamma` and
/// the odd half's `beta` into the eight outputs, mirrored.
#[inline(always)]
fn unfold(gamma: [f32; 4], beta: [f32; 4]) -> [f32; 8] {
    [
        gamma[0] + beta[0],
        gamma[1] + beta[1],
        gamma[2] + beta[2],
        gamma[3] + beta[3],
        gamma[3] - beta[3],
        gamma[2] - beta[2],
        gamma[1] - beta[1],
        gamma[0] - beta[0],
    ]
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    /// The blocks of `tests/data/valid/openexr-aarch64/dct.bin` (see its
    /// README): (the count of zero rows, or 255 for the forward DCT; in; out).
    pub(in super::super) fn aarch64_blocks() -> Vec<(u8, [f32; 64], [f32; 64])> {
        let data = include_bytes!("../../../../../tests/data/valid/openexr-aarch64/dct.bin");
        let records = data.strip_prefix(b"OXDCT1").expect("the magic");
        assert_eq!(records.len() % 513, 0);
        let floats = |bytes: &[u8]| -> [f32; 64] {
            std::array::from_fn(|i| {
                f32::from_le_bytes(bytes[4 * i..4 * i + 4].try_into().expect("4 bytes"))
            })
        };
        records
            .chunks_exact(513)
            .map(|r| (r[0], floats(&r[1..257]), floats(&r[257..])))
            .collect()
    }

    #[test]
    fn fused_is_openexrs_aarch64_build_to_the_bit() {
        let blocks = aarch64_blocks();
        let mut seen = [0; 8];
        for (zeroed, input, expected) in blocks.into_iter().filter(|b| b.0 < 8) {
            let mut block = input;
            Order::Fused.inverse(&mut block, usize::from(zeroed));
            for (i, (got, want)) in block.iter().zip(&expected).enumerate() {
                assert_eq!(
                    got.to_bits(),
                    want.to_bits(),
                    "{zeroed} zero rows, value {i}"
                );
            }
            seen[usize::from(zeroed)] += 1;
        }
        assert!(seen.iter().all(|&n| n > 0), "{seen:?}");
    }

    /// The inverse DCT by its definition, in f64.
    fn reference(block: &[f32; 64]) -> [f64; 64] {
        let basis = |k: usize, n: usize| {
            let scale = if k == 0 { (0.125f64).sqrt() } else { 0.5 };
            scale * ((2 * n + 1) as f64 * k as f64 * std::f64::consts::PI / 16.0).cos()
        };
        std::array::from_fn(|i| {
            let (y, x) = (i / 8, i % 8);
            let mut sum = 0.0;
            for v in 0..8 {
                for u in 0..8 {
                    sum += f64::from(block[8 * v + u]) * basis(v, y) * basis(u, x);
                }
            }
            sum
        })
    }

    #[test]
    fn every_order_is_the_inverse_dct_within_rounding() {
        let mut seed = 1u32;
        let mut next = || {
            seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (seed >> 8) as f32 / (1 << 24) as f32 * 2.0 - 1.0
        };
        for zeroed in 0..8 {
            let mut block = [0f32; 64];
            for v in block.iter_mut().take(8 * (8 - zeroed)) {
                *v = next() * 100.0;
            }
            let expected = reference(&block);
            for order in [Order::Avx, Order::Sse2, Order::Scalar, Order::Fused] {
                let mut out = block;
                order.inverse(&mut out, zeroed);
                for (got, want) in out.iter().zip(&expected) {
                    assert!(
                        (f64::from(*got) - want).abs() < 1e-2,
                        "{order:?} {zeroed}: {got} {want}"
                    );
                }
            }
        }
        let mut dc = [0f32; 64];
        dc[0] = 8.0;
        dc_only(&mut dc);
        assert!(dc.iter().all(|&v| (v - 1.0).abs() < 1e-5));
    }
}
