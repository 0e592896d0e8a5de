//! Formats arbitrary floats and parses the text back: fixed precision must be
//! within half a unit of the last decimal of the exact value (and equal to
//! Rust's own correctly rounded `{:.N}` apart from the sign of zero and ties),
//! shortest must read back bit for bit.
//! `cargo +nightly fuzz run numfmt` in `fuzz/`.

use oxport::numfmt;

/// One input: the checks the module describes (a panic is a failure).
pub fn run(data: &[u8]) {
    if data.len() < 9 {
        return;
    }
    let precision = usize::from(data[0] % 10);
    let bits = u64::from_le_bytes(data[1..9].try_into().unwrap());
    let mut out = Vec::new();

    let value = f64::from_bits(bits);
    numfmt::write_fixed(&mut out, value, precision);
    check_fixed(&out, value, precision);

    let single = f32::from_bits(bits as u32);
    out.clear();
    numfmt::write_fixed(&mut out, single, precision);
    check_fixed(&out, f64::from(single), precision);

    out.clear();
    numfmt::write_shortest(&mut out, value);
    let text = std::str::from_utf8(&out).unwrap();
    if value.is_finite() {
        assert_eq!(text.parse::<f64>().unwrap().to_bits(), bits, "{text}");
    }
    out.clear();
    numfmt::write_shortest(&mut out, single);
    let text = std::str::from_utf8(&out).unwrap();
    if single.is_finite() {
        assert_eq!(
            text.parse::<f32>().unwrap().to_bits(),
            single.to_bits(),
            "{text}"
        );
    }
}

fn check_fixed(out: &[u8], value: f64, precision: usize) {
    let text = std::str::from_utf8(out).unwrap();
    if !value.is_finite() {
        let expected = match (value.is_nan(), value.is_sign_negative()) {
            (true, false) => "nan",
            (true, true) => "-nan",
            (false, false) => "inf",
            (false, true) => "-inf",
        };
        assert_eq!(text, expected);
        return;
    }
    // Rust's `{:.N}` is correctly rounded with ties to even too; it differs
    // only in printing `-0.00` for -0.0 and tiny negatives the same way.
    let rust = format!("{value:.precision$}");
    assert_eq!(text, rust, "{value:e} at {precision}");
    let decimals = text.split('.').nth(1).map_or(0, str::len);
    assert_eq!(decimals, precision, "{text}");
}
