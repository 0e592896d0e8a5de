//! A fused multiply-add rounded once, on every target: the `Fused` order
//! reproduces OpenEXR's aarch64 build, whose `fmadd` instructions round
//! `a·b + c` once. `f32::mul_add` is that instruction on aarch64, but
//! elsewhere it calls the C library's `fmaf`, and MinGW-w64's rounds twice
//! in some cases, so other targets compute it here: in f64 the product is
//! exact (24 + 24 significant bits) and the sum is off by at most half an
//! f64 step, which changes the f32 rounding only when the f64 sum falls
//! exactly halfway between two f32 values. Then the sum's exact error
//! (Knuth's two-sum) says which way the true value lies.

pub(super) trait Fma {
    /// `self·b + c`, rounded once to the nearest f32 (ties to even).
    fn fma(self, b: f32, c: f32) -> f32;
}

impl Fma for f32 {
    #[cfg(target_arch = "aarch64")]
    #[inline(always)]
    fn fma(self, b: f32, c: f32) -> f32 {
        self.mul_add(b, c)
    }

    #[cfg(not(target_arch = "aarch64"))]
    #[inline]
    fn fma(self, b: f32, c: f32) -> f32 {
        let product = f64::from(self) * f64::from(b);
        let addend = f64::from(c);
        let sum = product + addend;
        let rounded = sum as f32;
        if !sum.is_finite() || f64::from(rounded) == sum {
            return rounded;
        }
        let other = if f64::from(rounded) < sum {
            rounded.next_up()
        } else {
            rounded.next_down()
        };
        // The mean of two neighbouring f32 values is exact in f64.
        if (f64::from(rounded) + f64::from(other)) / 2.0 != sum {
            return rounded;
        }
        let virtual_addend = sum - product;
        let error = (product - (sum - virtual_addend)) + (addend - virtual_addend);
        if error != 0.0 && (error > 0.0) == (f64::from(other) > sum) {
            other
        } else {
            rounded
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Fma;

    /// `a.fma(b, c)`, checked against the exact `a·b + c`: all three
    /// scaled to integers (operands within a few octaves of one).
    fn checked(a: f32, b: f32, c: f32) -> f32 {
        // Every finite f32 is m·2^e; the shifts make each an integer.
        let as_int = |x: f32, shift: i32| -> i128 {
            let bits = x.to_bits();
            let exponent = ((bits >> 23) & 0xff) as i32;
            let mantissa = i128::from(bits & 0x7f_ffff);
            let (m, e) = if exponent == 0 {
                (mantissa, -149)
            } else {
                (mantissa | 0x80_0000, exponent - 150)
            };
            let magnitude = if m == 0 { 0 } else { m << (e + shift) };
            if bits >> 31 == 1 {
                -magnitude
            } else {
                magnitude
            }
        };
        let target = as_int(a, 50) * as_int(b, 50) + as_int(c, 100);
        let candidate = a.fma(b, c);
        if target == 0 {
            assert_eq!(candidate, 0.0, "{a}·{b} + {c}");
            return candidate;
        }
        let distance = |x: f32| (as_int(x, 100) - target).abs();
        for neighbour in [candidate.next_down(), candidate.next_up()] {
            let (d, dc) = (distance(neighbour), distance(candidate));
            assert!(
                d > dc || (d == dc && candidate.to_bits() & 1 == 0),
                "{a}·{b} + {c}: {candidate} is not the nearest"
            );
        }
        candidate
    }

    #[test]
    fn sums_halfway_in_f64_round_by_the_true_value() {
        let p = |e: i32| 2f32.powi(e);
        // 1 + 2^-24 + 2^-60 (2^36 + 1 = 4097 · 16773121): the f64 sum
        // drops 2^-60 and lands halfway, whose tie would go down to 1.
        let up = checked(1.0 + p(-12), 16_773_121.0 * p(-48), 1.0);
        assert_eq!(up, 1.0 + p(-23));
        // 1 + 3·2^-24 − 2^-60: halfway again, whose tie would go up.
        let down = checked(1.0 + p(-18), (1.0 - p(-18)) * p(-24), 1.0 + p(-23));
        assert_eq!(down, 1.0 + p(-23));
    }

    #[test]
    fn random_operands_round_once() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for _ in 0..200_000 {
            let r = next();
            // Exponents within ±8 of one, so that `checked` stays in i128.
            let value = |bits: u64| {
                let sign = (bits & 1) << 31;
                let exponent = 119 + (bits >> 1) % 16;
                f32::from_bits((sign | exponent << 23 | (bits >> 5) & 0x7f_ffff) as u32)
            };
            let (a, b) = (value(r), value(r >> 28));
            // The addend near the product, so that they cancel or tie.
            let c = -(a * b) + value(next()) * 2f32.powi(-20);
            checked(a, b, c);
        }
    }
}
