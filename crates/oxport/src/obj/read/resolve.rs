//! Pass 3a, on all cores: each segment's raw indices resolved straight into
//! its object's index arrays; errors for indices out of range, or (read
//! leniently, as Blender's importer reads) the faces that have one left out.

use crate::Error;
use crate::pipeline::Pipeline;

use super::block::{ABSENT, Block, Counts, Elements, Kind, Reference, ZERO, layout_of};
use super::parse::blender_polyline_points;
use super::plan::{Arrays, Plan, Segment};
use super::split::{parse_error, statements, trim};
use super::{Located, ObjectRule};

/// References from an object to elements outside its own: where in its index
/// arrays (corner, or edge point as `2 * edge + end`) and which global element.
#[derive(Default)]
pub(super) struct Foreign {
    pub(super) positions: Vec<Reference>,
    pub(super) uvs: Vec<Reference>,
    pub(super) normals: Vec<Reference>,
    pub(super) edge_points: Vec<Reference>,
    /// From `p` statements (the slot is the point's index in the mesh's).
    pub(super) points: Vec<Reference>,
    /// Faces with an index out of range, read leniently: their index among
    /// the object's faces, and the first index out of range of each (none
    /// for a face of fewer than 3 corners, by Blender's rule).
    pub(super) skipped: Vec<(usize, Option<OutOfRange>)>,
    /// By Blender's rule, the positions of the faces skipped that its
    /// importer keeps, as loose vertices (global indices).
    pub(super) kept: Vec<usize>,
}

impl Foreign {
    /// A face was skipped for an index out of range (or 0), not only for
    /// being short.
    pub(super) fn skipped_out_of_range(&self) -> bool {
        self.skipped.iter().any(|s| s.1.is_some())
    }
}

/// A segment's share of its object's arrays.
pub(super) struct Task<'a> {
    pub(super) segment: &'a Segment,
    /// The index of the segment's first face among its object's.
    pub(super) first_face: usize,
    pub(super) first: [usize; 3],
    pub(super) end: [usize; 3],
    pub(super) face_offsets: &'a mut [u32],
    pub(super) positions: &'a mut [u32],
    pub(super) uvs: Option<&'a mut [u32]>,
    pub(super) normals: Option<&'a mut [u32]>,
    pub(super) smooth: Option<&'a mut [u32]>,
    pub(super) materials: Option<&'a mut [u32]>,
    pub(super) groups: Option<&'a mut [u32]>,
    pub(super) edges: &'a mut [[u32; 2]],
    pub(super) points: &'a mut [u32],
}

/// The first `n` items of `rest`, which keeps the others.
pub(super) fn take<'a, T>(rest: &mut &'a mut [T], n: usize) -> &'a mut [T] {
    let (head, tail) = std::mem::take(rest).split_at_mut(n);
    *rest = tail;
    head
}

pub(super) fn take_some<'a, T>(rest: &mut Option<&'a mut [T]>, n: usize) -> Option<&'a mut [T]> {
    rest.as_mut().map(|rest| take(rest, n))
}

/// Pass 3a: every segment's indices into its object's arrays, on all cores.
/// Faces with an index out of range are an error if `strict`, else listed
/// in their segment's [`Foreign::skipped`] (their slots hold zeros); faces
/// have normals unless `normals` is false, as [`super::plan`] laid them out.
/// By Blender's rule (`blender`), faces of fewer than 3 corners are skipped
/// too, and the positions of skipped faces Blender's importer keeps are
/// listed in [`Foreign::kept`].
#[allow(clippy::too_many_arguments)]
pub(super) fn resolve(
    pipeline: &Pipeline,
    blocks: &[Block],
    elements: &Elements,
    plans: &[Plan],
    arrays: &mut [Arrays],
    strict: bool,
    normals: bool,
    rule: ObjectRule,
) -> Located<Vec<Foreign>> {
    let blender = rule.is_blender();
    let mut tasks = Vec::new();
    for (plan, arrays) in plans.iter().zip(arrays.iter_mut()) {
        let mut face_offsets = arrays.face_offsets.get_mut(1..).unwrap_or_default();
        let mut positions = &mut arrays.position_indices[..];
        let mut uvs = arrays.uv_indices.as_deref_mut();
        let mut normals = arrays.normal_indices.as_deref_mut();
        let mut smooth = arrays.smooth.as_deref_mut();
        let mut materials = arrays.material_indices.as_deref_mut();
        let mut groups = arrays.group_indices.as_deref_mut();
        let mut edges = &mut arrays.edges[..];
        let mut points = &mut arrays.points[..];
        let mut first_face = 0;
        for segment in &plan.segments {
            let (faces, corners) = (segment.face_count, segment.corners);
            tasks.push(Task {
                segment,
                first_face,
                first: plan.first,
                end: plan.end,
                face_offsets: take(&mut face_offsets, faces),
                positions: take(&mut positions, corners),
                uvs: take_some(&mut uvs, corners),
                normals: take_some(&mut normals, corners),
                smooth: take_some(&mut smooth, faces),
                materials: take_some(&mut materials, faces),
                groups: take_some(&mut groups, faces),
                edges: take(&mut edges, segment.edges),
                points: take(&mut points, segment.points),
            });
            first_face += faces;
        }
    }
    let sizes = elements.sizes();
    let filled = pipeline.map(tasks, |task| {
        let b = task.segment.block;
        let block = &blocks[b];
        fill(
            task,
            block,
            elements.offsets[b],
            sizes,
            strict,
            normals,
            blender,
        )
        .map_err(|error| (b, error))
    });
    let mut found = Vec::with_capacity(filled.len());
    let mut failed: Vec<(usize, OutOfRange)> = Vec::new();
    for result in filled {
        match result {
            Ok(foreign) => found.push(foreign),
            Err(error) => failed.push(error),
        }
    }
    // The file's first error: in the first block with one, the first line
    // (a segment has faces or lines, and an object's parts come one after
    // another: the tasks are not in file order).
    let Some(b) = failed.iter().map(|f| f.0).min() else {
        return Ok(found);
    };
    let candidates: Vec<OutOfRange> = failed
        .into_iter()
        .filter(|f| f.0 == b)
        .map(|f| f.1)
        .collect();
    Err((
        b,
        describe(
            &candidates,
            &blocks[b],
            elements.offsets[b],
            sizes,
            rule,
            strict,
        ),
    ))
}

/// An index out of range in the `nth` `keyword` statement of a block: the
/// raw index and its kind. (Lines are found only for the error reported.)
#[derive(Clone, Copy)]
pub(super) struct OutOfRange {
    pub(super) keyword: &'static [u8],
    pub(super) nth: usize,
    pub(super) raw: i32,
    /// The kind as an index (a `usize`, not [`Kind`]: with an enum the
    /// `Result` of every resolved index costs four times the instructions).
    pub(super) k: usize,
}

/// The error of the first of `candidates` in the block, with its line and
/// what was declared before it (found again by reading the block's
/// statements up to it), read by Blender's rule or not (`blender`), strictly
/// or not: as the parse read them.
#[cold]
pub(super) fn describe(
    candidates: &[OutOfRange],
    block: &Block,
    offset: [usize; 3],
    sizes: [usize; 3],
    rule: ObjectRule,
    strict: bool,
) -> Error {
    // Faces of 1 or 2 corners are faces by Blender's rule read leniently
    // (else lines, or skipped); `p` statements are lines but by its rule.
    // By its rule read leniently an `l` with a first point is a line (from
    // 4.5), and by 3.4's any `l` is (its first edge).
    let blender = rule.is_blender();
    let short_faces = blender && !strict;
    let any_line = short_faces && !rule.whole_lines();
    let mut declared = [0usize; 3];
    let (mut faces, mut lines) = (0, 0);
    for (number, line) in statements(block.text) {
        let line = trim(&line);
        let mut words = line
            .split(|b| b.is_ascii_whitespace())
            .filter(|w| !w.is_empty());
        let word = words.next().unwrap_or_default();
        // As the parse reads them: a face of 2 corners is a line; faces of
        // fewer corners and lines of fewer points are skipped.
        let (keyword, nth): (&[u8], _) = match (word, words.count()) {
            (b"v" | b"vt" | b"vn", _) => {
                let kind = match word {
                    b"v" => Kind::Position,
                    b"vt" => Kind::Uv,
                    _ => Kind::Normal,
                };
                declared[kind as usize] += 1;
                continue;
            }
            (b"f", 3..) => (b"f", &mut faces),
            (b"f", 1..=2) if short_faces => (b"f", &mut faces),
            (b"l", _) if any_line => (b"l", &mut lines),
            (b"l", _) if short_faces => {
                match blender_polyline_points(&line[word.len()..]).is_empty() {
                    true => continue,
                    false => (b"l", &mut lines),
                }
            }
            (b"f" | b"l", 2) | (b"l", 3..) => (b"l", &mut lines),
            (b"p", 1..) if !blender => (b"l", &mut lines),
            _ => continue,
        };
        if let Some(error) = candidates
            .iter()
            .find(|c| c.keyword == keyword && c.nth == *nth)
        {
            if error.raw == ZERO {
                return parse_error(number, "index 0 (indices start at 1)");
            }
            let k = error.k;
            return parse_error(
                number,
                format!(
                    "{} index {} is out of range ({} declared before this line, {} in the file)",
                    Kind::ALL[k].name(),
                    error.raw,
                    offset[k] + declared[k],
                    sizes[k]
                ),
            );
        }
        *nth += 1;
    }
    unreachable_error()
}

/// An error that names no line: for a statement [`describe`] did not find
/// again (which would be a bug: it reads what the parse read).
#[cold]
fn unreachable_error() -> Error {
    Error::Internal("an index out of range whose statement was not found again".into())
}

/// Turns a block's raw indices into an object's local ones.
pub(super) struct Resolver {
    /// The global index of the block's first elements, and the totals.
    pub(super) offset: [usize; 3],
    pub(super) sizes: [usize; 3],
    /// The object's own elements.
    pub(super) first: [usize; 3],
    pub(super) end: [usize; 3],
}

impl Resolver {
    /// The global index of a raw one (None: out of range, or 0); `counts`
    /// are the elements declared before its statement, which a negative one
    /// counts back from, and which a positive one must be among where
    /// `declared_first` (Blender's rule for faces).
    #[inline]
    pub(super) fn global(
        &self,
        raw: i32,
        kind: Kind,
        counts: &Counts,
        declared_first: bool,
    ) -> Option<usize> {
        let k = kind as usize;
        let declared = self.offset[k] + counts[k] as usize;
        if raw == ZERO {
            None
        } else if raw > 0 {
            let g = raw as usize - 1;
            let limit = if declared_first {
                declared
            } else {
                self.sizes[k]
            };
            (g < limit).then_some(g)
        } else {
            declared.checked_sub(raw.unsigned_abs() as usize)
        }
    }

    /// The local index of a raw index of kind `kind` (a placeholder for an
    /// element outside the object, listed in `foreign` with its `slot`), or
    /// the error of the `nth` `keyword` statement of the block.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub(super) fn local(
        &self,
        raw: i32,
        kind: Kind,
        counts: &Counts,
        declared_first: bool,
        slot: usize,
        foreign: &mut Vec<Reference>,
        keyword: &'static [u8],
        nth: usize,
    ) -> std::result::Result<u32, OutOfRange> {
        let k = kind as usize;
        let Some(g) = self.global(raw, kind, counts, declared_first) else {
            return Err(OutOfRange {
                keyword,
                nth,
                raw,
                k,
            });
        };
        if (self.first[k]..self.end[k]).contains(&g) {
            Ok((g - self.first[k]) as u32)
        } else {
            foreign.push(Reference { slot, element: g });
            Ok(0)
        }
    }
}

pub(super) fn fill(
    task: Task,
    block: &Block,
    offset: [usize; 3],
    sizes: [usize; 3],
    strict: bool,
    with_normals: bool,
    blender: bool,
) -> std::result::Result<Foreign, OutOfRange> {
    let Task {
        segment,
        first_face,
        first,
        end,
        face_offsets,
        positions,
        mut uvs,
        mut normals,
        mut smooth,
        materials,
        groups,
        edges,
        points: point_slots,
    } = task;
    let resolver = Resolver {
        offset,
        sizes,
        first,
        end,
    };
    let mut foreign = Foreign::default();
    // (By Blender's rule a face names only the elements declared before it.)
    let mut before = block.declared_from_face(segment.faces.start);
    let mut slot = 0;
    let faces = segment.faces.clone();
    let kept = faces.filter(|&f| {
        segment
            .only
            .is_none_or(|only| layout_of(block, f, with_normals) == only)
    });
    for (i, f) in kept.enumerate() {
        let counts = before.counts(f);
        let corners = &block.corners[block.faces[f] as usize..block.faces[f + 1] as usize];
        let face_start = slot;
        let marks = [
            foreign.positions.len(),
            foreign.uvs.len(),
            foreign.normals.len(),
        ];
        let mut resolve_corners = || -> std::result::Result<(), OutOfRange> {
            for c in corners {
                let at = segment.first_corner + slot;
                positions[slot] = resolver.local(
                    c[0],
                    Kind::Position,
                    counts,
                    blender,
                    at,
                    &mut foreign.positions,
                    b"f",
                    f,
                )?;
                // (A corner without one, where others have them: ABSENT.)
                let attribute = |raw: i32, kind, foreign: &mut Vec<Reference>| match raw {
                    0 => Ok(ABSENT),
                    raw => resolver.local(raw, kind, counts, blender, at, foreign, b"f", f),
                };
                if let Some(uvs) = uvs.as_deref_mut() {
                    uvs[slot] = attribute(c[1], Kind::Uv, &mut foreign.uvs)?;
                }
                if let Some(normals) = normals.as_deref_mut() {
                    normals[slot] = attribute(c[2], Kind::Normal, &mut foreign.normals)?;
                }
                slot += 1;
            }
            Ok(())
        };
        // (Blender's importer skips faces of fewer than 3 corners.)
        let short = blender && corners.len() < 3;
        let resolved = match short {
            true => Err(None),
            false => resolve_corners().map_err(Some),
        };
        if let Err(error) = resolved {
            if let (true, Some(error)) = (strict, error) {
                return Err(error);
            }
            // Left out later: none of its elements is copied.
            foreign.positions.truncate(marks[0]);
            foreign.uvs.truncate(marks[1]);
            foreign.normals.truncate(marks[2]);
            slot = face_start + corners.len();
            foreign.skipped.push((first_face + i, error));
            if blender {
                let checked = [uvs.is_some(), normals.is_some()];
                kept_positions(corners, &resolver, counts, checked, &mut foreign.kept);
            }
        }
        face_offsets[i] = (segment.first_corner + slot) as u32;
        if let Some(smooth) = smooth.as_deref_mut() {
            smooth[i] = match f.checked_sub(block.smooth_from) {
                Some(at) => block.smooth[at],
                None => segment.smooth.unwrap_or(0),
            };
        }
    }
    for (values, value) in [(materials, segment.material), (groups, segment.group)] {
        if let Some(values) = values {
            values.fill(value.unwrap_or(0));
        }
    }
    let mut before = block.declared_from_line(segment.lines.start);
    let (mut point_lines, _) = block.point_lines(segment.lines.clone());
    let (mut edge, mut point) = (0, 0);
    for l in segment.lines.clone() {
        let counts = before.counts(l);
        let points = &block.points[block.lines[l] as usize..block.lines[l + 1] as usize];
        if let Some((&first, rest)) = point_lines.split_first()
            && first as usize == l
        {
            point_lines = rest;
            for &raw in points {
                let at = segment.first_point + point;
                point_slots[point] = resolver.local(
                    raw,
                    Kind::Position,
                    counts,
                    false,
                    at,
                    &mut foreign.points,
                    b"l",
                    l,
                )?;
                point += 1;
            }
            continue;
        }
        let mut previous = None;
        for (i, &point) in points.iter().enumerate() {
            // A point is the second end of an edge, and the first of the next.
            let at = 2 * (segment.first_edge + edge) + usize::from(previous.is_some());
            let refs = foreign.edge_points.len();
            let v = resolver.local(
                point,
                Kind::Position,
                counts,
                false,
                at,
                &mut foreign.edge_points,
                b"l",
                l,
            )?;
            // Another object's position within the line: both its ends.
            if foreign.edge_points.len() > refs && i > 0 && i + 1 < points.len() {
                let element = foreign.edge_points[refs].element;
                let slot = at + 1;
                foreign.edge_points.push(Reference { slot, element });
            }
            if let Some(p) = previous {
                edges[edge] = [p, v];
                edge += 1;
            }
            previous = Some(v);
        }
    }
    Ok(foreign)
}

/// The positions of a skipped face that Blender's importer keeps (it reads
/// a face's corners in turn, keeping each corner's position, and stops at
/// the first index out of range): those of its corners up to the first
/// whose position is out of range, or to the first (included) whose UV or
/// normal is, where `checked` says UVs and normals are read.
fn kept_positions(
    corners: &[[i32; 3]],
    resolver: &Resolver,
    counts: &Counts,
    checked: [bool; 2],
    kept: &mut Vec<usize>,
) {
    for c in corners {
        let Some(g) = resolver.global(c[0], Kind::Position, counts, true) else {
            return;
        };
        kept.push(g);
        let bad = |raw: i32, kind: Kind| {
            checked[kind as usize - 1]
                && raw != 0
                && resolver.global(raw, kind, counts, true).is_none()
        };
        if bad(c[1], Kind::Uv) || bad(c[2], Kind::Normal) {
            return;
        }
    }
}

/// The warning of a face left out for an index out of range (or 0).
pub(super) const SKIPPED_FACE: &str = "a face with an index out of range or 0 skipped";

/// Takes the faces [`resolve`] listed as skipped out of their objects'
/// arrays (`foreign` holds each object's segments in turn, as `plans`
/// lists them). Gives the block and line (counted from the block's start)
/// of the first face skipped for an index out of range, if one was; by
/// Blender's rule (`blender`) faces of fewer than 3 corners were faces too.
pub(super) fn skip_faces(
    plans: &[Plan],
    arrays: &mut [Arrays],
    foreign: &mut [Foreign],
    blocks: &[Block],
    elements: &Elements,
    rule: ObjectRule,
) -> Option<(usize, u64)> {
    let segments = plans.iter().flat_map(|p| &p.segments);
    let skipping = || {
        segments
            .clone()
            .zip(foreign.iter())
            .filter(|(_, f)| f.skipped_out_of_range())
    };
    let first = skipping().map(|(s, _)| s.block).min().map(|b| {
        let candidates: Vec<OutOfRange> = skipping()
            .filter(|(s, _)| s.block == b)
            .flat_map(|(_, f)| f.skipped.iter().filter_map(|&(_, error)| error))
            .collect();
        let (block, offset) = (&blocks[b], elements.offsets[b]);
        match describe(&candidates, block, offset, elements.sizes(), rule, false) {
            Error::Parse { line, .. } => (b, line),
            _ => (b, 0),
        }
    });
    let mut at = 0;
    for (plan, arrays) in plans.iter().zip(arrays.iter_mut()) {
        let found = &mut foreign[at..at + plan.segments.len()];
        at += plan.segments.len();
        let skipped: Vec<usize> = found
            .iter()
            .flat_map(|f| f.skipped.iter().map(|s| s.0))
            .collect();
        if !skipped.is_empty() {
            drop_faces(arrays, found, &skipped);
        }
    }
    first
}

/// Removes the faces `skipped` (indices among the object's faces, in
/// order) from an object's arrays, and moves the corners its references to
/// other objects' elements point to.
fn drop_faces(arrays: &mut Arrays, found: &mut [Foreign], skipped: &[usize]) {
    let offsets = &arrays.face_offsets;
    let faces = offsets.len() - 1;
    let mut kept_faces = Vec::with_capacity(faces - skipped.len());
    // Per face skipped, its first corner and how many corners were skipped
    // before its end: a reference's corner moves back by the count of the
    // last skipped face before it.
    let mut removed: Vec<(usize, usize)> = Vec::with_capacity(skipped.len());
    let mut total = 0;
    let mut next = skipped.iter().peekable();
    for f in 0..faces {
        if next.next_if(|&&s| s == f).is_some() {
            total += (offsets[f + 1] - offsets[f]) as usize;
            removed.push((offsets[f] as usize, total));
        } else {
            kept_faces.push(f);
        }
    }
    let corners = |values: &[u32]| -> Vec<u32> {
        let faces = kept_faces.iter();
        faces
            .flat_map(|&f| &values[offsets[f] as usize..offsets[f + 1] as usize])
            .copied()
            .collect()
    };
    let per_face = |values: &[u32]| -> Vec<u32> { kept_faces.iter().map(|&f| values[f]).collect() };
    let position_indices = corners(&arrays.position_indices);
    let uv_indices = arrays.uv_indices.as_deref().map(corners);
    let normal_indices = arrays.normal_indices.as_deref().map(corners);
    let smooth = arrays.smooth.as_deref().map(per_face);
    let material_indices = arrays.material_indices.as_deref().map(per_face);
    let group_indices = arrays.group_indices.as_deref().map(per_face);
    let mut face_offsets = Vec::with_capacity(kept_faces.len() + 1);
    face_offsets.push(0);
    for &f in &kept_faces {
        let last = face_offsets.last().copied().unwrap_or(0);
        face_offsets.push(last + offsets[f + 1] - offsets[f]);
    }
    let moved = |slot: usize| {
        let before = removed.partition_point(|&(start, _)| start < slot);
        slot - before.checked_sub(1).map_or(0, |i| removed[i].1)
    };
    for f in found.iter_mut() {
        for r in f
            .positions
            .iter_mut()
            .chain(&mut f.uvs)
            .chain(&mut f.normals)
        {
            r.slot = moved(r.slot);
        }
    }
    *arrays = Arrays {
        face_offsets,
        position_indices,
        uv_indices,
        normal_indices,
        smooth,
        material_indices,
        group_indices,
        edges: std::mem::take(&mut arrays.edges),
        points: std::mem::take(&mut arrays.points),
    };
}
