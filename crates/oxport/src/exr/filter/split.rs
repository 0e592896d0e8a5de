//! OpenEXR's reordering before RLE and ZIP: the even-indexed bytes, then the
//! odd-indexed ones (for little-endian halves: every low byte, then every
//! high byte). On x86-64, 32 bytes at a time (SSE2).

/// Writes the even-indexed bytes of `src` followed by the odd-indexed ones
/// into `dst` (the same length).
pub fn split_bytes(src: &[u8], dst: &mut [u8]) {
    assert_eq!(src.len(), dst.len(), "split_bytes needs equal lengths");
    let (evens, odds) = dst.split_at_mut(src.len().div_ceil(2));
    split_into(src, evens, odds);
}

/// The even-indexed bytes of `src` into `evens`, the odd-indexed ones into
/// `odds` (⌈n/2⌉ and ⌊n/2⌋ long).
pub(crate) fn split_into(src: &[u8], evens: &mut [u8], odds: &mut [u8]) {
    assert!(
        evens.len() == src.len().div_ceil(2) && odds.len() == src.len() / 2,
        "split_into: lengths"
    );
    #[cfg(target_arch = "x86_64")]
    let done = sse2::split(src, evens, odds);
    #[cfg(not(target_arch = "x86_64"))]
    let done = 0;
    let mut pairs = src[2 * done..].chunks_exact(2);
    for ((pair, e), o) in pairs
        .by_ref()
        .zip(&mut evens[done..])
        .zip(&mut odds[done..])
    {
        *e = pair[0];
        *o = pair[1];
    }
    if let [last] = pairs.remainder() {
        evens[evens.len() - 1] = *last;
    }
}

/// The inverse of [`split_bytes`].
pub fn interleave_bytes(src: &[u8], dst: &mut [u8]) {
    assert_eq!(src.len(), dst.len(), "interleave_bytes needs equal lengths");
    let (evens, odds) = src.split_at(src.len().div_ceil(2));
    interleave_from(evens, odds, dst);
}

/// The inverse of [`split_into`].
pub(crate) fn interleave_from(evens: &[u8], odds: &[u8], dst: &mut [u8]) {
    assert!(
        evens.len() == dst.len().div_ceil(2) && odds.len() == dst.len() / 2,
        "interleave_from: lengths"
    );
    #[cfg(target_arch = "x86_64")]
    let done = sse2::interleave(evens, odds, dst);
    #[cfg(not(target_arch = "x86_64"))]
    let done = 0;
    let mut pairs = dst[2 * done..].chunks_exact_mut(2);
    for ((pair, &e), &o) in pairs.by_ref().zip(&evens[done..]).zip(&odds[done..]) {
        pair[0] = e;
        pair[1] = o;
    }
    if let [last] = pairs.into_remainder() {
        *last = evens[evens.len() - 1];
    }
}

#[cfg(target_arch = "x86_64")]
mod sse2 {
    use std::arch::x86_64::*;

    /// Splits whole 32-byte blocks of `src`; the pairs done.
    pub(super) fn split(src: &[u8], evens: &mut [u8], odds: &mut [u8]) -> usize {
        let blocks = (src.len() / 32).min(odds.len() / 16);
        // SAFETY: SSE2 is in every x86-64 CPU; block i reads src[32i..32i+32]
        // and writes evens/odds[16i..16i+16], all in bounds by `blocks`.
        unsafe {
            let low = _mm_set1_epi16(0xff);
            for i in 0..blocks {
                let a = _mm_loadu_si128(src.as_ptr().add(32 * i).cast());
                let b = _mm_loadu_si128(src.as_ptr().add(32 * i + 16).cast());
                let e = _mm_packus_epi16(_mm_and_si128(a, low), _mm_and_si128(b, low));
                let o = _mm_packus_epi16(_mm_srli_epi16(a, 8), _mm_srli_epi16(b, 8));
                _mm_storeu_si128(evens.as_mut_ptr().add(16 * i).cast(), e);
                _mm_storeu_si128(odds.as_mut_ptr().add(16 * i).cast(), o);
            }
        }
        16 * blocks
    }

    /// Interleaves whole 16-byte blocks of `evens` and `odds`; the pairs done.
    pub(super) fn interleave(evens: &[u8], odds: &[u8], dst: &mut [u8]) -> usize {
        let blocks = (odds.len() / 16).min(dst.len() / 32);
        // SAFETY: as in `split`, the other way round.
        unsafe {
            for i in 0..blocks {
                let e = _mm_loadu_si128(evens.as_ptr().add(16 * i).cast());
                let o = _mm_loadu_si128(odds.as_ptr().add(16 * i).cast());
                _mm_storeu_si128(dst.as_mut_ptr().add(32 * i).cast(), _mm_unpacklo_epi8(e, o));
                _mm_storeu_si128(
                    dst.as_mut_ptr().add(32 * i + 16).cast(),
                    _mm_unpackhi_epi8(e, o),
                );
            }
        }
        16 * blocks
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_and_interleave_are_inverse() {
        for n in 0..300usize {
            let src: Vec<u8> = (0..n as u32).map(|i| (i * 7 + i / 3) as u8).collect();
            let mut split = vec![0; n];
            split_bytes(&src, &mut split);
            let evens: Vec<u8> = src.iter().copied().step_by(2).collect();
            let odds: Vec<u8> = src.iter().copied().skip(1).step_by(2).collect();
            assert_eq!(&split[..evens.len()], &evens[..], "{n}");
            assert_eq!(&split[evens.len()..], &odds[..], "{n}");
            let mut back = vec![0; n];
            interleave_bytes(&split, &mut back);
            assert_eq!(back, src, "{n}");
        }
    }
}
