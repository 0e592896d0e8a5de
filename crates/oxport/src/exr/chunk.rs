//! A chunk's geometry and its uncompressed layout: line after line, and in
//! each line every channel's samples in channel order (sorted by name),
//! little-endian.

/// The shape of one chunk of scan lines.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Layout<'a> {
    /// Bytes per sample of each channel, in channel order.
    pub sizes: &'a [usize],
    /// Pixels per line.
    pub width: usize,
    /// Lines in this chunk (the last chunk may have fewer than the method's).
    pub lines: usize,
}

impl Layout<'_> {
    /// Bytes of one line: every channel's row.
    pub fn line_bytes(&self) -> usize {
        self.width * self.sizes.iter().sum::<usize>()
    }

    /// Uncompressed bytes of the chunk.
    pub fn bytes(&self) -> usize {
        self.line_bytes() * self.lines
    }

    /// Every channel row of the chunk as (offset, length, word width), the
    /// 2-byte rows first (line by line, channels in order), then the 4-byte
    /// ones; and the bytes of the 2-byte rows. OpenEXR 3.5's ZSTD order.
    pub fn rows_by_width(&self) -> (Vec<(usize, usize, usize)>, usize) {
        let mut rows = Vec::with_capacity(self.lines * self.sizes.len());
        for width in [2, 4] {
            for line in 0..self.lines {
                let mut at = line * self.line_bytes();
                for &size in self.sizes {
                    let len = self.width * size;
                    if size == width {
                        rows.push((at, len, width));
                    }
                    at += len;
                }
            }
        }
        let split = rows.iter().filter(|r| r.2 == 2).map(|r| r.1).sum();
        (rows, split)
    }
}

/// Copies `lines` lines starting at line `first` of each channel's plane
/// (`planes[i]`: a whole image of channel i, row after row) into `chunk`
/// (`layout.bytes()` long), in the chunk layout.
pub(crate) fn pack(planes: &[&[u8]], layout: &Layout, first: usize, chunk: &mut [u8]) {
    let mut at = 0;
    for line in first..first + layout.lines {
        for (plane, &size) in planes.iter().zip(layout.sizes) {
            let row = layout.width * size;
            chunk[at..at + row].copy_from_slice(&plane[line * row..(line + 1) * row]);
            at += row;
        }
    }
}

/// The inverse of [`pack`]: each line's rows of `chunk` go to `rows[i]`, the
/// chunk's lines of channel i (`layout.lines` rows, nothing else).
pub(crate) fn unpack(chunk: &[u8], layout: &Layout, rows: &mut [&mut [u8]]) {
    let mut at = 0;
    for line in 0..layout.lines {
        for (out, &size) in rows.iter_mut().zip(layout.sizes) {
            let row = layout.width * size;
            out[line * row..(line + 1) * row].copy_from_slice(&chunk[at..at + row]);
            at += row;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pack_and_unpack_are_inverse() {
        let sizes = [2, 4];
        let (width, height) = (3, 5);
        let planes: Vec<Vec<u8>> = sizes
            .iter()
            .enumerate()
            .map(|(c, s)| {
                (0..width * height * s)
                    .map(|i| (i * 7 + c * 100) as u8)
                    .collect()
            })
            .collect();
        let refs: Vec<&[u8]> = planes.iter().map(Vec::as_slice).collect();
        let layout = Layout {
            sizes: &sizes,
            width,
            lines: 2,
        };
        let mut chunk = vec![0; layout.bytes()];
        pack(&refs, &layout, 3, &mut chunk);
        assert_eq!(chunk.len(), layout.bytes());
        assert_eq!(&chunk[..6], &planes[0][18..24]);
        let mut a = vec![0; 2 * width * 2];
        let mut b = vec![0; 2 * width * 4];
        unpack(&chunk, &layout, &mut [&mut a, &mut b]);
        assert_eq!(a, planes[0][18..30]);
        assert_eq!(b, planes[1][36..60]);
    }
}
