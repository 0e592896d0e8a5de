//! The reversible 5/3 wavelet (ITU-T T.800 F.3 and F.4, `5-3R`): integer
//! lifting with whole-sample symmetric extension at each edge, on samples
//! whose parity on the reference grid says whether they are low-pass
//! (even) or high-pass (odd). One level at a time: `synthesize` joins a
//! resolution's four bands into it (rows, then columns), `analyze` splits
//! it (columns, then rows) exactly back.
//!
//! Samples are `i64`: 32-bit components grow past `i32` through the
//! levels and the color transform.

use super::markers::Rect;

/// A rectangle of samples, row after row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Plane {
    pub(super) rect: Rect,
    pub(super) samples: Vec<i64>,
}

impl Plane {
    pub(super) fn zeros(rect: Rect) -> Self {
        let samples = vec![0; width(rect) * height(rect)];
        Plane { rect, samples }
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

/// Undoes one level of lifting on `line`, whose first sample has index
/// `start` on its axis (F.3.8, `1D_FILTR_5-3R`).
fn inverse_line(line: &mut [i64], start: u32) {
    let n = line.len();
    let odd_first = start % 2 == 1;
    if n == 1 {
        if odd_first {
            line[0] >>= 1;
        }
        return;
    }
    // Whole-sample symmetric extension: the neighbour past an edge is the
    // one on the other side.
    let before = |line: &[i64], i: usize| if i == 0 { line[1] } else { line[i - 1] };
    let after = |line: &[i64], i: usize| if i + 1 == n { line[n - 2] } else { line[i + 1] };
    let first_even = usize::from(odd_first);
    for i in (first_even..n).step_by(2) {
        line[i] -= (before(line, i) + after(line, i) + 2) >> 2;
    }
    for i in (1 - first_even..n).step_by(2) {
        line[i] += (before(line, i) + after(line, i)) >> 1;
    }
}

/// One level of lifting on `line` (F.4.8, `1D_FILTD_5-3R`), the inverse of
/// [`inverse_line`].
fn forward_line(line: &mut [i64], start: u32) {
    let n = line.len();
    let odd_first = start % 2 == 1;
    if n == 1 {
        if odd_first {
            line[0] <<= 1;
        }
        return;
    }
    let before = |line: &[i64], i: usize| if i == 0 { line[1] } else { line[i - 1] };
    let after = |line: &[i64], i: usize| if i + 1 == n { line[n - 2] } else { line[i + 1] };
    let first_even = usize::from(odd_first);
    for i in (1 - first_even..n).step_by(2) {
        line[i] -= (before(line, i) + after(line, i)) >> 1;
    }
    for i in (first_even..n).step_by(2) {
        line[i] += (before(line, i) + after(line, i) + 2) >> 2;
    }
}

/// Whether index `v` on an axis is even, as a band selector.
fn parity(v: u32) -> usize {
    (v % 2) as usize
}

/// One level of synthesis (F.3.2, `2D_SR`): the bands `[ll, hl, lh, hh]`
/// of `rect` (as [`bands`] gives their areas) interleaved, then lifted
/// along the rows and then along the columns.
pub(super) fn synthesize(bands_of: [&Plane; 4], rect: Rect) -> Plane {
    let mut out = Plane::zeros(rect);
    let (w, h) = (width(rect), height(rect));
    if w == 0 || h == 0 {
        return out;
    }
    for y in rect.y0..rect.y1 {
        let row = (y - rect.y0) as usize * w;
        for x in rect.x0..rect.x1 {
            let band = bands_of[parity(x) + 2 * parity(y)];
            let (bx, by) = (x / 2 - band.rect.x0, y / 2 - band.rect.y0);
            out.samples[row + (x - rect.x0) as usize] =
                band.samples[by as usize * width(band.rect) + bx as usize];
        }
    }
    for row in out.samples.chunks_exact_mut(w) {
        inverse_line(row, rect.x0);
    }
    each_column(&mut out.samples, w, |column| inverse_line(column, rect.y0));
    out
}

/// `lift` on each column of the `w`-wide `samples`.
fn each_column(samples: &mut [i64], w: usize, mut lift: impl FnMut(&mut [i64])) {
    let mut column = vec![0; samples.len() / w];
    for x in 0..w {
        for (y, sample) in column.iter_mut().enumerate() {
            *sample = samples[y * w + x];
        }
        lift(&mut column);
        for (y, &sample) in column.iter().enumerate() {
            samples[y * w + x] = sample;
        }
    }
}

/// One level of analysis (F.4.2, `2D_SD`), the inverse of [`synthesize`]:
/// `plane` lifted along the columns and then the rows, and split into its
/// bands `[ll, hl, lh, hh]`.
pub(super) fn analyze(plane: &Plane) -> [Plane; 4] {
    let rect = plane.rect;
    let mut bands_out = bands(rect).map(Plane::zeros);
    let (w, h) = (width(rect), height(rect));
    if w == 0 || h == 0 {
        return bands_out;
    }
    let mut samples = plane.samples.clone();
    each_column(&mut samples, w, |column| forward_line(column, rect.y0));
    for row in samples.chunks_exact_mut(w) {
        forward_line(row, rect.x0);
    }
    for y in rect.y0..rect.y1 {
        let row = (y - rect.y0) as usize * w;
        for x in rect.x0..rect.x1 {
            let band = &mut bands_out[parity(x) + 2 * parity(y)];
            let (bx, by) = (x / 2 - band.rect.x0, y / 2 - band.rect.y0);
            let bw = width(band.rect);
            band.samples[by as usize * bw + bx as usize] = samples[row + (x - rect.x0) as usize];
        }
    }
    bands_out
}

#[cfg(test)]
mod tests {
    use super::*;

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
    /// extension function: the reference `forward_line` must agree with.
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
                let mut line = original.clone();
                forward_line(&mut line, start);
                assert_eq!(
                    line,
                    reference_forward(&original, start),
                    "{len} from {start}"
                );
                inverse_line(&mut line, start);
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
            let rect = Rect {
                x0,
                y0,
                x1: x0 + w,
                y1: y0 + h,
            };
            let plane = random(rect, u64::from(w * h + x0), 34);
            let split = analyze(&plane);
            for (band, area) in split.iter().zip(bands(rect)) {
                assert_eq!(band.rect, area);
            }
            let joined = synthesize([&split[0], &split[1], &split[2], &split[3]], rect);
            assert_eq!(joined, plane, "{rect:?}");
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
