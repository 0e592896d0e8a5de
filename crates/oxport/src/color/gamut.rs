//! Bringing a color into the sRGB gamut: CSS Color 4's gamut mapping
//! (reduce Oklch chroma by binary search until clipping the result moves
//! it less than a just-noticeable difference in Oklab), or plain clipping.

use super::convert::convert_one;
use super::space::Space;

/// The just-noticeable difference in Oklab (deltaEOK) CSS Color 4 uses.
pub const JND: f64 = 0.02;
/// How close the search gets to it, and to the chroma it looks for.
const EPSILON: f64 = 0.0001;

/// Each channel clamped to [0, 1] (NaN becomes 0).
#[inline]
pub fn clip(rgb: [f64; 3]) -> [f64; 3] {
    rgb.map(|c| if c >= 0.0 { c.min(1.0) } else { 0.0 })
}

/// Whether every channel is in [0, 1].
pub(super) fn in_gamut(rgb: [f64; 3]) -> bool {
    rgb.iter().all(|c| (0.0..=1.0).contains(c))
}

/// deltaEOK: the Euclidean distance in Oklab.
fn delta_eok(a: [f64; 3], b: [f64; 3]) -> f64 {
    ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2) + (a[2] - b[2]).powi(2)).sqrt()
}

/// `oklch` (hue NaN for none) mapped into the sRGB gamut by CSS Color 4's
/// algorithm; the result is sRGB.
pub fn map_oklch_to_srgb(oklch: [f64; 3]) -> [f64; 3] {
    let oklch = [
        oklch[0],
        oklch[1],
        if oklch[2].is_nan() { 0.0 } else { oklch[2] },
    ];
    let srgb = |lch: [f64; 3]| convert_one(lch, Space::Oklch, Space::Srgb);
    let oklab = |lch: [f64; 3]| convert_one(lch, Space::Oklch, Space::Oklab);
    let origin = srgb(oklch);
    if in_gamut(origin) {
        return origin;
    }
    // Lightness past white's or under black's: white or black. White's
    // lightness is a hair under 1 with these matrices; within 1e-6 counts.
    let white = convert_one([1.0; 3], Space::Srgb, Space::Oklch)[0];
    if oklch[0] >= white || (oklch[0] - white).abs() <= 1e-6 {
        return [1.0; 3];
    }
    if oklch[0] <= 0.0 {
        return [0.0; 3];
    }
    let mut current = oklch;
    let mut clipped = clip(origin);
    if delta_eok(
        oklab(current),
        convert_one(clipped, Space::Srgb, Space::Oklab),
    ) < JND
    {
        return clipped;
    }
    let (mut low, mut high) = (0.0, oklch[1]);
    let mut low_in_gamut = true;
    while high - low > EPSILON {
        let chroma = (low + high) / 2.0;
        current[1] = chroma;
        let candidate = srgb(current);
        if low_in_gamut && in_gamut(candidate) {
            low = chroma;
            continue;
        }
        clipped = clip(candidate);
        let e = delta_eok(
            oklab(current),
            convert_one(clipped, Space::Srgb, Space::Oklab),
        );
        if e < JND {
            if JND - e < EPSILON {
                break;
            }
            low_in_gamut = false;
            low = chroma;
        } else {
            high = chroma;
        }
    }
    clipped
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn in_gamut_colors_stay_and_others_land_inside_near_the_jnd() {
        let inside = convert_one([0.2, 0.4, 0.6], Space::Srgb, Space::Oklch);
        let back = map_oklch_to_srgb(inside);
        for (a, b) in back.iter().zip([0.2, 0.4, 0.6]) {
            assert!((a - b).abs() < 1e-12);
        }
        // A vivid Oklch green far outside sRGB.
        let mapped = map_oklch_to_srgb([0.8, 0.4, 140.0]);
        assert!(in_gamut(mapped), "{mapped:?}");
        let lch = convert_one(mapped, Space::Srgb, Space::Oklch);
        assert!(
            (lch[0] - 0.8).abs() < 0.03 && (lch[2] - 140.0).abs() < 3.0,
            "{lch:?}"
        );
        assert_eq!(map_oklch_to_srgb([1.2, 0.1, 30.0]), [1.0; 3]);
        assert_eq!(map_oklch_to_srgb([-0.1, 0.1, 30.0]), [0.0; 3]);
        assert_eq!(clip([-0.5, 0.5, 1.5]), [0.0, 0.5, 1.0]);
    }
}
