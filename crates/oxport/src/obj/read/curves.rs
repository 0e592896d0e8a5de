//! Free-form curves: what the curve statements (`cstype`, `deg`, `curv`,
//! `parm u`) give, gathered in file order by the plan ([`Nurbs`]), then
//! their control points looked up once every block is parsed.

use serde::{Deserialize, Serialize};

use super::Located;
use super::block::{Block, Elements, Kind, ZERO};
use super::split::parse_error;

/// A free-form B-spline curve of an OBJ file (`cstype bspline` or
/// `cstype rat bspline`, then `deg`, `curv` and `parm u`), its control points
/// looked up.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct FreeFormCurve {
    /// The name of the object it is. By [`super::ObjectRule::Blender`], the
    /// name Blender's importer gives it before it makes the object: that of
    /// an object without faces or lines the `cstype` turned into a curve,
    /// else the group's, else `New object`. Otherwise the group's, else the
    /// object's.
    pub name: String,
    /// The group current at its `cstype` (`g`; empty for none, and, by
    /// Blender's rule, for a group whose name holds `off`, `null` or
    /// `default`).
    pub group: String,
    /// `cstype rat bspline`
    pub rational: bool,
    /// `deg`: the degree as given (0 where none is; by Blender's rule, 3
    /// where `deg` gives no number).
    pub degree: i32,
    /// `curv`'s parameter range (its last `curv`'s; `[0, 1]` where none is).
    pub range: [f32; 2],
    /// The control points' global indices (0-based) among the file's
    /// positions: those of every `curv` line, in order.
    pub controls: Vec<u32>,
    /// The control points.
    pub points: Vec<[f32; 3]>,
    /// Their weights: a `v x y z w` line's `w`, 1 where the line gives none.
    pub weights: Vec<f32>,
    /// The knots: those of every `parm u` line, in order.
    pub knots: Vec<f32>,
    /// How many of the scene's meshes come before it in the file (the order
    /// Blender's importer makes objects in, before it sorts them).
    pub meshes_before: usize,
}

/// A curve's statements, gathered in file order: what Blender's importer
/// keeps per object, which a `cstype` may turn into a curve.
#[derive(Clone, Debug)]
pub(super) struct Nurbs {
    pub(super) degree: i32,
    pub(super) range: [f32; 2],
    /// Global 0-based indices, negative where the file's count back past
    /// the first position (or are 0).
    pub(super) controls: Vec<i64>,
    /// Per `curv` statement, its block and line and its first control's index.
    pub(super) lines: Vec<(usize, u64, usize)>,
    pub(super) knots: Vec<f32>,
}

impl Default for Nurbs {
    fn default() -> Self {
        Nurbs {
            degree: 0,
            range: [0.0, 1.0],
            controls: Vec::new(),
            lines: Vec::new(),
            knots: Vec::new(),
        }
    }
}

impl Nurbs {
    /// A `curv` statement of block `block`, at its `line`, with `declared`
    /// positions before it in the file.
    pub(super) fn add_points(
        &mut self,
        range: [f32; 2],
        points: &[i32],
        declared: usize,
        block: usize,
        line: u64,
    ) {
        self.range = range;
        self.lines.push((block, line, self.controls.len()));
        // (A positive index may point past the positions declared so far:
        // Blender's importer looks them up once the file is read.)
        self.controls.extend(points.iter().map(|&raw| match raw {
            ZERO => -1,
            r if r < 0 => declared as i64 + i64::from(r),
            r => i64::from(r) - 1,
        }));
    }
}

/// A curve as the plan finds it.
pub(super) struct PlannedCurve {
    pub(super) name: String,
    pub(super) group: String,
    pub(super) rational: bool,
    pub(super) nurbs: Nurbs,
    /// How many meshes the plan made before it.
    pub(super) plans_before: usize,
}

/// The warning of curves skipped for a control point out of range.
pub(super) const CURVE_OUT_OF_RANGE: &str =
    "free-form curve with a control point index out of range (or 0) skipped";

/// Curves skipped: the block and line of the first, and how many.
pub(super) struct Skipped {
    pub(super) block: usize,
    pub(super) line: u64,
    pub(super) count: u64,
}

/// The curves with their control points looked up, `kept[m]` saying whether
/// the plan's mesh `m` is among the scene's. A curve with a control point
/// index out of range (or 0) is refused if `strict`, else skipped (the
/// result's second item says where and how many).
pub(super) fn resolve_curves(
    planned: Vec<PlannedCurve>,
    blocks: &[Block],
    elements: &Elements,
    kept: &[bool],
    strict: bool,
) -> Located<(Vec<FreeFormCurve>, Option<Skipped>)> {
    let mut curves = Vec::with_capacity(planned.len());
    let mut skipped: Option<Skipped> = None;
    let total = elements.sizes()[Kind::Position as usize] as i64;
    for curve in planned {
        let PlannedCurve {
            name,
            group,
            rational,
            nurbs,
            plans_before,
        } = curve;
        if let Some(bad) = nurbs.controls.iter().position(|&g| g < 0 || g >= total) {
            // (The `curv` statement of the first.)
            let at = nurbs.lines.partition_point(|l| l.2 <= bad).max(1) - 1;
            let (block, line, _) = nurbs.lines[at];
            if strict {
                let what = "a free-form curve's control point index is out of range (or 0)";
                return Err((block, parse_error(line, what)));
            }
            let first = skipped.get_or_insert(Skipped {
                block,
                line,
                count: 0,
            });
            first.count += 1;
            continue;
        }
        let mut points = Vec::with_capacity(nurbs.controls.len());
        let mut weights = Vec::with_capacity(nurbs.controls.len());
        for &global in &nurbs.controls {
            let (b, i) = elements.find(Kind::Position, global as usize);
            points.push(blocks[b].positions[i]);
            let given = blocks[b].weights.binary_search_by_key(&(i as u32), |w| w.0);
            weights.push(given.map_or(1.0, |at| blocks[b].weights[at].1));
        }
        curves.push(FreeFormCurve {
            name,
            group,
            rational,
            degree: nurbs.degree,
            range: nurbs.range,
            controls: nurbs.controls.iter().map(|&g| g as u32).collect(),
            points,
            weights,
            knots: nurbs.knots,
            meshes_before: kept[..plans_before.min(kept.len())]
                .iter()
                .filter(|&&k| k)
                .count(),
        });
    }
    Ok((curves, skipped))
}

/// The group name Blender's importer gives curves for `g text`: none where
/// the text holds `off`, `null` or `default`.
pub(super) fn blender_group(text: &str) -> &str {
    let none = ["off", "null", "default"].iter().any(|w| text.contains(w));
    if none { "" } else { text }
}
