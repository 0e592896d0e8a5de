//! Byte planes: for elements of `width` bytes, every element's first byte,
//! then every second byte, and so on (Blosc's shuffle; OpenEXR 3.5's ZSTD
//! method uses widths 2 and 4).

/// Writes the `width` byte planes of `src` into `dst` (the same length, a
/// multiple of `width`).
pub fn split_planes(src: &[u8], width: usize, dst: &mut [u8]) {
    assert!(
        width > 0 && src.len().is_multiple_of(width) && src.len() == dst.len(),
        "split_planes: lengths"
    );
    let count = src.len() / width;
    for (plane, out) in dst.chunks_exact_mut(count.max(1)).enumerate().take(width) {
        for (o, element) in out.iter_mut().zip(src.chunks_exact(width)) {
            *o = element[plane];
        }
    }
}

/// The inverse of [`split_planes`].
pub fn join_planes(src: &[u8], width: usize, dst: &mut [u8]) {
    assert!(
        width > 0 && src.len().is_multiple_of(width) && src.len() == dst.len(),
        "join_planes: lengths"
    );
    let count = src.len() / width;
    for (plane, input) in src.chunks_exact(count.max(1)).enumerate().take(width) {
        for (&i, element) in input.iter().zip(dst.chunks_exact_mut(width)) {
            element[plane] = i;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn planes_round_trip() {
        for width in [1, 2, 4] {
            for count in [0, 1, 7, 64] {
                let src: Vec<u8> = (0..(width * count) as u32)
                    .map(|i| (i * 37 % 256) as u8)
                    .collect();
                let mut planes = vec![0; src.len()];
                split_planes(&src, width, &mut planes);
                if width > 1 && count > 0 {
                    assert_eq!(planes[count], src[1], "the second plane starts with byte 1");
                }
                let mut back = vec![0; src.len()];
                join_planes(&planes, width, &mut back);
                assert_eq!(back, src);
            }
        }
        let mut planes = [0u8; 8];
        split_planes(&[1, 2, 3, 4, 5, 6, 7, 8], 4, &mut planes);
        assert_eq!(planes, [1, 5, 2, 6, 3, 7, 4, 8]);
    }
}
