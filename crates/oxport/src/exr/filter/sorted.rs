//! OpenEXR 3.5's sorted byte planes, the transform under its ZSTD method
//! and the lab's `planes` and `planes+delta` filters (one function for
//! both, so that the lab measures the bytes the method compresses):
//!
//! 1. sort: every 16-bit channel row of the chunk (line by line, channels
//!    in order), then every 32-bit one;
//! 2. delta (optional): each row's words become differences from the
//!    previous word;
//! 3. planes: the 16-bit part split into 2 byte planes, the 32-bit part
//!    into 4, each part preceded by its length (u64 LE).

use super::{planes, words};
use crate::exr::chunk::Layout;
use crate::scratch::with_buffer;
use crate::{Error, Result};

/// The parts of the sorted chunk: (length, word width), as OpenEXR lays
/// them out (one part when the chunk has one width only).
fn parts(split: usize, total: usize) -> Vec<(usize, usize)> {
    if split > 0 && split < total {
        vec![(split, 2), (total - split, 4)]
    } else {
        vec![(total, if split == 0 { 4 } else { 2 })]
    }
}

/// The length of the encoding of a chunk in `layout`: its bytes and a
/// length per part. Counted from the channels (on every chunk's path: no
/// list of rows is built for it).
pub fn encoded_len(layout: &Layout) -> usize {
    let split = (0..layout.sizes.len())
        .filter(|&c| layout.sizes[c] == 2)
        .map(|c| layout.channel_width(c) * layout.channel_lines(c) * 2)
        .sum();
    let raw = layout.bytes();
    raw + 8 * parts(split, raw).len()
}

/// Writes the transform of `raw` (a chunk in `layout`) into `out`
/// ([`encoded_len`] bytes), with the word delta when `delta`.
pub fn encode(raw: &[u8], layout: &Layout, delta: bool, out: &mut [u8]) {
    let (rows, split) = layout.rows_by_width();
    let parts = parts(split, raw.len());
    debug_assert_eq!(out.len(), encoded_len(layout));
    with_buffer(raw.len(), |sorted| {
        let mut to = 0;
        for &(at, len, width) in &rows {
            sorted[to..to + len].copy_from_slice(&raw[at..at + len]);
            if delta {
                words::delta_encode_words(&mut sorted[to..to + len], width);
            }
            to += len;
        }
        let (mut from, mut to) = (0, 0);
        for &(len, width) in &parts {
            out[to..to + 8].copy_from_slice(&(len as u64).to_le_bytes());
            to += 8;
            planes::split_planes(&sorted[from..from + len], width, &mut out[to..to + len]);
            from += len;
            to += len;
        }
    });
}

/// The inverse of [`encode`]: `encoded` ([`encoded_len`] bytes) back into
/// the chunk `out` (`layout.bytes()`); an error when a part's recorded
/// length is not its channels'.
pub fn decode(encoded: &[u8], layout: &Layout, delta: bool, out: &mut [u8]) -> Result<()> {
    let (rows, split) = layout.rows_by_width();
    let parts = parts(split, out.len());
    debug_assert_eq!(encoded.len(), encoded_len(layout));
    with_buffer(out.len(), |sorted| {
        let (mut at, mut to) = (0, 0);
        for &(len, width) in &parts {
            let stored = u64::from_le_bytes(encoded[at..at + 8].try_into().expect("8"));
            if stored != len as u64 {
                return Err(Error::corrupt(
                    "a ZSTD chunk's part length does not match its channels",
                ));
            }
            at += 8;
            planes::join_planes(&encoded[at..at + len], width, &mut sorted[to..to + len]);
            at += len;
            to += len;
        }
        let mut from = 0;
        for &(at, len, width) in &rows {
            let row = &mut sorted[from..from + len];
            if delta {
                words::delta_decode_words(row, width);
            }
            out[at..at + len].copy_from_slice(row);
            from += len;
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encode_is_inverted_with_and_without_delta() {
        // A 16-bit channel sampled every 2 × 2 pixels from an odd line: it
        // has no row on some of the chunk's lines.
        let sampling = [(1, 1), (2, 2), (1, 1)];
        let subsampled = Layout {
            sampling: &sampling,
            origin: (0, 3),
            ..Layout::new(&[4, 2, 2], 12, 5)
        };
        let layouts = [&[2, 4, 2, 4, 4][..], &[2, 2], &[4]]
            .map(|sizes| Layout::new(sizes, 11, 5))
            .into_iter()
            .chain([subsampled]);
        for layout in layouts {
            assert_eq!(
                encoded_len(&layout),
                layout.bytes() + 8 * parts(layout.rows_by_width().1, layout.bytes()).len()
            );
            let chunk: Vec<u8> = (0..layout.bytes() as u32)
                .map(|i| (i * 7 / 3 % 251) as u8)
                .collect();
            for delta in [false, true] {
                let mut encoded = vec![0; encoded_len(&layout)];
                encode(&chunk, &layout, delta, &mut encoded);
                let mut back = vec![0; chunk.len()];
                decode(&encoded, &layout, delta, &mut back).unwrap();
                assert_eq!(back, chunk);
            }
        }
    }
}
