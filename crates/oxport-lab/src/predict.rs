//! The clamped-gradient predictor (LOCO-I's median edge detector, JPEG-LS):
//! each word of a grid minus the median of left, up and left + up −
//! up-left, modulo the word size. Outside the grid the neighbours are 0, so
//! the first row predicts from the left and the first column from above.

/// The prediction from the left, upper and upper-left neighbours.
fn median_edge(left: u32, up: u32, up_left: u32) -> u32 {
    let gradient = i64::from(left) + i64::from(up) - i64::from(up_left);
    gradient.clamp(i64::from(left.min(up)), i64::from(left.max(up))) as u32
}

fn load(grid: &[u8], width: usize) -> Vec<u32> {
    grid.chunks_exact(width)
        .map(|w| match width {
            2 => u32::from(u16::from_le_bytes([w[0], w[1]])),
            _ => u32::from_le_bytes([w[0], w[1], w[2], w[3]]),
        })
        .collect()
}

fn store(values: &[u32], width: usize, grid: &mut [u8]) {
    for (v, w) in values.iter().zip(grid.chunks_exact_mut(width)) {
        w.copy_from_slice(&v.to_le_bytes()[..width]);
    }
}

fn mask(width: usize) -> u32 {
    if width == 2 { 0xffff } else { u32::MAX }
}

/// Replaces the grid (`columns` little-endian words of `width` bytes, 2 or
/// 4, per row) with its prediction residuals.
pub fn predict_encode(grid: &mut [u8], columns: usize, width: usize) {
    assert!(width == 2 || width == 4, "word width {width}: 2 or 4");
    let values = load(grid, width);
    let at = |i: usize, j: usize| values[i * columns + j];
    let mut residuals = vec![0u32; values.len()];
    for i in 0..values.len() / columns.max(1) {
        for j in 0..columns {
            let left = if j > 0 { at(i, j - 1) } else { 0 };
            let up = if i > 0 { at(i - 1, j) } else { 0 };
            let up_left = if i > 0 && j > 0 { at(i - 1, j - 1) } else { 0 };
            residuals[i * columns + j] =
                at(i, j).wrapping_sub(median_edge(left, up, up_left)) & mask(width);
        }
    }
    store(&residuals, width, grid);
}

/// The inverse of [`predict_encode`].
pub fn predict_decode(grid: &mut [u8], columns: usize, width: usize) {
    assert!(width == 2 || width == 4, "word width {width}: 2 or 4");
    let mut values = load(grid, width);
    for i in 0..values.len() / columns.max(1) {
        for j in 0..columns {
            let left = if j > 0 {
                values[i * columns + j - 1]
            } else {
                0
            };
            let up = if i > 0 {
                values[(i - 1) * columns + j]
            } else {
                0
            };
            let up_left = if i > 0 && j > 0 {
                values[(i - 1) * columns + j - 1]
            } else {
                0
            };
            let at = i * columns + j;
            values[at] = values[at].wrapping_add(median_edge(left, up, up_left)) & mask(width);
        }
    }
    store(&values, width, grid);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prediction_round_trips_and_zeroes_smooth_data() {
        for width in [2, 4] {
            for (columns, rows) in [(1, 1), (7, 1), (1, 5), (13, 9)] {
                let src: Vec<u8> = (0..columns * rows * width)
                    .map(|i| (i * 131 % 256) as u8)
                    .collect();
                let mut grid = src.clone();
                predict_encode(&mut grid, columns, width);
                predict_decode(&mut grid, columns, width);
                assert_eq!(grid, src);
            }
        }
        // A ramp along rows, the same in every row, is predicted exactly
        // after the first row (from above), and the first row from the left.
        let ramp: Vec<u8> = (0..4u16)
            .flat_map(|_| (0..5u16).flat_map(|j| (100 + 3 * j).to_le_bytes()))
            .collect();
        let mut grid = ramp.clone();
        predict_encode(&mut grid, 5, 2);
        let residuals: Vec<u16> = grid
            .chunks_exact(2)
            .map(|w| u16::from_le_bytes([w[0], w[1]]))
            .collect();
        assert_eq!(&residuals[..5], &[100, 3, 3, 3, 3]);
        assert!(residuals[5..].iter().all(|&r| r == 0), "{residuals:?}");
        assert_eq!(median_edge(5, 9, 1), 9);
        assert_eq!(median_edge(5, 9, 20), 5);
        assert_eq!(median_edge(5, 9, 7), 7);
    }
}
