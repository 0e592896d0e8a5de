//! glibc's `snprintf` as the independent reference for fixed-precision formatting.

#![allow(dead_code)]

use std::ffi::CString;

/// `snprintf(buf, n, "%.{precision}f", value)` through the C library.
pub fn c_fixed(value: f64, precision: usize) -> Vec<u8> {
    let format = CString::new(format!("%.{precision}f")).unwrap();
    let mut buf = vec![0u8; 400];
    // SAFETY: the buffer is large enough for any double with up to 9 decimals
    // (309 integer digits, sign, point, decimals), and snprintf bounds its writes anyway.
    let n = unsafe { libc::snprintf(buf.as_mut_ptr().cast(), buf.len(), format.as_ptr(), value) };
    assert!(n >= 0 && (n as usize) < buf.len());
    buf.truncate(n as usize);
    buf
}

pub fn fixed<F: oxport::numfmt::FixedFloat>(value: F, precision: usize) -> Vec<u8> {
    let mut out = Vec::new();
    oxport::numfmt::write_fixed(&mut out, value, precision);
    out
}
