//! OpenEXR's byte predictor before RLE and ZIP: each byte after the first
//! becomes its difference from the previous one, plus 128 (mod 256).
//! Decoding is a prefix sum; on x86-64 it runs 16 bytes at a time (SSE2,
//! part of the architecture's baseline).

/// Replaces `bytes[i]` (i ≥ 1) with `bytes[i] - bytes[i - 1] + 128`.
pub fn delta_encode(bytes: &mut [u8]) {
    let Some((&mut first, rest)) = bytes.split_first_mut() else {
        return;
    };
    let mut previous = first;
    for b in rest {
        let current = *b;
        *b = current.wrapping_sub(previous).wrapping_add(128);
        previous = current;
    }
}

/// The inverse of [`delta_encode`].
pub fn delta_decode(bytes: &mut [u8]) {
    let Some((&mut first, rest)) = bytes.split_first_mut() else {
        return;
    };
    #[cfg(target_arch = "x86_64")]
    let (previous, rest) = sse2::prefix_sum(first, rest);
    #[cfg(not(target_arch = "x86_64"))]
    let previous = first;
    let mut previous = previous;
    for b in rest {
        previous = previous.wrapping_add(*b).wrapping_sub(128);
        *b = previous;
    }
}

/// OpenEXR's whole filter under RLE and ZIP: `src` split into its even and
/// odd bytes into `dst`, then delta-coded.
pub fn split_delta_encode(src: &[u8], dst: &mut [u8]) {
    super::split::split_bytes(src, dst);
    delta_encode(dst);
}

/// The inverse of [`split_delta_encode`]: `filtered` is delta-decoded in
/// place, then interleaved into `dst`.
pub fn split_delta_decode(filtered: &mut [u8], dst: &mut [u8]) {
    delta_decode(filtered);
    super::split::interleave_bytes(filtered, dst);
}

#[cfg(target_arch = "x86_64")]
mod sse2 {
    use std::arch::x86_64::*;

    /// Decodes the whole 16-byte blocks of `bytes` (the byte before them
    /// decoded is `previous`); the last byte decoded and the tail left.
    pub(super) fn prefix_sum(previous: u8, bytes: &mut [u8]) -> (u8, &mut [u8]) {
        let whole = bytes.len() / 16 * 16;
        let (blocks, tail) = bytes.split_at_mut(whole);
        let mut previous = previous;
        // SAFETY: SSE2 is in every x86-64 CPU; loads and stores are
        // unaligned and stay inside each 16-byte block.
        unsafe {
            let minus_128 = _mm_set1_epi8(-128);
            for block in blocks.chunks_exact_mut(16) {
                let p = block.as_mut_ptr().cast::<__m128i>();
                let mut d = _mm_add_epi8(_mm_loadu_si128(p), minus_128);
                d = _mm_add_epi8(d, _mm_slli_si128(d, 1));
                d = _mm_add_epi8(d, _mm_slli_si128(d, 2));
                d = _mm_add_epi8(d, _mm_slli_si128(d, 4));
                d = _mm_add_epi8(d, _mm_slli_si128(d, 8));
                d = _mm_add_epi8(d, _mm_set1_epi8(previous as i8));
                _mm_storeu_si128(p, d);
                previous = (_mm_extract_epi16(d, 7) >> 8) as u8;
            }
        }
        (previous, tail)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scalar_decode(bytes: &mut [u8]) {
        for i in 1..bytes.len() {
            bytes[i] = bytes[i - 1].wrapping_add(bytes[i]).wrapping_sub(128);
        }
    }

    #[test]
    fn delta_round_trips_and_matches_the_definition() {
        for n in 0..300usize {
            let src: Vec<u8> = (0..n as u32).map(|i| (i * i % 251) as u8).collect();
            let mut coded = src.clone();
            delta_encode(&mut coded);
            if n > 5 {
                assert_eq!(coded[0], src[0]);
                assert_eq!(coded[5], src[5].wrapping_sub(src[4]).wrapping_add(128));
            }
            let mut scalar = coded.clone();
            scalar_decode(&mut scalar);
            delta_decode(&mut coded);
            assert_eq!(coded, src, "{n}");
            assert_eq!(scalar, src, "{n}");
            let mut filtered = vec![0; n];
            split_delta_encode(&src, &mut filtered);
            let mut back = vec![0; n];
            split_delta_decode(&mut filtered, &mut back);
            assert_eq!(back, src, "{n}");
        }
    }
}
