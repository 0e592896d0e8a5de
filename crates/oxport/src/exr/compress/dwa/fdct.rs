//! DWA's forward transforms, as OpenEXR's encoder runs them: Y'CbCr from
//! R'G'B' with Rec. 709's weights, and the 8×8 DCT. On x86-64 OpenEXR runs
//! its SSE2 code (every x86-64 build has it): a 1D pass down every column,
//! then along every row; elsewhere its scalar code: rows, then columns,
//! with other constants, which GCC compiles for aarch64 with products fused
//! into sums (`Order::Fused`, see `idct`). Each is followed here with its
//! constants and order of operations, in `f32`, so that the coefficients
//! (and so the quantized halves) are OpenEXR's to the bit.

use super::fma::Fma;
use super::idct::{COS, Order, each_column, each_row, fused_difference};

/// OpenEXR's constants: cos(π/4) and ½·cos(kπ/16), its decimals kept.
#[allow(clippy::approx_constant)]
const C4: f32 = 0.707_106_78;
const C1_HALF: f32 = 0.490_392_64;
const C2_HALF: f32 = 0.461_939_77;
const C3_HALF: f32 = 0.415_734_8;
const C5_HALF: f32 = 0.277_785_12;
const C6_HALF: f32 = 0.191_341_72;
const C7_HALF: f32 = 0.097_545_16;

/// Y'CbCr from R'G'B', in place (OpenEXR's `csc709Forward64`; `Fused`:
/// as GCC vectorizes its loop for aarch64).
pub(super) fn csc709_forward(
    r: &mut [f32; 64],
    g: &mut [f32; 64],
    b: &mut [f32; 64],
    order: Order,
) {
    for i in 0..64 {
        let (sr, sg, sb) = (r[i], g[i], b[i]);
        if order == Order::Fused {
            r[i] = 0.0722f32.fma(sb, 0.2126f32.fma(sr, 0.7152 * sg));
            g[i] = 0.5f32.fma(sb, fused_difference(true, -0.1146, sr, 0.3854, sg));
            b[i] = (-0.0458f32).fma(sb, fused_difference(true, 0.5, sr, 0.4542, sg));
        } else {
            r[i] = 0.2126 * sr + 0.7152 * sg + 0.0722 * sb;
            g[i] = -0.1146 * sr - 0.3854 * sg + 0.5000 * sb;
            b[i] = 0.5000 * sr - 0.4542 * sg - 0.0458 * sb;
        }
    }
}

/// The 1D DCT of the eight values `x` (OpenEXR's SSE2 lanes, one lane).
fn pass(x: [f32; 8]) -> [f32; 8] {
    let a0 = x[0] + x[7];
    let a1 = x[1] + x[2];
    let a3 = x[3] + x[4];
    let a5 = x[5] + x[6];
    let a7 = x[0] - x[7];
    let a2 = x[1] - x[2];
    let a4 = x[3] - x[4];
    let a6 = x[5] - x[6];
    let mut out = [0f32; 8];
    let (k0, k1) = (C4 * (a0 + a3), C4 * (a1 + a5));
    out[0] = (k0 + k1) * 0.5;
    out[4] = (k0 - k1) * 0.5;
    let (k0, k1) = (a2 - a6, a0 - a3);
    out[2] = C6_HALF * k0 + C2_HALF * k1;
    out[6] = C6_HALF * k1 - C2_HALF * k0;
    let k0 = (a1 - a5) * C4;
    let k1 = (a2 + a6) * -C4;
    let (x_rot, y_rot) = (a7 - k0, a4 + k1);
    out[3] = C3_HALF * x_rot - C5_HALF * y_rot;
    out[5] = C5_HALF * x_rot + C3_HALF * y_rot;
    let (x_rot, y_rot) = (a7 + k0, k1 - a4);
    out[1] = C1_HALF * x_rot - C7_HALF * y_rot;
    out[7] = C7_HALF * x_rot + C1_HALF * y_rot;
    out
}

/// The forward 8×8 DCT of a row-major block, in place, as OpenEXR's build
/// that computes in `order` runs it.
pub(super) fn forward(block: &mut [f32; 64], order: Order) {
    match order {
        Order::Avx | Order::Sse2 => forward_sse2(block),
        Order::Scalar => forward_scalar(block),
        Order::Fused => forward_fused(block),
    }
}

/// OpenEXR's SSE2 order: columns, then rows, with its rounded constants.
fn forward_sse2(block: &mut [f32; 64]) {
    each_column(block, pass);
    each_row(block, 8, |_, row| pass(row));
}

/// OpenEXR's scalar code: rows (with ½·cos constants), then columns (with
/// cos constants and a final ½), the cosines taken of 3.14159·k/16.
fn forward_scalar(block: &mut [f32; 64]) {
    // OpenEXR's 3.14159, not π.
    #[allow(clippy::approx_constant)]
    let c = |k: f32| (3.14159f32 * k / 16.0).cos();
    let (c1, c2, c3, c4, c5, c6, c7) = (c(1.0), c(2.0), c(3.0), c(4.0), c(5.0), c(6.0), c(7.0));
    let (c1h, c2h, c3h, c5h, c6h, c7h) =
        (0.5 * c1, 0.5 * c2, 0.5 * c3, 0.5 * c5, 0.5 * c6, 0.5 * c7);
    let one = |x: [f32; 8], rows: bool| -> [f32; 8] {
        let [a0, a1, a2, a3, a4, a5, a6, a7] = butterflies(x);
        let mut out = [0f32; 8];
        let (k0, k1) = (c4 * (a0 + a3), c4 * (a1 + a5));
        out[0] = 0.5 * (k0 + k1);
        out[4] = 0.5 * (k0 - k1);
        let (rx, ry) = (a2 - a6, a0 - a3);
        if rows {
            out[2] = c6h * rx + c2h * ry;
            out[6] = c6h * ry - c2h * rx;
        } else {
            out[2] = 0.5 * (c6 * rx + c2 * ry);
            out[6] = 0.5 * (c6 * ry - c2 * rx);
        }
        let k0 = c4 * (a1 - a5);
        // OpenEXR's -1 · c4 · x: the same bits as -c4 · x.
        let k1 = -c4 * (a2 + a6);
        let (rx, ry) = (a7 - k0, a4 + k1);
        if rows {
            out[3] = c3h * rx - c5h * ry;
            out[5] = c5h * rx + c3h * ry;
        } else {
            out[3] = 0.5 * (c3 * rx - c5 * ry);
            out[5] = 0.5 * (c5 * rx + c3 * ry);
        }
        let (rx, ry) = (a7 + k0, k1 - a4);
        if rows {
            out[1] = c1h * rx - c7h * ry;
            out[7] = c7h * rx + c1h * ry;
        } else {
            out[1] = 0.5 * (c1 * rx - c7 * ry);
            out[7] = 0.5 * (c7 * rx + c1 * ry);
        }
        out
    };
    each_row(block, 8, |_, row| one(row, true));
    each_column(block, |column| one(column, false));
}

/// OpenEXR's scalar code as GCC 14 vectorizes it for aarch64, rows and
/// columns alike: products fused into the sums they feed (see
/// `idct::fused_difference`), `c4` into both of its sums. Checked to the
/// bit against the `openexr` package's aarch64 wheel on random blocks.
fn forward_fused(block: &mut [f32; 64]) {
    let c4 = COS[4];
    let pass = |x: [f32; 8], rows: bool| -> [f32; 8] {
        // Rows take ½·cos; columns cos, and ½ of the result.
        let k = |i: usize| if rows { 0.5 * COS[i] } else { COS[i] };
        let scale = |v: f32| if rows { v } else { 0.5 * v };
        let [a0, a1, a2, a3, a4, a5, a6, a7] = butterflies(x);
        let mut out = [0f32; 8];
        let k1 = c4 * (a1 + a5);
        out[0] = 0.5 * c4.fma(a0 + a3, k1);
        out[4] = 0.5 * c4.fma(a0 + a3, -k1);
        let (rx, ry) = (a2 - a6, a0 - a3);
        out[2] = scale(k(6).fma(rx, k(2) * ry));
        out[6] = scale(fused_difference(true, k(6), ry, k(2), rx));
        let (d15, s26) = (a1 - a5, a2 + a6);
        let (rx, ry) = ((-c4).fma(d15, a7), (-c4).fma(s26, a4));
        out[3] = scale(fused_difference(true, k(3), rx, k(5), ry));
        out[5] = scale(k(5).fma(rx, k(3) * ry));
        let (rx, ry) = (c4.fma(d15, a7), (-c4).fma(s26, -a4));
        out[1] = scale(fused_difference(true, k(1), rx, k(7), ry));
        out[7] = scale(k(7).fma(rx, k(1) * ry));
        out
    };
    each_row(block, 8, |_, row| pass(row, true));
    each_column(block, |column| pass(column, false));
}

/// The first stage of both scalar orders: sums and differences of mirrored
/// inputs, as OpenEXR names them `a0` to `a7`.
#[inline(always)]
fn butterflies(x: [f32; 8]) -> [f32; 8] {
    [
        x[0] + x[7],
        x[1] + x[2],
        x[1] - x[2],
        x[3] + x[4],
        x[3] - x[4],
        x[5] + x[6],
        x[5] - x[6],
        x[0] - x[7],
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fused_is_openexrs_aarch64_build_to_the_bit() {
        let blocks = super::super::idct::tests::aarch64_blocks();
        let forward_blocks: Vec<_> = blocks.into_iter().filter(|b| b.0 == 255).collect();
        assert!(!forward_blocks.is_empty());
        for (n, (_, input, expected)) in forward_blocks.into_iter().enumerate() {
            let mut block = input;
            forward(&mut block, Order::Fused);
            for (i, (got, want)) in block.iter().zip(&expected).enumerate() {
                assert_eq!(got.to_bits(), want.to_bits(), "block {n}, value {i}");
            }
        }
    }

    #[test]
    fn a_constant_block_has_only_a_dc_and_the_inverse_undoes_the_forward() {
        let mut block = [2.0f32; 64];
        forward(&mut block, Order::of_this_cpu());
        // 8 × the value for this DCT's scale (½·√2 per pass, 8 values).
        assert!((block[0] - 16.0).abs() < 1e-4, "{}", block[0]);
        assert!(block[1..].iter().all(|v| v.abs() < 1e-4));
        let source: [f32; 64] = std::array::from_fn(|i| ((i * 37) % 11) as f32 - 5.0);
        for transform in [forward_sse2, forward_scalar, forward_fused] {
            let mut block = source;
            transform(&mut block);
            super::super::idct::Order::Scalar.inverse(&mut block, 0);
            for (a, b) in block.iter().zip(&source) {
                assert!((a - b).abs() < 1e-3, "{a} {b}");
            }
        }
    }
}
