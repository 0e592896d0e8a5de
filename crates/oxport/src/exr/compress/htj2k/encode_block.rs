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
use super::vlc::CODEWORDS;
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
struct Vlc {
    /// In the order written (the segment holds them reversed).
    bytes: Vec<u8>,
    byte: u32,
    used: u32,
    after_8f: bool,
}

impl Vlc {
    fn new() -> Self {
        Vlc {
            bytes: vec![0xFF],
            byte: 0xF,
            used: 4,
            after_8f: true,
        }
    }

    fn put(&mut self, mut bits: u32, mut length: u32) {
        while length > 0 {
            let mut free = 8 - u32::from(self.after_8f) - self.used;
            let t = free.min(length);
            self.byte |= (bits & ((1 << t) - 1)) << self.used;
            self.used += t;
            free -= t;
            length -= t;
            bits >>= t;
            if free == 0 {
                if self.after_8f && self.byte != 0x7F {
                    // The eighth bit may be used after all.
                    self.after_8f = false;
                    continue;
                }
                self.bytes.push(self.byte as u8);
                self.after_8f = self.byte > 0x8F;
                self.byte = 0;
                self.used = 0;
            }
        }
    }
}

/// MagSgn, least significant bit first: after a byte `0xFF` the next
/// holds 7 bits.
struct MagSgn {
    bytes: Vec<u8>,
    byte: u32,
    used: u32,
    room: u32,
}

impl MagSgn {
    fn new() -> Self {
        MagSgn {
            bytes: Vec::new(),
            byte: 0,
            used: 0,
            room: 8,
        }
    }

    fn put(&mut self, mut bits: u64, mut length: u32) {
        while length > 0 {
            let t = (self.room - self.used).min(length);
            self.byte |= ((bits & ((1 << t) - 1)) as u32) << self.used;
            self.used += t;
            bits >>= t;
            length -= t;
            if self.used == self.room {
                self.bytes.push(self.byte as u8);
                self.room = if self.byte == 0xFF { 7 } else { 8 };
                self.byte = 0;
                self.used = 0;
            }
        }
    }

    /// The last byte padded with ones (left out when that makes it
    /// `0xFF`, as is a final `0xFF` itself: the decoder pads with them).
    fn end(mut self) -> Vec<u8> {
        if self.used > 0 {
            self.byte |= (0xFF >> (8 - (self.room - self.used))) << self.used;
            if self.byte != 0xFF {
                self.bytes.push(self.byte as u8);
            }
        } else if self.room == 7 {
            self.bytes.pop();
        }
        self.bytes
    }
}

/// Ends MEL and VLC, whose last bytes meet: one byte holds both when their
/// bits fit together.
fn end_mel_vlc(mel: &mut Mel, vlc: &mut Vlc) {
    if mel.run > 0 {
        mel.bit(true);
    }
    let mel_byte = u32::from(mel.byte) << mel.free;
    let mel_mask = (0xFFu32 << mel.free) & 0xFF;
    let vlc_mask = 0xFFu32 >> (8 - vlc.used);
    if mel_mask | vlc_mask == 0 {
        return;
    }
    let fused = mel_byte | vlc.byte;
    if ((fused ^ mel_byte) & mel_mask | (fused ^ vlc.byte) & vlc_mask) == 0
        && fused != 0xFF
        && vlc.bytes.len() > 1
    {
        mel.bytes.push(fused as u8);
    } else {
        mel.bytes.push(mel_byte as u8);
        vlc.bytes.push(vlc.byte as u8);
    }
}

/// A U-VLC code for `u`: prefix, suffix and extension, each as (bits,
/// length).
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

/// One quad as the encoder sees it.
#[derive(Clone, Copy, Default)]
struct Quad {
    /// Significant samples (bit 0 top left, 1 bottom left, 2 top right, 3
    /// bottom right).
    rho: u8,
    /// Per sample, the exponent `e` (bits of `2μ − 1`, 0 for `μ` = 0).
    e: [u32; 4],
    /// Per sample, `2(μ − 1)` plus its sign.
    s: [u64; 4],
}

impl Quad {
    fn e_max(&self) -> u32 {
        self.e.iter().copied().max().unwrap_or(0)
    }
}

/// Encodes the code-block of `width` × `height` samples at the start of
/// `samples` (rows `stride` apart) of a band of `planes` bit-planes
/// (`Kmax`). `None`: every sample is 0, and the code-block is left out.
pub(super) fn encode<T: Coefficient>(
    samples: &[T],
    width: usize,
    height: usize,
    stride: usize,
    planes: u8,
) -> Result<Option<Coded>> {
    if width == 0 || height == 0 {
        return Ok(None);
    }
    let quads = width.div_ceil(2);
    let at = |x: usize, y: usize| -> i64 {
        if x < width && y < height {
            samples[y * stride + x].to_i64()
        } else {
            0
        }
    };
    let mut largest = 0u64;
    for y in 0..height {
        for &v in &samples[y * stride..y * stride + width] {
            largest = largest.max(v.to_i64().unsigned_abs());
        }
    }
    if largest == 0 {
        return Ok(None);
    }
    if planes == 0 || planes > 62 || largest >> planes != 0 {
        return Err(Error::Internal(
            "HTJ2K: a coefficient past its band's bit-planes".into(),
        ));
    }
    let (mut mel, mut vlc, mut magsgn) = (Mel::new(), Vlc::new(), MagSgn::new());
    // The line-pair above: per quad its significance, per column the
    // exponent of its lower sample.
    let mut above_rho = vec![0u8; quads + 1];
    let mut above_e = vec![0u32; 2 * quads + 3];
    let mut here: Vec<Quad> = vec![Quad::default(); quads];
    for pair_row in 0..height.div_ceil(2) {
        let y = pair_row * 2;
        let later = pair_row > 0;
        for (q, quad) in here.iter_mut().enumerate() {
            *quad = Quad::default();
            for n in 0..4 {
                let v = at(2 * q + (n >> 1), y + (n & 1));
                let magnitude = v.unsigned_abs();
                if magnitude != 0 {
                    quad.rho |= 1 << n;
                    quad.e[n] = 64 - (2 * magnitude - 1).leading_zeros();
                    quad.s[n] = 2 * (magnitude - 1) + u64::from(v < 0);
                }
            }
        }
        let table = &CODEWORDS[usize::from(later)];
        let mut left = 0u8;
        for pair in (0..quads).step_by(2) {
            let mut u = [0u32; 2];
            for (i, slot) in u.iter_mut().enumerate() {
                let q = pair + i;
                let Some(quad) = here.get(q) else { break };
                let context = if later {
                    let nw = if q > 0 { above_rho[q - 1] } else { 0 };
                    later_context(left, nw, above_rho[q], above_rho[q + 1])
                } else {
                    initial_context(left)
                };
                let kappa = if later && quad.rho.count_ones() >= 2 {
                    // From the exponents above: columns 2q − 1 to 2q + 2.
                    let above = above_e[2 * q..2 * q + 4].iter().copied().max().unwrap_or(0);
                    above.saturating_sub(1).max(1)
                } else {
                    1
                };
                let e_max = quad.e_max();
                let big_u = e_max.max(kappa);
                *slot = big_u - kappa;
                let emb = if *slot > 0 {
                    (0..4).fold(0u8, |m, n| m | u8::from(quad.e[n] == e_max) << n) & quad.rho
                } else {
                    0
                };
                let codeword = table
                    [usize::from(context) << 8 | usize::from(quad.rho) << 4 | usize::from(emb)];
                if codeword.length == 0 && !(context == 0 && quad.rho == 0) {
                    return Err(Error::Internal("HTJ2K: a quad without a codeword".into()));
                }
                vlc.put(u32::from(codeword.bits), u32::from(codeword.length));
                if context == 0 {
                    mel.event(quad.rho != 0);
                }
                for n in 0..4 {
                    if quad.rho >> n & 1 == 1 {
                        let m = big_u - u32::from(codeword.e_k >> n & 1);
                        magsgn.put(quad.s[n] & ((1u64 << m) - 1), m);
                    }
                }
                left = quad.rho;
            }
            let [u0, u1] = u;
            let codes = if !later && u0 > 0 && u1 > 0 {
                mel.event(u0.min(u1) > 2);
                if u0 > 2 && u1 > 2 {
                    [uvlc(u0 - 2), uvlc(u1 - 2)]
                } else if u0 > 2 {
                    // The second quad's `u` is 1 or 2: one bit, between
                    // the first's prefix and suffix.
                    let [prefix, suffix, extension] = uvlc(u0);
                    for (bits, length) in [prefix, (u1 - 1, 1), suffix, extension] {
                        vlc.put(bits, length);
                    }
                    continue;
                } else {
                    [uvlc(u0), uvlc(u1)]
                }
            } else {
                [uvlc(u0), uvlc(u1)]
            };
            for part in 0..3 {
                for code in &codes {
                    vlc.put(code[part].0, code[part].1);
                }
            }
        }
        // What the next line-pair sees above it.
        for (q, quad) in here.iter().enumerate() {
            above_rho[q] = quad.rho;
            above_e[2 * q + 1] = quad.e[1];
            above_e[2 * q + 2] = quad.e[3];
        }
    }
    end_mel_vlc(&mut mel, &mut vlc);
    let scup = mel.bytes.len() + vlc.bytes.len();
    if scup > 4079 {
        return Err(Error::Internal(
            "HTJ2K: MEL and VLC past the 4079 bytes a cleanup segment may hold".into(),
        ));
    }
    let mut bytes = magsgn.end();
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
