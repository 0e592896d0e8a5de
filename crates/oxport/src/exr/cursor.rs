//! Reads from untrusted bytes, little-endian as OpenEXR stores numbers (and
//! big-endian for the JPEG 2000 codestreams inside HTJ2K chunks): every read
//! is bounds-checked and an error says what was being read and at which byte.

use crate::{Error, Result};

/// A position in a byte slice that starts at `base` in the file.
pub(crate) struct Cursor<'a> {
    bytes: &'a [u8],
    pos: usize,
    base: u64,
}

impl<'a> Cursor<'a> {
    pub(crate) fn new(bytes: &'a [u8], base: u64) -> Self {
        Cursor {
            bytes,
            pos: 0,
            base,
        }
    }

    /// The file offset of the next byte.
    pub(crate) fn offset(&self) -> u64 {
        self.base + self.pos as u64
    }

    /// The next byte, not consumed.
    pub(crate) fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    pub(crate) fn remaining(&self) -> usize {
        self.bytes.len() - self.pos
    }

    /// An error about `what` at the current position.
    pub(crate) fn corrupt(&self, what: &'static str) -> Error {
        Error::Corrupt {
            what,
            offset: Some(self.offset()),
            path: None,
        }
    }

    /// The next `n` bytes; `what` names them if the input ends first.
    pub(crate) fn take(&mut self, n: usize, what: &'static str) -> Result<&'a [u8]> {
        if n > self.remaining() {
            return Err(self.corrupt(what));
        }
        let bytes = &self.bytes[self.pos..self.pos + n];
        self.pos += n;
        Ok(bytes)
    }

    pub(crate) fn array<const N: usize>(&mut self, what: &'static str) -> Result<[u8; N]> {
        Ok(self.take(N, what)?.try_into().expect("N bytes"))
    }

    pub(crate) fn u8(&mut self, what: &'static str) -> Result<u8> {
        Ok(self.array::<1>(what)?[0])
    }

    pub(crate) fn i32(&mut self, what: &'static str) -> Result<i32> {
        self.array(what).map(i32::from_le_bytes)
    }

    pub(crate) fn u32(&mut self, what: &'static str) -> Result<u32> {
        self.array(what).map(u32::from_le_bytes)
    }

    /// A big-endian `u16`.
    pub(crate) fn u16_be(&mut self, what: &'static str) -> Result<u16> {
        self.array(what).map(u16::from_be_bytes)
    }

    /// A big-endian `u32`.
    pub(crate) fn u32_be(&mut self, what: &'static str) -> Result<u32> {
        self.array(what).map(u32::from_be_bytes)
    }

    /// Whether every byte has been read.
    pub(crate) fn is_empty(&self) -> bool {
        self.remaining() == 0
    }

    /// A NUL-terminated name of 1 to `max` bytes (the NUL not counted).
    pub(crate) fn name(&mut self, max: usize, what: &'static str) -> Result<&'a [u8]> {
        let rest = &self.bytes[self.pos..];
        let len = memchr::memchr(0, &rest[..rest.len().min(max + 1)])
            .ok_or_else(|| self.corrupt(what))?;
        if len == 0 {
            return Err(self.corrupt(what));
        }
        self.pos += len + 1;
        Ok(&rest[..len])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_are_bounded_and_errors_say_where() {
        let mut c = Cursor::new(b"ab\0\x01\x00\x00\x00xyz", 100);
        assert_eq!(c.name(31, "name").unwrap(), b"ab");
        assert_eq!(c.i32("int").unwrap(), 1);
        let err = c.u32("the value").unwrap_err();
        assert!(matches!(
            err,
            Error::Corrupt {
                what: "the value",
                offset: Some(107),
                path: None,
            }
        ));
        assert_eq!(c.take(3, "rest").unwrap(), b"xyz");
        let mut long = Cursor::new(b"abcd\0", 0);
        assert!(long.name(3, "name").is_err());
        assert!(Cursor::new(b"\0", 0).name(3, "name").is_err());
    }
}
