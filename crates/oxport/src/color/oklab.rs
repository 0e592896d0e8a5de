//! Linear sRGB ↔ Oklab with CSS Color 4's matrices: linear sRGB to XYZ
//! (D65, the rational form), XYZ to LMS and LMS to Oklab (recomputed for
//! 64-bit precision, css-color-4 issue 6642). The two linear steps on each
//! side are one matrix, multiplied out when compiled.

// The constants are CSS Color 4's, digit for digit, some past f64's precision.
#![allow(clippy::excessive_precision)]

pub(crate) type Matrix = [[f64; 3]; 3];

const SRGB_TO_XYZ: Matrix = [
    [506752.0 / 1228815.0, 87881.0 / 245763.0, 12673.0 / 70218.0],
    [87098.0 / 409605.0, 175762.0 / 245763.0, 12673.0 / 175545.0],
    [7918.0 / 409605.0, 87881.0 / 737289.0, 1001167.0 / 1053270.0],
];
const XYZ_TO_SRGB: Matrix = [
    [12831.0 / 3959.0, -329.0 / 214.0, -1974.0 / 3959.0],
    [
        -851781.0 / 878810.0,
        1648619.0 / 878810.0,
        36519.0 / 878810.0,
    ],
    [705.0 / 12673.0, -2585.0 / 12673.0, 705.0 / 667.0],
];
const XYZ_TO_LMS: Matrix = [
    [0.8190224379967030, 0.3619062600528904, -0.1288737815209879],
    [0.0329836539323885, 0.9292868615863434, 0.0361446663506424],
    [0.0481771893596242, 0.2642395317527308, 0.6335478284694309],
];
const LMS_TO_XYZ: Matrix = [
    [1.2268798758459243, -0.5578149944602171, 0.2813910456659647],
    [-0.0405757452148008, 1.1122868032803170, -0.0717110580655164],
    [-0.0763729366746601, -0.4214933324022432, 1.5869240198367816],
];
pub(crate) const LMS_TO_OKLAB: Matrix = [
    [0.2104542683093140, 0.7936177747023054, -0.0040720430116193],
    [1.9779985324311684, -2.4285922420485799, 0.4505937096174110],
    [0.0259040424655478, 0.7827717124575296, -0.8086757549230774],
];
pub(crate) const OKLAB_TO_LMS: Matrix = [
    [1.0, 0.3963377773761749, 0.2158037573099136],
    [1.0, -0.1055613458156586, -0.0638541728258133],
    [1.0, -0.0894841775298119, -1.2914855480194092],
];

const fn product(a: &Matrix, b: &Matrix) -> Matrix {
    let mut out = [[0.0; 3]; 3];
    let mut i = 0;
    while i < 3 {
        let mut j = 0;
        while j < 3 {
            out[i][j] = a[i][0] * b[0][j] + a[i][1] * b[1][j] + a[i][2] * b[2][j];
            j += 1;
        }
        i += 1;
    }
    out
}

/// Linear sRGB to LMS in one step.
pub(crate) const SRGB_TO_LMS: Matrix = product(&XYZ_TO_LMS, &SRGB_TO_XYZ);
/// LMS to linear sRGB in one step.
pub(crate) const LMS_TO_SRGB: Matrix = product(&XYZ_TO_SRGB, &LMS_TO_XYZ);

#[inline]
fn apply(m: &Matrix, v: [f64; 3]) -> [f64; 3] {
    [
        m[0][0] * v[0] + m[0][1] * v[1] + m[0][2] * v[2],
        m[1][0] * v[0] + m[1][1] * v[1] + m[1][2] * v[2],
        m[2][0] * v[0] + m[2][1] * v[1] + m[2][2] * v[2],
    ]
}

/// Linear sRGB to Oklab (L in [0, 1] for colors in gamut).
#[inline]
pub fn from_linear_srgb(rgb: [f64; 3]) -> [f64; 3] {
    let lms = apply(&SRGB_TO_LMS, rgb);
    // The cube root keeps the sign (f64::cbrt does), as CSS's sample code requires.
    apply(&LMS_TO_OKLAB, lms.map(f64::cbrt))
}

/// Oklab to linear sRGB: the inverse of [`from_linear_srgb`].
#[inline]
pub fn to_linear_srgb(lab: [f64; 3]) -> [f64; 3] {
    let lms = apply(&OKLAB_TO_LMS, lab);
    apply(&LMS_TO_SRGB, lms.map(|c| c * c * c))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn white_is_one_and_black_zero_and_round_trips_hold() {
        let white = from_linear_srgb([1.0; 3]);
        assert!((white[0] - 1.0).abs() < 1e-7, "{white:?}");
        assert!(white[1].abs() < 1e-7 && white[2].abs() < 1e-7, "{white:?}");
        assert_eq!(from_linear_srgb([0.0; 3]), [0.0; 3]);
        for rgb in [[1.0, 0.0, 0.0], [0.2, 0.5, 0.9], [-0.1, 0.3, 1.2]] {
            let back = to_linear_srgb(from_linear_srgb(rgb));
            for (a, b) in back.iter().zip(rgb) {
                assert!((a - b).abs() < 1e-13, "{rgb:?} -> {back:?}");
            }
        }
        // CSS Color 4's example: sRGB red is oklch(62.8% 0.2577 29.23).
        let red = from_linear_srgb([1.0, 0.0, 0.0]);
        assert!((red[0] - 0.627955).abs() < 1e-6, "{red:?}");
    }
}
