//! The HT cleanup pass (ITU-T T.814 clause 7): a code-block's samples in
//! quads of 2 × 2, a pair of quads at a time along each line-pair. VLC
//! (with MEL events where a quad's context is 0) gives each quad's
//! significance, EMB patterns and unsigned residual `u`; from `u` and the
//! exponents of the line above comes the bound `U` on each significant
//! sample's magnitude bits, which MagSgn then holds with the sign.
//!
//! Only the cleanup pass is decoded: OpenEXR's encoder writes nothing
//! else, and code-blocks with SigProp and MagRef passes are refused.

use super::bits::{Backward, MagSgn, Mel, split_cleanup, unstuffed_size};
use super::packets::Block;
use super::vlc::{LOOKUPS, Quad};
use super::wavelet::Coefficient;
use crate::scratch::with_buffer;
use crate::{Error, Result};

fn corrupt(what: &'static str) -> Error {
    Error::corrupt(what)
}

/// A U-VLC prefix read from the low bits of `bits`: its length, its
/// suffix's length and its value (T.814's prefix codes "1", "01", "001",
/// "000").
fn prefix(bits: u32) -> (u32, u32, u32) {
    if bits & 1 == 1 {
        (1, 0, 1)
    } else if bits & 2 == 2 {
        (2, 0, 2)
    } else if bits & 4 == 4 {
        (3, 1, 3)
    } else {
        (3, 5, 5)
    }
}

/// The `u` of the quads of a pair whose `u_off` are `offsets`, from VLC;
/// `mel`: the initial line-pair's MEL event when both are set (`None`
/// elsewhere).
#[inline(always)]
fn residuals(vlc: &mut Backward, offsets: (bool, bool), mel: Option<bool>) -> (u32, u32) {
    let (mut u0, mut u1) = (0, 0);
    // What each `u` is compared with before its extension is read.
    let (mut bias0, mut bias1) = (0, 0);
    match offsets {
        (false, false) => return (0, 0),
        (true, false) | (false, true) => {
            let (length, suffix, value) = prefix(vlc.peek());
            vlc.advance(length);
            let u = value + vlc.take(suffix);
            if offsets.0 {
                u0 = u;
            } else {
                u1 = u;
            }
        }
        (true, true) => {
            let (l0, s0, v0) = prefix(vlc.peek());
            vlc.advance(l0);
            match mel {
                Some(true) => {
                    let (l1, s1, v1) = prefix(vlc.peek());
                    vlc.advance(l1);
                    u0 = v0 + 2 + vlc.take(s0);
                    u1 = v1 + 2 + vlc.take(s1);
                    (bias0, bias1) = (2, 2);
                }
                Some(false) if l0 == 3 => {
                    // The first quad's `u` is 3 or more: the second's is 1
                    // or 2, one bit.
                    u1 = vlc.take(1) + 1;
                    u0 = v0 + vlc.take(s0);
                    bias1 = 1;
                }
                _ => {
                    let (l1, s1, v1) = prefix(vlc.peek());
                    vlc.advance(l1);
                    u0 = v0 + vlc.take(s0);
                    u1 = v1 + vlc.take(s1);
                }
            }
        }
    }
    // Extensions, for `u` past 32.
    if u0 - bias0 > 32 {
        u0 += vlc.take(4) << 2;
    }
    if u1 - bias1 > 32 {
        u1 += vlc.take(4) << 2;
    }
    (u0, u1)
}

/// The VLC context of a quad of the initial line-pair from the quad on its
/// left (T.814 7.3.5).
#[inline(always)]
pub(super) fn initial_context(left: u8) -> u8 {
    (left & 1 | left >> 1 & 1) | (left >> 2 & 1) << 1 | (left >> 3 & 1) << 2
}

/// The VLC context of a quad of a later line-pair from its neighbours: the
/// quad on its left and those above-left, above and above-right.
#[inline(always)]
pub(super) fn later_context(left: u8, nw: u8, n: u8, ne: u8) -> u8 {
    (nw >> 3 & 1 | n >> 1 & 1)
        | (left >> 2 & 1 | left >> 3 & 1) << 1
        | (n >> 3 & 1 | ne >> 1 & 1) << 2
}

/// The widest code-block (COD's exponent is at most 10).
const MAX_WIDTH: usize = 1024;

/// The arithmetic of a code-block's magnitudes: `u32` where every
/// magnitude fits (the bit-planes of 16-bit components), `u64` otherwise.
trait Word: Copy + Default + std::ops::BitOr<Output = Self> {
    /// The next `bits` of MagSgn.
    fn take(magsgn: &mut MagSgn, bits: u32) -> Self;
    /// A sample's magnitude pattern `v` from its MagSgn bits `low`
    /// (`bits` of them), its `e_1` bit and whether it is `significant`
    /// (0 or 1), and its signed value, `plane` and `middle` placing it.
    fn sample(
        low: Self,
        bits: u32,
        e_1: u8,
        significant: u8,
        plane: u32,
        middle: u64,
    ) -> (Self, i64);
    /// The bit-plane count of `v` (the exponent `E`, 0 for 0).
    fn exponent(v: Self) -> u32;
}

macro_rules! word {
    ($t:ty, $signed:ty, $take:ident) => {
        impl Word for $t {
            #[inline(always)]
            fn take(magsgn: &mut MagSgn, bits: u32) -> Self {
                magsgn.$take(bits) as $t
            }
            #[inline(always)]
            fn sample(
                low: Self,
                bits: u32,
                e_1: u8,
                significant: u8,
                plane: u32,
                middle: u64,
            ) -> (Self, i64) {
                let significant = <$t>::from(significant);
                let v = (low | <$t>::from(e_1) << bits | 1) * significant;
                let magnitude = (((v + 2) >> 1) << plane | middle as $t) * significant;
                let sign = (low & 1).wrapping_neg();
                (v, (magnitude ^ sign).wrapping_sub(sign) as $signed as i64)
            }
            #[inline(always)]
            fn exponent(v: Self) -> u32 {
                <$t>::BITS - v.leading_zeros()
            }
        }
    };
}

word!(u32, i32, take);
word!(u64, i64, take_long);

/// Decodes `block` (`width` × `height` samples) into `out`, row after row
/// `stride` apart: each sample's coefficient, sign and magnitude (zero for
/// those that are not significant), every sample of the area written.
pub(super) fn decode<T: Coefficient>(
    block: &Block,
    width: usize,
    height: usize,
    out: &mut [T],
    stride: usize,
) -> Result<()> {
    if block.passes > 1 {
        return Err(Error::Unsupported(
            "HTJ2K code-blocks with SigProp and MagRef passes (OpenEXR writes the cleanup pass alone)".into(),
        ));
    }
    if width == 0 || height == 0 {
        return Ok(());
    }
    if width > MAX_WIDTH || out.len() < (height - 1) * stride + width {
        return Err(Error::Internal("HTJ2K: a code-block past its band".into()));
    }
    let (magsgn, tail) = split_cleanup(block.cleanup)?;
    with_buffer(unstuffed_size(magsgn.len()), |scratch| {
        let mut streams = Streams {
            mel: Mel::new(tail),
            vlc: Backward::vlc(tail),
            magsgn: MagSgn::new(magsgn, scratch),
        };
        cleanup::<T>(block, width, height, &mut streams, out, stride)
    })
}

/// The cleanup pass over `streams`, once they are set up.
fn cleanup<T: Coefficient>(
    block: &Block,
    width: usize,
    height: usize,
    streams: &mut Streams,
    out: &mut [T],
    stride: usize,
) -> Result<()> {
    // The plane of the cleanup pass's least significant bit.
    let plane = u32::from(block.planes)
        .checked_sub(1 + u32::from(block.missing))
        .ok_or_else(|| corrupt("an HTJ2K code-block missing every bit-plane its band has"))?;
    // Magnitudes past 62 bits fit no coefficient.
    if plane + u32::from(block.missing) > 60 {
        return Err(corrupt(
            "an HTJ2K code-block of more bit-planes than any sample has",
        ));
    }
    let bound = u32::from(block.missing) + 2;
    let area = Area {
        width,
        height,
        stride,
        plane,
        bound,
    };
    // A magnitude pattern `v` has up to `bound + 1` bits; its magnitude
    // `bound + plane`, and a sign.
    if bound + plane < 31 {
        lines::<T, u32>(streams, &area, out)
    } else {
        lines::<T, u64>(streams, &area, out)
    }
}

/// A code-block's three streams of its cleanup pass.
struct Streams<'a> {
    mel: Mel<'a>,
    vlc: Backward<'a>,
    magsgn: MagSgn<'a>,
}

/// A code-block's shape and bit-planes.
struct Area {
    width: usize,
    height: usize,
    stride: usize,
    /// The plane of the cleanup pass's least significant bit.
    plane: u32,
    /// The largest `U` a quad may have.
    bound: u32,
}

/// The cleanup pass, a line-pair at a time and along it a pair of quads at
/// a time: their VLC codewords (and MEL events), their `u`, then their
/// samples from MagSgn.
#[inline(always)]
fn lines<T: Coefficient, W: Word>(streams: &mut Streams, area: &Area, out: &mut [T]) -> Result<()> {
    let Area {
        width,
        height,
        stride,
        plane,
        bound,
    } = *area;
    let tables = &*LOOKUPS;
    let quads = width.div_ceil(2);
    // Per quad of the line-pair above, its significance (`rho`), one past
    // either end left 0; per column, the magnitude pattern of the line
    // above's sample there (the lower line of the pair above), one before
    // and one past the end left 0. Each is rewritten as the line-pair is
    // decoded, the values the next quads need kept aside.
    let mut above = [0u8; MAX_WIDTH / 2 + 2];
    let mut above_v = [W::default(); MAX_WIDTH + 3];
    // The line-pair's quads, as VLC gives them to MagSgn (one past the
    // last, for a pair of quads that ends past the block).
    let mut coded = [Coded::default(); MAX_WIDTH / 2 + 1];
    for pair_row in 0..height.div_ceil(2) {
        let y = pair_row * 2;
        let mut line = Line {
            later: pair_row > 0,
            width,
            second_row: y + 1 < height,
            rows: (y * stride, (y + 1) * stride),
            plane,
            // Set bits at and below the cleanup pass's plane's half, for
            // the reconstruction at the middle of what is not coded.
            middle: if plane == 0 { 0 } else { 1u64 << (plane - 1) },
            bound,
            west_v: W::default(),
        };
        let table = &tables[usize::from(line.later)];
        // `rho` of the quad above-left, which this line-pair's quads have
        // already overwritten, and of the quad on the left.
        let mut nw = 0u8;
        let mut left = 0u8;
        // VLC and MEL along the line-pair: each quad's codeword and `u`
        // (what MagSgn needs of the line-pair above was kept before).
        let mut q = 0;
        while q < quads {
            // Each quad by its own (not through an array of the pair,
            // which would be read back whole across its byte stores).
            let first = codeword(streams, table, &line, &mut above, q, &mut nw, &mut left)?;
            let second = if q + 1 < quads {
                codeword(streams, table, &line, &mut above, q + 1, &mut nw, &mut left)?
            } else {
                Quad::default()
            };
            let (u0, u1) = if first.u_off || second.u_off {
                let both = first.u_off && second.u_off;
                let event = (!line.later && both).then(|| streams.mel.event());
                residuals(&mut streams.vlc, (first.u_off, second.u_off), event)
            } else {
                (0, 0)
            };
            coded[q] = Coded::of(first, u0);
            coded[q + 1] = Coded::of(second, u1);
            q += 2;
        }
        // MagSgn along the line-pair: each significant sample's magnitude
        // and sign.
        for (q, quad) in coded[..quads].iter().enumerate() {
            line.samples(
                &mut streams.magsgn,
                quad.entry(),
                quad.u(),
                2 * q,
                &mut above_v,
                out,
            )?;
        }
    }
    Ok(())
}

/// The codeword of quad `at` of a line-pair from VLC (and MEL where its
/// context is 0), its `rho` kept for the quads after it.
#[inline(always)]
fn codeword<W>(
    streams: &mut Streams,
    table: &[Quad; 1024],
    line: &Line<W>,
    above: &mut [u8],
    at: usize,
    nw: &mut u8,
    left: &mut u8,
) -> Result<Quad> {
    let n = above[at];
    let context = if line.later {
        later_context(*left, *nw, n, above[at + 1])
    } else {
        initial_context(*left)
    };
    *nw = n;
    let mut entry = Quad::default();
    if context != 0 || streams.mel.event() {
        entry = table[usize::from(context) << 7 | (streams.vlc.peek() & 0x7F) as usize];
        if entry.length == 0 {
            return Err(corrupt(
                "an HTJ2K code-block with a VLC codeword of no table",
            ));
        }
        streams.vlc.advance(u32::from(entry.length));
    }
    *left = entry.rho;
    above[at] = entry.rho;
    Ok(entry)
}

/// A quad's codeword and `u` packed in one word (`rho`, `e_k`, `e_1`
/// and `u` from bit 0, 4, 8 and 16), as VLC's pass along a line-pair
/// leaves them for MagSgn's.
#[derive(Clone, Copy, Default)]
struct Coded(u32);

impl Coded {
    #[inline(always)]
    fn of(quad: Quad, u: u32) -> Self {
        Coded(
            u32::from(quad.rho & 15)
                | u32::from(quad.e_k & 15) << 4
                | u32::from(quad.e_1 & 15) << 8
                | u << 16,
        )
    }

    #[inline(always)]
    fn entry(self) -> Quad {
        Quad {
            rho: self.0 as u8 & 15,
            e_k: (self.0 >> 4) as u8 & 15,
            e_1: (self.0 >> 8) as u8 & 15,
            ..Quad::default()
        }
    }

    #[inline(always)]
    fn u(self) -> u32 {
        self.0 >> 16
    }
}

/// What the quads of one line-pair share.
struct Line<W> {
    /// Not the initial line-pair.
    later: bool,
    width: usize,
    /// The pair has its lower line.
    second_row: bool,
    /// Where the pair's two lines start in the output.
    rows: (usize, usize),
    plane: u32,
    middle: u64,
    bound: u32,
    /// `v` of the column above-left of the next quad, which the quad
    /// before it has overwritten.
    west_v: W,
}

impl<W: Word> Line<W> {
    /// The samples of the quad at column `x` (`entry` its codeword, `u`
    /// its residual) from MagSgn, into `out`; the lower line's `v` into
    /// `above_v` for the line-pair below.
    #[inline(always)]
    fn samples<T: Coefficient>(
        &mut self,
        magsgn: &mut MagSgn,
        entry: Quad,
        u: u32,
        x: usize,
        above_v: &mut [W],
        out: &mut [T],
    ) -> Result<()> {
        // Columns x - 1 .. x + 2 of the line above, before this quad's
        // samples replace columns x and x + 1.
        let west = self.west_v;
        self.west_v = above_v[x + 2];
        if entry.rho == 0 {
            above_v[x + 1] = W::default();
            above_v[x + 2] = W::default();
            self.put(out, x, [0; 4]);
            return Ok(());
        }
        let kappa = if self.later && entry.rho & (entry.rho - 1) != 0 {
            let neighbours = west | above_v[x + 1] | above_v[x + 2] | above_v[x + 3];
            W::exponent(neighbours).max(2) - 1
        } else {
            1
        };
        let big_u = u + kappa;
        if big_u > self.bound {
            return Err(corrupt(
                "an HTJ2K code-block whose magnitudes pass its bit-planes",
            ));
        }
        // Each sample's magnitude pattern `v` (0 where not significant)
        // and signed value, without a branch on which are significant.
        let mut v = [W::default(); 4];
        let mut values = [0i64; 4];
        for n in 0..4 {
            let significant = entry.rho >> n & 1;
            let bits = (big_u - u32::from(entry.e_k >> n & 1)) * u32::from(significant);
            let low = W::take(magsgn, bits);
            (v[n], values[n]) = W::sample(
                low,
                bits,
                entry.e_1 >> n & 1,
                significant,
                self.plane,
                self.middle,
            );
        }
        self.put(out, x, values);
        above_v[x + 1] = v[1];
        above_v[x + 2] = v[3];
        Ok(())
    }

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
