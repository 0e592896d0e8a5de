//! Gradients as CSS Color 4 and CSS Images interpolate them: stops with
//! optional positions (missing ones spread evenly, decreasing ones raised
//! to their predecessor), each pair of neighbours interpolated in a chosen
//! space with alpha premultiplied, Oklch hues by one of the four hue
//! methods with powerless (achromatic) hues taking their neighbour's, and
//! the results brought into sRGB by CSS gamut mapping or clipping.

use std::str::FromStr;

use super::convert::convert_one;
use super::gamut::{clip, in_gamut, map_oklch_to_srgb};
use super::oklch::ACHROMATIC;
use super::space::Space;
use crate::pipeline::Pipeline;
use crate::{Error, Result};

/// How Oklch hues travel between two stops (CSS Color 4, §12.4).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Hue {
    /// The shorter arc (at most 180°).
    #[default]
    Shorter,
    /// The longer arc.
    Longer,
    /// Hue only grows.
    Increasing,
    /// Hue only falls.
    Decreasing,
}

impl FromStr for Hue {
    type Err = Error;

    fn from_str(s: &str) -> Result<Self> {
        match s {
            "shorter" => Ok(Hue::Shorter),
            "longer" => Ok(Hue::Longer),
            "increasing" => Ok(Hue::Increasing),
            "decreasing" => Ok(Hue::Decreasing),
            _ => Err(Error::invalid(format!(
                "hue method {s:?}: shorter, longer, increasing or decreasing"
            ))),
        }
    }
}

/// How interpolated colors outside sRGB are brought in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Fit {
    /// CSS Color 4's gamut mapping (Oklch chroma reduction).
    #[default]
    Map,
    /// Each channel clamped to [0, 1].
    Clip,
    /// Left as they are (components may leave [0, 1]).
    None,
}

impl FromStr for Fit {
    type Err = Error;

    fn from_str(s: &str) -> Result<Self> {
        match s {
            "map" | "css" => Ok(Fit::Map),
            "clip" => Ok(Fit::Clip),
            "none" => Ok(Fit::None),
            _ => Err(Error::invalid(format!("fit {s:?}: map, clip or none"))),
        }
    }
}

/// A color stop: sRGB and alpha, each in [0, 1] in gamut, and where it
/// sits (0 to 1; `None`: spread evenly between its neighbours).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stop {
    /// sRGB and alpha.
    pub color: [f64; 4],
    /// Where the stop sits, 0 to 1; `None`: evenly between its neighbours.
    pub position: Option<f64>,
}

/// How to interpolate.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GradientOptions {
    /// The space the colors are interpolated in.
    pub space: Space,
    /// How hues are interpolated (polar spaces only).
    pub hue: Hue,
    /// How colors outside sRGB's gamut are brought into it.
    pub fit: Fit,
}

impl Default for GradientOptions {
    fn default() -> Self {
        GradientOptions {
            space: Space::Oklab,
            hue: Hue::Shorter,
            fit: Fit::Map,
        }
    }
}

/// Positions for every stop by CSS's rules: the first defaults to 0 and
/// the last to 1, a position under an earlier one is raised to it, runs
/// without positions spread evenly between the positions around them.
pub fn positions(stops: &[Option<f64>]) -> Vec<f64> {
    let mut out: Vec<Option<f64>> = stops.to_vec();
    let n = out.len();
    if n == 0 {
        return Vec::new();
    }
    out[0] = Some(out[0].unwrap_or(0.0));
    if n > 1 && out[n - 1].is_none() {
        let highest = out
            .iter()
            .flatten()
            .fold(f64::NEG_INFINITY, |a, &b| a.max(b));
        out[n - 1] = Some(highest.max(1.0));
    }
    let mut last = f64::NEG_INFINITY;
    for p in out.iter_mut().flatten() {
        last = last.max(*p);
        *p = last;
    }
    let mut i = 0;
    while i < n {
        if out[i].is_some() {
            i += 1;
            continue;
        }
        let start = i - 1;
        let end = (i..n)
            .find(|&j| out[j].is_some())
            .expect("the last stop has a position");
        let (a, b) = (out[start].expect("set"), out[end].expect("set"));
        for (k, slot) in out.iter_mut().enumerate().take(end).skip(i) {
            *slot = Some(a + (b - a) * (k - start) as f64 / (end - start) as f64);
        }
        i = end;
    }
    out.into_iter()
        .map(|p| p.expect("every position set"))
        .collect()
}

/// A stop in the interpolation space, alpha last; an Oklch hue that is
/// powerless (chroma ≤ [`ACHROMATIC`]) is NaN, "missing".
fn to_space(color: [f64; 4], space: Space) -> [f64; 4] {
    let c = convert_one([color[0], color[1], color[2]], Space::Srgb, space);
    let hue = if space == Space::Oklch && c[1] <= ACHROMATIC {
        f64::NAN
    } else {
        c[2]
    };
    [c[0], c[1], hue, color[3]]
}

/// Adjusts the hues of a pair for `method`; a missing hue takes the other's.
fn fix_hues(a: &mut f64, b: &mut f64, method: Hue) {
    match (a.is_nan(), b.is_nan()) {
        (true, true) => return,
        (true, false) => *a = *b,
        (false, true) => *b = *a,
        (false, false) => {}
    }
    let (mut h1, mut h2) = (a.rem_euclid(360.0), b.rem_euclid(360.0));
    match method {
        Hue::Shorter if h2 - h1 > 180.0 => h1 += 360.0,
        Hue::Shorter if h2 - h1 < -180.0 => h2 += 360.0,
        Hue::Longer if 0.0 < h2 - h1 && h2 - h1 < 180.0 => h1 += 360.0,
        Hue::Longer if -180.0 < h2 - h1 && h2 - h1 <= 0.0 => h2 += 360.0,
        Hue::Increasing if h2 < h1 => h2 += 360.0,
        Hue::Decreasing if h1 < h2 => h1 += 360.0,
        _ => {}
    }
    (*a, *b) = (h1, h2);
}

/// Multiplies the components by alpha, except an Oklch hue.
fn premultiply(c: &mut [f64; 4], polar: bool) {
    let alpha = c[3];
    for (i, v) in c.iter_mut().take(3).enumerate() {
        if !(polar && i == 2) {
            *v *= alpha;
        }
    }
}

fn un_premultiply(c: &mut [f64; 4], polar: bool) {
    let alpha = c[3];
    if alpha == 0.0 || alpha.is_nan() {
        return;
    }
    for (i, v) in c.iter_mut().take(3).enumerate() {
        if !(polar && i == 2) {
            *v /= alpha;
        }
    }
}

/// The gradient through `stops` sampled at `samples` evenly spaced points
/// from 0 to 1: sRGB and alpha per sample, brought into gamut as
/// `options.fit` says; on `threads` threads (`None`: one per core) when
/// there are many samples.
pub fn gradient(
    stops: &[Stop],
    samples: usize,
    options: &GradientOptions,
    threads: Option<usize>,
) -> Result<Vec<[f64; 4]>> {
    if stops.is_empty() {
        return Err(Error::invalid("a gradient needs at least one stop"));
    }
    for (i, stop) in stops.iter().enumerate() {
        if stop.color.iter().any(|c| !c.is_finite())
            || stop.position.is_some_and(|p| !p.is_finite())
        {
            return Err(Error::invalid(format!(
                "stop {i}: colors and positions must be finite numbers"
            )));
        }
    }
    let polar = options.space == Space::Oklch;
    let at = positions(&stops.iter().map(|s| s.position).collect::<Vec<_>>());
    let colors: Vec<[f64; 4]> = stops
        .iter()
        .map(|s| to_space(s.color, options.space))
        .collect();
    // One pair per segment, fixed up once: a stop between two segments may
    // take a different hue in each.
    let pairs: Vec<([f64; 4], [f64; 4])> = if colors.len() == 1 {
        vec![(colors[0], colors[0])]
    } else {
        colors
            .windows(2)
            .map(|w| {
                let (mut a, mut b) = (w[0], w[1]);
                if polar {
                    let (mut h1, mut h2) = (a[2], b[2]);
                    fix_hues(&mut h1, &mut h2, options.hue);
                    (a[2], b[2]) = (h1, h2);
                }
                premultiply(&mut a, polar);
                premultiply(&mut b, polar);
                (a, b)
            })
            .collect()
    };
    let ends = if at.len() == 1 {
        vec![at[0], at[0]]
    } else {
        at
    };
    let t = |k: usize| {
        if samples == 1 {
            0.0
        } else {
            k as f64 / (samples - 1) as f64
        }
    };
    // Each range of samples: interpolated in `options.space`, converted to
    // sRGB on the lanes, then brought into gamut one color at a time (CSS
    // Color 4's mapping, exact, for the colors outside only).
    let pieces = Pipeline::new(threads)?.map_ranges(samples, 32, |range| {
        let mut colors: Vec<[f64; 4]> = range
            .map(|k| interpolate(&pairs, &ends, t(k), polar))
            .collect();
        let interpolated = (options.fit == Fit::Map).then(|| colors.clone());
        super::image::convert_colors_with_alpha(&mut colors, options.space, Space::Srgb);
        for (i, c) in colors.iter_mut().enumerate() {
            let rgb = [c[0], c[1], c[2]];
            let rgb = match (options.fit, &interpolated) {
                (Fit::Map, Some(interpolated)) if !in_gamut(rgb) => {
                    let [l, a, b, _] = interpolated[i];
                    map_oklch_to_srgb(convert_one([l, a, b], options.space, Space::Oklch))
                }
                (Fit::Clip, _) => clip(rgb),
                _ => rgb,
            };
            [c[0], c[1], c[2]] = rgb;
        }
        colors
    });
    Ok(pieces.concat())
}

/// The color at `t` in the gradient's space, alpha last (clamped): the
/// first segment that ends at or after it; a missing hue is 0.
fn interpolate(pairs: &[([f64; 4], [f64; 4])], ends: &[f64], t: f64, polar: bool) -> [f64; 4] {
    let segment = (1..ends.len())
        .find(|&i| t <= ends[i])
        .unwrap_or(ends.len() - 1);
    let (start, end) = (ends[segment - 1], ends[segment]);
    let p = if t < start {
        0.0
    } else if t > end {
        1.0
    } else if end > start {
        (t - start) / (end - start)
    } else {
        1.0
    };
    let (a, b) = &pairs[segment - 1];
    let mut c = [0.0; 4];
    for i in 0..4 {
        c[i] = match (a[i].is_nan(), b[i].is_nan()) {
            (true, true) => f64::NAN,
            (true, false) => b[i],
            (false, true) => a[i],
            (false, false) => a[i] + (b[i] - a[i]) * p,
        };
    }
    un_premultiply(&mut c, polar);
    let hue = if c[2].is_nan() { 0.0 } else { c[2] };
    [c[0], c[1], hue, c[3].clamp(0.0, 1.0)]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_follow_css() {
        assert_eq!(positions(&[None, None, None]), [0.0, 0.5, 1.0]);
        assert_eq!(
            positions(&[None, Some(0.8), None, None]),
            [0.0, 0.8, 0.9, 1.0]
        );
        assert_eq!(positions(&[Some(0.5), Some(0.2), None]), [0.5, 0.5, 1.0]);
        assert_eq!(positions(&[None, Some(1.5), None]), [0.0, 1.5, 1.5]);
        assert_eq!(positions(&[None]), [0.0]);
    }

    #[test]
    fn hue_methods_take_their_arcs() {
        let fixed = |a: f64, b: f64, m| {
            let (mut x, mut y) = (a, b);
            fix_hues(&mut x, &mut y, m);
            (x, y)
        };
        assert_eq!(fixed(10.0, 350.0, Hue::Shorter), (370.0, 350.0));
        assert_eq!(fixed(10.0, 350.0, Hue::Longer), (10.0, 350.0));
        assert_eq!(fixed(350.0, 10.0, Hue::Increasing), (350.0, 370.0));
        assert_eq!(fixed(10.0, 350.0, Hue::Decreasing), (370.0, 350.0));
        let (x, y) = fixed(f64::NAN, 200.0, Hue::Shorter);
        assert_eq!((x, y), (200.0, 200.0));
    }

    #[test]
    fn black_to_white_is_grey_in_every_space_and_ends_are_exact() {
        let stops = [
            Stop {
                color: [0.0, 0.0, 0.0, 1.0],
                position: None,
            },
            Stop {
                color: [1.0, 1.0, 1.0, 1.0],
                position: None,
            },
        ];
        for space in Space::ALL {
            let options = GradientOptions {
                space,
                ..GradientOptions::default()
            };
            let g = gradient(&stops, 5, &options, None).unwrap();
            assert_eq!(g.len(), 5);
            for c in &g {
                assert!(
                    (c[0] - c[1]).abs() < 1e-6 && (c[1] - c[2]).abs() < 1e-6,
                    "{space}: {c:?}"
                );
            }
            assert!(
                g[0][..3].iter().all(|v| v.abs() < 1e-9),
                "{space}: {:?}",
                g[0]
            );
            assert!(
                g[4][..3].iter().all(|v| (v - 1.0).abs() < 1e-6),
                "{space}: {:?}",
                g[4]
            );
        }
        assert!(gradient(&[], 3, &GradientOptions::default(), None).is_err());
        let many = |threads| gradient(&stops, 100_000, &GradientOptions::default(), Some(threads));
        assert_eq!(many(1).unwrap(), many(2).unwrap());
    }
}
