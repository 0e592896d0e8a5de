//! The HT cleanup pass written (ITU-T T.814 clause 7, the encoder's side
//! of [`super::block`]): each quad's significance and EMB pattern as a VLC
//! codeword (a MEL event instead where its context is 0), its residual `u`
//! as U-VLC, and each significant sample's low magnitude bits and sign in
//! MagSgn.
//!
//! Every bit-plane goes into the cleanup pass (the code-block's missing
//! planes are its band's `Kmax − 1`), and the three streams are ended and
//! joined as OpenJPH, OpenEXR's encoder, ends and joins them: the bytes
//! are OpenEXR's.

use super::block::{initial_context, later_context};
#[cfg(target_arch = "x86_64")]
use super::samples::Avx2;
use super::vlc::{CODEWORDS, Codeword};
use super::wavelet::Coefficient;
use crate::{Error, Result};

/// A code-block's cleanup segment and the bit-planes it leaves out.
pub(super) struct Coded {
    /// Missing most significant bit-planes (zero bit-planes, `P`).
    pub(super) missing: u8,
    pub(super) bytes: Vec<u8>,
}

/// The MEL's exponent per state (T.814 Table 2).
const MEL_EXPONENTS: [u8; 13] = [0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 4, 5];

/// The MEL's adaptive run-length coder, most significant bit first; after
/// a byte `0xFF` the next holds 7 bits.
struct Mel {
    bytes: Vec<u8>,
    byte: u8,
    free: u8,
    run: u32,
    state: usize,
}

impl Mel {
    fn new() -> Self {
        Mel {
            bytes: Vec::new(),
            byte: 0,
            free: 8,
            run: 0,
            state: 0,
        }
    }

    fn clear(&mut self) {
        self.bytes.clear();
        (self.byte, self.free, self.run, self.state) = (0, 8, 0, 0);
    }

    fn bit(&mut self, bit: bool) {
        self.byte = self.byte << 1 | u8::from(bit);
        self.free -= 1;
        if self.free == 0 {
            self.bytes.push(self.byte);
            self.free = if self.byte == 0xFF { 7 } else { 8 };
            self.byte = 0;
        }
    }

    fn event(&mut self, event: bool) {
        let exponent = MEL_EXPONENTS[self.state];
        if event {
            self.bit(false);
            for t in (0..exponent).rev() {
                self.bit(self.run >> t & 1 == 1);
            }
            self.run = 0;
            self.state = self.state.saturating_sub(1);
        } else {
            self.run += 1;
            if self.run >= 1 << exponent {
                self.bit(true);
                self.run = 0;
                self.state = (self.state + 1).min(12);
            }
        }
    }
}

/// VLC, written from the segment's end backwards, least significant bit
/// first: after a byte above `0x8F` the next holds 7 bits unless they are
/// not all ones. It opens with `0xFF` and the four bits where Scup goes.
/// Bits wait in `pending` until a byte of them is whole.
struct Vlc {
    /// In the order written (the segment holds them reversed).
    bytes: Vec<u8>,
    pending: u64,
    count: u32,
    after_8f: bool,
}

impl Vlc {
    fn new() -> Self {
        let mut vlc = Vlc::empty();
        vlc.clear();
        vlc
    }

    /// A writer that holds nothing (not even the opening byte).
    fn empty() -> Self {
        Vlc {
            bytes: Vec::new(),
            pending: 0,
            count: 0,
            after_8f: false,
        }
    }

    fn clear(&mut self) {
        self.bytes.clear();
        self.bytes.push(0xFF);
        (self.pending, self.count, self.after_8f) = (0xF, 4, true);
    }

    /// Appends the `length` (≤ 56) low bits of `bits`, the rest of which
    /// are 0.
    #[inline(always)]
    fn put(&mut self, bits: u64, length: u32) {
        self.pending |= bits << self.count;
        self.count += length;
        while self.count >= 8 {
            // After a byte above 0x8F, seven ones end a byte of their own
            // (its eighth bit a stuffed 0).
            let seven = self.after_8f && self.pending & 0x7F == 0x7F;
            let used = 8 - u32::from(seven);
            let byte = (self.pending & (0xFF >> (8 - used))) as u8;
            self.bytes.push(byte);
            self.pending >>= used;
            self.count -= used;
            self.after_8f = byte > 0x8F;
        }
    }

    /// Seven ones after a byte above 0x8F are a byte of their own, written
    /// as soon as they are there: the bits that wait at the end are those
    /// of no whole byte.
    fn end(&mut self) {
        if self.count == 7 && self.after_8f && self.pending == 0x7F {
            self.bytes.push(0x7F);
            (self.pending, self.count, self.after_8f) = (0, 0, false);
        }
    }
}

/// MagSgn, least significant bit first: after a byte `0xFF` the next
/// holds 7 bits. Bits wait in `pending`, fewer than 32 between writes.
struct MagSgn {
    bytes: Vec<u8>,
    pending: u64,
    count: u32,
    /// The bits the next byte holds.
    room: u32,
}

impl MagSgn {
    fn new() -> Self {
        MagSgn {
            bytes: Vec::new(),
            pending: 0,
            count: 0,
            room: 8,
        }
    }

    fn clear(&mut self) {
        self.bytes.clear();
        (self.pending, self.count, self.room) = (0, 0, 8);
    }

    /// Appends the `length` (≤ 32) low bits of `bits`, the rest of which
    /// are 0.
    #[inline(always)]
    fn put(&mut self, bits: u64, length: u32) {
        self.pending |= bits << self.count;
        self.count += length;
        if self.count >= 32 {
            self.write();
        }
    }

    /// [`MagSgn::put`] of up to 64 bits.
    #[inline(always)]
    fn put_wide(&mut self, bits: u64, length: u32) {
        if length > 32 {
            self.put(bits & 0xFFFF_FFFF, 32);
            self.put(bits >> 32, length - 32);
        } else {
            self.put(bits, length);
        }
    }

    /// Writes at least 4 bytes' worth of `pending`: all four at once when
    /// none is `0xFF` (and none follows one), else a byte at a time.
    #[inline(always)]
    fn write(&mut self) {
        let word = self.pending as u32;
        let has_ff = (!word).wrapping_sub(0x0101_0101) & word & 0x8080_8080 != 0;
        if self.room == 8 && !has_ff {
            self.bytes.extend_from_slice(&word.to_le_bytes());
            self.pending >>= 32;
            self.count -= 32;
        } else {
            self.flush();
        }
    }

    /// The whole bytes of `pending` written: fewer than 8 bits stay.
    #[inline(always)]
    fn flush(&mut self) {
        while self.count >= self.room {
            let byte = (self.pending & ((1 << self.room) - 1)) as u8;
            self.bytes.push(byte);
            self.pending >>= self.room;
            self.count -= self.room;
            self.room = if byte == 0xFF { 7 } else { 8 };
        }
    }

    /// The last byte padded with ones (left out when that makes it
    /// `0xFF`, as is a final `0xFF` itself: the decoder pads with them).
    fn end(&mut self) {
        self.flush();
        if self.count > 0 {
            let byte = self.pending as u32 | (0xFF >> (8 - (self.room - self.count))) << self.count;
            if byte != 0xFF {
                self.bytes.push(byte as u8);
            }
        } else if self.room == 7 {
            self.bytes.pop();
        }
    }
}

/// Ends MEL and VLC, whose last bytes meet: one byte holds both when their
/// bits fit together.
fn end_mel_vlc(mel: &mut Mel, vlc: &mut Vlc) {
    if mel.run > 0 {
        mel.bit(true);
    }
    vlc.end();
    let mel_byte = u32::from(mel.byte) << mel.free;
    let mel_mask = (0xFFu32 << mel.free) & 0xFF;
    let vlc_byte = vlc.pending as u32;
    let vlc_mask = 0xFFu32 >> (8 - vlc.count);
    if mel_mask | vlc_mask == 0 {
        return;
    }
    let fused = mel_byte | vlc_byte;
    if ((fused ^ mel_byte) & mel_mask | (fused ^ vlc_byte) & vlc_mask) == 0
        && fused != 0xFF
        && vlc.bytes.len() > 1
    {
        mel.bytes.push(fused as u8);
    } else {
        mel.bytes.push(mel_byte as u8);
        vlc.bytes.push(vlc_byte as u8);
    }
}

/// A U-VLC code for `u`: prefix, suffix and extension, each as (bits,
/// length).
#[inline(always)]
fn uvlc(u: u32) -> [(u32, u32); 3] {
    match u {
        0 => [(0, 0); 3],
        1 => [(1, 1), (0, 0), (0, 0)],
        2 => [(2, 2), (0, 0), (0, 0)],
        3 | 4 => [(4, 3), (u - 3, 1), (0, 0)],
        5..=32 => [(0, 3), (u - 5, 5), (0, 0)],
        _ => [(0, 3), (28 + (u - 33) % 4, 5), ((u - 33) / 4, 4)],
    }
}

/// The codes of a pair's two `u`s: both prefixes, both suffixes, both
/// extensions (at most 24 bits).
#[inline(always)]
fn uvlc_pair(first: [(u32, u32); 3], second: [(u32, u32); 3]) -> (u32, u32) {
    let (mut bits, mut length) = (0, 0);
    for part in 0..3 {
        for (b, l) in [first[part], second[part]] {
            bits |= b << length;
            length += l;
        }
    }
    (bits, length)
}

/// A code-block to code: `width` × `height` samples at the start of
/// `samples`, rows `stride` apart, of a band of `planes` bit-planes
/// (`Kmax`).
pub(super) struct Block<'a, T> {
    pub(super) samples: &'a [T],
    pub(super) width: usize,
    pub(super) height: usize,
    pub(super) stride: usize,
    pub(super) planes: u8,
}

/// What coding a code-block takes beside its samples, kept across the
/// code-blocks of a component so that its buffers are allocated once.
pub(super) struct Encoder {
    mel: Mel,
    vlc: Vlc,
    magsgn: MagSgn,
    /// Per column of the line-pair being coded, upper row then lower, at
    /// `x + 1`: `2μ − 1` of the sample (0 where `μ` is), whose bits are
    /// its exponent `e`, and `2(μ − 1)` plus its sign, the bits MagSgn
    /// may take of it. Past the code-block's width, zeros.
    w: [Vec<u64>; 2],
    s: [Vec<u64>; 2],
    /// `w` of the lower row of the line-pair above (zeros above the
    /// first).
    above_w: Vec<u64>,
    /// Per quad of the line-pair being coded and of the one above, at
    /// `q + 1`: its significance `rho` (0 beyond).
    rho: Vec<u8>,
    above_rho: Vec<u8>,
}

impl Encoder {
    pub(super) fn new() -> Self {
        Encoder {
            mel: Mel::new(),
            vlc: Vlc::new(),
            magsgn: MagSgn::new(),
            w: [Vec::new(), Vec::new()],
            s: [Vec::new(), Vec::new()],
            above_w: Vec::new(),
            rho: Vec::new(),
            above_rho: Vec::new(),
        }
    }

    /// Encodes `block`. `None`: every sample is 0, and the code-block is
    /// left out. Compiled for AVX2 with BMI and LZCNT where the processor
    /// has them (as the decoder's cleanup pass is: [`Avx2::detect`]).
    pub(super) fn encode<T: Coefficient>(&mut self, block: Block<'_, T>) -> Result<Option<Coded>> {
        #[cfg(target_arch = "x86_64")]
        if Avx2::detect().is_some() {
            // SAFETY: the processor has the instructions (checked just
            // above).
            return unsafe { self.encode_avx2(block) };
        }
        self.encode_lanes(block)
    }

    /// [`Encoder::encode_lanes`] compiled for AVX2, BMI and LZCNT.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
    fn encode_avx2<T: Coefficient>(&mut self, block: Block<'_, T>) -> Result<Option<Coded>> {
        self.encode_lanes(block)
    }

    /// [`Encoder::encode`], inlined into its callers and compiled for what
    /// each is compiled for.
    #[inline(always)]
    fn encode_lanes<T: Coefficient>(&mut self, block: Block<'_, T>) -> Result<Option<Coded>> {
        let Block {
            samples,
            width,
            height,
            stride,
            planes,
        } = block;
        if width == 0 || height == 0 {
            return Ok(None);
        }
        let row = |y: usize| &samples[y * stride..y * stride + width];
        let largest = (0..height)
            .flat_map(row)
            .fold(0u64, |m, v| m | v.to_i64().unsigned_abs());
        if largest == 0 {
            return Ok(None);
        }
        if planes == 0 || planes > 62 || largest >> planes != 0 {
            return Err(Error::Internal(
                "HTJ2K: a coefficient past its band's bit-planes".into(),
            ));
        }
        // Pairs of quads, and a column each side (left of the first, past
        // the last pair).
        let quads = width.div_ceil(2);
        let columns = 4 * quads.div_ceil(2) + 2;
        self.mel.clear();
        self.vlc.clear();
        self.magsgn.clear();
        let words = self.w.iter_mut().chain(&mut self.s);
        for v in words.chain([&mut self.above_w]) {
            v.clear();
            v.resize(columns, 0);
        }
        for v in [&mut self.rho, &mut self.above_rho] {
            v.clear();
            v.resize(quads + 3, 0);
        }
        for y in (0..height).step_by(2) {
            for (line, y) in [y, y + 1].into_iter().enumerate() {
                let (w, s) = (&mut self.w[line][1..], &mut self.s[line][1..]);
                if y < height {
                    for ((w, s), v) in w.iter_mut().zip(s.iter_mut()).zip(row(y)) {
                        (*w, *s) = magnitude_bits(v.to_i64());
                    }
                } else {
                    w[..width].fill(0);
                }
            }
            self.line_pair(quads, y > 0)?;
        }
        let Encoder {
            mel, vlc, magsgn, ..
        } = self;
        end_mel_vlc(mel, vlc);
        let scup = mel.bytes.len() + vlc.bytes.len();
        if scup > 4079 {
            return Err(Error::Internal(
                "HTJ2K: MEL and VLC past the 4079 bytes a cleanup segment may hold".into(),
            ));
        }
        magsgn.end();
        let mut bytes = Vec::with_capacity(magsgn.bytes.len() + scup);
        bytes.extend_from_slice(&magsgn.bytes);
        bytes.extend_from_slice(&mel.bytes);
        bytes.extend(vlc.bytes.iter().rev());
        let n = bytes.len();
        bytes[n - 1] = (scup >> 4) as u8;
        bytes[n - 2] = bytes[n - 2] & 0xF0 | (scup & 0xF) as u8;
        Ok(Some(Coded {
            missing: planes - 1,
            bytes,
        }))
    }

    /// Codes the line-pair of `quads` quads whose samples are in
    /// [`Encoder::w`] and [`Encoder::s`], the first of its code-block
    /// unless `later`; leaves what it gives the next line-pair in
    /// [`Encoder::above_w`] and [`Encoder::above_rho`].
    #[inline(always)]
    fn line_pair(&mut self, quads: usize, later: bool) -> Result<()> {
        // The writers' states as locals, which stay in registers.
        let mut vlc = std::mem::replace(&mut self.vlc, Vlc::empty());
        let mut magsgn = std::mem::replace(&mut self.magsgn, MagSgn::new());
        let result = self.quads(quads, later, &mut vlc, &mut magsgn);
        self.vlc = vlc;
        self.magsgn = magsgn;
        result
    }

    /// [`Encoder::line_pair`] with the VLC and MagSgn writers at hand.
    #[inline(always)]
    fn quads(
        &mut self,
        quads: usize,
        later: bool,
        vlc: &mut Vlc,
        magsgn: &mut MagSgn,
    ) -> Result<()> {
        let Encoder {
            mel,
            vlc: _,
            magsgn: _,
            w: [w_top, w_bottom],
            s: [s_top, s_bottom],
            above_w,
            rho: rho_here,
            above_rho,
        } = self;
        let table = &CODEWORDS[usize::from(later)];
        let mut left = 0u8;
        // Per pair of quads: four columns of each row (one before them and
        // one past them above), and the quads above.
        let pairs = quads.div_ceil(2);
        fn columns(v: &[u64], pairs: usize) -> std::slice::ChunksExact<'_, u64> {
            v[1..1 + 4 * pairs].chunks_exact(4)
        }
        let rows = columns(w_top, pairs).zip(columns(w_bottom, pairs));
        let bits_of = columns(s_top, pairs).zip(columns(s_bottom, pairs));
        let above = above_w
            .windows(6)
            .step_by(4)
            .zip(above_rho.windows(4).step_by(2));
        let here = rho_here[1..].chunks_exact_mut(2);
        for (pair, (((w, s), (above_w, above_rho)), rho_pair)) in
            rows.zip(bits_of).zip(above).zip(here).enumerate()
        {
            let (vlc_bits, vlc_length, u0) = {
                let quad = [w.0[0], w.1[0], w.0[1], w.1[1]];
                let bits = [s.0[0], s.1[0], s.0[1], s.1[1]];
                let context = if later {
                    later_context(left, above_rho[0], above_rho[1], above_rho[2])
                } else {
                    initial_context(left)
                };
                let above = above_w[0] | above_w[1] | above_w[2] | above_w[3];
                let coded = code_quad(quad, bits, context, later, above, table, mel, magsgn)?;
                rho_pair[0] = coded.rho;
                left = coded.rho;
                (u64::from(coded.bits), coded.length, coded.u)
            };
            let (mut vlc_bits, mut vlc_length, mut u1) = (vlc_bits, vlc_length, 0);
            if 2 * pair + 1 < quads {
                let quad = [w.0[2], w.1[2], w.0[3], w.1[3]];
                let bits = [s.0[2], s.1[2], s.0[3], s.1[3]];
                let context = if later {
                    later_context(left, above_rho[1], above_rho[2], above_rho[3])
                } else {
                    initial_context(left)
                };
                let above = above_w[2] | above_w[3] | above_w[4] | above_w[5];
                let coded = code_quad(quad, bits, context, later, above, table, mel, magsgn)?;
                rho_pair[1] = coded.rho;
                left = coded.rho;
                vlc_bits |= u64::from(coded.bits) << vlc_length;
                vlc_length += coded.length;
                u1 = coded.u;
            }
            let (code, code_length) = if !later && u0 > 0 && u1 > 0 {
                mel.event(u0.min(u1) > 2);
                if u0 > 2 && u1 > 2 {
                    uvlc_pair(uvlc(u0 - 2), uvlc(u1 - 2))
                } else if u0 > 2 {
                    // The second quad's `u` is 1 or 2: one bit, between
                    // the first's prefix and suffix.
                    let [(p, pl), (s, sl), (x, xl)] = uvlc(u0);
                    let code = p | (u1 - 1) << pl | s << (pl + 1) | x << (pl + 1 + sl);
                    (code, pl + 1 + sl + xl)
                } else {
                    uvlc_pair(uvlc(u0), uvlc(u1))
                }
            } else {
                uvlc_pair(uvlc(u0), uvlc(u1))
            };
            vlc.put(
                vlc_bits | u64::from(code) << vlc_length,
                vlc_length + code_length,
            );
        }
        std::mem::swap(above_w, w_bottom);
        std::mem::swap(above_rho, rho_here);
        Ok(())
    }
}

/// What coding a quad gives the VLC and the next quads.
struct CodedQuad {
    rho: u8,
    /// Its codeword (none for an insignificant quad of context 0).
    bits: u8,
    length: u32,
    /// Its `u` (0 for an insignificant quad).
    u: u32,
}

/// Codes the quad whose samples (upper left, lower left, upper right,
/// lower right) have the `2μ − 1` `w` and the MagSgn bits `s`, in
/// `context`: its MEL event, if any, and its MagSgn bits are written, its
/// codeword returned. `above`: the `w` of the four samples above it and
/// beside, or'ed (their largest exponent), for a `later` line-pair's
/// `kappa`.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn code_quad(
    w: [u64; 4],
    s: [u64; 4],
    context: u8,
    later: bool,
    above: u64,
    table: &[Codeword; 2048],
    mel: &mut Mel,
    magsgn: &mut MagSgn,
) -> Result<CodedQuad> {
    let rho = u8::from(w[0] != 0)
        | u8::from(w[1] != 0) << 1
        | u8::from(w[2] != 0) << 2
        | u8::from(w[3] != 0) << 3;
    if rho == 0 {
        // No bits in MagSgn, and `u` 0.
        if context == 0 {
            mel.event(false);
        }
        let codeword = table[usize::from(context) << 8];
        return Ok(CodedQuad {
            rho,
            bits: codeword.bits,
            length: u32::from(codeword.length),
            u: 0,
        });
    }
    let kappa = if later && rho & rho.wrapping_sub(1) != 0 {
        (63 - above.leading_zeros().min(63)).max(1)
    } else {
        1
    };
    let e_max = 64 - (w[0] | w[1] | w[2] | w[3]).leading_zeros();
    let big_u = e_max.max(kappa);
    let u = big_u - kappa;
    // The samples whose exponent is the largest (`w` of as many bits).
    let top = e_max - 1;
    let emb = (u8::from(w[0] >> top != 0)
        | u8::from(w[1] >> top != 0) << 1
        | u8::from(w[2] >> top != 0) << 2
        | u8::from(w[3] >> top != 0) << 3)
        & u8::from(u > 0).wrapping_neg();
    let codeword = table[usize::from(context) << 8 | usize::from(rho) << 4 | usize::from(emb)];
    if codeword.length == 0 {
        return Err(Error::Internal("HTJ2K: a quad without a codeword".into()));
    }
    if context == 0 {
        mel.event(true);
    }
    // Each significant sample's `U − e_k` low bits.
    let m: [u32; 4] = std::array::from_fn(|n| {
        let significant = u32::from(rho >> n & 1).wrapping_neg();
        (big_u - u32::from(codeword.e_k >> n & 1)) & significant
    });
    let bits: [u64; 4] = std::array::from_fn(|n| s[n] & ((1u64 << m[n]) - 1));
    if big_u <= 8 {
        let (at1, at2) = (m[0], m[0] + m[1]);
        let at3 = at2 + m[2];
        magsgn.put(
            bits[0] | bits[1] << at1 | bits[2] << at2 | bits[3] << at3,
            at3 + m[3],
        );
    } else if big_u <= 16 {
        magsgn.put(bits[0] | bits[1] << m[0], m[0] + m[1]);
        magsgn.put(bits[2] | bits[3] << m[2], m[2] + m[3]);
    } else {
        for n in 0..4 {
            magsgn.put_wide(bits[n], m[n]);
        }
    }
    Ok(CodedQuad {
        rho,
        bits: codeword.bits,
        length: u32::from(codeword.length),
        u,
    })
}

/// A sample's `2μ − 1` (0 where `μ` is) and `2(μ − 1)` plus its sign.
#[inline(always)]
fn magnitude_bits(value: i64) -> (u64, u64) {
    let magnitude = value.unsigned_abs();
    let w = (magnitude << 1).wrapping_sub(1) & u64::from(magnitude != 0).wrapping_neg();
    (w, w & !1 | u64::from(value < 0))
}
