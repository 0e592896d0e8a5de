//! Blender's float32 matrix arithmetic: the same operations in the same
//! order, so that transformed positions and normals are the same bits.

use super::Exporter;

/// A 4×4 float matrix in Blender's layout (`m[column][row]`).
pub type Matrix4 = [[f32; 4]; 4];
/// A 3×3 float matrix in Blender's layout (`m[column][row]`).
pub type Matrix3 = [[f32; 3]; 3];

/// Blender's `mul_m4_m3m4` for the 3×3 block, then `mul_v3_m3v3` for the
/// translation: the axis conversion `axes` applied to the world matrix.
pub fn world_and_axes_transform(axes: &Matrix3, world: &Matrix4) -> Matrix4 {
    let (a, b) = (axes, world);
    let mut r = [[0.0f32; 4]; 4];
    for i in 0..3 {
        for j in 0..3 {
            r[i][j] = b[i][0] * a[0][j] + b[i][1] * a[1][j] + b[i][2] * a[2][j];
        }
    }
    let t = [b[3][0], b[3][1], b[3][2]];
    for j in 0..3 {
        r[3][j] = a[0][j] * t[0] + a[1][j] * t[1] + a[2][j] * t[2];
    }
    r[3][3] = b[3][3];
    r
}

/// The inverse transpose of the 3×3 block, what normals are multiplied by,
/// computed as `exporter` computes it: Blender 3.4 with `copy_m3_m4`,
/// `invert_m3_m3` and `transpose_m3`; 4.1+ with `math::invert` (Eigen's
/// cofactors, its determinant summed down the first column) and
/// `math::transpose`. A singular block gives Blender's results: the
/// adjoint (3.4), zeros (4.1+).
pub fn normal_transform(m: &Matrix4, exporter: Exporter) -> Matrix3 {
    let m3: Matrix3 = [
        [m[0][0], m[0][1], m[0][2]],
        [m[1][0], m[1][1], m[1][2]],
        [m[2][0], m[2][1], m[2][2]],
    ];
    if exporter >= Exporter::Blender45 {
        return eigen_inverse_transpose(&m3);
    }
    let mut inverse = adjoint(&m3);
    let det = determinant(&m3);
    if det != 0.0 {
        let scale = 1.0f32 / det;
        for row in &mut inverse {
            for x in row {
                *x *= scale;
            }
        }
    }
    let mut t = inverse;
    for i in 0..3 {
        for j in 0..3 {
            t[i][j] = inverse[j][i];
        }
    }
    t
}

/// Eigen's 3×3 `computeInverseWithCheck`, transposed. With `a(i, j)` the
/// entry in row i and column j (`m[j][i]`), the cofactor of (i, j) is
/// `a(i+1, j+1)·a(i+2, j+2) − a(i+1, j+2)·a(i+2, j+1)` (indices mod 3), the
/// determinant `c(0,0)·a(0,0) + (c(1,0)·a(1,0) + c(2,0)·a(2,0))`, and the
/// inverse's (i, j) is `c(j, i)·(1/det)`: so the transpose's (i, j), which
/// is `m'[j][i]`, is `c(i, j)·(1/det)`.
fn eigen_inverse_transpose(m: &Matrix3) -> Matrix3 {
    let a = |i: usize, j: usize| m[j % 3][i % 3];
    let cofactor =
        |i: usize, j: usize| a(i + 1, j + 1) * a(i + 2, j + 2) - a(i + 1, j + 2) * a(i + 2, j + 1);
    // Eigen's unrolled sum halves its terms: a + (b + c).
    let det = cofactor(0, 0) * a(0, 0) + (cofactor(1, 0) * a(1, 0) + cofactor(2, 0) * a(2, 0));
    if det.abs() <= 0.0 || det.is_nan() {
        return [[0.0; 3]; 3];
    }
    let inverse_det = 1.0f32 / det;
    let mut t = [[0.0f32; 3]; 3];
    for (j, column) in t.iter_mut().enumerate() {
        for (i, value) in column.iter_mut().enumerate() {
            *value = cofactor(i, j) * inverse_det;
        }
    }
    t
}

/// A world-and-axes transform with the exporter's `global_scale` folded in
/// as Blender 4.1+ folds it (`from_scale(scale) * m`: each entry of the
/// first three rows times `scale`), to be applied with a scale of 1.
pub fn scaled_transform(m: &Matrix4, scale: f32) -> Matrix4 {
    let mut r = *m;
    for column in &mut r {
        for value in &mut column[..3] {
            *value *= scale;
        }
    }
    r
}

fn adjoint(m: &Matrix3) -> Matrix3 {
    [
        [
            m[1][1] * m[2][2] - m[1][2] * m[2][1],
            -m[0][1] * m[2][2] + m[0][2] * m[2][1],
            m[0][1] * m[1][2] - m[0][2] * m[1][1],
        ],
        [
            -m[1][0] * m[2][2] + m[1][2] * m[2][0],
            m[0][0] * m[2][2] - m[0][2] * m[2][0],
            -m[0][0] * m[1][2] + m[0][2] * m[1][0],
        ],
        [
            m[1][0] * m[2][1] - m[1][1] * m[2][0],
            -m[0][0] * m[2][1] + m[0][1] * m[2][0],
            m[0][0] * m[1][1] - m[0][1] * m[1][0],
        ],
    ]
}

fn determinant(m: &Matrix3) -> f32 {
    m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
        - m[1][0] * (m[0][1] * m[2][2] - m[0][2] * m[2][1])
        + m[2][0] * (m[0][1] * m[1][2] - m[0][2] * m[1][1])
}

/// `mul_m4_v3` then `mul_v3_fl(scale)` on every position.
pub fn transform_positions(positions: &[[f32; 3]], m: &Matrix4, scale: f32) -> Vec<[f32; 3]> {
    positions
        .iter()
        .map(|&p| transform_position(p, m, scale))
        .collect()
}

/// `mul_m4_v3` then `mul_v3_fl(scale)` on one position.
#[inline]
pub fn transform_position([x, y, z]: [f32; 3], m: &Matrix4, scale: f32) -> [f32; 3] {
    [
        (x * m[0][0] + y * m[1][0] + m[2][0] * z + m[3][0]) * scale,
        (x * m[0][1] + y * m[1][1] + m[2][1] * z + m[3][1]) * scale,
        (x * m[0][2] + y * m[1][2] + m[2][2] * z + m[3][2]) * scale,
    ]
}

/// `mul_m3_v3` then `normalize_v3` (3.4), or `math::normalize`, which
/// divides by the length (4.1+).
pub(super) fn transform_normal(m: &Matrix3, [x, y, z]: [f32; 3], exporter: Exporter) -> [f32; 3] {
    let v = [
        m[0][0] * x + m[1][0] * y + m[2][0] * z,
        m[0][1] * x + m[1][1] * y + m[2][1] * z,
        m[0][2] * x + m[1][2] * y + m[2][2] * z,
    ];
    let normalized = match exporter {
        Exporter::Blender34 => normalize(v),
        Exporter::Blender45 | Exporter::Blender50 => normalize_dividing(v),
    };
    normalized.unwrap_or([0.0; 3])
}

/// Blender 4.1+'s `math::normalize`: divided by the length; `None` for a
/// vector too short (or NaN).
pub(super) fn normalize_dividing(v: [f32; 3]) -> Option<[f32; 3]> {
    let d = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
    (d > 1.0e-35).then(|| {
        let length = d.sqrt();
        [v[0] / length, v[1] / length, v[2] / length]
    })
}

/// `a · b`, summed left to right (Blender's `dot_v3v3` and `math::dot`).
pub(super) fn dot(a: [f32; 3], b: [f32; 3]) -> f32 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

/// `a × b` (Blender's `math::cross`).
pub(super) fn cross(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

pub(super) fn add(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}

pub(super) fn sub(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

pub(super) fn scale(a: [f32; 3], s: f32) -> [f32; 3] {
    [a[0] * s, a[1] * s, a[2] * s]
}

/// Blender's `normalize_v3`: multiplied by the reciprocal of the length;
/// `None` for a vector too short to normalize (Blender then zeroes it).
pub(super) fn normalize(v: [f32; 3]) -> Option<[f32; 3]> {
    let d = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
    (d > 1.0e-35).then(|| {
        let inv = 1.0f32 / d.sqrt();
        [v[0] * inv, v[1] * inv, v[2] * inv]
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::blender::{NormalSource, corner_normals};
    use crate::pipeline::Pipeline;

    #[test]
    fn identity_transforms_keep_values() {
        let identity: Matrix4 = [
            [1.0, 0.0, 0.0, 0.0],
            [0.0, 1.0, 0.0, 0.0],
            [0.0, 0.0, 1.0, 0.0],
            [0.0, 0.0, 0.0, 1.0],
        ];
        let axes: Matrix3 = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
        let m = world_and_axes_transform(&axes, &identity);
        assert_eq!(
            transform_positions(&[[1.5, -2.0, 3.25]], &m, 1.0),
            vec![[1.5, -2.0, 3.25]]
        );
        let n = normal_transform(&m, Exporter::Blender34);
        let (normals, indices) = corner_normals(
            NormalSource::Corners(&[[0.0, 0.0, 2.0], [0.0, 0.0, 1.0], [1.0, 0.0, 0.0]]),
            &[0, 1, 0],
            None,
            2,
            &n,
            &Pipeline::new(None).unwrap(),
        )
        .unwrap();
        assert_eq!(normals.len(), 2);
        assert_eq!(indices, vec![0, 0, 1]);
    }

    #[test]
    fn blender_4_normal_transforms_invert_as_eigen_does() {
        let m: Matrix4 = [
            [0.3, -1.2, 0.4, 0.0],
            [0.9, 0.2, -0.7, 0.0],
            [-0.5, 0.6, 1.1, 0.0],
            [4.0, 5.0, 6.0, 1.0],
        ];
        for exporter in [Exporter::Blender34, Exporter::Blender45] {
            let n = normal_transform(&m, exporter);
            // The inverse transpose: n^T · m (3×3) is the identity.
            for (i, row) in n.iter().enumerate() {
                for (j, column) in m.iter().take(3).enumerate() {
                    let dot: f32 = (0..3).map(|k| row[k] * column[k]).sum();
                    let want = if i == j { 1.0 } else { 0.0 };
                    assert!((dot - want).abs() < 1e-5, "{exporter:?} {i} {j} {dot}");
                }
            }
        }
        // A singular block: Eigen's check fails and Blender 4.1+ zeroes it.
        let flat: Matrix4 = [
            [1.0, 0.0, 0.0, 0.0],
            [0.0, 1.0, 0.0, 0.0],
            [0.0, 0.0, 0.0, 0.0],
            [0.0, 0.0, 0.0, 1.0],
        ];
        assert_eq!(normal_transform(&flat, Exporter::Blender45), [[0.0; 3]; 3]);
        // Scale folded into the matrix: 2 × (x·m + t), up to rounding.
        let scaled = scaled_transform(&m, 2.0);
        let p = transform_positions(&[[1.0, 2.0, 3.0]], &scaled, 1.0)[0];
        let q = transform_positions(&[[1.0, 2.0, 3.0]], &m, 2.0)[0];
        for (a, b) in p.iter().zip(q) {
            assert!((a - b).abs() < 1e-5);
        }
        assert_eq!(scaled[3][3], 1.0);
    }
}
