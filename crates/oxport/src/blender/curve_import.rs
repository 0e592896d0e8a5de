//! Free-form curves as Blender's importer makes them: one NURBS spline per
//! curve object, its order, flags and control points from the curve's
//! degree, knots and control indices, by each version's rules:
//!
//! | rule | 3.4 | 4.5 | 5.0 |
//! | --- | --- | --- | --- |
//! | order | degree + 1 | degree clamped to 1..points - 1, + 1 | as 4.5 |
//! | weights | 1 | `v x y z w`'s `w` | as 4.5 |
//! | endpoint | the first and last `order` knots 0 and 1 | both ends of multiplicity `order` | or multiplicity 1 beside one of `degree` |
//! | Bézier | never | every inner multiplicity `degree` | as 4.5, not for order 2, the last segment may be short |
//! | custom knots | never | when not uniform, and the spline cyclic or endpoint | when not uniform |
//! | cyclic | never | `close_spline_loops`, the first points repeated at the end, matching spans | as 4.5, clamped ends allowed |
//!
//! The arithmetic is Blender's, in `f32`; where Blender reads past the end
//! of a short knot vector, a missing value counts as no match.

use super::Exporter;

/// The degree, control indices and points, weights and knots of a
/// free-form curve (`crate::obj::FreeFormCurve` holds them as a file gives
/// them).
#[derive(Clone, Copy, Debug)]
pub struct CurveInput<'a> {
    /// The name Blender's importer lists the curve under.
    pub name: &'a str,
    /// The group current at its `cstype`.
    pub group: &'a str,
    /// `deg`
    pub degree: i32,
    /// The control points' indices among the file's positions.
    pub controls: &'a [u32],
    /// The control points.
    pub points: &'a [[f32; 3]],
    /// Their weights (`v x y z w`; 1 where none is given).
    pub weights: &'a [f32],
    /// `parm u`
    pub knots: &'a [f32],
}

/// One NURBS curve object as Blender's importer makes it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ImportedCurve {
    /// The object's (and the curve's) name, after its collections with a
    /// collection separator.
    pub name: String,
    /// With a collection separator, the collections the object is linked
    /// into, outermost first ([`super::collection_path`]).
    pub collections: Vec<String>,
    /// The spline's points: position and weight (`points[].co`).
    pub points: Vec<[f32; 4]>,
    /// `order_u`
    pub order: i32,
    /// `use_cyclic_u`
    pub cyclic: bool,
    /// `use_endpoint_u`
    pub endpoint: bool,
    /// `use_bezier_u`
    pub bezier: bool,
    /// Knots of Blender's custom mode (4.5 and 5.0), which Blender's Python
    /// API does not set: Blender's importer makes such a curve from
    /// [`ImportedCurve::obj`].
    pub custom_knots: Option<Vec<f32>>,
    /// For a curve Blender's Python API cannot make ([`ImportedCurve::by_blender`]),
    /// its OBJ statements ([`curve_obj`]), from which the running Blender's
    /// importer makes it (`crate::blender_obj::import_obj` gives them).
    pub obj: Option<String>,
    /// How many of the file's meshes Blender makes before it.
    pub made_after: usize,
}

/// The curve object Blender's importer (`importer`) makes of `curve`, or
/// `None` where it makes none (4.5 and 5.0: a curve without control
/// points). `close_loops`: `close_spline_loops`.
pub fn imported_curve(
    curve: &CurveInput,
    importer: Exporter,
    close_loops: bool,
    separator: Option<char>,
) -> Option<ImportedCurve> {
    let (collections, own) = match importer {
        Exporter::Blender34 => (Vec::new(), curve.name),
        _ => super::collection_path(curve.name, separator),
    };
    let name = match (own, curve.group) {
        ("", "") => "Untitled",
        ("", group) => group,
        (own, _) => own,
    };
    let mut made = ImportedCurve {
        name: name.to_owned(),
        collections: collections.into_iter().map(str::to_owned).collect(),
        ..ImportedCurve::default()
    };
    let count = curve.controls.len();
    if importer == Exporter::Blender34 {
        let degree = curve.degree;
        made.order = if degree >= i32::from(i16::MAX) {
            4
        } else {
            degree + 1
        };
        made.endpoint = clamped_34(degree, curve.knots);
        made.points = (0..count).map(|i| point(curve, i, false)).collect();
        return Some(made);
    }
    if count == 0 {
        return None;
    }
    // The degree within 1..points - 1, and below the largest order (127).
    let degree = curve.degree.min(count as i32 - 1).max(1);
    let degree = if degree + 1 > 127 { 126 } else { degree };
    let order = degree + 1;
    made.order = order;
    let knots = curve.knots;
    let multiplicity = multiplicity(knots);
    let check_cyclic = close_loops && count as i32 > degree;
    let mut custom;
    let repeated;
    if importer == Exporter::Blender45 {
        let cyclic = check_cyclic && cyclic_45(degree, curve.controls, knots, &multiplicity);
        let bezier = bezier_45(degree, &multiplicity);
        let clamped = !bezier && ends(&multiplicity) == (order, order);
        custom = !bezier && !uniform_45(degree, knots, &multiplicity, clamped);
        made.bezier = bezier;
        made.endpoint = bezier || clamped;
        made.cyclic = cyclic;
        // (Blender drops the custom mode of an open, unclamped spline.)
        custom &= cyclic || made.endpoint;
        repeated = match cyclic {
            true => (order - multiplicity[0]).max(1) as usize,
            false => 0,
        };
    } else {
        let clamped = clamped_50(degree, &multiplicity);
        let bezier = bezier_50(degree, count as i32, &multiplicity);
        custom = !bezier && !uniform_50(degree, knots, &multiplicity, clamped);
        let cyclic = check_cyclic
            && !custom
            && cyclic_50(degree, curve.controls, knots, &multiplicity, clamped);
        made.bezier = bezier;
        made.endpoint = bezier || clamped;
        made.cyclic = cyclic;
        repeated = match cyclic {
            true => repeated_points_50(order, knots) as usize,
            false => 0,
        };
    }
    let kept = count.saturating_sub(repeated);
    made.points = (0..kept).map(|i| point(curve, i, true)).collect();
    made.custom_knots = custom.then(|| knots.to_vec());
    Some(made)
}

impl ImportedCurve {
    /// Blender's Python API cannot make it: custom knots (4.5, 5.0), or an
    /// order the spline's properties clamp (3.4 keeps an order below 2 or
    /// above the number of points).
    pub fn by_blender(&self) -> bool {
        self.custom_knots.is_some() || self.order < 2 || self.order as usize > self.points.len()
    }
}

/// Control point `i` with its weight (`weighted`), else 1.
fn point(curve: &CurveInput, i: usize, weighted: bool) -> [f32; 4] {
    let [x, y, z] = curve.points[i];
    let w = if weighted { curve.weights[i] } else { 1.0 };
    [x, y, z, w]
}

/// The OBJ statements of `curve` from which Blender's importer makes it,
/// named `name`: its control points (each once, with its weight), `cstype`,
/// `deg`, `curv` and `parm u`. For the curves Blender's Python API cannot
/// make ([`ImportedCurve::custom_knots`]).
pub fn curve_obj(curve: &CurveInput, name: &str) -> String {
    use std::fmt::Write;
    let mut text = format!("o {name}\n");
    let mut first: Vec<(u32, usize)> = Vec::new();
    let mut numbers = Vec::with_capacity(curve.controls.len());
    for (i, &control) in curve.controls.iter().enumerate() {
        let number = match first.iter().find(|f| f.0 == control) {
            Some(&(_, n)) => n,
            None => {
                let [x, y, z] = curve.points[i];
                let w = curve.weights[i];
                let _ = match w == 1.0 {
                    true => writeln!(text, "v {x:?} {y:?} {z:?}"),
                    false => writeln!(text, "v {x:?} {y:?} {z:?} {w:?}"),
                };
                first.push((control, first.len() + 1));
                first.len()
            }
        };
        numbers.push(number);
    }
    let rational = curve.weights.iter().any(|&w| w != 1.0);
    let kind = if rational { "rat bspline" } else { "bspline" };
    let _ = writeln!(text, "cstype {kind}\ndeg {}", curve.degree);
    text.push_str("curv 0 1");
    for n in numbers {
        let _ = write!(text, " {n}");
    }
    text.push_str("\nparm u");
    for k in curve.knots {
        let _ = write!(text, " {k:?}");
    }
    text.push_str("\nend\n");
    text
}

/// The lengths of the runs of equal knots (`calculate_multiplicity_sequence`:
/// equal exactly; `[1]` for no knots).
fn multiplicity(knots: &[f32]) -> Vec<i32> {
    let mut runs = Vec::with_capacity(knots.len());
    let mut run = 1;
    for pair in knots.windows(2) {
        if pair[0] == pair[1] {
            run += 1;
        } else {
            runs.push(run);
            run = 1;
        }
    }
    runs.push(run);
    runs
}

/// The first and last multiplicities.
fn ends(multiplicity: &[i32]) -> (i32, i32) {
    (multiplicity[0], multiplicity[multiplicity.len() - 1])
}

/// The multiplicity `from_end` places from the end, 0 where there is none.
fn from_end(multiplicity: &[i32], from_end: usize) -> i32 {
    let len = multiplicity.len();
    if from_end < len {
        multiplicity[len - 1 - from_end]
    } else {
        0
    }
}

/// The multiplicities between the first and the last.
fn inner(multiplicity: &[i32]) -> &[i32] {
    match multiplicity.len() {
        0..=2 => &[],
        n => &multiplicity[1..n - 1],
    }
}

/// 3.4: at least `2 × order` knots, the first `order` within 1e-4 of 0 and
/// the last `order` of 1.
fn clamped_34(degree: i32, knots: &[f32]) -> bool {
    let order = degree as i64 + 1;
    if order < 0 || (knots.len() as i64) < 2 * order {
        return false;
    }
    let order = order as usize;
    let head = knots[..order].iter().all(|k| k.abs() <= 0.0001);
    let tail = knots[knots.len() - order..]
        .iter()
        .all(|k| (k - 1.0).abs() <= 0.0001);
    head && tail
}

/// `knots` without its first `offset`, then without the last `offset` of
/// what is left (Blender's `drop_front(offset).drop_back(offset)`).
fn inside(knots: &[f32], offset: usize) -> &[f32] {
    let rest = &knots[offset.min(knots.len())..];
    &rest[..rest.len().saturating_sub(offset)]
}

/// 4.5: every inner multiplicity `degree`, both ends `order`.
fn bezier_45(degree: i32, multiplicity: &[i32]) -> bool {
    ends(multiplicity) == (degree + 1, degree + 1)
        && inner(multiplicity).iter().all(|&m| m == degree)
}

/// 4.5's uniform test, as Blender 4.5 has it (which calls knots uniform
/// only where no two spans past the first match the first's).
fn uniform_45(degree: i32, knots: &[f32], multiplicity: &[i32], clamped: bool) -> bool {
    let offset = if clamped { degree as i64 } else { 0 };
    if knots.len() as i64 != multiplicity.len() as i64 - 2 * offset {
        return false;
    }
    let unclamped = inside(knots, offset as usize);
    if unclamped.is_empty() {
        return false;
    }
    let Some(&second) = unclamped.get(1) else {
        return true;
    };
    let delta = second - unclamped[0];
    (2..knots.len()).all(|i| ((knots[i] - knots[i - 1]) - delta).abs() >= 1e-7)
}

/// 4.5: the ends of equal multiplicity, at most `order`, the points a
/// cyclic spline repeats equal to its first, and the spans beside the ends
/// matching where they overlap.
fn cyclic_45(degree: i32, controls: &[u32], knots: &[f32], multiplicity: &[i32]) -> bool {
    let order = degree + 1;
    let (first, last) = ends(multiplicity);
    if first != last || first > order {
        return false;
    }
    let repeated = (order - first).max(1) as usize;
    if !repeats_first(controls, repeated) {
        return false;
    }
    if first >= degree {
        return true;
    }
    let tail = &knots[knots.len().saturating_sub((order + degree) as usize)..];
    (0..tail.len().saturating_sub(1)).all(|i| {
        let head = knots[i + 1] - knots[i];
        let end = tail[i + 1] - tail[i];
        (head - end).abs() <= 1e-7
    })
}

/// The last `repeated` controls are the first ones.
fn repeats_first(controls: &[u32], repeated: usize) -> bool {
    let tail = &controls[controls.len().saturating_sub(repeated)..];
    tail.iter().zip(controls).all(|(t, c)| t == c)
}

/// 5.0: each end of multiplicity `order`, or 1 beside one of `degree`.
fn clamped_50(degree: i32, multiplicity: &[i32]) -> bool {
    let order = degree + 1;
    let (first, last) = ends(multiplicity);
    let begin = first == order || (first == 1 && multiplicity.get(1) == Some(&degree));
    let end = last == order || (last == 1 && from_end(multiplicity, 1) == degree);
    begin && end
}

/// 5.0: clamped ends (`order`, or 1 then `degree`), inner multiplicities
/// `degree`, the last segment allowed fewer points; never for order 2.
fn bezier_50(degree: i32, points: i32, multiplicity: &[i32]) -> bool {
    let order = degree + 1;
    if order == 2 {
        return false;
    }
    let second = multiplicity.get(1).copied().unwrap_or(0);
    let (first, last) = ends(multiplicity);
    if first < order && (first != 1 || second < degree) {
        return false;
    }
    if multiplicity.len() == 2 {
        if first != order {
            return false;
        }
    } else {
        let before_last = from_end(multiplicity, 1);
        if last != order && last == 1 && before_last != degree {
            return false;
        }
        let remainder = (points - 1) % degree;
        if last != order + remainder && (last != 1 || before_last < degree) {
            return false;
        }
    }
    inner(multiplicity).iter().all(|&m| m == degree)
}

/// `|b - a| < a × epsilon`
fn almost_equal_relative(a: f32, b: f32, epsilon: f32) -> bool {
    (b - a).abs() < a * epsilon
}

/// 5.0: evenly spaced knots but at clamped ends, more than one span.
fn uniform_50(degree: i32, knots: &[f32], multiplicity: &[i32], clamped: bool) -> bool {
    let (first, last) = ends(multiplicity);
    let ones = i32::from(first == 1) + i32::from(last == 1);
    let offset = if clamped { 2 * degree - ones } else { 0 };
    if knots.len() as i64 != multiplicity.len() as i64 + offset as i64 {
        return false;
    }
    let unclamped = inside(knots, offset.max(0) as usize);
    match unclamped.len() {
        2 => false,
        0 | 1 => true,
        _ => {
            let delta = unclamped[1] - unclamped[0];
            (2..unclamped.len())
                .all(|i| almost_equal_relative(unclamped[i] - unclamped[i - 1], delta, 1e-4))
        }
    }
}

/// 5.0: how many points a cyclic spline repeats: `order` less the
/// multiplicity of the knots after the first.
fn repeated_points_50(order: i32, knots: &[f32]) -> i32 {
    let end = (order as usize).min(knots.len());
    let start = 1.min(end);
    order - multiplicity(&knots[start..end])[0]
}

/// 5.0: the repeated points the first ones, no multiplicity past the
/// ends' limits (`order`) or the inner ones' (`degree`), and unless clamped
/// the spans beside the ends matching.
fn cyclic_50(
    degree: i32,
    controls: &[u32],
    knots: &[f32],
    multiplicity: &[i32],
    clamped: bool,
) -> bool {
    let order = degree + 1;
    let repeated = repeated_points_50(order, knots).max(0) as usize;
    if !repeats_first(controls, repeated) {
        return false;
    }
    let (first, last) = ends(multiplicity);
    if first > order || last > order || inner(multiplicity).iter().any(|&m| m > degree) {
        return false;
    }
    if clamped {
        return true;
    }
    let tail = &knots[knots.len().saturating_sub((2 * degree + 1) as usize)..];
    (0..tail.len().saturating_sub(1)).all(|i| {
        let head = knots[i + 1] - knots[i];
        let end = tail[i + 1] - tail[i];
        almost_equal_relative(head, end, 1e-4)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input<'a>(
        degree: i32,
        controls: &'a [u32],
        points: &'a [[f32; 3]],
        weights: &'a [f32],
        knots: &'a [f32],
    ) -> CurveInput<'a> {
        CurveInput {
            name: "c",
            group: "",
            degree,
            controls,
            points,
            weights,
            knots,
        }
    }

    #[test]
    fn multiplicities_are_runs_of_equal_knots() {
        assert_eq!(multiplicity(&[]), vec![1]);
        assert_eq!(multiplicity(&[0.0, 0.0, 1.0, 2.0, 2.0, 2.0]), vec![2, 1, 3]);
    }

    #[test]
    fn each_version_reads_a_clamped_cubic() {
        let controls = [0, 1, 2, 3, 4, 5];
        let points = [[0.0; 3]; 6];
        let weights = [1.0; 6];
        let knots = [0.0, 0.0, 0.0, 0.0, 0.333333, 0.666667, 1.0, 1.0, 1.0, 1.0];
        let curve = input(3, &controls, &points, &weights, &knots);
        for importer in [
            Exporter::Blender34,
            Exporter::Blender45,
            Exporter::Blender50,
        ] {
            let made = imported_curve(&curve, importer, true, None).unwrap();
            assert_eq!(
                (made.order, made.endpoint, made.bezier, made.cyclic),
                (4, true, false, false)
            );
            assert_eq!(made.points.len(), 6);
        }
    }

    #[test]
    fn a_closed_uniform_spline_drops_its_repeated_points() {
        // deg 2, the first two points again at the end, uniform knots.
        let controls = [0, 1, 2, 3, 0, 1];
        let points = [
            [0.0, 0.0, 0.0],
            [1.0, 0.0, 0.0],
            [1.0, 1.0, 0.0],
            [0.0, 1.0, 0.0],
            [0.0, 0.0, 0.0],
            [1.0, 0.0, 0.0],
        ];
        let weights = [0.5, 2.0, 1.0, 1.0, 0.5, 2.0];
        let knots: Vec<f32> = (0..9).map(|k| k as f32).collect();
        let curve = input(2, &controls, &points, &weights, &knots);
        for importer in [Exporter::Blender45, Exporter::Blender50] {
            let made = imported_curve(&curve, importer, true, None).unwrap();
            assert!(made.cyclic, "{importer:?}");
            assert_eq!(made.points.len(), 4);
            assert_eq!(made.points[0], [0.0, 0.0, 0.0, 0.5]);
            let open = imported_curve(&curve, importer, false, None).unwrap();
            assert!(!open.cyclic);
            assert_eq!(open.points.len(), 6);
        }
        let old = imported_curve(&curve, Exporter::Blender34, true, None).unwrap();
        assert!(!old.cyclic);
        assert_eq!(old.points[0][3], 1.0);
    }

    #[test]
    fn bezier_knots_and_custom_knots() {
        let controls: Vec<u32> = (0..7).collect();
        let points = [[0.0; 3]; 7];
        let weights = [1.0; 7];
        let bezier = [0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 2.0, 2.0, 2.0, 2.0];
        let curve = input(3, &controls, &points, &weights, &bezier);
        let made = imported_curve(&curve, Exporter::Blender50, true, None).unwrap();
        assert!(made.bezier && made.endpoint && made.custom_knots.is_none());
        let old = imported_curve(&curve, Exporter::Blender34, true, None).unwrap();
        assert!(!old.bezier && !old.endpoint);
        // Uneven knots: kept as given on 5.0; dropped on 4.5 for an open spline.
        let uneven = [0.0, 0.1, 0.5, 0.7, 1.5, 1.6, 3.0, 4.0];
        let curve = input(2, &controls[..5], &points[..5], &weights[..5], &uneven);
        let made = imported_curve(&curve, Exporter::Blender50, true, None).unwrap();
        assert_eq!(made.custom_knots.as_deref(), Some(&uneven[..]));
        let made = imported_curve(&curve, Exporter::Blender45, true, None).unwrap();
        assert_eq!(made.custom_knots, None);
        assert!(curve_obj(&curve, "c").contains("parm u 0.0 0.1 0.5 0.7 1.5 1.6 3.0 4.0\n"));
    }

    #[test]
    fn degrees_are_clamped_from_4_5_and_names_fall_back() {
        let controls = [0, 1, 2];
        let points = [[0.0; 3]; 3];
        let weights = [1.0; 3];
        let knots: Vec<f32> = (0..9).map(|k| k as f32).collect();
        let mut curve = input(5, &controls, &points, &weights, &knots);
        curve.name = "";
        assert_eq!(
            imported_curve(&curve, Exporter::Blender34, true, None)
                .unwrap()
                .order,
            6
        );
        let made = imported_curve(&curve, Exporter::Blender50, true, None).unwrap();
        assert_eq!((made.order, made.name.as_str()), (3, "Untitled"));
        curve.group = "Grp";
        assert_eq!(
            imported_curve(&curve, Exporter::Blender45, true, None)
                .unwrap()
                .name,
            "Grp"
        );
        curve.controls = &[];
        assert_eq!(
            imported_curve(&curve, Exporter::Blender45, true, None),
            None
        );
    }
}
