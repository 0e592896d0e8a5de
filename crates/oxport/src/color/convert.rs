//! Conversions between the spaces, one color or whole arrays in place.

use super::image::SamplesMut;
use super::lanes;
use super::space::Space;
use crate::Result;

/// One color from `from` to `to`, through linear sRGB and Oklab as needed:
/// the exact scalar path (the C library's `pow`, `cbrt`, `atan2`).
#[inline]
pub fn convert_one(c: [f64; 3], from: Space, to: Space) -> [f64; 3] {
    lanes::path(from, to).fold(c, |c, step| step.scalar(c))
}

/// Converts `colors` from `from` to `to` in place, eight at a time in SIMD
/// lanes, in parallel on `threads` threads (`None`: one per core) when there
/// are many. In gamut, within 1e-12 of [`convert_one`] (relative to the
/// color's largest component past 1); out of gamut each step is, but where
/// the LMS matrix cancels near 0 a last-bit difference in a linear value can
/// move the Oklab result by up to about 1e-11 on any path. Images of other
/// sample types, and with alpha: [`super::convert_pixels`].
pub fn convert(
    colors: &mut [[f64; 3]],
    from: Space,
    to: Space,
    threads: Option<usize>,
) -> Result<()> {
    let samples = SamplesMut::F64(colors.as_flattened_mut());
    super::convert_pixels_in_place(samples, 3, from, to, threads)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_pair_of_spaces_round_trips() {
        let colors = [[0.2, 0.5, 0.9], [1.0, 1.0, 1.0], [0.9, 0.1, 0.0], [0.0; 3]];
        for from in Space::ALL {
            for to in Space::ALL {
                for c in colors {
                    let start = convert_one(c, Space::Srgb, from);
                    let back = convert_one(convert_one(start, from, to), to, from);
                    let hue_free = |v: [f64; 3]| {
                        if from == Space::Oklch {
                            [v[0], v[1], 0.0]
                        } else {
                            v
                        }
                    };
                    let (a, b) = (hue_free(start), hue_free(back));
                    for (x, y) in a.iter().zip(b) {
                        assert!((x - y).abs() < 1e-12, "{from} → {to}: {start:?} → {back:?}");
                    }
                }
            }
        }
        assert_eq!("SRGB-linear".parse::<Space>().unwrap(), Space::Linear);
        assert!(
            "hsl"
                .parse::<Space>()
                .unwrap_err()
                .to_string()
                .contains("oklch")
        );
    }

    #[test]
    fn arrays_convert_the_same_on_any_thread_count() {
        let colors: Vec<[f64; 3]> = (0..50_000)
            .map(|i| {
                [
                    f64::from(i % 97) / 96.0,
                    f64::from(i % 89) / 88.0,
                    f64::from(i % 83) / 82.0,
                ]
            })
            .collect();
        let mut one = colors.clone();
        convert(&mut one, Space::Srgb, Space::Oklch, Some(1)).unwrap();
        let mut two = colors.clone();
        convert(&mut two, Space::Srgb, Space::Oklch, Some(2)).unwrap();
        assert_eq!(one, two);
        let exact = convert_one(colors[5], Space::Srgb, Space::Oklch);
        for (got, want) in one[5].iter().zip(exact) {
            assert!((got - want).abs() <= 1e-12 * want.abs().max(1.0), "{one:?}");
        }
        assert!(convert(&mut two, Space::Srgb, Space::Oklab, Some(0)).is_err());
    }
}
