//! PIZ's 2D Haar wavelet on 16-bit values, in place, level after level on
//! the smaller dimension. Values below 2^14 use the plain average and
//! difference (the best input for the Huffman coder); larger ones use a
//! modulo-2^16 variant.

/// 14-bit basis: average and difference.
fn encode14(a: u16, b: u16) -> (u16, u16) {
    let (a, b) = (a as i16 as i32, b as i16 as i32);
    (((a + b) >> 1) as u16, (a - b) as u16)
}

fn decode14(l: u16, h: u16) -> (u16, u16) {
    let (l, h) = (l as i16 as i32, h as i16 as i32);
    let a = l + (h & 1) + (h >> 1);
    (a as i16 as u16, (a - h) as i16 as u16)
}

const OFFSET: i32 = 1 << 15;
const MASK: i32 = (1 << 16) - 1;

/// 16-bit basis, modulo 2^16.
fn encode16(a: u16, b: u16) -> (u16, u16) {
    let ao = (i32::from(a) + OFFSET) & MASK;
    let mut m = (ao + i32::from(b)) >> 1;
    let d = ao - i32::from(b);
    if d < 0 {
        m = (m + OFFSET) & MASK;
    }
    (m as u16, (d & MASK) as u16)
}

fn decode16(l: u16, h: u16) -> (u16, u16) {
    let (m, d) = (i32::from(l), i32::from(h));
    let b = (m - (d >> 1)) & MASK;
    let a = (d + b - OFFSET) & MASK;
    (a as u16, b as u16)
}

/// The values of a `nx` × `ny` grid inside `data`: element (x, y) is at
/// `x * ox + y * oy`.
struct Grid {
    nx: usize,
    ny: usize,
    ox: usize,
    oy: usize,
}

/// Applies the 2D step at level `p` (pairs `p` apart) with `pair` (an
/// encode or decode basis), in the order OpenEXR does: the 2×2 blocks, then
/// an odd column, then an odd line.
fn level(data: &mut [u16], g: &Grid, p: usize, encode: bool, pair: fn(u16, u16) -> (u16, u16)) {
    let p2 = 2 * p;
    let (ox1, oy1) = (g.ox * p, g.oy * p);
    let mut y = 0;
    while y + p2 <= g.ny {
        let row = y * g.oy;
        let mut x = 0;
        while x + p2 <= g.nx {
            let i = row + x * g.ox;
            let (i01, i10, i11) = (i + ox1, i + oy1, i + oy1 + ox1);
            if encode {
                let (a00, a01) = pair(data[i], data[i01]);
                let (a10, a11) = pair(data[i10], data[i11]);
                (data[i], data[i10]) = pair(a00, a10);
                (data[i01], data[i11]) = pair(a01, a11);
            } else {
                let (a00, a10) = pair(data[i], data[i10]);
                let (a01, a11) = pair(data[i01], data[i11]);
                (data[i], data[i01]) = pair(a00, a01);
                (data[i10], data[i11]) = pair(a10, a11);
            }
            x += p2;
        }
        if g.nx & p != 0 {
            let i = row + x * g.ox;
            (data[i], data[i + oy1]) = pair(data[i], data[i + oy1]);
        }
        y += p2;
    }
    if g.ny & p != 0 {
        let row = y * g.oy;
        let mut x = 0;
        while x + p2 <= g.nx {
            let i = row + x * g.ox;
            (data[i], data[i + ox1]) = pair(data[i], data[i + ox1]);
            x += p2;
        }
    }
}

/// The wavelet transform of the `nx` × `ny` grid at `data[x * ox + y * oy]`
/// whose largest value is `max`.
pub(crate) fn encode(data: &mut [u16], nx: usize, ox: usize, ny: usize, oy: usize, max: u16) {
    let grid = Grid { nx, ny, ox, oy };
    let pair = if max < 1 << 14 { encode14 } else { encode16 };
    let n = nx.min(ny);
    let mut p = 1;
    while 2 * p <= n {
        level(data, &grid, p, true, pair);
        p *= 2;
    }
}

/// The inverse of [`encode`]. The caller guarantees that the grid lies in
/// `data` (indices are checked anyway: a bad grid panics, it never reads
/// out of bounds).
pub(crate) fn decode(data: &mut [u16], nx: usize, ox: usize, ny: usize, oy: usize, max: u16) {
    let grid = Grid { nx, ny, ox, oy };
    let pair = if max < 1 << 14 { decode14 } else { decode16 };
    let n = nx.min(ny);
    let mut p = 1;
    while 2 * p <= n {
        p *= 2;
    }
    p /= 2;
    while p >= 1 {
        level(data, &grid, p, false, pair);
        p /= 2;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bases_are_inverse() {
        for a in (0..1u32 << 14).step_by(37) {
            for b in (0..1u32 << 14).step_by(101) {
                let (l, h) = encode14(a as u16, b as u16);
                assert_eq!(decode14(l, h), (a as u16, b as u16));
            }
        }
        for a in (0..1u32 << 16).step_by(211) {
            for b in (0..1u32 << 16).step_by(307) {
                let (l, h) = encode16(a as u16, b as u16);
                assert_eq!(decode16(l, h), (a as u16, b as u16));
            }
        }
    }

    #[test]
    fn grids_of_every_shape_round_trip() {
        for (nx, ny) in [(1, 1), (1, 7), (7, 1), (2, 2), (5, 3), (16, 32), (33, 17)] {
            for ox in [1, 2] {
                for max in [1000u16, 60000] {
                    let len = nx * ny * ox;
                    let src: Vec<u16> = (0..len as u32)
                        .map(|i| ((i * 7919) % (u32::from(max) + 1)) as u16)
                        .collect();
                    let mut data = src.clone();
                    for j in 0..ox {
                        encode(&mut data[j..], nx, ox, ny, nx * ox, max);
                    }
                    for j in 0..ox {
                        decode(&mut data[j..], nx, ox, ny, nx * ox, max);
                    }
                    assert_eq!(data, src, "{nx}×{ny} ox {ox} max {max}");
                }
            }
        }
    }
}
