//! PIZ's Huffman decoder (OpenEXR's `hufUncompress`): canonical codes of up
//! to 58 bits over 16-bit symbols, with a run-length symbol.
//!
//! | field | size | value |
//! | --- | --- | --- |
//! | im, iM | 4 + 4 | u32: the first and last symbol with a code; iM is also the run symbol |
//! | table length | 4 | u32, ignored |
//! | bits | 4 | u32: length of the coded data in bits |
//! | reserved | 4 | ignored |
//! | code lengths | to a byte | 6 bits per symbol im..=iM (MSB first); 59–62 mean 2–5 zero lengths, 63 then 8 bits n means n + 6 |
//! | data | ⌈bits / 8⌉ | codes, MSB first; the run symbol is followed by 8 bits: repeat the previous value that many times |
//!
//! Codes are canonical: for each length the codes of that length are
//! consecutive, in symbol order, and longer codes are numerically lower.

use crate::{Error, Result};

const MAX_LENGTH: usize = 58;
/// Symbols 0..=65536 may have codes (65536 only as the run symbol).
const SYMBOLS: u32 = 1 << 16;
const SHORT_ZERO_RUN: u64 = 59;
const LONG_ZERO_RUN: u64 = 63;
const SHORTEST_LONG_RUN: u64 = 2 + LONG_ZERO_RUN - SHORT_ZERO_RUN;
/// Codes up to this many bits are found with one table look-up.
const FAST_BITS: usize = 12;

fn corrupt(what: &'static str) -> Error {
    Error::Corrupt { what, offset: None }
}

/// Reads bits most significant first from a byte slice, up to a limit.
#[derive(Clone, Copy)]
struct Bits<'a> {
    bytes: &'a [u8],
    /// Position in bits.
    pos: u64,
    /// Bits that may be read.
    end: u64,
}

impl Bits<'_> {
    /// The next `n` bits (1 to 56), or `None` past the end.
    fn take(&mut self, n: usize) -> Option<u64> {
        let v = self.peek(n)?;
        self.pos += n as u64;
        Some(v)
    }

    /// The next `n` bits (1 to 56) without consuming them; `None` when
    /// fewer remain.
    fn peek(&self, n: usize) -> Option<u64> {
        if self.pos + n as u64 > self.end {
            return None;
        }
        Some(self.window() >> (64 - n))
    }

    /// The 57 or more bits from `pos` at the top of a word, zeros past
    /// the bytes (one unaligned load in the body of the data).
    fn window(&self) -> u64 {
        let byte = (self.pos / 8) as usize;
        let word = match self.bytes.get(byte..byte + 8) {
            Some(b) => u64::from_be_bytes(b.try_into().expect("8 bytes")),
            None => {
                let mut b = [0u8; 8];
                let rest = self.bytes.get(byte..).unwrap_or_default();
                b[..rest.len()].copy_from_slice(rest);
                u64::from_be_bytes(b)
            }
        };
        word << (self.pos % 8)
    }
}

struct Code {
    /// `first[l]`: the numerically lowest code of length l.
    first: [u64; MAX_LENGTH + 1],
    /// `count[l]`: how many codes have length l.
    count: [u64; MAX_LENGTH + 1],
    /// Where the symbols of length l start in `symbols`.
    start: [usize; MAX_LENGTH + 1],
    /// Symbols sorted by length, then value.
    symbols: Vec<u32>,
    /// For every FAST_BITS-bit prefix: (symbol, length) of the short code it
    /// starts with, or length 0.
    fast: Vec<(u32, u8)>,
}

impl Code {
    fn new(lengths: &[(u32, u8)]) -> Result<Self> {
        let mut count = [0u64; MAX_LENGTH + 1];
        for &(_, l) in lengths {
            count[usize::from(l)] += 1;
        }
        // The lowest code of each length, longest first (OpenEXR's
        // hufCanonicalCodeTable).
        let mut first = [0u64; MAX_LENGTH + 1];
        let mut c = 0u64;
        for l in (1..=MAX_LENGTH).rev() {
            first[l] = c;
            c = (c + count[l]) >> 1;
            if first[l] + count[l] > 1u64 << l {
                return Err(corrupt(
                    "a PIZ Huffman table has more codes than fit their lengths",
                ));
            }
        }
        let mut start = [0usize; MAX_LENGTH + 1];
        for l in 1..=MAX_LENGTH {
            start[l] = start[l - 1] + count[l - 1] as usize;
        }
        let mut symbols = vec![0u32; lengths.len()];
        let mut next = start;
        for &(symbol, l) in lengths {
            symbols[next[usize::from(l)]] = symbol;
            next[usize::from(l)] += 1;
        }
        let mut fast = vec![(0u32, 0u8); 1 << FAST_BITS];
        for l in 1..=FAST_BITS {
            for i in 0..count[l] {
                let code = first[l] + i;
                let symbol = symbols[start[l] + i as usize];
                let shift = FAST_BITS - l;
                let base = (code << shift) as usize;
                for slot in &mut fast[base..base + (1 << shift)] {
                    if slot.1 != 0 {
                        return Err(corrupt("a PIZ Huffman table has overlapping codes"));
                    }
                    *slot = (symbol, l as u8);
                }
            }
        }
        Ok(Code {
            first,
            count,
            start,
            symbols,
            fast,
        })
    }

    /// The next symbol.
    fn next(&self, bits: &mut Bits) -> Result<u32> {
        // One load gives the next 57 bits or more: every code of up to 57
        // bits is decoded from it. A code is decoded the same whatever
        // follows the end of the data: no code is a prefix of another.
        let word = bits.window();
        let left = bits.end - bits.pos;
        let end = || corrupt("PIZ Huffman data ends inside a code");
        let (symbol, l) = self.fast[(word >> (64 - FAST_BITS)) as usize];
        if l != 0 {
            if u64::from(l) > left {
                return Err(end());
            }
            bits.pos += u64::from(l);
            return Ok(symbol);
        }
        for l in FAST_BITS + 1..=MAX_LENGTH {
            let code = if l <= 57 {
                word >> (64 - l)
            } else {
                // A code of 58 bits: its last bit is past the word.
                let mut ahead = Bits {
                    pos: bits.pos + 57,
                    ..*bits
                };
                (word >> 7) << 1 | ahead.take(1).ok_or_else(end)?
            };
            if code.wrapping_sub(self.first[l]) < self.count[l] {
                if l as u64 > left {
                    return Err(end());
                }
                bits.pos += l as u64;
                return Ok(self.symbols[self.start[l] + (code - self.first[l]) as usize]);
            }
        }
        Err(corrupt(
            "PIZ Huffman data holds a code the table does not have",
        ))
    }
}

fn read_u32(data: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(data[at..at + 4].try_into().expect("4 bytes"))
}

/// Decodes `data` (a PIZ Huffman block) into exactly `out.len()` values.
pub(crate) fn decode(data: &[u8], out: &mut [u16]) -> Result<()> {
    if data.len() < 20 {
        return if out.is_empty() {
            Ok(())
        } else {
            Err(corrupt("a PIZ Huffman block is shorter than its header"))
        };
    }
    let (im, last) = (read_u32(data, 0), read_u32(data, 4));
    let n_bits = u64::from(read_u32(data, 12));
    if im > SYMBOLS || last > SYMBOLS || im > last {
        return Err(corrupt("a PIZ Huffman block's symbol range is invalid"));
    }
    // Code lengths, 6 bits each with runs of zeros.
    let mut table = Bits {
        bytes: &data[20..],
        pos: 0,
        end: (data.len() as u64 - 20) * 8,
    };
    let short = || corrupt("a PIZ Huffman table is cut short");
    let mut lengths = Vec::new();
    let mut symbol = im;
    while symbol <= last {
        let l = table.take(6).ok_or_else(short)?;
        let zeros = if l == LONG_ZERO_RUN {
            table.take(8).ok_or_else(short)? + SHORTEST_LONG_RUN
        } else if l >= SHORT_ZERO_RUN {
            l - SHORT_ZERO_RUN + 2
        } else {
            if l > 0 {
                lengths.push((symbol, l as u8));
            }
            1
        };
        if u64::from(symbol) + zeros > u64::from(last) + 1 {
            return Err(corrupt(
                "a PIZ Huffman table's run of zeros passes its last symbol",
            ));
        }
        symbol += zeros as u32;
    }
    let code = Code::new(&lengths)?;
    // The data starts at the byte after the table's last bit.
    let start = 20 + table.pos.div_ceil(8) as usize;
    if n_bits.div_ceil(8) > (data.len() - start) as u64 {
        return Err(corrupt("a PIZ Huffman block's data runs past its end"));
    }
    let mut bits = Bits {
        bytes: &data[start..],
        pos: 0,
        end: n_bits,
    };
    let mut written = 0usize;
    let run_symbol = last;
    while bits.pos < bits.end {
        // Far from the end of the data and of the output, two short codes
        // from one load when neither is the run symbol.
        if bits.end - bits.pos >= 2 * FAST_BITS as u64 && written + 2 <= out.len() {
            let word = bits.window();
            let (first, l1) = code.fast[(word >> (64 - FAST_BITS)) as usize];
            if l1 != 0 && first != run_symbol {
                out[written] = first as u16;
                let (second, l2) = code.fast[((word << l1) >> (64 - FAST_BITS)) as usize];
                if l2 != 0 && second != run_symbol {
                    out[written + 1] = second as u16;
                    bits.pos += u64::from(l1) + u64::from(l2);
                    written += 2;
                } else {
                    bits.pos += u64::from(l1);
                    written += 1;
                }
                continue;
            }
        }
        let symbol = code.next(&mut bits)?;
        if symbol == last {
            let run = bits
                .take(8)
                .ok_or_else(|| corrupt("PIZ Huffman data ends inside a run"))?
                as usize;
            let previous = *written
                .checked_sub(1)
                .and_then(|i| out.get(i))
                .ok_or_else(|| corrupt("PIZ Huffman data starts with a run"))?;
            out.get_mut(written..written + run)
                .ok_or_else(|| {
                    corrupt("PIZ Huffman data decodes to more values than the chunk holds")
                })?
                .fill(previous);
            written += run;
        } else {
            *out.get_mut(written).ok_or_else(|| {
                corrupt("PIZ Huffman data decodes to more values than the chunk holds")
            })? = symbol as u16;
            written += 1;
        }
    }
    if written != out.len() {
        return Err(corrupt(
            "PIZ Huffman data decodes to fewer values than the chunk holds",
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Packs `fields` (value, bits) most significant bit first.
    fn pack(fields: &[(u64, usize)]) -> (Vec<u8>, u64) {
        let mut bytes = Vec::new();
        let (mut acc, mut n, mut total) = (0u64, 0usize, 0u64);
        for &(v, bits) in fields {
            for i in (0..bits).rev() {
                acc = (acc << 1) | ((v >> i) & 1);
                n += 1;
                total += 1;
                if n == 8 {
                    bytes.push(acc as u8);
                    acc = 0;
                    n = 0;
                }
            }
        }
        if n > 0 {
            bytes.push((acc << (8 - n)) as u8);
        }
        (bytes, total)
    }

    #[test]
    fn decodes_a_hand_made_block() {
        // Symbols 5 (length 1), 6 (length 2), 7 = run symbol (length 2):
        // canonical codes, longest first: lengths 2 get 0 and 1 (6 → 00,
        // 7 → 01), length 1 gets 1 (5 → 1).
        let (table, _) = pack(&[(1, 6), (2, 6), (2, 6)]);
        // 5, 6, run of 3 (of 6), 5
        let (data, n_bits) = pack(&[(1, 1), (0, 2), (1, 2), (3, 8), (1, 1)]);
        let mut block = Vec::new();
        for v in [5u32, 7, 0, n_bits as u32, 0] {
            block.extend_from_slice(&v.to_le_bytes());
        }
        block.extend_from_slice(&table);
        block.extend_from_slice(&data);
        let mut out = [0u16; 6];
        decode(&block, &mut out).unwrap();
        assert_eq!(out, [5, 6, 6, 6, 6, 5]);
        // Too many or too few values, a cut block: errors.
        assert!(decode(&block, &mut [0u16; 5]).is_err());
        assert!(decode(&block, &mut [0u16; 7]).is_err());
        for len in 0..block.len() {
            assert!(decode(&block[..len], &mut out).is_err(), "{len}");
        }
    }
}
