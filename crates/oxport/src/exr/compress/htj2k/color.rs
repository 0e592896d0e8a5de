//! Between a component's decoded integers and OpenEXR's samples: the
//! reversible color transform over components 0 to 2 (ITU-T T.800 G.2),
//! the DC level shift of unsigned components, and NLT's binary complement
//! (T.801), which makes the bit patterns of negative halves and floats
//! (sign and magnitude) into integers that order as the values do.

use super::markers::Component;
use super::wavelet::Coefficient;

/// Undoes the reversible color transform: `y0`, `y1`, `y2` become the
/// components 0, 1 and 2 (R, G and B as OpenEXR maps them).
pub(super) fn inverse_rct<T: Coefficient>(y0: &mut [T], y1: &mut [T], y2: &mut [T]) {
    for ((a, b), c) in y0.iter_mut().zip(y1.iter_mut()).zip(y2.iter_mut()) {
        let green = a.sub(b.add(*c).shr(2));
        (*a, *b, *c) = (c.add(green), green, b.add(green));
    }
}

/// The reversible color transform of components 0, 1 and 2, in place.
pub(super) fn forward_rct<T: Coefficient>(i0: &mut [T], i1: &mut [T], i2: &mut [T]) {
    for ((a, b), c) in i0.iter_mut().zip(i1.iter_mut()).zip(i2.iter_mut()) {
        (*a, *b, *c) = (a.add(b.add(*b)).add(*c).shr(2), c.sub(*b), a.sub(*b));
    }
}

/// How a component's integers map to its samples.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Samples {
    /// Bits per sample.
    pub(super) depth: u8,
    pub(super) signed: bool,
    /// NLT's binary complement (for signed samples).
    pub(super) complement: bool,
}

impl Samples {
    /// How `component`'s integers map to its samples.
    pub(super) fn of(component: &Component) -> Self {
        Samples {
            depth: component.depth,
            signed: component.signed,
            complement: component.complement,
        }
    }

    /// The sample a decoded integer stands for (its bit pattern as a
    /// two's-complement integer of `depth` bits, for half and float).
    #[inline(always)]
    pub(super) fn sample(self, value: i64) -> i64 {
        self.complemented(value) + self.offset()
    }

    /// The integer a sample is coded as: the inverse of [`Samples::sample`].
    #[inline(always)]
    pub(super) fn integer(self, sample: i64) -> i64 {
        self.complemented(sample) - self.offset()
    }

    /// [`Samples::sample`] of a 16-bit component's decoded integer, in
    /// 32-bit arithmetic (which vectorizes twice as wide): the low 16 bits
    /// are the same, so the arithmetic wraps (a damaged stream may decode
    /// to any 32-bit integer).
    #[inline(always)]
    pub(super) fn sample16(self, value: i32) -> i16 {
        let half = 1i32 << 15;
        let negative = (value >> 31) & -i32::from(self.signed && self.complement);
        let offset = if self.signed { 0 } else { half };
        (value ^ negative)
            .wrapping_sub(negative & half)
            .wrapping_add(offset) as i16
    }

    /// [`Samples::integer`] of a 16-bit component's sample, in 32-bit
    /// arithmetic (which vectorizes twice as wide): the inverse of
    /// [`Samples::sample16`].
    #[inline(always)]
    pub(super) fn integer16(self, sample: i16) -> i32 {
        let half = 1i32 << 15;
        let value = i32::from(sample);
        let negative = (value >> 31) & -i32::from(self.signed && self.complement);
        let offset = if self.signed { 0 } else { half };
        (value ^ negative) - (negative & half) - offset
    }

    /// NLT's binary complement where it applies: a negative `value`
    /// becomes `-value - 2^(depth - 1) - 1`, without a branch (so that a
    /// row of them vectorizes).
    #[inline(always)]
    fn complemented(self, value: i64) -> i64 {
        let half = 1i64 << (self.depth - 1);
        let negative = (value >> 63) & -i64::from(self.signed && self.complement);
        (value ^ negative) - (negative & half)
    }

    /// The DC level shift of unsigned samples.
    #[inline(always)]
    fn offset(self) -> i64 {
        if self.signed {
            0
        } else {
            1i64 << (self.depth - 1)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sixteen_bit_samples_come_out_as_the_wide_arithmetic_gives_them() {
        for (signed, complement) in [(true, true), (true, false), (false, false)] {
            let samples = Samples {
                depth: 16,
                signed,
                complement,
            };
            for value in (-70_000..70_000)
                .step_by(7)
                .chain([i32::MIN, i32::MAX, -1, 0])
            {
                assert_eq!(
                    samples.sample16(value),
                    samples.sample(i64::from(value)) as i16,
                    "{value} {samples:?}"
                );
            }
        }
    }

    #[test]
    fn sixteen_bit_integers_are_the_wide_arithmetics() {
        for (signed, complement) in [(true, true), (true, false), (false, false)] {
            let samples = Samples {
                depth: 16,
                signed,
                complement,
            };
            for sample in i16::MIN..=i16::MAX {
                let integer = samples.integer16(sample);
                assert_eq!(
                    i64::from(integer),
                    samples.integer(i64::from(sample)),
                    "{sample} {samples:?}"
                );
                assert_eq!(samples.sample16(integer), sample, "{sample} {samples:?}");
            }
        }
    }

    #[test]
    fn the_color_transform_goes_back_exactly() {
        let values: Vec<i64> = (-40..40).map(|v| v * 12_345_679 % 1_000_003).collect();
        for shift in 0..values.len() {
            let r: Vec<i64> = values.clone();
            let g: Vec<i64> = values
                .iter()
                .cycle()
                .skip(shift)
                .take(values.len())
                .copied()
                .collect();
            let b: Vec<i64> = values.iter().rev().map(|v| v * 3 - 7).collect();
            let (mut y0, mut y1, mut y2) = (r.clone(), g.clone(), b.clone());
            forward_rct(&mut y0, &mut y1, &mut y2);
            assert_eq!(y1[0], b[0] - g[0]);
            inverse_rct(&mut y0, &mut y1, &mut y2);
            assert_eq!((y0, y1, y2), (r.clone(), g, b));
        }
    }

    #[test]
    fn negative_floats_order_as_their_values() {
        let half = Samples {
            depth: 16,
            signed: true,
            complement: true,
        };
        // -0.0, the smallest negative subnormal, -1.0, -infinity: bit
        // patterns read as i16.
        let patterns: Vec<i64> = [0x8000u16, 0x8001, 0xBC00, 0xFC00]
            .iter()
            .map(|&p| i64::from(p as i16))
            .collect();
        let coded: Vec<i64> = patterns.iter().map(|&p| half.integer(p)).collect();
        assert_eq!(coded, [-1, -2, -15361, -31745]);
        for (&p, &c) in patterns.iter().zip(&coded) {
            assert_eq!(half.sample(c), p);
        }
        // Positive ones and unsigned integers.
        assert_eq!(half.integer(0x3C00), 0x3C00);
        let uint = Samples {
            depth: 32,
            signed: false,
            complement: false,
        };
        assert_eq!(uint.integer(0), -(1 << 31));
        assert_eq!(uint.sample(uint.integer(u32::MAX as i64)), u32::MAX as i64);
        let float = Samples {
            depth: 32,
            signed: true,
            complement: true,
        };
        let minus_one = i64::from(0xBF80_0000u32 as i32);
        assert_eq!(float.sample(float.integer(minus_one)), minus_one);
        assert!(float.integer(minus_one) < float.integer(i64::from(0x8000_0000u32 as i32)));
    }
}
