//! Byte planes: for elements of `width` bytes, every element's first byte,
//! then every second byte, and so on (Blosc's shuffle; OpenEXR 3.5's ZSTD
//! method uses widths 2 and 4). Widths 2 and 4 go through the even/odd
//! split: once for 2, twice for 4.

use super::split::{interleave_from, split_into};
use crate::scratch::with_buffer;

/// Writes the `width` byte planes of `src` into `dst` (the same length, a
/// multiple of `width`).
pub fn split_planes(src: &[u8], width: usize, dst: &mut [u8]) {
    assert!(
        width > 0 && src.len().is_multiple_of(width) && src.len() == dst.len(),
        "split_planes: lengths"
    );
    let n = src.len();
    match width {
        1 => dst.copy_from_slice(src),
        2 => {
            let (evens, odds) = dst.split_at_mut(n / 2);
            split_into(src, evens, odds);
        }
        4 => with_buffer(n, |pairs| {
            // Bytes 0 and 2 of each element, then 1 and 3; each half split again.
            let (even, odd) = pairs.split_at_mut(n / 2);
            split_into(src, even, odd);
            let (p0, rest) = dst.split_at_mut(n / 4);
            let (p1, rest) = rest.split_at_mut(n / 4);
            let (p2, p3) = rest.split_at_mut(n / 4);
            split_into(even, p0, p2);
            split_into(odd, p1, p3);
        }),
        _ => {
            let count = n / width;
            for (plane, out) in dst.chunks_exact_mut(count.max(1)).enumerate().take(width) {
                for (o, element) in out.iter_mut().zip(src.chunks_exact(width)) {
                    *o = element[plane];
                }
            }
        }
    }
}

/// The inverse of [`split_planes`].
pub fn join_planes(src: &[u8], width: usize, dst: &mut [u8]) {
    assert!(
        width > 0 && src.len().is_multiple_of(width) && src.len() == dst.len(),
        "join_planes: lengths"
    );
    let n = src.len();
    match width {
        1 => dst.copy_from_slice(src),
        2 => {
            let (evens, odds) = src.split_at(n / 2);
            interleave_from(evens, odds, dst);
        }
        4 => with_buffer(n, |pairs| {
            let (p0, rest) = src.split_at(n / 4);
            let (p1, rest) = rest.split_at(n / 4);
            let (p2, p3) = rest.split_at(n / 4);
            let (even, odd) = pairs.split_at_mut(n / 2);
            interleave_from(p0, p2, even);
            interleave_from(p1, p3, odd);
            interleave_from(even, odd, dst);
        }),
        _ => {
            let count = n / width;
            for (plane, input) in src.chunks_exact(count.max(1)).enumerate().take(width) {
                for (&i, element) in input.iter().zip(dst.chunks_exact_mut(width)) {
                    element[plane] = i;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn planes_round_trip() {
        for width in [1, 2, 3, 4] {
            for count in [0, 1, 7, 64, 100] {
                let src: Vec<u8> = (0..(width * count) as u32)
                    .map(|i| (i * 37 % 256) as u8)
                    .collect();
                let mut planes = vec![0; src.len()];
                split_planes(&src, width, &mut planes);
                for (k, element) in src.chunks_exact(width).enumerate() {
                    for (plane, &b) in element.iter().enumerate() {
                        assert_eq!(planes[plane * count + k], b, "width {width} count {count}");
                    }
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
