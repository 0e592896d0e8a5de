//! glibc's `snprintf` as the independent reference for fixed-precision
//! formatting. On Windows, mingw-w64's own C99 `snprintf` (the C runtime's
//! rounds ties away from zero, where C99 and glibc take the exact binary
//! value).

#![allow(dead_code)]

use std::ffi::CStr;
#[cfg(windows)]
use std::ffi::{c_char, c_int};

#[cfg(not(windows))]
use libc::snprintf;

#[cfg(windows)]
unsafe extern "C" {
    #[link_name = "__mingw_snprintf"]
    fn snprintf(buf: *mut c_char, size: usize, format: *const c_char, ...) -> c_int;
}

const FORMATS: [&CStr; 10] = [
    c"%.0f", c"%.1f", c"%.2f", c"%.3f", c"%.4f", c"%.5f", c"%.6f", c"%.7f", c"%.8f", c"%.9f",
];

/// `snprintf(buf, n, "%.{precision}f", value)` through the C library.
pub fn c_fixed(value: f64, precision: usize) -> Vec<u8> {
    let mut buf = [0u8; 400];
    signed_nan(value, c_fixed_into(value, precision, &mut buf).to_vec())
}

/// [`c_fixed`] into a caller's buffer, without allocating.
pub fn c_fixed_into(value: f64, precision: usize, buf: &mut [u8; 400]) -> &[u8] {
    // SAFETY: the buffer holds any double with up to 9 decimals (309 integer
    // digits, sign, point, decimals), and snprintf bounds its writes anyway.
    let n = unsafe {
        snprintf(
            buf.as_mut_ptr().cast(),
            buf.len(),
            FORMATS[precision].as_ptr(),
            value,
        )
    };
    assert!(n >= 0 && (n as usize) < buf.len());
    &buf[..n as usize]
}

/// glibc prints a NaN's sign ("-nan"); mingw-w64 leaves it out.
fn signed_nan(value: f64, text: Vec<u8>) -> Vec<u8> {
    if cfg!(windows) && value.is_nan() && value.is_sign_negative() && text[0] != b'-' {
        [b"-".as_slice(), &text].concat()
    } else {
        text
    }
}

const GENERAL: [&CStr; 7] = [
    c"%.0g", c"%.1g", c"%.2g", c"%.3g", c"%.4g", c"%.5g", c"%.6g",
];

/// `snprintf(buf, n, "%.{precision}g", value)` through the C library.
pub fn c_general(value: f64, precision: usize) -> Vec<u8> {
    let mut buf = [0u8; 400];
    // SAFETY: as in `c_fixed_into`: %g writes far fewer bytes than %f.
    let n = unsafe {
        snprintf(
            buf.as_mut_ptr().cast(),
            buf.len(),
            GENERAL[precision].as_ptr(),
            value,
        )
    };
    assert!(n >= 0 && (n as usize) < buf.len());
    signed_nan(value, buf[..n as usize].to_vec())
}

pub fn fixed<F: oxport::numfmt::FixedFloat>(value: F, precision: usize) -> Vec<u8> {
    let mut out = Vec::new();
    oxport::numfmt::write_fixed(&mut out, value, precision);
    out
}
