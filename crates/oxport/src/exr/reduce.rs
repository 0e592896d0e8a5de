//! The lower levels of a mipmapped or ripmapped part, made from the full
//! resolution as OpenEXR's `exrmaketiled` makes them, to the same values:
//! each level halves the one before across, then down, with a four-tap
//! low-pass filter (1/8, 3/8, 3/8, 1/8) centred between source pixels and
//! spread so that the first and last output pixels sit on the first and
//! last pairs of source pixels. Source samples between two pixels are
//! interpolated linearly; samples past the edge come from the
//! extrapolation (by default the edge pixel). The arithmetic is `exrmaketiled`'s: in
//! `f64`, term after term in its order, and each pass's result is stored
//! in the channel's type (HALF through `f32`, rounded to nearest even; UINT
//! truncated) before the next pass reads it.

use super::attribute::{Channel, PixelType};
use super::tile::{LevelMode, Tiles};
use crate::half;
use crate::pipeline::Pipeline;
use crate::{Error, Result};

/// What a filter reads past the edge of a level, along one axis
/// (`exrmaketiled -e`; the `wrapmodes` attribute names it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Extrapolation {
    /// Zero.
    Black,
    /// The edge pixel.
    #[default]
    Clamp,
    /// The image repeated.
    Periodic,
    /// The image mirrored at its edges.
    Mirror,
}

impl Extrapolation {
    /// The name in the `wrapmodes` attribute.
    pub fn name(self) -> &'static str {
        match self {
            Extrapolation::Black => "black",
            Extrapolation::Clamp => "clamp",
            Extrapolation::Periodic => "periodic",
            Extrapolation::Mirror => "mirror",
        }
    }

    /// The pixel that stands at `i` on a line of `n` pixels, or `None`
    /// for black.
    fn index(self, i: i64, n: usize) -> Option<usize> {
        let n = n as i64;
        Some(match self {
            Extrapolation::Black => return (0..n).contains(&i).then_some(i as usize),
            Extrapolation::Clamp => i.clamp(0, n - 1) as usize,
            Extrapolation::Periodic => i.rem_euclid(n) as usize,
            Extrapolation::Mirror => {
                let (turns, at) = (i.div_euclid(n), i.rem_euclid(n));
                (if turns & 1 == 1 { n - 1 - at } else { at }) as usize
            }
        })
    }
}

/// A sample type: loaded as `f64`, stored as `exrmaketiled` converts.
trait Sample: Copy + Send + Sync {
    const SIZE: usize;
    fn load(bytes: &[u8]) -> f64;
    fn store(value: f64, out: &mut [u8]);
}

#[derive(Clone, Copy)]
struct Half;
#[derive(Clone, Copy)]
struct Float;
#[derive(Clone, Copy)]
struct Uint;

impl Sample for Half {
    const SIZE: usize = 2;
    fn load(b: &[u8]) -> f64 {
        f64::from(half::to_f32(u16::from_le_bytes([b[0], b[1]])))
    }
    fn store(value: f64, out: &mut [u8]) {
        out.copy_from_slice(&half::from_f32(value as f32).to_le_bytes());
    }
}

impl Sample for Float {
    const SIZE: usize = 4;
    fn load(b: &[u8]) -> f64 {
        f64::from(f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
    fn store(value: f64, out: &mut [u8]) {
        out.copy_from_slice(&(value as f32).to_le_bytes());
    }
}

impl Sample for Uint {
    const SIZE: usize = 4;
    fn load(b: &[u8]) -> f64 {
        f64::from(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
    fn store(value: f64, out: &mut [u8]) {
        // Toward zero, as C++ converts; the filter of unsigned values
        // stays within their range.
        out.copy_from_slice(&(value as u32).to_le_bytes());
    }
}

/// One plane being reduced: its size and bytes.
struct Plane {
    width: usize,
    height: usize,
    bytes: Vec<u8>,
}

/// Which way a pass shrinks.
#[derive(Clone, Copy)]
enum Axis {
    X,
    Y,
}

/// Makes every level of a part tiled as `tiles` but the first, from the
/// first: `planes` (one per channel, `width × height`, row after row,
/// little-endian) are level 0. The result has one entry per further level,
/// in the order of [`Tiles::levels`], each a plane per channel. `extrapolate`
/// is (across, down).
pub fn make_levels(
    tiles: &Tiles,
    width: usize,
    height: usize,
    channels: &[Channel],
    planes: &[&[u8]],
    extrapolate: (Extrapolation, Extrapolation),
    threads: Option<usize>,
) -> Result<Vec<Vec<Vec<u8>>>> {
    if planes.len() != channels.len() {
        return Err(Error::invalid(format!(
            "{} channels but {} planes",
            channels.len(),
            planes.len()
        )));
    }
    for (channel, plane) in channels.iter().zip(planes) {
        if width
            .checked_mul(height)
            .and_then(|n| n.checked_mul(channel.pixel_type.size()))
            != Some(plane.len())
        {
            return Err(Error::invalid(format!(
                "channel {:?}: a {width}×{height} plane needs {} bytes, it has {}",
                channel.name,
                width as u128 * height as u128 * channel.pixel_type.size() as u128,
                plane.len()
            )));
        }
    }
    let window = super::attribute::Window {
        x_min: 0,
        y_min: 0,
        x_max: i32::try_from(width).map_err(|_| Error::invalid("the image is too wide"))? - 1,
        y_max: i32::try_from(height).map_err(|_| Error::invalid("the image is too tall"))? - 1,
    };
    let levels = tiles.levels(&window);
    let pipeline = Pipeline::new(threads)?;
    let mut out: Vec<Vec<Vec<u8>>> = vec![Vec::with_capacity(channels.len()); levels.len() - 1];
    for (channel, plane) in channels.iter().zip(planes) {
        let pass = |from: &Plane, axis: Axis, w: usize, h: usize| -> Plane {
            let ext = match axis {
                Axis::X => extrapolate.0,
                Axis::Y => extrapolate.1,
            };
            match channel.pixel_type {
                PixelType::Half => reduce::<Half>(from, axis, w, h, ext, &pipeline),
                PixelType::Float => reduce::<Float>(from, axis, w, h, ext, &pipeline),
                PixelType::Uint => reduce::<Uint>(from, axis, w, h, ext, &pipeline),
            }
        };
        let first = Plane {
            width,
            height,
            bytes: plane.to_vec(),
        };
        match tiles.mode {
            LevelMode::One => {}
            LevelMode::Mipmap => {
                let mut previous = first;
                for l in 1..levels.len() {
                    let across = pass(&previous, Axis::X, levels[l].width, levels[l - 1].height);
                    previous = pass(&across, Axis::Y, levels[l].width, levels[l].height);
                    out[l - 1].push(previous.bytes.clone());
                }
            }
            LevelMode::Ripmap => {
                // Levels go by y, then x: each row of levels starts from
                // the first level of the row above, shrunk down.
                let across = levels.iter().filter(|l| l.y == 0).count();
                let mut row_start = first;
                for (ly, row) in levels.chunks(across).enumerate() {
                    if ly > 0 {
                        row_start = pass(&row_start, Axis::Y, row[0].width, row[0].height);
                        out[ly * across - 1].push(row_start.bytes.clone());
                    }
                    let mut previous: Option<Plane> = None;
                    for (lx, level) in row.iter().enumerate().skip(1) {
                        let from = previous.as_ref().unwrap_or(&row_start);
                        let next = pass(from, Axis::X, level.width, level.height);
                        out[ly * across + lx - 1].push(next.bytes.clone());
                        previous = Some(next);
                    }
                }
            }
        }
    }
    Ok(out)
}

/// Shrinks `from` along `axis` to `width × height`, filtering as
/// `exrmaketiled`'s `reduceX`/`reduceY`, rows in parallel.
fn reduce<T: Sample>(
    from: &Plane,
    axis: Axis,
    width: usize,
    height: usize,
    ext: Extrapolation,
    pipeline: &Pipeline,
) -> Plane {
    let (n0, n1) = match axis {
        Axis::X => (from.width, width),
        Axis::Y => (from.height, height),
    };
    // Output pixel i is centred on source position i × step + 0.5.
    let step = if n1 > 1 {
        (n0 as f64 - 2.0) / (n1 - 1) as f64
    } else {
        1.0
    };
    let mut bytes = vec![0u8; width * height * T::SIZE];
    let row_bytes = width * T::SIZE;
    if row_bytes == 0 {
        return Plane {
            width,
            height,
            bytes,
        };
    }
    let src = &from.bytes;
    let sample_at = |x: usize, y: usize| T::load(&src[(y * from.width + x) * T::SIZE..]);
    // A row reads two source values per sample (of up to 4 bytes each).
    pipeline.for_each_mut(&mut bytes, row_bytes, 3 * row_bytes, |y, row| {
        for (x, out) in row.chunks_exact_mut(T::SIZE).enumerate() {
            let (along, across) = match axis {
                Axis::X => (x, y),
                Axis::Y => (y, x),
            };
            // The source between two pixels, as exrmaketiled's sampleX/Y.
            let sample = |p: f64| -> f64 {
                let s_index = p.floor();
                let t_index = s_index + 1.0;
                let s = t_index - p;
                let t = 1.0 - s;
                let value = |i: f64| match ext.index(i as i64, n0) {
                    None => 0.0,
                    Some(i) => match axis {
                        Axis::X => sample_at(i, across),
                        Axis::Y => sample_at(across, i),
                    },
                };
                s * value(s_index) + t * value(t_index)
            };
            let centre = along as f64 * step;
            let filtered = 0.125 * sample(centre - 1.0)
                + 0.375 * sample(centre)
                + 0.375 * sample(centre + 1.0)
                + 0.125 * sample(centre + 2.0);
            T::store(filtered, out);
        }
    });
    Plane {
        width,
        height,
        bytes,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exr::tile::Rounding;

    fn floats(values: &[f32]) -> Vec<u8> {
        values.iter().flat_map(|v| v.to_le_bytes()).collect()
    }

    fn as_floats(bytes: &[u8]) -> Vec<f32> {
        bytes
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes(b.try_into().unwrap()))
            .collect()
    }

    #[test]
    fn a_mipmap_of_a_constant_stays_constant_and_halves() {
        let tiles = Tiles {
            width: 2,
            height: 2,
            mode: LevelMode::Mipmap,
            rounding: Rounding::Down,
        };
        let plane = floats(&[3.5; 5 * 3]);
        let channels = [Channel::new("Y", PixelType::Float)];
        let levels = make_levels(
            &tiles,
            5,
            3,
            &channels,
            &[&plane],
            Default::default(),
            Some(1),
        )
        .unwrap();
        let sizes: Vec<usize> = levels.iter().map(|l| l[0].len() / 4).collect();
        assert_eq!(sizes, [2, 1]);
        for level in &levels {
            assert!(as_floats(&level[0]).iter().all(|&v| v == 3.5));
        }
    }

    #[test]
    fn a_row_of_two_becomes_their_mean_and_edges_extrapolate() {
        // 4 → 2 across: step (4 - 2) / 1 = 2, so output x takes the taps at
        // 2x - 1, 2x, 2x + 1, 2x + 2 (centred on 2x + 0.5).
        let tiles = Tiles {
            width: 4,
            height: 4,
            mode: LevelMode::Ripmap,
            rounding: Rounding::Down,
        };
        let plane = floats(&[0.0, 8.0, 16.0, 24.0]);
        let channels = [Channel::new("Y", PixelType::Float)];
        let clamp =
            make_levels(&tiles, 4, 1, &channels, &[&plane], Default::default(), None).unwrap();
        // x = 0: (0 + 3 × 0 + 3 × 8 + 16) / 8 with the tap at -1 clamped to 0;
        // x = 1: (8 + 3 × 16 + 3 × 24 + 24) / 8 with the tap at 4 clamped to 3.
        assert_eq!(as_floats(&clamp[0][0]), [5.0, 19.0]);
        let black = (Extrapolation::Black, Extrapolation::Black);
        let zero = make_levels(&tiles, 4, 1, &channels, &[&plane], black, None).unwrap();
        assert_eq!(as_floats(&zero[0][0]), [5.0, 16.0]);
        // Between pixels: 5 → 2 across has step 3 / 1, taps at 2, 3, 4, 5.
        let plane = floats(&[0.0, 8.0, 16.0, 24.0, 32.0]);
        let odd =
            make_levels(&tiles, 5, 1, &channels, &[&plane], Default::default(), None).unwrap();
        assert_eq!(as_floats(&odd[0][0]), [5.0, 27.0]);
        assert_eq!(Extrapolation::Mirror.index(-1, 4), Some(0));
        assert_eq!(Extrapolation::Mirror.index(4, 4), Some(3));
        assert_eq!(Extrapolation::Periodic.index(-1, 4), Some(3));
    }
}
