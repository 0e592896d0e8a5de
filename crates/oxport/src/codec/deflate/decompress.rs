//! One-shot deflate decompression: gzip members one after another, each
//! into room its trailer announces; zlib and raw deflate into a guess that
//! doubles until the stream fits.

use std::mem::MaybeUninit;

use libdeflate_sys as sys;

use super::context::with_decompressor;
use super::{Format, MAX_RATIO};
use crate::codec::Output;
use crate::codec::output::{Fixed, too_small};
use crate::{Error, Result};

enum Outcome {
    /// Input bytes consumed, output bytes written.
    Done(usize, usize),
    NoRoom,
}

fn corrupt(format: Format, at: usize) -> Error {
    Error::Corrupt {
        what: match format {
            Format::Raw => "damaged or truncated deflate stream",
            Format::Zlib => "damaged or truncated zlib stream (or not zlib)",
            Format::Gzip => "damaged or truncated gzip member (or not gzip)",
        },
        offset: Some(at as u64),
        path: None,
    }
}

/// One stream (one gzip member) at the start of `data` into `out`.
fn inflate(data: &[u8], format: Format, out: &mut [MaybeUninit<u8>]) -> Result<Option<Outcome>> {
    with_decompressor(|decompressor| {
        let (input, n, output, room) = (
            data.as_ptr().cast(),
            data.len(),
            out.as_mut_ptr().cast(),
            out.len(),
        );
        let (mut read, mut written) = (0usize, 0usize);
        let decompress = match format {
            Format::Raw => sys::libdeflate_deflate_decompress_ex,
            Format::Zlib => sys::libdeflate_zlib_decompress_ex,
            Format::Gzip => sys::libdeflate_gzip_decompress_ex,
        };
        // SAFETY: both buffers are valid for their lengths; libdeflate
        // writes at most `room` bytes.
        let result = unsafe {
            decompress(
                decompressor,
                input,
                n,
                output,
                room,
                &mut read,
                &mut written,
            )
        };
        Ok(match result {
            sys::libdeflate_result_LIBDEFLATE_SUCCESS => Some(Outcome::Done(read, written)),
            sys::libdeflate_result_LIBDEFLATE_INSUFFICIENT_SPACE => Some(Outcome::NoRoom),
            _ => None,
        })
    })
}

/// Decompresses `data` (a deflate, zlib or gzip stream; gzip: every member,
/// with zero padding between and after them allowed as `gzip.decompress`
/// allows it) and appends the result to `out`. `max_output`: the most
/// bytes the output may have. `size_hint`: the expected size, when the
/// caller knows it (the first allocation; zlib's `bufsize`).
pub fn decompress(
    data: &[u8],
    format: Format,
    max_output: Option<u64>,
    size_hint: Option<usize>,
    out: &mut (impl Output + ?Sized),
) -> Result<()> {
    if format == Format::Gzip && data.is_empty() {
        // As `gzip.decompress(b"")`.
        return Ok(());
    }
    let start = out.len();
    let mut at = 0;
    loop {
        let member = &data[at..];
        let produced = (out.len() - start) as u64;
        // The most this stream can hold, and the most the caller allows.
        let possible = (member.len() as u64)
            .saturating_mul(MAX_RATIO)
            .saturating_add(1024);
        let allowed = max_output.map_or(u64::MAX, |limit| limit.saturating_sub(produced));
        let cap = usize::try_from(possible.min(allowed.saturating_add(1))).unwrap_or(usize::MAX);
        let guess = match size_hint {
            Some(hint) if at == 0 => hint.max(1),
            _ => first_guess(member, format),
        };
        let mut want = guess.min(cap);
        loop {
            let spare = out.spare(want)?;
            let room = spare.len().min(cap);
            match inflate(member, format, &mut spare[..room])? {
                Some(Outcome::Done(read, written)) => {
                    // SAFETY: libdeflate wrote `written` bytes at the start of `spare`.
                    unsafe { out.commit(written) };
                    if (out.len() - start) as u64 > max_output.unwrap_or(u64::MAX) {
                        return Err(Error::TooLarge {
                            limit: max_output.unwrap_or(u64::MAX),
                        });
                    }
                    at += read;
                    break;
                }
                Some(Outcome::NoRoom) if room < cap => {
                    if room < want {
                        // A caller's buffer, full.
                        return Err(too_small("more", out.len() + room));
                    }
                    want = room.saturating_mul(2).min(cap);
                }
                Some(Outcome::NoRoom) if possible >= allowed.saturating_add(1) => {
                    return Err(Error::TooLarge {
                        limit: max_output.unwrap_or(u64::MAX),
                    });
                }
                _ => return Err(corrupt(format, at)),
            }
        }
        if format != Format::Gzip {
            if at != data.len() {
                return Err(Error::Corrupt {
                    what: "data after the end of the compressed stream",
                    offset: Some(at as u64),
                    path: None,
                });
            }
            return Ok(());
        }
        at += data[at..].iter().take_while(|&&b| b == 0).count();
        if at == data.len() {
            return Ok(());
        }
    }
}

/// The room to try first: gzip's trailer gives the size of the last member
/// (modulo 2^32), exact for the usual single member; otherwise a few times
/// the input.
fn first_guess(member: &[u8], format: Format) -> usize {
    if format == Format::Gzip && member.len() >= 18 {
        let trailer = &member[member.len() - 4..];
        // Padding after the member, or another member, spoils the trailer;
        // then the guess is merely too small or too large.
        return (u32::from_le_bytes(trailer.try_into().expect("4 bytes")) as usize).max(1);
    }
    member.len().saturating_mul(4).max(1 << 12)
}

/// Decompresses `data` into `buf`; the size written.
pub fn decompress_into(data: &[u8], format: Format, buf: &mut [u8]) -> Result<usize> {
    let mut fixed = Fixed::new(buf);
    decompress(data, format, None, None, &mut fixed)?;
    Ok(fixed.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::deflate::{Engine, compress, compress_bound, compress_into};

    fn sample(n: usize) -> Vec<u8> {
        (0..n as u32)
            .map(|i| ((i / 5) % 97 + (i % 3)) as u8)
            .collect()
    }

    #[test]
    fn every_format_and_level_round_trips() {
        for n in [0, 1, 1000, 300_000] {
            let data = sample(n);
            for format in [Format::Raw, Format::Zlib, Format::Gzip] {
                for (level, engine) in [0, 1, 2, 3, 6, 9, 12]
                    .into_iter()
                    .flat_map(|level| [(level, Engine::Fastest), (level, Engine::Libdeflate)])
                {
                    let mut packed = Vec::new();
                    compress(&data, level, format, engine, &mut packed).unwrap();
                    assert!(packed.len() <= compress_bound(n, format));
                    let mut back = Vec::new();
                    decompress(&packed, format, None, None, &mut back).unwrap();
                    assert_eq!(back, data, "{format:?} {level} {engine:?} {n}");
                    let mut buf = vec![0u8; n];
                    assert_eq!(decompress_into(&packed, format, &mut buf).unwrap(), n);
                    let mut again = vec![0u8; compress_bound(n, format)];
                    let m = compress_into(&data, level, format, engine, &mut again).unwrap();
                    assert_eq!(&again[..m], &packed[..]);
                }
            }
        }
        assert!(compress(b"x", 13, Format::Zlib, Engine::Fastest, &mut Vec::new()).is_err());
    }

    #[test]
    fn gzip_members_and_padding_are_read_like_python() {
        let (a, b) = (sample(100_000), b"second member".to_vec());
        let mut packed = Vec::new();
        compress(&a, 6, Format::Gzip, Engine::Fastest, &mut packed).unwrap();
        packed.extend_from_slice(&[0; 7]);
        compress(&b, 1, Format::Gzip, Engine::Fastest, &mut packed).unwrap();
        packed.extend_from_slice(&[0; 3]);
        let mut back = Vec::new();
        decompress(&packed, Format::Gzip, None, None, &mut back).unwrap();
        assert_eq!(back, [a.clone(), b].concat());
        packed.push(1);
        assert!(decompress(&packed, Format::Gzip, None, None, &mut Vec::new()).is_err());
    }

    #[test]
    fn limits_truncation_and_small_buffers_are_errors() {
        let data = vec![0u8; 5 << 20];
        for format in [Format::Raw, Format::Zlib, Format::Gzip] {
            let mut packed = Vec::new();
            compress(&data, 6, format, Engine::Fastest, &mut packed).unwrap();
            let mut out = Vec::new();
            let error = decompress(&packed, format, Some(1 << 20), None, &mut out).unwrap_err();
            assert!(
                matches!(error, Error::TooLarge { .. }),
                "{format:?}: {error}"
            );
            assert!(out.capacity() <= 2 << 20);
            decompress(&packed, format, Some(5 << 20), None, &mut out).unwrap();
            assert_eq!(out.len(), 5 << 20);
            let cut = &packed[..packed.len() - 5];
            assert!(matches!(
                decompress(cut, format, None, None, &mut Vec::new()),
                Err(Error::Corrupt { .. })
            ));
            let mut small = vec![0u8; 1000];
            assert!(decompress_into(&packed, format, &mut small).is_err());
        }
        assert!(decompress(b"", Format::Zlib, None, None, &mut Vec::new()).is_err());
        decompress(b"", Format::Gzip, None, None, &mut Vec::new()).unwrap();
        let mut zlib = Vec::new();
        compress(b"abc", 6, Format::Zlib, Engine::Fastest, &mut zlib).unwrap();
        zlib.push(0);
        assert!(decompress(&zlib, Format::Zlib, None, None, &mut Vec::new()).is_err());
    }
}
