//! MagSgn's step of the HT cleanup pass over a line-pair (ITU-T T.814
//! 7.3.8): each significant sample's magnitude bits and sign, read from the
//! bit position the VLC step found for its quad, into signed coefficients.
//!
//! Once every quad's position is known, quads are independent. Where every
//! magnitude fits 32 bits, a quad's samples hold at most 120 bits and come
//! out of one 128-bit window: AVX2 decodes two quads at a time that way,
//! and the portable path one, to the same values (past the stream, both
//! read the pad's ones).

use super::bits::MagSgn;
use super::wavelet::Coefficient;

/// The arithmetic of a code-block's magnitudes: `u32` where every
/// magnitude fits (the bit-planes of 16-bit components), `u64` otherwise.
pub(super) trait Word: Copy + Default + std::ops::BitOr<Output = Self> {
    /// What a quad's samples are read from, starting at its first bit.
    type Window: Copy;
    /// The window of the quad whose bits start at `pos`.
    fn window(magsgn: &MagSgn, pos: u32) -> Self::Window;
    /// The `bits` of a sample `offset` bits into its quad's `window`.
    fn bits(magsgn: &MagSgn, window: Self::Window, offset: u32, bits: u32) -> Self;
    /// A sample's magnitude pattern `v` from its MagSgn bits `low`
    /// (`bits` of them), its `e_1` bit and whether it is `significant`
    /// (0 or 1), and its signed value, `plane` and `middle` placing it.
    fn sample(
        low: Self,
        bits: u32,
        e_1: u32,
        significant: u32,
        plane: u32,
        middle: u64,
    ) -> (Self, i64);
    /// The bit-plane count of `v` (the exponent `E`, 0 for 0).
    fn exponent(v: Self) -> u32;
    /// Of a workspace's rows of `v`, the one of this type.
    fn above<'a>(narrow: &'a mut [u32], wide: &'a mut [u64]) -> &'a mut [Self];
}

impl Word for u32 {
    type Window = u128;

    #[inline(always)]
    fn window(magsgn: &MagSgn, pos: u32) -> u128 {
        magsgn.window(pos)
    }

    #[inline(always)]
    fn bits(_: &MagSgn, window: u128, offset: u32, bits: u32) -> u32 {
        (window >> offset) as u32 & ((1 << bits) - 1)
    }

    #[inline(always)]
    fn sample(
        low: u32,
        bits: u32,
        e_1: u32,
        significant: u32,
        plane: u32,
        middle: u64,
    ) -> (u32, i64) {
        let v = (low | e_1 << bits | 1) * significant;
        let magnitude = (((v + 2) >> 1) << plane | middle as u32) * significant;
        let sign = (low & 1).wrapping_neg();
        (v, i64::from((magnitude ^ sign).wrapping_sub(sign) as i32))
    }

    #[inline(always)]
    fn exponent(v: u32) -> u32 {
        u32::BITS - v.leading_zeros()
    }

    fn above<'a>(narrow: &'a mut [u32], _: &'a mut [u64]) -> &'a mut [u32] {
        narrow
    }
}

impl Word for u64 {
    /// The quad's first bit: each sample is read on its own.
    type Window = u32;

    #[inline(always)]
    fn window(_: &MagSgn, pos: u32) -> u32 {
        pos
    }

    #[inline(always)]
    fn bits(magsgn: &MagSgn, pos: u32, offset: u32, bits: u32) -> u64 {
        magsgn.bits(pos + offset, bits)
    }

    #[inline(always)]
    fn sample(
        low: u64,
        bits: u32,
        e_1: u32,
        significant: u32,
        plane: u32,
        middle: u64,
    ) -> (u64, i64) {
        let significant = u64::from(significant);
        let v = (low | u64::from(e_1) << bits | 1) * significant;
        let magnitude = (((v + 2) >> 1) << plane | middle) * significant;
        let sign = (low & 1).wrapping_neg();
        (v, (magnitude ^ sign).wrapping_sub(sign) as i64)
    }

    #[inline(always)]
    fn exponent(v: u64) -> u32 {
        u64::BITS - v.leading_zeros()
    }

    fn above<'a>(_: &'a mut [u32], wide: &'a mut [u64]) -> &'a mut [u64] {
        wide
    }
}

/// A line-pair's quads as the VLC step leaves them, one entry each.
pub(super) struct Quads<'a> {
    /// `rho`, `e_k` and `e_1` from bit 0, 4 and 8 (`e_k` and `e_1` only
    /// where `rho` is set).
    pub flags: &'a [u32],
    /// `U`: the bits of each significant sample, `e_k`'s less.
    pub big_u: &'a [u32],
    /// The position of the quad's first MagSgn bit.
    pub start: &'a [u32],
}

/// Where a line-pair's samples go and how their magnitudes are placed.
pub(super) struct Rows {
    /// The code-block's width.
    pub width: usize,
    /// The pair has its lower line.
    pub second_row: bool,
    /// Where the pair's two lines start in the output.
    pub rows: (usize, usize),
    /// The plane of the cleanup pass's least significant bit.
    pub plane: u32,
    /// The bits below it set for a reconstruction at the middle.
    pub middle: u64,
}

impl Rows {
    /// The quad at column `x` into `out`: samples 0 and 2 on the upper
    /// line, 1 and 3 on the lower, those past the block's edge left out.
    #[inline(always)]
    fn put<T: Coefficient>(&self, out: &mut [T], x: usize, values: [i64; 4]) {
        let (row0, row1) = self.rows;
        if x + 1 < self.width && self.second_row {
            out[row0 + x] = T::from_i64(values[0]);
            out[row0 + x + 1] = T::from_i64(values[2]);
            out[row1 + x] = T::from_i64(values[1]);
            out[row1 + x + 1] = T::from_i64(values[3]);
        } else {
            for (n, &value) in values.iter().enumerate() {
                let (dx, dy) = (n >> 1, n & 1);
                if x + dx < self.width && (dy == 0 || self.second_row) {
                    out[[row0, row1][dy] + x + dx] = T::from_i64(value);
                }
            }
        }
    }
}

/// How a line-pair's samples are decoded: [`Portable`] anywhere, or a
/// SIMD kernel where the processor has one.
pub(super) trait Kernel<T, W> {
    /// The samples of `quads[from..]` into `out`, the lower line's `v`
    /// into `below` (column `x` at `x + 1`).
    fn line(
        &self,
        quads: &Quads,
        from: usize,
        rows: &Rows,
        magsgn: &MagSgn,
        below: &mut [W],
        out: &mut [T],
    );
}

/// One quad at a time, in plain arithmetic.
pub(super) struct Portable;

impl<T: Coefficient, W: Word> Kernel<T, W> for Portable {
    #[inline(always)]
    fn line(
        &self,
        quads: &Quads,
        from: usize,
        rows: &Rows,
        magsgn: &MagSgn,
        below: &mut [W],
        out: &mut [T],
    ) {
        let Quads {
            flags,
            big_u,
            start,
        } = *quads;
        for q in from..flags.len() {
            let (values, v) = quad::<W>(
                magsgn,
                flags[q],
                big_u[q],
                start[q],
                rows.plane,
                rows.middle,
            );
            rows.put(out, 2 * q, values);
            below[2 * q + 1] = v[1];
            below[2 * q + 2] = v[3];
        }
    }
}

/// A quad's four signed values and magnitude patterns `v` (0 where not
/// significant), from its `flags`, `U` and first bit.
#[inline(always)]
fn quad<W: Word>(
    magsgn: &MagSgn,
    flags: u32,
    big_u: u32,
    start: u32,
    plane: u32,
    middle: u64,
) -> ([i64; 4], [W; 4]) {
    let window = W::window(magsgn, start);
    let mut v = [W::default(); 4];
    let mut values = [0i64; 4];
    let mut offset = 0;
    for n in 0..4 {
        let significant = flags >> n & 1;
        let bits = big_u.wrapping_sub(flags >> (4 + n) & 1) * significant;
        let low = W::bits(magsgn, window, offset, bits);
        offset += bits;
        (v[n], values[n]) = W::sample(low, bits, flags >> (8 + n) & 1, significant, plane, middle);
    }
    (values, v)
}

/// Two quads at a time on AVX2, the quads of a line-pair's edge one at a
/// time as [`Portable`] decodes them.
#[cfg(target_arch = "x86_64")]
pub(super) struct Avx2(());

#[cfg(target_arch = "x86_64")]
impl Avx2 {
    /// The kernel, where AVX2 kernels run ([`crate::cpu::avx2`]) and the
    /// processor has the instructions that come with AVX2 (BMI1 and 2,
    /// LZCNT, POPCNT), which the cleanup pass around it is compiled for.
    pub(super) fn detect() -> Option<Avx2> {
        if crate::cpu::avx2() {
            Avx2::on_this_processor()
        } else {
            None
        }
    }

    /// The kernel where the processor has its instructions, whether or
    /// not `OXPORT_PORTABLE=1` turns SIMD kernels off (the tests hold it
    /// to the portable path in either run).
    fn on_this_processor() -> Option<Avx2> {
        let has = || {
            std::arch::is_x86_feature_detected!("avx2")
                && std::arch::is_x86_feature_detected!("bmi1")
                && std::arch::is_x86_feature_detected!("bmi2")
                && std::arch::is_x86_feature_detected!("lzcnt")
                && std::arch::is_x86_feature_detected!("popcnt")
        };
        has().then_some(Avx2(()))
    }
}

#[cfg(target_arch = "x86_64")]
impl Kernel<i32, u32> for Avx2 {
    #[inline(always)]
    fn line(
        &self,
        quads: &Quads,
        from: usize,
        rows: &Rows,
        magsgn: &MagSgn,
        below: &mut [u32],
        out: &mut [i32],
    ) {
        // SAFETY: an `Avx2` is made only where the processor has AVX2.
        let done = unsafe { avx2::line(quads, from, rows, magsgn, below, out) };
        Portable.line(quads, done, rows, magsgn, below, out);
    }
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use std::arch::x86_64::*;

    use super::{MagSgn, Quads, Rows};

    /// The pairs of quads of `quads[from..]` whose four columns and two
    /// lines are all in the block; gives the first quad left.
    #[target_feature(enable = "avx2")]
    pub(super) fn line(
        quads: &Quads,
        from: usize,
        rows: &Rows,
        magsgn: &MagSgn,
        below: &mut [u32],
        out: &mut [i32],
    ) -> usize {
        if !rows.second_row {
            return from;
        }
        let (row0, row1) = rows.rows;
        // Pairs whose columns end at or before the block's edge.
        let end = from + (rows.width.saturating_sub(2 * from) / 4) * 2;
        let plane = _mm_cvtsi32_si128(rows.plane as i32);
        let middle = _mm256_set1_epi32(rows.middle as i32);
        let mut q = from;
        while q < end {
            let (values, v) = pair(quads, q, magsgn, plane, middle);
            let x = 2 * q;
            // Upper line: lanes 0, 2, 4, 6; lower line: 1, 3, 5, 7.
            let order = _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7);
            let values = _mm256_permutevar8x32_epi32(values, order);
            let v = _mm256_permutevar8x32_epi32(v, order);
            store(
                &mut out[row0 + x..row0 + x + 4],
                _mm256_castsi256_si128(values),
            );
            store(
                &mut out[row1 + x..row1 + x + 4],
                _mm256_extracti128_si256::<1>(values),
            );
            store(&mut below[x + 1..x + 5], _mm256_extracti128_si256::<1>(v));
            q += 2;
        }
        q
    }

    /// Four lanes into `to` (four long).
    #[inline]
    #[target_feature(enable = "avx2")]
    fn store<E>(to: &mut [E], lanes: __m128i) {
        assert_eq!(size_of_val(to), 16);
        // SAFETY: `to` holds 16 bytes (asserted above).
        unsafe { _mm_storeu_si128(to.as_mut_ptr().cast(), lanes) };
    }

    /// The 128 bits of MagSgn from bit `pos`, as [`MagSgn::window`].
    #[inline]
    #[target_feature(enable = "avx2")]
    fn window(magsgn: &MagSgn, pos: u32) -> __m128i {
        let at = magsgn.at(pos, 24);
        let bytes = &magsgn.packed()[at..at + 24];
        // SAFETY: `bytes` holds 24 bytes: 16 from its start and from 8.
        let (low, high) = unsafe {
            (
                _mm_loadu_si128(bytes.as_ptr().cast()),
                _mm_loadu_si128(bytes[8..].as_ptr().cast()),
            )
        };
        let k = (pos & 7) as i32;
        _mm_or_si128(
            _mm_srl_epi64(low, _mm_cvtsi32_si128(k)),
            _mm_sll_epi64(high, _mm_cvtsi32_si128(64 - k)),
        )
    }

    /// `values[q]` in lanes 0–3, `values[q + 1]` in lanes 4–7.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn both(values: &[u32], q: usize) -> __m256i {
        let pair = _mm_set_epi32(0, 0, values[q + 1] as i32, values[q] as i32);
        _mm256_permutevar8x32_epi32(
            _mm256_castsi128_si256(pair),
            _mm256_setr_epi32(0, 0, 0, 0, 1, 1, 1, 1),
        )
    }

    /// Per sample `n` of each quad, bit `first + n` of its `flags`.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn bit(flags: __m256i, first: i32) -> __m256i {
        let at = _mm256_add_epi32(
            _mm256_set1_epi32(first),
            _mm256_setr_epi32(0, 1, 2, 3, 0, 1, 2, 3),
        );
        _mm256_and_si256(_mm256_srlv_epi32(flags, at), _mm256_set1_epi32(1))
    }

    /// Quads `q` and `q + 1`: their samples' signed values and magnitude
    /// patterns `v`, in quad order (lanes 0–3 and 4–7).
    #[inline]
    #[target_feature(enable = "avx2")]
    fn pair(
        quads: &Quads,
        q: usize,
        magsgn: &MagSgn,
        plane: __m128i,
        middle: __m256i,
    ) -> (__m256i, __m256i) {
        let flags = both(quads.flags, q);
        let big_u = both(quads.big_u, q);
        let one = _mm256_set1_epi32(1);
        let significant = _mm256_sub_epi32(_mm256_setzero_si256(), bit(flags, 0));
        let e_k = bit(flags, 4);
        let e_1 = bit(flags, 8);
        // Each sample's bits and where they start in its quad's window.
        let bits = _mm256_and_si256(_mm256_sub_epi32(big_u, e_k), significant);
        let mut sum = _mm256_add_epi32(bits, _mm256_slli_si256::<4>(bits));
        sum = _mm256_add_epi32(sum, _mm256_slli_si256::<8>(sum));
        let offset = _mm256_sub_epi32(sum, bits);
        let windows = _mm256_inserti128_si256::<1>(
            _mm256_castsi128_si256(window(magsgn, quads.start[q])),
            window(magsgn, quads.start[q + 1]),
        );
        // The four bytes from each offset's byte, and the four after them.
        let byte = _mm256_srli_epi32(offset, 3);
        let spread = _mm256_setr_epi8(
            0, 0, 0, 0, 4, 4, 4, 4, 8, 8, 8, 8, 12, 12, 12, 12, 0, 0, 0, 0, 4, 4, 4, 4, 8, 8, 8, 8,
            12, 12, 12, 12,
        );
        let first = _mm256_add_epi32(
            _mm256_shuffle_epi8(byte, spread),
            _mm256_set1_epi32(0x0302_0100),
        );
        let low = _mm256_shuffle_epi8(windows, first);
        let high = _mm256_shuffle_epi8(
            windows,
            _mm256_add_epi32(first, _mm256_set1_epi32(0x0404_0404)),
        );
        let shift = _mm256_and_si256(offset, _mm256_set1_epi32(7));
        let mut low = _mm256_or_si256(
            _mm256_srlv_epi32(low, shift),
            _mm256_sllv_epi32(high, _mm256_sub_epi32(_mm256_set1_epi32(32), shift)),
        );
        low = _mm256_and_si256(low, _mm256_sub_epi32(_mm256_sllv_epi32(one, bits), one));
        // v, the magnitude and the sign, as `Word::sample` makes them.
        let v = _mm256_and_si256(
            _mm256_or_si256(_mm256_or_si256(low, _mm256_sllv_epi32(e_1, bits)), one),
            significant,
        );
        let magnitude = _mm256_and_si256(
            _mm256_or_si256(
                _mm256_sll_epi32(
                    _mm256_srli_epi32(_mm256_add_epi32(v, _mm256_set1_epi32(2)), 1),
                    plane,
                ),
                middle,
            ),
            significant,
        );
        let sign = _mm256_sub_epi32(_mm256_setzero_si256(), _mm256_and_si256(low, one));
        let values = _mm256_sub_epi32(_mm256_xor_si256(magnitude, sign), sign);
        (values, v)
    }
}

#[cfg(all(test, target_arch = "x86_64"))]
mod tests {
    use super::*;

    /// The AVX2 kernel gives every value and `v` the portable one does:
    /// every width, both lines or one, significance, `e_k`, `e_1` and `U`
    /// of every kind, streams of any bits, and quads that start past the
    /// stream's end (which read the pad's ones).
    #[test]
    fn the_avx2_kernel_decodes_as_the_portable_one() {
        let Some(kernel) = Avx2::on_this_processor() else {
            return crate::testing::skip(
                "this processor has no AVX2: the AVX2 MagSgn kernel is not tested here",
            );
        };
        let mut seed = 11u32;
        let mut next = move || {
            seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            seed >> 8
        };
        for case in 0..3000 {
            let width = 1 + next() as usize % 70;
            let quads = width.div_ceil(2);
            let data: Vec<u8> = (0..next() % 200).map(|_| next() as u8).collect();
            let mut scratch = vec![0u8; super::super::bits::unstuffed_size(data.len())];
            let magsgn = MagSgn::new(&data, &mut scratch);
            let plane = next() % 12;
            let bound = 2 + next() % (29 - plane);
            let (mut flags, mut big_u, mut start) = (vec![], vec![], vec![]);
            let mut pos = next() % 16;
            for _ in 0..quads {
                let rho = if next() % 4 == 0 { 0 } else { next() & 15 };
                let e_k = next() & rho;
                let u = 1 + next() % bound;
                flags.push(rho | e_k << 4 | (next() & rho) << 8);
                big_u.push(u);
                start.push(pos);
                pos += u * rho.count_ones() - e_k.count_ones();
            }
            let quads = Quads {
                flags: &flags,
                big_u: &big_u,
                start: &start,
            };
            let stride = width + 3;
            let rows = Rows {
                width,
                second_row: case % 5 != 0,
                rows: (1, 1 + stride),
                plane,
                middle: if plane == 0 { 0 } else { 1 << (plane - 1) },
            };
            let mut expected = (vec![-7i32; 2 * stride + 2], vec![5u32; width + 4]);
            let mut got = expected.clone();
            Portable.line(&quads, 0, &rows, &magsgn, &mut expected.1, &mut expected.0);
            kernel.line(&quads, 0, &rows, &magsgn, &mut got.1, &mut got.0);
            assert_eq!(got, expected, "case {case}");
        }
    }
}
