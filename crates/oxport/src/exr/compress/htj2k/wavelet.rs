//! The reversible 5/3 wavelet (ITU-T T.800 F.3 and F.4, `5-3R`): integer
//! lifting with whole-sample symmetric extension at each edge, on samples
//! whose parity on the reference grid says whether they are low-pass
//! (even) or high-pass (odd). One level at a time: `synthesize` joins a
//! resolution's four bands into it (rows, then columns), `analyze` splits
//! it (columns, then rows) exactly back.
//!
//! Each lifting step runs on a band's own samples, which makes it a loop
//! over whole slices the compiler vectorizes: along a row, the low (or
//! high) half against the other half shifted by one; down the columns,
//! whole rows against the rows above and below. In a band's own indices
//! the symmetric extension is a clamp at either end.
//!
//! Samples are [`Coefficient`]s: `i32` for components of up to 16 bits,
//! `i64` for 32-bit ones, which grow past `i32` through the levels and the
//! color transform. The arithmetic wraps, so that a damaged codestream
//! gives wrong samples, never an overflow.

use super::markers::Rect;
use crate::scratch::{self, Pooled};

/// A wavelet coefficient's integer type.
pub(super) trait Coefficient:
    Copy + Default + PartialEq + std::fmt::Debug + Send + Sync + Pooled + 'static
{
    fn add(self, other: Self) -> Self;
    fn sub(self, other: Self) -> Self;
    /// Arithmetic shift right.
    fn shr(self, bits: u32) -> Self;
    fn two() -> Self;
    /// The low bits of `value` (all of them for `i64`).
    fn from_i64(value: i64) -> Self;
    fn to_i64(self) -> i64;
    /// The samples as `i32`s, where that is what they are (for the AVX2
    /// kernels, which take them).
    #[cfg(target_arch = "x86_64")]
    fn narrow(samples: &mut [Self]) -> Option<&mut [i32]>;
}

macro_rules! coefficient {
    ($t:ty, $narrow:expr) => {
        impl Coefficient for $t {
            #[inline(always)]
            fn add(self, other: Self) -> Self {
                self.wrapping_add(other)
            }
            #[inline(always)]
            fn sub(self, other: Self) -> Self {
                self.wrapping_sub(other)
            }
            #[inline(always)]
            fn shr(self, bits: u32) -> Self {
                self >> bits
            }
            #[inline(always)]
            fn two() -> Self {
                2
            }
            #[inline(always)]
            fn from_i64(value: i64) -> Self {
                value as $t
            }
            #[inline(always)]
            fn to_i64(self) -> i64 {
                self as i64
            }
            #[cfg(target_arch = "x86_64")]
            #[inline(always)]
            fn narrow(samples: &mut [Self]) -> Option<&mut [i32]> {
                $narrow(samples)
            }
        }
    };
}

coefficient!(i32, Some);
coefficient!(i64, |_| None);

/// A rectangle of samples, row after row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Plane<T = i64> {
    pub(super) rect: Rect,
    pub(super) samples: Vec<T>,
}

impl<T: Coefficient> Plane<T> {
    pub(super) fn zeros(rect: Rect) -> Self {
        let samples = vec![T::default(); width(rect) * height(rect)];
        Plane { rect, samples }
    }

    /// A plane of `rect` for a caller that writes every sample before it
    /// reads it: from this thread's pool ([`scratch::take`]), holding what
    /// an earlier plane left (a chunk's planes, its bands, levels and
    /// components, are each as large as a part of the chunk: fresh memory
    /// for every one costs its zeroing and page faults).
    pub(super) fn reused(rect: Rect) -> Self {
        Plane {
            rect,
            samples: scratch::take(width(rect) * height(rect)),
        }
    }

    /// Line `line` of the plane, to be written.
    pub(super) fn line_mut(&mut self, line: usize) -> &mut [T] {
        let w = width(self.rect);
        &mut self.samples[line * w..(line + 1) * w]
    }

    /// Gives the plane's samples to this thread's pool, for the next
    /// [`Plane::reused`].
    pub(super) fn recycle(self) {
        scratch::give(self.samples);
    }
}

fn width(rect: Rect) -> usize {
    (rect.x1 - rect.x0) as usize
}

fn height(rect: Rect) -> usize {
    (rect.y1 - rect.y0) as usize
}

/// The four bands one level splits `rect` into: LL, HL, LH, HH (T.800 B-15).
pub(super) fn bands(rect: Rect) -> [Rect; 4] {
    let low = |v: u32| v.div_ceil(2);
    let high = |v: u32| v / 2;
    let (lx, hx) = ((low(rect.x0), low(rect.x1)), (high(rect.x0), high(rect.x1)));
    let (ly, hy) = ((low(rect.y0), low(rect.y1)), (high(rect.y0), high(rect.y1)));
    let at = |(x0, x1): (u32, u32), (y0, y1): (u32, u32)| Rect { x0, y0, x1, y1 };
    [at(lx, ly), at(hx, ly), at(lx, hy), at(hx, hy)]
}

// The four lifting steps, on a sample `x` and its neighbours `a` and `b` in
// the other half.

#[inline(always)]
fn undo_update<T: Coefficient>(x: T, a: T, b: T) -> T {
    x.sub(a.add(b).add(T::two()).shr(2))
}

#[inline(always)]
fn undo_predict<T: Coefficient>(x: T, a: T, b: T) -> T {
    x.add(a.add(b).shr(1))
}

#[inline(always)]
fn predict<T: Coefficient>(x: T, a: T, b: T) -> T {
    x.sub(a.add(b).shr(1))
}

#[inline(always)]
fn update<T: Coefficient>(x: T, a: T, b: T) -> T {
    x.add(a.add(b).add(T::two()).shr(2))
}

/// Where the neighbours of a half's sample `k` sit in the other half: at
/// `k - 1` and `k` (`-1`), or at `k` and `k + 1` (`0`). A line starting at
/// an even index has its low samples' neighbours at `-1` and its high
/// samples' at `0`; one starting at an odd index the other way round.
fn offsets(start: u32) -> (isize, isize) {
    if start & 1 == 0 { (-1, 0) } else { (0, -1) }
}

/// `x[k] = step(x[k], other[k + d], other[k + d + 1])` for every `k`, the
/// indices clamped into `other` (not empty).
#[inline(always)]
fn lift<T: Coefficient>(x: &mut [T], other: &[T], d: isize, step: impl Fn(T, T, T) -> T) {
    let last = other.len() as isize - 1;
    let at = |i: isize| other[i.clamp(0, last) as usize];
    // Where both neighbours are inside `other`: k + d ≥ 0 and k + d + 1 ≤ last.
    let first = (-d) as usize;
    let end = ((last - d).max(0) as usize).clamp(first.min(x.len()), x.len());
    for (k, x) in x.iter_mut().enumerate().take(first) {
        *x = step(*x, at(k as isize + d), at(k as isize + d + 1));
    }
    let from = (first as isize + d) as usize;
    for ((x, &a), &b) in x[first.min(end)..end]
        .iter_mut()
        .zip(&other[from..])
        .zip(&other[from + 1..])
    {
        *x = step(*x, a, b);
    }
    for (k, x) in x.iter_mut().enumerate().skip(end) {
        *x = step(*x, at(k as isize + d), at(k as isize + d + 1));
    }
}

/// Splits the line `line`, starting at index `start`, into its low and
/// high halves `low` and `high` (F.4.8, `1D_FILTD_5-3R`).
#[inline(always)]
fn split<T: Coefficient>(line: &[T], low: &mut [T], high: &mut [T], start: u32) {
    if line.len() == 1 {
        if start & 1 == 0 {
            low[0] = line[0];
        } else {
            high[0] = line[0].add(line[0]);
        }
        return;
    }
    let (low_d, high_d) = offsets(start);
    deinterleave(line, low, high, start);
    lift(high, low, high_d, predict);
    lift(low, high, low_d, update);
}

/// Joins the row's low half `low` and high half `high` into `out`, a line
/// starting at index `start` (F.3.8, `1D_FILTR_5-3R`), lifting the halves
/// in place.
#[inline(always)]
fn join<T: Coefficient>(low: &mut [T], high: &mut [T], out: &mut [T], start: u32) {
    if out.len() == 1 {
        out[0] = if start & 1 == 0 {
            low[0]
        } else {
            high[0].shr(1)
        };
        return;
    }
    let (low_d, high_d) = offsets(start);
    lift(low, high, low_d, undo_update);
    lift(high, low, high_d, undo_predict);
    interleave(low, high, out, start);
}

/// `out` from its low (even-indexed) and high (odd-indexed) samples.
#[inline(always)]
fn interleave<T: Coefficient>(low: &[T], high: &[T], out: &mut [T], start: u32) {
    let (first, second) = if start & 1 == 0 {
        (low, high)
    } else {
        (high, low)
    };
    for (pair, (&a, &b)) in out.chunks_exact_mut(2).zip(first.iter().zip(second)) {
        pair[0] = a;
        pair[1] = b;
    }
    if out.len() % 2 == 1 {
        out[out.len() - 1] = first[first.len() - 1];
    }
}

/// The inverse of [`interleave`].
#[inline(always)]
fn deinterleave<T: Coefficient>(line: &[T], low: &mut [T], high: &mut [T], start: u32) {
    let (first, second) = if start & 1 == 0 {
        (low, high)
    } else {
        (high, low)
    };
    for (pair, (a, b)) in line
        .chunks_exact(2)
        .zip(first.iter_mut().zip(second.iter_mut()))
    {
        *a = pair[0];
        *b = pair[1];
    }
    if line.len() % 2 == 1 {
        first[first.len() - 1] = line[line.len() - 1];
    }
}

/// `step` on row `y` of a plane `h` ≥ 2 rows high, `w` wide, against the
/// rows above and below it (the row on the other side where one is
/// missing): row `r` at `slot(r)` of `samples` (the rows lifted together
/// take distinct slots).
#[inline(always)]
fn lift_row<T: Coefficient>(
    samples: &mut [T],
    w: usize,
    h: usize,
    y: usize,
    slot: impl Fn(usize) -> usize,
    step: impl Fn(T, T, T) -> T + Copy,
) {
    let above = slot(if y == 0 { 1 } else { y - 1 });
    let below = slot(if y + 1 == h { y - 1 } else { y + 1 });
    let at = slot(y);
    let (before, rest) = samples.split_at_mut(at * w);
    let (row, after) = rest.split_at_mut(w);
    let neighbour = |r: usize| -> &[T] {
        if r < at {
            &before[r * w..(r + 1) * w]
        } else {
            &after[(r - at - 1) * w..(r - at) * w]
        }
    };
    step_row(row, neighbour(above), neighbour(below), step);
}

/// `step` on every sample of `row` against the samples at its place in `a`
/// and `b`. Sixteen at a time through local copies: the rows are parts of
/// one plane, and the compiler, unable to tell that they do not overlap,
/// would otherwise check at run time and mostly fall back to one sample
/// at a time.
#[inline(always)]
fn step_row<T: Coefficient>(row: &mut [T], a: &[T], b: &[T], step: impl Fn(T, T, T) -> T) {
    const LANES: usize = 16;
    let (a, b) = (&a[..row.len()], &b[..row.len()]);
    let done = row.len() - row.len() % LANES;
    let rows = row[..done].chunks_exact_mut(LANES);
    for ((x, a), b) in rows.zip(a.chunks_exact(LANES)).zip(b.chunks_exact(LANES)) {
        let a: [T; LANES] = a.try_into().expect("16");
        let b: [T; LANES] = b.try_into().expect("16");
        let mut lanes: [T; LANES] = (&*x).try_into().expect("16");
        for i in 0..LANES {
            lanes[i] = step(lanes[i], a[i], b[i]);
        }
        x.copy_from_slice(&lanes);
    }
    for ((x, &a), &b) in row[done..].iter_mut().zip(&a[done..]).zip(&b[done..]) {
        *x = step(*x, a, b);
    }
}

/// Rows a [`Synthesis`] keeps in a ring: a row is done once the sweep is
/// three rows past it.
const RING: usize = 4;

/// One level of synthesis (F.3.2, `2D_SR`), a row at a time: the bands
/// `[ll, hl, lh, hh]` of `rect` (as [`bands`] gives their areas) joined
/// along each row into its place, and the columns lifted in one sweep
/// down the rows, while they are in cache. Each row is joined, then the
/// low row above it updated (against the high rows on either side, not
/// yet predicted), then the high row above that predicted (against the
/// low rows on either side, both updated by then). Row `y` is done, and
/// read by no later step, once the sweep has joined row `y + 3`.
///
/// Kept whole, the rows make the level's plane ([`Synthesis::into_plane`]).
/// Kept in a ring of [`RING`], the last level's rows go to the chunk's
/// samples as they are done ([`Synthesis::row`]), and the level's plane,
/// as large as the chunk, never goes through memory. The bands are lifted
/// in place (they are left as scratch). Compiled for AVX2 where the
/// processor has it ([`crate::cpu::avx2`]), for wider lanes.
pub(super) struct Synthesis<T: Coefficient> {
    /// The bands, until the last row is joined.
    bands: Option<[Plane<T>; 4]>,
    rect: Rect,
    /// Row `y` at `y` (whole) or at `y % RING` (a ring).
    rows: Vec<T>,
    ring: bool,
    /// Rows joined so far.
    swept: usize,
}

impl<T: Coefficient> Synthesis<T> {
    /// The synthesis of `rect` from its four bands, its rows kept whole or
    /// in a `ring`.
    pub(super) fn new(bands_of: [Plane<T>; 4], rect: Rect, ring: bool) -> Self {
        let h = height(rect);
        let ring = ring && h > RING;
        // Every row is joined before it is read.
        let rows = scratch::take(width(rect) * if ring { RING } else { h });
        let mut synthesis = Synthesis {
            bands: Some(bands_of),
            rect,
            rows,
            ring,
            swept: 0,
        };
        if width(rect) == 0 || h == 0 {
            synthesis.finish();
        }
        synthesis
    }

    /// A plane already whole (a component's lowest resolution, or one
    /// joined from tiles).
    pub(super) fn whole(plane: Plane<T>) -> Self {
        Synthesis {
            bands: None,
            rect: plane.rect,
            swept: height(plane.rect),
            rows: plane.samples,
            ring: false,
        }
    }

    pub(super) fn rect(&self) -> Rect {
        self.rect
    }

    /// Row `y`, done (then it is this synthesis's until the next call);
    /// `None` past the last row, or before the ring's first.
    pub(super) fn row(&mut self, y: usize) -> Option<&mut [T]> {
        let (w, h) = (width(self.rect), height(self.rect));
        while self.swept < h.min(y + RING) {
            self.sweep();
        }
        if y >= h || (self.ring && y + RING < self.swept) {
            return None;
        }
        let at = if self.ring { y % RING } else { y };
        self.rows.get_mut(at * w..(at + 1) * w)
    }

    /// The rows of each band [`Synthesis::row`] reads to make row `y`
    /// (from each band's first; fewer where a band has fewer).
    pub(super) fn band_rows(&self, y: usize) -> usize {
        let joined = height(self.rect).min(y + RING);
        joined.div_ceil(2)
    }

    /// The bands, while rows are still to be joined from them.
    pub(super) fn bands_mut(&mut self) -> Option<&mut [Plane<T>; 4]> {
        self.bands.as_mut()
    }

    /// The samples of a plane kept whole, row after row, every row made.
    pub(super) fn whole_mut(&mut self) -> Option<&mut Vec<T>> {
        if self.ring {
            return None;
        }
        self.complete();
        Some(&mut self.rows)
    }

    /// The level's plane (of a synthesis kept whole).
    pub(super) fn into_plane(mut self) -> Plane<T> {
        debug_assert!(!self.ring);
        self.complete();
        Plane {
            rect: self.rect,
            samples: std::mem::take(&mut self.rows),
        }
    }

    /// Gives the rows, and the bands if they are still held, to this
    /// thread's pool.
    pub(super) fn recycle(mut self) {
        self.finish();
        scratch::give(std::mem::take(&mut self.rows));
    }

    /// Every row joined.
    fn complete(&mut self) {
        while self.bands.is_some() {
            self.sweep();
        }
    }

    /// The bands to this thread's pool, once the last row is joined.
    fn finish(&mut self) {
        for band in self.bands.take().into_iter().flatten() {
            band.recycle();
        }
        self.swept = height(self.rect);
    }

    /// The next row joined, and the column lifts it allows.
    fn sweep(&mut self) {
        #[cfg(target_arch = "x86_64")]
        if crate::cpu::avx2() {
            // SAFETY: the processor has AVX2 (checked just above).
            unsafe { self.sweep_avx2() };
            return;
        }
        self.sweep_lanes();
    }

    /// [`Synthesis::sweep_lanes`] compiled for AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn sweep_avx2(&mut self) {
        self.sweep_lanes();
    }

    /// [`Synthesis::sweep`], inlined into its callers and compiled for
    /// what each is compiled for.
    #[inline(always)]
    fn sweep_lanes(&mut self) {
        let (w, h, y) = (width(self.rect), height(self.rect), self.swept);
        let Some([ll, hl, lh, hh]) = &mut self.bands else {
            return;
        };
        let ring = self.ring;
        let slot = move |r: usize| if ring { r % RING } else { r };
        let samples = &mut self.rows;
        // Rows of the low vertical band (LL and HL) at the rows of even
        // index.
        let first_low = (self.rect.y0 % 2) as usize;
        let low_row = |y: usize| y % 2 == first_low;
        let (low, high) = if low_row(y) { (ll, hl) } else { (lh, hh) };
        let band_row = y / 2;
        let (lw, hw) = (width(low.rect), width(high.rect));
        let low = &mut low.samples[band_row * lw..(band_row + 1) * lw];
        let high = &mut high.samples[band_row * hw..(band_row + 1) * hw];
        let at = slot(y);
        join(low, high, &mut samples[at * w..(at + 1) * w], self.rect.x0);
        if y >= 1 && low_row(y - 1) {
            lift_row(samples, w, h, y - 1, slot, undo_update);
        }
        if y >= 2 && !low_row(y - 2) {
            lift_row(samples, w, h, y - 2, slot, undo_predict);
        }
        self.swept = y + 1;
        if y + 1 < h {
            return;
        }
        if h == 1 {
            if first_low == 1 {
                for v in samples.iter_mut() {
                    *v = v.shr(1);
                }
            }
        } else {
            // The last rows, whose neighbours below are mirrored.
            if low_row(h - 1) {
                lift_row(samples, w, h, h - 1, slot, undo_update);
            }
            for y in [h - 2, h - 1] {
                if !low_row(y) {
                    lift_row(samples, w, h, y, slot, undo_predict);
                }
            }
        }
        self.finish();
    }
}

impl<T: Coefficient> Default for Synthesis<T> {
    /// An empty plane, whole.
    fn default() -> Self {
        Synthesis::whole(Plane {
            rect: Rect::default(),
            samples: Vec::new(),
        })
    }
}

/// One level of synthesis, whole: the plane of `rect` from its bands
/// (see [`Synthesis`]).
#[cfg(test)]
fn synthesize<T: Coefficient>(bands_of: [Plane<T>; 4], rect: Rect) -> Plane<T> {
    Synthesis::new(bands_of, rect, false).into_plane()
}

/// One level of analysis (F.4.2, `2D_SD`), the inverse of [`Synthesis`]:
/// `plane` split along the columns and then the rows into its bands
/// `[ll, hl, lh, hh]`. The columns are lifted in `plane`, in place (it goes
/// back to this thread's pool). Compiled for AVX2 where the processor has
/// it ([`crate::cpu::avx2`]), for wider lanes.
pub(super) fn analyze<T: Coefficient>(plane: Plane<T>) -> [Plane<T>; 4] {
    #[cfg(target_arch = "x86_64")]
    if crate::cpu::avx2() {
        // SAFETY: the processor has AVX2 (checked just above).
        return unsafe { analyze_avx2(plane) };
    }
    analyze_lanes(plane)
}

/// [`analyze_lanes`] compiled for AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn analyze_avx2<T: Coefficient>(plane: Plane<T>) -> [Plane<T>; 4] {
    analyze_lanes(plane)
}

/// [`analyze`], inlined into its callers and compiled for what each is
/// compiled for.
#[inline(always)]
fn analyze_lanes<T: Coefficient>(plane: Plane<T>) -> [Plane<T>; 4] {
    let Plane { rect, mut samples } = plane;
    // Every sample of each band is written, a row of it per row split.
    let mut out = bands(rect).map(Plane::reused);
    let (w, h) = (width(rect), height(rect));
    if w == 0 || h == 0 {
        scratch::give(samples);
        return out;
    }
    let first_low = (rect.y0 % 2) as usize;
    let low_row = |y: usize| y % 2 == first_low;
    // One sweep down the rows, while they are in cache: at row `t`, the
    // high row above it predicted (against the low rows on either side,
    // not yet updated), then the low row above that updated (against the
    // high rows on either side, both predicted by then), which leaves it
    // whole: it is split into its bands.
    // A single row is its own low half, or twice its high one.
    if h == 1 && first_low == 1 {
        for v in &mut samples {
            *v = v.add(*v);
        }
    }
    for t in 0..h + 2 {
        if h > 1 {
            if (1..=h).contains(&t) && !low_row(t - 1) {
                lift_row(&mut samples, w, h, t - 1, |r| r, predict);
            }
            if (2..h + 2).contains(&t) && low_row(t - 2) {
                lift_row(&mut samples, w, h, t - 2, |r| r, update);
            }
        }
        if (2..h + 2).contains(&t) {
            let y = t - 2;
            let [ll, hl, lh, hh] = &mut out;
            let (low, high) = if low_row(y) { (ll, hl) } else { (lh, hh) };
            let (lw, hw) = (width(low.rect), width(high.rect));
            let band_row = y / 2;
            split(
                &samples[y * w..(y + 1) * w],
                &mut low.samples[band_row * lw..(band_row + 1) * lw],
                &mut high.samples[band_row * hw..(band_row + 1) * hw],
                rect.x0,
            );
        }
    }
    scratch::give(samples);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rectangle `w` × `h` from `(x0, y0)`.
    fn area(x0: u32, y0: u32, w: u32, h: u32) -> Rect {
        Rect {
            x0,
            y0,
            x1: x0 + w,
            y1: y0 + h,
        }
    }

    /// A plane of `rect` with pseudo-random samples of up to `bits` bits, signed.
    fn random(rect: Rect, seed: u64, bits: u32) -> Plane {
        let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        let mut plane = Plane::zeros(rect);
        for s in &mut plane.samples {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            *s = (state as i64) >> (64 - bits);
        }
        plane
    }

    /// The 5/3 lifting of T.800 F.4.8.2 written out with an explicit
    /// extension function: the reference the lifting must agree with.
    fn reference_forward(x: &[i64], start: u32) -> Vec<i64> {
        let (i0, i1) = (i64::from(start), i64::from(start) + x.len() as i64);
        if x.len() == 1 {
            return vec![if i0 % 2 == 1 { 2 * x[0] } else { x[0] }];
        }
        // Whole-sample symmetric extension, as often as it takes.
        let reflect = |mut i: i64| -> i64 {
            while i < i0 || i >= i1 {
                if i < i0 {
                    i = 2 * i0 - i;
                }
                if i >= i1 {
                    i = 2 * (i1 - 1) - i;
                }
            }
            i
        };
        let ext = |i: i64| x[(reflect(i) - i0) as usize];
        let mut y = vec![0i64; x.len()];
        // Odd outputs from X; even ones from the odd outputs (extended too).
        let odd = |n: i64| ext(n) - ((ext(n - 1) + ext(n + 1)) >> 1);
        let odd_ext = |i: i64| odd(reflect(i));
        for i in i0..i1 {
            y[(i - i0) as usize] = if i % 2 == 1 {
                odd(i)
            } else {
                ext(i) + ((odd_ext(i - 1) + odd_ext(i + 1) + 2) >> 2)
            };
        }
        y
    }

    #[test]
    fn lines_lift_as_the_standard_writes_it_and_back() {
        for len in 1..40usize {
            for start in [0u32, 1, 2, 7, 1000] {
                let original = random(
                    Rect {
                        x0: 0,
                        y0: 0,
                        x1: len as u32,
                        y1: 1,
                    },
                    len as u64 * 31 + u64::from(start),
                    33,
                )
                .samples;
                let (lows, highs) = if start & 1 == 0 {
                    (len.div_ceil(2), len / 2)
                } else {
                    (len / 2, len.div_ceil(2))
                };
                let (mut low, mut high) = (vec![0; lows], vec![0; highs]);
                split(&original, &mut low, &mut high, start);
                let mut interleaved = vec![0; len];
                interleave(&low, &high, &mut interleaved, start);
                assert_eq!(
                    interleaved,
                    reference_forward(&original, start),
                    "{len} from {start}"
                );
                let mut line = vec![0; len];
                join(&mut low, &mut high, &mut line, start);
                assert_eq!(line, original, "{len} from {start}");
            }
        }
    }

    #[test]
    fn planes_split_and_join_back_exactly_at_any_origin() {
        for (x0, y0, w, h) in [
            (0, 0, 53, 37),
            (3, 0, 1, 200),
            (0, 5, 200, 1),
            (7, 9, 2, 3),
            (1, 1, 1, 1),
            (0, 0, 128, 32),
        ] {
            let rect = area(x0, y0, w, h);
            let plane = random(rect, u64::from(w * h + x0), 34);
            let split = analyze(plane.clone());
            for (band, area) in split.iter().zip(bands(rect)) {
                assert_eq!(band.rect, area);
            }
            // The standard's order: every column lifted, then every row,
            // each sample then in the band its parities choose.
            let (w, h) = (w as usize, h as usize);
            let mut expected = plane.samples.clone();
            for x in 0..w {
                let column: Vec<i64> = (0..h).map(|y| expected[y * w + x]).collect();
                for (y, v) in reference_forward(&column, y0).into_iter().enumerate() {
                    expected[y * w + x] = v;
                }
            }
            for row in expected.chunks_exact_mut(w) {
                let lifted = reference_forward(row, x0);
                row.copy_from_slice(&lifted);
            }
            for (i, &v) in expected.iter().enumerate() {
                let (x, y) = (x0 + (i % w) as u32, y0 + (i / w) as u32);
                let band = &split[(x % 2 + 2 * (y % 2)) as usize];
                let bw = (band.rect.x1 - band.rect.x0) as usize;
                let at = (y / 2 - band.rect.y0) as usize * bw + (x / 2 - band.rect.x0) as usize;
                assert_eq!(band.samples[at], v, "{rect:?} at {x}, {y}");
            }
            let joined = synthesize(split, rect);
            assert_eq!(joined, plane, "{rect:?}");
        }
    }

    /// Rows made in a ring, each taken as it is done (and then changed, as
    /// the color transform changes them), are the rows of the plane made
    /// whole; a row the ring has passed is refused.
    #[test]
    fn rows_from_a_ring_are_the_planes() {
        for (x0, y0, w, h) in [
            (0, 0, 53, 37),
            (0, 1, 17, 5),
            (1, 0, 9, 6),
            (0, 0, 4, 4),
            (2, 3, 3, 1),
            (0, 0, 1, 9),
        ] {
            let rect = area(x0, y0, w, h);
            let plane = random(rect, u64::from(w * 7 + h), 30);
            let mut ring = Synthesis::new(analyze(plane.clone()), rect, true);
            let width = w as usize;
            for (y, expected) in plane.samples.chunks_exact(width).enumerate() {
                let row = ring.row(y).expect("a row");
                assert_eq!(row, expected, "{rect:?} row {y}");
                row.fill(-1);
            }
            assert_eq!(ring.row(h as usize), None);
            if h as usize > RING {
                assert_eq!(ring.row(0), None, "{rect:?}: a row the ring has passed");
            }
            ring.recycle();
        }
    }

    #[test]
    fn bands_are_the_geometrys() {
        use super::super::geometry::{self, Orientation};
        use super::super::markers::{Coding, Component, Quantization};
        let component = Component {
            depth: 16,
            signed: true,
            sampling: (1, 1),
            coding: Coding {
                levels: 1,
                block: (7, 5),
                reversible: true,
                precincts: vec![(15, 15); 2],
            },
            quantization: Quantization {
                guard: 1,
                exponents: vec![8; 4],
            },
            complement: false,
        };
        let rect = Rect {
            x0: 5,
            y0: 2,
            x1: 60,
            y1: 41,
        };
        let resolutions = geometry::resolutions(rect, &component).unwrap();
        let [ll, hl, lh, hh] = bands(rect);
        assert_eq!(resolutions[0].rect, ll);
        let from_geometry: Vec<(Orientation, Rect)> = resolutions[1]
            .bands
            .iter()
            .map(|b| (b.orientation, b.rect))
            .collect();
        assert_eq!(
            from_geometry,
            [
                (Orientation::Hl, hl),
                (Orientation::Lh, lh),
                (Orientation::Hh, hh)
            ]
        );
    }
}
