//! Delta of little-endian 16- or 32-bit words along a row: each word after
//! the first becomes its difference from the previous one (mod 2^16 or
//! 2^32). OpenEXR 3.5's ZSTD method applies it to each channel's row.

/// Delta-codes `row`, a sequence of `width`-byte (2 or 4) little-endian words.
pub fn delta_encode_words(row: &mut [u8], width: usize) {
    assert!(width == 2 || width == 4, "word width {width}: 2 or 4");
    // Backwards, so that each word's predecessor is still the original.
    #[cfg(target_arch = "x86_64")]
    let end = sse2::encode_tail(row, width);
    #[cfg(not(target_arch = "x86_64"))]
    let end = row.len() / width * width;
    match width {
        2 => encode::<2>(&mut row[..end], |a, b| {
            (u16::from_le_bytes(a).wrapping_sub(u16::from_le_bytes(b))).to_le_bytes()
        }),
        _ => encode::<4>(&mut row[..end], |a, b| {
            (u32::from_le_bytes(a).wrapping_sub(u32::from_le_bytes(b))).to_le_bytes()
        }),
    }
}

/// The inverse of [`delta_encode_words`]: a running sum.
pub fn delta_decode_words(row: &mut [u8], width: usize) {
    assert!(width == 2 || width == 4, "word width {width}: 2 or 4");
    if row.len() < width {
        return;
    }
    #[cfg(target_arch = "x86_64")]
    let done = sse2::decode_head(row, width);
    #[cfg(not(target_arch = "x86_64"))]
    let done = width;
    let row = &mut row[done - width..];
    match width {
        2 => decode::<2>(row, |d, p| {
            (u16::from_le_bytes(d).wrapping_add(u16::from_le_bytes(p))).to_le_bytes()
        }),
        _ => decode::<4>(row, |d, p| {
            (u32::from_le_bytes(d).wrapping_add(u32::from_le_bytes(p))).to_le_bytes()
        }),
    }
}

/// Encodes the words of `row` after its first one, last first.
fn encode<const W: usize>(row: &mut [u8], sub: fn([u8; W], [u8; W]) -> [u8; W]) {
    let words = row.len() / W;
    for i in (1..words).rev() {
        let current: [u8; W] = row[i * W..][..W].try_into().expect("W bytes");
        let previous: [u8; W] = row[(i - 1) * W..][..W].try_into().expect("W bytes");
        row[i * W..][..W].copy_from_slice(&sub(current, previous));
    }
}

/// Decodes the words of `row` after its first one (which is decoded).
fn decode<const W: usize>(row: &mut [u8], add: fn([u8; W], [u8; W]) -> [u8; W]) {
    let mut words = row.chunks_exact_mut(W);
    let Some(first) = words.next() else { return };
    let mut previous: [u8; W] = (&*first).try_into().expect("W bytes");
    for word in words {
        previous = add((&*word).try_into().expect("W bytes"), previous);
        word.copy_from_slice(&previous);
    }
}

/// 16 bytes at a time with SSE2 (part of x86-64's baseline): encoding is a
/// subtraction of the row shifted by one word; decoding a prefix sum in
/// log steps whose carry stays in a register, so blocks overlap in the
/// pipeline instead of waiting word by word.
#[cfg(target_arch = "x86_64")]
mod sse2 {
    use std::arch::x86_64::*;

    /// Encodes the whole 16-byte blocks at the end of `row` (each needs the
    /// word before it); the length of the start left to encode.
    pub(super) fn encode_tail(row: &mut [u8], width: usize) -> usize {
        let mut end = row.len() / width * width;
        // SAFETY: SSE2 is in every x86-64 CPU; every load and store lies
        // inside `row` (end - 16 - width ≥ 0), unaligned.
        unsafe {
            while end >= 16 + width {
                let at = end - 16;
                let p = row.as_mut_ptr();
                let current = _mm_loadu_si128(p.add(at).cast());
                let previous = _mm_loadu_si128(p.add(at - width).cast());
                let delta = if width == 2 {
                    _mm_sub_epi16(current, previous)
                } else {
                    _mm_sub_epi32(current, previous)
                };
                _mm_storeu_si128(p.add(at).cast(), delta);
                end = at;
            }
        }
        end
    }

    /// Decodes whole 16-byte blocks from the second word of `row` on; the
    /// number of bytes decoded (the first word included).
    pub(super) fn decode_head(row: &mut [u8], width: usize) -> usize {
        let blocks = (row.len() - width) / 16;
        let p = row.as_mut_ptr();
        // SAFETY: SSE2 is in every x86-64 CPU; the blocks lie inside `row`
        // (width + 16 * blocks ≤ len), loads and stores unaligned.
        unsafe {
            if width == 2 {
                let mut carry = _mm_set1_epi16(i16::from_le_bytes([row[0], row[1]]));
                for b in 0..blocks {
                    let q = p.add(2 + 16 * b).cast::<__m128i>();
                    let mut d = _mm_loadu_si128(q);
                    d = _mm_add_epi16(d, _mm_slli_si128(d, 2));
                    d = _mm_add_epi16(d, _mm_slli_si128(d, 4));
                    d = _mm_add_epi16(d, _mm_slli_si128(d, 8));
                    d = _mm_add_epi16(d, carry);
                    _mm_storeu_si128(q, d);
                    let high = _mm_shufflehi_epi16(d, 0xff);
                    carry = _mm_unpackhi_epi64(high, high);
                }
            } else {
                let first = i32::from_le_bytes(row[..4].try_into().expect("4 bytes"));
                let mut carry = _mm_set1_epi32(first);
                for b in 0..blocks {
                    let q = p.add(4 + 16 * b).cast::<__m128i>();
                    let mut d = _mm_loadu_si128(q);
                    d = _mm_add_epi32(d, _mm_slli_si128(d, 4));
                    d = _mm_add_epi32(d, _mm_slli_si128(d, 8));
                    d = _mm_add_epi32(d, carry);
                    _mm_storeu_si128(q, d);
                    carry = _mm_shuffle_epi32(d, 0xff);
                }
            }
        }
        width + 16 * blocks
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The definition, word by word.
    fn reference(row: &[u8], width: usize) -> Vec<u8> {
        let word = |i: usize| {
            let mut w = [0u8; 4];
            w[..width].copy_from_slice(&row[i * width..][..width]);
            u32::from_le_bytes(w)
        };
        let mask = if width == 2 { 0xffff } else { u32::MAX };
        let mut out = row.to_vec();
        for i in 1..row.len() / width {
            let delta = word(i).wrapping_sub(word(i - 1)) & mask;
            out[i * width..][..width].copy_from_slice(&delta.to_le_bytes()[..width]);
        }
        out
    }

    #[test]
    fn word_deltas_round_trip_and_match_the_definition() {
        for width in [2, 4] {
            // Every length around the 16-byte blocks, odd tails included.
            for len in 0..(width * 50) {
                let src: Vec<u8> = (0..len as u32).map(|i| (i * 91 % 256) as u8).collect();
                let mut coded = src.clone();
                delta_encode_words(&mut coded, width);
                assert_eq!(coded, reference(&src, width), "width {width}, {len} bytes");
                delta_decode_words(&mut coded, width);
                assert_eq!(coded, src, "width {width}, {len} bytes");
            }
        }
        let mut two = [5, 0, 3, 0];
        delta_encode_words(&mut two, 2);
        assert_eq!(two, [5, 0, 0xfe, 0xff]);
    }
}
