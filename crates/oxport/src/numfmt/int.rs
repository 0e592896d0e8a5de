//! Integers to decimal text (the `itoa` crate).

/// Appends `value` in decimal.
#[inline]
pub fn write_u32(out: &mut Vec<u8>, value: u32) {
    out.extend_from_slice(itoa::Buffer::new().format(value).as_bytes());
}

/// Appends `value` in decimal.
#[inline]
pub fn write_u64(out: &mut Vec<u8>, value: u64) {
    out.extend_from_slice(itoa::Buffer::new().format(value).as_bytes());
}

/// Appends `value` in decimal, with a `-` when negative.
#[inline]
pub fn write_i64(out: &mut Vec<u8>, value: i64) {
    out.extend_from_slice(itoa::Buffer::new().format(value).as_bytes());
}
