//! NURBS curves as Blender 3.4's exporter writes them ("curves as NURBS"):
//! control points placed with its float arithmetic, the curve's control
//! indices wrapping around for cyclic splines, and its evenly spaced knots
//! clamped at the ends of endpoint splines.

use crate::mesh::Curve;

use super::{Matrix4, transform_positions};

/// One NURBS spline of a Blender curve object (`Curve.splines[]`).
#[derive(Clone, Debug, Default)]
pub struct NurbsSpline<'a> {
    /// `points[].co` without the weight.
    pub points: &'a [[f32; 3]],
    /// `order_u`: the degree is one less.
    pub order: u32,
    /// `use_cyclic_u`
    pub cyclic: bool,
    /// `use_endpoint_u`
    pub endpoint: bool,
}

/// The curves Blender's exporter writes for a NURBS curve object `name`, its
/// points transformed by `transform` (see [`super::world_and_axes_transform`])
/// and `scale`: one per spline.
pub fn nurbs_curves(
    name: &str,
    splines: &[NurbsSpline],
    transform: &Matrix4,
    scale: f32,
) -> Vec<Curve> {
    splines
        .iter()
        .map(|spline| {
            let count = spline.points.len() as u64;
            let degree = spline.order.saturating_sub(1);
            let controls = count + if spline.cyclic { u64::from(degree) } else { 0 };
            let endpoint = spline.endpoint && !spline.cyclic;
            let knots = controls + 3;
            let parameters = (1..knots)
                .map(|i| {
                    if endpoint && i <= u64::from(degree) {
                        0.0
                    } else if endpoint && i > controls + 2 - u64::from(degree).min(controls + 2) {
                        1.0
                    } else {
                        // Blender divides in float.
                        i as f32 / knots as f32
                    }
                })
                .collect();
            Curve {
                name: name.to_string(),
                points: transform_positions(spline.points, transform, scale),
                degree,
                // Relative indices, back from the last point written.
                controls: (0..controls)
                    .map(|i| -((i % count.max(1)) as i64 + 1))
                    .collect(),
                parameters,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const IDENTITY: Matrix4 = [
        [1.0, 0.0, 0.0, 0.0],
        [0.0, 1.0, 0.0, 0.0],
        [0.0, 0.0, 1.0, 0.0],
        [0.0, 0.0, 0.0, 1.0],
    ];

    #[test]
    fn endpoint_knots_are_clamped_and_cyclic_controls_wrap() {
        let points = [[0.0; 3], [1.0, 0.0, 0.0], [1.0, 1.0, 0.0], [0.0, 1.0, 0.0]];
        let spline = |cyclic, endpoint| NurbsSpline {
            points: &points,
            order: 3,
            cyclic,
            endpoint,
        };
        let [open] = &nurbs_curves("c", &[spline(false, true)], &IDENTITY, 2.0)[..] else {
            panic!()
        };
        assert_eq!(open.degree, 2);
        assert_eq!(open.controls, [-1, -2, -3, -4]);
        assert_eq!(open.parameters, [0.0, 0.0, 3.0 / 7.0, 4.0 / 7.0, 1.0, 1.0]);
        assert_eq!(open.points[1], [2.0, 0.0, 0.0]);
        let [cyclic] = &nurbs_curves("c", &[spline(true, true)], &IDENTITY, 1.0)[..] else {
            panic!()
        };
        assert_eq!(cyclic.controls, [-1, -2, -3, -4, -1, -2]);
        assert_eq!(cyclic.parameters.len(), 8);
        assert!(cyclic.parameters.iter().all(|&p| p > 0.0 && p < 1.0));
    }
}
