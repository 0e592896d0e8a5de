//! PIZ's Huffman coder (OpenEXR's `hufCompress` and `hufUncompress`):
//! canonical codes of up to 58 bits over 16-bit symbols, with a run-length
//! symbol.
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
const LONGEST_LONG_RUN: u64 = 255 + SHORTEST_LONG_RUN;
/// Codes up to this many bits are found with one table look-up.
const FAST_BITS: usize = 12;
/// Blocks of this many values or more are decoded through a table of
/// pairs of codes (building it costs about as much as decoding 4096
/// values).
const PAIRS_FROM: usize = 1 << 16;
/// Marks the run symbol's entries in the look-up table.
const RUN_FLAG: u32 = 0x80;

/// A look-up table entry's symbol and length when it is a short code to
/// store: not a long code (length 0) nor the run symbol (`RUN_FLAG`, which
/// makes the length field larger than any short code's).
#[inline(always)]
fn short_code(entry: u32) -> Option<(u32, u32)> {
    let l = entry & 0xff;
    (l.wrapping_sub(1) < FAST_BITS as u32).then_some((entry >> 8, l))
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
    /// For every FAST_BITS-bit prefix: the short code it starts with, as
    /// symbol << 8 | length, with `RUN_FLAG` set for the run symbol
    /// (length 0: a longer code). Four bytes an entry keep the table in
    /// the L1 cache.
    fast: Vec<u32>,
}

impl Code {
    /// The code of symbols with `lengths`; `run` is the run symbol.
    fn new(lengths: &[(u32, u8)], run: u32) -> Result<Self> {
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
                return Err(Error::corrupt(
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
        let mut fast = vec![0u32; 1 << FAST_BITS];
        for l in 1..=FAST_BITS {
            for i in 0..count[l] {
                let code = first[l] + i;
                let symbol = symbols[start[l] + i as usize];
                let shift = FAST_BITS - l;
                let base = (code << shift) as usize;
                let flag = if symbol == run { RUN_FLAG } else { 0 };
                for slot in &mut fast[base..base + (1 << shift)] {
                    if *slot & 0xff != 0 {
                        return Err(Error::corrupt("a PIZ Huffman table has overlapping codes"));
                    }
                    *slot = symbol << 8 | flag | l as u32;
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

    /// For every FAST_BITS-bit prefix: the short codes it starts with, one
    /// or two, as first | second << 16 | their length << 32 | how many
    /// << 40; 0 where the first is long or the run symbol.
    fn pairs(&self) -> Vec<u64> {
        (0..1usize << FAST_BITS)
            .map(|prefix| {
                let Some((first, l)) = short_code(self.fast[prefix]) else {
                    return 0;
                };
                let (first, l) = (u64::from(first), u64::from(l));
                // The bits after the first code, zeros past the prefix: a
                // second code that fits in them is found whatever follows.
                let rest = (prefix << l) & ((1 << FAST_BITS) - 1);
                match short_code(self.fast[rest]) {
                    Some((second, m)) if l + u64::from(m) <= FAST_BITS as u64 => {
                        first | u64::from(second) << 16 | (l + u64::from(m)) << 32 | 2 << 40
                    }
                    _ => first | l << 32 | 1 << 40,
                }
            })
            .collect()
    }

    /// The next symbol.
    fn next(&self, bits: &mut Bits) -> Result<u32> {
        // One load gives the next 57 bits or more: every code of up to 57
        // bits is decoded from it. A code is decoded the same whatever
        // follows the end of the data: no code is a prefix of another.
        let word = bits.window();
        let left = bits.end - bits.pos;
        let end = || Error::corrupt("PIZ Huffman data ends inside a code");
        let entry = self.fast[(word >> (64 - FAST_BITS)) as usize];
        let (symbol, l) = (entry >> 8, entry & !RUN_FLAG & 0xff);
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
        Err(Error::corrupt(
            "PIZ Huffman data holds a code the table does not have",
        ))
    }
}

/// Far from the end of the data and of `out`, decodes short codes into
/// `out` from `written` on, four at a time from one load (57 bits or
/// more: four codes of up to 12 bits), until a long code or the run
/// symbol. A fixed count keeps the loop's branches predictable. Returns
/// where the next value goes.
fn short_codes(code: &Code, bits: &mut Bits, out: &mut [u16], mut written: usize) -> usize {
    while bits.end - bits.pos >= 57 && out.len() - written >= 4 {
        let word = bits.window();
        let mut used = 0u32;
        let mut decoded = 0;
        for value in &mut out[written..written + 4] {
            let entry = code.fast[((word << used) >> (64 - FAST_BITS)) as usize];
            let Some((symbol, l)) = short_code(entry) else {
                break;
            };
            *value = symbol as u16;
            used += l;
            decoded += 1;
        }
        bits.pos += u64::from(used);
        written += decoded;
        if decoded < 4 {
            break;
        }
    }
    written
}

/// `short_codes` through the table of pairs: one or two codes a look-up,
/// half the look-ups (each waits on the one before) where codes are
/// short.
fn short_pairs(pairs: &[u64], bits: &mut Bits, out: &mut [u16], mut written: usize) -> usize {
    while bits.end - bits.pos >= 57 && out.len() - written >= 8 {
        let word = bits.window();
        let mut used = 0u32;
        let mut stop = false;
        for _ in 0..4 {
            let entry = pairs[((word << used) >> (64 - FAST_BITS)) as usize];
            let l = (entry >> 32) as u8;
            if l == 0 {
                stop = true;
                break;
            }
            // Both halves stored; a single code's second is overwritten
            // by the next value.
            out[written] = entry as u16;
            out[written + 1] = (entry >> 16) as u16;
            written += (entry >> 40) as usize;
            used += u32::from(l);
        }
        bits.pos += u64::from(used);
        if stop {
            break;
        }
    }
    written
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
            Err(Error::corrupt(
                "a PIZ Huffman block is shorter than its header",
            ))
        };
    }
    let (im, last) = (read_u32(data, 0), read_u32(data, 4));
    let n_bits = u64::from(read_u32(data, 12));
    if im > SYMBOLS || last > SYMBOLS || im > last {
        return Err(Error::corrupt(
            "a PIZ Huffman block's symbol range is invalid",
        ));
    }
    // Code lengths, 6 bits each with runs of zeros.
    let mut table = Bits {
        bytes: &data[20..],
        pos: 0,
        end: (data.len() as u64 - 20) * 8,
    };
    let short = || Error::corrupt("a PIZ Huffman table is cut short");
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
            return Err(Error::corrupt(
                "a PIZ Huffman table's run of zeros passes its last symbol",
            ));
        }
        symbol += zeros as u32;
    }
    let code = Code::new(&lengths, last)?;
    // The data starts at the byte after the table's last bit.
    let start = 20 + table.pos.div_ceil(8) as usize;
    if n_bits.div_ceil(8) > (data.len() - start) as u64 {
        return Err(Error::corrupt(
            "a PIZ Huffman block's data runs past its end",
        ));
    }
    let mut bits = Bits {
        bytes: &data[start..],
        pos: 0,
        end: n_bits,
    };
    // Large blocks pay for the table of pairs.
    let pairs = (out.len() >= PAIRS_FROM).then(|| code.pairs());
    let mut written = 0usize;
    while bits.pos < bits.end {
        written = match &pairs {
            Some(pairs) => short_pairs(pairs, &mut bits, out, written),
            None => short_codes(&code, &mut bits, out, written),
        };
        if bits.pos >= bits.end {
            break;
        }
        let symbol = code.next(&mut bits)?;
        if symbol == last {
            let run = bits
                .take(8)
                .ok_or_else(|| Error::corrupt("PIZ Huffman data ends inside a run"))?
                as usize;
            let previous = *written
                .checked_sub(1)
                .and_then(|i| out.get(i))
                .ok_or_else(|| Error::corrupt("PIZ Huffman data starts with a run"))?;
            out.get_mut(written..written + run)
                .ok_or_else(|| {
                    Error::corrupt("PIZ Huffman data decodes to more values than the chunk holds")
                })?
                .fill(previous);
            written += run;
        } else {
            *out.get_mut(written).ok_or_else(|| {
                Error::corrupt("PIZ Huffman data decodes to more values than the chunk holds")
            })? = symbol as u16;
            written += 1;
        }
    }
    if written != out.len() {
        return Err(Error::corrupt(
            "PIZ Huffman data decodes to fewer values than the chunk holds",
        ));
    }
    Ok(())
}

/// Writes bits most significant first.
#[derive(Default)]
struct BitWriter {
    bytes: Vec<u8>,
    /// Bits not yet written, in the low `len` bits.
    acc: u64,
    len: u32,
}

impl BitWriter {
    /// Appends the low `n` bits of `value` (n at most 58).
    fn put(&mut self, n: u32, value: u64) {
        debug_assert!(n <= 58 && value >> n == 0);
        if n > 32 {
            // At most 7 bits wait in the accumulator: 32 more always fit.
            self.put(n - 32, value >> 32);
            self.put(32, value & 0xffff_ffff);
            return;
        }
        self.acc = (self.acc << n) | value;
        self.len += n;
        while self.len >= 8 {
            self.len -= 8;
            self.bytes.push((self.acc >> self.len) as u8);
        }
    }

    /// The bytes (the last one padded with zeros) and the bits written.
    fn finish(mut self) -> (Vec<u8>, u64) {
        let bits = self.bytes.len() as u64 * 8 + u64::from(self.len);
        if self.len > 0 {
            self.bytes.push((self.acc << (8 - self.len)) as u8);
        }
        (self.bytes, bits)
    }
}

/// The code lengths OpenEXR's `hufBuildEncTable` gives the symbols with
/// counts `freq` (65537 entries: the last is the run symbol, whose count is
/// set to 1 here): the two least frequent nodes merge first, ties going to
/// the lower symbol, each node named by the second of its two lowest.
/// Returns (first, last) symbols with codes: the last is the run symbol.
fn code_lengths(freq: &mut [u64], lengths: &mut [u8]) -> (usize, usize) {
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;
    let first = freq.iter().position(|&f| f > 0).expect("some value");
    let run = freq[..SYMBOLS as usize]
        .iter()
        .rposition(|&f| f > 0)
        .expect("some value")
        + 1;
    freq[run] = 1;
    // The heap orders by (count, symbol): a total order, so any heap pops
    // what OpenEXR's does.
    let mut heap: BinaryHeap<Reverse<(u64, usize)>> = (first..=run)
        .filter(|&i| freq[i] > 0)
        .map(|i| Reverse((freq[i], i)))
        .collect();
    // Each node's leaves, as a linked list from the node's symbol.
    let mut link: Vec<usize> = (0..freq.len()).collect();
    lengths.fill(0);
    while heap.len() > 1 {
        let Reverse((low, mm)) = heap.pop().expect("two nodes");
        let Reverse((next, m)) = heap.pop().expect("two nodes");
        heap.push(Reverse((low + next, m)));
        let mut j = m;
        loop {
            lengths[j] += 1;
            if link[j] == j {
                link[j] = mm;
                break;
            }
            j = link[j];
        }
        let mut j = mm;
        loop {
            lengths[j] += 1;
            if link[j] == j {
                break;
            }
            j = link[j];
        }
    }
    (first, run)
}

/// Canonical codes from lengths (OpenEXR's `hufCanonicalCodeTable`):
/// longer codes are numerically lower; within a length, codes go up with
/// the symbol.
fn canonical_codes(lengths: &[u8]) -> Vec<u64> {
    let mut count = [0u64; MAX_LENGTH + 1];
    for &l in lengths {
        count[usize::from(l)] += 1;
    }
    let mut next = [0u64; MAX_LENGTH + 1];
    let mut code = 0u64;
    for l in (1..=MAX_LENGTH).rev() {
        next[l] = code;
        code = (code + count[l]) >> 1;
    }
    lengths
        .iter()
        .map(|&l| {
            if l == 0 {
                return 0;
            }
            let c = next[usize::from(l)];
            next[usize::from(l)] += 1;
            c
        })
        .collect()
}

/// Appends the Huffman block of `values` (OpenEXR's `hufCompress`, the
/// same bytes) to `out`; `false` when a code would be longer than 58 bits
/// (the chunk is then stored raw).
pub(crate) fn encode(values: &[u16], out: &mut Vec<u8>) -> bool {
    if values.is_empty() {
        return true;
    }
    let symbols = SYMBOLS as usize + 1;
    let mut freq = vec![0u64; symbols];
    for &v in values {
        freq[usize::from(v)] += 1;
    }
    let mut lengths = vec![0u8; symbols];
    let (first, run) = code_lengths(&mut freq, &mut lengths);
    if lengths.iter().any(|&l| usize::from(l) > MAX_LENGTH) {
        return false;
    }
    let codes = canonical_codes(&lengths);
    // The table: 6 bits a length, runs of zero lengths shortened.
    let mut table = BitWriter::default();
    let mut i = first;
    while i <= run {
        if lengths[i] == 0 {
            let mut zeros = 1u64;
            while i < run && zeros < LONGEST_LONG_RUN && lengths[i + 1] == 0 {
                i += 1;
                zeros += 1;
            }
            if zeros >= SHORTEST_LONG_RUN {
                table.put(6, LONG_ZERO_RUN);
                table.put(8, zeros - SHORTEST_LONG_RUN);
                i += 1;
                continue;
            }
            if zeros >= 2 {
                table.put(6, SHORT_ZERO_RUN + zeros - 2);
                i += 1;
                continue;
            }
        }
        table.put(6, u64::from(lengths[i]));
        i += 1;
    }
    let (table, _) = table.finish();
    // The data: a value's code, and a run of up to 255 repeats as the
    // value, the run symbol and the count when that is shorter.
    let mut data = BitWriter::default();
    let send = |data: &mut BitWriter, symbol: usize, repeats: u64| {
        let (length, code) = (u64::from(lengths[symbol]), codes[symbol]);
        let run_length = u64::from(lengths[run]);
        if length + run_length + 8 < length * repeats {
            data.put(length as u32, code);
            data.put(run_length as u32, codes[run]);
            data.put(8, repeats);
        } else {
            for _ in 0..=repeats {
                data.put(length as u32, code);
            }
        }
    };
    let mut symbol = usize::from(values[0]);
    let mut repeats = 0u64;
    for &v in &values[1..] {
        if repeats == 255 || usize::from(v) != symbol {
            send(&mut data, symbol, repeats);
            symbol = usize::from(v);
            repeats = 0;
        } else {
            repeats += 1;
        }
    }
    send(&mut data, symbol, repeats);
    let (data, bits) = data.finish();
    let Ok(bits) = u32::try_from(bits) else {
        return false;
    };
    for field in [first as u32, run as u32, table.len() as u32, bits, 0] {
        out.extend_from_slice(&field.to_le_bytes());
    }
    out.extend_from_slice(&table);
    out.extend_from_slice(&data);
    true
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

    #[test]
    fn encoded_blocks_decode_to_their_values() {
        let mut cases: Vec<Vec<u16>> = vec![
            vec![7],
            vec![0; 1000],
            (0..5000u32).map(|i| (i % 3) as u16).collect(),
            (0..5000u32).map(|i| ((i * 7919) % 65536) as u16).collect(),
            vec![65535, 0, 65535, 65535, 65535, 65535, 65535, 65535, 65535, 1],
        ];
        // Long runs and a skewed spread (long codes).
        let mut skewed = Vec::new();
        for (i, n) in [
            1usize, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233, 377, 610, 987,
        ]
        .iter()
        .enumerate()
        {
            skewed.extend(std::iter::repeat_n(i as u16 * 1000, *n));
        }
        cases.push(skewed);
        // A block large enough for the table of pairs: codes from 1 bit to
        // past the table's 12, repeats, and the largest value.
        let mut seed = 5u32;
        let large: Vec<u16> = (0..300_000)
            .map(|i| {
                seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
                let magnitude = (seed >> 28) as u16; // 0 to 15
                match i % 1000 {
                    0..=99 => 3, // a run
                    100 => u16::MAX,
                    _ => (seed >> 8) as u16 & ((1 << magnitude) - 1),
                }
            })
            .collect();
        cases.push(large);
        for values in cases {
            let mut block = Vec::new();
            assert!(encode(&values, &mut block));
            let mut out = vec![0u16; values.len()];
            decode(&block, &mut out).unwrap();
            assert_eq!(out, values);
        }
    }
}
