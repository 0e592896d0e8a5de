//! OpenEXR's reordering before RLE and ZIP: the even-indexed bytes, then the
//! odd-indexed ones (for little-endian halves: every low byte, then every
//! high byte).

/// Writes the even-indexed bytes of `src` followed by the odd-indexed ones
/// into `dst` (the same length).
pub fn split_bytes(src: &[u8], dst: &mut [u8]) {
    assert_eq!(src.len(), dst.len(), "split_bytes needs equal lengths");
    let (evens, odds) = dst.split_at_mut(src.len().div_ceil(2));
    let mut pairs = src.chunks_exact(2);
    for ((pair, e), o) in pairs.by_ref().zip(evens.iter_mut()).zip(odds.iter_mut()) {
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
    let mut pairs = dst.chunks_exact_mut(2);
    for ((pair, &e), &o) in pairs.by_ref().zip(evens).zip(odds) {
        pair[0] = e;
        pair[1] = o;
    }
    if let [last] = pairs.into_remainder() {
        *last = evens[evens.len() - 1];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_and_interleave_are_inverse() {
        for n in 0..40usize {
            let src: Vec<u8> = (0..n as u8).collect();
            let mut split = vec![0; n];
            split_bytes(&src, &mut split);
            let evens: Vec<u8> = src.iter().copied().step_by(2).collect();
            assert_eq!(&split[..evens.len()], &evens[..]);
            let mut back = vec![0; n];
            interleave_bytes(&split, &mut back);
            assert_eq!(back, src);
        }
    }
}
