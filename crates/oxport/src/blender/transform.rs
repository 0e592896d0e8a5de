//! Blender's float32 matrix arithmetic: the same operations in the same
//! order, so that transformed positions and normals are the same bits.

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

/// The inverse transpose of the 3×3 block (`copy_m3_m4`, `invert_m3_m3`,
/// `transpose_m3`): what normals are multiplied by.
pub fn normal_transform(m: &Matrix4) -> Matrix3 {
    let m3: Matrix3 = [
        [m[0][0], m[0][1], m[0][2]],
        [m[1][0], m[1][1], m[1][2]],
        [m[2][0], m[2][1], m[2][2]],
    ];
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
        .map(|&[x, y, z]| {
            [
                (x * m[0][0] + y * m[1][0] + m[2][0] * z + m[3][0]) * scale,
                (x * m[0][1] + y * m[1][1] + m[2][1] * z + m[3][1]) * scale,
                (x * m[0][2] + y * m[1][2] + m[2][2] * z + m[3][2]) * scale,
            ]
        })
        .collect()
}

/// `mul_m3_v3` then `normalize_v3`.
pub(super) fn transform_normal(m: &Matrix3, [x, y, z]: [f32; 3]) -> [f32; 3] {
    let v = [
        m[0][0] * x + m[1][0] * y + m[2][0] * z,
        m[0][1] * x + m[1][1] * y + m[2][1] * z,
        m[0][2] * x + m[1][2] * y + m[2][2] * z,
    ];
    normalize(v).unwrap_or([0.0; 3])
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
        let n = normal_transform(&m);
        let (normals, indices) = corner_normals(
            NormalSource::Corners(&[[0.0, 0.0, 2.0], [0.0, 0.0, 1.0], [1.0, 0.0, 0.0]]),
            &[0, 1, 0],
            None,
            2,
            &n,
        )
        .unwrap();
        assert_eq!(normals.len(), 2);
        assert_eq!(indices, vec![0, 0, 1]);
    }
}
