//! A chunk's geometry and its uncompressed layout: line after line, and in
//! each line the row of every channel that has samples on it, in channel
//! order (sorted by name), little-endian. A channel sampled every `s`
//! pixels has samples where the absolute coordinate divides by `s`.

use super::attribute::Channel;

/// The shape of one chunk: a rectangle of pixels (a run of scan lines, a
/// tile) and the channels stored in it.
#[derive(Clone, Copy, Debug)]
pub struct Layout<'a> {
    /// Bytes per sample of each channel, in channel order.
    pub sizes: &'a [usize],
    /// The channels, in channel order, for the methods that code by type
    /// (PXR24, B44, DWA) or by the `linear` flag (B44); empty for the
    /// others.
    pub channels: &'a [Channel],
    /// Pixels per line.
    pub width: usize,
    /// Lines in this chunk (the last chunk may have fewer than the method's).
    pub lines: usize,
    /// Each channel's x and y sampling, in channel order; empty when every
    /// channel has a sample at every pixel.
    pub sampling: &'a [(i32, i32)],
    /// The coordinates of the chunk's first pixel: where the samples of a
    /// subsampled channel fall depends on them.
    pub origin: (i32, i32),
}

/// One channel's row in a chunk.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Row {
    /// The line of the chunk it is on.
    pub line: usize,
    /// The channel's index in the part's channels.
    pub channel: usize,
    /// Where it starts in the chunk, in bytes.
    pub at: usize,
    /// Its length in bytes.
    pub len: usize,
}

/// The rows of a chunk in order: [`Layout::rows`].
pub struct Rows<'l, 'a> {
    layout: &'l Layout<'a>,
    line: usize,
    channel: usize,
    at: usize,
}

impl Iterator for Rows<'_, '_> {
    type Item = Row;

    fn next(&mut self) -> Option<Row> {
        let layout = self.layout;
        if layout.sizes.is_empty() {
            return None;
        }
        while self.line < layout.lines {
            let (line, channel) = (self.line, self.channel);
            self.channel += 1;
            if self.channel == layout.sizes.len() {
                self.channel = 0;
                self.line += 1;
            }
            if channel < layout.sizes.len() && layout.has_line(channel, line) {
                let len = layout.channel_width(channel) * layout.sizes[channel];
                let row = Row {
                    line,
                    channel,
                    at: self.at,
                    len,
                };
                self.at += len;
                return Some(row);
            }
        }
        None
    }
}

/// Each channel's bytes per sample and x, y sampling, in channel order:
/// what a [`Layout`] holds of them.
pub(crate) fn shapes_of(channels: &[Channel]) -> (Vec<usize>, Vec<(i32, i32)>) {
    channels
        .iter()
        .map(|c| (c.pixel_type.size(), (c.x_sampling, c.y_sampling)))
        .unzip()
}

/// How many of the `len` coordinates from `start` divide by `sampling`.
pub(crate) fn samples(start: i32, len: usize, sampling: i32) -> usize {
    if sampling == 1 {
        return len;
    }
    let s = i64::from(sampling);
    let (start, end) = (i64::from(start), i64::from(start) + len as i64);
    ((end - 1).div_euclid(s) - (start - 1).div_euclid(s)) as usize
}

impl<'a> Layout<'a> {
    /// A chunk of `lines` lines of `width` pixels, every channel sampled at
    /// every pixel.
    pub fn new(sizes: &'a [usize], width: usize, lines: usize) -> Self {
        Layout {
            sizes,
            channels: &[],
            width,
            lines,
            sampling: &[],
            origin: (0, 0),
        }
    }

    fn sampling_of(&self, channel: usize) -> (i32, i32) {
        self.sampling.get(channel).copied().unwrap_or((1, 1))
    }

    /// Samples per row of `channel`.
    pub fn channel_width(&self, channel: usize) -> usize {
        samples(self.origin.0, self.width, self.sampling_of(channel).0)
    }

    /// Rows of `channel` in the chunk.
    pub fn channel_lines(&self, channel: usize) -> usize {
        samples(self.origin.1, self.lines, self.sampling_of(channel).1)
    }

    /// Whether `channel` has a row on `line` of the chunk.
    pub fn has_line(&self, channel: usize, line: usize) -> bool {
        let ys = self.sampling_of(channel).1;
        ys == 1 || (i64::from(self.origin.1) + line as i64).rem_euclid(i64::from(ys)) == 0
    }

    /// Bytes of one line when every channel has a row on it (the lab's
    /// chunks, which are never subsampled).
    #[cfg(feature = "internals")]
    pub fn line_bytes(&self) -> usize {
        (0..self.sizes.len())
            .map(|c| self.channel_width(c) * self.sizes[c])
            .sum()
    }

    /// Uncompressed bytes of the chunk.
    pub fn bytes(&self) -> usize {
        (0..self.sizes.len())
            .map(|c| self.channel_width(c) * self.channel_lines(c) * self.sizes[c])
            .sum()
    }

    /// Every row of the chunk, in the chunk's order.
    pub fn rows(&self) -> Rows<'_, 'a> {
        Rows {
            layout: self,
            line: 0,
            channel: 0,
            at: 0,
        }
    }

    /// Every channel row of the chunk as (offset, length, word width), the
    /// 2-byte rows first (line by line, channels in order), then the 4-byte
    /// ones; and the bytes of the 2-byte rows. OpenEXR 3.5's ZSTD order.
    pub fn rows_by_width(&self) -> (Vec<(usize, usize, usize)>, usize) {
        let all: Vec<Row> = self.rows().collect();
        let mut rows = Vec::with_capacity(all.len());
        for width in [2, 4] {
            rows.extend(
                all.iter()
                    .filter(|r| self.sizes[r.channel] == width)
                    .map(|r| (r.at, r.len, width)),
            );
        }
        let split = rows.iter().filter(|r| r.2 == 2).map(|r| r.1).sum();
        (rows, split)
    }
}

/// Copies the chunk `layout` (its pixels from `layout.origin`) out of each
/// channel's plane into `chunk` (`layout.bytes()` long), in the chunk
/// layout. `planes[i]` holds channel i over the level whose top left pixel
/// is `level_min` and which is `level_width` pixels wide: row after row of
/// the channel's samples (every pixel's, or every (sx, sy) pixels' for a
/// subsampled channel).
pub fn pack(
    planes: &[&[u8]],
    level_min: (i32, i32),
    level_width: usize,
    layout: &Layout,
    chunk: &mut [u8],
) {
    let (x_min, y_min) = level_min;
    for row in layout.rows() {
        let (xs, ys) = layout.sampling_of(row.channel);
        let size = layout.sizes[row.channel];
        let y = i64::from(layout.origin.1) + row.line as i64;
        let plane_row = samples(y_min, (y - i64::from(y_min)) as usize, ys);
        let before = (i64::from(layout.origin.0) - i64::from(x_min)) as usize;
        let plane_column = samples(x_min, before, xs);
        let plane_width = samples(x_min, level_width, xs);
        let start = (plane_row * plane_width + plane_column) * size;
        chunk[row.at..row.at + row.len]
            .copy_from_slice(&planes[row.channel][start..start + row.len]);
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
        let layout = Layout::new(&sizes, width, 2);
        let mut chunk = vec![0; layout.bytes()];
        let layout = Layout {
            origin: (0, 3),
            ..layout
        };
        pack(&refs, (0, 0), width, &layout, &mut chunk);
        assert_eq!(chunk.len(), layout.bytes());
        assert_eq!(&chunk[..6], &planes[0][18..24]);
        let rows: Vec<Row> = layout.rows().collect();
        assert_eq!(rows.len(), 4);
        assert_eq!(
            &chunk[rows[2].at..rows[2].at + rows[2].len],
            &planes[0][24..30]
        );
        assert_eq!(
            &chunk[rows[3].at..rows[3].at + rows[3].len],
            &planes[1][48..60]
        );
    }

    #[test]
    fn subsampled_channels_have_rows_where_their_sampling_divides() {
        // Y every pixel, C every 2×2 pixels, a chunk of 3 lines from (1, 3).
        let sizes = [2, 2];
        let layout = Layout {
            sizes: &sizes,
            channels: &[],
            width: 5,
            lines: 3,
            sampling: &[(1, 1), (2, 2)],
            origin: (1, 3),
        };
        assert_eq!(samples(1, 5, 2), 2);
        assert_eq!(samples(-3, 4, 2), 2);
        assert_eq!(samples(3, 1, 2), 0);
        assert_eq!(layout.channel_width(1), 2);
        assert_eq!(layout.channel_lines(1), 1);
        let rows: Vec<(usize, usize, usize, usize)> = layout
            .rows()
            .map(|r| (r.line, r.channel, r.at, r.len))
            .collect();
        assert_eq!(
            rows,
            [(0, 0, 0, 10), (1, 0, 10, 10), (1, 1, 20, 4), (2, 0, 24, 10)]
        );
        assert_eq!(layout.bytes(), 34);
    }
}
