//! RGB to and from luminance/chroma (Y, RY, BY: the chroma sampled every
//! 2×2 pixels), as OpenEXR's `RgbaOutputFile` and `RgbaInputFile` make
//! them (its `RgbaYca`), to the same halves. Writing: luminance and the
//! differences (R − Y)/Y, (B − Y)/Y with the luminance weights of the
//! file's chromaticities, the chroma low-passed across and down with a
//! 27-tap filter and kept at even pixels of even lines, Y rounded to 7
//! bits of significand and the chroma to 5. Reading: the chroma of even
//! lines filled in across, odd lines' filtered down from the even lines
//! around them, back to R, G, B, and pixels far more saturated than their
//! neighbours desaturated. Every step stores halves, as OpenEXR's does,
//! and the edges are padded as its line buffers pad them.

use crate::half;
use crate::{Error, Result};

/// Taps on each side of a filter's centre.
const N2: usize = 13;

/// The filter that fills in odd chroma samples from even ones, at offsets
/// −13, −11, ..., 13.
const RECONSTRUCT: [f32; 14] = [
    0.002128, -0.007540, 0.019597, -0.043159, 0.087929, -0.186077, 0.627123, 0.627123, -0.186077,
    0.087929, -0.043159, 0.019597, -0.007540, 0.002128,
];

/// A pixel as OpenEXR's `Rgba` holds it: halves (r, g, b; in
/// luminance/chroma form RY, Y, BY).
type Px = [u16; 3];

fn f(h: u16) -> f32 {
    half::to_f32(h)
}

fn h(v: f32) -> u16 {
    half::from_f32(v)
}

/// The luminance weights of RGB with `chromaticities` (red, green, blue,
/// white x and y; `None`: Rec. 709's, OpenEXR's default), as OpenEXR's
/// `computeYw` works them out in `f32`: the Y row of its RGB to XYZ
/// matrix, normalized.
pub fn luminance_weights(chromaticities: Option<[f32; 8]>) -> Result<[f32; 3]> {
    let [rx, ry, gx, gy, bx, by, wx, wy] =
        chromaticities.unwrap_or([0.64, 0.33, 0.30, 0.60, 0.15, 0.06, 0.3127, 0.3290]);
    let y = 1.0f32;
    if wy == 0.0 {
        return Err(Error::invalid("chromaticities: the white point's y is 0"));
    }
    let x = wx * y / wy;
    let z = (1.0 - wx - wy) * y / wy;
    let d = rx * (by - gy) + bx * (gy - ry) + gx * (ry - by);
    let sr =
        x * (by - gy) - gx * (y * (by - 1.0) + by * (x + z)) + bx * (y * (gy - 1.0) + gy * (x + z));
    let sg =
        x * (ry - by) + rx * (y * (by - 1.0) + by * (x + z)) - bx * (y * (ry - 1.0) + ry * (x + z));
    let sb =
        x * (gy - ry) - rx * (y * (gy - 1.0) + gy * (x + z)) + gx * (y * (ry - 1.0) + ry * (x + z));
    if d == 0.0 {
        return Err(Error::invalid(
            "chromaticities: the primaries are on one line",
        ));
    }
    let row = [sr / d * ry, sg / d * gy, sb / d * by];
    let sum = row[0] + row[1] + row[2];
    Ok(row.map(|v| v / sum))
}

/// RGB halves from luminance/chroma halves: `y` (`width × height`, row
/// after row) and, unless the image is luminance alone, `ry` and `by`
/// (`width/2 × height/2`; `width` and `height` even, the image starting on
/// an even pixel as OpenEXR requires). `weights`: [`luminance_weights`].
/// Returns R, G and B, `width × height` each.
pub fn rgb_from_yc(
    width: usize,
    height: usize,
    y: &[u16],
    chroma: Option<(&[u16], &[u16])>,
    weights: [f32; 3],
) -> Result<[Vec<u16>; 3]> {
    let pixels = width
        .checked_mul(height)
        .ok_or_else(|| Error::invalid("an image larger than memory"))?;
    if y.len() != pixels {
        return Err(Error::invalid(format!(
            "Y: {width}×{height} pixels need {pixels} samples, {} were given",
            y.len()
        )));
    }
    if let Some((ry, by)) = chroma {
        if !width.is_multiple_of(2) || !height.is_multiple_of(2) {
            return Err(Error::invalid(format!(
                "chroma sampled every 2×2 pixels needs an even width and height, not {width}×{height}"
            )));
        }
        let quarter = pixels / 4;
        if ry.len() != quarter || by.len() != quarter {
            return Err(Error::invalid(format!(
                "RY and BY: {}×{} samples each, {} and {} were given",
                width / 2,
                height / 2,
                ry.len(),
                by.len()
            )));
        }
    }
    if pixels == 0 {
        return Ok([Vec::new(), Vec::new(), Vec::new()]);
    }
    // Each line with its chroma filled in across (even lines; odd lines'
    // chroma is never read).
    let lines: Vec<Vec<Px>> = (0..height)
        .map(|line| {
            let luma = &y[line * width..(line + 1) * width];
            match chroma {
                Some((ry, by)) if line % 2 == 0 => {
                    let row = line / 2 * (width / 2);
                    across(luma, &ry[row..row + width / 2], &by[row..row + width / 2])
                }
                _ => luma.iter().map(|&l| [0, l, 0]).collect(),
            }
        })
        .collect();
    // OpenEXR's reader repeats the first line above the image and the
    // last even line below it.
    let line = |at: i64| -> &Vec<Px> {
        let at = if at < 0 {
            0
        } else if at >= height as i64 {
            (height as i64 - 2).max(0)
        } else {
            at
        };
        &lines[at as usize]
    };
    let rgb = |at: i64| -> Vec<Px> {
        let centre = line(at);
        let yca: Vec<Px> = if at.rem_euclid(2) == 0 {
            centre.clone()
        } else {
            // Chroma down from the even lines around.
            (0..width)
                .map(|x| {
                    let filter = |c: usize| {
                        let mut sum = 0f32;
                        for (k, tap) in RECONSTRUCT.iter().enumerate() {
                            sum += f(line(at - 13 + 2 * k as i64)[x][c]) * tap;
                        }
                        h(sum)
                    };
                    [filter(0), centre[x][1], filter(2)]
                })
                .collect()
        };
        yca.iter().map(|&p| to_rgb(p, weights)).collect()
    };
    let mut out = [
        Vec::with_capacity(pixels),
        Vec::with_capacity(pixels),
        Vec::with_capacity(pixels),
    ];
    let (mut above, mut here) = (rgb(-1), rgb(0));
    for at in 0..height as i64 {
        let below = rgb(at + 1);
        for p in fix_saturation(&above, &here, &below, weights) {
            for (plane, v) in out.iter_mut().zip(p) {
                plane.push(v);
            }
        }
        above = std::mem::replace(&mut here, below);
    }
    Ok(out)
}

/// The low-pass filter that decimates the chroma, at offsets −13, −11,
/// ..., −1, 0, 1, ..., 13.
const DECIMATE: [(i64, f32); 15] = [
    (-13, 0.001064),
    (-11, -0.003771),
    (-9, 0.009801),
    (-7, -0.021586),
    (-5, 0.043978),
    (-3, -0.093067),
    (-1, 0.313659),
    (0, 0.499846),
    (1, 0.313659),
    (3, -0.093067),
    (5, 0.043978),
    (7, -0.021586),
    (9, 0.009801),
    (11, -0.003771),
    (13, 0.001064),
];

/// A half rounded to `bits` bits of significand (Imath's `half::round`).
fn round(h: u16, bits: u32) -> u16 {
    let s = h & 0x8000;
    let mut e = h & 0x7fff;
    e >>= 9 - bits;
    e += e & 1;
    e <<= 9 - bits;
    if e >= 0x7c00 {
        // Past the largest half: truncated instead.
        e = h;
        e >>= 10 - bits;
        e <<= 10 - bits;
    }
    s | e
}

/// RY, Y, BY from R, G, B (OpenEXR's `RGBAtoYCA`): negative, infinite and
/// NaN components count as 0; grey has no chroma.
fn to_yca(p: Px, w: [f32; 3]) -> Px {
    let [r, g, b] = p.map(|c| {
        let v = f(c);
        if !v.is_finite() || v < 0.0 { 0 } else { c }
    });
    if f(r) == f(g) && f(g) == f(b) {
        return [0, g, 0];
    }
    let y = h(f(r) * w[0] + f(g) * w[1] + f(b) * w[2]);
    let luma = f(y);
    let chroma = |c: u16| {
        if (f(c) - luma).abs() < 65504.0 * luma {
            h((f(c) - luma) / luma)
        } else {
            0
        }
    };
    [chroma(r), y, chroma(b)]
}

/// Luminance/chroma halves from RGB halves: `r`, `g`, `b` (`width ×
/// height` each, row after row), written in increasing y as OpenEXR's
/// `RgbaOutputFile` writes them. With `chroma`, returns Y (rounded to 7
/// bits) and RY, BY (`width/2 × height/2`, rounded to 5 bits; `width` and
/// `height` even); without, Y alone, unrounded, as OpenEXR writes
/// luminance-only files.
#[allow(clippy::type_complexity)]
pub fn yc_from_rgb(
    width: usize,
    height: usize,
    [r, g, b]: [&[u16]; 3],
    weights: [f32; 3],
    chroma: bool,
) -> Result<(Vec<u16>, Option<(Vec<u16>, Vec<u16>)>)> {
    let pixels = width
        .checked_mul(height)
        .ok_or_else(|| Error::invalid("an image larger than memory"))?;
    for (name, plane) in [("R", r), ("G", g), ("B", b)] {
        if plane.len() != pixels {
            return Err(Error::invalid(format!(
                "{name}: {width}×{height} pixels need {pixels} samples, {} were given",
                plane.len()
            )));
        }
    }
    let yca = |i: usize| to_yca([r[i], g[i], b[i]], weights);
    if !chroma {
        return Ok(((0..pixels).map(|i| yca(i)[1]).collect(), None));
    }
    if !width.is_multiple_of(2) || !height.is_multiple_of(2) {
        return Err(Error::invalid(format!(
            "chroma sampled every 2×2 pixels needs an even width and height, not {width}×{height}"
        )));
    }
    let (mut y_out, mut ry_out, mut by_out) = (
        Vec::with_capacity(pixels),
        Vec::with_capacity(pixels / 4),
        Vec::with_capacity(pixels / 4),
    );
    if pixels == 0 {
        return Ok((y_out, Some((ry_out, by_out))));
    }
    // OpenEXR's ring of 27 lines, chroma decimated across (valid at even
    // pixels), the line being written at its middle.
    let mut ring: Vec<Vec<Px>> = vec![vec![[0; 3]; width]; 2 * N2 + 1];
    let last = 2 * N2;
    let across = |line: usize| -> Vec<Px> {
        let row: Vec<Px> = (0..width).map(|x| yca(line * width + x)).collect();
        // Padded with the first pixel on the left and the next to last on
        // the right, as OpenEXR's writer pads.
        let at = |x: i64| -> Px {
            let x = if x < 0 {
                0
            } else if x >= width as i64 {
                width as i64 - 2
            } else {
                x
            };
            row[x as usize]
        };
        (0..width)
            .map(|j| {
                if j % 2 == 1 {
                    return row[j];
                }
                let filter = |c: usize| {
                    let mut sum = 0f32;
                    for (offset, tap) in DECIMATE {
                        sum += f(at(j as i64 + offset)[c]) * tap;
                    }
                    h(sum)
                };
                [filter(0), row[j][1], filter(2)]
            })
            .collect()
    };
    let mut converted = 0usize;
    let mut written = 0usize;
    let mut emit = |ring: &[Vec<Px>], converted: usize| {
        let centre = &ring[N2];
        let filtered = converted.is_multiple_of(2);
        let m = written;
        written += 1;
        for (x, p) in centre.iter().enumerate() {
            y_out.push(round(p[1], 7));
            if m.is_multiple_of(2) && x.is_multiple_of(2) {
                let [cr, cb] = if filtered {
                    [0, 2].map(|c| {
                        let mut sum = 0f32;
                        for (offset, tap) in DECIMATE {
                            sum += f(ring[(N2 as i64 + offset) as usize][x][c]) * tap;
                        }
                        h(sum)
                    })
                } else {
                    [p[0], p[2]]
                };
                ry_out.push(round(cr, 5));
                by_out.push(round(cb, 5));
            }
        }
    };
    let duplicate = |ring: &mut Vec<Vec<Px>>, from: usize| {
        ring.rotate_left(1);
        ring[last] = ring[from].clone();
    };
    for line in 0..height {
        ring.rotate_left(1);
        ring[last] = across(line);
        if converted == 0 {
            for _ in 0..N2 {
                duplicate(&mut ring, last - 1);
            }
        }
        converted += 1;
        if converted > N2 {
            emit(&ring, converted);
        }
        if converted >= height {
            for _ in 0..N2.saturating_sub(height) {
                duplicate(&mut ring, last - 1);
            }
            duplicate(&mut ring, last - 2);
            converted += 1;
            emit(&ring, converted);
            for _ in 1..height.min(N2) {
                duplicate(&mut ring, last - 1);
                converted += 1;
                emit(&ring, converted);
            }
        }
    }
    Ok((y_out, Some((ry_out, by_out))))
}

/// An even line's chroma filled in at odd pixels (OpenEXR's
/// `reconstructChromaHoriz`, the line padded with its first pixel on the
/// left and its last even pixel on the right).
fn across(luma: &[u16], ry: &[u16], by: &[u16]) -> Vec<Px> {
    let width = luma.len();
    // Chroma at even pixels; padded past both ends.
    let at = |x: i64, plane: &[u16]| -> u16 {
        let x = if x < 0 {
            0
        } else if x >= width as i64 {
            width as i64 - 2
        } else {
            x
        };
        plane[x as usize / 2]
    };
    (0..width)
        .map(|j| {
            if j % 2 == 0 {
                return [ry[j / 2], luma[j], by[j / 2]];
            }
            let filter = |plane: &[u16]| {
                let mut sum = 0f32;
                for (k, tap) in RECONSTRUCT.iter().enumerate() {
                    sum += f(at(j as i64 - N2 as i64 + 2 * k as i64, plane)) * tap;
                }
                h(sum)
            };
            [filter(ry), luma[j], filter(by)]
        })
        .collect()
}

/// R, G, B from RY, Y, BY (OpenEXR's `YCAtoRGBA`).
fn to_rgb([ry, y, by]: Px, w: [f32; 3]) -> Px {
    if f(ry) == 0.0 && f(by) == 0.0 {
        return [y, y, y];
    }
    let luma = f(y);
    let r = (f(ry) + 1.0) * luma;
    let b = (f(by) + 1.0) * luma;
    let g = (luma - r * w[0] - b * w[2]) / w[1];
    [h(r), h(g), h(b)]
}

fn saturation(p: &Px) -> f32 {
    let [r, g, b] = p.map(f);
    let max = r.max(g.max(b));
    let min = r.min(g.min(b));
    if max > 0.0 { 1.0 - min / max } else { 0.0 }
}

/// The line `here` with pixels far more saturated than the pixels
/// diagonally around them desaturated (OpenEXR's `fixSaturation`).
fn fix_saturation(above: &[Px], here: &[Px], below: &[Px], w: [f32; 3]) -> Vec<Px> {
    let n = here.len();
    let (mut a2, mut b2) = (saturation(&above[0]), saturation(&below[0]));
    let (mut a1, mut b1) = (a2, b2);
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let (a0, b0) = (a1, b1);
        a1 = a2;
        b1 = b2;
        if i + 1 < n {
            a2 = saturation(&above[i + 1]);
            b2 = saturation(&below[i + 1]);
        }
        let mean = (0.25 * (a0 + a2 + b0 + b2)).min(1.0);
        let p = here[i];
        let s = saturation(&p);
        if s > mean {
            let most = (1.0 - (1.0 - mean) * 0.25).min(1.0);
            if s > most {
                out.push(desaturate(p, most / s, w));
                continue;
            }
        }
        out.push(p);
    }
    out
}

/// OpenEXR's `desaturate`: toward the pixel's largest component by `by`,
/// then scaled back to its luminance.
fn desaturate(p: Px, by: f32, w: [f32; 3]) -> Px {
    let [r, g, b] = p.map(f);
    let max = r.max(g.max(b));
    let mut out = [r, g, b].map(|v| h((max - (max - v) * by).max(0.0)));
    let luma_in = r * w[0] + g * w[1] + b * w[2];
    let [or, og, ob] = out.map(f);
    let luma_out = or * w[0] + og * w[1] + ob * w[2];
    if luma_out > 0.0 {
        out = out.map(|v| h(f(v) * (luma_in / luma_out)));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rec709_weights_and_grey_stays_grey() {
        let w = luminance_weights(None).unwrap();
        assert!(
            (w[0] - 0.2126).abs() < 1e-3 && (w[1] - 0.7152).abs() < 1e-3,
            "{w:?}"
        );
        assert!((w.iter().sum::<f32>() - 1.0).abs() < 1e-6);
        // Grey: no chroma; every output pixel is its luminance.
        let y: Vec<u16> = (0..16).map(|i| h(i as f32 * 0.25)).collect();
        let zero = vec![0u16; 4];
        let [r, g, b] = rgb_from_yc(4, 4, &y, Some((&zero, &zero)), w).unwrap();
        assert_eq!(r, y);
        assert_eq!(g, y);
        assert_eq!(b, y);
        assert!(rgb_from_yc(3, 4, &y[..12], Some((&zero, &zero)), w).is_err());
        assert!(rgb_from_yc(4, 4, &y[..12], None, w).is_err());
    }
}
