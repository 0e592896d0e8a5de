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
#[cfg(target_arch = "x86_64")]
use super::samples::Avx2;
use super::samples::{Kernel, Portable, Quads, Rows, Word};
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
        #[cfg(target_arch = "x86_64")]
        if let Some(kernel) = Avx2::detect()
            && let Some(out) = T::narrow(out)
        {
            return lines::<i32, u32, _>(&kernel, streams, &area, out);
        }
        lines::<T, u32, _>(&Portable, streams, &area, out)
    } else {
        lines::<T, u64, _>(&Portable, streams, &area, out)
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

/// The cleanup pass, a line-pair at a time: along it, a pair of quads at
/// a time, their VLC codewords (and MEL events), their `u`, and from those
/// each quad's `U` and first MagSgn bit; then `kernel` reads their samples
/// from MagSgn.
#[inline(always)]
fn lines<T: Coefficient, W: Word, K: Kernel<T, W>>(
    kernel: &K,
    streams: &mut Streams,
    area: &Area,
    out: &mut [T],
) -> Result<()> {
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
    // either end left 0, rewritten as the line-pair is decoded. Per
    // column `x`, at `x + 1`, the magnitude pattern of the line above's
    // sample there (the lower line of the pair above), one before and one
    // past the end left 0.
    let mut above = [0u8; MAX_WIDTH / 2 + 2];
    let mut above_v = [W::default(); MAX_WIDTH + 4];
    // The line-pair's quads, as VLC gives them to MagSgn (one past the
    // last, for a pair of quads that ends past the block).
    let mut placed = Placed {
        flags: [0; MAX_WIDTH / 2 + 1],
        big_u: [0; MAX_WIDTH / 2 + 1],
        start: [0; MAX_WIDTH / 2 + 1],
        pos: 0,
        bound,
    };
    // Set bits at and below the cleanup pass's plane's half, for the
    // reconstruction at the middle of what is not coded.
    let middle = if plane == 0 { 0 } else { 1u64 << (plane - 1) };
    for pair_row in 0..height.div_ceil(2) {
        let y = pair_row * 2;
        let later = pair_row > 0;
        let table = &tables[usize::from(later)];
        // `rho` of the quad above-left, which this line-pair's quads have
        // already overwritten, and of the quad on the left.
        let mut nw = 0u8;
        let mut left = 0u8;
        let mut q = 0;
        while q < quads {
            // Each quad by its own (not through an array of the pair,
            // which would be read back whole across its byte stores).
            let first = codeword(streams, table, later, &mut above, q, &mut nw, &mut left)?;
            let second = if q + 1 < quads {
                codeword(streams, table, later, &mut above, q + 1, &mut nw, &mut left)?
            } else {
                Quad::default()
            };
            let (u0, u1) = if first.u_off || second.u_off {
                let both = first.u_off && second.u_off;
                let event = (!later && both).then(|| streams.mel.event());
                residuals(&mut streams.vlc, (first.u_off, second.u_off), event)
            } else {
                (0, 0)
            };
            placed.place(q, first, u0, later, &above_v)?;
            placed.place(q + 1, second, u1, later, &above_v)?;
            q += 2;
        }
        let quads_of_line = Quads {
            flags: &placed.flags[..quads],
            big_u: &placed.big_u[..quads],
            start: &placed.start[..quads],
        };
        let rows = Rows {
            width,
            second_row: y + 1 < height,
            rows: (y * stride, (y + 1) * stride),
            plane,
            middle,
        };
        kernel.line(&quads_of_line, 0, &rows, &streams.magsgn, &mut above_v, out);
    }
    Ok(())
}

/// The codeword of quad `at` of a line-pair from VLC (and MEL where its
/// context is 0), its `rho` kept for the quads after it.
#[inline(always)]
fn codeword(
    streams: &mut Streams,
    table: &[Quad; 1024],
    later: bool,
    above: &mut [u8],
    at: usize,
    nw: &mut u8,
    left: &mut u8,
) -> Result<Quad> {
    let n = above[at];
    let context = if later {
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

/// A line-pair's quads as the VLC step leaves them for MagSgn's (see
/// [`Quads`]), and MagSgn's next bit.
struct Placed {
    flags: [u32; MAX_WIDTH / 2 + 1],
    big_u: [u32; MAX_WIDTH / 2 + 1],
    start: [u32; MAX_WIDTH / 2 + 1],
    pos: u32,
    /// The largest `U` a quad may have.
    bound: u32,
}

impl Placed {
    /// Quad `q`, its codeword `entry` and its residual `u`: its `U` from
    /// `u` and the exponents of the samples above it (`above_v`), and
    /// where its bits start.
    #[inline(always)]
    fn place<W: Word>(
        &mut self,
        q: usize,
        entry: Quad,
        u: u32,
        later: bool,
        above_v: &[W],
    ) -> Result<()> {
        let rho = u32::from(entry.rho);
        let x = 2 * q;
        let kappa = if later && rho & rho.wrapping_sub(1) != 0 {
            // Columns x - 1 to x + 2 of the line above.
            let neighbours = above_v[x] | above_v[x + 1] | above_v[x + 2] | above_v[x + 3];
            W::exponent(neighbours).max(2) - 1
        } else {
            1
        };
        let big_u = u + kappa;
        if big_u > self.bound && rho != 0 {
            return Err(corrupt(
                "an HTJ2K code-block whose magnitudes pass its bit-planes",
            ));
        }
        let e_k = u32::from(entry.e_k) & rho;
        self.flags[q] = rho | e_k << 4 | (u32::from(entry.e_1) & rho) << 8;
        self.big_u[q] = big_u;
        self.start[q] = self.pos;
        self.pos = self
            .pos
            .wrapping_add(big_u * rho.count_ones() - e_k.count_ones());
        Ok(())
    }
}
