//! The bit streams of an HT code-block (ITU-T T.814 clause 7): MagSgn and
//! SigProp grow forward and are read least significant bit first; MEL
//! grows forward and is read most significant bit first; VLC and MagRef
//! grow backward from the end of their segments and are read least
//! significant bit first. Each has its own bit-stuffing rule, so that no
//! marker (`0xFF90` and up) appears in the codestream.
//!
//! Past its end, a stream reads as the standard pads it: MagSgn and MEL as
//! ones (`0xFF` bytes), SigProp, VLC and MagRef as zeros.
//!
//! The decoder takes MagSgn's and VLC's stuffed bits out before it reads
//! them ([`MagSgn`], [`Vlc`]), so that each read is a load or a shift.
//! The readers that take a byte at a time (`Lsb` over the forward and
//! backward rules) are kept for the tests, which hold the others to them,
//! and for SigProp and MagRef, whose passes are refused until they are
//! decoded.

use crate::{Error, Result};

#[cfg(test)]
/// Where a least-significant-bit-first stream's bytes come from, each
/// with the bits it holds once unstuffed.
pub(super) trait Bytes {
    /// The next byte's bits (in its low bits) and how many there are.
    fn next(&mut self) -> (u8, u32);

    /// The next four bytes' 32 bits, when none of them is stuffed (and
    /// they are all there); otherwise nothing is read.
    fn word(&mut self) -> Option<u32>;
}

#[cfg(test)]
/// A stream read least significant bit first from `S`'s bytes.
pub(super) struct Lsb<S> {
    source: S,
    /// Bits read and not consumed, the next in bit 0.
    bits: u64,
    count: u32,
}

/// Whether any byte of `word` is zero.
#[inline(always)]
fn any_zero_byte(word: u32) -> bool {
    word.wrapping_sub(0x0101_0101) & !word & 0x8080_8080 != 0
}

#[cfg(test)]
impl<S: Bytes> Lsb<S> {
    /// At least 32 bits in hand.
    #[inline(always)]
    fn fill(&mut self) {
        if self.count <= 32
            && let Some(word) = self.source.word()
        {
            self.bits |= u64::from(word) << self.count;
            self.count += 32;
            return;
        }
        while self.count <= 56 {
            let (value, width) = self.source.next();
            self.bits |= u64::from(value) << self.count;
            self.count += width;
        }
    }

    /// The next 32 bits, not consumed (the next in bit 0).
    #[inline(always)]
    pub(super) fn peek(&mut self) -> u32 {
        if self.count < 32 {
            self.fill();
        }
        self.bits as u32
    }

    /// Consumes `n` (at most 32) bits.
    #[inline(always)]
    pub(super) fn advance(&mut self, n: u32) {
        if self.count < n {
            self.fill();
        }
        self.bits >>= n;
        self.count -= n;
    }

    /// The next `n` (at most 32) bits, consumed.
    #[inline(always)]
    pub(super) fn take(&mut self, n: u32) -> u32 {
        if self.count < n {
            self.fill();
        }
        let value = self.bits & ((1u64 << n) - 1);
        self.bits >>= n;
        self.count -= n;
        value as u32
    }

    /// The next `n` (at most 64) bits, consumed.
    #[cfg(test)]
    pub(super) fn take_long(&mut self, n: u32) -> u64 {
        if n <= 32 {
            u64::from(self.take(n))
        } else {
            let low = self.take(32);
            u64::from(low) | u64::from(self.take(n - 32)) << 32
        }
    }
}

#[cfg(test)]
/// A forward stream's bytes: MagSgn (padded with ones) and SigProp (padded
/// with zeros). After a byte `0xFF`, the next byte holds 7 bits (its most
/// significant bit is a stuffed 0).
pub(super) struct ForwardBytes<'a> {
    data: &'a [u8],
    pos: usize,
    pad: u8,
    stuffed: bool,
}

#[cfg(test)]
impl Bytes for ForwardBytes<'_> {
    fn next(&mut self) -> (u8, u32) {
        let byte = match self.data.get(self.pos) {
            Some(&b) => {
                self.pos += 1;
                b
            }
            None => self.pad,
        };
        let unstuffed = if self.stuffed {
            (byte & 0x7F, 7)
        } else {
            (byte, 8)
        };
        self.stuffed = byte == 0xFF;
        unstuffed
    }

    #[inline(always)]
    fn word(&mut self) -> Option<u32> {
        let bytes = self.data.get(self.pos..self.pos + 4)?;
        let word = u32::from_le_bytes(bytes.try_into().ok()?);
        // A byte after 0xFF holds 7 bits: none may be 0xFF, nor the one
        // before them.
        if self.stuffed || any_zero_byte(!word) {
            return None;
        }
        self.pos += 4;
        Some(word)
    }
}

#[cfg(test)]
/// SigProp.
pub(super) type Forward<'a> = Lsb<ForwardBytes<'a>>;

#[cfg(test)]
impl<'a> Forward<'a> {
    /// SigProp: padded with zeros.
    pub(super) fn sigprop(data: &'a [u8]) -> Self {
        Self::forward(data, 0)
    }

    fn forward(data: &'a [u8], pad: u8) -> Self {
        Lsb {
            source: ForwardBytes {
                data,
                pos: 0,
                pad,
                stuffed: false,
            },
            bits: 0,
            count: 0,
        }
    }
}

/// Bytes of ones [`MagSgn::new`] writes after a stream's last bits: a read
/// that starts past them is moved back into them, which reads as the
/// standard's endless pad of ones.
const PAD: usize = 32;

/// The most bytes [`MagSgn::new`] writes for `n` bytes of MagSgn.
pub(super) const fn unstuffed_size(n: usize) -> usize {
    n + 8 + PAD
}

/// MagSgn (padded with ones, `0xFF` bytes) read by bit position from its
/// bits with the stuffed ones taken out beforehand: each read is a load at
/// its own position, so that a sample's read waits on no shift of the one
/// before it, and on no refill.
pub(super) struct MagSgn<'a> {
    /// The stream's bits, least significant first, then at least
    /// [`PAD`] bytes of ones.
    packed: &'a [u8],
    /// The next bit's position, for [`MagSgn::take`].
    #[cfg(test)]
    pos: u32,
}

impl<'a> MagSgn<'a> {
    /// MagSgn over `data`, unstuffed into `scratch` (at least
    /// [`unstuffed_size`] bytes).
    pub(super) fn new(data: &[u8], scratch: &'a mut [u8]) -> Self {
        let len = unstuff(data, scratch);
        MagSgn {
            packed: &scratch[..len],
            #[cfg(test)]
            pos: 0,
        }
    }

    /// Where the `bytes` read from bit `pos` start: its byte, or where the
    /// last `bytes` of the pad start when that is before it (past the
    /// stream, every bit is a one).
    #[inline(always)]
    pub(super) fn at(&self, pos: u32, bytes: usize) -> usize {
        ((pos >> 3) as usize).min(self.packed.len() - bytes)
    }

    /// The stream's bytes and its pad.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    pub(super) fn packed(&self) -> &'a [u8] {
        self.packed
    }

    /// The 57 bits from bit `pos` (and zeros or the stream's above them).
    #[inline(always)]
    pub(super) fn fetch(&self, pos: u32) -> u64 {
        let at = self.at(pos, 8);
        let word = u64::from_le_bytes(self.packed[at..at + 8].try_into().expect("8"));
        word >> (pos & 7)
    }

    /// The 128 bits from bit `pos`.
    #[inline(always)]
    pub(super) fn window(&self, pos: u32) -> u128 {
        let at = self.at(pos, 24);
        let low = u128::from_le_bytes(self.packed[at..at + 16].try_into().expect("16"));
        let high = u64::from_le_bytes(self.packed[at + 16..at + 24].try_into().expect("8"));
        let k = pos & 7;
        low >> k | u128::from(high) << (127 - k) << 1
    }

    /// The `n` (at most 64) bits from bit `pos`.
    #[inline(always)]
    pub(super) fn bits(&self, pos: u32, n: u32) -> u64 {
        if n <= 56 {
            self.fetch(pos) & ((1u64 << n) - 1)
        } else {
            let low = self.fetch(pos) & 0xFFFF_FFFF;
            low | (self.fetch(pos + 32) & ((1u64 << (n - 32)) - 1)) << 32
        }
    }

    /// The next `n` (at most 32) bits.
    #[cfg(test)]
    pub(super) fn take(&mut self, n: u32) -> u32 {
        self.take_long(n) as u32
    }

    /// The next `n` (at most 64) bits.
    #[cfg(test)]
    pub(super) fn take_long(&mut self, n: u32) -> u64 {
        let value = self.bits(self.pos, n);
        self.pos += n;
        value
    }
}

/// Writes MagSgn's bits of `data` into `out` without its stuffed bits
/// (after a byte `0xFF`, the next holds 7), then ones; gives the bytes
/// written (at most [`unstuffed_size`]). The bytes between stuffed ones
/// go over whole, eight at a time, shifted by the bits the stuffed bytes
/// before them took out.
fn unstuff(data: &[u8], out: &mut [u8]) -> usize {
    let mut at = 0;
    // Bits not yet written, fewer than 8.
    let (mut bits, mut count) = (0u64, 0u32);
    let mut rest = data;
    while !rest.is_empty() {
        // Up to and with the next 0xFF, every byte holds 8 bits.
        let run = memchr::memchr(0xFF, rest).map_or(rest.len(), |i| i + 1);
        let (plain, after) = rest.split_at(run);
        if count == 0 {
            out[at..at + run].copy_from_slice(plain);
            at += run;
        } else {
            let mut words = plain.chunks_exact(8);
            for word in &mut words {
                let word = u64::from_le_bytes(word.try_into().expect("8"));
                out[at..at + 8].copy_from_slice(&(bits | word << count).to_le_bytes());
                bits = word >> (64 - count);
                at += 8;
            }
            for &byte in words.remainder() {
                out[at] = (bits | u64::from(byte) << count) as u8;
                bits = u64::from(byte) >> (8 - count);
                at += 1;
            }
        }
        rest = after;
        // The byte after a 0xFF holds 7 bits (and, damaged, may be 0xFF
        // itself).
        let mut stuffed = plain.last() == Some(&0xFF);
        while stuffed && let Some((&byte, after)) = rest.split_first() {
            bits |= u64::from(byte & 0x7F) << count;
            count += 7;
            if count >= 8 {
                out[at] = bits as u8;
                (bits, count, at) = (bits >> 8, count - 8, at + 1);
            }
            stuffed = byte == 0xFF;
            rest = after;
        }
    }
    // The bits left, then the pad's ones.
    bits |= u64::MAX << count;
    out[at..at + 8].copy_from_slice(&bits.to_le_bytes());
    out[at + 8..at + 8 + PAD].fill(0xFF);
    at + 8 + PAD
}

#[cfg(test)]
/// A backward stream's bytes, from the last, padded with zeros: VLC (from
/// the byte before the cleanup segment's last, whose high nibble starts
/// it) and MagRef (from the refinement segment's last byte). After a byte
/// above `0x8F`, a byte whose low 7 bits are all ones holds 7 bits.
pub(super) struct BackwardBytes<'a> {
    /// The bytes not read yet.
    data: &'a [u8],
    stuffed: bool,
}

#[cfg(test)]
impl Bytes for BackwardBytes<'_> {
    fn next(&mut self) -> (u8, u32) {
        let byte = match self.data.split_last() {
            Some((&last, rest)) => {
                self.data = rest;
                last
            }
            None => 0,
        };
        let unstuffed = if self.stuffed && byte & 0x7F == 0x7F {
            (byte & 0x7F, 7)
        } else {
            (byte, 8)
        };
        self.stuffed = byte > 0x8F;
        unstuffed
    }

    #[inline(always)]
    fn word(&mut self) -> Option<u32> {
        let split = self.data.len().checked_sub(4)?;
        let (rest, last) = self.data.split_at(split);
        // The last byte first: read backward, it is the word's lowest.
        let word = u32::from_be_bytes(last.try_into().ok()?);
        // A byte whose low 7 bits are all ones may hold 7 (after one above
        // 0x8F): none may be such a byte.
        if any_zero_byte(!(word | 0x8080_8080)) {
            return None;
        }
        self.data = rest;
        self.stuffed = word >> 24 > 0x8F;
        Some(word)
    }
}

#[cfg(test)]
/// VLC and MagRef.
pub(super) type Backward<'a> = Lsb<BackwardBytes<'a>>;

#[cfg(test)]
impl<'a> Backward<'a> {
    /// VLC over the cleanup segment's MEL and VLC bytes `tail` (its last
    /// `Scup` bytes): the last byte holds `Scup`'s high bits, the one before
    /// it its low nibble and, in its high nibble, VLC's first bits. (The
    /// decoder reads [`Vlc`]; this reads the same bits a byte at a time,
    /// for its tests.)
    pub(super) fn vlc(tail: &'a [u8]) -> Self {
        let n = tail.len();
        debug_assert!(n >= 2);
        let first = tail[n - 2] >> 4;
        // The nibble holds 3 bits when its low three are all ones (its
        // high bit is then a stuffed 0).
        let width = if first & 7 == 7 { 3 } else { 4 };
        Lsb {
            source: BackwardBytes {
                data: &tail[..n - 2],
                stuffed: (tail[n - 2] | 0x0F) > 0x8F,
            },
            bits: u64::from(first) & ((1 << width) - 1),
            count: width,
        }
    }

    /// MagRef over the refinement segment `data`.
    pub(super) fn magref(data: &'a [u8]) -> Self {
        Lsb {
            source: BackwardBytes {
                data,
                stuffed: true,
            },
            bits: 0,
            count: 0,
        }
    }
}

/// Zero bytes [`Vlc::new`] writes after VLC's last bits: a refill that
/// starts past them is moved back into them, which reads as the standard's
/// endless pad of zeros.
const VLC_PAD: usize = 16;

/// The most bytes [`Vlc::new`] writes for a cleanup segment's last `n`
/// (MEL and VLC) bytes.
pub(super) const fn vlc_unstuffed_size(n: usize) -> usize {
    n + VLC_PAD
}

/// VLC read from its bits with the stuffed ones taken out beforehand, in
/// the order it is read (zeros past its end): a refill is one load and no
/// branch, and between refills every read is a shift.
#[derive(Clone, Copy)]
pub(super) struct Vlc<'a> {
    /// The stream's bits, first read first, then [`VLC_PAD`] zero bytes.
    packed: &'a [u8],
    /// The next byte a refill loads.
    at: usize,
    /// Bits in hand, the next in bit 0; those above `count` are either
    /// zeros or the bits that come there.
    bits: u64,
    count: u32,
}

impl<'a> Vlc<'a> {
    /// VLC over the cleanup segment's MEL and VLC bytes `tail` (at least
    /// two), unstuffed into `scratch` (at least [`vlc_unstuffed_size`]
    /// bytes): the last byte holds `Scup`'s high bits, the one before it
    /// its low nibble and, in its high nibble, VLC's first bits; then the
    /// bytes before them, last first. After a byte above `0x8F`, a byte
    /// whose low 7 bits are all ones holds 7 bits.
    pub(super) fn new(tail: &[u8], scratch: &'a mut [u8]) -> Self {
        let n = tail.len();
        let first = tail[n - 2] >> 4;
        // The nibble holds 3 bits when its low three are all ones (its
        // high bit is then a stuffed 0).
        let width = if first & 7 == 7 { 3 } else { 4 };
        let mut bits = u64::from(first) & ((1 << width) - 1);
        let mut count = width;
        let mut stuffed = (tail[n - 2] | 0x0F) > 0x8F;
        let mut at = 0;
        let mut rest = &tail[..n - 2];
        while let Some((&byte, before)) = rest.split_last() {
            // Four bytes, none of whose low 7 bits are all ones: 32 bits
            // at once (the last byte first, the word's lowest).
            if let Some(split) = rest.len().checked_sub(4) {
                let word = u32::from_be_bytes(rest[split..].try_into().expect("4"));
                if !any_zero_byte(!(word | 0x8080_8080)) {
                    bits |= u64::from(word) << count;
                    stuffed = word >> 24 > 0x8F;
                    rest = &rest[..split];
                    scratch[at..at + 4].copy_from_slice(&(bits as u32).to_le_bytes());
                    (bits, at) = (bits >> 32, at + 4);
                    continue;
                }
            }
            rest = before;
            let width = if stuffed && byte & 0x7F == 0x7F { 7 } else { 8 };
            bits |= u64::from(byte & (0xFF >> (8 - width))) << count;
            count += width;
            stuffed = byte > 0x8F;
            if count >= 32 {
                scratch[at..at + 4].copy_from_slice(&(bits as u32).to_le_bytes());
                (bits, count, at) = (bits >> 32, count - 32, at + 4);
            }
        }
        // The bits left (zeros above them), then the pad's zeros.
        scratch[at..at + 4].copy_from_slice(&(bits as u32).to_le_bytes());
        scratch[at + 4..at + VLC_PAD].fill(0);
        Vlc {
            packed: &scratch[..at + VLC_PAD],
            at: 0,
            bits: 0,
            count: 0,
        }
    }

    /// At least 56 bits in hand.
    #[inline(always)]
    pub(super) fn refill(&mut self) {
        let at = self.at.min(self.packed.len() - 8);
        let word = u64::from_le_bytes(self.packed[at..at + 8].try_into().expect("8"));
        self.bits |= word << self.count;
        // Whole bytes taken: the count becomes 56 to 63.
        self.at += ((63 - self.count) >> 3) as usize;
        self.count |= 56;
    }

    /// The next 32 bits, not consumed (as many as are in hand are the
    /// stream's).
    #[inline(always)]
    pub(super) fn peek(&self) -> u32 {
        self.bits as u32
    }

    /// Consumes `n` bits (no more than are in hand).
    #[inline(always)]
    pub(super) fn advance(&mut self, n: u32) {
        self.bits >>= n;
        self.count -= n;
    }

    /// Consumes the bits a lookup entry `entry` gives in its low 3 bits,
    /// its bits 3 to 5 zeros: the shift takes `entry` whole, as the
    /// processor's shifts take their count's low 6 bits, and waits on no
    /// mask.
    #[inline(always)]
    pub(super) fn skip(&mut self, entry: u32) {
        self.bits >>= entry & 63;
        self.count -= entry & 7;
    }

    /// The next `n` (at most 32, no more than are in hand) bits, consumed.
    #[inline(always)]
    pub(super) fn take(&mut self, n: u32) -> u32 {
        let value = self.bits as u32 & ((1u64 << n) - 1) as u32;
        self.advance(n);
        value
    }
}

/// The MEL's exponents by state: a run of `2^E[k]` zeros per 1 bit.
const MEL_EXPONENTS: [u8; 13] = [0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 4, 5];

/// The MEL (T.814 7.3.3): adaptive run-length coded binary events, read
/// most significant bit first from the cleanup segment's MEL bytes (its
/// last `Scup` bytes but one, the last of them sharing its low nibble with
/// VLC, which reads as ones); past them, ones. After a byte `0xFF` the
/// next byte holds 7 bits.
pub(super) struct Mel<'a> {
    data: &'a [u8],
    pos: usize,
    /// The byte being read and how many of its bits are left.
    byte: u8,
    left: u8,
    stuffed: bool,
    state: usize,
    /// Zero events decoded and not handed out yet, and whether a one
    /// event follows them.
    zeros: u32,
    one: bool,
}

impl<'a> Mel<'a> {
    /// The MEL over `tail`, the cleanup segment's last `Scup` bytes.
    pub(super) fn new(tail: &'a [u8]) -> Self {
        Mel {
            data: &tail[..tail.len() - 1],
            pos: 0,
            byte: 0,
            left: 0,
            stuffed: false,
            state: 0,
            zeros: 0,
            one: false,
        }
    }

    fn bit(&mut self) -> bool {
        if self.left == 0 {
            let last = self.data.len().saturating_sub(1);
            let byte = match self.data.get(self.pos) {
                Some(&b) if self.pos == last => b | 0x0F,
                Some(&b) => b,
                None => 0xFF,
            };
            self.pos += 1;
            self.left = if self.stuffed { 7 } else { 8 };
            self.stuffed = byte == 0xFF;
            self.byte = byte;
        }
        self.left -= 1;
        (self.byte >> self.left) & 1 == 1
    }

    /// The next event.
    pub(super) fn event(&mut self) -> bool {
        if self.zeros == 0 && !self.one {
            let exponent = MEL_EXPONENTS[self.state];
            if self.bit() {
                // A whole run of zeros, no one after it.
                self.zeros = 1 << exponent;
                self.state = (self.state + 1).min(12);
            } else {
                let mut run = 0;
                for _ in 0..exponent {
                    run = (run << 1) | u32::from(self.bit());
                }
                self.zeros = run;
                self.one = true;
                self.state = self.state.saturating_sub(1);
            }
        }
        if self.zeros > 0 {
            self.zeros -= 1;
            false
        } else {
            self.one = false;
            true
        }
    }
}

/// The cleanup segment `cleanup` split: its MagSgn bytes and its MEL and
/// VLC bytes (the last `Scup`, which its last two bytes give).
pub(super) fn split_cleanup(cleanup: &[u8]) -> Result<(&[u8], &[u8])> {
    let n = cleanup.len();
    if n < 2 {
        return Err(Error::corrupt(
            "an HTJ2K cleanup segment shorter than two bytes",
        ));
    }
    let scup = (usize::from(cleanup[n - 1]) << 4) | usize::from(cleanup[n - 2] & 0x0F);
    if scup < 2 || scup > n || scup > 4079 {
        return Err(Error::corrupt(
            "an HTJ2K cleanup segment whose MEL and VLC length is out of range",
        ));
    }
    Ok(cleanup.split_at(n - scup))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forward_streams_read_low_bits_first_and_skip_stuffed_bits() {
        let data = [0b1010_0110, 0xFF, 0x7F, 0x01];
        let mut scratch = [0u8; unstuffed_size(4)];
        let mut magsgn = MagSgn::new(&data, &mut scratch);
        assert_eq!(magsgn.take(3), 0b110);
        assert_eq!(magsgn.take(5), 0b10100);
        assert_eq!(magsgn.take(8), 0xFF);
        // After 0xFF, 7 bits: 0x7F's low seven.
        assert_eq!(magsgn.take(7), 0x7F);
        assert_eq!(magsgn.take(8), 0x01);
        // Past the end, ones for MagSgn, zeros for SigProp.
        assert_eq!(magsgn.take(12), 0xFFF);
        assert_eq!(magsgn.take_long(64), u64::MAX);
        let mut sigprop = Forward::sigprop(&data[..1]);
        sigprop.advance(8);
        assert_eq!(sigprop.take(16), 0);
        // Peeking consumes nothing.
        let mut again = Forward::sigprop(&data);
        assert_eq!(again.peek() & 0xFF, 0b1010_0110);
        assert_eq!(again.take(8), 0b1010_0110);
    }

    /// MagSgn read by position from its unstuffed bits gives what the
    /// byte-by-byte reader gives, over runs of 0xFF, words without one,
    /// and every length of read.
    #[test]
    fn unstuffed_magsgn_reads_as_the_stream_does() {
        let mut seed = 7u32;
        let mut next = || {
            seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            seed >> 8
        };
        // Short streams dense with stuffing, then long ones with runs of
        // plain bytes between stuffed ones.
        for case in 0..300 {
            let (len, one_in) = if case < 200 {
                (case % 37 + case / 10, 4u32)
            } else {
                (case * 3 % 401, 24 + case as u32 % 40)
            };
            let data: Vec<u8> = (0..len)
                .map(|_| match next() % one_in {
                    0 => 0xFF,
                    1 => 0x7F,
                    _ => next() as u8,
                })
                .collect();
            let mut expected = Lsb {
                source: ForwardBytes {
                    data: &data,
                    pos: 0,
                    pad: 0xFF,
                    stuffed: false,
                },
                bits: 0,
                count: 0,
            };
            let mut scratch = vec![0u8; unstuffed_size(len)];
            let mut magsgn = MagSgn::new(&data, &mut scratch);
            for _ in 0..len + 8 {
                let n = next() % 33;
                assert_eq!(magsgn.take(n), expected.take(n), "case {case}");
            }
            let n = next() % 65;
            assert_eq!(magsgn.take_long(n), expected.take_long(n), "case {case}");
        }
    }

    /// VLC unstuffed beforehand gives what the byte-by-byte reader gives,
    /// over bytes above 0x8F, low sevens all ones, both widths of the first
    /// nibble, and reads past the end.
    #[test]
    fn unstuffed_vlc_reads_as_the_stream_does() {
        let mut seed = 5u32;
        let mut next = || {
            seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            seed >> 8
        };
        for case in 0..300 {
            let len = 2 + case % 41 + case / 10;
            let tail: Vec<u8> = (0..len)
                .map(|_| match next() % 4 {
                    0 => 0xFF,
                    1 => 0x7F | (next() as u8 & 0x80),
                    _ => next() as u8,
                })
                .collect();
            let mut expected = Backward::vlc(&tail);
            let mut scratch = vec![0u8; vlc_unstuffed_size(len)];
            let mut vlc = Vlc::new(&tail, &mut scratch);
            for _ in 0..len + 8 {
                vlc.refill();
                let n = next() % 25;
                assert_eq!(
                    vlc.peek() & 0xFF_FFFF,
                    expected.peek() & 0xFF_FFFF,
                    "case {case}"
                );
                assert_eq!(vlc.take(n), expected.take(n), "case {case}");
            }
        }
    }

    #[test]
    fn backward_streams_start_where_the_standard_says_and_unstuff() {
        // MEL/VLC tail: [.., 0x12, 0xA5, Scup's nibble in 0x_3 with VLC's
        // first four bits 0x5_, Scup's high byte].
        let tail = [0x12, 0x7F, 0x95, 0x53, 0x00];
        let mut vlc = Backward::vlc(&tail);
        assert_eq!(vlc.take(4), 0x5);
        // 0x95 > 0x8F but it is read first, with 8 bits.
        assert_eq!(vlc.take(8), 0x95);
        // After 0x95, 0x7F holds 7 bits.
        assert_eq!(vlc.take(7), 0x7F);
        assert_eq!(vlc.take(8), 0x12);
        // Then zeros.
        assert_eq!(vlc.take(9), 0);
        // A first nibble whose low three bits are ones holds three.
        let mut short = Backward::vlc(&[0x01, 0xF3, 0x00]);
        assert_eq!(short.take(3), 0b111);
        // After 0xF3 (> 0x8F), 0x01 is a whole byte: its low 7 bits are not all ones.
        assert_eq!(short.take(8), 0x01);
        // MagRef starts stuffed: a last byte 0x7F holds 7 bits.
        let mut magref = Backward::magref(&[0xAA, 0x7F]);
        assert_eq!(magref.take(7), 0x7F);
        assert_eq!(magref.take(8), 0xAA);
    }

    #[test]
    fn mel_runs_adapt_as_the_standard_codes_them() {
        // States 0 to 2 (exponent 0): "1" is one zero event, "0" a one
        // event. Bits: 1 1 1 (three zeros; state 3, exponent 1), 0 1 (a run
        // of one zero, then a one; state 2), 0 (a one; state 1), 0 (a one;
        // state 0), 0 (a one).
        let tail = [0b1110_1000, 0x00, 0x00];
        let mut mel = Mel::new(&tail);
        let events: Vec<bool> = (0..8).map(|_| mel.event()).collect();
        assert_eq!(events, [false, false, false, false, true, true, true, true]);
        // The last MEL byte shares its low nibble with VLC: read as ones.
        // State 0 again: bits 0 0 0 0 then 1 1 1 1 of 0x0F.
        let next: Vec<bool> = (0..7).map(|_| mel.event()).collect();
        assert_eq!(next, [true, true, true, true, false, false, false]);
    }

    #[test]
    fn cleanup_segments_split_by_their_last_two_bytes() {
        let segment = [1, 2, 3, 4, 5, 0x03, 0x00];
        let (magsgn, tail) = split_cleanup(&segment).unwrap();
        assert_eq!((magsgn, tail), (&[1, 2, 3, 4][..], &[5, 0x03, 0x00][..]));
        assert!(split_cleanup(&[0x01, 0x00]).is_err());
        assert!(split_cleanup(&[0x0F, 0x00]).is_err());
        assert!(split_cleanup(&[0]).is_err());
        // OpenEXR's code-blocks split.
        use super::super::markers::tests::chunks;
        use super::super::{geometry, header, markers, packets};
        let chunk = chunks("rgb_z_id_ht256.exr").remove(0);
        let codestream = markers::read(header::read(&chunk, 5).unwrap().codestream).unwrap();
        let shapes = geometry::tile_resolutions(&codestream, 0).unwrap();
        let (blocks, _) = packets::read(&codestream, 0, &shapes).unwrap();
        let mut seen = 0;
        for block in blocks.iter().flatten().flatten().flatten().flatten() {
            split_cleanup(block.cleanup).unwrap();
            seen += 1;
        }
        assert!(seen > 20, "{seen}");
    }
}
