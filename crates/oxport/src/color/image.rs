//! Images of colors: samples of 3 or 4 channels per pixel (alpha last,
//! passed through), stored as 8-bit sRGB, half, f32 or f64, converted
//! between spaces in SIMD lanes ([`super::lanes`]), from one array into
//! another of any of those types, or in place.
//!
//! Every sample is computed in f64 and rounded once into the output's type:
//! 8-bit values to the nearest of 0..=255 after clamping to [0, 1] (ties to
//! even, NaN to 0), halves to the nearest half. 8-bit samples hold sRGB
//! only; where the conversion starts by decoding them to linear light, it
//! reads the decoded value from a table of the exact scalar path's 256.

use std::any::Any;
use std::sync::OnceLock;

use super::lanes::{self, Block, LANES, Step};
use super::space::Space;
use super::srgb;
use crate::pipeline::Pipeline;
use crate::{Error, Result, half};

/// The samples of an image, pixel after pixel, channel after channel.
#[derive(Clone, Copy, Debug)]
pub enum Samples<'a> {
    /// 8-bit sRGB, value / 255.
    U8(&'a [u8]),
    /// Halves (IEEE 754 binary16), by their bits.
    F16(&'a [u16]),
    /// Single floats.
    F32(&'a [f32]),
    /// Double floats.
    F64(&'a [f64]),
}

/// The samples an image is written into.
#[derive(Debug)]
pub enum SamplesMut<'a> {
    /// 8-bit sRGB, value / 255.
    U8(&'a mut [u8]),
    /// Halves (IEEE 754 binary16), by their bits.
    F16(&'a mut [u16]),
    /// Single floats.
    F32(&'a mut [f32]),
    /// Double floats.
    F64(&'a mut [f64]),
}

/// A sample type: how a sample becomes an f64 and an f64 a sample.
pub(super) trait Sample: Copy + Default + Send + Sync + 'static {
    /// 8-bit sRGB, the only space the type holds.
    const ENCODED: bool = false;
    /// The sample's value; for an encoded sample, decoded to linear light
    /// where `linear`.
    fn load(self, linear: bool) -> f64;
    /// `v` rounded to the nearest sample.
    fn store(v: f64) -> Self;
    /// Whether [`Sample::store_64`] is faster than 64 stores.
    const BY_64: bool = false;
    /// 64 values rounded.
    fn store_64(values: &[f64; 64], samples: &mut [Self; 64]) {
        for (s, &v) in samples.iter_mut().zip(values) {
            *s = Self::store(v);
        }
    }
}

impl Sample for u8 {
    const ENCODED: bool = true;

    #[inline(always)]
    fn load(self, linear: bool) -> f64 {
        if linear {
            linear_table()[usize::from(self)]
        } else {
            f64::from(self) / 255.0
        }
    }

    #[inline(always)]
    fn store(v: f64) -> Self {
        // `as` sends NaN to 0.
        (v.clamp(0.0, 1.0) * 255.0).round_ties_even() as u8
    }
}

/// Halves by their bits.
impl Sample for u16 {
    #[inline(always)]
    fn load(self, _: bool) -> f64 {
        f64::from(half::to_f32(self))
    }

    #[inline(always)]
    fn store(v: f64) -> Self {
        half::from_f64(v)
    }

    const BY_64: bool = true;

    fn store_64(values: &[f64; 64], samples: &mut [Self; 64]) {
        half::from_f64_64(values, samples);
    }
}

impl Sample for f32 {
    #[inline(always)]
    fn load(self, _: bool) -> f64 {
        f64::from(self)
    }

    #[inline(always)]
    fn store(v: f64) -> Self {
        v as f32
    }
}

impl Sample for f64 {
    #[inline(always)]
    fn load(self, _: bool) -> f64 {
        self
    }

    #[inline(always)]
    fn store(v: f64) -> Self {
        v
    }
}

/// The linear-light value of every 8-bit sRGB value, by the scalar path.
fn linear_table() -> &'static [f64; 256] {
    static TABLE: OnceLock<[f64; 256]> = OnceLock::new();
    TABLE.get_or_init(|| std::array::from_fn(|i| srgb::to_linear(i as f64 / 255.0)))
}

/// Pixels converted at a time: blocks of lanes that stay in the first
/// level of cache.
const BATCH: usize = 32 * LANES;
/// Pixels per parallel unit, at least.
const UNIT: usize = 1024;

/// A batch of pixels of `C` samples into `blocks`, a lane each (the last
/// block's unused lanes zeros: converted, never stored, the same whatever
/// came before); the number of blocks used.
#[inline(always)]
fn gather<S: Sample, const C: usize>(blocks: &mut [Block], pixels: &[S], decoded: bool) -> usize {
    let mut used = 0;
    for (block, pixels) in blocks.iter_mut().zip(pixels.chunks(LANES * C)) {
        let pixels = pixels.as_chunks::<C>().0;
        // A whole block's length is a constant where it is inlined.
        if let Ok(full) = <&[[S; C]; LANES]>::try_from(pixels) {
            load_block(block, full, decoded);
        } else {
            *block = [[0.0; LANES]; 3];
            load_block(block, pixels, decoded);
        }
        used += 1;
    }
    used
}

/// The first three samples of each of `pixels` into a lane of `block`.
#[inline(always)]
fn load_block<S: Sample, const C: usize>(block: &mut Block, pixels: &[[S; C]], decoded: bool) {
    for (lane, pixel) in pixels.iter().enumerate() {
        for (channel, &v) in block.iter_mut().zip(pixel) {
            channel[lane] = v.load(decoded);
        }
    }
}

/// Each lane of `block` into the first three samples of a pixel.
#[inline(always)]
fn store_block<D: Sample, const C: usize>(block: &Block, pixels: &mut [[D; C]]) {
    for (lane, pixel) in pixels.iter_mut().enumerate() {
        for (v, channel) in pixel.iter_mut().zip(block) {
            *v = D::store(channel[lane]);
        }
    }
}

/// The colors of `blocks` into the first three samples of each pixel;
/// for types stored faster 64 at a time, a channel of eight blocks at once.
#[inline(always)]
fn scatter<D: Sample, const C: usize>(blocks: &[Block], pixels: &mut [D]) {
    const GROUP: usize = 64 / LANES;
    for (group, pixels) in blocks.chunks(GROUP).zip(pixels.chunks_mut(64 * C)) {
        let pixels = pixels.as_chunks_mut::<C>().0;
        if D::BY_64 && pixels.len() == 64 {
            for c in 0..3 {
                let values: [f64; 64] = std::array::from_fn(|i| group[i / LANES][c][i % LANES]);
                let mut samples = [D::default(); 64];
                D::store_64(&values, &mut samples);
                for (pixel, v) in pixels.iter_mut().zip(samples) {
                    pixel[c] = v;
                }
            }
            continue;
        }
        for (block, pixels) in group.iter().zip(pixels.chunks_mut(LANES)) {
            match <&mut [[D; C]; LANES]>::try_from(&mut *pixels) {
                Ok(full) => store_block(block, full),
                Err(_) => store_block(block, pixels),
            }
        }
    }
}

/// Whether 8-bit input is decoded by the table, and the steps left.
fn decoding<S: Sample>(steps: &[Step]) -> (bool, &[Step]) {
    let decoded = S::ENCODED && steps.first() == Some(&Step::SrgbToLinear);
    (decoded, &steps[usize::from(decoded)..])
}

/// The pixels of `input` (`C` samples each) through `steps` into `output`,
/// which has as many samples; alpha passed through.
fn batches<S: Sample, D: Sample, const C: usize>(input: &[S], output: &mut [D], steps: &[Step]) {
    let (decoded, steps) = decoding::<S>(steps);
    let mut blocks = [[[0.0; LANES]; 3]; BATCH / LANES];
    for (input, output) in input.chunks(BATCH * C).zip(output.chunks_mut(BATCH * C)) {
        let used = gather::<S, C>(&mut blocks, input, decoded);
        lanes::convert_blocks(&mut blocks[..used], steps);
        scatter::<D, C>(&blocks[..used], output);
        if C == 4 {
            for (o, i) in output.chunks_exact_mut(C).zip(input.chunks_exact(C)) {
                // Alpha of the same type is copied as it is.
                o[3] = match (&i[3] as &dyn Any).downcast_ref::<D>() {
                    Some(&same) => same,
                    None => D::store(i[3].load(false)),
                };
            }
        }
    }
}

/// [`batches`] in place (alpha untouched).
fn batches_in_place<T: Sample, const C: usize>(samples: &mut [T], steps: &[Step]) {
    let (decoded, steps) = decoding::<T>(steps);
    let mut blocks = [[[0.0; LANES]; 3]; BATCH / LANES];
    for piece in samples.chunks_mut(BATCH * C) {
        let used = gather::<T, C>(&mut blocks, piece, decoded);
        lanes::convert_blocks(&mut blocks[..used], steps);
        scatter::<T, C>(&blocks[..used], piece);
    }
}

/// The checks every conversion of samples makes: 3 or 4 channels, whole
/// pixels, 8-bit samples only for sRGB.
fn check<S: Sample, D: Sample>(
    samples: usize,
    channels: usize,
    from: Space,
    to: Space,
) -> Result<()> {
    if channels != 3 && channels != 4 {
        return Err(Error::invalid(format!(
            "colors have 3 channels (or 4, alpha last), not {channels}"
        )));
    }
    if !samples.is_multiple_of(channels) {
        return Err(Error::invalid(format!(
            "{samples} samples are not whole pixels of {channels} channels"
        )));
    }
    for (encoded, space, side) in [(S::ENCODED, from, "input"), (D::ENCODED, to, "output")] {
        if encoded && space != Space::Srgb {
            return Err(Error::invalid(format!(
                "8-bit samples hold sRGB only, but the {side} is {space}"
            )));
        }
    }
    Ok(())
}

/// Parallel units of `channels`-sample pixels, and the bytes each reads
/// and writes.
fn units<S, D>(channels: usize) -> (usize, usize) {
    let unit = UNIT * channels;
    (unit, unit * (size_of::<S>() + size_of::<D>()))
}

fn convert<S: Sample, D: Sample>(
    input: &[S],
    output: &mut [D],
    channels: usize,
    from: Space,
    to: Space,
    threads: Option<usize>,
) -> Result<()> {
    if input.len() != output.len() {
        return Err(Error::invalid(format!(
            "the output has {} samples, the input {}",
            output.len(),
            input.len()
        )));
    }
    check::<S, D>(input.len(), channels, from, to)?;
    let steps: Vec<Step> = lanes::path(from, to).collect();
    let (unit, bytes) = units::<S, D>(channels);
    Pipeline::new(threads)?.for_each_mut(output, unit, bytes, |i, piece| {
        let input = &input[i * unit..][..piece.len()];
        if channels == 3 {
            batches::<S, D, 3>(input, piece, &steps);
        } else {
            batches::<S, D, 4>(input, piece, &steps);
        }
    });
    Ok(())
}

fn convert_in_place<T: Sample>(
    samples: &mut [T],
    channels: usize,
    from: Space,
    to: Space,
    threads: Option<usize>,
) -> Result<()> {
    check::<T, T>(samples.len(), channels, from, to)?;
    let steps: Vec<Step> = lanes::path(from, to).collect();
    let (unit, bytes) = units::<T, T>(channels);
    Pipeline::new(threads)?.for_each_mut(samples, unit, bytes, |_, piece| {
        if channels == 3 {
            batches_in_place::<T, 3>(piece, &steps);
        } else {
            batches_in_place::<T, 4>(piece, &steps);
        }
    });
    Ok(())
}

/// `$body` with `$name` bound to the slice of whichever type `$samples`
/// holds.
macro_rules! typed {
    ($kind:ident, $samples:expr, $name:ident => $body:expr) => {
        match $samples {
            $kind::U8($name) => $body,
            $kind::F16($name) => $body,
            $kind::F32($name) => $body,
            $kind::F64($name) => $body,
        }
    };
}

/// `input`'s pixels (`channels` samples each, 3 or 4 with alpha last)
/// converted from `from` to `to` into `output`, which has as many samples
/// of any type, in parallel on `threads` threads (`None`: one per core)
/// when there are many. Alpha is passed through, rounded to the output's
/// type.
pub fn convert_pixels(
    input: Samples<'_>,
    output: SamplesMut<'_>,
    channels: usize,
    from: Space,
    to: Space,
    threads: Option<usize>,
) -> Result<()> {
    typed!(SamplesMut, output, o => typed!(Samples, input, i => convert(i, o, channels, from, to, threads)))
}

/// [`convert_pixels`] in place.
pub fn convert_pixels_in_place(
    samples: SamplesMut<'_>,
    channels: usize,
    from: Space,
    to: Space,
    threads: Option<usize>,
) -> Result<()> {
    typed!(SamplesMut, samples, s => convert_in_place(s, channels, from, to, threads))
}

/// `colors` (alpha last, untouched) from `from` to `to` in place on the
/// lanes, on this thread: for callers that cut their own work.
pub(super) fn convert_colors_with_alpha(colors: &mut [[f64; 4]], from: Space, to: Space) {
    let steps: Vec<Step> = lanes::path(from, to).collect();
    batches_in_place::<f64, 4>(colors.as_flattened_mut(), &steps);
}

/// The colors of `samples` (3 samples each) through `steps` in place, on
/// this thread: the lanes' tests call this.
#[cfg(test)]
pub(super) fn convert_steps<T: Sample>(samples: &mut [T], steps: &[Step]) {
    batches_in_place::<T, 3>(samples, steps)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::color::convert_one;
    use crate::synth::Rng;

    /// Random pixels of `channels` samples of `space` (alpha in [0, 1]).
    fn pixels(space: Space, count: usize, channels: usize, seed: u64) -> Vec<f64> {
        let mut rng = Rng::new(seed);
        let mut next = |lo: f32, hi: f32| f64::from(rng.range(lo, hi));
        (0..count)
            .flat_map(|_| {
                let mut pixel = match space {
                    Space::Srgb | Space::Linear => {
                        vec![next(0.0, 1.0), next(0.0, 1.0), next(0.0, 1.0)]
                    }
                    Space::Oklab => vec![next(0.0, 1.0), next(-0.3, 0.3), next(-0.3, 0.3)],
                    Space::Oklch => vec![next(0.0, 1.0), next(0.0, 0.3), next(0.0, 360.0)],
                };
                pixel.extend((channels == 4).then(|| next(0.0, 1.0)));
                pixel
            })
            .collect()
    }

    /// `values` stored as `T`.
    fn stored<T: Sample>(values: &[f64]) -> Vec<T> {
        values.iter().map(|&v| T::store(v)).collect()
    }

    /// Checks that `got` is the rounding (by `round`, written here apart
    /// from the stores) of a value within 1e-12 of `want` (relative past
    /// 1): rounding is monotonic, so it lies between the roundings of the
    /// two ends of that interval.
    fn near<D: Sample>(got: D, want: f64, round: fn(f64) -> f64, what: &str) {
        let reach = 1e-12 * want.abs().max(1.0);
        let (low, high) = (round(want - reach), round(want + reach));
        let got = got.load(false);
        assert!(
            (low..=high).contains(&got),
            "{what}: {got:e}, exactly {want:e}"
        );
    }

    /// The half nearest `v` (within range), by distance, among the
    /// neighbours of a rounding through f32 (which can land on a tie).
    fn nearest_half(v: f64) -> f64 {
        let h = half::from_f32(v as f32);
        [h.wrapping_sub(1), h, h.wrapping_add(1)]
            .map(|h| f64::from(half::to_f32(h)))
            .into_iter()
            .min_by(|a, b| (a - v).abs().total_cmp(&(b - v).abs()))
            .unwrap()
    }

    /// Every pair of sample types, 3 and 4 channels, against the scalar
    /// path on the input's values, alpha passed through.
    fn every_output<S: Sample>(from: Space, to: Space, seed: u64) {
        for channels in [3, 4] {
            let values = pixels(from, 3003, channels, seed);
            let input: Vec<S> = stored(&values);
            let loaded: Vec<f64> = input.iter().map(|v| v.load(false)).collect();
            macro_rules! into {
                ($d:ty, $round:expr) => {{
                    if <$d>::ENCODED && to != Space::Srgb {
                        continue;
                    }
                    let mut output = vec![<$d>::default(); input.len()];
                    convert(&input, &mut output, channels, from, to, Some(2)).unwrap();
                    for (pixel, (got, source)) in loaded
                        .chunks(channels)
                        .zip(output.chunks(channels).zip(input.chunks(channels)))
                    {
                        let want = convert_one([pixel[0], pixel[1], pixel[2]], from, to);
                        for k in 0..3 {
                            if to == Space::Oklch && k == 2 && want[1] < 1e-6 {
                                continue; // the hue of a gray is its a and b's last bits
                            }
                            near(
                                got[k],
                                want[k],
                                $round,
                                &format!("{from} -> {to}, channel {k}"),
                            );
                        }
                        if channels == 4 {
                            assert_eq!(
                                got[3].load(false),
                                <$d>::store(source[3].load(false)).load(false)
                            );
                        }
                    }
                    // In place, where the types agree: the same samples.
                    if size_of::<$d>() == size_of::<S>() && <$d>::ENCODED == S::ENCODED {
                        let mut samples = input.clone();
                        convert_in_place(&mut samples, channels, from, to, Some(3)).unwrap();
                        let same = samples
                            .iter()
                            .zip(&output)
                            .all(|(a, b)| a.load(false).to_bits() == b.load(false).to_bits());
                        assert!(same, "{from} -> {to} in place");
                    }
                }};
            }
            into!(u8, |v| (v.clamp(0.0, 1.0) * 255.0).round() / 255.0);
            into!(u16, nearest_half);
            into!(f32, |v| f64::from(v as f32));
            into!(f64, |v| v);
        }
    }

    #[test]
    fn every_sample_type_into_every_other() {
        for (i, from) in Space::ALL.into_iter().enumerate() {
            for to in Space::ALL {
                let seed = i as u64;
                if from == Space::Srgb {
                    every_output::<u8>(from, to, seed);
                }
                every_output::<u16>(from, to, seed);
                every_output::<f32>(from, to, seed);
                every_output::<f64>(from, to, seed);
            }
        }
    }

    #[test]
    fn eight_bit_srgb_decodes_by_the_scalar_path() {
        let input: Vec<u8> = (0..=255).flat_map(|v| [v, v, v]).collect();
        let mut output = vec![0.0; input.len()];
        convert(&input, &mut output, 3, Space::Srgb, Space::Linear, None).unwrap();
        for (v, got) in input.iter().zip(&output) {
            assert_eq!(*got, srgb::to_linear(f64::from(*v) / 255.0), "{v}");
        }
        // Encoding rounds to nearest, clamps, and sends NaN to 0.
        let input = [0.5 / 255.0, 254.4 / 255.0, 1.5, -0.2, f64::NAN, 2.0 / 255.0];
        let mut output = [9u8; 6];
        convert(&input, &mut output, 3, Space::Srgb, Space::Srgb, None).unwrap();
        assert_eq!(output, [0, 254, 255, 0, 0, 2]);
    }

    #[test]
    fn the_same_on_any_thread_count_whatever_the_neighbours() {
        // Hues past the lanes' limit and NaNs among ordinary colors: each
        // color's result is its own, however the pixels are cut.
        let mut values = pixels(Space::Oklch, 20_011, 4, 5);
        for (i, pixel) in values.chunks_mut(4).enumerate() {
            match i % 7 {
                0 => pixel[2] = 1e12 + i as f64,
                3 => pixel[2] = f64::NAN,
                _ => {}
            }
        }
        let mut one = vec![0f64; values.len()];
        convert(&values, &mut one, 4, Space::Oklch, Space::Srgb, Some(1)).unwrap();
        for threads in [2, 3, 8] {
            let mut many = vec![0f64; values.len()];
            convert(
                &values,
                &mut many,
                4,
                Space::Oklch,
                Space::Srgb,
                Some(threads),
            )
            .unwrap();
            assert!(
                one.iter()
                    .zip(&many)
                    .all(|(a, b)| a.to_bits() == b.to_bits()),
                "{threads}"
            );
        }
        // Each color as the scalar path gives it, or (on the lanes) within
        // 1e-12 of it: taken alone, or among any neighbours.
        for (pixel, got) in values.chunks(4).zip(one.chunks(4)) {
            let mut alone = pixel.to_vec();
            convert_in_place(&mut alone, 4, Space::Oklch, Space::Srgb, Some(1)).unwrap();
            assert!(
                alone
                    .iter()
                    .zip(got)
                    .all(|(a, b)| a.to_bits() == b.to_bits()),
                "{pixel:?}"
            );
            let want = convert_one([pixel[0], pixel[1], pixel[2]], Space::Oklch, Space::Srgb);
            for (g, w) in got.iter().zip(want) {
                assert!(
                    g.to_bits() == w.to_bits() || (g - w).abs() <= 1e-12,
                    "{pixel:?}"
                );
            }
        }
    }

    #[test]
    fn bad_shapes_and_types_are_refused() {
        let message = |r: Result<()>| r.unwrap_err().to_string();
        // The message of a conversion to Oklab that is refused.
        let refused = |input: Samples<'_>, output: SamplesMut<'_>, channels, from| {
            message(convert_pixels(
                input,
                output,
                channels,
                from,
                Space::Oklab,
                None,
            ))
        };
        let mut out = [0.0; 6];
        let five = refused(
            Samples::F64(&[0.0; 5]),
            SamplesMut::F64(&mut out[..5]),
            5,
            Space::Srgb,
        );
        assert!(five.contains("not 5"), "{five}");
        let ragged = refused(
            Samples::F64(&[0.0; 5]),
            SamplesMut::F64(&mut out[..5]),
            3,
            Space::Srgb,
        );
        assert!(ragged.contains("not whole pixels"), "{ragged}");
        let short = refused(
            Samples::F64(&[0.0; 3]),
            SamplesMut::F64(&mut out),
            3,
            Space::Srgb,
        );
        assert!(
            short.contains("the output has 6 samples, the input 3"),
            "{short}"
        );
        let bytes = refused(
            Samples::U8(&[0; 6]),
            SamplesMut::F64(&mut out),
            3,
            Space::Linear,
        );
        assert!(
            bytes.contains("8-bit samples hold sRGB only, but the input is linear"),
            "{bytes}"
        );
        let mut narrow = [0u8; 6];
        let bytes = message(convert_pixels_in_place(
            SamplesMut::U8(&mut narrow),
            3,
            Space::Srgb,
            Space::Oklch,
            None,
        ));
        assert!(bytes.contains("the output is oklch"), "{bytes}");
        assert!(
            convert_pixels_in_place(
                SamplesMut::F32(&mut [0.0; 6]),
                3,
                Space::Srgb,
                Space::Oklch,
                Some(0)
            )
            .is_err()
        );
        // Nothing to do is no error.
        convert_pixels_in_place(SamplesMut::F16(&mut []), 4, Space::Srgb, Space::Oklch, None)
            .unwrap();
    }
}
