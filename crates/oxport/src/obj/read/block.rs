//! What one block of the file declares (pass 1's output), and where each
//! block's elements sit among the file's.

use std::borrow::Cow;
use std::ops::Range;

/// Element counts of a block before a statement: positions, UVs, normals.
pub(super) type Counts = [u32; 3];

/// What one block declares, in order.
pub(super) struct Block<'a> {
    pub(super) text: &'a [u8],
    pub(super) positions: Vec<[f32; 3]>,
    /// Empty when the block gives no colors (`v x y z r g b`), else one per
    /// position (black where a position has none).
    pub(super) colors: Vec<[f32; 3]>,
    /// Beside `colors`: whether the position's line gave its color.
    pub(super) colored: Vec<bool>,
    pub(super) uvs: Vec<[f32; 2]>,
    pub(super) normals: Vec<[f32; 3]>,
    /// Colors of ZBrush's `#MRGB` comments: the file's n-th is its n-th vertex's.
    pub(super) mrgb: Vec<[f32; 3]>,
    /// The weights `v x y z w` lines give (rational curves' control points):
    /// the position's index in the block, and its weight.
    pub(super) weights: Vec<(u32, f32)>,
    /// Face corners' raw indices (position, UV, normal): 1-based, or negative
    /// (counting back); 0 where absent. (32 bits: a file with 2^31 elements
    /// of a kind would be over 30 GB.)
    pub(super) corners: Vec<[i32; 3]>,
    /// Where each face's corners start in `corners`, then their end: `[0, ...]`.
    pub(super) faces: Vec<u32>,
    /// The raw position indices of `l` lines (and `p` statements), and where
    /// each line starts.
    pub(super) points: Vec<i32>,
    pub(super) lines: Vec<u32>,
    /// Which of `lines` are `p` statements (points, no edges), in order.
    pub(super) point_lines: Vec<u32>,
    /// The elements declared before each face and line: an entry where a
    /// face or line follows elements declared since the last entry.
    pub(super) declared: Vec<Declared>,
    /// Smooth groups, per face from the block's first `s` on (faces before
    /// it take the group the block starts with): Blender writes an `s` each
    /// time it changes, which can be every other face.
    pub(super) smooth: Vec<u32>,
    pub(super) smooth_from: usize,
    pub(super) smooth_now: Option<u32>,
    /// The statements that change state (but `s`), in order.
    pub(super) marks: Vec<Mark>,
    /// The faces before the first mark, between marks, after the last: one
    /// more than marks.
    pub(super) spans: Vec<Span>,
    pub(super) skipped: u64,
    /// What a lenient read passed over: the first line (from the block's
    /// start), what, and how many times.
    pub(super) warnings: Vec<Warned>,
}

/// The elements a block declares before its faces from `faces` on and its
/// lines from `lines` on (up to the next entry): what negative indices
/// count back from, and, by Blender's rule, all a face may name.
pub(super) struct Declared {
    pub(super) faces: u32,
    pub(super) lines: u32,
    pub(super) counts: Counts,
}

/// Notes the elements declared before the face or line that follows.
#[inline]
pub(super) fn note_declared(block: &mut Block) {
    let counts = counts(block);
    if block.declared.last().map(|d| d.counts) != Some(counts) {
        block.declared.push(Declared {
            faces: (block.faces.len() - 1) as u32,
            lines: (block.lines.len() - 1) as u32,
            counts,
        });
    }
}

impl Block<'_> {
    /// The entries of [`Block::declared`] from the one of face `face` on,
    /// for [`Before`] to walk.
    pub(super) fn declared_from_face(&self, face: usize) -> Before<'_> {
        Before::new(
            &self.declared,
            self.declared.partition_point(|d| d.faces as usize <= face),
            |d| d.faces,
        )
    }

    /// As [`Block::declared_from_face`], for line `line`.
    pub(super) fn declared_from_line(&self, line: usize) -> Before<'_> {
        Before::new(
            &self.declared,
            self.declared.partition_point(|d| d.lines as usize <= line),
            |d| d.lines,
        )
    }
}

/// Walks a block's [`Declared`] entries along its faces (or lines), in order.
pub(super) struct Before<'a> {
    declared: &'a [Declared],
    /// The entry of the item asked for last.
    at: usize,
    item: fn(&Declared) -> u32,
}

impl<'a> Before<'a> {
    fn new(declared: &'a [Declared], after: usize, item: fn(&Declared) -> u32) -> Self {
        Before {
            declared,
            at: after.saturating_sub(1),
            item,
        }
    }

    /// The elements declared before item `item` (at or after the last asked).
    #[inline]
    pub(super) fn counts(&mut self, item: usize) -> &'a Counts {
        while self
            .declared
            .get(self.at + 1)
            .is_some_and(|d| (self.item)(d) as usize <= item)
        {
            self.at += 1;
        }
        &self.declared[self.at].counts
    }
}

/// Something a block passed over: its first line (from the block's start),
/// what, and how many times.
pub(super) struct Warned {
    pub(super) line: u64,
    pub(super) what: Cow<'static, str>,
    pub(super) count: u64,
}

/// Notes that the statement at `line` was passed over for `what`.
#[cold]
pub(super) fn warn(block: &mut Block, line: u64, what: Cow<'static, str>) {
    match block.warnings.iter_mut().find(|w| w.what == what) {
        Some(warning) => warning.count += 1,
        None => block.warnings.push(Warned {
            line,
            what,
            count: 1,
        }),
    }
}

impl Block<'_> {
    /// The `p` statements among `lines`, and how many points they give.
    pub(super) fn point_lines(&self, lines: Range<usize>) -> (&[u32], usize) {
        let all = &self.point_lines;
        let from = all.partition_point(|&l| (l as usize) < lines.start);
        let to = all.partition_point(|&l| (l as usize) < lines.end);
        let size = |&l: &u32| (self.lines[l as usize + 1] - self.lines[l as usize]) as usize;
        (&all[from..to], all[from..to].iter().map(size).sum())
    }
}

/// A statement that changes state, with the faces, lines and elements of the
/// block before it.
pub(super) struct Mark {
    pub(super) event: Event,
    pub(super) faces: u32,
    pub(super) lines: u32,
    pub(super) counts: Counts,
}

pub(super) enum Event {
    Object(String),
    Group(String),
    Material(String),
    MtlLib(String),
    /// `cstype` of a type curves are read of: rational or not.
    CurveType {
        rational: bool,
    },
    /// By the plain rule, `cstype` of another type: the statements after it
    /// are no curve's.
    OtherCurve,
    /// `deg`: the degree (of `u`).
    Degree(i32),
    /// `curv`: the parameter range, and the control points' raw indices
    /// (1-based, or negative: counting back from the mark's counts).
    /// `line`: the statement's line, from the block's start.
    Curve {
        range: [f32; 2],
        points: Vec<i32>,
        line: u64,
    },
    /// `parm u`: knots.
    Knots(Vec<f32>),
}

/// The layouts of a span's faces (UVs or not, normals or not): one bit each.
#[derive(Clone, Copy, Default)]
pub(super) struct Span {
    pub(super) layouts: u8,
}

impl Span {
    pub(super) fn see(&mut self, layout: Layout) {
        self.layouts |= 1 << (2 * u8::from(layout.uvs) + u8::from(layout.normals));
    }

    /// Some of its faces have UVs.
    pub(super) fn has_uvs(self) -> bool {
        self.layouts & 0b1100 != 0
    }
}

/// A position, and its color: colors are kept once a `v` gives one (black
/// for the positions before it and those without).
pub(super) fn vertex(block: &mut Block, position: [f32; 3], color: Option<[f32; 3]>) {
    match color {
        Some(color) => {
            block.colors.resize(block.positions.len(), [0.0; 3]);
            block.colors.push(color);
            block.colored.resize(block.positions.len(), false);
            block.colored.push(true);
        }
        None if !block.colors.is_empty() => {
            block.colors.push([0.0; 3]);
            block.colored.push(false);
        }
        None => {}
    }
    block.positions.push(position);
}

/// Ends a face whose corners are pushed: its layout, its smooth group, its end.
pub(super) fn end_face(block: &mut Block, layout: Layout) {
    note_declared(block);
    let span = block.spans.last_mut().expect("one span more than marks");
    span.see(layout);
    if let Some(group) = block.smooth_now {
        block.smooth.push(group);
    }
    block.faces.push(block.corners.len() as u32);
}

pub(super) fn counts(block: &Block) -> Counts {
    [
        block.positions.len() as u32,
        block.uvs.len() as u32,
        block.normals.len() as u32,
    ]
}

pub(super) fn mark(block: &mut Block, event: Event) {
    block.marks.push(Mark {
        event,
        faces: (block.faces.len() - 1) as u32,
        lines: (block.lines.len() - 1) as u32,
        counts: counts(block),
    });
    block.spans.push(Span::default());
}

/// Whether a face's corners have UVs, and normals: a mesh has one layout.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Layout {
    pub(super) uvs: bool,
    pub(super) normals: bool,
}

/// The raw index a `0` in the file is read as (no index is 0: it stands
/// for an index absent, and indices start at 1).
pub(super) const ZERO: i32 = i32::MIN;

impl Layout {
    /// UVs where either has them, normals too.
    pub(super) fn union(self, other: Layout) -> Layout {
        Layout {
            uvs: self.uvs || other.uvs,
            normals: self.normals || other.normals,
        }
    }
}

/// The index a corner without a UV or normal has in a mesh whose other
/// corners have them (by Blender's rule, [`super::ObjectRule`]), until the
/// mesh is built and it points at an element of zeros.
pub(super) const ABSENT: u32 = u32::MAX;

pub(super) fn corner_layout(corner: &[i32; 3]) -> Layout {
    Layout {
        uvs: corner[1] != 0,
        normals: corner[2] != 0,
    }
}

/// A face's layout (its first corner's), without normals unless `normals`
/// (false for a file without `vn` lines read leniently: its normal indices
/// are ignored, as Blender's importer ignores them).
pub(super) fn layout_of(block: &Block, face: usize, normals: bool) -> Layout {
    let layout = corner_layout(&block.corners[block.faces[face] as usize]);
    Layout {
        normals: layout.normals && normals,
        ..layout
    }
}

/// The kinds of elements, in the order of the `[_; 3]` arrays of counts and
/// offsets (`array[kind as usize]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    Position,
    Uv,
    Normal,
}

impl Kind {
    pub(super) const ALL: [Kind; 3] = [Kind::Position, Kind::Uv, Kind::Normal];

    pub(super) fn name(self) -> &'static str {
        ["position", "UV", "normal"][self as usize]
    }
}

/// A reference from an object's index arrays to an element outside its own:
/// where (a corner, or an edge point as `2 * edge + end`) and which element
/// (its global index).
#[derive(Clone, Copy, Debug)]
pub(super) struct Reference {
    pub(super) slot: usize,
    pub(super) element: usize,
}

/// The global index of each block's first position, UV and normal, then the totals.
pub(super) fn element_offsets(blocks: &[Block]) -> Vec<[usize; 3]> {
    let mut offsets = Vec::with_capacity(blocks.len() + 1);
    let mut at = [0usize; 3];
    offsets.push(at);
    for block in blocks {
        let counts = counts(block);
        at = Kind::ALL.map(|k| at[k as usize] + counts[k as usize] as usize);
        offsets.push(at);
    }
    offsets
}

/// Where each block's elements start, to find an element by its global index.
pub(super) struct Elements {
    pub(super) offsets: Vec<[usize; 3]>,
}

impl Elements {
    pub(super) fn new(blocks: &[Block]) -> Self {
        Self {
            offsets: element_offsets(blocks),
        }
    }

    pub(super) fn sizes(&self) -> [usize; 3] {
        *self.offsets.last().expect("offsets end with the totals")
    }

    /// The block holding element `g` of kind `kind`, and its index there.
    pub(super) fn find(&self, kind: Kind, g: usize) -> (usize, usize) {
        let k = kind as usize;
        let b = self.offsets.partition_point(|o| o[k] <= g) - 1;
        (b, g - self.offsets[b][k])
    }

    /// Elements `range` of kind `kind` (`get` gives a block's array; positions
    /// past its end are zero) followed by the `copies`.
    pub(super) fn gather<'b, 'a: 'b, T: Copy + Default + 'b>(
        &self,
        blocks: &'b [Block<'a>],
        kind: Kind,
        get: impl Fn(&'b Block<'a>) -> &'b [T],
        range: Range<usize>,
        copies: &[usize],
    ) -> Vec<T> {
        let mut out = Vec::with_capacity(range.len() + copies.len());
        for (b, block) in blocks.iter().enumerate() {
            let k = kind as usize;
            let (start, end) = (self.offsets[b][k], self.offsets[b + 1][k]);
            let (from, to) = (range.start.max(start), range.end.min(end));
            if from < to {
                let values = get(block);
                let (from, to) = (from - start, to - start);
                let given = &values[from.min(values.len())..to.min(values.len())];
                out.extend_from_slice(given);
                out.resize(out.len() + (to - from - given.len()), T::default());
            }
        }
        out.extend(copies.iter().map(|&g| {
            let (b, i) = self.find(kind, g);
            get(&blocks[b]).get(i).copied().unwrap_or_default()
        }));
        out
    }
}
