//! The HT cleanup pass (ITU-T T.814 clause 7): a code-block's samples in
//! quads of 2 × 2, a pair of quads at a time along each line-pair. VLC
//! (with MEL events where a quad's context is 0) gives each quad's
//! significance, EMB patterns and unsigned residual `u`; from `u` and the
//! exponents of the line above comes the bound `U` on each significant
//! sample's magnitude bits, which MagSgn then holds with the sign.
//!
//! Only the cleanup pass is decoded: OpenEXR's encoder writes nothing
//! else, and code-blocks with SigProp and MagRef passes are refused.

use super::bits::{MagSgn, Mel, Vlc, split_cleanup, unstuffed_size, vlc_unstuffed_size};
use super::packets::Block;
#[cfg(target_arch = "x86_64")]
use super::samples::Avx2;
use super::samples::{Kernel, Portable, Quads, Rows, Word};
use super::vlc::{LOOKUPS, Lookup, PREFIXES, Quad};
use super::wavelet::Coefficient;
use crate::scratch::with_buffer;
use crate::{Error, Result};

fn corrupt(what: &'static str) -> Error {
    Error::corrupt(what)
}

/// The `u` of a pair of quads from VLC: `which` their residuals are (the
/// first index of [`PREFIXES`]).
#[inline(always)]
fn residuals(vlc: &mut Vlc, which: usize) -> (u32, u32) {
    let bits = vlc.peek();
    let prefixes = PREFIXES[which][(bits & 63) as usize];
    let [s0, s1] = prefixes.suffixes.map(u32::from);
    // The suffixes follow the prefixes in the bits already at hand: one
    // advance for all of them.
    let length = u32::from(prefixes.length);
    let suffixes = bits >> length;
    vlc.advance(u32::from(prefixes.total));
    let mut u0 = u32::from(prefixes.values[0]) + (suffixes & ((1 << s0) - 1));
    let mut u1 = u32::from(prefixes.values[1]) + (suffixes >> s0 & ((1 << s1) - 1));
    // Extensions, for `u` past 32.
    if u0 > 32 {
        u0 += vlc.take(4) << 2;
    }
    if u1 > 32 {
        u1 += vlc.take(4) << 2;
    }
    let plus = u32::from(prefixes.plus);
    (u0 + plus, u1 + plus)
}

/// The VLC context of a quad of the initial line-pair from the quad on its
/// left (T.814 7.3.5).
#[inline(always)]
pub(super) fn initial_context(left: u8) -> u8 {
    (left & 1 | left >> 1 & 1) | (left >> 2 & 1) << 1 | (left >> 3 & 1) << 2
}

/// The VLC context of a quad of a later line-pair from its neighbours:
/// the quad on its left and those above-left, above and above-right.
#[inline(always)]
pub(super) fn later_context(left: u8, nw: u8, n: u8, ne: u8) -> u8 {
    context_above(nw, n, ne) | context_left(left)
}

/// What the quads above-left, above and above-right give a later
/// line-pair's context.
#[inline(always)]
fn context_above(nw: u8, n: u8, ne: u8) -> u8 {
    (nw >> 3 & 1 | n >> 1 & 1) | (n >> 3 & 1 | ne >> 1 & 1) << 2
}

/// What the quad on the left gives a later line-pair's context.
#[inline(always)]
pub(super) fn context_left(left: u8) -> u8 {
    (left >> 2 & 1 | left >> 3 & 1) << 1
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
    workspace: &mut Workspace,
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
    let split = unstuffed_size(magsgn.len());
    with_buffer(split + vlc_unstuffed_size(tail.len()), |scratch| {
        let (magsgn_scratch, vlc_scratch) = scratch.split_at_mut(split);
        let mut streams = Streams {
            mel: Mel::new(tail),
            vlc: Vlc::new(tail, vlc_scratch),
            magsgn: MagSgn::new(magsgn, magsgn_scratch),
        };
        cleanup::<T>(block, width, height, &mut streams, out, stride, workspace)
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
    workspace: &mut Workspace,
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
            // SAFETY: an `Avx2` is made only where the processor has the
            // instructions `lines_avx2` is compiled for.
            return unsafe { lines_avx2(&kernel, streams, &area, out, workspace) };
        }
        lines::<T, u32, _>(&Portable, streams, &area, out, workspace)
    } else {
        lines::<T, u64, _>(&Portable, streams, &area, out, workspace)
    }
}

/// A code-block's three streams of its cleanup pass.
struct Streams<'a> {
    mel: Mel<'a>,
    vlc: Vlc<'a>,
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

/// [`lines`] with the AVX2 kernel, compiled for the instructions that come
/// with AVX2 (BMI2's shifts, which VLC's reads wait on, LZCNT, POPCNT).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
fn lines_avx2(
    kernel: &Avx2,
    streams: &mut Streams,
    area: &Area,
    out: &mut [i32],
    workspace: &mut Workspace,
) -> Result<()> {
    lines::<i32, u32, _>(kernel, streams, area, out, workspace)
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
    workspace: &mut Workspace,
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
    let Workspace { above, placed, .. } = workspace;
    let above_v = W::above(&mut workspace.narrow_v, &mut workspace.wide_v);
    above.rho[..quads + 2].fill(0);
    above_v[..width + 4].fill(W::default());
    // MagSgn's next bit.
    let mut pos = 0;
    // Set bits at and below the cleanup pass's plane's half, for the
    // reconstruction at the middle of what is not coded.
    let middle = if plane == 0 { 0 } else { 1u64 << (plane - 1) };
    for pair_row in 0..height.div_ceil(2) {
        let y = pair_row * 2;
        let line = Line {
            quads,
            bound,
            above_v,
        };
        if pair_row == 0 {
            vlc_line::<false, W>(streams, &tables[0], &line, above, placed, &mut pos)?;
        } else {
            vlc_line::<true, W>(streams, &tables[1], &line, above, placed, &mut pos)?;
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
        kernel.line(&quads_of_line, 0, &rows, &streams.magsgn, above_v, out);
    }
    Ok(())
}

/// What the VLC step along a line-pair reads beside its streams.
struct Line<'a, W> {
    /// The line-pair's quads.
    quads: usize,
    /// The largest `U` a quad may have.
    bound: u32,
    /// Per column `x`, at `x + 1`, `v` of the line above.
    above_v: &'a [W],
}

/// VLC and MEL along a line-pair (a later one where `LATER`), a pair of
/// quads at a time: their codewords, their `u`, and from those each
/// quad's `U` and first MagSgn bit (from `pos`, which it advances) into
/// `placed`. Damage is noted along the line-pair and refused at its end.
#[inline(always)]
fn vlc_line<const LATER: bool, W: Word>(
    streams: &mut Streams,
    table: &Lookup,
    line: &Line<W>,
    above: &mut Above,
    placed: &mut Placed,
    pos: &mut u32,
) -> Result<()> {
    let Line {
        quads,
        bound,
        above_v,
    } = *line;
    // What the line-pair above gives each quad's context, before this
    // line-pair's `rho` replace it, and its `kappa` where more than one of
    // its samples is significant, less 1: one less than the largest
    // exponent of the samples above it, columns x - 1 to x + 2 (at least
    // 1). A quad past the line's end (of an odd number) reads what an
    // earlier line left there, and its `gamma` of 0 drops it.
    let Above {
        rho,
        context: from_above,
        kappa: kappa_above,
    } = above;
    if LATER {
        for (q, (context, kappa)) in from_above[..quads]
            .iter_mut()
            .zip(&mut kappa_above[..quads])
            .enumerate()
        {
            *context = context_above(rho[q], rho[q + 1], rho[q + 2]);
            let x = 2 * q;
            let neighbours = above_v[x] | above_v[x + 1] | above_v[x + 2] | above_v[x + 3];
            *kappa = W::exponent(neighbours).max(2) as u8 - 2;
        }
    }
    // The streams' and the line's state in locals, which stay in
    // registers (MEL's event, not inlined, sees only MEL). The serial
    // loop decodes only what the next codeword waits on: each quad's
    // lookup entry and `u`, left in `placed.flags` and `placed.big_u`.
    let mut vlc = streams.vlc;
    let mel = &mut streams.mel;
    let mut left = Quad::default();
    let mut q = 0;
    while q < quads {
        // At least 56 bits: a pair's codewords and residuals take 38 at
        // most.
        vlc.refill();
        let first = codeword::<LATER>(&mut vlc, mel, table, from_above[q], &mut left);
        let second = if q + 1 < quads {
            codeword::<LATER>(&mut vlc, mel, table, from_above[q + 1], &mut left)
        } else {
            Quad::default()
        };
        let mut which = first.u_off() | second.u_off() << 1;
        if !LATER && which == 3 {
            which += 1 + usize::from(mel.event());
        }
        let (u0, u1) = residuals(&mut vlc, which);
        (placed.flags[q], placed.flags[q + 1]) = (first.0, second.0);
        (placed.big_u[q], placed.big_u[q + 1]) = (u0, u1);
        q += 2;
    }
    // Then, over the whole line-pair at once (which vectorizes): each
    // quad's `U`, its MagSgn bits and `rho` for the line-pair below, the
    // damage noted; and the MagSgn bits summed into each quad's first.
    let mut unmatched = 0;
    // The largest `U` (that of an insignificant quad is 1).
    let mut largest = 0;
    for q in 0..quads {
        let quad = Quad(placed.flags[q]);
        let kappa = if LATER {
            1 + u32::from(kappa_above[q]) * quad.gamma()
        } else {
            1
        };
        let big_u = placed.big_u[q] + kappa;
        unmatched |= quad.0;
        largest = largest.max(big_u);
        rho[q + 1] = quad.rho() as u8;
        placed.flags[q] = quad.flags();
        placed.big_u[q] = big_u;
        placed.start[q] = quad.bits(big_u);
    }
    rho[quads + 1] = 0;
    let mut at_bit = *pos;
    for start in &mut placed.start[..quads] {
        (*start, at_bit) = (at_bit, at_bit.wrapping_add(*start));
    }
    let unmatched = Quad(unmatched).unmatched();
    streams.vlc = vlc;
    *pos = at_bit;
    if unmatched {
        return Err(corrupt(
            "an HTJ2K code-block with a VLC codeword of no table",
        ));
    }
    if largest > bound {
        return Err(corrupt(
            "an HTJ2K code-block whose magnitudes pass its bit-planes",
        ));
    }
    Ok(())
}

/// A quad's codeword from VLC (and MEL where its context is 0), from what
/// the line-pair above gives its context and the `rho` of the quad on its
/// `left` (then its own).
#[inline(always)]
fn codeword<const LATER: bool>(
    vlc: &mut Vlc,
    mel: &mut Mel,
    table: &Lookup,
    from_above: u8,
    left: &mut Quad,
) -> Quad {
    let context = if LATER {
        from_above | left.later_context()
    } else {
        left.initial_context()
    };
    let entry = if context != 0 || mel.event() {
        let entry = table[usize::from(context & 7)][(vlc.peek() & 0x7F) as usize];
        vlc.skip(entry.0);
        entry
    } else {
        Quad::default()
    };
    *left = entry;
    entry
}

/// What decoding a code-block takes beside its bytes, kept across the
/// code-blocks of a tile-component so that each clears no more of it than
/// its width.
pub(super) struct Workspace {
    above: Above,
    /// Per column `x`, at `x + 1`, the magnitude pattern `v` of the line
    /// above's sample there (the lower line of the pair above), one before
    /// and one past the end 0: of 32 bits and of 64.
    narrow_v: [u32; MAX_WIDTH + 4],
    wide_v: [u64; MAX_WIDTH + 4],
    placed: Placed,
}

impl Workspace {
    pub(super) fn new() -> Box<Self> {
        Box::new(Workspace {
            above: Above {
                rho: [0; MAX_WIDTH / 2 + 2],
                context: [0; MAX_WIDTH / 2 + 1],
                kappa: [0; MAX_WIDTH / 2 + 1],
            },
            narrow_v: [0; MAX_WIDTH + 4],
            wide_v: [0; MAX_WIDTH + 4],
            placed: Placed {
                flags: [0; MAX_WIDTH / 2 + 1],
                big_u: [0; MAX_WIDTH / 2 + 1],
                start: [0; MAX_WIDTH / 2 + 1],
            },
        })
    }
}

/// What the line-pair above gives the VLC step, per quad.
struct Above {
    /// At `q + 1`, the significance (`rho`) of the quad above, one before
    /// and one past the end 0; rewritten as each line-pair is decoded.
    rho: [u8; MAX_WIDTH / 2 + 2],
    /// What the quads above give the quad's context.
    context: [u8; MAX_WIDTH / 2 + 1],
    /// One less than the quad's `kappa` where more than one of its
    /// samples is significant.
    kappa: [u8; MAX_WIDTH / 2 + 1],
}

/// A line-pair's quads as the VLC step leaves them for MagSgn's (see
/// [`Quads`]).
struct Placed {
    flags: [u32; MAX_WIDTH / 2 + 1],
    big_u: [u32; MAX_WIDTH / 2 + 1],
    start: [u32; MAX_WIDTH / 2 + 1],
}
