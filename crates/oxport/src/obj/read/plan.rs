//! Pass 2, on one thread: the objects and the runs of faces each owns in
//! each block ("segments"), from the state statements alone, and so the
//! final size of every array.

use std::collections::HashMap;
use std::ops::Range;

use crate::{Error, Result};

use super::{Located, ObjectRule};

use super::block::{Block, Elements, Event, Kind, Layout, Span, layout_of};
use super::curves::{Nurbs, PlannedCurve, blender_group};

/// The state a face takes from the statements before it.
#[derive(Clone, Default)]
pub(super) struct State {
    pub(super) smooth: Option<u32>,
    pub(super) material: Option<String>,
    pub(super) group: Option<String>,
    /// By Blender's rule, the group's index in the list of the object where
    /// its `g` came: an `o` ends the group's name but not this index, which
    /// the next object's first faces take (in its own list).
    pub(super) group_index: Option<u32>,
}

/// A run of one object's faces and lines in one block, with their state.
pub(super) struct Segment {
    pub(super) block: usize,
    pub(super) faces: Range<usize>,
    /// Only the faces of this layout (UVs, normals), where the run mixes them.
    pub(super) only: Option<Layout>,
    pub(super) lines: Range<usize>,
    /// The smooth group of its faces before the block's first `s`.
    pub(super) smooth: Option<u32>,
    pub(super) material: Option<u32>,
    pub(super) group: Option<u32>,
    /// How many faces it gives (of `only`'s layout), where its corners and
    /// edges start in the mesh's arrays, and how many.
    pub(super) face_count: usize,
    pub(super) first_corner: usize,
    pub(super) corners: usize,
    pub(super) first_edge: usize,
    pub(super) edges: usize,
    /// Where its `p` statements' points start in the mesh's, and how many.
    pub(super) first_point: usize,
    pub(super) points: usize,
}

/// A mesh as the statements give it: an object, or the part of an object
/// whose faces have another layout than its first faces (a mesh has one).
#[derive(Default)]
pub(super) struct Plan {
    pub(super) name: String,
    /// The global indices of the first and one past the last position, UV
    /// and normal it owns.
    pub(super) first: [usize; 3],
    pub(super) end: [usize; 3],
    pub(super) segments: Vec<Segment>,
    pub(super) faces: usize,
    pub(super) corners: usize,
    pub(super) edges: usize,
    pub(super) points: usize,
    pub(super) layout: Option<Layout>,
    pub(super) smooth: bool,
    pub(super) materials: Names,
    pub(super) material: bool,
    pub(super) groups: Names,
    pub(super) group: bool,
}

/// The object being planned: its name, where its elements start, and its
/// meshes (one per layout of its faces, in order of appearance); by
/// Blender's rule, the curve statements given while it is current, and
/// whether a `cstype` made it a curve.
#[derive(Default)]
pub(super) struct Object {
    pub(super) name: String,
    pub(super) first: [usize; 3],
    pub(super) parts: Vec<Plan>,
    pub(super) nurbs: Nurbs,
    pub(super) curve: Option<CurveStart>,
}

/// What a curve object takes from its `cstype`.
pub(super) struct CurveStart {
    group: String,
    rational: bool,
    plans_before: usize,
}

/// The free-form curves planned, in file order, and (by the plain rule) the
/// one the curve statements go to; by Blender's rule, how many faces and
/// lines went to a curve object, which Blender's importer drops.
#[derive(Default)]
pub(super) struct FreeForm {
    pub(super) curves: Vec<PlannedCurve>,
    open: Option<PlannedCurve>,
    /// (The statements before the first `cstype`, by the plain rule.)
    scratch: Nurbs,
    pub(super) dropped: usize,
}

impl Object {
    /// Whether it has neither faces nor lines.
    fn is_empty(&self) -> bool {
        self.parts.iter().all(|p| p.segments.is_empty())
    }

    /// The first part, its layout extended to `layout`: one mesh for faces
    /// of every layout (Blender's rule).
    fn whole(&mut self, layout: Layout) -> &mut Plan {
        let part = self.part(None);
        part.layout = Some(part.layout.map_or(layout, |own| own.union(layout)));
        part
    }

    /// The part for faces of `layout` (`None`: lines, which go to the first).
    pub(super) fn part(&mut self, layout: Option<Layout>) -> &mut Plan {
        let found = self.parts.iter().position(|p| match (p.layout, layout) {
            (_, None) | (None, _) => true,
            (Some(a), Some(b)) => a == b,
        });
        let i = found.unwrap_or_else(|| {
            self.parts.push(Plan::default());
            self.parts.len() - 1
        });
        let part = &mut self.parts[i];
        if part.layout.is_none() {
            part.layout = layout;
        }
        part
    }
}

/// Names in first-use order, and their indices.
#[derive(Default)]
pub(super) struct Names {
    pub(super) names: Vec<String>,
    pub(super) index: HashMap<String, u32>,
}

impl Names {
    pub(super) fn index(&mut self, name: &str) -> u32 {
        if let Some(&i) = self.index.get(name) {
            return i;
        }
        self.names.push(name.to_owned());
        let i = (self.names.len() - 1) as u32;
        self.index.insert(name.to_owned(), i);
        i
    }
}

/// An object's index arrays, filled by its segments.
pub(super) struct Arrays {
    pub(super) face_offsets: Vec<u32>,
    pub(super) position_indices: Vec<u32>,
    pub(super) uv_indices: Option<Vec<u32>>,
    pub(super) normal_indices: Option<Vec<u32>>,
    pub(super) smooth: Option<Vec<u32>>,
    pub(super) material_indices: Option<Vec<u32>>,
    pub(super) group_indices: Option<Vec<u32>>,
    pub(super) edges: Vec<[u32; 2]>,
    pub(super) points: Vec<u32>,
}

/// Pass 2: the objects and their segments, from the marks alone, by `rule`;
/// faces have normals unless `normals` is false ([`layout_of`]).
pub(super) fn plan(
    blocks: &[Block],
    elements: &Elements,
    rule: ObjectRule,
    normals: bool,
    mtllibs: &mut Vec<String>,
    free_form: &mut FreeForm,
) -> Located<(Vec<Plan>, Vec<Arrays>)> {
    let offsets = &elements.offsets;
    let mut plans = Vec::new();
    let mut object = Object::default();
    let mut state = State::default();
    let mut smooth = None;
    // (Blender's rule: an object's faces of every layout in one mesh.)
    let merge = rule.is_blender();
    for (b, block) in blocks.iter().enumerate() {
        let (mut face, mut line) = (0, 0);
        // The smooth group the block starts with (its `s` are per face).
        state.smooth = smooth;
        for (s, span) in block.spans.iter().enumerate() {
            let mark = block.marks.get(s);
            let face_end = mark.map_or(block.faces.len() - 1, |m| m.faces as usize);
            let line_end = mark.map_or(block.lines.len() - 1, |m| m.lines as usize);
            let faces = face..face_end;
            if object.curve.is_some() {
                // (Blender's importer gives them to the curve, which has no use for them.)
                free_form.dropped += faces.len() + (line_end - line);
            } else {
                add_faces(&mut object, block, b, faces, span, &state, normals, merge)
                    .map_err(|e| (b, e))?;
                add_lines(&mut object, block, b, line..line_end);
            }
            (face, line) = (face_end, line_end);
            let Some(mark) = mark else { continue };
            let here = Kind::ALL.map(|k| offsets[b][k as usize] + mark.counts[k as usize] as usize);
            let starts = match &mark.event {
                Event::Object(name) if rule.starts_object(b"o") => Some(name),
                Event::Group(name) if rule.starts_object(b"g") => Some(name),
                _ => None,
            };
            if let Some(name) = starts {
                if rule.is_blender() && object.is_empty() && object.curve.is_none() {
                    // Blender renames an object that has neither faces nor lines.
                    object.name = name.clone();
                } else {
                    let done = std::mem::take(&mut object);
                    finish(done, here, &mut plans, free_form);
                    object.name = match name.is_empty() && rule.is_blender() {
                        // (Blender's name for a new object the statement leaves unnamed.)
                        true => "New object".to_string(),
                        false => name.clone(),
                    };
                    object.first = here;
                }
            }
            match &mark.event {
                // Blender's `o` ends the group's name, not its index.
                Event::Object(_) if rule.is_blender() && starts.is_some() => {
                    state.group = None;
                }
                Event::Object(_) => {}
                Event::Group(name) => {
                    if rule.is_blender() {
                        state.group_index = Some(object.part(None).groups.index(name));
                    }
                    state.group = Some(name.clone());
                }
                Event::Material(name) => {
                    // Blender gives the object a slot for each material named
                    // while it is current.
                    if rule.is_blender() {
                        object.part(None).materials.index(name);
                    }
                    state.material = Some(name.clone());
                }
                Event::MtlLib(text) => mtllibs.push(text.clone()),
                Event::CurveType { rational } if rule.is_blender() => {
                    let group = blender_group(state.group.as_deref().unwrap_or_default());
                    let start = CurveStart {
                        group: group.to_owned(),
                        rational: *rational,
                        plans_before: plans.len(),
                    };
                    if object.is_empty() && object.curve.is_none() {
                        // An object of positions alone becomes the curve, its
                        // statements so far the curve's (Blender's importer).
                        object.curve = Some(start);
                    } else {
                        let done = std::mem::take(&mut object);
                        finish(done, here, &mut plans, free_form);
                        object.name = match group.is_empty() {
                            true => "New object".to_owned(),
                            false => group.to_owned(),
                        };
                        object.first = here;
                        object.curve = Some(CurveStart {
                            plans_before: plans.len(),
                            ..start
                        });
                    }
                }
                Event::CurveType { rational } => {
                    free_form.curves.extend(free_form.open.take());
                    let group = state.group.clone().unwrap_or_default();
                    free_form.open = Some(PlannedCurve {
                        name: if group.is_empty() {
                            object.name.clone()
                        } else {
                            group.clone()
                        },
                        group,
                        rational: *rational,
                        nurbs: Nurbs::default(),
                        plans_before: plans.len(),
                    });
                }
                Event::OtherCurve => free_form.curves.extend(free_form.open.take()),
                Event::Degree(degree) => nurbs(&mut object, free_form, rule).degree = *degree,
                Event::Curve {
                    range,
                    points,
                    line,
                } => {
                    let declared = here[Kind::Position as usize];
                    nurbs(&mut object, free_form, rule)
                        .add_points(*range, points, declared, b, *line);
                }
                Event::Knots(knots) => nurbs(&mut object, free_form, rule).knots.extend(knots),
            }
        }
        smooth = block.smooth_now.or(smooth);
    }
    finish(object, elements.sizes(), &mut plans, free_form);
    free_form.curves.extend(free_form.open.take());
    let arrays = plans
        .iter()
        .map(|plan| {
            // No faces is `[0]`, one way only.
            let face_offsets = vec![0; plan.faces + 1];
            let per_face = |kept: bool| kept.then(|| vec![0; plan.faces]);
            let per_corner = |kept: bool| kept.then(|| vec![0; plan.corners]);
            let layout = plan.layout.unwrap_or_default();
            Arrays {
                face_offsets,
                position_indices: vec![0; plan.corners],
                uv_indices: per_corner(layout.uvs),
                normal_indices: per_corner(layout.normals),
                smooth: per_face(plan.smooth),
                material_indices: per_face(plan.material),
                group_indices: per_face(plan.group),
                edges: vec![[0; 2]; plan.edges],
                points: vec![0; plan.points],
            }
        })
        .collect();
    Ok((plans, arrays))
}

/// The faces of one layout in a run: how many, their corners, whether some
/// face has a smooth group.
struct Run {
    layout: Layout,
    faces: usize,
    corners: usize,
    any_smooth: bool,
}

/// A run of faces in one state: to the object's part of their layout, split
/// by layout where the run mixes them (read again face by face; rare), or,
/// with `merge`, to its one part, whose corners without UVs or normals get
/// [`super::block::ABSENT`] (Blender's rule).
#[allow(clippy::too_many_arguments)]
pub(super) fn add_faces(
    object: &mut Object,
    block: &Block,
    b: usize,
    faces: Range<usize>,
    span: &Span,
    state: &State,
    normals: bool,
    merge: bool,
) -> Result<()> {
    if faces.is_empty() {
        return Ok(());
    }
    let mixed = !merge && span.layouts.count_ones() > 1;
    // A face has a smooth group if it comes after the block's first `s`, or
    // before it with a group the block starts with.
    let smooth = |f: usize| f >= block.smooth_from || state.smooth.is_some();
    let mut runs: Vec<Run> = Vec::new();
    if mixed {
        for f in faces.clone() {
            let layout = layout_of(block, f, normals);
            let corners = (block.faces[f + 1] - block.faces[f]) as usize;
            match runs.iter_mut().find(|r| r.layout == layout) {
                Some(run) => {
                    run.faces += 1;
                    run.corners += corners;
                    run.any_smooth |= smooth(f);
                }
                None => runs.push(Run {
                    layout,
                    faces: 1,
                    corners,
                    any_smooth: smooth(f),
                }),
            }
        }
    } else {
        runs.push(Run {
            layout: match merge {
                // (Blender's importer gives every face normals, zeros where
                // it has none, when the file has some.)
                true => Layout {
                    uvs: span.has_uvs(),
                    normals,
                },
                false => layout_of(block, faces.start, normals),
            },
            faces: faces.len(),
            corners: (block.faces[faces.end] - block.faces[faces.start]) as usize,
            any_smooth: smooth(faces.start) || smooth(faces.end - 1),
        });
    }
    for run in runs {
        let Run {
            layout,
            faces: count,
            corners,
            any_smooth,
        } = run;
        let part = match merge {
            true => object.whole(layout),
            false => object.part(Some(layout)),
        };
        let material = state.material.as_deref().map(|m| part.materials.index(m));
        // (Blender's index is into the list of the object's first part.)
        let group = state
            .group_index
            .or_else(|| state.group.as_deref().map(|g| part.groups.index(g)));
        part.smooth |= any_smooth;
        part.material |= material.is_some();
        part.group |= group.is_some();
        part.segments.push(Segment {
            block: b,
            faces: faces.clone(),
            only: mixed.then_some(layout),
            lines: 0..0,
            smooth: state.smooth,
            material,
            group,
            face_count: count,
            first_corner: part.corners,
            corners,
            first_edge: part.edges,
            edges: 0,
            first_point: part.points,
            points: 0,
        });
        part.faces += count;
        part.corners += corners;
        if part.corners > u32::MAX as usize {
            return Err(Error::Unsupported(
                format!("object {:?} has more than 2^32 face corners", object.name).into(),
            ));
        }
    }
    Ok(())
}

/// A run of `l` lines (and `p` statements): to the object's first part.
pub(super) fn add_lines(object: &mut Object, block: &Block, b: usize, lines: Range<usize>) {
    if lines.is_empty() {
        return;
    }
    let all = (block.lines[lines.end] - block.lines[lines.start]) as usize;
    let (statements, points) = block.point_lines(lines.clone());
    // A line of n points has n - 1 edges; a `p` statement none.
    let edges = all - points - (lines.len() - statements.len());
    let part = object.part(None);
    part.segments.push(Segment {
        block: b,
        faces: 0..0,
        only: None,
        lines,
        smooth: None,
        material: None,
        group: None,
        face_count: 0,
        first_corner: part.corners,
        corners: 0,
        first_edge: part.edges,
        edges,
        first_point: part.points,
        points,
    });
    part.edges += edges;
    part.points += points;
}

/// Where the curve statements go: by Blender's rule, to the current object;
/// else to the curve the last `cstype` started (before the first, to none).
fn nurbs<'a>(
    object: &'a mut Object,
    free_form: &'a mut FreeForm,
    rule: ObjectRule,
) -> &'a mut Nurbs {
    if rule.is_blender() {
        return &mut object.nurbs;
    }
    match &mut free_form.open {
        Some(open) => &mut open.nurbs,
        None => &mut free_form.scratch,
    }
}

/// Keeps an object's meshes: the first owns the object's elements (and is
/// kept if it has any), the others use them as copies. A curve object
/// (Blender's rule) is its curve alone.
pub(super) fn finish(
    object: Object,
    end: [usize; 3],
    plans: &mut Vec<Plan>,
    free_form: &mut FreeForm,
) {
    if let Some(start) = object.curve {
        free_form.curves.push(PlannedCurve {
            name: object.name,
            group: start.group,
            rational: start.rational,
            nurbs: object.nurbs,
            plans_before: start.plans_before,
        });
        return;
    }
    let mut parts = object.parts;
    if parts.is_empty() {
        parts.push(Plan::default());
    }
    for (i, mut part) in parts.into_iter().enumerate() {
        // A group index carried from another object's list past this one's
        // (Blender's rule): no group.
        let groups = part.groups.names.len() as u32;
        for segment in &mut part.segments {
            segment.group = segment.group.filter(|&g| g < groups);
        }
        part.group &= groups > 0;
        part.name = object.name.clone();
        part.first = if i == 0 { object.first } else { end };
        part.end = end;
        // Without faces or lines, a part is kept for its positions (which
        // may be taken out later, if other objects use them).
        if !part.segments.is_empty() || part.first[0] != end[0] {
            plans.push(part);
        }
    }
}
