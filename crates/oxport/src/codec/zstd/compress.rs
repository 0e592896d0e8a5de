//! One-shot compression: one frame that records its content size, written
//! straight into the output (no intermediate buffer).

use super::context::with_compressor;
use super::dict::{DictUse, Dictionary};
use super::params::CompressParams;
use super::refused;
use crate::codec::Output;
use crate::codec::output::Fixed;
use crate::{Error, Result};

/// The most bytes compressing `len` bytes can take.
pub fn compress_bound(len: usize) -> usize {
    zstd_safe::compress_bound(len)
}

/// Compresses `data` into one frame appended to `out`. `dict`: a dictionary
/// and how to give it to zstd.
pub fn compress(
    data: &[u8],
    params: &CompressParams,
    dict: Option<(&Dictionary, DictUse)>,
    out: &mut (impl Output + ?Sized),
) -> Result<()> {
    let bound = compress_bound(data.len());
    with_compressor(|context| {
        params.apply(context)?;
        if let Some((dict, usage)) = dict {
            // SAFETY: `with_compressor` resets the context before it returns,
            // and the dictionary outlives the call.
            unsafe { dict.attach_compressor(context, usage, params.level())? };
        }
        let spare = out.spare(bound)?;
        let written = context.compress2(spare, data).map_err(|code| {
            if zstd_safe::get_error_name(code).contains("Destination buffer") {
                Error::invalid(format!(
                    "the output buffer is too small: up to {bound} bytes needed, {} available",
                    spare.len()
                ))
            } else {
                refused(code)
            }
        })?;
        // SAFETY: zstd wrote `written` bytes at the start of `spare`.
        unsafe { out.commit(written) };
        Ok(())
    })
}

/// Compresses `data` into one frame in `buf`; the size written. A buffer
/// of [`compress_bound`] bytes is always large enough.
pub fn compress_into(
    data: &[u8],
    params: &CompressParams,
    dict: Option<(&Dictionary, DictUse)>,
    buf: &mut [u8],
) -> Result<usize> {
    let mut fixed = Fixed::new(buf);
    compress(data, params, dict, &mut fixed)?;
    Ok(fixed.len())
}
#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::zstd::{CompressionParameter, DecompressOptions, decompress};

    #[test]
    fn frames_record_their_size_and_round_trip() {
        let data: Vec<u8> = (0..300_000u32).map(|i| (i % 97) as u8).collect();
        for level in [-3, 1, 3, 19] {
            let mut out = b"head".to_vec();
            compress(
                &data,
                &CompressParams::with_level(level).unwrap(),
                None,
                &mut out,
            )
            .unwrap();
            assert_eq!(&out[..4], b"head");
            let frame = &out[4..];
            assert_eq!(
                zstd_safe::get_frame_content_size(frame).unwrap(),
                Some(data.len() as u64)
            );
            let mut back = Vec::new();
            decompress(frame, &DecompressOptions::default(), &mut back).unwrap();
            assert_eq!(back, data);
            let mut buf = vec![0u8; compress_bound(data.len())];
            let n = compress_into(
                &data,
                &CompressParams::with_level(level).unwrap(),
                None,
                &mut buf,
            )
            .unwrap();
            assert_eq!(&buf[..n], frame);
        }
        let mut tiny = [0u8; 5];
        assert!(compress_into(&data, &CompressParams::default(), None, &mut tiny).is_err());
    }

    #[test]
    fn parameters_and_threads_apply() {
        let data: Vec<u8> = (0..3_000_000u32)
            .map(|i| (i.wrapping_mul(2_654_435_761) >> 29) as u8)
            .collect();
        let mut params = CompressParams::default();
        params.set(CompressionParameter::ChecksumFlag, 1).unwrap();
        params.set(CompressionParameter::NbWorkers, 2).unwrap();
        let mut out = Vec::new();
        compress(&data, &params, None, &mut out).unwrap();
        // The checksum flag is bit 2 of the frame header descriptor.
        assert_ne!(out[4] & 0x04, 0);
        let mut back = Vec::new();
        decompress(&out, &DecompressOptions::default(), &mut back).unwrap();
        assert_eq!(back, data);
    }
}
