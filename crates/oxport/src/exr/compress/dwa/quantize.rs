//! DWA's quantizer, as OpenEXR's encoder (`algoQuantize`) does it: a DCT
//! coefficient, rounded to a half, is replaced by the nearby half with the
//! fewest bits set whose distance from it stays below the coefficient's
//! tolerance (the base error times the JPEG table's weight), so that the
//! Huffman coder sees fewer distinct values. The candidates and the order
//! they are tried in are OpenEXR's, which decide ties.

use crate::half;

fn float(h: u32) -> f32 {
    half::to_f32(h as u16)
}

fn bits(x: u32) -> u32 {
    x.count_ones()
}

/// The best candidate so far: the fewest bits, then the smallest distance.
struct Best {
    value: u32,
    bits: u32,
    delta: f32,
    tolerance: f32,
    source: f32,
}

impl Best {
    fn new(abs: u32, tolerance: f32, source: f32) -> Self {
        Best {
            value: abs,
            bits: bits(abs),
            delta: tolerance,
            tolerance,
            source,
        }
    }

    /// OpenEXR's `TEST_QUANT_ALTERNATE_SMALL` (`large`: `_LARGE`): a
    /// candidate below (above) the source.
    fn test(&mut self, alt: u32, large: bool) {
        let delta = || {
            if large {
                float(alt) - self.source
            } else {
                self.source - float(alt)
            }
        };
        let n = bits(alt);
        if n < self.bits {
            let d = delta();
            if d < self.tolerance {
                (self.bits, self.delta, self.value) = (n, d, alt);
            }
        } else if n == self.bits {
            let d = delta();
            if d < self.delta {
                (self.value, self.delta, self.bits) = (alt, d, n);
            }
        }
    }

    fn small(&mut self, alt: u32) {
        self.test(alt, false)
    }

    fn large(&mut self, alt: u32) {
        self.test(alt, true)
    }
}

/// The next power of two above `tolerance`'s significand, as a shift.
fn shift_above(significand: u32) -> u32 {
    32 - significand.leading_zeros()
}

fn denorm_tolerance(abs: u32, significand: u32, tolerance: f32, source: f32) -> u32 {
    let npow2 = 1u32 << shift_above(significand);
    let mask = !(npow2 - 1);
    let mask2 = mask ^ npow2;
    let mut best = Best::new(abs, tolerance, source);
    best.small(abs & mask2);
    best.small(abs & mask);
    best.large((abs + npow2) & mask);
    best.large((abs + (npow2 << 1)) & mask);
    best.value
}

/// `mask ^ npow2`, with the bit above or below flipped by `extra`.
fn mask3(mask2: u32, npow2: u32, extra: bool) -> u32 {
    mask2 ^ if extra { npow2 << 1 } else { npow2 >> 1 }
}

fn generic(abs: u32, significand: u32, tolerance: f32, source: f32) -> u32 {
    let npow2 = 1u32 << shift_above(significand);
    let lower = npow2 - 1;
    let mask = !lower;
    let mask2 = mask ^ npow2;
    let extra = significand > (abs & lower);
    let mask3 = mask3(mask2, npow2, extra);
    let mut best = Best::new(abs, tolerance, source);
    if extra {
        best.small(abs & mask3);
        best.small(abs & mask2);
        best.small(abs & mask);
    } else if abs & npow2 != 0 {
        best.small(abs & mask2);
        best.small(abs & mask3);
        best.small(abs & mask);
    } else {
        best.small(abs & mask2);
        best.small(abs & mask);
        best.small(abs & mask3);
    }
    best.large((abs + npow2) & mask);
    best.value
}

fn equal_exponent(abs: u32, significand: u32, tolerance: f32, source: f32) -> u32 {
    let npow2 = 0x0800u32;
    let lower = npow2 - 1;
    let mask = !lower;
    let mask2 = mask ^ npow2;
    let masked = abs & lower;
    let mask3 = mask3(mask2, npow2, significand > masked);
    let mut best = Best::new(abs, tolerance, source);
    if masked == abs {
        best.small(abs & mask3);
    } else {
        let (mut alt0, alt1) = (abs & mask2, abs & mask);
        if alt0 == alt1 {
            alt0 = abs & mask3;
        }
        best.small(alt0);
        best.small(alt1);
    }
    best.large((abs + npow2) & mask);
    best.value
}

fn close_exponent(abs: u32, significand: u32, tolerance: f32, source: f32) -> u32 {
    let npow2 = 0x0400u32;
    let lower = npow2 - 1;
    let mask = !lower;
    let mask2 = mask ^ npow2;
    let extra = significand > (abs & lower);
    let mask3 = mask3(mask2, npow2, extra);
    let mut alternates = [0u32; 3];
    if abs & npow2 == 0 {
        alternates[..2].copy_from_slice(&if extra {
            [abs & mask3, abs & mask]
        } else {
            [abs & mask, abs & mask3]
        });
    } else if extra {
        alternates[0] = abs & mask3;
        alternates[1] = abs & mask2;
        if source - float(alternates[1]) >= tolerance {
            alternates[1] = abs & mask;
        }
    } else {
        alternates[0] = abs & mask2;
        alternates[1] = abs & mask3;
        if source - float(alternates[0]) >= tolerance {
            alternates[0] = abs & mask;
        }
    }
    alternates[2] = (abs + npow2) & mask;
    let mut best = Best::new(abs, tolerance, source);
    best.small(alternates[0]);
    best.small(alternates[1]);
    best.large(alternates[2]);
    best.value
}

/// OpenEXR's `handleQuantizeLargerSig` and `handleQuantizeSmallerSig`:
/// two candidates, `low` below the source and the rounded-up one.
fn two(abs: u32, low: u32, high: u32, tolerance: f32, source: f32) -> u32 {
    let (bits0, bits1) = (bits(low), bits(high));
    if bits1 < bits0 {
        if float(high) - source < tolerance {
            return high;
        }
        if source - float(low) < tolerance {
            return low;
        }
    } else if bits1 == bits0 {
        let delta = source - float(low);
        let delta1 = float(high) - source;
        if delta < tolerance {
            return if delta1 < delta { high } else { low };
        }
        if delta1 < tolerance {
            return high;
        }
    } else {
        if source - float(low) < tolerance {
            return low;
        }
        if bits1 < bits(abs) && float(high) - source < tolerance {
            return high;
        }
    }
    abs
}

fn equal_significand(abs: u32, npow2: u32, mask: u32, tolerance: f32, source: f32) -> u32 {
    let mut alt0 = abs & mask;
    let alt1 = (abs + npow2) & mask;
    let mut delta0 = source - float(alt0);
    if delta0 >= tolerance {
        alt0 = abs & (mask ^ (npow2 | (npow2 >> 1)));
        delta0 = source - float(alt0);
        if delta0 >= tolerance {
            if float(alt1) - source < tolerance && bits(alt1) < bits(abs) {
                return alt1;
            }
            return abs;
        }
    }
    let (bits0, bits1) = (bits(alt0), bits(alt1));
    if bits1 < bits0 {
        if float(alt1) - source < tolerance {
            return alt1;
        }
    } else if bits1 == bits0 && float(alt1) - source < delta0 {
        return alt1;
    }
    alt0
}

fn default(abs: u32, significand: u32, tolerance: f32, source: f32) -> u32 {
    let npow2 = 1u32 << shift_above(significand);
    let lower = npow2 - 1;
    let mask = !lower;
    let masked = abs & lower;
    if masked > significand {
        let low = abs & (mask ^ (npow2 | (npow2 >> 1)));
        two(abs, low, (abs + npow2) & mask, tolerance, source)
    } else if masked < significand {
        two(abs, abs & mask, (abs + npow2) & mask, tolerance, source)
    } else {
        equal_significand(abs, npow2, mask, tolerance, source)
    }
}

/// The half that stands for the coefficient `src` (a half) with tolerance
/// `tolerance` (and the same as a half, `half_tolerance`).
pub(super) fn quantize(src: u16, half_tolerance: u16, tolerance: f32) -> u16 {
    let src = u32::from(src);
    let half_tolerance = u32::from(half_tolerance);
    let sign = src & 0x8000;
    let abs = src & 0x7fff;
    let source = float(src).abs();
    let src_exponent = src & 0x7c00;
    let tolerance_exponent = half_tolerance & 0x7c00;
    if src_exponent == 0x7c00 {
        return src as u16;
    }
    if source < tolerance {
        return 0;
    }
    // Unsigned, as OpenEXR computes it: a source below the tolerance's
    // exponent wraps, and the shifts then take the count modulo 32 as
    // x86's shift instructions do.
    let difference = src_exponent.wrapping_sub(tolerance_exponent) >> 10;
    let significand = ((half_tolerance & 0x3ff) | (1 << 10)).wrapping_shr(difference);
    if tolerance_exponent == 0 {
        let significand = half_tolerance & 0x3ff;
        if significand == 0 {
            return src as u16;
        }
        if difference == 0 || difference == 1 {
            return (sign | generic(abs, significand, tolerance, source)) as u16;
        }
        let significand = significand.wrapping_shr(difference).max(1);
        return (sign | denorm_tolerance(abs, significand, tolerance, source)) as u16;
    }
    if significand == 0 {
        return src as u16;
    }
    let value = if difference > 1 || src_exponent == 0 {
        default(abs, significand, tolerance, source)
    } else if difference == 0 {
        equal_exponent(abs, significand, tolerance, source)
    } else {
        close_exponent(abs, significand, tolerance, source)
    };
    (sign | value) as u16
}
