//! The HT cleanup pass (ITU-T T.814 clause 7): a code-block's samples in
//! quads of 2 × 2, a pair of quads at a time along each line-pair. VLC
//! (with MEL events where a quad's context is 0) gives each quad's
//! significance, EMB patterns and unsigned residual `u`; from `u` and the
//! exponents of the line above comes the bound `U` on each significant
//! sample's magnitude bits, which MagSgn then holds with the sign.
//!
//! Only the cleanup pass is decoded: OpenEXR's encoder writes nothing
//! else, and code-blocks with SigProp and MagRef passes are refused.

use super::bits::{Backward, Forward, Mel, split_cleanup};
use super::packets::Block;
use super::vlc::{LOOKUPS, Quad};
use super::wavelet::Coefficient;
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

/// Decodes `block` (`width` × `height` samples) into `out`, row after row
/// `stride` apart: each sample's coefficient, sign and magnitude. Samples
/// that are not significant are left as they are (zeros).
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
    if out.len() < (height - 1) * stride + width {
        return Err(Error::Internal("HTJ2K: a code-block past its band".into()));
    }
    let (magsgn, tail) = split_cleanup(block.cleanup)?;
    let mut mel = Mel::new(tail);
    let mut vlc = Backward::vlc(tail);
    let mut magsgn = Forward::magsgn(magsgn);
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
    // Set bits at and below the cleanup pass's plane's half, for the
    // reconstruction at the middle of what is not coded.
    let middle = if plane == 0 { 0 } else { 1u64 << (plane - 1) };
    let tables = &*LOOKUPS;
    let quads = width.div_ceil(2);
    // Per quad of the line-pair above and this one: its codeword.
    let mut above: Vec<Quad> = vec![Quad::default(); quads + 2];
    let mut here: Vec<Quad> = vec![Quad::default(); quads + 2];
    let mut u = vec![0u32; quads + 1];
    // Per column, the magnitude pattern of the line above's sample there.
    let mut above_v = vec![0u64; width + 2];
    let mut here_v = vec![0u64; width + 2];
    for pair_row in 0..height.div_ceil(2) {
        let later = usize::from(pair_row > 0);
        let table = &tables[later];
        // VLC and MEL: each quad's codeword and `u`.
        let mut left = 0u8;
        let mut q = 0;
        while q < quads {
            let mut pair = [Quad::default(); 2];
            for (i, slot) in pair.iter_mut().enumerate() {
                let at = q + i;
                if at >= quads {
                    break;
                }
                let context = if later == 0 {
                    initial_context(left)
                } else {
                    let nw = if at > 0 { above[at - 1].rho } else { 0 };
                    later_context(left, nw, above[at].rho, above[at + 1].rho)
                };
                if context != 0 || mel.event() {
                    let entry = table[usize::from(context) << 7 | (vlc.peek() & 0x7F) as usize];
                    if entry.length == 0 {
                        return Err(corrupt(
                            "an HTJ2K code-block with a VLC codeword of no table",
                        ));
                    }
                    vlc.advance(u32::from(entry.length));
                    *slot = entry;
                }
                left = slot.rho;
            }
            let (u0, u1) = if pair[0].u_off || pair[1].u_off {
                let both = pair[0].u_off && pair[1].u_off;
                let event = (later == 0 && both).then(|| mel.event());
                residuals(&mut vlc, (pair[0].u_off, pair[1].u_off), event)
            } else {
                (0, 0)
            };
            here[q] = pair[0];
            u[q] = u0;
            if q + 1 < quads {
                here[q + 1] = pair[1];
                u[q + 1] = u1;
            }
            q += 2;
        }
        // MagSgn: each significant sample's magnitude and sign.
        let y = pair_row * 2;
        let rows = [y * stride, (y + 1) * stride];
        let second_row = y + 1 < height;
        for q in 0..quads {
            let entry = here[q];
            let x = 2 * q;
            if entry.rho == 0 {
                here_v[x] = 0;
                here_v[x + 1] = 0;
                continue;
            }
            let kappa = if later == 1 && entry.rho & (entry.rho - 1) != 0 {
                let west = if x > 0 { above_v[x - 1] } else { 0 };
                let neighbours = west | above_v[x] | above_v[x + 1] | above_v[x + 2];
                63 - (neighbours | 2).leading_zeros()
            } else {
                1
            };
            let big_u = u[q] + kappa;
            if big_u > bound {
                return Err(corrupt(
                    "an HTJ2K code-block whose magnitudes pass its bit-planes",
                ));
            }
            // Each sample's magnitude pattern `v` (0 where not significant)
            // and signed value, without a branch on which are significant.
            let mut v = [0u64; 4];
            let mut values = [0i64; 4];
            for n in 0..4 {
                let significant = u64::from(entry.rho >> n & 1);
                let bits = (big_u - u32::from(entry.e_k >> n & 1)) * significant as u32;
                let low = magsgn.take_long(bits);
                v[n] = (low | u64::from(entry.e_1 >> n & 1) << bits | 1) * significant;
                let magnitude = (((v[n] + 2) >> 1) << plane | middle) * significant;
                let sign = (low & 1).wrapping_neg();
                values[n] = ((magnitude ^ sign).wrapping_sub(sign)) as i64;
            }
            // Samples 0 and 2 on the upper line, 1 and 3 on the lower.
            if x + 1 < width && second_row {
                out[rows[0] + x] = T::from_i64(values[0]);
                out[rows[0] + x + 1] = T::from_i64(values[2]);
                out[rows[1] + x] = T::from_i64(values[1]);
                out[rows[1] + x + 1] = T::from_i64(values[3]);
            } else {
                for (n, &value) in values.iter().enumerate() {
                    let (dx, dy) = (n >> 1, n & 1);
                    if x + dx < width && (dy == 0 || second_row) {
                        out[rows[dy] + x + dx] = T::from_i64(value);
                    }
                }
            }
            here_v[x] = v[1];
            here_v[x + 1] = v[3];
        }
        std::mem::swap(&mut above, &mut here);
        std::mem::swap(&mut above_v, &mut here_v);
    }
    Ok(())
}
