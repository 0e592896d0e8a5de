//! Fixed precision: the bytes of C's `printf("%.Nf")` (glibc), without the locale.
//!
//! A finite float is `m * 2^e` exactly. The text with `p` decimals is the
//! integer `round(|m * 2^e| * 10^p)`, rounded to nearest with exact ties to
//! even (glibc's default rounding mode), with a `.` put in front of its last
//! `p` digits. For `f32` the product `m * 10^p` stays below 2^54, so one
//! 64-bit multiply and shift give the exact rounded integer; `f64` needs 128
//! bits, and integers beyond 2^128 take a slow exact path through a small
//! big-integer division.

use super::DIGIT_PAIRS;

/// The largest number of decimals supported: `10^9 * 2^53` still fits in 128 bits.
pub const MAX_PRECISION: usize = 9;

const POW10: [u64; MAX_PRECISION + 1] = [
    1,
    10,
    100,
    1_000,
    10_000,
    100_000,
    1_000_000,
    10_000_000,
    100_000_000,
    1_000_000_000,
];

/// `f32` or `f64`.
pub trait FixedFloat: Copy + sealed::Sealed {
    #[doc(hidden)]
    fn write_fixed(self, out: &mut Vec<u8>, precision: usize);
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for f32 {}
    impl Sealed for f64 {}
}

/// Appends `value` with `precision` decimals, byte-identical to glibc's
/// `printf("%.{precision}f", value)`: `-0.000000` for negative values that
/// round to zero, every integer digit of large values, `nan`, `-nan`, `inf`
/// and `-inf` for the special values.
///
/// # Panics
///
/// If `precision > MAX_PRECISION`.
#[inline]
pub fn write_fixed<F: FixedFloat>(out: &mut Vec<u8>, value: F, precision: usize) {
    assert!(
        precision <= MAX_PRECISION,
        "precision {precision} is above the maximum of {MAX_PRECISION}"
    );
    value.write_fixed(out, precision);
}

impl FixedFloat for f32 {
    #[inline]
    fn write_fixed(self, out: &mut Vec<u8>, precision: usize) {
        let bits = self.to_bits();
        let negative = bits >> 31 != 0;
        let biased = ((bits >> 23) & 0xff) as i32;
        let fraction = u64::from(bits & 0x7f_ffff);
        if biased == 0xff {
            return write_special(out, negative, fraction != 0);
        }
        let (mantissa, exponent) = if biased == 0 {
            (fraction, -149)
        } else {
            (fraction | 1 << 23, biased - 150)
        };
        if exponent >= 0 {
            // An integer below 2^128.
            let integer = u128::from(mantissa) << exponent;
            return write_integer_u128(out, negative, integer, precision);
        }
        // `mantissa * 10^precision < 2^24 * 10^9 < 2^54`: exact in 64 bits.
        let scaled = mantissa * POW10[precision];
        let q = round_shift_u64(scaled, exponent.unsigned_abs());
        write_scaled_u64(out, negative, q, precision);
    }
}

impl FixedFloat for f64 {
    #[inline]
    fn write_fixed(self, out: &mut Vec<u8>, precision: usize) {
        let bits = self.to_bits();
        let negative = bits >> 63 != 0;
        let biased = ((bits >> 52) & 0x7ff) as i32;
        let fraction = bits & 0xf_ffff_ffff_ffff;
        if biased == 0x7ff {
            return write_special(out, negative, fraction != 0);
        }
        let (mantissa, exponent) = if biased == 0 {
            (fraction, -1074)
        } else {
            (fraction | 1 << 52, biased - 1075)
        };
        if exponent >= 0 {
            if exponent <= 128 - 53 {
                let integer = u128::from(mantissa) << exponent;
                return write_integer_u128(out, negative, integer, precision);
            }
            return write_integer_big(out, negative, mantissa, exponent as u32, precision);
        }
        // `mantissa * 10^precision < 2^53 * 10^9 < 2^83`: exact in 128 bits.
        let scaled = u128::from(mantissa) * u128::from(POW10[precision]);
        let q = round_shift_u128(scaled, exponent.unsigned_abs());
        match u64::try_from(q) {
            Ok(q) => write_scaled_u64(out, negative, q, precision),
            Err(_) => write_scaled_u128(out, negative, q, precision),
        }
    }
}

/// `value / 2^shift` rounded to nearest, ties to even.
#[inline]
fn round_shift_u64(value: u64, shift: u32) -> u64 {
    if shift >= 64 {
        // value < 2^54 <= 2^(shift - 10): far below one half.
        return 0;
    }
    let q = value >> shift;
    let rest = value & ((1u64 << shift) - 1);
    let half = 1u64 << (shift - 1);
    q + u64::from(rest > half || (rest == half && q & 1 == 1))
}

/// `value / 2^shift` rounded to nearest, ties to even.
#[inline]
fn round_shift_u128(value: u128, shift: u32) -> u128 {
    if shift >= 128 {
        // value < 2^83: far below one half.
        return 0;
    }
    let q = value >> shift;
    let rest = value & ((1u128 << shift) - 1);
    let half = 1u128 << (shift - 1);
    q + u128::from(rest > half || (rest == half && q & 1 == 1))
}

#[cold]
fn write_special(out: &mut Vec<u8>, negative: bool, nan: bool) {
    if negative {
        out.push(b'-');
    }
    out.extend_from_slice(if nan { b"nan" } else { b"inf" });
}

/// Appends `q / 10^precision` with exactly `precision` decimals.
#[inline]
fn write_scaled_u64(out: &mut Vec<u8>, negative: bool, mut q: u64, precision: usize) {
    // Sign, 20 digits of a u64, the point.
    let mut buf = [0u8; 24];
    let mut pos = buf.len();
    let mut decimals = precision;
    while decimals >= 2 {
        let pair = DIGIT_PAIRS[(q % 100) as usize];
        q /= 100;
        pos -= 2;
        buf[pos..pos + 2].copy_from_slice(&pair);
        decimals -= 2;
    }
    if decimals == 1 {
        pos -= 1;
        buf[pos] = b'0' + (q % 10) as u8;
        q /= 10;
    }
    if precision > 0 {
        pos -= 1;
        buf[pos] = b'.';
    }
    while q >= 100 {
        let pair = DIGIT_PAIRS[(q % 100) as usize];
        q /= 100;
        pos -= 2;
        buf[pos..pos + 2].copy_from_slice(&pair);
    }
    if q >= 10 {
        pos -= 2;
        buf[pos..pos + 2].copy_from_slice(&DIGIT_PAIRS[q as usize]);
    } else {
        pos -= 1;
        buf[pos] = b'0' + q as u8;
    }
    if negative {
        pos -= 1;
        buf[pos] = b'-';
    }
    out.extend_from_slice(&buf[pos..]);
}

/// Appends `q / 10^precision` with exactly `precision` decimals, for `q >= 2^64`.
#[cold]
fn write_scaled_u128(out: &mut Vec<u8>, negative: bool, q: u128, precision: usize) {
    let divisor = u128::from(POW10[precision]);
    let integer = q / divisor;
    let decimals = (q % divisor) as u64;
    if negative {
        out.push(b'-');
    }
    out.extend_from_slice(itoa::Buffer::new().format(integer).as_bytes());
    write_decimals(out, decimals, precision);
}

/// Appends `.` and `decimals` zero-padded to `precision` digits (nothing when `precision == 0`).
fn write_decimals(out: &mut Vec<u8>, decimals: u64, precision: usize) {
    if precision > 0 {
        out.push(b'.');
        let digits = itoa::Buffer::new().format(decimals).len();
        out.resize(out.len() + (precision - digits), b'0');
        out.extend_from_slice(itoa::Buffer::new().format(decimals).as_bytes());
    }
}

/// Appends an integral value followed by `precision` zero decimals.
#[inline]
fn write_integer_u128(out: &mut Vec<u8>, negative: bool, integer: u128, precision: usize) {
    if negative {
        out.push(b'-');
    }
    out.extend_from_slice(itoa::Buffer::new().format(integer).as_bytes());
    write_decimals(out, 0, precision);
}

/// Appends `mantissa * 2^exponent` (up to 2^1024, 309 digits) in full, then
/// `precision` zero decimals. Rare, so it is plain schoolbook arithmetic on
/// 32-bit limbs: shift, then divide by 10^9 repeatedly.
#[cold]
fn write_integer_big(
    out: &mut Vec<u8>,
    negative: bool,
    mantissa: u64,
    exponent: u32,
    precision: usize,
) {
    // Little-endian 32-bit limbs of mantissa << exponent: at most 1024 bits.
    let mut limbs = [0u32; 33];
    let word = (exponent / 32) as usize;
    let bit = exponent % 32;
    let wide = u128::from(mantissa) << bit;
    for (i, limb) in limbs[word..word + 3].iter_mut().enumerate() {
        *limb = (wide >> (32 * i)) as u32;
    }
    let mut len = word + 3;
    // Groups of nine digits, least significant first.
    let mut groups = [0u32; 36];
    let mut count = 0;
    while len > 0 {
        let mut rest = 0u64;
        for limb in limbs[..len].iter_mut().rev() {
            let current = (rest << 32) | u64::from(*limb);
            *limb = (current / 1_000_000_000) as u32;
            rest = current % 1_000_000_000;
        }
        groups[count] = rest as u32;
        count += 1;
        while len > 0 && limbs[len - 1] == 0 {
            len -= 1;
        }
    }
    if negative {
        out.push(b'-');
    }
    let mut first = true;
    for &group in groups[..count].iter().rev() {
        let text = itoa::Buffer::new().format(group).len();
        if !first {
            out.resize(out.len() + (9 - text), b'0');
        }
        out.extend_from_slice(itoa::Buffer::new().format(group).as_bytes());
        first = false;
    }
    write_decimals(out, 0, precision);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixed<F: FixedFloat>(value: F, precision: usize) -> String {
        let mut out = Vec::new();
        write_fixed(&mut out, value, precision);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn ties_go_to_even() {
        assert_eq!(fixed(0.0078125f32, 6), "0.007812");
        assert_eq!(fixed(0.0234375f32, 6), "0.023438");
        assert_eq!(fixed(0.5f64, 0), "0");
        assert_eq!(fixed(1.5f64, 0), "2");
        assert_eq!(fixed(2.5f32, 0), "2");
    }

    #[test]
    fn negative_zero_keeps_its_sign() {
        assert_eq!(fixed(-0.0f32, 6), "-0.000000");
        assert_eq!(fixed(-0.0000001f64, 4), "-0.0000");
        assert_eq!(fixed(0.0f64, 0), "0");
    }

    #[test]
    fn special_values() {
        assert_eq!(fixed(f32::INFINITY, 6), "inf");
        assert_eq!(fixed(f64::NEG_INFINITY, 2), "-inf");
        assert_eq!(fixed(f32::NAN, 6), "nan");
        assert_eq!(fixed(-f64::NAN, 6), "-nan");
    }

    #[test]
    fn large_values_print_every_digit() {
        assert_eq!(
            fixed(f32::MAX, 1),
            "340282346638528859811704183484516925440.0"
        );
        assert_eq!(fixed(1e22f64, 0), "10000000000000000000000");
        let max = fixed(f64::MAX, 2);
        assert!(max.starts_with("179769313486231570814527423731704356798070567525844996598917476803157260780028538760589558632766878171540458953514382464234321326889464182768467546703537516986049910576551282076245490090389328944075868508455133942304583236903222948165808559332123348274797826204144723168738177180919299881250404026184124858368.00"));
        assert_eq!(max.len(), 309 + 3);
    }

    #[test]
    #[should_panic(expected = "precision 10")]
    fn precision_above_nine_is_refused() {
        fixed(1.0f32, 10);
    }
}
