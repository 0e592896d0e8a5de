//! The shortest text that parses back to the same float (the `zmij` crate).

/// `f32` or `f64`.
pub trait ShortestFloat: Copy + sealed::Sealed {
    #[doc(hidden)]
    fn format_shortest(self, buffer: &mut zmij::Buffer) -> &str;
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for f32 {}
    impl Sealed for f64 {}
}

impl ShortestFloat for f32 {
    #[inline]
    fn format_shortest(self, buffer: &mut zmij::Buffer) -> &str {
        buffer.format(self)
    }
}

impl ShortestFloat for f64 {
    #[inline]
    fn format_shortest(self, buffer: &mut zmij::Buffer) -> &str {
        buffer.format(self)
    }
}

/// Appends the shortest decimal text that reads back as exactly `value`
/// (`1.5`, `0.1`, `1e-7`; NaN is `NaN`, infinities `inf` and `-inf`).
#[inline]
pub fn write_shortest<F: ShortestFloat>(out: &mut Vec<u8>, value: F) {
    let mut buffer = zmij::Buffer::new();
    out.extend_from_slice(value.format_shortest(&mut buffer).as_bytes());
}
