//! OpenEXR's RLE: split + byte delta, then runs. A count byte c ≥ 0 is
//! followed by one byte repeated c + 1 times; c < 0 by -c literal bytes.
//! Runs are 3 to 128 bytes; literal stretches up to 127.

use crate::exr::filter::delta;
use crate::scratch::with_buffer;
use crate::{Error, Result};

const MIN_RUN: usize = 3;
const MAX_RUN: usize = 127;

/// Appends `raw` compressed to `out` (the same bytes OpenEXR writes).
pub(crate) fn compress(raw: &[u8], out: &mut Vec<u8>) {
    with_buffer(raw.len(), |filtered| {
        delta::split_delta_encode(raw, filtered);
        encode_runs(filtered, out);
    })
}

/// Decompresses `packed` into exactly `out.len()` bytes.
pub(crate) fn decompress(packed: &[u8], out: &mut [u8]) -> Result<()> {
    with_buffer(out.len(), |filtered| {
        decode_runs(packed, filtered)?;
        delta::split_delta_decode(filtered, out);
        Ok(())
    })
}

pub(crate) fn encode_runs(src: &[u8], out: &mut Vec<u8>) {
    let mut start = 0;
    while start < src.len() {
        // The run of bytes equal to src[start], up to MAX_RUN + 1 long.
        let run = src[start..]
            .iter()
            .take(MAX_RUN + 1)
            .take_while(|&&b| b == src[start])
            .count();
        if run >= MIN_RUN {
            out.push((run - 1) as u8);
            out.push(src[start]);
            start += run;
            continue;
        }
        // Literals until three equal bytes begin, up to MAX_RUN.
        let mut end = start + 1;
        while end < src.len()
            && end - start < MAX_RUN
            && !(end + 2 < src.len() && src[end] == src[end + 1] && src[end + 1] == src[end + 2])
        {
            end += 1;
        }
        out.push((-((end - start) as i32)) as u8);
        out.extend_from_slice(&src[start..end]);
        start = end;
    }
}

pub(crate) fn decode_runs(packed: &[u8], out: &mut [u8]) -> Result<()> {
    let (mut at, mut written) = (0, 0);
    while at < packed.len() {
        let count = packed[at] as i8;
        at += 1;
        if count < 0 {
            let n = usize::from(count.unsigned_abs());
            let literal = packed
                .get(at..at + n)
                .ok_or_else(|| Error::corrupt("an RLE chunk's literal bytes run past its end"))?;
            out.get_mut(written..written + n)
                .ok_or_else(|| {
                    Error::corrupt("an RLE chunk decodes to more bytes than its lines hold")
                })?
                .copy_from_slice(literal);
            at += n;
            written += n;
        } else {
            let n = count as usize + 1;
            let &byte = packed
                .get(at)
                .ok_or_else(|| Error::corrupt("an RLE chunk ends inside a run"))?;
            out.get_mut(written..written + n)
                .ok_or_else(|| {
                    Error::corrupt("an RLE chunk decodes to more bytes than its lines hold")
                })?
                .fill(byte);
            at += 1;
            written += n;
        }
    }
    if written != out.len() {
        return Err(Error::corrupt(
            "an RLE chunk decodes to fewer bytes than its lines hold",
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_round_trip_on_every_kind_of_input() {
        let inputs: Vec<Vec<u8>> = vec![
            vec![],
            vec![7],
            vec![1, 1],
            vec![1, 1, 1],
            vec![0; 1000],
            (0..1000u32).map(|i| (i % 7) as u8).collect(),
            (0..1000u32).map(|i| (i / 50) as u8).collect(),
            (0..777u32).map(|i| (i * i % 253) as u8).collect(),
        ];
        for src in inputs {
            let mut packed = Vec::new();
            encode_runs(&src, &mut packed);
            let mut back = vec![0; src.len()];
            decode_runs(&packed, &mut back).unwrap();
            assert_eq!(back, src);
            let mut whole = Vec::new();
            compress(&src, &mut whole);
            let mut out = vec![0; src.len()];
            decompress(&whole, &mut out).unwrap();
            assert_eq!(out, src);
        }
    }

    #[test]
    fn runs_are_coded_as_openexr_codes_them() {
        let mut packed = Vec::new();
        encode_runs(&[5, 5, 5, 5, 1, 2, 3, 3, 3], &mut packed);
        assert_eq!(packed, [3, 5, 0xfe, 1, 2, 2, 3]);
        let mut long = Vec::new();
        encode_runs(&[9; 300], &mut long);
        assert_eq!(long, [127, 9, 127, 9, 43, 9]);
    }

    #[test]
    fn damaged_runs_are_errors() {
        let mut out = [0; 4];
        assert!(decode_runs(&[0xfe, 1], &mut out).is_err());
        assert!(decode_runs(&[5, 1], &mut out).is_err());
        assert!(decode_runs(&[1, 1], &mut out).is_err());
        assert!(decode_runs(&[2], &mut out).is_err());
    }
}
