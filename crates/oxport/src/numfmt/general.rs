//! General layout: fixed notation for moderate exponents, exponent notation
//! otherwise, as C's `%g` and C++'s `{fmt}` lay numbers out. Blender's MTL
//! writer prints texture options so: with `%g` (an `ostream`) up to 4.0, with
//! `{fmt}`'s `{}` from 4.1.

use super::{write_fixed, write_shortest};

/// Appends `value` as C's `printf("%.{precision}g", value)` of the float
/// widened to a double (glibc's bytes; what an `ostream` writes at its
/// default precision of 6): `precision` significant digits, trailing zeros
/// removed, fixed notation when the decimal exponent `x` of the rounded
/// value is in `-4..precision`, else `d.ddde±xx`.
///
/// # Panics
///
/// If `precision` is 0 or above 6 (the fixed notation then needs up to
/// `precision + 3` decimals, within [`super::MAX_PRECISION`]).
pub fn write_general(out: &mut Vec<u8>, value: f32, precision: usize) {
    assert!(
        (1..=6).contains(&precision),
        "precision {precision} is outside 1..=6"
    );
    let value = f64::from(value);
    if !value.is_finite() {
        return write_fixed(out, value, 0);
    }
    // The exponent after rounding to `precision` digits (Rust's exact
    // formatting rounds half to even, as glibc does).
    let scientific = format!("{value:.prec$e}", prec = precision - 1);
    let (mantissa, exponent) = scientific.split_once('e').expect("{:e} has an exponent");
    let exponent: i32 = exponent.parse().expect("{:e} has a decimal exponent");
    let start = out.len();
    if value == 0.0 || (-4..precision as i32).contains(&exponent) {
        let decimals = (precision as i32 - 1 - exponent).max(0) as usize;
        write_fixed(out, value, decimals);
        strip_zeros(out, start);
    } else {
        out.extend_from_slice(mantissa.as_bytes());
        strip_zeros(out, start);
        write_exponent(out, exponent);
    }
}

/// Appends `value` as `{fmt}`'s `fmt::format("{}", value)` of a float: the
/// shortest digits that read back as `value`, in fixed notation when the
/// decimal exponent is in `-4..16`, else `d.ddde±xx` (`1e-05`, `1.5e+16`);
/// no `.0` after an integer.
pub fn write_general_shortest(out: &mut Vec<u8>, value: f32) {
    if !value.is_finite() {
        out.extend_from_slice(if value.is_nan() {
            b"nan"
        } else if value > 0.0 {
            b"inf"
        } else {
            b"-inf"
        });
        return;
    }
    let mut text = Vec::new();
    write_shortest(&mut text, value.abs());
    // The digits and the decimal exponent of the first one.
    let (mantissa, exponent) = match text.iter().position(|&b| b == b'e') {
        Some(e) => (&text[..e], parse_exponent(&text[e + 1..])),
        None => (&text[..], 0),
    };
    let point = mantissa
        .iter()
        .position(|&b| b == b'.')
        .unwrap_or(mantissa.len());
    let digits: Vec<u8> = mantissa.iter().copied().filter(|&b| b != b'.').collect();
    let leading = digits.iter().take_while(|&&b| b == b'0').count();
    if value.is_sign_negative() {
        out.push(b'-');
    }
    if leading == digits.len() {
        out.push(b'0');
        return;
    }
    let digits = &digits[leading..];
    let digits = &digits[..digits.iter().rposition(|&b| b != b'0').map_or(0, |i| i + 1)];
    let exponent = exponent + point as i32 - 1 - leading as i32;
    if (-4..16).contains(&exponent) {
        if exponent < 0 {
            out.extend_from_slice(b"0.");
            out.extend(std::iter::repeat_n(b'0', (-exponent - 1) as usize));
            out.extend_from_slice(digits);
        } else {
            let integer = exponent as usize + 1;
            if digits.len() <= integer {
                out.extend_from_slice(digits);
                out.extend(std::iter::repeat_n(b'0', integer - digits.len()));
            } else {
                out.extend_from_slice(&digits[..integer]);
                out.push(b'.');
                out.extend_from_slice(&digits[integer..]);
            }
        }
    } else {
        out.push(digits[0]);
        if digits.len() > 1 {
            out.push(b'.');
            out.extend_from_slice(&digits[1..]);
        }
        write_exponent(out, exponent);
    }
}

fn parse_exponent(text: &[u8]) -> i32 {
    std::str::from_utf8(text)
        .ok()
        .and_then(|t| t.parse().ok())
        .expect("a shortest float's exponent is a decimal integer")
}

/// Removes the trailing zeros of the decimals written since `start`, and the
/// point when no decimal is left.
fn strip_zeros(out: &mut Vec<u8>, start: usize) {
    if out[start..].contains(&b'.') {
        while out.last() == Some(&b'0') {
            out.pop();
        }
        if out.last() == Some(&b'.') {
            out.pop();
        }
    }
}

/// `e+05`, `e-12`, `e+123`: a sign and at least two digits.
fn write_exponent(out: &mut Vec<u8>, exponent: i32) {
    out.push(b'e');
    out.push(if exponent < 0 { b'-' } else { b'+' });
    let magnitude = exponent.unsigned_abs();
    if magnitude < 10 {
        out.push(b'0');
    }
    super::write_u32(out, magnitude);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shortest(value: f32) -> String {
        let mut out = Vec::new();
        write_general_shortest(&mut out, value);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn shortest_digits_in_fmts_layout() {
        // fmt::format("{}", x) for these floats.
        let cases: [(f32, &str); 16] = [
            (0.0, "0"),
            (-0.0, "-0"),
            (1.0, "1"),
            (2.0, "2"),
            (1.510138, "1.510138"),
            (0.76377463, "0.76377463"),
            (-0.25, "-0.25"),
            (100.0, "100"),
            (0.0001, "0.0001"),
            (0.00001, "1e-05"),
            (1.5e-7, "1.5e-07"),
            (123456.79, "123456.79"),
            (1e15, "1000000000000000"),
            (1e16, "1e+16"),
            (3.4028235e38, "3.4028235e+38"),
            (f32::MIN_POSITIVE, "1.1754944e-38"),
        ];
        for (value, expected) in cases {
            assert_eq!(shortest(value), expected, "{value:e}");
        }
    }

    #[test]
    fn shortest_text_reads_back() {
        let mut state = 0x9e37_79b9_u32;
        for _ in 0..100_000 {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            let value = f32::from_bits(state);
            if value.is_finite() {
                assert_eq!(
                    shortest(value).parse::<f32>().unwrap().to_bits(),
                    value.to_bits()
                );
            }
        }
    }
}
