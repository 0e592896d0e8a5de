//! NURBS curves as Blender's exporters write them ("curves as NURBS"):
//! control points placed with the exporter's float arithmetic, control
//! indices wrapping around for cyclic splines, and the knots:
//!
//! - 3.4: evenly spaced from 0 to 1, clamped at the ends of endpoint splines;
//! - 4.5: Blender's own knot vector (`bke::curves::nurbs::calculate_knots`,
//!   from the spline's endpoint and Bézier flags), with the range of the
//!   parameter its inner knots span;
//! - 5.0: that vector cut to the knots of valid spans (the control points
//!   whose knots span nothing are left out), the points written after
//!   `deg`, the scale folded into the matrix.

use crate::mesh::Curve;
use crate::{Error, Result};

use super::{Exporter, Matrix4, scaled_transform, transform_positions};

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
    /// `use_bezier_u`
    pub bezier: bool,
}

/// The largest `order_u` Blender allows.
pub const MAX_ORDER: u32 = 64;

/// The curves `exporter` writes for a NURBS curve object `name`, its points
/// transformed by `transform` (see [`super::world_and_axes_transform`]) and
/// `scale`: one per spline. An order outside `1..=MAX_ORDER` is refused.
pub fn nurbs_curves(
    name: &str,
    splines: &[NurbsSpline],
    transform: &Matrix4,
    scale: f32,
    exporter: Exporter,
) -> Result<Vec<Curve>> {
    splines
        .iter()
        .enumerate()
        .map(|(i, spline)| {
            if !(1..=MAX_ORDER).contains(&spline.order) {
                return Err(Error::invalid(format!(
                    "{name}: spline {i}: order {} is outside 1..={MAX_ORDER}",
                    spline.order
                )));
            }
            let mut curve = match exporter {
                Exporter::Blender34 => curve_34(spline, transform, scale),
                Exporter::Blender45 => curve_45(spline, transform, scale),
                Exporter::Blender50 => curve_50(spline, transform, scale),
            };
            curve.name = name.to_string();
            Ok(curve)
        })
        .collect()
}

fn degree(spline: &NurbsSpline) -> usize {
    spline.order.saturating_sub(1) as usize
}

/// Relative indices back from the last point written: `-1 -2 ... -n`, then
/// around again for the `extra` controls of a cyclic spline.
fn wrapping_controls(points: usize, controls: usize) -> Vec<i64> {
    (0..controls)
        .map(|i| -((i % points.max(1)) as i64 + 1))
        .collect()
}

/// How many control points the spline's knots run over: a cyclic spline's
/// first `degree` points come again at its end.
fn control_count(spline: &NurbsSpline) -> usize {
    spline.points.len() + if spline.cyclic { degree(spline) } else { 0 }
}

fn curve_34(spline: &NurbsSpline, transform: &Matrix4, scale: f32) -> Curve {
    let degree = degree(spline) as u64;
    let controls = control_count(spline) as u64;
    let endpoint = spline.endpoint && !spline.cyclic;
    let knots = controls + 3;
    // The inner knots, between the ends 0 and 1.
    let inner = (1..knots).map(|i| {
        if endpoint && i <= degree {
            0.0
        } else if endpoint && i > controls + 2 - degree.min(controls + 2) {
            1.0
        } else {
            // Blender divides in float.
            i as f32 / knots as f32
        }
    });
    Curve {
        points: transform_positions(spline.points, transform, scale),
        degree: degree as u32,
        range: [0.0, 1.0],
        controls: wrapping_controls(spline.points.len(), controls as usize),
        knots: std::iter::once(0.0).chain(inner).chain([1.0]).collect(),
        ..Curve::default()
    }
}

fn curve_45(spline: &NurbsSpline, transform: &Matrix4, scale: f32) -> Curve {
    let knots = blender_knots(spline);
    Curve {
        points: transform_positions(spline.points, transform, scale),
        degree: degree(spline) as u32,
        range: knot_range(&knots, degree(spline)),
        controls: wrapping_controls(spline.points.len(), control_count(spline)),
        knots,
        ..Curve::default()
    }
}

fn curve_50(spline: &NurbsSpline, transform: &Matrix4, scale: f32) -> Curve {
    let knots = blender_knots(spline);
    let count = spline.points.len();
    let controls = control_count(spline);
    let (skip_start, skip_end) = valid_span(spline.order as usize, &knots);
    // Knots of Blender's making always leave some; clamped for any others.
    let skip_start = skip_start.min(controls).min(knots.len());
    let skip_end = skip_end
        .min(controls - skip_start)
        .min(knots.len() - skip_start);
    let knots = knots[skip_start..knots.len() - skip_end].to_vec();
    // The controls left, and the points written for them: no point twice.
    let controls = skip_start..controls - skip_end;
    let written = controls.start..controls.end.min(controls.start + count);
    let points: Vec<[f32; 3]> = written.clone().map(|i| spline.points[i % count]).collect();
    let written = written.len();
    Curve {
        points: transform_positions(&points, &scaled_transform(transform, scale), 1.0),
        degree: degree(spline) as u32,
        range: knot_range(&knots, degree(spline)),
        controls: (0..controls.len())
            .map(|i| -((written - i % written.max(1)) as i64))
            .collect(),
        knots,
        ..Curve::default()
    }
}

/// `curv`'s range: the knot `degree` in from each end.
fn knot_range(knots: &[f32], degree: usize) -> [f32; 2] {
    let at = |i: Option<usize>| i.and_then(|i| knots.get(i)).copied().unwrap_or(0.0);
    [at(Some(degree)), at(knots.len().checked_sub(degree + 1))]
}

/// Blender's knot vector for a spline (`calculate_knots`): `points + order`
/// knots (`points + 2·order − 1` when cyclic), counting up by one, the
/// inner ones repeated `order − 1` times for Bézier knots, `order` zeros at
/// the start of endpoint knots, and the end repeating the widths of the
/// start for cyclic and endpoint knots.
fn blender_knots(spline: &NurbsSpline) -> Vec<f32> {
    let order = spline.order as usize;
    let (cyclic, endpoint, bezier) = (spline.cyclic, spline.endpoint, spline.bezier);
    let count = spline.points.len() + if cyclic { 2 * order - 1 } else { order };
    let repeat_inner = if bezier { order - 1 } else { 1 };
    let head = if endpoint {
        order - usize::from(cyclic)
    } else if bezier {
        repeat_inner.min(2)
    } else {
        1
    };
    let tail = if cyclic {
        2 * order - 1
    } else if endpoint {
        order
    } else {
        0
    };
    let mut knots = vec![0.0f32; count];
    let mut current = 0.0f32;
    let offset = usize::from(endpoint && cyclic);
    if offset == 1 {
        current += 1.0;
    }
    let mut left = head;
    for knot in knots.iter_mut().take(count - tail).skip(offset) {
        *knot = current;
        left = left.wrapping_sub(1);
        if left == 0 {
            current += 1.0;
            left = repeat_inner;
        }
    }
    for i in 0..tail {
        knots[count - tail + i] = current + (knots[i] - knots[0]);
    }
    knots
}

/// How many knots (and control points) to leave out at the start and at the
/// end so that the first and last spans are valid (Blender's
/// `valid_nurb_control_point_range`): a knot value repeated more than
/// `order` times at an end contributes no span.
fn valid_span(order: usize, knots: &[f32]) -> (usize, usize) {
    let window = 2 * order;
    if knots.len() < window {
        return (0, 0);
    }
    let left = multiplicities(&knots[..window]);
    let right = multiplicities(&knots[knots.len() - window..]);
    let mut sum = 0;
    let start = left.iter().find_map(|&m| {
        sum += m;
        (sum >= order).then(|| sum - order)
    });
    let mut sum = 0;
    let end = right.iter().rev().find_map(|&m| {
        sum += m;
        (sum >= order).then(|| sum - order)
    });
    (start.unwrap_or(0), end.unwrap_or(0))
}

/// The lengths of the runs of equal knots.
fn multiplicities(knots: &[f32]) -> Vec<usize> {
    let mut runs: Vec<usize> = Vec::new();
    for (i, knot) in knots.iter().enumerate() {
        if i > 0 && knots[i - 1] == *knot {
            *runs.last_mut().expect("a run is open") += 1;
        } else {
            runs.push(1);
        }
    }
    runs
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

    fn spline(points: &[[f32; 3]], order: u32, flags: (bool, bool, bool)) -> NurbsSpline<'_> {
        let (cyclic, endpoint, bezier) = flags;
        NurbsSpline {
            points,
            order,
            cyclic,
            endpoint,
            bezier,
        }
    }

    fn one(spline: NurbsSpline, scale: f32, exporter: Exporter) -> Curve {
        let mut curves = nurbs_curves("c", &[spline], &IDENTITY, scale, exporter).unwrap();
        assert_eq!(curves.len(), 1);
        curves.remove(0)
    }

    #[test]
    fn blender_3_4_knots_are_even_and_clamped_and_cyclic_controls_wrap() {
        let points = [[0.0; 3], [1.0, 0.0, 0.0], [1.0, 1.0, 0.0], [0.0, 1.0, 0.0]];
        let open = one(
            spline(&points, 3, (false, true, false)),
            2.0,
            Exporter::Blender34,
        );
        assert_eq!(open.degree, 2);
        assert_eq!(open.controls, [-1, -2, -3, -4]);
        assert_eq!(
            open.knots,
            [0.0, 0.0, 0.0, 3.0 / 7.0, 4.0 / 7.0, 1.0, 1.0, 1.0]
        );
        assert_eq!(open.points[1], [2.0, 0.0, 0.0]);
        let cyclic = one(
            spline(&points, 3, (true, true, false)),
            1.0,
            Exporter::Blender34,
        );
        assert_eq!(cyclic.controls, [-1, -2, -3, -4, -1, -2]);
        assert_eq!(cyclic.knots.len(), 10);
        let inner = &cyclic.knots[1..9];
        assert!(inner.iter().all(|&p| p > 0.0 && p < 1.0));
        assert_eq!((cyclic.knots[0], cyclic.knots[9]), (0.0, 1.0));
    }

    // The splines of `bpy.ops.curve.primitive_nurbs_path_add`,
    // `primitive_nurbs_circle_add` and `primitive_nurbs_curve_add` with
    // `use_endpoint_u = False`, and what Blender 4.5 and 5.0 write for them.
    const PATH: (u32, (bool, bool, bool)) = (5, (false, true, false));
    const CIRCLE: (u32, (bool, bool, bool)) = (3, (true, true, true));
    const OPEN: (u32, (bool, bool, bool)) = (4, (false, false, false));

    fn points(n: usize) -> Vec<[f32; 3]> {
        (0..n).map(|i| [i as f32, 0.0, 0.0]).collect()
    }

    #[test]
    fn blender_4_5_writes_blenders_knots_and_their_range() {
        let (p5, p8, p4) = (points(5), points(8), points(4));
        let path = one(spline(&p5, PATH.0, PATH.1), 1.0, Exporter::Blender45);
        assert_eq!((path.range, path.degree), ([0.0, 1.0], 4));
        assert_eq!(path.knots, [0., 0., 0., 0., 0., 1., 1., 1., 1., 1.]);
        assert_eq!(path.controls, [-1, -2, -3, -4, -5]);
        let circle = one(spline(&p8, CIRCLE.0, CIRCLE.1), 1.0, Exporter::Blender45);
        assert_eq!(circle.range, [1.0, 5.0]);
        assert_eq!(
            circle.knots,
            [0., 1., 1., 2., 2., 3., 3., 4., 4., 5., 5., 6., 6.]
        );
        assert_eq!(circle.controls, [-1, -2, -3, -4, -5, -6, -7, -8, -1, -2]);
        assert_eq!(circle.points, p8);
        let open = one(spline(&p4, OPEN.0, OPEN.1), 1.0, Exporter::Blender45);
        assert_eq!(open.range, [3.0, 4.0]);
        assert_eq!(open.knots, [0., 1., 2., 3., 4., 5., 6., 7.]);
    }

    #[test]
    fn blender_5_0_writes_the_knots_of_valid_spans() {
        let (p5, p8) = (points(5), points(8));
        let path = one(spline(&p5, PATH.0, PATH.1), 1.0, Exporter::Blender50);
        assert_eq!(path.controls, [-5, -4, -3, -2, -1]);
        assert_eq!(path.knots.len(), 10);
        let circle = one(spline(&p8, CIRCLE.0, CIRCLE.1), 1.0, Exporter::Blender50);
        assert_eq!(circle.range, [1.0, 5.0]);
        assert_eq!(
            circle.knots,
            [0., 1., 1., 2., 2., 3., 3., 4., 4., 5., 5., 6.]
        );
        assert_eq!(circle.controls, [-8, -7, -6, -5, -4, -3, -2, -1, -8]);
        assert_eq!(circle.points, p8, "each point once");
        // Bezier knots of a cyclic spline start with an empty span: its
        // first point is then left out, and the points start at the second.
        let bezier = one(
            spline(&p8, 3, (true, false, true)),
            1.0,
            Exporter::Blender50,
        );
        assert_eq!(bezier.knots[..3], [0.0, 1.0, 1.0]);
        assert_eq!(bezier.points[0], p8[1]);
        assert_eq!(bezier.points[7], p8[0]);
    }

    #[test]
    fn orders_outside_blenders_range_are_refused() {
        let p = points(3);
        for order in [0, MAX_ORDER + 1, u32::MAX] {
            let error = nurbs_curves(
                "c",
                &[spline(&p, order, OPEN.1)],
                &IDENTITY,
                1.0,
                Exporter::Blender50,
            );
            assert!(error.unwrap_err().to_string().contains("outside 1..=64"));
        }
        // Any order in range and any point count, however degenerate, gives curves.
        for order in 1..=8 {
            for n in 0..6 {
                let p = points(n);
                for flags in 0..8 {
                    let flags = (flags & 1 != 0, flags & 2 != 0, flags & 4 != 0);
                    for exporter in [
                        Exporter::Blender34,
                        Exporter::Blender45,
                        Exporter::Blender50,
                    ] {
                        one(spline(&p, order, flags), 1.0, exporter);
                    }
                }
            }
        }
    }
}
